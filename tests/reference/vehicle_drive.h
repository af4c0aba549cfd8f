/* What the vehicle tests share to compare a driven nsed vehicle with the
 * nonholonomic reference (omni_nh.h): the drive laws of the problem's wheel
 * axles as the reference's torque callback, and the platform samples both
 * are compared at (t = 2 during the straight drive, t = 6 while turning in
 * place; problems/omni_vehicle_drive*.yaml). */
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

/* Fills dl for wheels 0..nwheels-1; returns how many carry a torque law. */
static inline int vehicle_drive_laws_find(const nsed_model *m, int nwheels, vehicle_drive_laws *dl) {
  char name[64];
  int found = 0;
  memset(dl, 0, sizeof *dl);
  for (int i = 0; i < nwheels && i < OMNI_NH_MAX_WHEELS; i++) {
    snprintf(name, sizeof name, "wheel%d_axle", i);
    for (int j = 0; j < nsed_model_njoint(m); j++)
      if (!strcmp(nsed_model_joint_name(m, j), name) && nsed_model_joint_def(m, j)->has_torque) {
        dl->law[i] = &nsed_model_joint_def(m, j)->torque;
        found++;
      }
  }
  return found;
}

/* The platform (body P) at the comparison times. */
typedef struct {
  int P;
  double x2, y2, vx2; /* position and velocity at t = 2 */
  double w6;          /* yaw rate at t = 6 (body z is vertical) */
} vehicle_drive_samples;

/* For an observer's sample callback: records the output samples at t = 2
 * and t = 6 (the output grid hits them exactly). */
static inline void vehicle_drive_record(vehicle_drive_samples *v, const nsed_data *d,
                                        nsed_sample_reason why) {
  if (why == NSED_SAMPLE_EVENT || why == NSED_SAMPLE_PRE_EVENT) return;
  double t = nsed_data_time(d), s[13];
  nsed_data_body_state(d, v->P, s);
  if (fabs(t - 2) < 1e-9) {
    v->x2 = s[0];
    v->y2 = s[1];
    v->vx2 = s[7];
  }
  if (fabs(t - 6) < 1e-9) v->w6 = s[12];
}

#endif
