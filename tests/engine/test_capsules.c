/* Capsule against capsule (the segments' nearest points) in whole runs,
 * against closed forms:
 *   a rod dropped across a fixed rod, crossing at its centre at 90, 60 and
 *   30 degrees: free fall to the first impact, t_1 = sqrt(2 h / g), and
 *   bounces with restitution e at t_{k+1} = t_k + 2 e^k v_1 / g, impulse
 *   (1 + e) m e^(k-1) v_1;
 *   the same rod crossing off its centre (lever arm l): the impact impulse
 *   of a point l from the centre, (1 + e) v_1 / (1/m + l^2 / I), and the
 *   spin it leaves, -l P / I;
 *   the rod resting across the fixed rod for 1 s: no event, the normal
 *   force m g, no drift;
 *   the rod dropped parallel onto the bar: a line contact, a clear error
 *   at the landing;
 *   the rod lying across the bar's end, sliding frictionless along the bar
 *   at v0: its nearest point reaches the bar's end (the region) at
 *   (L_B/2) / v0, it goes over the end cap (a circle of radius r_A + r_B
 *   about the segment's end in the rod's plane of motion) and leaves where
 *   cos(phi) = (v0^2 / (g R) + 2) / 3, at the time of the energy integral
 *   (as the ball over a capsule's end in engine_round_shapes).
 * The geometry itself is checked against a ternary search in
 * engine_closest_points and its derivatives by differences in
 * engine_rows_fd. */
#include <math.h>

#include "engine_util.h"
#include "math3.h"
#include "nsed_test.h"

static const double G = 9.81, M = 0.8, I_T = 0.05, RA = 0.05, RB = 0.08, LA = 1.0, LB = 1.2;

/* Body z (a capsule's axis) horizontal at `angle` from world x. */
static void horizontal_axis(double angle, double q[4]) {
  double qy[4] = {cos(M_PI / 4), 0, sin(M_PI / 4), 0}, qz[4] = {cos(angle / 2), 0, 0, sin(angle / 2)};
  nsedi_quat_mul(q, qz, qy);
}

/* Rod A (axis at angle_a from world x, centre pa, velocity va) over bar B
 * (axis at angle_b, centre pb, welded to the ground), both horizontal. */
