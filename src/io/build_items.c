#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "build.h"
#include "read_parts.h"
#include "read_drive.h"
#include "shape_pairs.h"
#include "yread.h"

/* NSEDI_OPT at the path of the item being read. */
#define OPT(map, key, call) NSEDI_OPT(map, path, key, call)

static const char *const shape_names[] = {"none",      "sphere",         "disk",  "cylinder",
                                          "box",       "point",          "roller", "capsule",
                                          "ellipsoid", "superellipsoid", NULL};
/* "a" or "an" before a shape's name. */
static const char *article(const char *name) { return strchr("aeiou", name[0]) ? "an" : "a"; }

static const char *const joint_names[] = {"spherical", "revolute", "cylindrical", "prismatic",
                                          "universal", "weld", "servo", "align", NULL};
static const char *const force_names[] = {"force", "torque", "spring", NULL};
static const char *const frame_names[] = {"world", "body", NULL};

int nsedi_defs_find_body(const nsedi_problem_defs *p, const char *name) {
  for (int i = 0; i < p->nbody; i++)
    if (!strcmp(p->bodies[i].name, name)) return i;
  return -1;
}

static int is_ground(const char *name) { return !*name || !strcmp(name, "ground"); }

/* A reference to a body by name: reported with a suggestion if unknown. */
static int check_body_ref(nsedi_problem_defs *p, const nsedi_ynode *at, const char *path,
                          const char *name, int ground_ok) {
  if (ground_ok && is_ground(name)) return 0;
  if (nsedi_defs_find_body(p, name) >= 0) return 0;
  const char **names = malloc(((size_t)p->nbody + 2) * sizeof *names);
  const char *s = NULL;
  if (names) {
    int n = 0;
    for (int i = 0; i < p->nbody; i++) names[n++] = p->bodies[i].name;
    if (ground_ok) names[n++] = "ground";
    names[n] = NULL;
    s = nsedi_suggest(name, names);
  }
  int rc;
  if (!strcmp(name, "ground") || !strcmp(name, "floor"))
    rc = nsedi_diag_add(p->d, at, path, "'%s' cannot be used here: give a body's name", name);
  else if (s)
    rc = nsedi_diag_add(p->d, at, path, "no body named '%s' (did you mean '%s'?)", name, s);
  else
    rc = nsedi_diag_add(p->d, at, path, "no body named '%s' in bodies", name);
  free(names);
  return rc;
}

/* The list under key (may be absent: no items). Items must be mappings. */
static const nsedi_ynode *get_list(nsedi_problem_defs *p, const char *key, int *rc) {
  const nsedi_ynode *l = nsedi_ymap_get(p->root, key);
  if (!l || nsedi_yis_null(l)) return NULL;
  if (l->kind != NSEDI_Y_SEQ) {
    char got[96];
    nsedi_ydescribe(l, got, sizeof got);
    *rc = nsedi_diag_add(p->d, l, key, "expected a list of items (each starting with '- name: ...'), got %s", got);
    return NULL;
  }
  return l;
}

/* Names are unique within their list; the message points to both places. */
static int check_unique(nsedi_problem_defs *p, const nsedi_ynode *list, const char *key, int i,
                        const char *name, const char *kind) {
  for (int j = 0; j < i; j++) {
    const nsedi_ynode *other = nsedi_ymap_get(list->items[j], "name");
    if (other && other->kind == NSEDI_Y_SCALAR && !strcmp(other->text, name)) {
      char ip[300], kp[300];
      nsedi_path_index(ip, sizeof ip, key, i);
      KP(kp, ip, "name");
      return nsedi_diag_add(p->d, nsedi_ymap_get(list->items[i], "name"), kp,
                            "duplicate %s name '%s' (also %s[%d], line %d)", kind, name, key, j,
                            other->line);
    }
  }
  return 0;
}

/* ---- bodies ---- */

/* An optional key of three positive numbers (a box's half extents, an
 * ellipsoid's semi-axes); -1 if it is there and wrong. */
static int read_positive3(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                          const char *key, const char *what, double out[3]) {
  const nsedi_ynode *v = nsedi_ymap_get(node, key);
  if (!v) return 0;
  char kp[300];
  KP(kp, path, key);
  if (nsedi_read_vec(p->d, v, kp, 3, out)) return -1;
  if (!(out[0] > 0 && out[1] > 0 && out[2] > 0))
    return nsedi_diag_add(p->d, v, kp, "expected three positive %s, got [%.15g, %.15g, %.15g]", what,
                          out[0], out[1], out[2]);
  return 0;
}

