/* Model builder: add definitions, validate, freeze. Every check names the
 * object and the field so that a problem-file loader can prefix the location. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math3.h"
#include "model_impl.h"
#include "shape_pairs.h"
#include "superellipsoid.h"
#include "roller_shape.h"
#include "tolerances.h"

int nsedi_joint_nrows(nsed_joint_type type) {
  switch (type) {
    case NSED_JOINT_SPHERICAL: return 3;
    case NSED_JOINT_REVOLUTE: return 5;
    case NSED_JOINT_CYLINDRICAL: return 4;
    case NSED_JOINT_PRISMATIC: return 5;
    case NSED_JOINT_UNIVERSAL: return 4;
    case NSED_JOINT_WELD: return 6;
    case NSED_JOINT_SERVO: return 6;
    case NSED_JOINT_ALIGN: return 1;
  }
  return 0;
}

int nsed_model_create(nsed_model **out, nsed_error *err) {
  nsed_model *m = calloc(1, sizeof *m);
  if (!m) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory creating a model");
  nsed_options_default(&m->opt);
  *out = m;
  return NSED_OK;
}

void nsed_model_free(nsed_model **pm) {
  if (!pm || !*pm) return;
  nsed_model *m = *pm;
  free(m->body);
  free(m->joint);
  free(m->force);
  free(m->contact);
  free(m->plane);
  free(m);
  *pm = NULL;
}

/* Grow an array of elements of size sz to hold n+1. */
static int grow(void **arr, int *cap, int n, size_t sz) {
  if (n < *cap) return 0;
  int nc = *cap ? 2 * *cap : 8;
  void *p = realloc(*arr, (size_t)nc * sz);
  if (!p) return -1;
  *arr = p;
  *cap = nc;
  return 0;
}

static int finite3(const double v[3]) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

static int check_name(const char *kind, const char *name, nsed_error *err) {
  if (!name[0]) return nsed_error_set(err, NSED_ERR_INPUT, "%s: a name is required", kind);
  if (!memchr(name, '\0', NSED_NAME_MAX))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: name too long", kind);
  return NSED_OK;
}

int nsed_model_find_body(const nsed_model *m, const char *name) {
  for (int i = 0; i < m->nbody; i++)
    if (!strcmp(m->body[i].def.name, name)) return i;
  return -1;
}

static int find_plane(const nsed_model *m, const char *name) {
  for (int i = 0; i < m->nplane; i++)
    if (!strcmp(m->plane[i].name, name)) return i;
  return -1;
}

/* Body reference into *index: "" or "ground" is the world (NSEDI_GROUND). */
static int resolve_body(const nsed_model *m, const char *name, int allow_ground, const char *what,
                        const char *owner, int *index, nsed_error *err) {
  if (!name[0] || !strcmp(name, "ground")) {
    if (!allow_ground)
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: %s must name a body", owner, what);
    *index = NSEDI_GROUND;
    return NSED_OK;
  }
  *index = nsed_model_find_body(m, name);
  if (*index < 0)
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: %s '%s' is not a body of this model", owner,
                          what, name);
  return NSED_OK;
}

static void shape_inertia(const nsed_shape *s, double mass, double J[3]) {
  double r = s->radius;
  switch (s->type) {
    case NSED_SHAPE_SPHERE:
      J[0] = J[1] = J[2] = 0.4 * mass * r * r;
      break;
    case NSED_SHAPE_DISK: /* thin disk, axis z */
      J[0] = J[1] = 0.25 * mass * r * r;
      J[2] = 0.5 * mass * r * r;
      break;
    case NSED_SHAPE_CYLINDER:
      J[0] = J[1] = mass * (3 * r * r + s->length * s->length) / 12.0;
      J[2] = 0.5 * mass * r * r;
      break;
    case NSED_SHAPE_ROLLER:
      nsedi_roller_inertia(s, mass, J);
      break;
    case NSED_SHAPE_CAPSULE: {
      /* a cylinder and two hemispheres of one density; a hemisphere's
       * centre of mass is 3r/8 from its flat face */
      double L = s->length, vc = M_PI * r * r * L, vs = 4.0 / 3.0 * M_PI * r * r * r;
      double mc = mass * vc / (vc + vs), ms = mass - mc;
      J[0] = J[1] = mc * (L * L / 12 + r * r / 4) + ms * (0.4 * r * r + L * L / 4 + 3 * L * r / 8);
      J[2] = 0.5 * mc * r * r + 0.4 * ms * r * r;
      break;
    }
    case NSED_SHAPE_ELLIPSOID: {
      double a = s->half[0], b = s->half[1], c = s->half[2];
      J[0] = 0.2 * mass * (b * b + c * c);
      J[1] = 0.2 * mass * (a * a + c * c);
      J[2] = 0.2 * mass * (a * a + b * b);
      break;
    }
    case NSED_SHAPE_SUPERELLIPSOID:
      nsedi_sq_inertia(s->half, s->exponent, mass, J);
      break;
    case NSED_SHAPE_BOX: {
      double a = 2 * s->half[0], b = 2 * s->half[1], c = 2 * s->half[2];
      J[0] = mass * (b * b + c * c) / 12.0;
      J[1] = mass * (a * a + c * c) / 12.0;
      J[2] = mass * (a * a + b * b) / 12.0;
      break;
    }
    default:
      J[0] = J[1] = J[2] = 0.0;
  }
}

/* A rotor's frame does not turn about its axis, so the body must be
 * symmetric about it: the two moments across it equal (docs/engine.md,
 * "Rotors"). Sets the axis index; the spin state is placed at finalize. */
