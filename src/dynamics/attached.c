#include "attached.h"

#include "math3.h"

/* The world offset of rotor i's centre from its parent's, and kappa's
 * linear part w_p x (w_p x d). */
static void centre_motion(const nsedi_kin *kr, const nsedi_kin *kp, double d[3], double kappa[3]) {
  double t[3];
  nsedi_v3_sub(d, kr->r, kp->r);
  nsedi_v3_cross(t, kp->ww, d);
  nsedi_v3_cross(kappa, kp->ww, t);
}

/* T^T applied to a rotor's six entries J (linear world, angular in its
 * state's frame) into its parent's six: (J_l, Rv_p^T (d x J_l) + R0 P_a J_w). */
static void to_parent(const nsedi_body *b, const nsedi_kin *kp, const double d[3],
                      const double J[6], double out[6]) {
  double t[3], u[3] = {J[3], J[4], J[5]}, w[3];
  nsedi_v3_cross(t, d, J);
  nsedi_m3_mulTv(out + 3, kp->Rv, t);
  u[b->rotor_axis] = 0;
  nsedi_m3_mulv(w, b->R0, u);
  for (int k = 0; k < 3; k++) {
    out[k] = J[k];
    out[3 + k] += w[k];
  }
}

void nsedi_attached_forces(const nsed_model *m, const nsedi_kin *kin, double *f) {
  if (m->nattached == 0) return;
  for (int i = 0; i < m->nbody; i++) {
    const nsedi_body *b = &m->body[i];
    if (b->parent < 0) continue;
    const nsedi_kin *kp = &kin[b->parent];
    double d[3], kappa[3], fr[6], fp[6];
    centre_motion(&kin[i], kp, d, kappa);
    for (int k = 0; k < 6; k++) fr[k] = f[6 * i + k];
    for (int k = 0; k < 3; k++) fr[k] -= b->def.mass * kappa[k];
    to_parent(b, kp, d, fr, fp);
    for (int k = 0; k < 6; k++) {
      f[6 * b->parent + k] += fp[k];
      f[6 * i + k] = 0;
    }
    f[6 * i + 3 + b->rotor_axis] = fr[3 + b->rotor_axis];
  }
}

void nsedi_attached_row(const nsed_model *m, const nsedi_kin *kin, nsedi_row *r) {
  int on_a = r->a >= 0 && m->body[r->a].parent >= 0;
  int on_b = r->b >= 0 && m->body[r->b].parent >= 0;
  if (!on_a && !on_b) return;
  /* The model lets an attached rotor touch only the world (attached_model.c). */
  int i = on_a ? r->a : r->b;
  double *J = on_a ? r->ja : r->jb, *Jo = on_a ? r->jb : r->ja;
  const nsedi_body *b = &m->body[i];
  const nsedi_kin *kp = &kin[b->parent];
  double d[3], kappa[3];
  centre_motion(&kin[i], kp, d, kappa);
  r->bias += J[0] * kappa[0] + J[1] * kappa[1] + J[2] * kappa[2];
  to_parent(b, kp, d, J, Jo);
  int a = b->rotor_axis;
  double axial = J[3 + a];
  for (int k = 0; k < 6; k++) J[k] = 0;
  J[3 + a] = axial;
  if (on_a)
    r->b = b->parent;
  else
    r->a = b->parent;
}