static int read_shape(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                      nsed_shape *s) {
  static const char *const keys[] = {"type", "radius", "length", "half_extents", "rollers", "psi",
                                     "semi_axes", "exponent", NULL};
  int rc = nsedi_check_map(p->d, node, path, keys);
  if (rc) return -1;
  if (nsedi_require(p->d, node, path, "type")) return -1;
  int type;
  char kp[300];
  KP(kp, path, "type");
  if (nsedi_read_enum(p->d, nsedi_ymap_get(node, "type"), kp, shape_names, &type)) return -1;
  s->type = (nsed_shape_type)type;
  /* Which dimensions each shape needs; the others would be silently unused. */
  int need_r = type == NSED_SHAPE_SPHERE || type == NSED_SHAPE_DISK || type == NSED_SHAPE_CYLINDER ||
               type == NSED_SHAPE_ROLLER || type == NSED_SHAPE_CAPSULE;
  int need_l = type == NSED_SHAPE_CYLINDER || type == NSED_SHAPE_CAPSULE;
  int need_h = type == NSED_SHAPE_BOX, need_p = type == NSED_SHAPE_SUPERELLIPSOID;
  int need_e = type == NSED_SHAPE_ELLIPSOID || need_p;
  int need_n = type == NSED_SHAPE_ROLLER;
  /* need 2: optional for this shape, meaningless for the others */
  struct { const char *key; int need; } dims[] = {{"radius", need_r}, {"length", need_l},
      {"half_extents", need_h}, {"rollers", need_n}, {"psi", 2 * need_n}, {"semi_axes", need_e},
      {"exponent", need_p}};
  for (int i = 0; i < (int)(sizeof dims / sizeof dims[0]); i++) {
    const nsedi_ynode *v = nsedi_ymap_get(node, dims[i].key);
    KP(kp, path, dims[i].key);
    if (dims[i].need == 1 && !v)
      rc = nsedi_diag_add(p->d, node, kp, "%s %s needs '%s'", article(shape_names[type]),
                          shape_names[type], dims[i].key);
    else if (!dims[i].need && v)
      rc = nsedi_diag_add(p->d, v, kp, "'%s' does not apply to %s %s", dims[i].key,
                          article(shape_names[type]), shape_names[type]);
  }
  if (rc) return -1;
  const nsedi_ynode *v;
  if ((v = nsedi_ymap_get(node, "radius"))) {
    KP(kp, path, "radius");
    rc |= nsedi_read_double(p->d, v, kp, NSEDI_POSITIVE, &s->radius);
  }
  if ((v = nsedi_ymap_get(node, "rollers"))) {
    long nr = 0;
    KP(kp, path, "rollers");
    if (nsedi_read_int(p->d, v, kp, 3, 1000, &nr)) rc = -1;
    s->rollers = (int)nr;
  }
  if ((v = nsedi_ymap_get(node, "psi"))) {
    KP(kp, path, "psi");
    if (nsedi_read_double(p->d, v, kp, NSEDI_ANY, &s->psi)) rc = -1;
    else if (!(fabs(s->psi) < M_PI / 2))
      rc = nsedi_diag_add(p->d, v, kp,
                          "the roller inclination psi must lie in (-pi/2, pi/2) rad, got %.15g", s->psi);
  }
  if ((v = nsedi_ymap_get(node, "length"))) {
    KP(kp, path, "length");
    rc |= nsedi_read_double(p->d, v, kp, NSEDI_POSITIVE, &s->length);
  }
  rc |= read_positive3(p, node, path, "half_extents", "half extents", s->half);
  rc |= read_positive3(p, node, path, "semi_axes", "semi-axes", s->half);
  if ((v = nsedi_ymap_get(node, "exponent"))) {
    KP(kp, path, "exponent");
    if (nsedi_read_double(p->d, v, kp, NSEDI_ANY, &s->exponent)) rc = -1;
    else if (!(s->exponent >= 2 && s->exponent <= NSED_SUPERELLIPSOID_MAX_EXPONENT))
      rc = nsedi_diag_add(p->d, v, kp,
                          "the superellipsoid exponent must lie in [2, %d] (2: the ellipsoid; "
                          "below 2 the surface has edges, beyond %d it is a box to 1%%), got %.15g",
                          NSED_SUPERELLIPSOID_MAX_EXPONENT, NSED_SUPERELLIPSOID_MAX_EXPONENT,
                          s->exponent);
  }
  return rc ? -1 : 0;
}

