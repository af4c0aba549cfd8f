/* The pieces every row is built from: a row's bodies, the Jacobian of a
 * body point's velocity along a direction and of its angular velocity
 * about one, and a material point's motion. Shared by the joint rows
 * (rows.c) and the contact pairs (contact_pairs.c). */
#ifndef NSED_DYNAMICS_ROW_PARTS_H
#define NSED_DYNAMICS_ROW_PARTS_H

#include <string.h>

#include "math3.h"
#include "rows.h"

static inline void row_init(nsedi_row *r, int a, int b) {
  memset(r, 0, sizeof *r);
  r->a = a;
  r->b = b;
}

/* j += sign * d(d . v_point)/du for the point at world offset rho. */
static inline void side_point(double j[6], const nsedi_kin *k, const double rho[3], const double d[3],
                       double sign) {
  if (!k) return;
  double c[3], cb[3];
  nsedi_v3_cross(c, rho, d);
  nsedi_m3_mulTv(cb, k->Rv, c);
  for (int i = 0; i < 3; i++) {
    j[i] += sign * d[i];
    j[3 + i] += sign * cb[i];
  }
}

/* j += sign * d(c . w_world)/du. */
static inline void side_rot(double j[6], const nsedi_kin *k, const double c[3], double sign) {
  if (!k) return;
  double cb[3];
  nsedi_m3_mulTv(cb, k->Rv, c);
  for (int i = 0; i < 3; i++) j[3 + i] += sign * cb[i];
}

/* A rotor's world angular acceleration is Rv (dwb/dt + fa), not Rv dwb/dt
 * (kinematics.h): the angular Jacobian of each side times fa joins the
 * bias. A no-op unless a side is a rotor (fa = 0). */
static inline void row_rotor_bias(nsedi_row *r, const nsedi_kin *kin) {
  for (int q = 0; q < 3; q++) {
    if (r->a >= 0) r->bias += r->ja[3 + q] * kin[r->a].fa[q];
    if (r->b >= 0) r->bias += r->jb[3 + q] * kin[r->b].fa[q];
  }
}

/* Velocity of a material point at world offset rho, and its acceleration
 * bias w x (w x rho). Ground: zero. */
static inline void point_motion(const nsedi_kin *k, const double rho[3], double vel[3], double acc[3]) {
  if (!k) {
    nsedi_v3_set(vel, 0, 0, 0);
    nsedi_v3_set(acc, 0, 0, 0);
    return;
  }
  double wr[3];
  nsedi_v3_cross(wr, k->ww, rho);
  nsedi_v3_add(vel, k->v, wr);
  nsedi_v3_cross(acc, k->ww, wr);
}

#endif
