/* The omni-wheel testbench (problems/omni_wheel_testbench*.yaml, seed 000
 * §4-5): a vertical wheel on n spindle rollers rolling at v = 1, spin 1.
 * The rollers' envelope is the cylinder of radius R whatever psi, so the
 * wheel rolls like a disk: the hub keeps speed 1 and the contact passes
 * from roller to roller when the wheel has turned by alpha, 3 alpha, ...,
 * i.e. at t_k = (2k + 1) pi / n, with zero normal velocity (no impacts).
 * Checked for n = 4, 5 and psi = 0, 0.4, with each contact-tracking
 * algorithm (explicit, implicit, differential), which must agree on the
 * roller's motion far below the paper's 1e-6. With psi != 0 the contact
 * point jumps sideways by 2 R sin(alpha) tan(psi) at a handover.
 * Differential tracking against explicit over n = 3..8 and psi to 1.2.
 * Then exact Coulomb against Kosenko's regularised law on a pushed wheel
 * that first slides: the same motion while sliding, creep instead of
 * sticking afterwards. Bad input last. argv[1] is the source root. */
#include <math.h>

#include "engine_util.h"
#include "nsed_test.h"

#define MAXS 2048

typedef struct {
  int roller0, hub;
  int ns;
  double t[MAXS], pos[MAXS][3];
  int nev;
  nsed_event ev[256];
  double jump_max, jump_min; /* lateral distance between the two contact points at handovers */
  double t_last_open;
  double p_open[3];
} trace;

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m;
  trace *tr = ctx;
  if (why == NSED_SAMPLE_EVENT || why == NSED_SAMPLE_PRE_EVENT || tr->ns >= MAXS) return 0;
  double s[13];
  nsed_data_body_state(d, tr->roller0, s);
  tr->t[tr->ns] = nsed_data_time(d);
  for (int k = 0; k < 3; k++) tr->pos[tr->ns][k] = s[k];
  tr->ns++;
  return 0;
}

/* A handover is an open and a close at one instant; the contact points of
 * the two rollers then are their tips. */
static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m;
  trace *tr = ctx;
  if (tr->nev < 256) tr->ev[tr->nev++] = *e;
  if (e->kind != NSED_EVENT_OPEN && e->kind != NSED_EVENT_CLOSE) return 0;
  nsed_contact_info ci;
  nsed_data_contact(d, e->contact, &ci);
  if (e->kind == NSED_EVENT_OPEN) {
    tr->t_last_open = e->t;
    memcpy(tr->p_open, ci.point, sizeof tr->p_open);
  }
  /* The open and close of one handover are emitted in either order; pair
   * each close with the open of the same instant. */
  if (e->kind == NSED_EVENT_CLOSE || tr->t_last_open == e->t) {
    for (int i = tr->nev - 2; i >= 0 && tr->ev[i].t == e->t; i--) {
      const nsed_event *o = &tr->ev[i];
      if (o->kind != (e->kind == NSED_EVENT_CLOSE ? NSED_EVENT_OPEN : NSED_EVENT_CLOSE)) continue;
      nsed_contact_info co;
      nsed_data_contact(d, o->contact, &co);
      double dist = hypot(hypot(ci.point[0] - co.point[0], ci.point[1] - co.point[1]),
                          ci.point[2] - co.point[2]);
      tr->jump_max = fmax(tr->jump_max, dist);
      tr->jump_min = fmin(tr->jump_min, dist);
    }
  }
  return 0;
}