static int read_body(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                     nsed_body_def *b) {
  static const char *const keys[] = {"name", "mass", "inertia", "shape", "position", "orientation",
                                     "velocity", "angular_velocity", "rotor", "attached_to", NULL};
  static const char *const rotor_names[] = {"none", "x", "y", "z", NULL};
  nsed_body_def_default(b);
  if (nsedi_check_map(p->d, node, path, keys)) {
    if (!node || node->kind != NSEDI_Y_MAP) return -1;
  }
  int rc = 0;
  rc |= nsedi_require(p->d, node, path, "name");
  rc |= nsedi_require(p->d, node, path, "mass");
  OPT(node, "name", nsedi_read_name(p->d, v_, kp_, b->name));
  OPT(node, "mass", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &b->mass));
  OPT(node, "shape", read_shape(p, v_, kp_, &b->shape));
  OPT(node, "inertia", nsedi_read_inertia(p->d, v_, kp_, b->inertia));
  OPT(node, "position", nsedi_read_vec(p->d, v_, kp_, 3, b->position));
  OPT(node, "orientation", nsedi_read_orientation(p->d, v_, kp_, b->quat));
  OPT(node, "velocity", nsedi_read_vec(p->d, v_, kp_, 3, b->velocity));
  OPT(node, "angular_velocity", nsedi_read_vec(p->d, v_, kp_, 3, b->angular_velocity));
  int rotor = 0;
  OPT(node, "rotor", nsedi_read_enum(p->d, v_, kp_, rotor_names, &rotor));
  b->rotor = (nsed_rotor)rotor;
  OPT(node, "attached_to", nsedi_read_name(p->d, v_, kp_, b->attached_to));
  if (!nsedi_ymap_get(node, "inertia") && (b->shape.type == NSED_SHAPE_NONE || b->shape.type == NSED_SHAPE_POINT) &&
      !(nsedi_ymap_get(node, "shape") && rc))
    rc = nsedi_diag_add(p->d, node, path,
                        "give 'inertia' [J1, J2, J3] (required for shapes none and point) or a shape (sphere, disk, cylinder, box) to "
                        "compute it from");
  if (!strcmp(b->name, "ground") || !strcmp(b->name, "floor")) {
    char kp[300];
    KP(kp, path, "name");
    rc = nsedi_diag_add(p->d, nsedi_ymap_get(node, "name"), kp,
                        "'%s' is reserved for the fixed world: choose another name", b->name);
  }
  return rc ? -1 : 0;
}

/* ---- joints ---- */

static int joint_has_spring(int t) { return t == NSED_JOINT_CYLINDRICAL || t == NSED_JOINT_PRISMATIC; }
static int joint_has_torque(int t) { return t == NSED_JOINT_REVOLUTE || t == NSED_JOINT_CYLINDRICAL; }

