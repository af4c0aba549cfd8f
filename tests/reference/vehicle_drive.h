/* What the vehicle tests share to compare a driven nsed vehicle with the
 * nonholonomic reference (omni_nh.h): the drive laws of the problem's wheel
 * axles as the reference's torque callback, the wheels' layout read off the
 * model, and the platform samples both are compared at (t = 2, 4, 6;
 * problems/omni_vehicle_drive*.yaml, omni_vehicle_mecanum_car.yaml). */
#ifndef NSED_TESTS_VEHICLE_DRIVE_H
#define NSED_TESTS_VEHICLE_DRIVE_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsed/nsed.h"
#include "omni_nh.h"

/* The drive torque of wheel i: the law of joint "wheel{i}_axle". */
typedef struct {
  const nsed_law *law[OMNI_NH_MAX_WHEELS];
} vehicle_drive_laws;

static inline double vehicle_drive_torque(int i, double t, void *ctx) {
  const vehicle_drive_laws *dl = ctx;
  return dl->law[i] ? nsed_law_eval(dl->law[i], t) : 0.0;
}

static inline int vehicle_joint(const nsed_model *m, const char *name) {
  for (int j = 0; j < nsed_model_njoint(m); j++)
    if (!strcmp(nsed_model_joint_name(m, j), name)) return j;
  return -1;
}

/* Fills dl for wheels 0..nwheels-1; returns how many carry a torque law. */
static inline int vehicle_drive_laws_find(const nsed_model *m, int nwheels, vehicle_drive_laws *dl) {
  char name[64];
  int found = 0;
  memset(dl, 0, sizeof *dl);
  for (int i = 0; i < nwheels && i < OMNI_NH_MAX_WHEELS; i++) {
    snprintf(name, sizeof name, "wheel%d_axle", i);
    int j = vehicle_joint(m, name);
    if (j >= 0 && nsed_model_joint_def(m, j)->has_torque) {
      dl->law[i] = &nsed_model_joint_def(m, j)->torque;
      found++;
    }
  }
  return found;
}

/* The reference's general layout (layout 1) from nsed's vehicle: each
 * wheel's centre (its axle's anchor on the platform, or its suspension's
 * on a sprung vehicle), its axle (the axle joint's axis, in the platform's
 * axes, which a strut shares) and its rollers' inclination. Returns the
 * number of wheels. */
static inline int vehicle_drive_layout(const nsed_model *m, omni_nh_params *p) {
  char name[64];
  int n = 0;
  for (; n < OMNI_NH_MAX_WHEELS; n++) {
    snprintf(name, sizeof name, "wheel%d_axle", n);
    int j = vehicle_joint(m, name);
    if (j < 0) break;
    const nsed_joint_def *axle = nsed_model_joint_def(m, j);
    snprintf(name, sizeof name, "wheel%d_suspension", n);
    int js = vehicle_joint(m, name);
    const double *c = js >= 0 ? nsed_model_joint_def(m, js)->anchor_a : axle->anchor_a;
    p->pos[n][0] = c[0];
    p->pos[n][1] = c[1];
    p->axle[n] = atan2(axle->axis_a[1], axle->axis_a[0]);
    snprintf(name, sizeof name, "wheel%d_roller0", n);
    p->psi_of[n] = nsed_model_body_def(m, nsed_model_find_body(m, name))->shape.psi;
  }
  p->layout = 1;
  p->nwheels = n;
  return n;
}

/* The platform (body P) at t = 2, 4, 6. */
typedef struct {
  double x, y, vx, vy, w; /* position, velocity (world) and yaw rate (body z is vertical) */
} vehicle_drive_point;

typedef struct {
  int P;
  vehicle_drive_point at[3]; /* t = 2, 4, 6 */
} vehicle_drive_samples;

/* For an observer's sample callback: records the samples at t = 2, 4 and
 * 6 (the output grid hits them exactly; where a drive law's breakpoint
 * falls there too, the event's sample after it, the state being
 * continuous). */
static inline void vehicle_drive_record(vehicle_drive_samples *v, const nsed_data *d,
                                        nsed_sample_reason why) {
  if (why == NSED_SAMPLE_PRE_EVENT) return;
  double t = nsed_data_time(d), s[13];
  for (int k = 0; k < 3; k++)
    if (fabs(t - 2 * (k + 1)) < 1e-9) {
      nsed_data_body_state(d, v->P, s);
      v->at[k] = (vehicle_drive_point){s[0], s[1], s[7], s[8], s[12]};
    }
}

#endif
