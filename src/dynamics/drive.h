/* Joint coordinates and the generalised forces of joint drives
 * (docs/engine.md, "Joint drives"). */
#ifndef NSED_DYNAMICS_DRIVE_H
#define NSED_DYNAMICS_DRIVE_H

#include "kinematics.h"

/* Relative angle q of joint j about A's axis (rad, counted from the initial
 * configuration) and its rate (wB - wA) . axis. With the joint's turn state
 * in x the angle is continuous over turns; without it (x NULL or no state)
 * it lies in (-pi, pi]. */
void nsedi_joint_angle(const nsed_model *m, int j, const nsedi_kin *kin, const double *x, double *q,
                       double *qd);

/* Axial coordinate s of anchor_b along A's axis from anchor_a and its rate;
 * axis (world) and the anchors' offsets from the centres of A (rhoa, left
 * alone for the ground) and of B (rhob). */
void nsedi_joint_axial(const nsed_model *m, int j, const nsedi_kin *kin, double axis[3],
                       double rhoa[3], double rhob[3], double *s, double *sd);

/* The drive's generalised force at time t, coordinate q and rate qd. */
double nsedi_drive_force(const nsed_joint_drive *dr, double t, double q, double qd);

#endif
