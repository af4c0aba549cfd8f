/* The omni_vehicle block: Kosenko's omni vehicle (seed 001 §4) written as
 * one mapping and expanded here into ordinary bodies, joints and contacts,
 * so the engine sees nothing new and `--set omni_vehicle.rollers=8` works
 * in runs and sweeps like any other key.
 *
 * Geometry (world z up, floor z = 0; docs/problem-format.md, "omni_vehicle"):
 * the platform centre P at height R, heading h about z. Wheel i sits at
 * P + d E_i, E_i = Rz(h) (cos beta_i, sin beta_i, 0), its axle along E_i:
 * hub body axes x = E_i x z, y = -z (down), z = E_i, so that the hub is a
 * disk with its axis along the axle. Roller k's centre is at R1 = R cos(pi/n)
 * from the hub centre at theta_k = 90 deg + 360 k / n in the hub's x-y plane
 * (roller 0 at the bottom), its axis (roller body x) the in-plane tangent
 * turned about the radius by psi: cos(psi) t_k + sin(psi) z_hub; roller body
 * y points at the hub centre (seed 001's j'), as in make_omni_wheel.py. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "math3.h"
#include "yread.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Bounds that keep a mistyped count from building a model of 10^5 bodies. */
#define VEH_MAX_WHEELS 16
#define VEH_MAX_ROLLERS 100

static const char *const block = "omni_vehicle";

/* What the block says, defaults filled in. */
typedef struct {
  int nw, n;
  int counts_ok;                 /* wheels and rollers read (list lengths depend on them) */
  double psi, R, d;
  double beta[VEH_MAX_WHEELS];   /* wheel directions in the platform frame (rad) */
  double m_platform, J_platform[3];
  double m_wheel, J_wheel[3];    /* J_wheel all 0: from the hub's disk shape */
  double m_roller;
  double pos[2], heading, vel[2], spin;
  double floor_v[3];             /* floor.velocity: the rollers roll on a moving floor (a belt) */
  double g;                      /* -gravity.z: the suspension's preload carries the platform */
  int suspended;                 /* each hub on a sprung strut (suspension: block) */
  double k_susp, c_susp, m_strut;
  int c_given, m_strut_given;
  nsed_contact_def contact;      /* every roller's, name and body aside */
  int driven;
  nsed_law drive[VEH_MAX_WHEELS];
} vparams;

struct nsedi_vehicle {
  const nsedi_ynode *at; /* the block: messages about generated items point here */
  int njoint, ncontact;
  nsed_joint_def *joints;
  nsed_contact_def *contacts;
};

/* ---- reading ---- */

static void set_defaults(vparams *v) {
  memset(v, 0, sizeof *v);
  v->nw = 3;
  v->n = 4;
  v->counts_ok = 1;
  v->R = 1.0;
  v->d = 2.0;
  /* Kosenko's non-dimensional set: platform 3.3, wheel 1, rollers 0.1 of
   * the wheel in all over 4 rollers. */
  v->m_platform = 3.3;
  v->m_wheel = 1.0;
  v->m_roller = 0.025;
  nsed_contact_def_default(&v->contact);
}

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

static int read_psi(nsedi_problem_defs *p, const nsedi_ynode *node, double *psi) {
  const nsedi_ynode *s = nsedi_ymap_get(node, "psi");
  if (!s) return 0;
  char kp[300];
  KP(kp, block, "psi");
  double x;
  if (nsedi_read_double(p->d, s, kp, NSEDI_ANY, &x)) return -1;
  if (!(fabs(x) < M_PI / 2))
    return nsedi_diag_add(p->d, s, kp,
                          "the roller inclination psi must lie in (-pi/2, pi/2) rad, got %.15g", x);
  *psi = x;
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
  NSEDI_OPT(s, path, "inertia", nsedi_read_inertia(p, v_, kp_, J));
  return rc;
}

