/* The omni_vehicle block: one mapping read into an nsed_omni_vehicle_def
 * (docs/problem-format.md, "omni_vehicle") and built by the assemblies
 * layer, so that `--set omni_vehicle.rollers=8` works in runs and sweeps
 * like any other key. Types and ranges are checked here, at their keys;
 * the rules across keys (wheels apart, a suspension for more than three)
 * are the assembly's, reported at the key its message names. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blocks.h"
#include "read_parts.h"
#include "yread.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const char *const block = "omni_vehicle";

/* What reading found besides the definition. */
typedef struct {
  int counts_ok;      /* wheels and rollers read (list lengths depend on them) */
  int damping_given, strut_given;
} reading;

static int read_count(nsedi_problem_defs *p, const nsedi_ynode *node, const char *key, long hi,
                      int *out) {
  const nsedi_ynode *s = nsedi_ymap_get(node, key);
  if (!s) return 0;
  char kp[300];
  KP(kp, block, key);
  long n;
  if (nsedi_read_int(p->d, s, kp, 3, hi, &n)) return -1;
  *out = (int)n;
  return 0;
}

static int read_num(nsedi_problem_defs *p, const nsedi_ynode *node, const char *key, nsedi_range r,
                    double *out) {
  const nsedi_ynode *s = nsedi_ymap_get(node, key);
  if (!s) return 0;
  char kp[300];
  KP(kp, block, key);
  return nsedi_read_double(p->d, s, kp, r, out);
}

static int read_one_psi(nsedi_problem_defs *p, const nsedi_ynode *s, const char *kp, double *psi) {
  double x;
  if (nsedi_read_double(p->d, s, kp, NSEDI_ANY, &x)) return -1;
  if (!(fabs(x) < M_PI / 2))
    return nsedi_diag_add(p->d, s, kp,
                          "the roller inclination psi must lie in (-pi/2, pi/2) rad, got %.15g", x);
  *psi = x;
  return 0;
}

/* psi: one inclination for every wheel's rollers, or a list, one a wheel
 * (a mecanum car's alternate). */
static int read_psi(nsedi_problem_defs *p, const nsedi_ynode *node, const reading *r,
                    nsed_omni_vehicle_def *v) {
  const nsedi_ynode *s = nsedi_ymap_get(node, "psi");
  if (!s) return 0;
  char kp[300];
  KP(kp, block, "psi");
  if (s->kind != NSEDI_Y_SEQ) return read_one_psi(p, s, kp, &v->wheel.psi);
  if (!r->counts_ok) return 0;
  if (s->n != v->wheels)
    return nsedi_diag_add(p->d, s, kp,
                          "expected one inclination (rad) per wheel, %d, or one for all, got a "
                          "list of %d", v->wheels, s->n);
  int rc = 0;
  for (int i = 0; i < v->wheels; i++) {
    char ip[300];
    nsedi_path_index(ip, sizeof ip, kp, i);
    if (read_one_psi(p, s->items[i], ip, &v->wheel_psi[i])) rc = -1;
  }
  v->psi_given = 1;
  return rc;
}

/* wheel_positions: one [x, y] (m, platform frame) per wheel. */
static int read_positions(nsedi_problem_defs *p, const nsedi_ynode *node, const reading *r,
                          nsed_omni_vehicle_def *v) {
  const nsedi_ynode *a = nsedi_ymap_get(node, "wheel_positions");
  if (!a || !r->counts_ok) return 0;
  char kp[300];
  KP(kp, block, "wheel_positions");
  if (a->kind != NSEDI_Y_SEQ)
    return nsedi_diag_add(p->d, a, kp, "expected a list of [x, y] (m), one per wheel");
  if (a->n != v->wheels)
    return nsedi_diag_add(p->d, a, kp, "expected one position [x, y] per wheel, %d, got %d",
                          v->wheels, a->n);
  int rc = 0;
  for (int i = 0; i < v->wheels; i++) {
    char ip[300];
    nsedi_path_index(ip, sizeof ip, kp, i);
    if (nsedi_read_vec(p->d, a->items[i], ip, 2, v->wheel_positions[i])) rc = -1;
  }
  v->positions_given = 1;
  return rc;
}

/* axle_angles (degrees): one per wheel. */
static int read_axles(nsedi_problem_defs *p, const nsedi_ynode *node, const reading *r,
                      nsed_omni_vehicle_def *v) {
  const nsedi_ynode *a = nsedi_ymap_get(node, "axle_angles");
  if (!a || !r->counts_ok) return 0;
  char kp[300];
  KP(kp, block, "axle_angles");
  if (a->kind == NSEDI_Y_SEQ && a->n != v->wheels)
    return nsedi_diag_add(p->d, a, kp, "expected one angle (degrees) per wheel, %d, got %d",
                          v->wheels, a->n);
  double deg[NSED_OMNI_VEHICLE_MAX_WHEELS];
  if (nsedi_read_vec(p->d, a, kp, v->wheels, deg)) return -1;
  for (int i = 0; i < v->wheels; i++) v->axle_angles[i] = deg[i] * M_PI / 180.0;
  v->axles_given = 1;
  return 0;
}

