/* What the assembly builders share: growing an assembly, poses and motions
 * of parts, and the omni wheel's rollers (omni_wheel.c), which the
 * testbench and the vehicle both mount. */
#ifndef NSEDI_ASSEMBLY_IMPL_H
#define NSEDI_ASSEMBLY_IMPL_H

#include "nsed/assemblies.h"

/* Allocate a's parts for the given counts (zeroed; a must be cleared).
 * NSED_ERR_NOMEM (with err set) if they cannot be. */
int nsedi_assembly_alloc(nsed_assembly *a, int nbody, int njoint, int nforce, int ncontact,
                         nsed_error *err);

/* Remove the joints a builder left unnamed (an attached roller's axle). */
void nsedi_assembly_drop_unnamed_joints(nsed_assembly *a);

/* A part's world pose (position r, rotation R with the body axes as
 * columns, row-major as nsedi_quat_to_mat) and motion (v, w world). */
typedef struct {
  double r[3], R[9], v[3], w[3];
} nsedi_motion;

/* R with the body axes x, y, z (world) as its columns. */
void nsedi_frame_columns(double R[9], const double x[3], const double y[3], const double z[3]);

/* C = A B (3x3 row-major). */
void nsedi_frame_mul(double C[9], const double A[9], const double B[9]);

/* The unit quaternion (scalar first) of a rotation matrix. */
void nsedi_frame_quat(const double R[9], double q[4]);

/* A body's initial state from its world pose and motion (nsed wants the
 * angular velocity in body axes). */
void nsedi_body_state(nsed_body_def *b, const nsedi_motion *p);

/* Roller k of wheel w in its hub's frame: centre l and axes M (columns: the
 * roller axis, the direction to the hub centre, their cross product). */
void nsedi_roller_frame(const nsed_omni_wheel_def *w, int k, double l[3], double M[9]);

/* The hub body named name: a disk of radius R/2 (its axis, body z, is the
 * wheel's, for implicit contact tracking), at pose and motion h. */
void nsedi_omni_hub(const nsed_omni_wheel_def *w, const nsedi_motion *h, const char *name,
                    nsed_body_def *b);

/* Roller k of wheel w on the hub named hub_name (pose and motion h): the
 * roller body (name roller), its revolute axle (name axle) and its floor
 * contact (name contact); spin: its rate about its own axis relative to the
 * hub. A roller attached to its hub (roller_rotors 2) has no axle: j is
 * left unnamed, for nsedi_assembly_drop_unnamed_joints. */
void nsedi_omni_roller(const nsed_omni_wheel_def *w, int k, const nsedi_motion *h, double spin,
                       const char *hub_name, const char *roller, const char *axle,
                       const char *contact, nsed_body_def *b, nsed_joint_def *j,
                       nsed_contact_def *c);

#endif
