/* Per-body kinematic quantities evaluated once per state: the engine's
 * "hot" cache. State layout per body (13 numbers): r[3] q[4] v[3] w[3],
 * w in the axes of q (the state's frame); a rotor's turn about its axis
 * relative to that frame is an extra state (docs/engine.md, "Rotors").
 * Generalised velocity per body (6): (v world, w in the state's frame).
 *
 * Two rotations, equal except for rotors: R carries body-fixed points and
 * directions (the material body, everything geometric uses it); Rv carries
 * the generalised angular velocity's axes (Jacobians' angular parts and
 * generalised torques use its transpose). */
#ifndef NSED_DYNAMICS_KINEMATICS_H
#define NSED_DYNAMICS_KINEMATICS_H

#include "model_impl.h"

typedef struct {
  double r[3];  /* centre of mass, world */
  double q[4];  /* the state's frame, as integrated (not necessarily unit) */
  double R[9];  /* body -> world rotation of the material body; an attached rotor whose
                   material_turn is 0 (nothing reads more of it than its axis): Rv, the
                   same axis */
  double Rv[9]; /* state's frame -> world rotation T(q) (= R unless a rotor) */
  double v[3];  /* centre-of-mass velocity, world */
  double wb[3]; /* angular velocity, in the state's frame (the state's w) */
  double ww[3]; /* angular velocity, world axes */
  double wv[3]; /* the state's frame's own angular velocity, in its axes: wb less a rotor's
                   spin about its axis (= wb unless a rotor) */
  double fa[3]; /* wv x wb: the world angular acceleration is Rv (dwb/dt + fa), so a row's
                   bias carries its angular Jacobian times fa (zero unless a rotor) */
} nsedi_kin;

/* Fill kin[0..nbody-1] from the state vector x (13 per body at its xbody,
 * rotors' turns at their xspin; attached rotors from their parents and
 * their rates at xrate). */
void nsedi_kin_eval(const nsed_model *m, const double *x, nsedi_kin *kin);

/* World position of a body-fixed point p (body frame); ground: p itself. */
void nsedi_kin_point(const nsedi_kin *k, const double p[3], double out[3]);

/* A body-fixed direction in world axes; ground: u itself. */
void nsedi_kin_dir(const nsedi_kin *k, const double u[3], double out[3]);

/* Body i's 13 output numbers (r, unit material quaternion, v, material
 * angular velocity in body axes) from the state x: a rotor's state's frame
 * turned by its spin angle about its axis, an attached rotor's from its
 * parent's states. */
void nsedi_kin_body_output(const nsed_model *m, int i, const double *x, double out[13]);

#endif