static int read_joint(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                      nsed_joint_def *j) {
  static const char *const keys[] = {"name", "type", "body_a", "body_b", "anchor_a", "anchor_b",
                                     "axis_a", "axis_b", "spring", "torque", "force", "servo_angle",
                                     "servo_feedback", NULL};
  static const char *const spring_keys[] = {"k", "c", "rest_length", NULL};
  nsed_joint_def_default(j);
  if (nsedi_check_map(p->d, node, path, keys) && (!node || node->kind != NSEDI_Y_MAP)) return -1;
  int rc = 0, type = -1;
  rc |= nsedi_require(p->d, node, path, "name");
  rc |= nsedi_require(p->d, node, path, "type");
  rc |= nsedi_require(p->d, node, path, "body_b");
  OPT(node, "name", nsedi_read_name(p->d, v_, kp_, j->name));
  OPT(node, "type", nsedi_read_enum(p->d, v_, kp_, joint_names, &type));
  if (type >= 0) j->type = (nsed_joint_type)type;
  OPT(node, "body_a", nsedi_read_name(p->d, v_, kp_, j->body_a) ||
                          check_body_ref(p, v_, kp_, j->body_a, 1));
  OPT(node, "body_b", nsedi_read_name(p->d, v_, kp_, j->body_b) ||
                          check_body_ref(p, v_, kp_, j->body_b, 0));
  if (!rc && !strcmp(j->body_a, j->body_b)) {
    char kp[300];
    KP(kp, path, "body_b");
    rc = nsedi_diag_add(p->d, nsedi_ymap_get(node, "body_b"), kp,
                        "a joint connects two different bodies; body_a is also '%s'", j->body_b);
  }
  OPT(node, "anchor_a", nsedi_read_vec(p->d, v_, kp_, 3, j->anchor_a));
  OPT(node, "anchor_b", nsedi_read_vec(p->d, v_, kp_, 3, j->anchor_b));
  OPT(node, "axis_a", nsedi_read_dir(p->d, v_, kp_, j->axis_a));
  OPT(node, "axis_b", nsedi_read_dir(p->d, v_, kp_, j->axis_b));
  if (type < 0) return -1;
  const nsedi_ynode *v;
  char kp[300];
  if ((v = nsedi_ymap_get(node, "spring"))) {
    KP(kp, path, "spring");
    if (!joint_has_spring(type)) {
      rc = nsedi_diag_add(p->d, v, kp, "a spring along the axis needs a cylindrical or prismatic joint, not %s",
                          joint_names[type]);
    } else if (nsedi_check_map(p->d, v, kp, spring_keys)) {
      rc = -1;
    } else {
      char sp[300];
      const nsedi_ynode *s;
      if ((s = nsedi_ymap_get(v, "k"))) { KP(sp, kp, "k"); rc |= nsedi_read_double(p->d, s, sp, NSEDI_NONNEGATIVE, &j->spring_k); }
      if ((s = nsedi_ymap_get(v, "c"))) { KP(sp, kp, "c"); rc |= nsedi_read_double(p->d, s, sp, NSEDI_NONNEGATIVE, &j->spring_c); }
      if ((s = nsedi_ymap_get(v, "rest_length"))) { KP(sp, kp, "rest_length"); rc |= nsedi_read_double(p->d, s, sp, NSEDI_ANY, &j->rest_length); }
    }
  }
  if ((v = nsedi_ymap_get(node, "torque"))) {
    KP(kp, path, "torque");
    if (!joint_has_torque(type))
      rc = nsedi_diag_add(p->d, v, kp, "a torque about the axis needs a revolute or cylindrical joint, not %s",
                          joint_names[type]);
    else if (nsedi_read_joint_load(p->d, v, kp, &j->drive, &j->torque)) rc = -1;
    else j->has_torque = j->drive.type == NSED_DRIVE_NONE;
  }
  if ((v = nsedi_ymap_get(node, "force"))) {
    KP(kp, path, "force");
    nsed_law law;
    if (!joint_has_spring(type))
      rc = nsedi_diag_add(p->d, v, kp, "a force along the axis needs a cylindrical or prismatic joint, not %s",
                          joint_names[type]);
    else if (nsedi_read_joint_load(p->d, v, kp, &j->axial_drive, &law)) rc = -1;
    else if (j->axial_drive.type == NSED_DRIVE_NONE) {
      j->axial_drive.type = NSED_DRIVE_FEEDBACK; /* k = c = 0: the time law alone */
      j->axial_drive.feedforward = law;
    }
  }
  if ((v = nsedi_ymap_get(node, "servo_feedback"))) {
    static const char *const gain_keys[] = {"kp", "kd", NULL};
    KP(kp, path, "servo_feedback");
    if (type != NSED_JOINT_SERVO) {
      rc = nsedi_diag_add(p->d, v, kp, "'servo_feedback' applies to servo joints only, not %s",
                          joint_names[type]);
    } else if (nsedi_check_map(p->d, v, kp, gain_keys)) {
      rc = -1;
    } else {
      char sp[300];
      const nsedi_ynode *s;
      j->servo_level = NSED_SERVO_ACCELERATION;
      if ((s = nsedi_ymap_get(v, "kp"))) { KP(sp, kp, "kp"); rc |= nsedi_read_double(p->d, s, sp, NSEDI_NONNEGATIVE, &j->servo_kp); }
      if ((s = nsedi_ymap_get(v, "kd"))) { KP(sp, kp, "kd"); rc |= nsedi_read_double(p->d, s, sp, NSEDI_NONNEGATIVE, &j->servo_kd); }
    }
  }
  v = nsedi_ymap_get(node, "servo_angle");
  KP(kp, path, "servo_angle");
  if (type == NSED_JOINT_SERVO && !v)
    rc = nsedi_diag_add(p->d, node, kp, "a servo joint needs its prescribed angle law 'servo_angle' (rad)");
  else if (v && type != NSED_JOINT_SERVO)
    rc = nsedi_diag_add(p->d, v, kp, "'servo_angle' applies to servo joints only, not %s", joint_names[type]);
  else if (v && nsedi_read_law(p->d, v, kp, &j->servo_angle)) rc = -1;
  return rc ? -1 : 0;
}

