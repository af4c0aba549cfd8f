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

void nsedi_kin_eval(const nsed_model *m, const double *x, nsedi_kin *kin) {
  for (int i = 0; i < m->nbody; i++) {
    const double *s = x + 13 * i;
    nsedi_kin *k = &kin[i];
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
      continue;
    }
    turn_about_axis(k->Rv, a, x[m->body[i].xspin], k->R);
    k->wv[a] = 0;
    nsedi_v3_cross(k->fa, k->wv, k->wb);
  }
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

void nsedi_body_material(const nsed_model *m, int i, const double *x, double q_mat[4],
                         double w_mat[3]) {
  const double *s = x + 13 * i;
  int a = m->body[i].rotor_axis;
  if (a < 0) {
    for (int j = 0; j < 4; j++) q_mat[j] = s[3 + j];
    nsedi_v3_copy(w_mat, s + 10);
    return;
  }
  /* q_mat = q (x) (cos(th/2), sin(th/2) e_a); w_mat = Rot_a(th)^T w. */
  double th = x[m->body[i].xspin], turn[4] = {cos(0.5 * th), 0, 0, 0};
  turn[1 + a] = sin(0.5 * th);
  nsedi_quat_mul(q_mat, s + 3, turn);
  int j = (a + 1) % 3, k = (a + 2) % 3;
  double c = cos(th), sn = sin(th);
  w_mat[a] = s[10 + a];
  w_mat[j] = c * s[10 + j] + sn * s[10 + k];
  w_mat[k] = -sn * s[10 + j] + c * s[10 + k];
}
