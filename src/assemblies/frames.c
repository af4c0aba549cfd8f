/* Poses of parts: rotation matrices from axes, their products and
 * quaternions. */
#include <math.h>

#include "assembly_impl.h"
#include "math3.h"

void nsedi_frame_columns(double R[9], const double x[3], const double y[3], const double z[3]) {
  for (int r = 0; r < 3; r++) {
    R[3 * r] = x[r];
    R[3 * r + 1] = y[r];
    R[3 * r + 2] = z[r];
  }
}

void nsedi_frame_mul(double C[9], const double A[9], const double B[9]) {
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      C[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
}

/* Shepperd's method: the largest of the four candidate pivots, so no
 * division by a small number. */
void nsedi_frame_quat(const double R[9], double q[4]) {
  double tr = R[0] + R[4] + R[8];
  if (tr >= R[0] && tr >= R[4] && tr >= R[8]) {
    double s = 2 * sqrt(1 + tr);
    q[0] = 0.25 * s;
    q[1] = (R[7] - R[5]) / s;
    q[2] = (R[2] - R[6]) / s;
    q[3] = (R[3] - R[1]) / s;
  } else if (R[0] >= R[4] && R[0] >= R[8]) {
    double s = 2 * sqrt(1 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s;
    q[1] = 0.25 * s;
    q[2] = (R[1] + R[3]) / s;
    q[3] = (R[2] + R[6]) / s;
  } else if (R[4] >= R[8]) {
    double s = 2 * sqrt(1 + R[4] - R[0] - R[8]);
    q[0] = (R[2] - R[6]) / s;
    q[1] = (R[1] + R[3]) / s;
    q[2] = 0.25 * s;
    q[3] = (R[5] + R[7]) / s;
  } else {
    double s = 2 * sqrt(1 + R[8] - R[0] - R[4]);
    q[0] = (R[3] - R[1]) / s;
    q[1] = (R[2] + R[6]) / s;
    q[2] = (R[5] + R[7]) / s;
    q[3] = 0.25 * s;
  }
}

void nsedi_body_state(nsed_body_def *b, const nsedi_motion *p) {
  nsedi_v3_copy(b->position, p->r);
  nsedi_frame_quat(p->R, b->quat);
  nsedi_v3_copy(b->velocity, p->v);
  nsedi_m3_mulTv(b->angular_velocity, p->R, p->w);
}
