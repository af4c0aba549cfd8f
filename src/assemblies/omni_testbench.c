/* The omni-wheel testbench (seed 000 §4): one wheel rolling along world x,
 * held upright by an align servo-constraint and pressed down by a load. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "assembly_impl.h"
#include "math3.h"

void nsed_omni_testbench_def_default(nsed_omni_testbench_def *t) {
  memset(t, 0, sizeof *t);
  nsed_omni_wheel_def_default(&t->wheel);
  t->wheel.roller_mass = 0.1 / t->wheel.rollers;
  t->load = 1.0;
  t->velocity = 1.0;
  t->spin = 1.0;
}

static int check(const nsed_omni_testbench_def *t, nsed_error *err) {
  int rc = nsed_omni_wheel_check(&t->wheel, err);
  if (rc) return rc;
  if (!(t->load >= 0) || !isfinite(t->load))
    return nsed_error_set(err, NSED_ERR_INPUT, "load: expected a finite number >= 0, got %.15g",
                          t->load);
  if (!isfinite(t->velocity) || !isfinite(t->spin))
    return nsed_error_set(err, NSED_ERR_INPUT, "velocity and spin must be finite");
  return NSED_OK;
}

/* The hub at height R above the origin, its axis (body z) along world y and
 * its body y pointing down, so that roller 0 (at 90 degrees in the hub's
 * x-y plane) is the one touching; every roller turns with the hub. */
static void hub_motion(const nsed_omni_testbench_def *t, nsedi_motion *h) {
  double x[3] = {1, 0, 0}, y[3] = {0, 0, -1}, z[3] = {0, 1, 0};
  nsedi_v3_set(h->r, 0, 0, t->wheel.radius);
  nsedi_frame_columns(h->R, x, y, z);
  nsedi_v3_set(h->v, t->velocity, 0, 0);
  nsedi_v3_set(h->w, 0, t->spin, 0);
}

int nsed_omni_testbench_build(const nsed_omni_testbench_def *t, nsed_assembly *out,
                              nsed_error *err) {
  memset(out, 0, sizeof *out);
  int rc = check(t, err);
  if (rc) return rc;
  int n = t->wheel.rollers;
  rc = nsedi_assembly_alloc(out, 1 + n, n + 1, 1, n, err);
  if (rc) return rc;
  nsedi_motion h;
  hub_motion(t, &h);
  nsedi_omni_hub(&t->wheel, &h, "hub", &out->bodies[0]);
  for (int k = 0; k < n; k++) {
    char roller[NSED_NAME_MAX], axle[NSED_NAME_MAX], contact[NSED_NAME_MAX];
    snprintf(roller, sizeof roller, "roller%d", k);
    snprintf(axle, sizeof axle, "axle%d", k);
    snprintf(contact, sizeof contact, "roller%d_floor", k);
    nsedi_omni_roller(&t->wheel, k, &h, 0.0, "hub", roller, axle, contact, &out->bodies[1 + k],
                      &out->joints[k], &out->contacts[k]);
  }
  /* The servo-constraint k . n_A = 0: its multiplier is the balancing torque. */
  nsed_joint_def *v = &out->joints[n];
  nsed_joint_def_default(v);
  snprintf(v->name, sizeof v->name, "vertical");
  v->type = NSED_JOINT_ALIGN;
  snprintf(v->body_b, sizeof v->body_b, "hub");
  nsedi_v3_set(v->axis_b, 0, 0, 1);
  /* The vehicle the wheel stands in for. */
  nsed_force_def *f = &out->forces[0];
  nsed_force_def_default(f);
  snprintf(f->name, sizeof f->name, "load");
  f->type = NSED_FORCE_BODY_FORCE;
  snprintf(f->body, sizeof f->body, "hub");
  nsedi_v3_set(f->direction, 0, 0, -1);
  f->magnitude = nsed_law_constant(t->load);
  nsedi_assembly_drop_unnamed_joints(out);
  return NSED_OK;
}
