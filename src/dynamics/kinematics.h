/* Per-body kinematic quantities evaluated once per state: the engine's
 * "hot" cache. State layout per body (13 numbers): r[3] q[4] v[3] w[3],
 * w in body axes. Generalised velocity per body (6): (v world, w body). */
#ifndef NSED_DYNAMICS_KINEMATICS_H
#define NSED_DYNAMICS_KINEMATICS_H

#include "model_impl.h"

typedef struct {
  double r[3];  /* centre of mass, world */
  double q[4];  /* as integrated (not necessarily unit) */
  double R[9];  /* body -> world rotation T(q) */
  double v[3];  /* centre-of-mass velocity, world */
  double wb[3]; /* angular velocity, body axes */
  double ww[3]; /* angular velocity, world axes */
} nsedi_kin;

/* Fill kin[0..nbody-1] from the state vector x (13 per body). */
void nsedi_kin_eval(const nsed_model *m, const double *x, nsedi_kin *kin);

/* World position of a body-fixed point p (body frame); ground: p itself. */
void nsedi_kin_point(const nsedi_kin *k, const double p[3], double out[3]);

/* A body-fixed direction in world axes; ground: u itself. */
void nsedi_kin_dir(const nsedi_kin *k, const double u[3], double out[3]);

#endif