/* Runs model m (then frees it), tracing roller 0 and the events. */
static int run_wheel(nsed_model *m, const char *name, trace *tr, nsed_stats *st, double *hub_speed,
                     double *balance) {
  nsed_error err;
  memset(tr, 0, sizeof *tr);
  tr->jump_min = INFINITY;
  tr->t_last_open = -1;
  tr->roller0 = nsed_model_find_body(m, "roller0");
  tr->hub = nsed_model_find_body(m, "hub");
  nsed_data *d;
  int rc = nsed_data_create(m, &d, &err);
  if (rc == NSED_OK) {
    nsed_observer obs = {.ctx = tr, .sample = on_sample, .event = on_event};
    rc = nsed_simulate(m, d, &obs, &err);
    if (rc) fprintf(stderr, "%s: %s\n", name, err.message);
    *st = *nsed_data_stats(d);
    double s[13];
    nsed_data_body_state(d, tr->hub, s);
    *hub_speed = s[7];
    *balance = (nsed_data_energy(m, d) - st->energy_initial - st->work_external -
                st->work_contacts - st->work_joints) / st->energy_initial;
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
  return rc;
}

static int run_file(const char *path, const char *const *ov, int nov, trace *tr, nsed_stats *st,
                    double *hub_speed, double *balance) {
  nsed_model *m;
  nsed_error err;
  if (nsed_problem_load(path, ov, nov, &m, &err)) {
    CHECK_MSG(0, "%s", err.message);
    return -1;
  }
  return run_wheel(m, path, tr, st, hub_speed, balance);
}

/* Differential tracking against explicit over the testbench's range: n
 * rollers and inclinations psi up to 1.2 (the testbench block, default
 * tolerances). The two see the same geometry, so the handovers must agree
 * to the events' location (~1e-12 s measured) and the tracked coordinates
 * stay on the lowest point to the integration's error (~1e-13 measured; a
 * state frozen inside the region band left 1e-9 at psi = 0.4). */
static void tracking_sweep(void) {
  static const char text[] = "gravity: [0, 0, -1]\n"
                             "omni_wheel_testbench: {contact: {mu: 0.5}}\n"
                             "friction: {model: polygon, form: face, sides: 8}\n"
                             "solver: {t_end: 10, baumgarte: {eta: 25, xi: 50, gamma: 25}}\n";
  static trace tr[2];
  static const int ns[3] = {3, 6, 8};
  static const double psis[3] = {0.3, 0.9, 1.2};
  double worst_dt = 0, worst_res = 0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      char set[3][64];
      snprintf(set[0], sizeof set[0], "omni_wheel_testbench.rollers=%d", ns[a]);
      snprintf(set[1], sizeof set[1], "omni_wheel_testbench.psi=%g", psis[b]);
      nsed_stats st[2];
      for (int k = 0; k < 2; k++) {
        snprintf(set[2], sizeof set[2], "contact_tracking=%s", k ? "differential" : "explicit");
        const char *ov[3] = {set[0], set[1], set[2]};
        nsed_model *m;
        nsed_error err;
        double v, bal;
        memset(&st[k], 0, sizeof st[k]);
        if (nsed_problem_load_string(text, sizeof text - 1, "sweep.yaml", ov, 3, &m, &err)) {
          CHECK_MSG(0, "%s", err.message);
          return;
        }
        CHECK_MSG(run_wheel(m, "sweep.yaml", &tr[k], &st[k], &v, &bal) == NSED_OK, "n = %d psi = %g %s",
                  ns[a], psis[b], set[2]);
      }
      CHECK_MSG(tr[0].nev == tr[1].nev && tr[0].nev >= ns[a], "n = %d psi = %g: %d and %d events",
                ns[a], psis[b], tr[0].nev, tr[1].nev);
      for (int i = 0; i < tr[0].nev && i < tr[1].nev; i++)
        worst_dt = fmax(worst_dt, fabs(tr[0].ev[i].t - tr[1].ev[i].t));
      worst_res = fmax(worst_res, st[1].max_track_residual);
    }
  printf("tracking sweep (n 3, 6, 8 x psi 0.3, 0.9, 1.2): differential vs explicit events %.1e s, "
         "max tangency residual %.1e\n",
         worst_dt, worst_res);
  CHECK(worst_dt < 1e-10);
  CHECK(worst_res < 1e-12);
}

