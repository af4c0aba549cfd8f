/* The disk on a shaft of Xu, Wang & Wang (2017), section 5: a disk on a
 * massless tube sliding along and turning about a shaft hung by a cardan
 * joint, sprung along the shaft, driven by a torque about the vertical,
 * its rim on the floor (docs/disk-on-shaft.md). The shaft and the disk
 * have their body z along the shaft: a quarter turn about world y. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "assembly_impl.h"
#include "math3.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void nsed_disk_on_shaft_def_default(nsed_disk_on_shaft_def *s) {
  memset(s, 0, sizeof *s);
  s->disk_radius = 0.4;
  s->disk_mass = 0.9;
  s->shaft_length = 2.2;
  s->shaft_mass = 1.2;
  s->shaft_diameter = 0.05;
  s->spring_k = 230;
  s->spring_c = 0;
  s->spring_rest = 1.51;
  s->disk_position = 1.5;
  s->torque = nsed_law_constant(0);
  s->torque.type = NSED_LAW_SINE;
  s->torque.amplitude = 25;
  s->torque.omega = 1;
  nsed_contact_def_default(&s->contact);
  s->contact.mu = 0.18;
  s->contact.mu0 = 0.33;
}

static int check(const nsed_disk_on_shaft_def *s, nsed_error *err) {
  const struct {
    const char *name;
    double value;
    int zero_ok;
  } v[] = {{"disk_radius", s->disk_radius, 0},     {"disk_mass", s->disk_mass, 0},
           {"shaft_length", s->shaft_length, 0},   {"shaft_mass", s->shaft_mass, 0},
           {"shaft_diameter", s->shaft_diameter, 0}, {"spring_k", s->spring_k, 1},
           {"spring_c", s->spring_c, 1},           {"spring_rest", s->spring_rest, 1}};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    if (!isfinite(v[i].value) || !(v[i].zero_ok ? v[i].value >= 0 : v[i].value > 0))
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: expected a %s number, got %.15g", v[i].name,
                            v[i].zero_ok ? "finite non-negative" : "positive", v[i].value);
  if (!(s->disk_position > 0 && s->disk_position <= s->shaft_length))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "disk_position: the disk must sit on the shaft, in (0, %.15g], got %.15g",
                          s->shaft_length, s->disk_position);
  return NSED_OK;
}

/* Body z along world x: a quarter turn about y (as a problem file's
 * {axis: [0, 1, 0], angle_deg: 90} is read). */
static void along_x(double q[4]) {
  double angle = 90.0;
  angle *= M_PI / 180.0;
  double y[3] = {0, 1, 0};
  nsedi_quat_axis_angle(q, y, angle);
}

int nsed_disk_on_shaft_build(const nsed_disk_on_shaft_def *s, nsed_assembly *out,
                             nsed_error *err) {
  memset(out, 0, sizeof *out);
  int rc = check(s, err);
  if (rc) return rc;
  rc = nsedi_assembly_alloc(out, 2, 2, 1, 1, err);
  if (rc) return rc;
  double r = s->disk_radius, half = 0.5 * s->shaft_length;

  nsed_body_def *shaft = &out->bodies[0], *disk = &out->bodies[1];
  nsed_body_def_default(shaft);
  snprintf(shaft->name, sizeof shaft->name, "shaft");
  shaft->mass = s->shaft_mass;
  shaft->shape.type = NSED_SHAPE_CYLINDER;
  shaft->shape.radius = 0.5 * s->shaft_diameter;
  shaft->shape.length = s->shaft_length;
  along_x(shaft->quat);
  nsedi_v3_set(shaft->position, half, 0, r);
  nsed_body_def_default(disk);
  snprintf(disk->name, sizeof disk->name, "disk");
  disk->mass = s->disk_mass;
  disk->shape.type = NSED_SHAPE_DISK;
  disk->shape.radius = r;
  /* It spins on the shaft, which holds its axis: a rotor (docs/engine.md). */
  disk->rotor = NSED_ROTOR_Z;
  along_x(disk->quat);
  nsedi_v3_set(disk->position, s->disk_position, 0, r);

  /* The cardan joint O on the pillar at height r: the ground's axis
   * vertical, the shaft's cross axis its body y. */
  nsed_joint_def *cardan = &out->joints[0], *tube = &out->joints[1];
  nsed_joint_def_default(cardan);
  snprintf(cardan->name, sizeof cardan->name, "cardan");
  cardan->type = NSED_JOINT_UNIVERSAL;
  snprintf(cardan->body_b, sizeof cardan->body_b, "shaft");
  nsedi_v3_set(cardan->anchor_a, 0, 0, r);
  nsedi_v3_set(cardan->axis_a, 0, 0, 1);
  nsedi_v3_set(cardan->anchor_b, 0, 0, -half);
  nsedi_v3_set(cardan->axis_b, 0, 1, 0);
  /* The tube: the disk slides along and turns about the shaft, the spring
   * acting between O and the tube (its coordinate s = L_OC1). */
  nsed_joint_def_default(tube);
  snprintf(tube->name, sizeof tube->name, "tube");
  tube->type = NSED_JOINT_CYLINDRICAL;
  snprintf(tube->body_a, sizeof tube->body_a, "shaft");
  nsedi_v3_set(tube->anchor_a, 0, 0, -half);
  nsedi_v3_set(tube->axis_a, 0, 0, 1);
  snprintf(tube->body_b, sizeof tube->body_b, "disk");
  nsedi_v3_set(tube->axis_b, 0, 0, 1);
  tube->spring_k = s->spring_k;
  tube->spring_c = s->spring_c;
  tube->rest_length = s->spring_rest;

  nsed_force_def *drive = &out->forces[0];
  nsed_force_def_default(drive);
  snprintf(drive->name, sizeof drive->name, "drive");
  drive->type = NSED_FORCE_BODY_TORQUE;
  snprintf(drive->body, sizeof drive->body, "shaft");
  nsedi_v3_set(drive->direction, 0, 0, 1);
  drive->magnitude = s->torque;

  nsed_contact_def *c = &out->contacts[0];
  *c = s->contact;
  snprintf(c->name, sizeof c->name, "disk_floor");
  snprintf(c->body, sizeof c->body, "disk");
  c->other[0] = '\0';
  c->wheel[0] = '\0';
  return NSED_OK;
}