/* ---- forces ---- */

static int read_force(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                      nsed_force_def *f) {
  static const char *const keys[] = {"name", "type", "body", "body_b", "direction", "frame", "point",
                                     "point_b", "magnitude", "k", "c", "rest_length", NULL};
  /* Keys that belong to each type: others are reported, not ignored. */
  static const char *const per_type[3][9] = {
      {"name", "type", "body", "direction", "frame", "point", "magnitude", NULL},
      {"name", "type", "body", "direction", "frame", "magnitude", NULL},
      {"name", "type", "body", "body_b", "point", "point_b", "k", "c", "rest_length"}};
  nsed_force_def_default(f);
  if (nsedi_check_map(p->d, node, path, keys) && (!node || node->kind != NSEDI_Y_MAP)) return -1;
  int rc = 0, type = -1, frame = 0;
  rc |= nsedi_require(p->d, node, path, "name");
  rc |= nsedi_require(p->d, node, path, "type");
  rc |= nsedi_require(p->d, node, path, "body");
  OPT(node, "name", nsedi_read_name(p->d, v_, kp_, f->name));
  OPT(node, "type", nsedi_read_enum(p->d, v_, kp_, force_names, &type));
  if (type < 0) return -1;
  f->type = (nsed_force_type)type;
  for (int i = 0; i < node->n; i++) {
    const char *k = node->keys[i]->text;
    int known = 0, any = 0;
    for (int t = 0; t < 9 && per_type[type][t]; t++) known |= !strcmp(per_type[type][t], k);
    for (const char *const *a = keys; *a; a++) any |= !strcmp(*a, k);
    if (any && !known) {
      char kp[300];
      KP(kp, path, k);
      rc = nsedi_diag_add(p->d, node->keys[i], kp, "'%s' does not apply to a force of type %s", k,
                          force_names[type]);
    }
  }
  if (type != NSED_FORCE_SPRING) {
    rc |= nsedi_require(p->d, node, path, "direction");
    rc |= nsedi_require(p->d, node, path, "magnitude");
  } else {
    rc |= nsedi_require(p->d, node, path, "k");
  }
  OPT(node, "body", nsedi_read_name(p->d, v_, kp_, f->body) || check_body_ref(p, v_, kp_, f->body, 0));
  if (type == NSED_FORCE_SPRING)
    OPT(node, "body_b", nsedi_read_name(p->d, v_, kp_, f->body_b) ||
                            check_body_ref(p, v_, kp_, f->body_b, 1));
  OPT(node, "direction", nsedi_read_dir(p->d, v_, kp_, f->direction));
  OPT(node, "frame", nsedi_read_enum(p->d, v_, kp_, frame_names, &frame));
  f->direction_in_body = frame == 1;
  OPT(node, "point", nsedi_read_vec(p->d, v_, kp_, 3, f->point));
  OPT(node, "point_b", nsedi_read_vec(p->d, v_, kp_, 3, f->point_b));
  OPT(node, "magnitude", nsedi_read_law(p->d, v_, kp_, &f->magnitude));
  OPT(node, "k", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &f->k));
  OPT(node, "c", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &f->c));
  OPT(node, "rest_length", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &f->rest_length));
  if (type == NSED_FORCE_SPRING && !rc && !strcmp(f->body, f->body_b)) {
    char kp[300];
    KP(kp, path, "body_b");
    rc = nsedi_diag_add(p->d, nsedi_ymap_get(node, "body_b"), kp,
                        "a spring connects two different bodies; body is also '%s'", f->body);
  }
  return rc ? -1 : 0;
}

/* ---- planes ---- */

static int find_plane(const nsedi_problem_defs *p, const char *name) {
  for (int i = 0; i < p->nplane; i++)
    if (!strcmp(p->planes[i].name, name)) return i;
  return -1;
}