static int check_rotor(nsedi_body *b, nsed_error *err) {
  b->rotor_axis = -1;
  b->xspin = -1;
  const nsed_body_def *d = &b->def;
  if (d->rotor == NSED_ROTOR_NONE) return NSED_OK;
  if ((unsigned)d->rotor > NSED_ROTOR_Z)
    return nsed_error_set(err, NSED_ERR_INPUT, "body '%s': unknown rotor axis %d", d->name,
                          (int)d->rotor);
  static const char *const axis_name[3] = {"x", "y", "z"};
  int a = (int)d->rotor - 1, j = (a + 1) % 3, k = (a + 2) % 3;
  const double *J = d->inertia;
  if (!(fabs(J[j] - J[k]) <= NSEDI_MODEL_ROTOR_SYMMETRY * (J[j] + J[k])))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': a rotor about body %s needs equal moments about body %s and "
                          "%s (a body symmetric about its axis), got %.15g and %.15g",
                          d->name, axis_name[a], axis_name[j], axis_name[k], J[j], J[k]);
  b->rotor_axis = a;
  return NSED_OK;
}

int nsed_model_add_body(nsed_model *m, const nsed_body_def *def, nsed_error *err) {
  if (m->finalized) return nsed_error_set(err, NSED_ERR_INPUT, "the model is already finalized");
  int rc = check_name("body", def->name, err);
  if (rc) return rc;
  const char *n = def->name;
  if (nsed_model_find_body(m, n) >= 0 || find_plane(m, n) >= 0 || !strcmp(n, "ground") ||
      !strcmp(n, "floor"))
    return nsed_error_set(err, NSED_ERR_INPUT, "body '%s': duplicate or reserved name", n);
  if (!(def->mass > 0) || !isfinite(def->mass))
    return nsed_error_set(err, NSED_ERR_INPUT, "body '%s': mass must be a positive number, got %g",
                          n, def->mass);
  if (!finite3(def->position) || !finite3(def->velocity) || !finite3(def->angular_velocity) ||
      !finite3(def->inertia))
    return nsed_error_set(err, NSED_ERR_INPUT, "body '%s': non-finite initial state or inertia", n);
  double qn = sqrt(def->quat[0] * def->quat[0] + def->quat[1] * def->quat[1] +
                   def->quat[2] * def->quat[2] + def->quat[3] * def->quat[3]);
  if (!(qn > NSEDI_MODEL_ZERO_VECTOR) || !isfinite(qn))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': orientation quaternion must be finite and non-zero", n);
  const nsed_shape *s = &def->shape;
  int needs_radius = s->type == NSED_SHAPE_SPHERE || s->type == NSED_SHAPE_DISK ||
                     s->type == NSED_SHAPE_CYLINDER || s->type == NSED_SHAPE_ROLLER ||
                     s->type == NSED_SHAPE_CAPSULE;
  if (s->type == NSED_SHAPE_ROLLER && s->rollers < 3)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': a roller needs rollers >= 3 per wheel, got %d", n, s->rollers);
  if (s->type == NSED_SHAPE_ROLLER && !(fabs(s->psi) < M_PI / 2))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': the roller inclination psi must lie in (-pi/2, pi/2), got %g",
                          n, s->psi);
  if (needs_radius && !(s->radius > 0 && isfinite(s->radius)))
    return nsed_error_set(err, NSED_ERR_INPUT, "body '%s': shape radius must be positive, got %g",
                          n, s->radius);
  if (s->type == NSED_SHAPE_CYLINDER && !(s->length > 0 && isfinite(s->length)))
    return nsed_error_set(err, NSED_ERR_INPUT, "body '%s': cylinder length must be positive", n);
  if (s->type == NSED_SHAPE_CAPSULE && !(s->length > 0 && isfinite(s->length)))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': capsule length must be positive (a sphere has none)", n);
  int needs_half = s->type == NSED_SHAPE_BOX || s->type == NSED_SHAPE_ELLIPSOID ||
                   s->type == NSED_SHAPE_SUPERELLIPSOID;
  if (needs_half && !(s->half[0] > 0 && s->half[1] > 0 && s->half[2] > 0 && finite3(s->half)))
    return nsed_error_set(err, NSED_ERR_INPUT, "body '%s': %s must be positive", n,
                          s->type == NSED_SHAPE_BOX ? "box half extents" : "ellipsoid semi-axes");
  if (s->type == NSED_SHAPE_SUPERELLIPSOID &&
      !(s->exponent >= 2 && s->exponent <= NSED_SUPERELLIPSOID_MAX_EXPONENT))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': the superellipsoid exponent must lie in [2, %d] (2: the "
                          "ellipsoid; below 2 the surface has edges, beyond %d it is a box to "
                          "1%%), got %g",
                          n, NSED_SUPERELLIPSOID_MAX_EXPONENT, NSED_SUPERELLIPSOID_MAX_EXPONENT,
                          s->exponent);

  nsedi_body b;
  memset(&b, 0, sizeof b);
  b.def = *def;
  for (int i = 0; i < 4; i++) b.def.quat[i] /= qn;
  int given = def->inertia[0] != 0 || def->inertia[1] != 0 || def->inertia[2] != 0;
  if (!given) {
    if (s->type == NSED_SHAPE_NONE || s->type == NSED_SHAPE_POINT)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "body '%s': inertia is required when the shape does not define it", n);
    shape_inertia(s, def->mass, b.def.inertia);
  }
  const double *J = b.def.inertia;
  if (!(J[0] > 0 && J[1] > 0 && J[2] > 0))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': inertia must be positive definite, got (%g, %g, %g)", n, J[0],
                          J[1], J[2]);
  /* Principal moments of a rigid body obey the triangle inequality. */
  double tol = NSEDI_MODEL_INERTIA_SLACK * (J[0] + J[1] + J[2]);
  if (J[0] > J[1] + J[2] + tol || J[1] > J[0] + J[2] + tol || J[2] > J[0] + J[1] + tol)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': inertia (%g, %g, %g) violates the triangle inequality "
                          "J_i <= J_j + J_k of a rigid body",
                          n, J[0], J[1], J[2]);
  rc = check_rotor(&b, err);
  if (rc) return rc;
  if (!memchr(def->attached_to, '\0', NSED_NAME_MAX))
    return nsed_error_set(err, NSED_ERR_INPUT, "body '%s': attached_to: name too long", n);
  rc = nsedi_model_attach(m, def->attached_to[0] ? nsed_model_find_body(m, def->attached_to) : -1,
                          &b, err);
  if (rc) return rc;
  if (grow((void **)&m->body, &m->cap_body, m->nbody, sizeof *m->body))
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory adding body '%s'", n);
  m->body[m->nbody] = b;
  return m->nbody++;
}

