/* The problem files in problems/ load, run, and show the closed-form facts
 * their headers state (the same references as the API-built tests, so a
 * drift between a file and its documentation is caught). argv[1] is the
 * source root. */
#include "engine_util.h"
#include "nsed_test.h"

static nsed_model *load(const char *root, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/%s", root, name);
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load(path, NULL, 0, &m, &err);
  CHECK_MSG(rc == NSED_OK, "%s: %s", path, err.message);
  return rc == NSED_OK ? m : NULL;
}

static int count_kind(const recorder *r, nsed_event_kind k, double *first) {
  int n = 0;
  for (int i = 0; i < r->nev; i++)
    if (r->ev[i].kind == k) {
      if (!n && first) *first = r->ev[i].t;
      n++;
    }
  return n;
}

typedef struct {
  int started;
  double raw, angle, largest, worst;
} turn_probe;

static int follow_turn(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m, (void)why;
  turn_probe *p = ctx;
  double st[13], c[4];
  nsed_data_body_state(d, 0, st);
  nsed_data_joint_coordinates(d, 0, c);
  double raw = 2 * atan2(st[6], st[3]);
  p->angle = p->started ? p->angle + remainder(raw - p->raw, 2 * M_PI) : raw;
  p->raw = raw;
  p->started = 1;
  p->largest = fmax(p->largest, fabs(c[0]));
  p->worst = fmax(p->worst, fabs(c[0] - p->angle));
  return 0;
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  static recorder r;
  nsed_data *d;
  nsed_model *m;
  double t;

  if ((m = load(root, "sphere_slide_roll.yaml"))) {
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    CHECK(count_kind(&r, NSED_EVENT_STICK, &t) == 1);
    CHECK_NEAR(t, 2 * 2.0 / (7 * 0.3 * 9.81), 1e-9, 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "ball_spin_slide.yaml"))) {
    /* The sphere rolls at 2 v0 / (7 mu g); its spin about the vertical
     * sticks at I w0 / (torsion m g), I = 2/5 m r^2 (decoupled). */
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    CHECK(count_kind(&r, NSED_EVENT_STICK, &t) == 1);
    CHECK_NEAR(t, 2 * 2.0 / (7 * 0.3 * 9.81), 1e-9, 0);
    CHECK(count_kind(&r, NSED_EVENT_SPIN_STICK, &t) == 1);
    CHECK_NEAR(t, 0.4 * 0.1 * 0.1 * 5.0 / (0.01 * 9.81), 1e-9, 0);
    CHECK(r.nev == 2);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "block_on_belt.yaml"))) {
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    double w = sqrt(10.0), dd = 0.2 * 9.81 / 10, V = 0.2;
    double period = 2 * dd / V + (M_PI + 2 * atan2(V / w, dd)) / w;
    int nslip = count_kind(&r, NSED_EVENT_SLIP, &t);
    CHECK_NEAR(t, 0.5 * 9.81 / (10 * V), 1e-9, 0);
    CHECK(nslip == 6);
    CHECK(count_kind(&r, NSED_EVENT_STICK, NULL) == 6);
    CHECK_NEAR(r.ev[4].t - r.ev[2].t, period, 0, 1e-8);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "bouncing_ball.yaml"))) {
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    double t1 = sqrt(2 * 0.5 / 9.81), v1 = 9.81 * t1, tinf = t1 + 2 * 0.8 * v1 / (9.81 * 0.2);
    CHECK(count_kind(&r, NSED_EVENT_IMPACT, &t) > 40);
    CHECK_NEAR(t, t1, 1e-10, 0);
    CHECK(count_kind(&r, NSED_EVENT_ZENO, &t) >= 1);
    CHECK_NEAR(t, tinf, 1e-6, 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "rolling_coin.yaml"))) {
    memset(&r, 0, sizeof r);
    nsed_error err;
    CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
    double e0 = nsed_data_energy(m, d);
    nsed_observer obs = {.ctx = &r, .event = rec_event};
    CHECK(nsed_simulate(m, d, &obs, &err) == NSED_OK);
    CHECK(r.nev == 0);
    double s[13];
    nsed_data_body_state(d, 0, s);
    CHECK_NEAR(hypot(s[0], s[1]), 0.5, 1e-7, 0);
    CHECK_NEAR(nsed_data_energy(m, d), e0, 0, 1e-9);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "turntable_drives.yaml"))) {
    /* The drives' work closes the energy balance; the motor's angle, read
     * through the joint and unwrapped from the table's quaternion sample by
     * sample, passes pi (its turn is counted) and the two agree. */
    nsed_error err;
    CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
    static turn_probe tp;
    memset(&tp, 0, sizeof tp);
    nsed_observer obs = {.ctx = &tp, .sample = follow_turn};
    CHECK(nsed_simulate(m, d, &obs, &err) == NSED_OK);
    const nsed_stats *s = nsed_data_stats(d);
    double e = nsed_data_energy(m, d);
    CHECK_NEAR(e - s->energy_initial, s->work_external + s->work_joints, 1e-9, 1e-8);
    CHECK(fabs(s->work_external) > 0.1);
    CHECK_MSG(tp.largest > M_PI + 0.5, "largest angle %g", tp.largest);
    CHECK_MSG(tp.worst < 1e-12, "joint angle vs quaternion %g", tp.worst);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "box_incline.yaml"))) {
    /* The four face vertices stick together at v0 / (g (mu cos th - sin th)). */
    const double th = 20 * M_PI / 180, a = 9.81 * (0.5 * cos(th) - sin(th));
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    CHECK(count_kind(&r, NSED_EVENT_STICK, &t) == 4 && r.nev == 4);
    CHECK_NEAR(t, 1.0 / a, 1e-9, 0);
    double s[13];
    nsed_data_body_state(d, 0, s);
    CHECK_NEAR(hypot(s[0] + 0.01710100716628344, s[2] - 0.04698463103929542), 0.5 / a, 1e-9, 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "capsule_incline.yaml"))) {
    /* Rolls on both end caps at g sin(th) / (1 + k), k = I / (m r^2). */
    const double th = 15 * M_PI / 180, rad = 0.05, len = 0.3;
    const double vc = M_PI * rad * rad * len, vs = 4.0 / 3.0 * M_PI * rad * rad * rad;
    const double mc = vc / (vc + vs), k = 0.5 * mc + 0.4 * (1 - mc);
    const double a = 9.81 * sin(th) / (1 + k);
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    CHECK(r.nev == 0);
    double s[13];
    nsed_data_body_state(d, 0, s);
    double along = (-0.012940952255126037 - s[0]) * cos(th) + (0.04829629131445342 - s[2]) * sin(th);
    CHECK_NEAR(along, 0.5 * a, 1e-9, 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "box_tipping.yaml"))) {
    /* Tips when F h = m g a: both trailing vertices open at 3.27 s; then
     * turns about the leading edge (the pivot's equation, integrated on
     * its own: theta(3.6) = 0.108671737666 rad). */
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    CHECK(r.nev == 2 && count_kind(&r, NSED_EVENT_OPEN, NULL) == 2);
    for (int i = 0; i < r.nev; i++) CHECK_NEAR(r.ev[i].t, 9.81 * 0.1 / (0.15 * 2), 1e-9, 0);
    double s[13];
    nsed_data_body_state(d, 0, s);
    CHECK_NEAR(2 * atan2(s[5], s[3]), 0.108671737666, 1e-9, 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "rocking_block.yaml"))) {
    /* Its first landing as the pendulum about the edge gives it (RK4, in
     * engine_rocking_block), then rest on its face within the accumulation
     * of the landings: every bottom vertex sticking, no turn left. */
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    CHECK(count_kind(&r, NSED_EVENT_IMPACT, &t) > 0);
    CHECK_NEAR(t, 0.104948420, 1e-8, 0);
    CHECK_MSG(r.nev < 400, "%d events", r.nev);
    double s[13];
    nsed_data_body_state(d, 0, s);
    CHECK_NEAR(hypot(s[10], hypot(s[11], s[12])), 0, 1e-9, 0);
    CHECK_NEAR(s[2], 0.25, 1e-9, 0);
    for (int c = 0; c < 4; c++) {
      nsed_contact_info ci;
      nsed_data_contact(d, c, &ci);
      CHECK_MSG(ci.mode == NSED_MODE_STICK, "bottom vertex %d ends %s", c, nsed_mode_name(ci.mode));
    }
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "capsule_cross.yaml"))) {
    /* First impact after free fall, with a point's impulse l off the centre. */
    const double g = 9.81, h = 0.3, e = 0.5, l = 0.25, mass = 0.8, inertia = 0.05;
    const double v1 = sqrt(2 * g * h), P = (1 + e) * v1 / (1 / mass + l * l / inertia);
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    int first = -1;
    for (int i = 0; i < r.nev && first < 0; i++)
      if (r.ev[i].kind == NSED_EVENT_IMPACT) first = i;
    CHECK(first >= 0);
    if (first >= 0) {
      CHECK_NEAR(r.ev[first].t, sqrt(2 * h / g), 1e-9, 0);
      CHECK_NEAR(r.ev[first].impulse[0], P, 1e-9, 1e-9);
    }
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "superellipsoid_rocking.yaml"))) {
    /* It ends at 5 T/4 of the energy integral's period: level, moving at
     * its fastest (engine_superellipsoid derives T and checks the sweep). */
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    CHECK(r.nev == 0);
    double s[13];
    nsed_data_body_state(d, 0, s);
    double tilt = 2 * atan(s[4] / s[3]), rate = s[10];
    CHECK_MSG(fabs(tilt / rate) < 1e-8, "tilt %.3g rad at 5 T/4, %.3g s of its motion", tilt,
              tilt / rate);
    CHECK_NEAR(nsed_data_energy(m, d), nsed_data_stats(d)->energy_initial, 1e-8, 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  if ((m = load(root, "tippe_top.yaml"))) {
    /* It glides until it has turned over, then rolls: the header's facts
     * (engine_tippe_top builds the same top and checks it against an
     * independent model, Jellett's integral and the inversion criterion). */
    memset(&r, 0, sizeof r);
    CHECK(run_model(m, &d, &r) == NSED_OK);
    CHECK(r.nev == 1 && count_kind(&r, NSED_EVENT_STICK, &t) == 1);
    CHECK_MSG(t > 32.925 && t < 32.935, "rolls from t = %.6f, the header says 32.93", t);
    double s[13];
    nsed_data_body_state(d, 1, s);
    /* the ballast's z axis (the top's symmetry axis) points down */
    double e3z = 1 - 2 * (s[4] * s[4] + s[5] * s[5]);
    CHECK(e3z < cos(3.0));
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  return TEST_DONE();
}