/* wheel_angles (degrees): one per wheel, no two in the same direction. */
static int read_angles(nsedi_problem_defs *p, const nsedi_ynode *node, vparams *v) {
  for (int i = 0; i < v->nw; i++) v->beta[i] = 2 * M_PI * i / v->nw;
  const nsedi_ynode *a = nsedi_ymap_get(node, "wheel_angles");
  if (!a || !v->counts_ok) return 0;
  char kp[300];
  KP(kp, block, "wheel_angles");
  if (a->kind == NSEDI_Y_SEQ && a->n != v->nw)
    return nsedi_diag_add(p->d, a, kp, "expected one angle (degrees) per wheel, %d, got %d", v->nw,
                          a->n);
  double deg[VEH_MAX_WHEELS];
  if (nsedi_read_vec(p->d, a, kp, v->nw, deg)) return -1;
  int rc = 0;
  for (int j = 1; j < v->nw; j++)
    for (int i = 0; i < j; i++) {
      double diff = fmod(fabs(deg[j] - deg[i]), 360.0);
      if (fmin(diff, 360.0 - diff) < 1e-9) {
        char ip[300];
        nsedi_path_index(ip, sizeof ip, kp, j);
        rc = nsedi_diag_add(p->d, a->items[j], ip,
                            "%.15g degrees is the direction of wheel_angles[%d] = %.15g: two wheels "
                            "cannot share a place", deg[j], i, deg[i]);
        break;
      }
    }
  for (int i = 0; i < v->nw; i++) v->beta[i] = deg[i] * M_PI / 180.0;
  return rc;
}

static int read_contact(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_contact_def *c) {
  static const char *const keys[] = {"mu", "mu0", "restitution", "law", "delta", "stiffness",
                                     "damping", "tracking", NULL};
  const nsedi_ynode *s = nsedi_ymap_get(node, "contact");
  if (!s) return 0;
  char path[300];
  KP(path, block, "contact");
  int rc = nsedi_check_map(p->d, s, path, keys);
  if (s->kind != NSEDI_Y_MAP) return -1;
  if (nsedi_read_contact_law(p, s, path, c)) rc = -1;
  return rc;
}

/* drive: one torque law per wheel, or a single law for all of them. */
static int read_drive(nsedi_problem_defs *p, const nsedi_ynode *node, vparams *v) {
  const nsedi_ynode *s = nsedi_ymap_get(node, "drive");
  if (!s) return 0;
  char path[300];
  KP(path, block, "drive");
  v->driven = 1;
  if (s->kind != NSEDI_Y_SEQ) {
    if (nsedi_read_law(p->d, s, path, &v->drive[0])) return -1;
    for (int i = 1; i < v->nw; i++) v->drive[i] = v->drive[0];
    return 0;
  }
  if (!v->counts_ok) return 0;
  if (s->n != v->nw)
    return nsedi_diag_add(p->d, s, path,
                          "expected one torque law per wheel, %d, or a single law for all, got a "
                          "list of %d", v->nw, s->n);
  int rc = 0;
  for (int i = 0; i < v->nw; i++) {
    char ip[300];
    nsedi_path_index(ip, sizeof ip, path, i);
    if (nsedi_read_law(p->d, s->items[i], ip, &v->drive[i])) rc = -1;
  }
  return rc;
}

/* Where a rule about key is reported: the key's node, or the block when the
 * key was left at its default; its path into kp. */
static const nsedi_ynode *key_node(const nsedi_ynode *node, const char *key, char *kp, size_t len) {
  nsedi_path_key(kp, len, block, key);
  const nsedi_ynode *at = nsedi_ymap_get(node, key);
  return at ? at : node;
}

/* Wheels must not touch one another. A wheel's reach is taken as the
 * distance of its roller tips (R sin(alpha) / cos(psi) along an axis across
 * the radius R1 = R cos(alpha), alpha = pi/n) from its centre,
 * rho = R sqrt(cos^2(alpha) + sin^2(alpha) / cos^2(psi)) (for psi = 0 the
 * spindles lie inside the ball of radius rho = R), and wheels at beta_i,
 * beta_j have their centres
 * 2 d sin(|beta_i - beta_j| / 2) apart: that must exceed 2 rho. Some pair of
 * N_w >= 3 wheels is at most 120 degrees apart, so this also gives
 * d > 2 rho / sqrt(3) > rho: no wheel reaches over the platform centre. */
static int check_spacing(nsedi_problem_defs *p, const nsedi_ynode *node, const vparams *v) {
  double a = M_PI / v->n, c = cos(a), s = sin(a) / cos(v->psi);
  double rho = v->R * sqrt(c * c + s * s);
  double worst = 2.0;
  int wi = 0, wj = 1;
  for (int j = 1; j < v->nw; j++)
    for (int i = 0; i < j; i++) {
      double f = sin(0.5 * fabs(remainder(v->beta[j] - v->beta[i], 2 * M_PI)));
      if (f < worst) {
        worst = f;
        wi = i;
        wj = j;
      }
    }
  if (v->d * worst > rho) return 0;
  char kp[300];
  return nsedi_diag_add(p->d, key_node(node, "wheel_distance", kp, sizeof kp), kp,
                        "wheels %d and %d overlap: their centres are 2 d sin(%.6g deg) = %.6g "
                        "apart, not more than twice a wheel's reach rho = R sqrt(cos^2(pi/n) + "
                        "sin^2(pi/n) / cos^2(psi)) = %.6g; wheel_distance must exceed %.6g "
                        "(or the wheels must be smaller or further apart in angle)",
                        wi, wj, asin(worst) * 180.0 / M_PI, 2 * v->d * worst, rho, rho / worst);
}