/* Unit vectors p1, p2 with (axis, p1, p2) right-handed orthonormal. */
static void perp_frame(const double axis[3], double p1[3], double p2[3]) {
  nsedi_v3_tangents(p1, p2, axis);
}

static int check_law(const nsed_law *law, const char *owner, const char *what, nsed_error *err) {
  switch (law->type) {
    case NSED_LAW_CONSTANT:
      if (!isfinite(law->value)) break;
      return NSED_OK;
    case NSED_LAW_SINE:
      if (!isfinite(law->offset) || !isfinite(law->amplitude) || !isfinite(law->omega) ||
          !isfinite(law->phase))
        break;
      return NSED_OK;
    case NSED_LAW_PIECEWISE:
      if (law->npoints < 2 || law->npoints > NSED_LAW_MAX_POINTS)
        return nsed_error_set(err, NSED_ERR_INPUT, "%s: %s needs 2 to %d points, got %d", owner,
                              what, NSED_LAW_MAX_POINTS, law->npoints);
      for (int i = 0; i < law->npoints; i++) {
        if (!isfinite(law->times[i]) || !isfinite(law->values[i])) goto bad;
        if (i > 0 && !(law->times[i] > law->times[i - 1]))
          return nsed_error_set(err, NSED_ERR_INPUT,
                                "%s: %s times must increase strictly (t[%d] = %g after %g)", owner,
                                what, i, law->times[i], law->times[i - 1]);
      }
      return NSED_OK;
    default:
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: %s has an unknown law type", owner, what);
  }
bad:
  return nsed_error_set(err, NSED_ERR_INPUT, "%s: %s has a non-finite parameter", owner, what);
}

static int drive_allowed(nsed_joint_type type, int axial) {
  if (axial) return type == NSED_JOINT_CYLINDRICAL || type == NSED_JOINT_PRISMATIC;
  return type == NSED_JOINT_REVOLUTE || type == NSED_JOINT_CYLINDRICAL;
}

static int check_drive(const nsed_joint_drive *dr, nsed_joint_type type, int axial,
                       const char *owner, nsed_error *err) {
  const char *what = axial ? "axial_drive" : "drive";
  if (dr->type == NSED_DRIVE_NONE) return NSED_OK;
  if (!drive_allowed(type, axial))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: a %s needs a %s joint, not %s", owner,
                          axial ? "force along the axis" : "torque about the axis",
                          axial ? "cylindrical or prismatic" : "revolute or cylindrical",
                          nsed_joint_type_name(type));
  char sub[96];
  int rc;
  switch (dr->type) {
    case NSED_DRIVE_FEEDBACK:
      if (!(dr->k >= 0) || !(dr->c >= 0) || !isfinite(dr->k) || !isfinite(dr->c))
        return nsed_error_set(err, NSED_ERR_INPUT,
                              "%s: %s k and c must be finite and non-negative (got %g, %g)", owner,
                              what, dr->k, dr->c);
      snprintf(sub, sizeof sub, "%s reference", what);
      if ((rc = check_law(&dr->reference, owner, sub, err))) return rc;
      snprintf(sub, sizeof sub, "%s feedforward", what);
      return check_law(&dr->feedforward, owner, sub, err);
    case NSED_DRIVE_TABLE:
      if ((unsigned)dr->input > NSED_DRIVE_OF_RATE)
        return nsed_error_set(err, NSED_ERR_INPUT, "%s: %s has an unknown table input %d", owner,
                              what, (int)dr->input);
      if (dr->table.type != NSED_LAW_PIECEWISE)
        return nsed_error_set(err, NSED_ERR_INPUT, "%s: %s table must be a piecewise law", owner,
                              what);
      snprintf(sub, sizeof sub, "%s table", what);
      return check_law(&dr->table, owner, sub, err);
    default:
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: %s has an unknown type %d", owner, what,
                            (int)dr->type);
  }
}

static int check_servo(const nsed_joint_def *def, const char *owner, nsed_error *err) {
  if ((unsigned)def->servo_level > NSED_SERVO_ACCELERATION)
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: unknown servo level %d", owner,
                          (int)def->servo_level);
  if (def->servo_level == NSED_SERVO_ACCELERATION && def->type != NSED_JOINT_SERVO)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: an acceleration-level servo law needs a servo joint, not %s", owner,
                          nsed_joint_type_name(def->type));
  if (!(def->servo_kp >= 0) || !(def->servo_kd >= 0) || !isfinite(def->servo_kp) ||
      !isfinite(def->servo_kd))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: servo feedback gains kp and kd must be finite and non-negative "
                          "(got %g, %g)",
                          owner, def->servo_kp, def->servo_kd);
  if ((def->servo_kp > 0 || def->servo_kd > 0) && def->servo_level != NSED_SERVO_ACCELERATION)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: servo feedback gains apply to an acceleration-level servo only",
                          owner);
  return NSED_OK;
}

