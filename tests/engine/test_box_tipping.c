/* A box on its face pushed at its back by a growing force F = k t, against
 * closed forms (docs/engine.md, "Redundant contacts"). With a the box's
 * half length along the push and h the push's height above the floor, it
 * tips over its leading edge when F h = m g a, and slides when F = mu m g:
 * it tips first when h > h* = a / mu.
 *  - pushed at 1.25 h* its two trailing vertices open together at
 *    t = m g a / (h k), with no slip before, and it then turns about the
 *    sticking leading edge as the pivot's own equation says,
 *    I_e theta'' = F (2a sin + h cos) - m g (a cos - c sin)  (c: its half
 *    height), integrated here independently by classical Runge-Kutta;
 *  - pushed at 0.8 h* its four vertices start slipping together at
 *    t = mu m g / k, and it moves x = k (t - t_s)^3 / (6 m) without turning;
 * for three coefficients and every exact friction form.
 *
 * Every configuration runs (docs/engine.md, "Redundant contacts", the
 * pushed box); one listed as not running yet would have to end in an
 * error, never in an "ok" with another answer. meson runs this test again
 * under each OpenBLAS kernel the CPU can execute: which solution of the
 * degenerate event problem the run takes must not be decided by the
 * kernel's rounding. */
#include <math.h>

#include "engine_util.h"
#include "nsed_test.h"

static const double G = 9.81, MASS = 1.0, RATE = 2.0; /* kg, N/s */
static const double HALF[3] = {0.1, 0.15, 0.25};     /* m: a along the push, c the half height */

/* The box standing on the floor, its eight vertex contacts (mu0 = mu), and
 * the push k t along +x at height h on its back face's centre line. */