static int read_plane(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                      nsed_plane_def *pl) {
  static const char *const keys[] = {"name", "point", "normal", "velocity", NULL};
  nsed_plane_def_default(pl);
  if (nsedi_check_map(p->d, node, path, keys) && (!node || node->kind != NSEDI_Y_MAP)) return -1;
  int rc = 0;
  rc |= nsedi_require(p->d, node, path, "name");
  rc |= nsedi_require(p->d, node, path, "point");
  rc |= nsedi_require(p->d, node, path, "normal");
  OPT(node, "name", nsedi_read_name(p->d, v_, kp_, pl->name));
  OPT(node, "point", nsedi_read_vec(p->d, v_, kp_, 3, pl->point));
  OPT(node, "normal", nsedi_read_dir(p->d, v_, kp_, pl->normal));
  OPT(node, "velocity", nsedi_read_vec(p->d, v_, kp_, 3, pl->velocity));
  if (rc) return -1;
  char kp[300];
  KP(kp, path, "name");
  if (nsedi_defs_find_body(p, pl->name) >= 0 || !strcmp(pl->name, "floor") ||
      !strcmp(pl->name, "ground"))
    return nsedi_diag_add(p->d, nsedi_ymap_get(node, "name"), kp,
                          "plane '%s': the name is taken (a body's, or reserved: floor, ground)",
                          pl->name);
  return 0;
}

/* ---- contacts ---- */

static int read_contact(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                        nsed_contact_def *c) {
  static const char *const keys[] = {"name", "body", "with", "mu", "mu0", "restitution", "law",
                                     "delta", "stiffness", "damping", "tracking", "wheel", "torsion",
                                     "torsion_rate", "feature", NULL};
  nsed_contact_def_default(c);
  if (nsedi_check_map(p->d, node, path, keys) && (!node || node->kind != NSEDI_Y_MAP)) return -1;
  int rc = 0;
  rc |= nsedi_require(p->d, node, path, "name");
  rc |= nsedi_require(p->d, node, path, "body");
  OPT(node, "name", nsedi_read_name(p->d, v_, kp_, c->name));
  OPT(node, "body", nsedi_read_name(p->d, v_, kp_, c->body) || check_body_ref(p, v_, kp_, c->body, 0));
  const nsedi_ynode *with = nsedi_ymap_get(node, "with");
  char kp[300];
  KP(kp, path, "with");
  if (with) {
    if (nsedi_read_name(p->d, with, kp, c->other)) rc = -1;
    else if (strcmp(c->other, "floor") && find_plane(p, c->other) < 0 &&
             check_body_ref(p, with, kp, c->other, 0))
      rc = -1;
  }
  long feature = -1;
  OPT(node, "feature", nsedi_read_int(p->d, v_, kp_, 0, 7, &feature));
  c->feature = (int)feature;
  OPT(node, "wheel", nsedi_read_name(p->d, v_, kp_, c->wheel) || check_body_ref(p, v_, kp_, c->wheel, 0));
  if (nsedi_read_contact_law(p->d, node, path, c)) rc = -1;
  if (rc || nsedi_check_exact_torsion(p, node, path, c)) return -1;
  /* The engine has surfaces for spheres and disk rims on the floor, and
   * sphere-sphere pairs; say so here rather than at the first event. */
  int bi = nsedi_defs_find_body(p, c->body);
  int oi = *c->other && strcmp(c->other, "floor") && find_plane(p, c->other) < 0
               ? nsedi_defs_find_body(p, c->other)
               : -1;
  if (!p->item_ok[bi] || (oi >= 0 && !p->item_ok[oi])) return 0; /* its own message says why */
  const nsed_shape_type st = p->bodies[bi].shape.type;
  KP(kp, path, "body");
  if (st == NSED_SHAPE_NONE)
    return nsedi_diag_add(p->d, nsedi_ymap_get(node, "body"), kp,
                          "body '%s' has no shape: contacts need a sphere, disk, point, box, "
                          "cylinder, capsule, ellipsoid, superellipsoid or roller",
                          c->body);
  int nf = nsedi_contact_features(st, oi >= 0);
  if (c->feature >= 0 && c->feature >= nf) {
    KP(kp, path, "feature");
    const nsedi_ynode *fn = nsedi_ymap_get(node, "feature");
    if (!nf)
      return nsedi_diag_add(p->d, fn, kp,
                            "feature applies to box, cylinder and capsule contacts with a plane "
                            "or the floor only (body '%s' is a %s%s)",
                            c->body, shape_names[st], oi >= 0 ? " touching a body" : "");
    return nsedi_diag_add(p->d, fn, kp, "%s %s has features 0..%d, not %d", article(shape_names[st]),
                          shape_names[st], nf - 1, c->feature);
  }
  if (oi >= 0) {
    KP(kp, path, "with");
    if (oi == bi)
      return nsedi_diag_add(p->d, with, kp, "a body cannot touch itself");
    nsed_shape_type ot = p->bodies[oi].shape.type;
    if (nsedi_body_pair(st, ot) < 0)
      return nsedi_diag_add(p->d, with, kp, "body-body contacts are %s ('%s' is %s %s, '%s' %s %s)",
                            nsedi_body_pairs, c->body, article(shape_names[st]), shape_names[st],
                            c->other, article(shape_names[ot]), shape_names[ot]);
  }
  /* The tracking forms a pair has (the model checks it too, without the
   * key's place). */
  int pair = oi >= 0 ? nsedi_body_pair(st, p->bodies[oi].shape.type) : nsedi_plane_pair(st);
  int roller = st == NSED_SHAPE_ROLLER && oi < 0, surface = nsedi_pair_tracked_surface(pair);
  const nsedi_ynode *tn = nsedi_ymap_get(node, "tracking");
  KP(kp, path, "tracking");
  if (c->tracking == NSED_TRACKING_IMPLICIT && !roller)
    return nsedi_diag_add(p->d, tn, kp, "implicit tracking applies to roller contacts only");
  if (c->tracking == NSED_TRACKING_DIFFERENTIAL && !roller && !surface)
    return nsedi_diag_add(p->d, tn, kp,
                          "differential tracking applies to roller contacts and to an ellipsoid's "
                          "or a superellipsoid's contacts with a plane or a sphere only (body "
                          "'%s' is %s %s)",
                          c->body, article(shape_names[st]), shape_names[st]);
  return 0;
}