int nsed_model_add_joint(nsed_model *m, const nsed_joint_def *def, nsed_error *err) {
  if (m->finalized) return nsed_error_set(err, NSED_ERR_INPUT, "the model is already finalized");
  int rc = check_name("joint", def->name, err);
  if (rc) return rc;
  char owner[NSED_NAME_MAX + 16];
  snprintf(owner, sizeof owner, "joint '%s'", def->name);
  for (int i = 0; i < m->njoint; i++)
    if (!strcmp(m->joint[i].def.name, def->name))
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: duplicate name", owner);
  if ((unsigned)def->type > NSED_JOINT_ALIGN)
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: unknown joint type %d", owner, (int)def->type);
  nsedi_joint j;
  memset(&j, 0, sizeof j);
  j.def = *def;
  if ((rc = resolve_body(m, def->body_a, 1, "body_a", owner, &j.a, err))) return rc;
  if ((rc = resolve_body(m, def->body_b, 0, "body_b", owner, &j.b, err))) return rc;
  if (j.a == j.b) return nsed_error_set(err, NSED_ERR_INPUT, "%s: joins a body to itself", owner);
  if ((rc = nsedi_model_attached_joint(m, j.a, j.b, owner, err))) return rc;
  if (!finite3(def->anchor_a) || !finite3(def->anchor_b) || !finite3(def->axis_a) ||
      !finite3(def->axis_b))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: non-finite anchor or axis", owner);
  if (nsedi_v3_normalize(j.def.axis_a) < NSEDI_MODEL_ZERO_VECTOR ||
      nsedi_v3_normalize(j.def.axis_b) < NSEDI_MODEL_ZERO_VECTOR)
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: axis_a and axis_b must be non-zero", owner);
  if (!(def->spring_k >= 0) || !(def->spring_c >= 0) || !isfinite(def->spring_k) ||
      !isfinite(def->spring_c) || !isfinite(def->rest_length))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: spring k and c must be finite and non-negative", owner);
  if ((def->spring_k > 0 || def->spring_c > 0) && def->type != NSED_JOINT_CYLINDRICAL &&
      def->type != NSED_JOINT_PRISMATIC)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: a spring along the axis needs a cylindrical or prismatic joint",
                          owner);
  if (def->has_torque && (rc = check_law(&def->torque, owner, "torque", err))) return rc;
  if ((rc = check_drive(&def->drive, def->type, 0, owner, err))) return rc;
  if ((rc = check_drive(&def->axial_drive, def->type, 1, owner, err))) return rc;
  if ((rc = check_servo(def, owner, err))) return rc;
  if (def->type == NSED_JOINT_SERVO && (rc = check_law(&def->servo_angle, owner, "servo_angle", err)))
    return rc;
  if (def->type == NSED_JOINT_ALIGN && j.a != NSEDI_GROUND)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: the align servo-constraint acts between the floor normal and "
                          "body_b; body_a must be ground",
                          owner);
  perp_frame(j.def.axis_a, j.pa1, j.pa2);
  perp_frame(j.def.axis_b, j.pb1, j.pb2);
  /* The initial configuration (bodies come first) fixes the references:
   * B's perpendicular axes are A's carried into B's frame, so a weld,
   * prismatic or servo joint holds the relative rotation it starts with
   * (the servo's angle counts from it); and the axes must be consistent. */
  {
    double RA[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, RB[9], aw[3], bw[3], p1w[3], t[3];
    if (j.a != NSEDI_GROUND) nsedi_quat_to_mat(RA, m->body[j.a].def.quat);
    nsedi_quat_to_mat(RB, m->body[j.b].def.quat);
    nsedi_m3_mulv(aw, RA, j.def.axis_a);
    nsedi_m3_mulv(bw, RB, j.def.axis_b);
    double c = nsedi_v3_dot(aw, bw);
    if (def->type == NSED_JOINT_UNIVERSAL && fabs(c) > NSEDI_MODEL_AXIS_COS)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "%s: a universal joint's axis_b must be perpendicular to axis_a in "
                            "the initial configuration (cos = %.3g)",
                            owner, c);
    int aligned = def->type == NSED_JOINT_REVOLUTE || def->type == NSED_JOINT_CYLINDRICAL ||
                  def->type == NSED_JOINT_PRISMATIC || def->type == NSED_JOINT_WELD ||
                  def->type == NSED_JOINT_SERVO;
    if (aligned && c < 1 - NSEDI_MODEL_AXIS_COS)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "%s: axis_a and axis_b must be aligned in the initial configuration "
                            "(cos = %.9g)",
                            owner, c);
    if (aligned) {
      nsedi_m3_mulv(p1w, RA, j.pa1);
      nsedi_m3_mulTv(t, RB, p1w);
      nsedi_v3_axpy(t, t, -nsedi_v3_dot(t, j.def.axis_b), j.def.axis_b);
      if (nsedi_v3_normalize(t) > 0.5) {
        nsedi_v3_copy(j.pb1, t);
        nsedi_v3_cross(j.pb2, j.def.axis_b, j.pb1);
      }
    }
  }
  j.nrow = nsedi_joint_nrows(def->type);
  j.row0 = m->nrow;
  if (grow((void **)&m->joint, &m->cap_joint, m->njoint, sizeof *m->joint))
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory adding %s", owner);
  m->joint[m->njoint] = j;
  m->nrow += j.nrow;
  return m->njoint++;
}

int nsed_model_add_force(nsed_model *m, const nsed_force_def *def, nsed_error *err) {
  if (m->finalized) return nsed_error_set(err, NSED_ERR_INPUT, "the model is already finalized");
  int rc = check_name("force", def->name, err);
  if (rc) return rc;
  char owner[NSED_NAME_MAX + 16];
  snprintf(owner, sizeof owner, "force '%s'", def->name);
  for (int i = 0; i < m->nforce; i++)
    if (!strcmp(m->force[i].def.name, def->name))
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: duplicate name", owner);
  nsedi_force f;
  f.def = *def;
  if ((rc = resolve_body(m, def->body, 0, "body", owner, &f.body, err))) return rc;
  f.body_b = NSEDI_GROUND;
  if (!finite3(def->direction) || !finite3(def->point) || !finite3(def->point_b))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: non-finite direction or point", owner);
  switch (def->type) {
    case NSED_FORCE_BODY_FORCE:
    case NSED_FORCE_BODY_TORQUE:
      if (nsedi_v3_normalize(f.def.direction) < NSEDI_MODEL_ZERO_VECTOR)
        return nsed_error_set(err, NSED_ERR_INPUT, "%s: direction must be non-zero", owner);
      if ((rc = check_law(&def->magnitude, owner, "magnitude", err))) return rc;
      break;
    case NSED_FORCE_SPRING:
      if ((rc = resolve_body(m, def->body_b, 1, "body_b", owner, &f.body_b, err))) return rc;
      if (!(def->k >= 0) || !(def->c >= 0) || !isfinite(def->k) || !isfinite(def->c) ||
          !(def->rest_length >= 0) || !isfinite(def->rest_length))
        return nsed_error_set(err, NSED_ERR_INPUT,
                              "%s: k, c and rest_length must be finite and non-negative", owner);
      break;
    default:
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: unknown force type %d", owner,
                            (int)def->type);
  }
  if (grow((void **)&m->force, &m->cap_force, m->nforce, sizeof *m->force))
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory adding %s", owner);
  m->force[m->nforce] = f;
  return m->nforce++;
}