/* suspension: {stiffness, damping, strut_mass}. A rigid platform on four or
 * more wheels is statically indeterminate: rigid-body mechanics does not
 * decide how the weight, and so the friction, is shared among the wheels,
 * and the event problem's answer is one arbitrary vertex of a family
 * (docs/omni-vehicle.md, "More than three wheels"). A sprung strut per
 * wheel decides it, as it does on a real vehicle. */
static int read_suspension(nsedi_problem_defs *p, const nsedi_ynode *node, vparams *v) {
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
  NSEDI_OPT(s, path, "stiffness", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &v->k_susp));
  v->c_given = nsedi_ymap_get(s, "damping") != NULL;
  NSEDI_OPT(s, path, "damping", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &v->c_susp));
  v->m_strut_given = nsedi_ymap_get(s, "strut_mass") != NULL;
  NSEDI_OPT(s, path, "strut_mass", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &v->m_strut));
  return rc;
}

/* Four or more wheels need the suspension (read_suspension). */
static int check_determinate(nsedi_problem_defs *p, const nsedi_ynode *node, const vparams *v) {
  if (v->nw <= 3 || v->suspended) return 0;
  char kp[300];
  return nsedi_diag_add(p->d, key_node(node, "wheels", kp, sizeof kp), kp,
                        "a rigid platform on %d wheels is statically indeterminate: rigid-body "
                        "mechanics does not decide how its weight, and so the friction, is shared "
                        "among the wheels; give each wheel a sprung strut with "
                        "omni_vehicle.suspension: {stiffness: K} (docs/omni-vehicle.md)",
                        v->nw);
}

/* gravity's z, quietly: a bad one is the settings reader's to report. */
static double read_gravity_z(const nsedi_problem_defs *p) {
  const nsedi_ynode *s = nsedi_ymap_get(p->root, "gravity");
  nsedi_diag quiet;
  nsedi_diag_init(&quiet);
  double g[3];
  if (!s || nsedi_read_vec(&quiet, s, "", 3, g)) return -9.81;
  return g[2];
}

/* floor.velocity, quietly: a bad one is the floor reader's to report. */
static void read_floor_velocity(const nsedi_problem_defs *p, double vf[3]) {
  const nsedi_ynode *f = nsedi_ymap_get(p->root, "floor");
  const nsedi_ynode *s = f && f->kind == NSEDI_Y_MAP ? nsedi_ymap_get(f, "velocity") : NULL;
  nsedi_diag quiet;
  nsedi_diag_init(&quiet);
  if (!s || nsedi_read_vec(&quiet, s, "", 3, vf)) nsedi_v3_set(vf, 0, 0, 0);
}

/* Every key into v; returns -1 if anything was reported. Values that could
 * not be read keep their defaults, so that the bodies can still be named. */
