/* The omni wheel: a hub and its spindle rollers on revolute axles, each
 * roller with its floor contact (docs/rollers.md). Mounted by the testbench
 * and by every wheel of the vehicle. */
#include <math.h>
#include <stdio.h>

#include "assembly_impl.h"
#include "math3.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void nsed_omni_wheel_def_default(nsed_omni_wheel_def *w) {
  w->rollers = 4;
  w->psi = 0;
  w->radius = 1.0;
  w->hub_mass = 1.0;
  nsedi_v3_set(w->hub_inertia, 0, 0, 0);
  w->roller_mass = 0.025;
  w->roller_rotors = 2;
  nsed_contact_def_default(&w->contact);
}

static int inertia_ok(const double J[3]) {
  for (int k = 0; k < 3; k++)
    if (!(J[k] >= 0) || !isfinite(J[k])) return 0;
  return 1;
}

int nsed_omni_wheel_check(const nsed_omni_wheel_def *w, nsed_error *err) {
  if (w->rollers < 3 || w->rollers > NSED_OMNI_MAX_ROLLERS)
    return nsed_error_set(err, NSED_ERR_INPUT, "wheel.rollers: expected an integer in [3, %d], got %d",
                          NSED_OMNI_MAX_ROLLERS, w->rollers);
  if (!(fabs(w->psi) < M_PI / 2))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "wheel.psi: the roller inclination psi must lie in (-pi/2, pi/2) rad, "
                          "got %.15g", w->psi);
  if (!(w->radius > 0) || !isfinite(w->radius))
    return nsed_error_set(err, NSED_ERR_INPUT, "wheel.radius: expected a positive number, got %.15g",
                          w->radius);
  if (!(w->hub_mass > 0) || !isfinite(w->hub_mass))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "wheel.hub_mass: expected a positive number, got %.15g", w->hub_mass);
  if (!inertia_ok(w->hub_inertia))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "wheel.hub_inertia: expected finite moments >= 0 (all 0: from the hub's "
                          "disk)");
  if (!(w->roller_mass > 0) || !isfinite(w->roller_mass))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "wheel.roller_mass: expected a positive number, got %.15g", w->roller_mass);
  if (w->roller_rotors < 0 || w->roller_rotors > 2)
    return nsed_error_set(err, NSED_ERR_INPUT, "wheel.roller_rotors: expected 0, 1 or 2, got %d",
                          w->roller_rotors);
  return NSED_OK;
}

void nsedi_roller_frame(const nsed_omni_wheel_def *w, int k, double l[3], double M[9]) {
  double th = M_PI / 2 + 2 * M_PI * k / w->rollers;
  double r[3] = {cos(th), sin(th), 0}, t[3] = {-sin(th), cos(th), 0}, a[3], y[3], z[3];
  for (int q = 0; q < 3; q++) a[q] = cos(w->psi) * t[q];
  a[2] += sin(w->psi);
  nsedi_v3_scale(y, r, -1.0);
  nsedi_v3_cross(z, a, y);
  nsedi_v3_scale(l, r, w->radius * cos(M_PI / w->rollers));
  nsedi_frame_columns(M, a, y, z);
}

void nsedi_omni_hub(const nsed_omni_wheel_def *w, const nsedi_motion *h, const char *name,
                    nsed_body_def *b) {
  nsed_body_def_default(b);
  snprintf(b->name, sizeof b->name, "%s", name);
  b->mass = w->hub_mass;
  nsedi_v3_copy(b->inertia, w->hub_inertia);
  b->shape.type = NSED_SHAPE_DISK;
  b->shape.radius = 0.5 * w->radius;
  nsedi_body_state(b, h);
}

void nsedi_omni_roller(const nsed_omni_wheel_def *w, int k, const nsedi_motion *h, double spin,
                       const char *hub_name, const char *roller, const char *axle,
                       const char *contact, nsed_body_def *b, nsed_joint_def *j,
                       nsed_contact_def *c) {
  double l[3], M[9], off[3];
  nsedi_motion p;
  nsedi_roller_frame(w, k, l, M);
  nsedi_frame_mul(p.R, h->R, M);
  nsedi_m3_mulv(off, h->R, l);
  nsedi_v3_add(p.r, h->r, off);
  nsedi_v3_cross(p.v, h->w, off);
  nsedi_v3_add(p.v, p.v, h->v);
  double a[3] = {p.R[0], p.R[3], p.R[6]};
  nsedi_v3_axpy(p.w, h->w, spin, a);
  nsed_body_def_default(b);
  snprintf(b->name, sizeof b->name, "%s", roller);
  b->mass = w->roller_mass;
  b->shape.type = NSED_SHAPE_ROLLER;
  b->shape.radius = w->radius;
  b->shape.rollers = w->rollers;
  b->shape.psi = w->psi;
  b->rotor = w->roller_rotors ? NSED_ROTOR_X : NSED_ROTOR_NONE;
  nsedi_body_state(b, &p);
  nsed_joint_def_default(j);
  if (w->roller_rotors == 2) {
    snprintf(b->attached_to, sizeof b->attached_to, "%s", hub_name);
    j->name[0] = '\0';
  } else {
    snprintf(j->name, sizeof j->name, "%s", axle);
  }
  j->type = NSED_JOINT_REVOLUTE;
  snprintf(j->body_a, sizeof j->body_a, "%s", hub_name);
  snprintf(j->body_b, sizeof j->body_b, "%s", roller);
  nsedi_v3_copy(j->anchor_a, l);
  nsedi_v3_set(j->axis_a, M[0], M[3], M[6]);
  nsedi_v3_set(j->anchor_b, 0, 0, 0);
  nsedi_v3_set(j->axis_b, 1, 0, 0);

  *c = w->contact;
  snprintf(c->name, sizeof c->name, "%s", contact);
  snprintf(c->body, sizeof c->body, "%s", roller);
  c->other[0] = '\0';
  c->wheel[0] = '\0';
}