/* The other surface (floor, plane or body) and the pair's geometry function. */
static int resolve_pair(nsed_model *m, nsedi_contact *c, const char *owner, nsed_error *err) {
  const nsed_contact_def *def = &c->def;
  const nsed_body_def *bd = &m->body[c->body].def;
  nsed_shape_type st = bd->shape.type;
  int on_floor = !def->other[0] || !strcmp(def->other, "floor");
  c->other = NSEDI_GROUND;
  c->plane = on_floor ? -1 : find_plane(m, def->other);
  if (!on_floor && c->plane < 0) {
    c->other = nsed_model_find_body(m, def->other);
    if (c->other < 0)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "%s: 'with' must be floor, a plane or a body, '%s' is none of them",
                            owner, def->other);
    if (c->other == c->body)
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: a body cannot touch itself", owner);
  }
  nsed_shape_type ot = c->other >= 0 ? m->body[c->other].def.shape.type : NSED_SHAPE_NONE;
  int pair = c->other == NSEDI_GROUND ? nsedi_plane_pair(st) : nsedi_body_pair(st, ot);
  if (pair == NSEDI_PAIR_ROLLER_PLANE && c->plane >= 0) pair = -1;
  if (pair < 0) {
    char what[2 * NSED_NAME_MAX + 32];
    if (c->other >= 0)
      snprintf(what, sizeof what, "body '%s' (a %s)", def->other, nsed_shape_type_name(ot));
    else if (c->plane >= 0)
      snprintf(what, sizeof what, "plane '%s'", def->other);
    else
      snprintf(what, sizeof what, "the floor");
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: body '%s' (a %s) cannot touch %s: the pairs are %s",
                          owner, def->body, nsed_shape_type_name(st), what, nsedi_supported_pairs);
  }
  c->pair = (nsedi_pair)pair;
  memset(c->feature_point, 0, sizeof c->feature_point);
  int nf = nsedi_contact_features(st, c->other >= 0);
  if (nf > 0) {
    if (def->feature < 0 || def->feature >= nf)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "%s: %s '%s' touches with one of its %d features: set feature 0..%d "
                            "(%d given; nsed_contact_feature makes them)",
                            owner, nsed_shape_type_name(st), def->body, nf, nf - 1, def->feature);
    const nsed_shape *sh = &bd->shape;
    if (st == NSED_SHAPE_BOX)
      for (int k = 0; k < 3; k++) c->feature_point[k] = (def->feature >> k & 1 ? 1 : -1) * sh->half[k];
    else
      c->feature_point[2] = (def->feature ? 0.5 : -0.5) * sh->length;
  } else if (def->feature != -1) {
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: feature applies to box, cylinder and capsule contacts with a plane "
                          "or the floor only (body '%s' is a %s%s)",
                          owner, def->body, nsed_shape_type_name(st),
                          c->other >= 0 ? " touching a body" : "");
  }
  return NSED_OK;
}

int nsed_model_add_plane(nsed_model *m, const nsed_plane_def *def, nsed_error *err) {
  if (m->finalized) return nsed_error_set(err, NSED_ERR_INPUT, "the model is already finalized");
  int rc = check_name("plane", def->name, err);
  if (rc) return rc;
  const char *n = def->name;
  if (find_plane(m, n) >= 0 || nsed_model_find_body(m, n) >= 0 || !strcmp(n, "floor") ||
      !strcmp(n, "ground"))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "plane '%s': duplicate or reserved name (a body, another plane, floor or "
                          "ground)",
                          n);
  nsed_plane_def p = *def;
  if (!finite3(p.point) || !finite3(p.normal) || !finite3(p.velocity))
    return nsed_error_set(err, NSED_ERR_INPUT, "plane '%s': point, normal and velocity must be finite", n);
  if (nsedi_v3_normalize(p.normal) < NSEDI_MODEL_ZERO_VECTOR)
    return nsed_error_set(err, NSED_ERR_INPUT, "plane '%s': normal must be a non-zero vector", n);
  if (fabs(nsedi_v3_dot(p.velocity, p.normal)) >
      NSEDI_MODEL_FLOOR_TANGENT * (1 + nsedi_v3_norm(p.velocity)))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "plane '%s': velocity must be tangential (perpendicular to its normal)", n);
  if (grow((void **)&m->plane, &m->cap_plane, m->nplane, sizeof *m->plane))
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory adding plane '%s'", n);
  m->plane[m->nplane] = p;
  return m->nplane++;
}

void nsedi_contact_plane(const nsed_model *m, int c, nsedi_plane *out) {
  int i = m->contact[c].plane;
  const nsed_options *o = &m->opt;
  const double *pt = i < 0 ? o->floor_point : m->plane[i].point;
  const double *nn = i < 0 ? o->floor_normal : m->plane[i].normal;
  const double *vv = i < 0 ? o->floor_velocity : m->plane[i].velocity;
  for (int k = 0; k < 3; k++) {
    out->point[k] = pt[k];
    out->normal[k] = nn[k];
    out->velocity[k] = vv[k];
  }
  out->spin = i < 0 ? o->floor_spin : 0.0;
}