/* ---- the four lists ---- */

typedef int (*item_reader)(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path, void *def);

static int read_section(nsedi_problem_defs *p, const char *key, const char *kind, size_t def_size,
                        item_reader reader, void **defs, const nsedi_ynode ***at, int *count,
                        int **ok) {
  int rc = 0;
  const nsedi_ynode *list = get_list(p, key, &rc);
  *count = 0;
  if (!list) return rc;
  if (list->n == 0) return 0;
  *defs = calloc((size_t)list->n, def_size);
  *at = calloc((size_t)list->n, sizeof **at);
  if (ok) *ok = calloc((size_t)list->n, sizeof **ok);
  if (!*defs || !*at || (ok && !*ok)) return -2;
  for (int i = 0; i < list->n; i++) {
    char ip[300];
    nsedi_path_index(ip, sizeof ip, key, i);
    void *def = (char *)*defs + (size_t)i * def_size;
    int bad = reader(p, list->items[i], ip, def) != 0;
    if (bad) rc = -1;
    if (ok) (*ok)[i] = !bad;
    (*at)[i] = list->items[i];
    const nsedi_ynode *name = nsedi_ymap_get(list->items[i], "name");
    if (name && name->kind == NSEDI_Y_SCALAR && check_unique(p, list, key, i, name->text, kind))
      rc = -1;
  }
  *count = list->n;
  return rc;
}

static int rd_body(nsedi_problem_defs *p, const nsedi_ynode *n, const char *path, void *def) {
  return read_body(p, n, path, def);
}
static int rd_joint(nsedi_problem_defs *p, const nsedi_ynode *n, const char *path, void *def) {
  return read_joint(p, n, path, def);
}
static int rd_force(nsedi_problem_defs *p, const nsedi_ynode *n, const char *path, void *def) {
  return read_force(p, n, path, def);
}
static int rd_contact(nsedi_problem_defs *p, const nsedi_ynode *n, const char *path, void *def) {
  return read_contact(p, n, path, def);
}
static int rd_plane(nsedi_problem_defs *p, const nsedi_ynode *n, const char *path, void *def) {
  return read_plane(p, n, path, def);
}