/* platform or wheel: {mass, inertia}. */
static int read_part(nsedi_problem_defs *p, const nsedi_ynode *node, const char *key, double *mass,
                     double J[3]) {
  static const char *const keys[] = {"mass", "inertia", NULL};
  const nsedi_ynode *s = nsedi_ymap_get(node, key);
  if (!s) return 0;
  char path[300];
  KP(path, block, key);
  int rc = nsedi_check_map(p->d, s, path, keys);
  if (s->kind != NSEDI_Y_MAP) return -1;
  NSEDI_OPT(s, path, "mass", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, mass));
  NSEDI_OPT(s, path, "inertia", nsedi_read_inertia(p->d, v_, kp_, J));
  return rc;
}

/* wheel_angles (degrees): one per wheel; their directions must differ
 * (the assembly's rule). */
static int read_angles(nsedi_problem_defs *p, const nsedi_ynode *node, const reading *r,
                       nsed_omni_vehicle_def *v) {
  const nsedi_ynode *a = nsedi_ymap_get(node, "wheel_angles");
  if (!a || !r->counts_ok) return 0;
  char kp[300];
  KP(kp, block, "wheel_angles");
  if (a->kind == NSEDI_Y_SEQ && a->n != v->wheels)
    return nsedi_diag_add(p->d, a, kp, "expected one angle (degrees) per wheel, %d, got %d",
                          v->wheels, a->n);
  double deg[NSED_OMNI_VEHICLE_MAX_WHEELS];
  if (nsedi_read_vec(p->d, a, kp, v->wheels, deg)) return -1;
  for (int i = 0; i < v->wheels; i++) v->wheel_angles[i] = deg[i] * M_PI / 180.0;
  v->angles_given = 1;
  return 0;
}

static int read_contact(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_contact_def *c) {
  const nsedi_ynode *s = nsedi_ymap_get(node, "contact");
  if (!s) return 0;
  char path[300];
  KP(path, block, "contact");
  return nsedi_read_assembly_contact(p, s, path, 1, c);
}

/* drive: one torque law per wheel, or a single law for all of them. */
static int read_drive(nsedi_problem_defs *p, const nsedi_ynode *node, const reading *r,
                      nsed_omni_vehicle_def *v) {
  const nsedi_ynode *s = nsedi_ymap_get(node, "drive");
  if (!s) return 0;
  char path[300];
  KP(path, block, "drive");
  v->driven = 1;
  if (s->kind != NSEDI_Y_SEQ) {
    if (nsedi_read_law(p->d, s, path, &v->drive[0])) return -1;
    for (int i = 1; i < v->wheels; i++) v->drive[i] = v->drive[0];
    return 0;
  }
  if (!r->counts_ok) return 0;
  if (s->n != v->wheels)
    return nsedi_diag_add(p->d, s, path,
                          "expected one torque law per wheel, %d, or a single law for all, got a "
                          "list of %d", v->wheels, s->n);
  int rc = 0;
  for (int i = 0; i < v->wheels; i++) {
    char ip[300];
    nsedi_path_index(ip, sizeof ip, path, i);
    if (nsedi_read_law(p->d, s->items[i], ip, &v->drive[i])) rc = -1;
  }
  return rc;
}

/* suspension: {stiffness, damping, strut_mass}. */
static int read_suspension(nsedi_problem_defs *p, const nsedi_ynode *node, reading *r,
                           nsed_omni_vehicle_def *v) {
  static const char *const keys[] = {"stiffness", "damping", "strut_mass", NULL};
  const nsedi_ynode *s = nsedi_ymap_get(node, "suspension");
  if (!s) return 0;
  char path[300];
  KP(path, block, "suspension");
  v->suspended = 1; /* even if malformed: the rule for 4+ wheels is then met, not the issue */
  int rc = nsedi_check_map(p->d, s, path, keys);
  if (s->kind != NSEDI_Y_MAP) return -1;
  if (!nsedi_ymap_get(s, "stiffness"))
    rc = nsedi_diag_add(p->d, s, path,
                        "a suspension needs its stiffness (force per length, per wheel)");
  NSEDI_OPT(s, path, "stiffness",
            nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &v->suspension_stiffness));
  r->damping_given = nsedi_ymap_get(s, "damping") != NULL;
  NSEDI_OPT(s, path, "damping",
            nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &v->suspension_damping));
  r->strut_given = nsedi_ymap_get(s, "strut_mass") != NULL;
  NSEDI_OPT(s, path, "strut_mass", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &v->strut_mass));
  return rc;
}