int nsed_model_add_contact(nsed_model *m, const nsed_contact_def *def, nsed_error *err) {
  if (m->finalized) return nsed_error_set(err, NSED_ERR_INPUT, "the model is already finalized");
  int rc = check_name("contact", def->name, err);
  if (rc) return rc;
  char owner[NSED_NAME_MAX + 16];
  snprintf(owner, sizeof owner, "contact '%s'", def->name);
  for (int i = 0; i < m->ncontact; i++)
    if (!strcmp(m->contact[i].def.name, def->name))
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: duplicate name", owner);
  nsedi_contact c;
  memset(&c, 0, sizeof c);
  c.def = *def;
  if ((rc = resolve_body(m, def->body, 0, "body", owner, &c.body, err))) return rc;
  if ((rc = resolve_pair(m, &c, owner, err))) return rc;
  if ((rc = nsedi_model_attached_contact(m, c.body, c.other, owner, err))) return rc;
  if (!(def->mu >= 0) || !isfinite(def->mu))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: mu must be a finite number >= 0, got %g",
                          owner, def->mu);
  if (!(def->mu0 >= def->mu) || !isfinite(def->mu0))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: static friction mu0 (%g) must be >= kinetic friction mu (%g)",
                          owner, def->mu0, def->mu);
  if ((unsigned)def->law > NSED_CONTACT_COMPLIANT)
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: unknown contact law %d", owner, (int)def->law);
  if (def->law != NSED_CONTACT_COULOMB && !(def->delta > 0 && isfinite(def->delta)))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: the regularisation speed delta must be positive, got %g", owner,
                          def->delta);
  if (def->law == NSED_CONTACT_COMPLIANT &&
      (!(def->stiffness > 0) || !isfinite(def->stiffness) || !(def->damping >= 0) ||
       !isfinite(def->damping)))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: a compliant contact needs stiffness > 0 and damping >= 0 (got %g, "
                          "%g)",
                          owner, def->stiffness, def->damping);
  if (!(def->restitution >= 0 && def->restitution <= 1))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: restitution must be in [0, 1], got %g",
                          owner, def->restitution);
  if (!(def->torsion >= 0) || !isfinite(def->torsion) || !(def->torsion_rate > 0) ||
      !isfinite(def->torsion_rate))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: torsion must be >= 0 and torsion_rate > 0 (got %g, %g)", owner,
                          def->torsion, def->torsion_rate);
  if (grow((void **)&m->contact, &m->cap_contact, m->ncontact, sizeof *m->contact))
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory adding %s", owner);
  m->contact[m->ncontact] = c;
  return m->ncontact++;
}

/* The one body joined to body b by revolute joints: -1 if none, -2 if
 * several. */
static int revolute_partner(const nsed_model *m, int b) {
  if (m->body[b].parent >= 0) return m->body[b].parent;
  int w = -1;
  for (int j = 0; j < m->njoint; j++) {
    const nsedi_joint *J = &m->joint[j];
    if (J->def.type != NSED_JOINT_REVOLUTE || (J->a != b && J->b != b)) continue;
    int other = J->a == b ? J->b : J->a;
    if (other < 0) continue;
    if (w >= 0 && w != other) return -2;
    w = other;
  }
  return w;
}

/* The wheel of a roller contact: named by the contact, else the one body
 * joined to the roller by a revolute joint. */
static int find_wheel(const nsed_model *m, const nsedi_contact *c, const char *owner, nsed_error *err) {
  if (c->def.wheel[0]) {
    int w = nsed_model_find_body(m, c->def.wheel);
    if (w < 0 || w == c->body)
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: wheel '%s' is not another body of the model",
                            owner, c->def.wheel);
    return w;
  }
  int w = revolute_partner(m, c->body);
  if (w == -2)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: roller '%s' has revolute joints to several bodies; name its 'wheel'",
                          owner, c->def.body);
  if (w < 0)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: implicit tracking needs the wheel carrying roller '%s': mount it on a "
                          "revolute joint or name the contact's 'wheel'",
                          owner, c->def.body);
  return w;
}

/* Implicit tracking computes the contact point from the wheel (seed 000
 * §5.1), so the roller must sit where the wheel's envelope needs it: its
 * centre at R1 = R cos(pi/n) from the wheel's, its axis perpendicular to
 * that radius and at psi to the wheel plane (the wheel's axis is its body z,
 * as for a disk). */
static int check_mount(nsed_model *m, nsedi_contact *c, const char *owner, nsed_error *err) {
  const nsed_body_def *rb = &m->body[c->body].def, *wb = &m->body[c->wheel].def;
  const nsed_shape *s = &rb->shape;
  if (wb->shape.type != NSED_SHAPE_DISK && wb->shape.type != NSED_SHAPE_CYLINDER)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: implicit tracking takes the wheel's axis from its shape: give wheel "
                          "'%s' a disk or cylinder shape (axis = body z)",
                          owner, wb->name);
  double R = s->radius, R1 = R * cos(M_PI / s->rollers), d[3], i2[3], k1[3], ex[3] = {1, 0, 0},
         ez[3] = {0, 0, 1};
  nsedi_v3_sub(d, wb->position, rb->position);
  double Rr[9], Rw[9];
  nsedi_quat_to_mat(Rr, rb->quat);
  nsedi_quat_to_mat(Rw, wb->quat);
  nsedi_m3_mulv(i2, Rr, ex);
  nsedi_m3_mulv(k1, Rw, ez);
  double dist = nsedi_v3_norm(d), tol = NSEDI_MODEL_MOUNT_TOL * R;
  if (fabs(dist - R1) > tol)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: roller '%s' is %.9g from the centre of wheel '%s'; its shape (radius "
                          "%g, rollers %d) needs R cos(pi/n) = %.9g, or its surface cannot reach "
                          "the floor where the wheel's envelope does",
                          owner, rb->name, dist, wb->name, R, s->rollers, R1);
  double ri = nsedi_v3_dot(d, i2) / dist, rk = nsedi_v3_dot(d, k1) / dist;
  double ik = fabs(nsedi_v3_dot(i2, k1)), sp = fabs(sin(s->psi));
  if (fabs(ri) > NSEDI_MODEL_MOUNT_TOL || fabs(rk) > NSEDI_MODEL_MOUNT_TOL ||
      fabs(ik - sp) > NSEDI_MODEL_MOUNT_TOL)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: roller '%s' is not mounted as its shape says on wheel '%s': radius.axis "
                          "= %.3g and radius.wheel_axis = %.3g (both must be 0), |axis.wheel_axis| "
                          "= %.6g vs |sin(psi)| = %.6g",
                          owner, rb->name, wb->name, ri, rk, ik, sp);
  nsedi_v3_copy(c->wheel_axis, ez);
  return NSED_OK;
}

