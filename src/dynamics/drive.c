#include "drive.h"

#include <math.h>

#include "math3.h"

void nsedi_joint_angle(const nsed_model *m, int j, const nsedi_kin *kin, const double *x, double *q,
                       double *qd) {
  const nsedi_joint *J = &m->joint[j];
  const nsedi_kin *ka = J->a < 0 ? NULL : &kin[J->a], *kb = &kin[J->b];
  double axis[3], p1[3], q1[3], c[3], dw[3];
  nsedi_kin_dir(ka, J->def.axis_a, axis);
  nsedi_kin_dir(ka, J->pa1, p1);
  nsedi_kin_dir(kb, J->pb1, q1);
  nsedi_v3_cross(c, p1, q1);
  double geo = atan2(nsedi_v3_dot(c, axis), nsedi_v3_dot(p1, q1));
  /* The integrated angle only picks the turn; the value is the geometry's. */
  if (x && J->xangle >= 0) geo = x[J->xangle] + remainder(geo - x[J->xangle], 2 * M_PI);
  *q = geo;
  nsedi_v3_copy(dw, kb->ww);
  if (ka) nsedi_v3_sub(dw, dw, ka->ww);
  *qd = nsedi_v3_dot(axis, dw);
}

void nsedi_joint_axial(const nsed_model *m, int j, const nsedi_kin *kin, double axis[3],
                       double rhoa[3], double rhob[3], double *s, double *sd) {
  const nsedi_joint *J = &m->joint[j];
  const nsedi_kin *ka = J->a < 0 ? NULL : &kin[J->a], *kb = &kin[J->b];
  double PA[3], PB[3], d[3], va[3] = {0, 0, 0}, vb[3], t[3], wa[3] = {0, 0, 0};
  nsedi_kin_point(ka, J->def.anchor_a, PA);
  nsedi_kin_point(kb, J->def.anchor_b, PB);
  nsedi_kin_dir(ka, J->def.axis_a, axis);
  if (ka) {
    nsedi_v3_sub(rhoa, PA, ka->r);
    nsedi_v3_cross(t, ka->ww, rhoa);
    nsedi_v3_add(va, ka->v, t);
    nsedi_v3_copy(wa, ka->ww);
  }
  nsedi_v3_sub(rhob, PB, kb->r);
  nsedi_v3_cross(t, kb->ww, rhob);
  nsedi_v3_add(vb, kb->v, t);
  nsedi_v3_sub(d, PB, PA);
  *s = nsedi_v3_dot(axis, d);
  /* d/dt (axis . d) with axis turning with A: axis . dv + (wa x axis) . d. */
  double dv[3], ad[3];
  nsedi_v3_sub(dv, vb, va);
  nsedi_v3_cross(ad, wa, axis);
  *sd = nsedi_v3_dot(axis, dv) + nsedi_v3_dot(ad, d);
}

double nsedi_drive_force(const nsed_joint_drive *dr, double t, double q, double qd) {
  switch (dr->type) {
    case NSED_DRIVE_NONE:
      return 0.0;
    case NSED_DRIVE_FEEDBACK: {
      double ref[3];
      nsedi_law_derivs(&dr->reference, t, ref);
      return nsed_law_eval(&dr->feedforward, t) - dr->k * (q - ref[0]) - dr->c * (qd - ref[1]);
    }
    case NSED_DRIVE_TABLE:
      return nsed_law_eval(&dr->table, dr->input == NSED_DRIVE_OF_RATE ? qd : q);
  }
  return 0.0;
}