static int read_params(nsedi_problem_defs *p, const nsedi_ynode *node, vparams *v) {
  static const char *const keys[] = {"wheels", "rollers", "psi", "wheel_radius",
                                     "wheel_distance", "wheel_angles", "platform", "wheel",
                                     "roller_mass", "position", "heading", "velocity", "spin",
                                     "contact", "drive", "suspension", NULL};
  const char *path = block;
  set_defaults(v);
  int rc = nsedi_check_map(p->d, node, path, keys);
  if (node->kind != NSEDI_Y_MAP) return -1;
  int geom = 0; /* a value the spacing rule needs is bad */
  if (read_count(p, node, "wheels", VEH_MAX_WHEELS, &v->nw)) v->counts_ok = 0;
  if (read_count(p, node, "rollers", VEH_MAX_ROLLERS, &v->n)) v->counts_ok = 0;
  if (!v->counts_ok) geom = -1;
  geom |= read_psi(p, node, &v->psi);
  geom |= read_num(p, node, "wheel_radius", NSEDI_POSITIVE, &v->R);
  geom |= read_num(p, node, "wheel_distance", NSEDI_POSITIVE, &v->d);
  geom |= read_angles(p, node, v);
  if (geom) rc = -1;
  if (read_part(p, node, "platform", &v->m_platform, v->J_platform)) rc = -1;
  if (read_part(p, node, "wheel", &v->m_wheel, v->J_wheel)) rc = -1;
  if (read_num(p, node, "roller_mass", NSEDI_POSITIVE, &v->m_roller)) rc = -1;
  NSEDI_OPT(node, path, "position", nsedi_read_vec(p->d, v_, kp_, 2, v->pos));
  if (read_num(p, node, "heading", NSEDI_ANY, &v->heading)) rc = -1;
  NSEDI_OPT(node, path, "velocity", nsedi_read_vec(p->d, v_, kp_, 2, v->vel));
  if (read_num(p, node, "spin", NSEDI_ANY, &v->spin)) rc = -1;
  if (read_contact(p, node, &v->contact)) rc = -1;
  if (read_drive(p, node, v)) rc = -1;
  if (read_suspension(p, node, v)) rc = -1;
  if (v->counts_ok && check_determinate(p, node, v)) rc = -1;
  if (!geom && check_spacing(p, node, v)) rc = -1;
  read_floor_velocity(p, v->floor_v);
  v->g = -read_gravity_z(p);
  /* Strut: a tenth of the hub by default; damping: half the critical
   * damping of the platform's share of mass on one spring. */
  if (!v->m_strut_given) v->m_strut = 0.1 * v->m_wheel;
  if (v->suspended && !v->c_given)
    v->c_susp = 2 * 0.5 * sqrt(v->k_susp * v->m_platform / v->nw);
  /* A uniform thin disk of radius d about the vertical (body z). */
  if (v->J_platform[0] == 0 && v->J_platform[1] == 0 && v->J_platform[2] == 0) {
    double q = 0.25 * v->m_platform * v->d * v->d;
    v->J_platform[0] = v->J_platform[1] = q;
    v->J_platform[2] = 2 * q;
  }
  return rc;
}

/* ---- geometry and initial motion ---- */

/* R (row-major, as nsedi_quat_to_mat) with the body axes x, y, z (world) as columns. */
static void set_columns(double R[9], const double x[3], const double y[3], const double z[3]) {
  for (int r = 0; r < 3; r++) {
    R[3 * r] = x[r];
    R[3 * r + 1] = y[r];
    R[3 * r + 2] = z[r];
  }
}