static nsed_model *rod_and_bar(double angle_a, const double pa[3], const double va[3],
                               double angle_b, const double pb[3], double e, double mu,
                               double t_end) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "rod");
  b.mass = M;
  b.inertia[0] = b.inertia[1] = I_T;
  b.inertia[2] = 0.001;
  b.shape.type = NSED_SHAPE_CAPSULE;
  b.shape.radius = RA;
  b.shape.length = LA;
  horizontal_axis(angle_a, b.quat);
  memcpy(b.position, pa, sizeof b.position);
  memcpy(b.velocity, va, sizeof b.velocity);
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "bar");
  b.mass = 5.0;
  b.shape.type = NSED_SHAPE_CAPSULE;
  b.shape.radius = RB;
  b.shape.length = LB;
  horizontal_axis(angle_b, b.quat);
  memcpy(b.position, pb, sizeof b.position);
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_joint_def j;
  nsed_joint_def_default(&j);
  snprintf(j.name, sizeof j.name, "fix");
  j.type = NSED_JOINT_WELD;
  snprintf(j.body_b, sizeof j.body_b, "bar");
  memcpy(j.anchor_a, pb, sizeof j.anchor_a);
  j.axis_a[0] = cos(angle_b), j.axis_a[1] = sin(angle_b), j.axis_a[2] = 0; /* the bar's axis */
  j.axis_b[0] = 0, j.axis_b[1] = 0, j.axis_b[2] = 1;
  must(nsed_model_add_joint(m, &j, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "cross");
  snprintf(c.body, sizeof c.body, "rod");
  snprintf(c.other, sizeof c.other, "bar");
  c.restitution = e;
  c.mu = c.mu0 = mu;
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.gravity[2] = -G;
  o.t_end = t_end;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

/* Rod A (axis at `angle` from world x, centre (xa, 0, za), at rest) over
 * the bar along world y at the origin: they cross at 90 degrees less
 * `angle`. */
static nsed_model *rods(double angle, double xa, double za, double e, double mu) {
  const double pa[3] = {xa, 0, za}, zero[3] = {0, 0, 0};
  return rod_and_bar(angle, pa, zero, M_PI / 2, zero, e, mu, 1.0);
}

/* The impacts of the run, in order. */
static int impacts(const recorder *r, const nsed_event **out, int max) {
  int n = 0;
  for (int i = 0; i < r->nev && n < max; i++)
    if (r->ev[i].kind == NSED_EVENT_IMPACT) out[n++] = &r->ev[i];
  return n;
}

static void centre_drop(double cross_deg) {
  const double e = 0.5, h = 0.3, angle_deg = 90 - cross_deg;
  nsed_model *m = rods(angle_deg * M_PI / 180, 0, RA + RB + h, e, 0.3);
  static recorder r;
  memset(&r, 0, sizeof r);
  nsed_data *d;
  int rc = run_model(m, &d, &r);
  CHECK_MSG(rc == NSED_OK, "centre drop at %g deg: %s", cross_deg, nsed_status_name(rc));
  const nsed_event *imp[8];
  int n = impacts(&r, imp, 8);
  double v1 = sqrt(2 * G * h), t = sqrt(2 * h / G), v = v1, worst_t = 0, worst_p = 0;
  CHECK_MSG(n >= 3, "centre drop at %g deg: %d impacts", cross_deg, n);
  for (int k = 0; k < n && k < 3; k++) {
    worst_t = fmax(worst_t, fabs(imp[k]->t - t));
    worst_p = fmax(worst_p, fabs(imp[k]->impulse[0] - (1 + e) * M * v));
    t += 2 * e * v / G;
    v *= e;
  }
  CHECK_NEAR(worst_t, 0, 1e-9, 0);
  CHECK_NEAR(worst_p, 0, 1e-9, 0);
  printf("rod dropped across at %2.0f deg: 3 impact times within %.1e s, impulses within %.1e N s\n",
         cross_deg, worst_t, worst_p);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* Crossing l from the rod's centre: P = (1 + e) v / (1/m + l^2/I), and the
 * rod turns at -l P / I about world y (its contact point, at +l along x,
 * leaves upwards at e v). */
static void lever_drop(double l) {
  const double e = 0.5, h = 0.3;
  nsed_model *m = rods(0, -l, RA + RB + h, e, 0.0);
  static recorder r;
  memset(&r, 0, sizeof r);
  nsed_data *d;
  double v = sqrt(2 * G * h), t1 = sqrt(2 * h / G);
  int rc = run_model(m, &d, &r);
  CHECK_MSG(rc == NSED_OK, "lever drop l = %g: %s", l, nsed_status_name(rc));
  const nsed_event *imp[4];
  int n = impacts(&r, imp, 4);
  CHECK(n >= 1);
  if (n >= 1) {
    double P = (1 + e) * v / (1 / M + l * l / I_T);
    CHECK_NEAR(imp[0]->t, t1, 1e-9, 0);
    CHECK_NEAR(imp[0]->impulse[0], P, 1e-9, 1e-9);
    printf("rod dropped across l = %.2f from its centre: impact at %.12f s (closed form %.12f), "
           "impulse %.12f N s (closed form %.12f)\n",
           l, imp[0]->t, t1, imp[0]->impulse[0], P);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* At rest across the bar: the normal force carries the weight, nothing
 * moves, no event. */
static void resting(void) {
  nsed_model *m = rods(M_PI / 3, 0.0, RA + RB, 0.0, 0.5);
  static recorder r;
  memset(&r, 0, sizeof r);
  nsed_data *d;
  int rc = run_model(m, &d, &r);
  CHECK_MSG(rc == NSED_OK, "resting: %s", nsed_status_name(rc));
  nsed_contact_info ci;
  nsed_data_contact(d, 0, &ci);
  double s[13];
  nsed_data_body_state(d, 0, s);
  int moved = 0;
  for (int i = 0; i < r.nev; i++) moved += r.ev[i].kind != NSED_EVENT_STICK;
  CHECK_MSG(moved == 0, "resting: %d events", moved);
  CHECK_NEAR(ci.lambda[0], M * G, 1e-9, 1e-9);
  CHECK_NEAR(s[2], RA + RB, 1e-10, 0);
  CHECK_NEAR(hypot(s[7], s[8]) + fabs(s[9]), 0, 1e-10, 0);
  printf("rod resting across the bar 1 s: normal force %.12f N (m g = %.12f), height off by %.1e m\n",
         ci.lambda[0], M * G, fabs(s[2] - RA - RB));
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* Dropped parallel onto the bar it would touch along a line: a clear
 * error at the landing, naming the contact and why. */
static void parallel(void) {
  nsed_model *m = rods(M_PI / 2, 0, RA + RB + 0.1, 0.5, 0.3);
  nsed_error err;
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  int rc = nsed_simulate(m, d, NULL, &err);
  CHECK_MSG(rc == NSED_ERR_EVENT && strstr(err.message, "'cross'") &&
                strstr(err.message, "touch along a line"),
            "parallel rods: %s (%s)", err.message, nsed_status_name(rc));
  CHECK_NEAR(nsed_data_time(d), sqrt(2 * 0.1 / G), 1e-6, 0);
  printf("rod dropped parallel onto the bar: %s\n", err.message);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* The rod (axis y) across the bar, both horizontal, the bar along x at
 * height z0 welded to the ground, the rod's centre over the bar's centre,
 * sliding along x at v0, frictionless. */
static void rod_over_end(void) {
  const double v0 = 0.5, z0 = 0.5, R = RA + RB;
  const double pa[3] = {0, 0, z0 + R}, va[3] = {v0, 0, 0}, pb[3] = {0, 0, z0};
  nsed_model *m = rod_and_bar(M_PI / 2, pa, va, 0, pb, 0.0, 0.0, 2.0);
  static recorder r;
  memset(&r, 0, sizeof r);
  nsed_data *d;
  CHECK(run_model(m, &d, &r) == NSED_OK);
  int opens = 0;
  double t_open = 0;
  for (int i = 0; i < r.nev; i++)
    if (r.ev[i].kind == NSED_EVENT_OPEN) opens++, t_open = r.ev[i].t;
  double t_leave = 0.5 * LB / v0 + time_over_cap(R, v0, G);
  CHECK(opens == 1);
  CHECK_NEAR(t_open, t_leave, 1e-8, 0);
  printf("rod sliding over the bar's end: leaves at %.12f s (closed form %.12f), %d events\n", t_open,
         t_leave, r.nev);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(void) {
  centre_drop(90);
  centre_drop(60);
  centre_drop(30);
  lever_drop(0.25);
  lever_drop(0.4);
  resting();
  parallel();
  rod_over_end();
  return TEST_DONE();
}
