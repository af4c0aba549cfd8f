/* Helpers for engine tests: build small models through the public API and
 * run them while recording events and the last state. */
#ifndef NSED_TESTS_ENGINE_UTIL_H
#define NSED_TESTS_ENGINE_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/nsed.h"

#define MAX_EVENTS 4096

/* Dormand-Prince's stability polynomial: one step of size tau on y' = l y
 * multiplies y by R(l tau) = sum_k z^k / k! to k = 5, plus z^6 / 600 (from
 * the published coefficients, independent of ARKODE's table). */
static inline double dp5_R(double z) {
  return 1 + z + z * z / 2 + z * z * z / 6 + pow(z, 4) / 24 + pow(z, 5) / 120 + pow(z, 6) / 600;
}

/* Van der Pol at mu = 5 (steps from 1e-4 to 0.3 of its period), for the
 * integrator's tests, and a root where y0 falls through -1.5. */
static inline int vdp5_rhs(double t, const double *y, double *yd, void *ud) {
  (void)t, (void)ud;
  yd[0] = y[1];
  yd[1] = 5.0 * (1 - y[0] * y[0]) * y[1] - y[0];
  return 0;
}

static inline int vdp5_root(double t, const double *y, double *g, void *ud) {
  (void)t, (void)ud;
  g[0] = y[0] + 1.5;
  return 0;
}

/* The angle between the rotations of two unit quaternions (q and -q are
 * one): 4 asin(|qa -+ qb| / 2), accurate near zero where acos is not. */
static inline double rotation_between(const double qa[4], const double qb[4]) {
  double dm = 0, dp = 0;
  for (int k = 0; k < 4; k++) {
    dm += (qa[k] - qb[k]) * (qa[k] - qb[k]);
    dp += (qa[k] + qb[k]) * (qa[k] + qb[k]);
  }
  return 4 * asin(fmin(1.0, 0.5 * sqrt(fmin(dm, dp))));
}

typedef struct {
  int nev;
  nsed_event ev[MAX_EVENTS];
  int nsamples;
  double (*probe)(const nsed_model *m, const nsed_data *d); /* optional */
  double probe_min, probe_max;
} recorder;

static inline int rec_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m;
  (void)d;
  recorder *r = ctx;
  if (r->nev < MAX_EVENTS) r->ev[r->nev++] = *e;
  return 0;
}

static inline int rec_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)why;
  recorder *r = ctx;
  if (r->probe) {
    double v = r->probe(m, d);
    if (r->nsamples == 0 || v < r->probe_min) r->probe_min = v;
    if (r->nsamples == 0 || v > r->probe_max) r->probe_max = v;
  }
  r->nsamples++;
  return 0;
}

/* The largest difference in time between two runs' events, or INFINITY
 * where their sequences (kind and contact, in order) differ. */
static inline double events_worst_difference(const recorder *a, const recorder *b) {
  if (a->nev != b->nev) return INFINITY;
  double worst = 0;
  for (int i = 0; i < a->nev; i++) {
    if (a->ev[i].kind != b->ev[i].kind || a->ev[i].contact != b->ev[i].contact) return INFINITY;
    worst = fmax(worst, fabs(a->ev[i].t - b->ev[i].t));
  }
  return worst;
}

/* The first events of a run, which the observer stops after `stop_at`
 * (a handover's two halves: 2); nsed_simulate then ends with NSED_ERR_IO. */
typedef struct {
  int n, stop_at;
  nsed_event ev[8];
} first_events;

static inline int stop_after_events(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m, (void)d;
  first_events *l = ctx;
  if (l->n < 8) l->ev[l->n++] = *e;
  return l->n >= l->stop_at;
}

/* Run m from its initial state; returns the status, prints the error. */
static inline int run_model(const nsed_model *m, nsed_data **dout, recorder *r) {
  nsed_error err;
  nsed_data *d = NULL;
  int rc = nsed_data_create(m, &d, &err);
  if (rc) {
    fprintf(stderr, "nsed_data_create: %s\n", err.message);
    return rc;
  }
  nsed_observer obs = {.ctx = r, .sample = rec_sample, .event = rec_event};
  rc = nsed_simulate(m, d, &obs, &err);
  if (rc) fprintf(stderr, "nsed_simulate: %s (%s)\n", err.message, nsed_status_name(rc));
  *dout = d;
  return rc;
}

