#include "kinematics.h"

#include "math3.h"

void nsedi_kin_eval(const nsed_model *m, const double *x, nsedi_kin *kin) {
  for (int i = 0; i < m->nbody; i++) {
    const double *s = x + 13 * i;
    nsedi_kin *k = &kin[i];
    nsedi_v3_copy(k->r, s);
    for (int j = 0; j < 4; j++) k->q[j] = s[3 + j];
    nsedi_quat_to_mat(k->R, k->q);
    nsedi_v3_copy(k->v, s + 7);
    nsedi_v3_copy(k->wb, s + 10);
    nsedi_m3_mulv(k->ww, k->R, k->wb);
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