static nsed_model *pushed_box(double mu, double h, double t_end, nsed_friction_model form) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  add_vertex_box(m, MASS, HALF, mu);
  nsed_force_def f;
  nsed_force_def_default(&f);
  snprintf(f.name, sizeof f.name, "push");
  snprintf(f.body, sizeof f.body, "box");
  f.type = NSED_FORCE_BODY_FORCE;
  f.direction[0] = 1, f.direction[2] = 0;
  f.point[0] = -HALF[0];
  f.point[2] = h - HALF[2];
  f.magnitude.type = NSED_LAW_PIECEWISE;
  f.magnitude.npoints = 2;
  f.magnitude.times[1] = 10;
  f.magnitude.values[1] = 10 * RATE;
  must(nsed_model_add_force(m, &f, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = t_end;
  o.friction.model = form;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

/* The tipping box about its leading edge: theta'' at (t, theta, omega) for
 * the push at height h, and the edge's reaction (H along the push, V up)
 * from the centre's acceleration. */
static double pivot_accel(double h, double t, double th, double w, double *H, double *V) {
  const double a = HALF[0], c = HALF[2], ie = 4.0 / 3.0 * MASS * (a * a + c * c);
  double s = sin(th), co = cos(th), F = RATE * t;
  double acc = (F * (2 * a * s + h * co) - MASS * G * (a * co - c * s)) / ie;
  /* centre about the edge: (-a cos + c sin, a sin + c cos) */
  double ax = acc * (a * s + c * co) + w * w * (a * co - c * s);
  double az = acc * (a * co - c * s) - w * w * (a * s + c * co);
  *H = MASS * ax - F;
  *V = MASS * az + MASS * G;
  return acc;
}

/* theta(t_end) from rest at t0 by classical Runge-Kutta (step 1e-5 s, its
 * error ~1e-16), and the largest |H| / V the edge's sticking asks for. */
static double pivot_theta(double h, double t0, double t_end, double *ratio) {
  double t = t0, th = 0, w = 0, H, V;
  *ratio = 0;
  int n = (int)ceil((t_end - t0) / 1e-5);
  double dt = (t_end - t0) / n;
  for (int i = 0; i < n; i++) {
    double k1 = pivot_accel(h, t, th, w, &H, &V);
    *ratio = fmax(*ratio, fabs(H) / V);
    double k2 = pivot_accel(h, t + dt / 2, th + dt / 2 * w, w + dt / 2 * k1, &H, &V);
    double k3 = pivot_accel(h, t + dt / 2, th + dt / 2 * (w + dt / 2 * k1), w + dt / 2 * k2, &H, &V);
    double k4 = pivot_accel(h, t + dt, th + dt * (w + dt / 2 * k2), w + dt * k3, &H, &V);
    th += dt * (w + dt / 6 * (k1 + k2 + k3));
    w += dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    t += dt;
  }
  return th;
}

static recorder rec;

/* Vertices 0-3 are the bottom face's; the trailing ones are at x = -a. */
static int trailing(const nsed_data *d, int c) {
  nsed_contact_info ci;
  nsed_data_contact(d, c, &ci);
  return ci.point[0] < 0;
}

/* A configuration that does not run yet ends in an error: reported, and
 * nothing else is asserted of it. */
static int not_yet(int rc, int runs, const char *what, double mu, nsed_friction_model form) {
  if (runs) {
    CHECK_MSG(rc == NSED_OK, "%s mu %g %s: %s", what, mu, nsed_friction_model_name(form), nsed_status_name(rc));
    return rc != NSED_OK;
  }
  if (rc == NSED_OK) return 0; /* runs now: it must then be right */
  printf("%-7s mu %.1f %-15s: not yet, ends in %s (as documented)\n", what, mu,
         nsed_friction_model_name(form), nsed_status_name(rc));
  return 1;
}

static void tips(double mu, nsed_friction_model form, int runs) {
  const double h = 1.25 * HALF[0] / mu, t_tip = MASS * G * HALF[0] / (h * RATE), t_end = t_tip + 0.25;
  double ratio, th_ref = pivot_theta(h, t_tip, t_end, &ratio);
  /* the reference's own premise: the edge sticks until t_end */
  CHECK_MSG(ratio < mu, "mu %g: the edge would slip (|H|/V up to %g)", mu, ratio);
  nsed_model *m = pushed_box(mu, h, t_end, form);
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  int rc = run_model(m, &d, &rec);
  if (!not_yet(rc, runs, "tips:", mu, form)) {
    int opens = 0, others = 0;
    double t_err = 0;
    for (int i = 0; i < rec.nev; i++) {
      if (rec.ev[i].kind == NSED_EVENT_OPEN && trailing(d, rec.ev[i].contact))
        opens++, t_err = fmax(t_err, fabs(rec.ev[i].t - t_tip));
      else
        others++;
    }
    double st[13];
    nsed_data_body_state(d, 0, st);
    double th = 2 * atan2(st[5], st[3]);
    printf("tips:   mu %.1f h %.4f %-15s: %d events, trailing edge opens %.2e s from m g a / (h k), "
           "theta %.6f rad (reference %.6f, error %.1e), edge friction up to %.2f of mu\n",
           mu, h, nsed_friction_model_name(form), rec.nev, t_err, th, th_ref, th - th_ref, ratio / mu);
    CHECK_MSG(opens == 2 && others == 0, "%d trailing openings, %d other events", opens, others);
    CHECK_NEAR(t_err, 0, 1e-9, 0);
    CHECK_NEAR(th, th_ref, 1e-9, 1e-8);
    CHECK(monitor_clean(nsed_data_stats(d)));
    for (int c = 0; c < 4; c++) {
      nsed_contact_info ci;
      nsed_data_contact(d, c, &ci);
      nsed_mode want = trailing(d, c) ? NSED_MODE_OPEN : NSED_MODE_STICK;
      CHECK_MSG(ci.mode == want, "vertex %d ends %s", c, nsed_mode_name(ci.mode));
    }
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void slides(double mu, nsed_friction_model form, int runs) {
  const double h = 0.8 * HALF[0] / mu, t_slip = mu * MASS * G / RATE, t_end = t_slip + 0.5;
  nsed_model *m = pushed_box(mu, h, t_end, form);
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  int rc = run_model(m, &d, &rec);
  if (!not_yet(rc, runs, "slides:", mu, form)) {
    int slips = 0;
    double t_err = 0;
    for (int i = 0; i < rec.nev && i < 4; i++)
      if (rec.ev[i].kind == NSED_EVENT_SLIP) slips++, t_err = fmax(t_err, fabs(rec.ev[i].t - t_slip));
    double st[13], dt = t_end - t_slip, x_ref = RATE * dt * dt * dt / (6 * MASS);
    nsed_data_body_state(d, 0, st);
    double th = 2 * atan2(st[5], st[3]), err = st[0] - x_ref;
    printf("slides: mu %.1f h %.4f %-15s: %d events, slip onsets %.2e s from mu m g / k, "
           "x %.9f m (closed form %.9f, error %.1e), theta %.1e\n",
           mu, h, nsed_friction_model_name(form), rec.nev, t_err, st[0], x_ref, err, th);
    CHECK_MSG(slips == 4, "%d slip onsets first: the four vertices start together", slips);
    CHECK_NEAR(t_err, 0, 1e-9, 0);
    CHECK_NEAR(err, 0, 1e-9, 0);
    CHECK_NEAR(th, 0, 1e-12, 0);
    CHECK(monitor_clean(nsed_data_stats(d)));
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(void) {
  const nsed_friction_model forms[3] = {NSED_FRICTION_POLYGON_FACE, NSED_FRICTION_POLYGON_VERTEX,
                                        NSED_FRICTION_EXACT_CONE};
  const double mu[3] = {0.4, 0.6, 0.8};
  /* runs[form][mu]: 1 where the configuration runs today */
  const int tip_runs[3][3] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  const int slide_runs[3][3] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  for (int f = 0; f < 3; f++)
    for (int i = 0; i < 3; i++) {
      tips(mu[i], forms[f], tip_runs[f][i]);
      slides(mu[i], forms[f], slide_runs[f][i]);
    }
  return TEST_DONE();
}
