/* Default definitions and options, and the names used in problem files. */
#include <stdio.h>
#include <string.h>

#include "nsed/model.h"

void nsed_body_def_default(nsed_body_def *def) {
  memset(def, 0, sizeof *def);
  def->mass = 1.0;
  def->quat[0] = 1.0;
}

void nsed_joint_def_default(nsed_joint_def *def) {
  memset(def, 0, sizeof *def);
  def->type = NSED_JOINT_REVOLUTE;
  def->axis_a[2] = 1.0;
  def->axis_b[2] = 1.0;
  def->torque = nsed_law_constant(0.0);
  def->servo_angle = nsed_law_constant(0.0);
  def->servo_level = NSED_SERVO_POSITION;
  nsed_joint_drive *drives[2] = {&def->drive, &def->axial_drive};
  for (int i = 0; i < 2; i++) {
    drives[i]->type = NSED_DRIVE_NONE;
    drives[i]->reference = nsed_law_constant(0.0);
    drives[i]->feedforward = nsed_law_constant(0.0);
    drives[i]->table = nsed_law_constant(0.0);
  }
}

void nsed_force_def_default(nsed_force_def *def) {
  memset(def, 0, sizeof *def);
  def->type = NSED_FORCE_BODY_FORCE;
  def->direction[2] = 1.0;
  def->magnitude = nsed_law_constant(0.0);
}

void nsed_contact_def_default(nsed_contact_def *def) {
  memset(def, 0, sizeof *def);
  def->mu = 0.3;
  def->mu0 = 0.3;
  def->law = NSED_CONTACT_COULOMB;
  def->delta = 1e-6;
  def->tracking = NSED_TRACKING_INHERIT;
  def->torsion_rate = 1e-6;
  def->feature = -1;
}

int nsed_shape_features(nsed_shape_type shape) {
  switch (shape) {
    case NSED_SHAPE_BOX: return 8;
    case NSED_SHAPE_CYLINDER:
    case NSED_SHAPE_CAPSULE: return 2;
    default: return 0;
  }
}

int nsed_contact_feature(const nsed_contact_def *c, nsed_shape_type shape, int feature,
                         nsed_contact_def *out, nsed_error *err) {
  int n = nsed_shape_features(shape);
  if (feature < 0 || feature >= n)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "contact '%s': feature %d is not one of the %d of a %s", c->name, feature,
                          n, nsed_shape_type_name(shape));
  const char *tag = shape == NSED_SHAPE_BOX ? "v" : shape == NSED_SHAPE_CYLINDER ? "rim" : "end";
  nsed_contact_def f = *c;
  int len = snprintf(f.name, sizeof f.name, "%s.%s%d", c->name, tag, feature);
  if (len < 0 || (size_t)len >= sizeof f.name)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "contact '%s': the name of its feature contacts ('%s.%s0') is too long",
                          c->name, c->name, tag);
  f.feature = feature;
  *out = f;
  return NSED_OK;
}

void nsed_plane_def_default(nsed_plane_def *def) {
  memset(def, 0, sizeof *def);
  def->normal[2] = 1.0;
}

void nsed_options_default(nsed_options *o) {
  memset(o, 0, sizeof *o);
  o->gravity[2] = -9.81;
  o->floor_normal[2] = 1.0;
  nsed_complementarity_default_settings(&o->friction);
  o->integrator = NSED_INTEGRATOR_ARKODE_DP5;
  o->t_end = 1.0;
  o->rtol = 1e-11;
  o->atol = 1e-13;
  o->output_dt = 0.01;
  o->contact_tol = 1e-9;
  o->slip_tol = 1e-9;
  o->slip_stop_speed = 1e-6;
  o->zeno_events = 50;
  o->zeno_window = 1e-3;
  o->zeno_velocity = 1e-3;
  o->max_events = 1000000;
  o->drift_tol = 1e-6;
  o->step_controller = NSED_STEP_CONTROLLER_PI_GUSTAFSSON;
}

const char *nsed_joint_type_name(nsed_joint_type t) {
  static const char *names[] = {"spherical", "revolute",  "cylindrical", "prismatic",
                                "universal", "weld",      "servo",       "align"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "unknown";
}

const char *nsed_integrator_name(nsed_integrator i) {
  static const char *names[] = {"arkode_dp5", "arkode_verner", "cvode_adams", "cvode_bdf"};
  return (unsigned)i < sizeof names / sizeof names[0] ? names[i] : "unknown";
}

const char *nsed_step_controller_name(nsed_step_controller c) {
  static const char *names[] = {"pi_gustafsson", "pi"};
  return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "unknown";
}

const char *nsed_friction_model_name(nsed_friction_model f) {
  static const char *names[] = {"polygon_face", "polygon_vertex", "exact_cone"};
  return (unsigned)f < sizeof names / sizeof names[0] ? names[f] : "unknown";
}

const char *nsed_contact_tracking_name(nsed_contact_tracking t) {
  static const char *names[] = {"explicit", "implicit", "differential"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "unknown";
}

const char *nsed_shape_type_name(nsed_shape_type t) {
  static const char *names[] = {"none",  "sphere", "disk",    "cylinder", "box",
                                "point", "roller", "capsule", "ellipsoid", "superellipsoid"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "unknown";
}