/* Every key into v; returns -1 if anything was reported. Values that could
 * not be read keep their defaults. Gravity and the floor's velocity come
 * from the problem's settings (read before the blocks). */
static int read_def(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_omni_vehicle_def *v) {
  static const char *const keys[] = {"wheels", "rollers", "psi", "wheel_radius",
                                     "wheel_distance", "wheel_angles", "wheel_positions",
                                     "axle_angles", "platform", "wheel",
                                     "roller_mass", "roller_frame", "position", "heading",
                                     "velocity", "spin", "contact", "drive", "suspension", NULL};
  const char *path = block;
  reading r = {.counts_ok = 1};
  nsed_omni_vehicle_def_default(v);
  int rc = nsedi_check_map(p->d, node, path, keys);
  if (node->kind != NSEDI_Y_MAP) return -1;
  if (read_count(p, node, "wheels", NSED_OMNI_VEHICLE_MAX_WHEELS, &v->wheels)) r.counts_ok = 0;
  if (read_count(p, node, "rollers", NSED_OMNI_MAX_ROLLERS, &v->wheel.rollers)) r.counts_ok = 0;
  if (!r.counts_ok) rc = -1;
  if (read_psi(p, node, &r, v)) rc = -1;
  if (read_num(p, node, "wheel_radius", NSEDI_POSITIVE, &v->wheel.radius)) rc = -1;
  if (read_num(p, node, "wheel_distance", NSEDI_POSITIVE, &v->wheel_distance)) rc = -1;
  if (read_angles(p, node, &r, v)) rc = -1;
  if (read_positions(p, node, &r, v)) rc = -1;
  if (read_axles(p, node, &r, v)) rc = -1;
  if (v->positions_given && nsedi_ymap_get(node, "wheel_distance")) {
    char kp[300];
    KP(kp, block, "wheel_distance");
    rc = nsedi_diag_add(p->d, nsedi_ymap_get(node, "wheel_distance"), kp,
                        "the wheels' places are given by wheel_positions; wheel_distance would be "
                        "unused");
  }
  if (read_part(p, node, "platform", &v->platform_mass, v->platform_inertia)) rc = -1;
  if (read_part(p, node, "wheel", &v->wheel.hub_mass, v->wheel.hub_inertia)) rc = -1;
  if (read_num(p, node, "roller_mass", NSEDI_POSITIVE, &v->wheel.roller_mass)) rc = -1;
  if (nsedi_read_roller_frame(p->d, node, path, &v->wheel.roller_rotors)) rc = -1;
  NSEDI_OPT(node, path, "position", nsedi_read_vec(p->d, v_, kp_, 2, v->position));
  if (read_num(p, node, "heading", NSEDI_ANY, &v->heading)) rc = -1;
  NSEDI_OPT(node, path, "velocity", nsedi_read_vec(p->d, v_, kp_, 2, v->velocity));
  if (read_num(p, node, "spin", NSEDI_ANY, &v->spin)) rc = -1;
  if (read_contact(p, node, &v->wheel.contact)) rc = -1;
  if (read_drive(p, node, &r, v)) rc = -1;
  if (read_suspension(p, node, &r, v)) rc = -1;
  if (!r.damping_given) v->suspension_damping = -1;
  if (!r.strut_given) v->strut_mass = 0;
  memcpy(v->floor_velocity, p->opt.floor_velocity, sizeof v->floor_velocity);
  v->gravity = -p->opt.gravity[2];
  return rc;
}

/* A definition with every rule across keys met, for naming the bodies of a
 * block with mistakes (its model is never built). */
static void names_only(nsed_omni_vehicle_def *v) {
  v->angles_given = v->positions_given = v->axles_given = v->psi_given = 0;
  v->wheel_distance = 100 * v->wheel.radius;
  if (v->wheels > 3 && !v->suspended) {
    v->suspended = 1;
    v->suspension_stiffness = 1;
  }
}

int nsedi_read_vehicle_block(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_assembly *a) {
  nsed_omni_vehicle_def v;
  int rc = read_def(p, node, &v);
  if (node->kind != NSEDI_Y_MAP) return -1;
  nsed_error e;
  if (!rc) {
    int brc = nsed_omni_vehicle_check_options(&v, &p->opt, &e);
    if (!brc) brc = nsed_omni_vehicle_build(&v, a, &e);
    if (brc == NSED_ERR_NOMEM) return -2;
    if (!brc) return 0;
    rc = nsedi_report_at_key(p, block, node, &e);
  }
  /* A block with mistakes still names its bodies, so that the user's items
   * naming them are checked. */
  names_only(&v);
  int brc = nsed_omni_vehicle_build(&v, a, &e);
  if (brc == NSED_ERR_NOMEM) return -2;
  return rc ? rc : -1;
}