static int resolve_tracking(nsed_model *m, nsed_error *err) {
  if ((unsigned)m->opt.contact_tracking > NSED_TRACKING_DIFFERENTIAL)
    return nsed_error_set(err, NSED_ERR_INPUT, "unknown contact_tracking %d",
                          (int)m->opt.contact_tracking);
  for (int i = 0; i < m->ncontact; i++) {
    nsedi_contact *c = &m->contact[i];
    char owner[NSED_NAME_MAX + 16];
    snprintf(owner, sizeof owner, "contact '%s'", c->def.name);
    nsed_contact_tracking t = c->def.tracking;
    if (t != NSED_TRACKING_INHERIT && (unsigned)t > NSED_TRACKING_DIFFERENTIAL)
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: unknown tracking %d", owner, (int)t);
    int roller = c->pair == NSEDI_PAIR_ROLLER_PLANE;
    int surface = nsedi_pair_tracked_surface(c->pair);
    if (!roller && t == NSED_TRACKING_IMPLICIT)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "%s: 'tracking: implicit' applies to roller/floor contacts only", owner);
    if (!roller && !surface && t == NSED_TRACKING_DIFFERENTIAL)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "%s: 'tracking: differential' applies to roller/floor contacts and to "
                            "an ellipsoid's or a superellipsoid's contacts with a plane or a "
                            "sphere only",
                            owner);
    nsed_contact_tracking want = t == NSED_TRACKING_INHERIT ? m->opt.contact_tracking : t;
    /* A surface has no implicit form: the model-wide implicit leaves it explicit. */
    c->tracking = roller ? want
                  : surface && want == NSED_TRACKING_DIFFERENTIAL ? NSED_TRACKING_DIFFERENTIAL
                                                                  : NSED_TRACKING_EXPLICIT;
    c->wheel = c->xtrack = -1;
    c->ntrack = 0;
    c->carrier = roller ? revolute_partner(m, c->body) : -1;
    if (c->carrier < 0) c->carrier = -1;
    if (roller && c->def.wheel[0]) c->carrier = nsed_model_find_body(m, c->def.wheel);
    if (!roller && c->def.wheel[0])
      return nsed_error_set(err, NSED_ERR_INPUT, "%s: 'wheel' applies to roller contacts only", owner);
    if (c->tracking == NSED_TRACKING_IMPLICIT) {
      int w = find_wheel(m, c, owner, err);
      if (w < 0) return w;
      c->wheel = w;
      int rc = check_mount(m, c, owner, err);
      if (rc) return rc;
    } else if (c->tracking == NSED_TRACKING_DIFFERENTIAL) {
      /* A roller's (q, phi); a surface's point in its body's axes. */
      c->xtrack = m->nstate;
      c->ntrack = roller ? 2 : 3;
      m->nstate += c->ntrack;
    }
  }
  return NSED_OK;
}

/* Exact (set-valued) torsional friction is an interval row of the event
 * problem: every polygon model holds it exactly; the exact cone (Siconos
 * fc3d) and the trial-and-error resolver have no such row. */
static int check_exact_torsion(const nsed_model *m, nsed_error *err) {
  for (int c = 0; c < m->ncontact; c++) {
    const nsed_contact_def *cd = &m->contact[c].def;
    if (cd->law != NSED_CONTACT_COULOMB || !(cd->torsion > 0)) continue;
    if (m->opt.friction.model == NSED_FRICTION_EXACT_CONE)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "contact '%s': exact Coulomb torsional friction (torsion %g m) needs a "
                            "polygon friction model (face or vertex form); the exact cone "
                            "(Siconos fc3d) has no torsional row",
                            cd->name, cd->torsion);
    if (m->opt.event_resolver == NSED_RESOLVER_TRIAL)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "contact '%s': exact Coulomb torsional friction (torsion %g m) needs "
                            "solver.event_resolver: lcp; the trial-and-error resolver does not "
                            "decide spins",
                            cd->name, cd->torsion);
  }
  return NSED_OK;
}

const nsed_options *nsed_model_options(const nsed_model *m) { return &m->opt; }

int nsed_model_set_options(nsed_model *m, const nsed_options *o, nsed_error *err) {
  if (m->finalized)
    return nsed_error_set(err, NSED_ERR_INPUT, "the model is finalized: its options are fixed");
  m->opt = *o;
  return NSED_OK;
}