/* A shape with several contact features (a box's vertices, a cylinder's
 * rims, a capsule's end caps) touches with each: a contact on one without
 * a feature becomes its features' contacts (NAME.v0 .., NAME.rim0 ..,
 * NAME.end0 ..), each pointing at the list item it came from. */
static int features_of(const nsedi_problem_defs *p, int i) {
  const nsed_contact_def *c = &p->contacts[i];
  int b = nsedi_defs_find_body(p, c->body);
  if (b < 0 || c->feature >= 0) return 0;
  int with_body = *c->other && strcmp(c->other, "floor") && find_plane(p, c->other) < 0;
  return nsedi_contact_features(p->bodies[b].shape.type, with_body);
}

static int expand_features(nsedi_problem_defs *p) {
  int n = 0, k = 0, rc = 0;
  for (int i = 0; i < p->ncontact; i++) n += features_of(p, i) ? features_of(p, i) : 1;
  if (n == p->ncontact) return 0;
  nsed_contact_def *defs = calloc((size_t)n, sizeof *defs);
  const nsedi_ynode **at = calloc((size_t)n, sizeof *at);
  if (!defs || !at) {
    free(defs);
    free(at);
    return -2;
  }
  for (int i = 0; i < p->ncontact; i++) {
    int nf = features_of(p, i);
    nsed_shape_type st = nf ? p->bodies[nsedi_defs_find_body(p, p->contacts[i].body)].shape.type
                            : NSED_SHAPE_NONE;
    for (int f = 0; f < (nf ? nf : 1); f++, k++) {
      at[k] = p->contact_at[i];
      defs[k] = p->contacts[i];
      nsed_error e;
      nsed_error_clear(&e);
      if (nf && nsed_contact_feature(&p->contacts[i], st, f, &defs[k], &e)) {
        char ip[300];
        nsedi_path_index(ip, sizeof ip, "contacts", i);
        rc = nsedi_diag_add(p->d, at[k], ip, "%s", e.message);
      }
    }
  }
  free(p->contacts);
  free(p->contact_at);
  p->contacts = defs;
  p->contact_at = at;
  p->ncontact = n;
  return rc ? -1 : 0;
}

int nsedi_build_items(nsedi_problem_defs *p) {
  int rc = read_section(p, "bodies", "body", sizeof(nsed_body_def), rd_body, (void **)&p->bodies,
                        &p->body_at, &p->nbody, &p->item_ok);
  if (rc == -2) return rc;
  /* The assembly blocks' bodies join before the other lists are read, so
   * that these may name them; their joints, forces and contacts follow the
   * user's. */
  nsedi_blocks *blocks = NULL;
  int r = nsedi_blocks_bodies(p, &blocks);
  if (r == -2) return r;
  rc |= r;
  /* Go on after a bad body: references are checked against the names read,
   * which a body's other mistakes do not affect. */
  r = read_section(p, "joints", "joint", sizeof(nsed_joint_def), rd_joint, (void **)&p->joints,
                   &p->joint_at, &p->njoint, NULL);
  if (r != -2) {
    rc |= r;
    r = read_section(p, "forces", "force", sizeof(nsed_force_def), rd_force, (void **)&p->forces,
                     &p->force_at, &p->nforce, NULL);
  }
  if (r != -2) {
    rc |= r;
    r = read_section(p, "planes", "plane", sizeof(nsed_plane_def), rd_plane, (void **)&p->planes,
                     &p->plane_at, &p->nplane, NULL);
  }
  if (r != -2) {
    rc |= r;
    r = read_section(p, "contacts", "contact", sizeof(nsed_contact_def), rd_contact,
                     (void **)&p->contacts, &p->contact_at, &p->ncontact, NULL);
  }
  if (r != -2) {
    rc |= r;
    r = expand_features(p);
  }
  if (r != -2) {
    rc |= r;
    r = nsedi_blocks_links(p, blocks);
  }
  nsedi_blocks_free(blocks);
  if (r == -2) return r;
  rc |= r;
  return rc ? -1 : 0;
}

void nsedi_problem_defs_free(nsedi_problem_defs *p) {
  free(p->bodies);
  free(p->joints);
  free(p->forces);
  free(p->contacts);
  free(p->body_at);
  free(p->joint_at);
  free(p->force_at);
  free(p->contact_at);
  free(p->planes);
  free(p->plane_at);
  free(p->item_ok);
}