static void testbench(const char *root, const char *file, int n, double psi) {
  static const char *const names[3] = {"explicit", "implicit", "differential"};
  static trace tr[3];
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/%s", root, file);
  double alpha = M_PI / n;
  for (int k = 0; k < 3; k++) {
    char set[64];
    snprintf(set, sizeof set, "contact_tracking=%s", names[k]);
    const char *ov[1] = {set};
    nsed_stats st;
    memset(&st, 0, sizeof st);
    double v = 0, bal = 0;
    CHECK(run_file(path, ov, 1, &tr[k], &st, &v, &bal) == NSED_OK);
    int closes = 0, opens = 0, impacts = 0;
    double worst_dt = 0;
    for (int i = 0; i < tr[k].nev; i++) {
      const nsed_event *e = &tr[k].ev[i];
      impacts += e->kind == NSED_EVENT_IMPACT;
      opens += e->kind == NSED_EVENT_OPEN;
      if (e->kind == NSED_EVENT_CLOSE) {
        worst_dt = fmax(worst_dt, fabs(e->t - (2 * closes + 1) * alpha));
        closes++;
      }
    }
    /* Position of roller 0's centre against the explicit run, every sample. */
    double dpos = 0;
    for (int i = 0; k > 0 && i < tr[k].ns && i < tr[0].ns; i++)
      for (int q = 0; q < 3; q++) dpos = fmax(dpos, fabs(tr[k].pos[i][q] - tr[0].pos[i][q]));
    double jump = 2 * sin(alpha) * tan(psi); /* R = 1 */
    printf("%s %-12s: %d handovers (%d opens, %d impacts), max |t - (2k+1) pi/n| %.1e s, max "
           "gap/joint error %.1e, hub speed %.12f, energy balance %.1e, contact jump %.6f..%.6f "
           "(expect %.6f), roller0 vs explicit %.1e m, %ld rhs\n",
           file, names[k], closes, opens, impacts, worst_dt, st.max_constraint_violation, v, bal,
           tr[k].jump_min, tr[k].jump_max, jump, dpos, st.rhs_evals);
    CHECK(closes == (int)floor((10.0 * n / M_PI + 1) / 2));
    CHECK(opens == closes);
    CHECK(impacts == 0);
    /* The outgoing roller's tip reaches the floor as the next one's tip
     * does, a simple root of its region indicator: located to round-off. */
    CHECK(worst_dt < 1e-9);
    CHECK(st.max_constraint_violation < 1e-9);
    CHECK_NEAR(v, 1.0, 1e-8, 0);
    CHECK(fabs(bal) < 1e-8);
    CHECK_NEAR(tr[k].jump_max, jump, 1e-7, 0);
    CHECK_NEAR(tr[k].jump_min, jump, 1e-7, 0);
    CHECK(tr[k].ns == tr[0].ns);
    CHECK(dpos < 1e-9);
    /* The tracked coordinates' tangency residual: integration error only,
     * far below the region band, which frozen states crossing it showed. */
    if (k == 2) {
      printf("%s differential: max tangency residual %.1e\n", file, st.max_track_residual);
      CHECK(st.max_track_residual < 1e-12);
    }
  }
}

/* A wheel pushed forward (0.2 at the hub) that starts without spin: it
 * slides until its rolling speed catches up, then rolls. Exact Coulomb
 * sticks; the regularised law can only creep, at delta |F_t| / (mu N). */
#define PUSH_N 400
typedef struct {
  int hub, n;
  double vx[PUSH_N], slip[PUSH_N], lt[PUSH_N], ln[PUSH_N];
} push_rec;

/* The hub's speed and the load-carrying contact's slip and forces. */
static int push_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  push_rec *r = ctx;
  if (why == NSED_SAMPLE_EVENT || why == NSED_SAMPLE_PRE_EVENT || r->n >= PUSH_N) return 0;
  double s[13], best = 0, sl = 0, t1 = 0;
  nsed_data_body_state(d, r->hub, s);
  for (int c = 0; c < nsed_model_ncontact(m); c++) {
    nsed_contact_info ci;
    nsed_data_contact(d, c, &ci);
    if (ci.lambda[0] > best) {
      best = ci.lambda[0];
      sl = ci.mode == NSED_MODE_STICK ? 0.0 : ci.slip_speed;
      t1 = hypot(ci.lambda[1], ci.lambda[2]);
    }
  }
  r->vx[r->n] = s[7];
  r->slip[r->n] = sl;
  r->lt[r->n] = t1;
  r->ln[r->n] = best;
  r->n++;
  return 0;
}

