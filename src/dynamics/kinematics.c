#include "kinematics.h"

#include <math.h>
#include <string.h>

#include "math3.h"

/* Material rotation of a rotor about its axis a, turned by th from the
 * state's frame Rv: R = Rv Rot_a(th), so R's column a is Rv's and the two
 * across it turn by th. Row-major 3x3. */
static void turn_about_axis(const double Rv[9], int a, double th, double R[9]) {
  int j = (a + 1) % 3, k = (a + 2) % 3;
  double c = cos(th), s = sin(th);
  for (int r = 0; r < 3; r++) {
    R[3 * r + a] = Rv[3 * r + a];
    R[3 * r + j] = c * Rv[3 * r + j] + s * Rv[3 * r + k];
    R[3 * r + k] = -s * Rv[3 * r + j] + c * Rv[3 * r + k];
  }
}

/* An attached rotor's kinematics from its parent's (docs/engine.md,
 * "Attached rotors"): its state's frame is the parent's turned by R0, so it
 * turns at the parent's whole rate wv; its rate about its axis is its own
 * state, and its material body is turned from that frame by its own turn. */
static void attached_kin(const nsed_model *m, int i, const double *x, const nsedi_kin *kp,
                         nsedi_kin *k) {
  const nsedi_body *b = &m->body[i];
  int a = b->rotor_axis;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      k->Rv[3 * r + c] = kp->Rv[3 * r] * b->R0[c] + kp->Rv[3 * r + 1] * b->R0[3 + c] +
                         kp->Rv[3 * r + 2] * b->R0[6 + c];
  nsedi_quat_mul(k->q, kp->q, b->q0);
  double d[3], t[3];
  nsedi_m3_mulv(d, kp->R, b->rho);
  nsedi_v3_add(k->r, kp->r, d);
  nsedi_v3_cross(t, kp->ww, d);
  nsedi_v3_add(k->v, kp->v, t);
  nsedi_m3_mulTv(k->wv, b->R0, kp->wb);
  nsedi_v3_copy(k->wb, k->wv);
  k->wb[a] = x[b->xrate];
  nsedi_m3_mulv(k->ww, k->Rv, k->wb);
  nsedi_v3_cross(k->fa, k->wv, k->wb);
  /* Only what reads the material frame beyond the axis needs the turn
   * (model: material_turn); the axis is Rv's either way. */
  if (b->material_turn)
    turn_about_axis(k->Rv, a, x[b->xspin], k->R);
  else
    memcpy(k->R, k->Rv, sizeof k->R);
}

/* A body with 13 states of its own. */
static void own_kin(const nsed_model *m, int i, const double *x, nsedi_kin *k) {
  const double *s = x + m->body[i].xbody;
  nsedi_v3_copy(k->r, s);
  for (int j = 0; j < 4; j++) k->q[j] = s[3 + j];
  nsedi_quat_to_mat(k->Rv, k->q);
  nsedi_v3_copy(k->v, s + 7);
  nsedi_v3_copy(k->wb, s + 10);
  nsedi_m3_mulv(k->ww, k->Rv, k->wb);
  nsedi_v3_copy(k->wv, k->wb);
  int a = m->body[i].rotor_axis;
  if (a < 0) {
    memcpy(k->R, k->Rv, sizeof k->R);
    nsedi_v3_set(k->fa, 0, 0, 0);
    return;
  }
  turn_about_axis(k->Rv, a, x[m->body[i].xspin], k->R);
  k->wv[a] = 0;
  nsedi_v3_cross(k->fa, k->wv, k->wb);
}

void nsedi_kin_eval(const nsed_model *m, const double *x, nsedi_kin *kin) {
  for (int i = 0; i < m->nbody; i++)
    if (m->body[i].parent < 0) own_kin(m, i, x, &kin[i]);
  if (m->nattached == 0) return;
  for (int i = 0; i < m->nbody; i++)
    if (m->body[i].parent >= 0) attached_kin(m, i, x, &kin[m->body[i].parent], &kin[i]);
}

void nsedi_kin_point(const nsedi_kin *k, const double p[3], double out[3]) {
  if (!k) {
    nsedi_v3_copy(out, p);
    return;
  }
  double t[3];
  nsedi_m3_mulv(t, k->R, p);
  nsedi_v3_add(out, k->r, t);
}

void nsedi_kin_dir(const nsedi_kin *k, const double u[3], double out[3]) {
  if (!k)
    nsedi_v3_copy(out, u);
  else
    nsedi_m3_mulv(out, k->R, u);
}

void nsedi_kin_body_output(const nsed_model *m, int i, const double *x, double out[13]) {
  nsedi_kin kb, kp;
  int p = m->body[i].parent;
  if (p < 0) {
    own_kin(m, i, x, &kb);
  } else {
    own_kin(m, p, x, &kp);
    attached_kin(m, i, x, &kp, &kb);
  }
  const nsedi_kin *kk = &kb;
  nsedi_v3_copy(out, kk->r);
  nsedi_v3_copy(out + 7, kk->v);
  int a = m->body[i].rotor_axis;
  if (a < 0) {
    for (int j = 0; j < 4; j++) out[3 + j] = kk->q[j];
    nsedi_v3_copy(out + 10, kk->wb);
  } else {
    /* q_mat = q (x) (cos(th/2), sin(th/2) e_a); w_mat = Rot_a(th)^T wb. */
    double th = x[m->body[i].xspin], turn[4] = {cos(0.5 * th), 0, 0, 0};
    turn[1 + a] = sin(0.5 * th);
    nsedi_quat_mul(out + 3, kk->q, turn);
    int j = (a + 1) % 3, k = (a + 2) % 3;
    double c = cos(th), sn = sin(th);
    out[10 + a] = kk->wb[a];
    out[10 + j] = c * kk->wb[j] + sn * kk->wb[k];
    out[10 + k] = -sn * kk->wb[j] + c * kk->wb[k];
  }
  nsedi_quat_normalize(out + 3);
}