/* Every law monitor check of the run stayed within its tolerance. */
static inline int monitor_clean(const nsed_stats *s) {
  for (int k = 0; k < NSED_LAW_NCHECK; k++)
    if (s->law[k].count > 0 && s->law[k].worst < -s->law[k].tolerance) return 0;
  return 1;
}

/* World z component of a body's angular velocity, from its state
 * (quaternion s[3..6], body-axis angular velocity s[10..12]). */
static inline double world_spin_z(const double s[13]) {
  double q0 = s[3], q1 = s[4], q2 = s[5], q3 = s[6];
  return 2 * (q1 * q3 - q0 * q2) * s[10] + 2 * (q2 * q3 + q0 * q1) * s[11] +
         (1 - 2 * (q1 * q1 + q2 * q2)) * s[12];
}

/* A frictionless body whose centre goes over a cylinder or sphere of radius
 * R (a cap, an edge) at v0 from its top, under gravity g: it leaves where
 * cos(phi) = (v0^2 / (g R) + 2) / 3, after the time the energy integral
 * gives, T = int_0^phi R dphi / sqrt(v0^2 + 2 g R (1 - cos phi)) (Simpson's
 * rule, 2e5 intervals). */
static inline double time_over_cap(double R, double v0, double g) {
  double phi = acos((v0 * v0 / (g * R) + 2) / 3);
  int nsimp = 200000;
  double hs = phi / nsimp, T = 0;
  for (int i = 0; i <= nsimp; i++) {
    double f = R / sqrt(v0 * v0 + 2 * g * R * (1 - cos(i * hs)));
    T += f * (i == 0 || i == nsimp ? 1 : i % 2 ? 4 : 2);
  }
  return T * hs / 3;
}

/* Distance from the centre to the boundary of the polygon inscribed in the
 * unit circle with vertices at 2 pi j/sides, along direction phi: where
 * the ray meets the chord it crosses (line intersection, not the
 * engine's closed form). */
static inline double inscribed_polygon_radius(double phi, int sides) {
  double u[2] = {cos(phi), sin(phi)}, best = INFINITY;
  for (int j = 0; j < sides; j++) {
    double a[2] = {cos(2 * M_PI * j / sides), sin(2 * M_PI * j / sides)};
    double b[2] = {cos(2 * M_PI * (j + 1) / sides), sin(2 * M_PI * (j + 1) / sides)};
    double e[2] = {b[0] - a[0], b[1] - a[1]};
    double den = u[0] * e[1] - u[1] * e[0];
    if (fabs(den) < 1e-14) continue;
    double t = (a[0] * e[1] - a[1] * e[0]) / den;
    double s = (a[0] * u[1] - a[1] * u[0]) / den; /* where on the chord, 0..1 */
    if (t > 0 && s >= -1e-12 && s <= 1 + 1e-12) best = fmin(best, t);
  }
  return best;
}

static inline void must(int rc, const nsed_error *err) {
  if (rc < 0) {
    fprintf(stderr, "model building failed: %s\n", err->message);
    exit(2);
  }
}

/* A uniform ball "ball" of the given mass and radius, its centre at height
 * z, moving at (vx, vy) without spin, and its floor contact "ball_floor"
 * with mu = mu0 = mu; its law, stiffness, damping and delta from `law`
 * (NULL: exact Coulomb). */
static inline void add_floor_ball(nsed_model *m, double mass, double radius, double z, double vx, double vy,
                            double mu, const nsed_contact_def *law) {
  nsed_error err;
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.mass = mass;
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = radius;
  b.position[2] = z;
  b.velocity[0] = vx;
  b.velocity[1] = vy;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  if (law) {
    c.law = law->law;
    c.stiffness = law->stiffness, c.damping = law->damping, c.delta = law->delta;
  }
  snprintf(c.name, sizeof c.name, "ball_floor");
  snprintf(c.body, sizeof c.body, "ball");
  c.mu = c.mu0 = mu;
  must(nsed_model_add_contact(m, &c, &err), &err);
}