/* The testbench file with a push force added to its forces. */
static char *pushed_problem(const char *root) {
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/omni_wheel_testbench.yaml", root);
  char *text = NULL;
  size_t len = 0;
  nsed_error err;
  if (nsed_problem_read_file(path, &text, &len, &err)) {
    CHECK_MSG(0, "%s", err.message);
    return NULL;
  }
  const char *key = "forces:\n",
             *push = "  - {name: push, type: force, body: hub, direction: [1, 0, 0], magnitude: 0.2}\n";
  char *at = strstr(text, key), *out = at ? malloc(len + strlen(push) + 1) : NULL;
  CHECK(out != NULL);
  if (out) {
    size_t head = (size_t)(at - text) + strlen(key);
    memcpy(out, text, head);
    strcpy(out + head, push);
    strcat(out, text + head);
  }
  free(text);
  return out;
}

static void exact_vs_regularised(const char *root) {
  char *text = pushed_problem(root);
  if (!text) return;
  static push_rec rec[2];
  for (int run = 0; run < 2; run++) {
    /* mu = 0.05 makes the slide last past a handover; the regularised law
     * is stiff (delta = 1e-6), hence BDF, for both runs alike. */
    const char *ov[16] = {"bodies.hub.angular_velocity=[0, 0, 0]", "solver.t_end=3",
                          "solver.integrator=cvode_bdf",
                          "contacts.roller0_floor.mu=0.05", "contacts.roller0_floor.mu0=0.05",
                          "contacts.roller1_floor.mu=0.05", "contacts.roller1_floor.mu0=0.05",
                          "contacts.roller2_floor.mu=0.05", "contacts.roller2_floor.mu0=0.05",
                          "contacts.roller3_floor.mu=0.05", "contacts.roller3_floor.mu0=0.05",
                          "contacts.roller0_floor.law=regularized",
                          "contacts.roller1_floor.law=regularized",
                          "contacts.roller2_floor.law=regularized",
                          "contacts.roller3_floor.law=regularized"};
    nsed_model *m;
    nsed_data *d = NULL;
    nsed_error err;
    if (nsed_problem_load_string(text, strlen(text), "pushed wheel", ov, run ? 15 : 11, &m, &err)) {
      CHECK_MSG(0, "%s", err.message);
      break;
    }
    memset(&rec[run], 0, sizeof rec[run]);
    rec[run].hub = nsed_model_find_body(m, "hub");
    nsed_observer obs = {.ctx = &rec[run], .sample = push_sample};
    int rc = nsed_data_create(m, &d, &err);
    if (!rc) rc = nsed_simulate(m, d, &obs, &err);
    CHECK_MSG(rc == NSED_OK, "pushed wheel: %s", err.message);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  free(text);
  /* Sliding until the exact run's contact sticks. */
  int n = rec[0].n < rec[1].n ? rec[0].n : rec[1].n, i_stick = -1;
  for (int i = 0; i < n && i_stick < 0; i++)
    if (rec[0].slip[i] == 0 && rec[0].ln[i] > 0) i_stick = i;
  CHECK(i_stick > 10);
  if (i_stick <= 10) return;
  double dslide = 0;
  for (int i = 0; i < i_stick - 1; i++) dslide = fmax(dslide, fabs(rec[0].vx[i] - rec[1].vx[i]));
  double creep_err = 0, creep = 0;
  int nroll = 0;
  for (int i = i_stick + 5; i < n; i++) {
    if (!(rec[1].ln[i] > 0)) continue;
    double expect = 1e-6 * rec[1].lt[i] / (0.05 * rec[1].ln[i]); /* delta = 1e-6, mu = 0.05 */
    creep = fmax(creep, rec[1].slip[i]);
    creep_err = fmax(creep_err, fabs(rec[1].slip[i] - expect) / expect);
    CHECK(rec[0].slip[i] == 0);
    nroll++;
  }
  double dv_roll = fabs(rec[0].vx[n - 1] - rec[1].vx[n - 1]);
  printf("pushed wheel: slides until t = %.2f; exact vs regularised hub speed while sliding %.1e "
         "m/s; rolling: exact slip 0, regularised creep up to %.3e m/s (= delta |F_t| / (mu N) "
         "to %.1e relative, %d samples), hub speeds differ by %.1e m/s at t = 3\n",
         i_stick * 0.01, dslide, creep, creep_err, nroll, dv_roll);
  CHECK(dslide < 1e-6);
  CHECK(nroll > 100);
  CHECK(creep > 1e-8 && creep < 1e-6);
  CHECK(creep_err < 1e-3);
  CHECK(dv_roll < 1e-4);
}

/* Bad input: each names the key at fault. */
static void bad_input(void) {
  static const char *const base =
      "gravity: [0, 0, -1]\n"
      "bodies:\n"
      "  - {name: hub, mass: 1, shape: {type: disk, radius: 0.5}, position: [0, 0, 1],\n"
      "     orientation: [0.7071067811865476, -0.7071067811865476, 0, 0]}\n"
      "  - {name: r0, mass: 0.1, shape: {type: roller, radius: 1, %s}, position: [0, 0, %s]}\n"
      "joints:\n"
      "  - {name: axle, type: revolute, body_a: hub, anchor_a: [0, %s, 0], axis_a: [1, 0, 0], body_b: r0, axis_b: [1, 0, 0]}\n"
      "contacts:\n"
      "  - {name: c0, body: r0%s}\n"
      "%s";
  struct {
    const char *psi, *z, *ay, *contact, *tail, *expect;
  } cases[] = {
      {"rollers: 4, psi: 1.6", "0.2928932188134524", "0.7071067811865476", "", "", "psi"},
      {"rollers: 4, psi: nan", "0.2928932188134524", "0.7071067811865476", "", "", "psi"},
      {"rollers: 2", "0.2928932188134524", "0.7071067811865476", "", "", "rollers"},
      {"rollers: 4", "0.2", "0.8", ", tracking: implicit", "", "cannot reach the floor"},
      {"rollers: 4", "0.2928932188134524", "0.7071067811865476", ", tracking: sideways", "", "tracking"},
      {"rollers: 4", "0.2928932188134524", "0.7071067811865476", "", "contact_tracking: implicit\n", ""},
      {"rollers: 4", "0.2928932188134524", "0.7071067811865476", ", wheel: nobody", "", "wheel"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char text[2048];
    snprintf(text, sizeof text, base, cases[i].psi, cases[i].z, cases[i].ay, cases[i].contact,
             cases[i].tail);
    nsed_model *m = NULL;
    nsed_error err;
    int rc = nsed_problem_load_string(text, strlen(text), "bad.yaml", NULL, 0, &m, &err);
    if (!cases[i].expect[0]) {
      CHECK_MSG(rc == NSED_OK, "case %zu: %s", i, err.message);
      nsed_model_free(&m);
      continue;
    }
    CHECK(rc == NSED_ERR_INPUT);
    CHECK_MSG(strstr(err.message, cases[i].expect) != NULL, "case %zu: '%s' lacks '%s'", i,
              err.message, cases[i].expect);
    CHECK_MSG(strstr(err.message, "bad.yaml") != NULL, "case %zu: no file in '%s'", i, err.message);
    printf("bad input %zu: %s\n", i, err.message);
    nsed_model_free(&m);
  }
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  testbench(root, "omni_wheel_testbench.yaml", 4, 0.0);
  testbench(root, "omni_wheel_testbench_n5.yaml", 5, 0.0);
  testbench(root, "omni_wheel_testbench_psi04.yaml", 4, 0.4);
  testbench(root, "omni_wheel_testbench_n5_psi04.yaml", 5, 0.4);
  tracking_sweep();
  exact_vs_regularised(root);
  bad_input();
  return TEST_DONE();
}