static void m3_mul(double C[9], const double A[9], const double B[9]) {
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      C[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
}

/* The unit quaternion of a rotation matrix (Shepperd: the largest of the
 * four candidate pivots, so no division by a small number). */
static void mat_to_quat(const double R[9], double q[4]) {
  double tr = R[0] + R[4] + R[8];
  if (tr >= R[0] && tr >= R[4] && tr >= R[8]) {
    double s = 2 * sqrt(1 + tr);
    q[0] = 0.25 * s;
    q[1] = (R[7] - R[5]) / s;
    q[2] = (R[2] - R[6]) / s;
    q[3] = (R[3] - R[1]) / s;
  } else if (R[0] >= R[4] && R[0] >= R[8]) {
    double s = 2 * sqrt(1 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s;
    q[1] = 0.25 * s;
    q[2] = (R[1] + R[3]) / s;
    q[3] = (R[2] + R[6]) / s;
  } else if (R[4] >= R[8]) {
    double s = 2 * sqrt(1 + R[4] - R[0] - R[8]);
    q[0] = (R[2] - R[6]) / s;
    q[1] = (R[1] + R[3]) / s;
    q[2] = 0.25 * s;
    q[3] = (R[5] + R[7]) / s;
  } else {
    double s = 2 * sqrt(1 + R[8] - R[0] - R[4]);
    q[0] = (R[3] - R[1]) / s;
    q[1] = (R[2] + R[6]) / s;
    q[2] = (R[5] + R[7]) / s;
    q[3] = 0.25 * s;
  }
}

/* A body's initial state from its world pose and motion (nsed wants the
 * angular velocity in body axes). */
static void set_state(nsed_body_def *b, const double r[3], const double R[9], const double v[3],
                      const double w[3]) {
  nsedi_v3_copy(b->position, r);
  mat_to_quat(R, b->quat);
  nsedi_v3_copy(b->velocity, v);
  nsedi_m3_mulTv(b->angular_velocity, R, w);
}

/* The platform's pose and motion, world. */
typedef struct {
  double r[3], R[9], v[3], w[3];
} motion;

static void platform_motion(const vparams *v, motion *m) {
  double ch = cos(v->heading), sh = sin(v->heading);
  double x[3] = {ch, sh, 0}, y[3] = {-sh, ch, 0}, z[3] = {0, 0, 1};
  nsedi_v3_set(m->r, v->pos[0], v->pos[1], v->R);
  set_columns(m->R, x, y, z);
  nsedi_v3_set(m->v, v->vel[0], v->vel[1], 0);
  nsedi_v3_set(m->w, 0, 0, v->spin);
}

/* Roller k in its hub's frame: centre l and axes M (columns: the roller
 * axis, the direction to the hub centre, their cross product). */
static void roller_frame(const vparams *v, int k, double l[3], double M[9]) {
  double th = M_PI / 2 + 2 * M_PI * k / v->n;
  double r[3] = {cos(th), sin(th), 0}, t[3] = {-sin(th), cos(th), 0}, a[3], y[3], z[3];
  for (int q = 0; q < 3; q++) a[q] = cos(v->psi) * t[q];
  a[2] += sin(v->psi);
  nsedi_v3_scale(y, r, -1.0);
  nsedi_v3_cross(z, a, y);
  nsedi_v3_scale(l, r, v->R * cos(M_PI / v->n));
  set_columns(M, a, y, z);
}

/* Roller 0 touches the floor at the envelope's lowest point Q = C - R z,
 * directly below the hub centre C (the rollers' envelope is the circle of
 * radius R). Rolling without slip: the velocity of roller 0's material
 * point at Q,
 *   v_Q = v_C + w_p x (Q - C) + phidot E x (Q - C) + sigma a0 x (Q - G0),
 * equals the floor's (0, or a belt's velocity): two tangential equations
 * (along the rolling direction z x E and along the axle E) in the hub's
 * spin phidot about E and roller 0's spin sigma about its axis a0 (the
 * normal one holds by construction). For psi = 0 on a floor at rest they
 * decouple: sigma = v_C.E / (R - R1), phidot = -v_C.t / R. h holds the hub's
 * pose and centre velocity. */
static void rolling_spins(const vparams *v, const motion *pf, const motion *h, const double E[3],
                          double *phidot, double *sigma) {
  double z[3] = {0, 0, 1}, l[3], M[9], a0[3], G0[3];
  roller_frame(v, 0, l, M);
  double Mx[3] = {M[0], M[3], M[6]};
  nsedi_m3_mulv(a0, h->R, Mx);
  nsedi_m3_mulv(G0, h->R, l);
  nsedi_v3_add(G0, G0, h->r);
  double Q[3], CQ[3], GQ[3], b[3], u1[3], u2[3], t[3];
  nsedi_v3_axpy(Q, h->r, -v->R, z);
  nsedi_v3_sub(CQ, Q, h->r);
  nsedi_v3_sub(GQ, Q, G0);
  nsedi_v3_cross(b, pf->w, CQ);
  nsedi_v3_add(b, b, h->v);
  nsedi_v3_sub(b, b, v->floor_v);
  nsedi_v3_cross(u1, E, CQ);
  nsedi_v3_cross(u2, a0, GQ);
  nsedi_v3_cross(t, z, E);
  double a11 = nsedi_v3_dot(u1, t), a12 = nsedi_v3_dot(u2, t);
  double a21 = nsedi_v3_dot(u1, E), a22 = nsedi_v3_dot(u2, E);
  double r1 = -nsedi_v3_dot(b, t), r2 = -nsedi_v3_dot(b, E);
  double det = a11 * a22 - a12 * a21; /* -R (R - R1) cos(psi): never 0 */
  *phidot = (r1 * a22 - a12 * r2) / det;
  *sigma = (a11 * r2 - a21 * r1) / det;
}

/* Hub i's pose and its spin about the axle, with roller 0's spin sigma
 * about its own axis, for rolling without slip (rolling_spins). */
static void hub_motion(const vparams *v, const motion *pf, int i, motion *h, double *sigma) {
  double z[3] = {0, 0, 1}, eb[3] = {cos(v->beta[i]), sin(v->beta[i]), 0}, E[3], x[3], y[3], off[3];
  nsedi_m3_mulv(E, pf->R, eb);
  nsedi_v3_cross(x, E, z);
  nsedi_v3_scale(y, z, -1.0);
  nsedi_v3_axpy(h->r, pf->r, v->d, E);
  set_columns(h->R, x, y, E);
  nsedi_v3_sub(off, h->r, pf->r);
  nsedi_v3_cross(h->v, pf->w, off);
  nsedi_v3_add(h->v, h->v, pf->v);
  double phidot;
  rolling_spins(v, pf, h, E, &phidot, sigma);
  nsedi_v3_axpy(h->w, pf->w, phidot, E);
}

static void make_platform(const vparams *v, const motion *pf, nsed_body_def *b) {
  nsed_body_def_default(b);
  snprintf(b->name, sizeof b->name, "platform");
  b->mass = v->m_platform;
  nsedi_v3_copy(b->inertia, v->J_platform);
  b->shape.type = NSED_SHAPE_NONE;
  set_state(b, pf->r, pf->R, pf->v, pf->w);
}

static void make_hub(const vparams *v, int i, const motion *h, nsed_body_def *b,
                     nsed_joint_def *j) {
  nsed_body_def_default(b);
  snprintf(b->name, sizeof b->name, "wheel%d", i);
  b->mass = v->m_wheel;
  nsedi_v3_copy(b->inertia, v->J_wheel);
  /* A disk of radius R/2 gives the hub's inertia (like the testbench) and
   * its axis for implicit contact tracking. */
  b->shape.type = NSED_SHAPE_DISK;
  b->shape.radius = 0.5 * v->R;
  set_state(b, h->r, h->R, h->v, h->w);

  nsed_joint_def_default(j);
  snprintf(j->name, sizeof j->name, "wheel%d_axle", i);
  j->type = NSED_JOINT_REVOLUTE;
  double eb[3] = {cos(v->beta[i]), sin(v->beta[i]), 0};
  if (v->suspended) {
    /* On its strut, whose axes are the platform's. */
    snprintf(j->body_a, sizeof j->body_a, "wheel%d_strut", i);
    nsedi_v3_set(j->anchor_a, 0, 0, 0);
  } else {
    snprintf(j->body_a, sizeof j->body_a, "platform");
    nsedi_v3_scale(j->anchor_a, eb, v->d);
  }
  snprintf(j->body_b, sizeof j->body_b, "wheel%d", i);
  nsedi_v3_copy(j->axis_a, eb);
  nsedi_v3_set(j->anchor_b, 0, 0, 0);
  nsedi_v3_set(j->axis_b, 0, 0, 1);
  if (v->driven) {
    j->has_torque = 1;
    j->torque = v->drive[i];
  }
}

/* Wheel i's strut: it carries the hub's axle and slides along the
 * platform's z on a spring whose preload holds the platform's share of
 * weight m_platform g / N_w at the initial height (equal shares: exact for
 * equally spaced wheels under a centred platform). Axes and rotation are
 * the platform's; its centre is the hub's. */
static void make_strut(const vparams *v, const motion *pf, int i, const motion *h,
                       nsed_body_def *b, nsed_joint_def *j) {
  nsed_body_def_default(b);
  snprintf(b->name, sizeof b->name, "wheel%d_strut", i);
  b->mass = v->m_strut;
  /* A solid ball of radius R/4: the strut is small and does not turn. */
  double js = 0.4 * v->m_strut * (0.25 * v->R) * (0.25 * v->R);
  nsedi_v3_set(b->inertia, js, js, js);
  b->shape.type = NSED_SHAPE_NONE;
  set_state(b, h->r, pf->R, h->v, pf->w);

  nsed_joint_def_default(j);
  snprintf(j->name, sizeof j->name, "wheel%d_suspension", i);
  j->type = NSED_JOINT_PRISMATIC;
  snprintf(j->body_a, sizeof j->body_a, "platform");
  snprintf(j->body_b, sizeof j->body_b, "wheel%d_strut", i);
  double eb[3] = {cos(v->beta[i]), sin(v->beta[i]), 0};
  nsedi_v3_scale(j->anchor_a, eb, v->d);
  nsedi_v3_set(j->axis_a, 0, 0, 1);
  nsedi_v3_set(j->anchor_b, 0, 0, 0);
  nsedi_v3_set(j->axis_b, 0, 0, 1);
  /* f = -k (s - rest) on the strut: at s = 0 it pushes the strut down (and
   * the platform up) with the platform's share of weight. */
  j->spring_k = v->k_susp;
  j->spring_c = v->c_susp;
  /* (k is 0 only in a block with errors, whose model is never built.) */
  j->rest_length = v->k_susp > 0 ? -v->m_platform * v->g / (v->nw * v->k_susp) : 0.0;
}

/* Roller k of wheel i (hub pose and motion h), its axle and its contact;
 * spin: its rate about its own axis relative to the hub. */
static void make_roller(const vparams *v, int i, int k, const motion *h, double spin,
                        nsed_body_def *b, nsed_joint_def *j, nsed_contact_def *c) {
  double l[3], M[9], R[9], G[3], off[3], vel[3], w[3];
  roller_frame(v, k, l, M);
  m3_mul(R, h->R, M);
  nsedi_m3_mulv(off, h->R, l);
  nsedi_v3_add(G, h->r, off);
  nsedi_v3_cross(vel, h->w, off);
  nsedi_v3_add(vel, vel, h->v);
  double a[3] = {R[0], R[3], R[6]};
  nsedi_v3_axpy(w, h->w, spin, a);
  nsed_body_def_default(b);
  snprintf(b->name, sizeof b->name, "wheel%d_roller%d", i, k);
  b->mass = v->m_roller;
  b->shape.type = NSED_SHAPE_ROLLER;
  b->shape.radius = v->R;
  b->shape.rollers = v->n;
  b->shape.psi = v->psi;
  set_state(b, G, R, vel, w);

  nsed_joint_def_default(j);
  snprintf(j->name, sizeof j->name, "wheel%d_roller%d_axle", i, k);
  j->type = NSED_JOINT_REVOLUTE;
  snprintf(j->body_a, sizeof j->body_a, "wheel%d", i);
  snprintf(j->body_b, sizeof j->body_b, "wheel%d_roller%d", i, k);
  nsedi_v3_copy(j->anchor_a, l);
  nsedi_v3_set(j->axis_a, M[0], M[3], M[6]);
  nsedi_v3_set(j->anchor_b, 0, 0, 0);
  nsedi_v3_set(j->axis_b, 1, 0, 0);

  *c = v->contact;
  snprintf(c->name, sizeof c->name, "wheel%d_roller%d_floor", i, k);
  snprintf(c->body, sizeof c->body, "wheel%d_roller%d", i, k);
  c->other[0] = '\0';
  c->wheel[0] = '\0';
}

/* Bodies (and joints) per wheel: the strut if suspended, the hub, the rollers. */
static int wheel_bodies(const vparams *v) { return v->n + 1 + (v->suspended ? 1 : 0); }

/* Wheel i: its strut (if suspended), hub and rollers into
 * b[0..wheel_bodies), their joints in the same order into j, its contacts
 * into c[0..n-1]. */
static void make_wheel(const vparams *v, const motion *pf, int i, nsed_body_def *b,
                       nsed_joint_def *j, nsed_contact_def *c) {
  motion h;
  double sigma;
  hub_motion(v, pf, i, &h, &sigma);
  if (v->suspended) make_strut(v, pf, i, &h, b++, j++);
  make_hub(v, i, &h, &b[0], &j[0]);
  /* Only the touching roller turns on its axle; the others move with the hub. */
  for (int k = 0; k < v->n; k++)
    make_roller(v, i, k, &h, k == 0 ? sigma : 0.0, &b[1 + k], &j[1 + k], &c[k]);
}

/* ---- appending ---- */

static int grow(void **arr, size_t elem, int n, int add) {
  void *q = realloc(*arr, (size_t)(n + add) * elem);
  if (!q) return -1;
  *arr = q;
  return 0;
}

/* A user-written item whose name the block also generates. */
static int report_clash(nsedi_problem_defs *p, const nsedi_ynode *item, const char *list, int idx,
                        const char *kind, const nsedi_ynode *at) {
  char ip[300], kp[300], where[64];
  nsedi_path_index(ip, sizeof ip, list, idx);
  KP(kp, ip, "name");
  const nsedi_ynode *name = nsedi_ymap_get(item, "name");
  if (at->line > 0) snprintf(where, sizeof where, "the omni_vehicle block (line %d)", at->line);
  else snprintf(where, sizeof where, "the omni_vehicle block (from --set)");
  return nsedi_diag_add(p->d, name ? name : item, kp,
                        "%s name '%s' is also generated by %s: choose another name", kind,
                        name ? name->text : "", where);
}

static int clash_bodies(nsedi_problem_defs *p, int nuser, int ngen, const nsedi_ynode *at) {
  int rc = 0;
  for (int u = 0; u < nuser; u++)
    for (int g = nuser; g < nuser + ngen; g++)
      if (!strcmp(p->bodies[u].name, p->bodies[g].name)) {
        rc = report_clash(p, p->body_at[u], "bodies", u, "body", at);
        break;
      }
  return rc;
}

int nsedi_vehicle_bodies(nsedi_problem_defs *p, nsedi_vehicle **out) {
  *out = NULL;
  const nsedi_ynode *node = nsedi_ymap_get(p->root, block);
  if (!node) return 0;
  vparams *v = malloc(sizeof *v);
  if (!v) return -2;
  int rc = read_params(p, node, v);
  if (node->kind != NSEDI_Y_MAP) {
    free(v);
    return rc;
  }
  int nb = 1 + v->nw * wheel_bodies(v), nj = v->nw * wheel_bodies(v), nc = v->nw * v->n;
  nsedi_vehicle *veh = calloc(1, sizeof *veh);
  if (veh) {
    veh->at = node;
    veh->joints = calloc((size_t)nj, sizeof *veh->joints);
    veh->contacts = calloc((size_t)nc, sizeof *veh->contacts);
  }
  if (!veh || !veh->joints || !veh->contacts ||
      grow((void **)&p->bodies, sizeof *p->bodies, p->nbody, nb) ||
      grow((void **)&p->body_at, sizeof *p->body_at, p->nbody, nb) ||
      grow((void **)&p->item_ok, sizeof *p->item_ok, p->nbody, nb)) {
    nsedi_vehicle_free(veh);
    free(v);
    return -2;
  }
  veh->njoint = nj;
  veh->ncontact = nc;
  motion pf;
  platform_motion(v, &pf);
  nsed_body_def *b = p->bodies + p->nbody;
  make_platform(v, &pf, b);
  for (int i = 0; i < v->nw; i++)
    make_wheel(v, &pf, i, b + 1 + i * wheel_bodies(v), veh->joints + i * wheel_bodies(v),
               veh->contacts + i * v->n);
  for (int g = p->nbody; g < p->nbody + nb; g++) {
    p->body_at[g] = node;
    p->item_ok[g] = !rc; /* contact checks on a body rely on it */
  }
  free(v);
  if (clash_bodies(p, p->nbody, nb, node)) rc = -1;
  p->nbody += nb;
  *out = veh;
  return rc ? -1 : 0;
}

/* The vehicle stands on the plane z = 0 with z up: a floor given otherwise
 * would leave it hanging or sunk. Unreadable values are the floor reader's
 * to report. */
static int check_floor(nsedi_problem_defs *p) {
  const nsedi_ynode *f = nsedi_ymap_get(p->root, "floor");
  if (!f || f->kind != NSEDI_Y_MAP) return 0;
  nsedi_diag quiet;
  nsedi_diag_init(&quiet);
  const nsedi_ynode *n = nsedi_ymap_get(f, "normal"), *pt = nsedi_ymap_get(f, "point");
  double nv[3], pv[3];
  int rc = 0;
  if (n && !nsedi_read_dir(&quiet, n, "", nv) && !(nv[0] == 0 && nv[1] == 0 && nv[2] > 0))
    rc = nsedi_diag_add(p->d, n, "floor.normal",
                        "the omni_vehicle stands on the floor z = 0 with z up: the normal must be "
                        "[0, 0, 1], got [%.15g, %.15g, %.15g]", nv[0], nv[1], nv[2]);
  if (pt && !nsedi_read_vec(&quiet, pt, "", 3, pv) && pv[2] != 0)
    rc = nsedi_diag_add(p->d, pt, "floor.point",
                        "the omni_vehicle stands on the floor z = 0: the point's z must be 0, got "
                        "%.15g", pv[2]);
  return rc;
}

int nsedi_vehicle_links(nsedi_problem_defs *p, const nsedi_vehicle *v) {
  if (!v) return 0;
  int rc = check_floor(p);
  for (int u = 0; u < p->njoint; u++)
    for (int g = 0; g < v->njoint; g++)
      if (!strcmp(p->joints[u].name, v->joints[g].name)) {
        rc = report_clash(p, p->joint_at[u], "joints", u, "joint", v->at);
        break;
      }
  for (int u = 0; u < p->ncontact; u++)
    for (int g = 0; g < v->ncontact; g++)
      if (!strcmp(p->contacts[u].name, v->contacts[g].name)) {
        rc = report_clash(p, p->contact_at[u], "contacts", u, "contact", v->at);
        break;
      }
  if (grow((void **)&p->joints, sizeof *p->joints, p->njoint, v->njoint) ||
      grow((void **)&p->joint_at, sizeof *p->joint_at, p->njoint, v->njoint) ||
      grow((void **)&p->contacts, sizeof *p->contacts, p->ncontact, v->ncontact) ||
      grow((void **)&p->contact_at, sizeof *p->contact_at, p->ncontact, v->ncontact))
    return -2;
  for (int g = 0; g < v->njoint; g++) {
    p->joints[p->njoint + g] = v->joints[g];
    p->joint_at[p->njoint + g] = v->at;
  }
  for (int g = 0; g < v->ncontact; g++) {
    p->contacts[p->ncontact + g] = v->contacts[g];
    p->contact_at[p->ncontact + g] = v->at;
  }
  p->njoint += v->njoint;
  p->ncontact += v->ncontact;
  return rc;
}

void nsedi_vehicle_free(nsedi_vehicle *v) {
  if (!v) return;
  free(v->joints);
  free(v->contacts);
  free(v);
}