/* The same resting on the floor, sliding, exact Coulomb. */
static inline void add_sliding_ball(nsed_model *m, double mass, double radius, double vx, double vy,
                                    double mu) {
  add_floor_ball(m, mass, radius, radius, vx, vy, mu, NULL);
}

/* A box "box" of the given mass and half extents standing on the floor
 * (its centre at half[2]), and its eight vertex contacts "base.v0".."v7"
 * with mu = mu0 = mu. */
static inline void add_vertex_box(nsed_model *m, double mass, const double half[3], double mu) {
  nsed_error err;
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "box");
  b.mass = mass;
  b.shape.type = NSED_SHAPE_BOX;
  for (int k = 0; k < 3; k++) b.shape.half[k] = half[k];
  b.position[2] = half[2];
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c, v;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "base");
  snprintf(c.body, sizeof c.body, "box");
  c.mu = c.mu0 = mu;
  for (int i = 0; i < 8; i++) {
    must(nsed_contact_feature(&c, NSED_SHAPE_BOX, i, &v, &err), &err);
    must(nsed_model_add_contact(m, &v, &err), &err);
  }
}

/* x = A^-1 b for a 3 x 3 A (row-major) by Cramer's rule; 1 if singular. */
static inline int solve3_cramer(const double A[9], const double rhs[3], double x[3]) {
  double det = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
               A[2] * (A[3] * A[7] - A[4] * A[6]);
  if (!(fabs(det) > 0)) return 1;
  for (int c = 0; c < 3; c++) {
    double T[9];
    memcpy(T, A, sizeof T);
    for (int r = 0; r < 3; r++) T[3 * r + c] = rhs[r];
    x[c] = (T[0] * (T[4] * T[8] - T[5] * T[7]) - T[1] * (T[3] * T[8] - T[5] * T[6]) +
            T[2] * (T[3] * T[7] - T[4] * T[6])) / det;
  }
  return 0;
}

/* A shipped problem, root/problems/file, loaded with overrides (KEY=VALUE). */
static inline nsed_model *load_shipped(const char *root, const char *file, const char *const *sets,
                                       int nset) {
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/%s", root, file);
  nsed_model *m = NULL;
  nsed_error err;
  must(nsed_problem_load(path, sets, nset, &m, &err), &err);
  return m;
}

/* A frictionless ball of radius rb at (0, 0, ball_z) moving at v0 along x
 * on the body `fixed` (already added, welded to the ground at height z0,
 * its axis_b the direction of its body that stays along the world's z);
 * run for 1.5 s. Returns the time the ball leaves (its one open event) and
 * the number of such events (-1 if the run failed). */
static inline double ball_leaves(recorder *rec, nsed_model *m, const char *fixed, double z0,
                                 const double axis_b[3], double rb, double ball_z, double v0,
                                 int *opens) {
  nsed_error err;
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = rb;
  b.position[2] = ball_z;
  b.velocity[0] = v0;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_joint_def j;
  nsed_joint_def_default(&j);
  snprintf(j.name, sizeof j.name, "fix");
  j.type = NSED_JOINT_WELD;
  snprintf(j.body_b, sizeof j.body_b, "%s", fixed);
  j.anchor_a[2] = z0;
  memcpy(j.axis_b, axis_b, sizeof j.axis_b);
  must(nsed_model_add_joint(m, &j, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "ball_%s", fixed);
  snprintf(c.body, sizeof c.body, "ball");
  snprintf(c.other, sizeof c.other, "%s", fixed);
  c.mu = c.mu0 = 0;
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = 1.5;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  memset(rec, 0, sizeof *rec);
  nsed_data *d;
  int rc = run_model(m, &d, rec);
  double t_open = 0;
  *opens = 0;
  for (int i = 0; i < rec->nev; i++)
    if (rec->ev[i].kind == NSED_EVENT_OPEN) (*opens)++, t_open = rec->ev[i].t;
  if (rc != NSED_OK) *opens = -1;
  nsed_data_free(&d);
  return t_open;
}

#endif
