/* Small fixed-size vector, matrix and quaternion kernels: inline, no
 * allocation, output first, alias-safe (results go through temporaries).
 * Matrices are 3x3 row-major: R[3*i + j]. Quaternions are scalar first. */
#ifndef NSED_CORE_MATH3_H
#define NSED_CORE_MATH3_H

#include <math.h>

static inline void nsedi_v3_set(double r[3], double x, double y, double z) {
  r[0] = x;
  r[1] = y;
  r[2] = z;
}
static inline void nsedi_v3_copy(double r[3], const double a[3]) {
  r[0] = a[0];
  r[1] = a[1];
  r[2] = a[2];
}
static inline double nsedi_v3_dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline double nsedi_v3_norm(const double a[3]) { return sqrt(nsedi_v3_dot(a, a)); }
static inline void nsedi_v3_cross(double r[3], const double a[3], const double b[3]) {
  double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  nsedi_v3_copy(r, t);
}
static inline void nsedi_v3_add(double r[3], const double a[3], const double b[3]) {
  r[0] = a[0] + b[0];
  r[1] = a[1] + b[1];
  r[2] = a[2] + b[2];
}
static inline void nsedi_v3_sub(double r[3], const double a[3], const double b[3]) {
  r[0] = a[0] - b[0];
  r[1] = a[1] - b[1];
  r[2] = a[2] - b[2];
}
static inline void nsedi_v3_scale(double r[3], const double a[3], double s) {
  r[0] = a[0] * s;
  r[1] = a[1] * s;
  r[2] = a[2] * s;
}
/* r = a + s*b */
static inline void nsedi_v3_axpy(double r[3], const double a[3], double s, const double b[3]) {
  r[0] = a[0] + s * b[0];
  r[1] = a[1] + s * b[1];
  r[2] = a[2] + s * b[2];
}
/* Normalise in place; returns the old norm (0 leaves a unchanged). */
static inline double nsedi_v3_normalize(double a[3]) {
  double n = nsedi_v3_norm(a);
  if (n > 0) nsedi_v3_scale(a, a, 1.0 / n);
  return n;
}
/* nsedi_v3_tangents projects e_x across n, or e_y when |n_x| exceeds this:
 * either way the projection keeps a length of at least 0.7 (1/sqrt(2)
 * balances the two cases), far from the cancellation of a near-parallel
 * pair. A construction constant, not a tolerance. */
#define NSEDI_TANGENT_SWITCH 0.7
/* Two unit vectors t1, t2 completing the unit n to a right-handed frame
 * (t1 x t2 = n), chosen deterministically from n alone. */
static inline void nsedi_v3_tangents(double t1[3], double t2[3], const double n[3]) {
  double a[3] = {1, 0, 0};
  if (fabs(n[0]) > NSEDI_TANGENT_SWITCH) nsedi_v3_set(a, 0, 1, 0);
  double p[3];
  nsedi_v3_axpy(p, a, -nsedi_v3_dot(a, n), n);
  nsedi_v3_normalize(p);
  nsedi_v3_copy(t1, p);
  nsedi_v3_cross(t2, n, t1);
}
/* r = R a */
static inline void nsedi_m3_mulv(double r[3], const double R[9], const double a[3]) {
  double t[3] = {R[0] * a[0] + R[1] * a[1] + R[2] * a[2], R[3] * a[0] + R[4] * a[1] + R[5] * a[2],
                 R[6] * a[0] + R[7] * a[1] + R[8] * a[2]};
  nsedi_v3_copy(r, t);
}
/* r = R^T a */
static inline void nsedi_m3_mulTv(double r[3], const double R[9], const double a[3]) {
  double t[3] = {R[0] * a[0] + R[3] * a[1] + R[6] * a[2], R[1] * a[0] + R[4] * a[1] + R[7] * a[2],
                 R[2] * a[0] + R[5] * a[1] + R[8] * a[2]};
  nsedi_v3_copy(r, t);
}
/* Rotation matrix T(q) = (1/|q|^2) [...] of seed 000 §2.1: a rotation for any
 * q != 0, so |q| may drift during integration without distorting bodies. */
static inline void nsedi_quat_to_mat(double R[9], const double q[4]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double s = 1.0 / (w * w + x * x + y * y + z * z);
  R[0] = s * (w * w + x * x - y * y - z * z);
  R[1] = s * 2 * (x * y - w * z);
  R[2] = s * 2 * (x * z + w * y);
  R[3] = s * 2 * (x * y + w * z);
  R[4] = s * (w * w - x * x + y * y - z * z);
  R[5] = s * 2 * (y * z - w * x);
  R[6] = s * 2 * (x * z - w * y);
  R[7] = s * 2 * (y * z + w * x);
  R[8] = s * (w * w - x * x - y * y + z * z);
}
/* r = a * b (Hamilton product) */
static inline void nsedi_quat_mul(double r[4], const double a[4], const double b[4]) {
  double t[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                 a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                 a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                 a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
  r[0] = t[0];
  r[1] = t[1];
  r[2] = t[2];
  r[3] = t[3];
}
/* dq/dt = q * (0, w) / 2 with w in body axes. */
static inline void nsedi_quat_deriv(double dq[4], const double q[4], const double w[3]) {
  double p[4] = {0, w[0], w[1], w[2]};
  nsedi_quat_mul(dq, q, p);
  for (int i = 0; i < 4; i++) dq[i] *= 0.5;
}
static inline double nsedi_quat_normalize(double q[4]) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n > 0)
    for (int i = 0; i < 4; i++) q[i] /= n;
  return n;
}
/* Quaternion of a rotation by angle about the unit axis. */
static inline void nsedi_quat_axis_angle(double q[4], const double axis[3], double angle) {
  double s = sin(0.5 * angle);
  q[0] = cos(0.5 * angle);
  q[1] = axis[0] * s;
  q[2] = axis[1] * s;
  q[3] = axis[2] * s;
}

#endif