int nsed_model_finalize(nsed_model *m, nsed_error *err) {
  if (m->finalized) return NSED_OK;
  nsed_options *o = &m->opt;
  if (m->nbody == 0) return nsed_error_set(err, NSED_ERR_INPUT, "the model has no bodies");
  if (!finite3(o->gravity)) return nsed_error_set(err, NSED_ERR_INPUT, "gravity must be finite");
  if (!finite3(o->floor_normal) || nsedi_v3_normalize(o->floor_normal) < NSEDI_MODEL_ZERO_VECTOR)
    return nsed_error_set(err, NSED_ERR_INPUT, "floor.normal must be a finite non-zero vector");
  if (!finite3(o->floor_point) || !finite3(o->floor_velocity) || !isfinite(o->floor_spin))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "floor.point, floor.velocity and floor.spin must be finite");
  if (fabs(nsedi_v3_dot(o->floor_velocity, o->floor_normal)) >
      NSEDI_MODEL_FLOOR_TANGENT * (1 + nsedi_v3_norm(o->floor_velocity)))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "floor.velocity must be tangential (perpendicular to floor.normal)");
  if (!(o->t_end > 0) || !isfinite(o->t_end))
    return nsed_error_set(err, NSED_ERR_INPUT, "solver.t_end must be a positive number, got %g",
                          o->t_end);
  if (!(o->rtol > 0 && o->rtol < 1) || !(o->atol > 0) || !isfinite(o->atol))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "solver tolerances must satisfy 0 < rtol < 1 and atol > 0 (got %g, %g)",
                          o->rtol, o->atol);
  if (!(o->max_step >= 0) || !isfinite(o->max_step))
    return nsed_error_set(err, NSED_ERR_INPUT, "solver.max_step must be >= 0");
  if (!(o->output_dt > 0) || !isfinite(o->output_dt))
    return nsed_error_set(err, NSED_ERR_INPUT, "output.dt must be a positive number, got %g",
                          o->output_dt);
  if (!(o->baumgarte_eta >= 0) || !(o->baumgarte_xi >= 0) || !(o->baumgarte_gamma >= 0) ||
      !isfinite(o->baumgarte_eta + o->baumgarte_xi + o->baumgarte_gamma))
    return nsed_error_set(err, NSED_ERR_INPUT, "Baumgarte eta, xi, gamma must be >= 0");
  if (!(o->contact_tol > 0) || !(o->slip_tol > 0) || !(o->slip_stop_speed > 0) || !(o->drift_tol > 0) || !(o->zeno_velocity >= 0) ||
      !(o->zeno_window >= 0) || o->zeno_events < 2 || o->max_events < 1)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "solver: contact_tol, slip_tol, slip_stop_speed, drift_tol must be > 0, zeno.events >= 2, "
                          "max_events >= 1");
  if (o->friction.sides < 4 || o->friction.sides % 4)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "friction.sides must be a multiple of 4 (4n*), >= 4; got %d",
                          o->friction.sides);
  if ((unsigned)o->event_resolver > NSED_RESOLVER_TRIAL)
    return nsed_error_set(err, NSED_ERR_INPUT, "unknown event resolver %d", (int)o->event_resolver);
  if ((unsigned)o->integrator > NSED_INTEGRATOR_CVODE_BDF)
    return nsed_error_set(err, NSED_ERR_INPUT, "unknown integrator %d", (int)o->integrator);
  if ((unsigned)o->step_controller > NSED_STEP_CONTROLLER_PI)
    return nsed_error_set(err, NSED_ERR_INPUT, "unknown step controller %d", (int)o->step_controller);
  if (o->output_steps && o->integrator != NSED_INTEGRATOR_ARKODE_DP5 && o->integrator != NSED_INTEGRATOR_ARKODE_VERNER)
    return nsed_error_set(err, NSED_ERR_INPUT, "output_steps: the step log needs an ARKODE integrator, not %s",
                          nsed_integrator_name(o->integrator));
  int rc = check_exact_torsion(m, err);
  if (rc) return rc;
  rc = nsedi_model_attached_finalize(m, err);
  if (rc) return rc;
  m->nbstate = 0;
  for (int i = 0; i < m->nbody; i++) {
    m->body[i].xbody = m->body[i].parent < 0 ? m->nbstate : -1;
    m->nbstate += m->body[i].parent < 0 ? 13 : 0;
  }
  m->nstate = m->nbstate;
  rc = resolve_tracking(m, err);
  if (rc) return rc;
  nsedi_model_attached_frames(m);
  for (int i = 0; i < m->nbody; i++)
    m->body[i].bound_radius = nsedi_shape_bound_radius(&m->body[i].def.shape);
  for (int j = 0; j < m->njoint; j++) {
    m->joint[j].xangle = -1;
    if (m->joint[j].def.drive.type != NSED_DRIVE_NONE) m->joint[j].xangle = m->nstate++;
  }
  m->nkink = 0;
  for (int j = 0; j < m->njoint; j++) {
    const nsed_joint_drive *dr[2] = {&m->joint[j].def.drive, &m->joint[j].def.axial_drive};
    for (int k = 0; k < 2; k++) m->joint[j].kink[k] = dr[k]->type == NSED_DRIVE_TABLE ? m->nkink++ : -1;
  }
  m->nrotor = 0;
  for (int i = 0; i < m->nbody; i++) {
    m->body[i].xspin = m->body[i].rotor_axis >= 0 ? m->nstate++ : -1;
    m->nrotor += m->body[i].rotor_axis >= 0;
  }
  for (int i = 0; i < m->nbody; i++) m->body[i].xrate = m->body[i].parent >= 0 ? m->nstate++ : -1;
  m->nv = 6 * m->nbody;
  m->finalized = 1;
  return NSED_OK;
}

int nsed_model_nbody(const nsed_model *m) { return m->nbody; }
int nsed_model_njoint(const nsed_model *m) { return m->njoint; }
int nsed_model_ncontact(const nsed_model *m) { return m->ncontact; }
int nsed_model_nforce(const nsed_model *m) { return m->nforce; }
int nsed_model_nplane(const nsed_model *m) { return m->nplane; }
int nsed_model_nstate(const nsed_model *m) {
  if (m->finalized) return m->nstate;
  int n = 0;
  for (int i = 0; i < m->nbody; i++) n += m->body[i].parent < 0 ? 13 : 0;
  return n;
}
int nsed_model_nconstraint_rows(const nsed_model *m) { return m->nrow; }
const char *nsed_model_body_name(const nsed_model *m, int i) { return m->body[i].def.name; }
const char *nsed_model_joint_name(const nsed_model *m, int i) { return m->joint[i].def.name; }
const char *nsed_model_contact_name(const nsed_model *m, int i) { return m->contact[i].def.name; }
const nsed_body_def *nsed_model_body_def(const nsed_model *m, int i) { return &m->body[i].def; }
const nsed_joint_def *nsed_model_joint_def(const nsed_model *m, int i) { return &m->joint[i].def; }
const nsed_contact_def *nsed_model_contact_def(const nsed_model *m, int i) { return &m->contact[i].def; }
const nsed_force_def *nsed_model_force_def(const nsed_model *m, int i) { return &m->force[i].def; }
const nsed_plane_def *nsed_model_plane_def(const nsed_model *m, int i) { return &m->plane[i]; }
