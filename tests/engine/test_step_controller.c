/* The step-size controller (src/integrate/step_controller.c; docs/engine.md,
 * "Step-size controller"):
 *  - its PI part is ARKODE's PI: the replica through the same adapter
 *    takes ARKODE's own steps bit for bit, across a reinitialisation;
 *  - the estimates against their formulas written out here, and the
 *    phase's first step;
 *  - a singular approach, y = (1 - t)^(3/2) stopping where y = 1e-12 (the
 *    steps must shrink with the time left, as before a slip's stop): the
 *    minimum of PI and Gustafsson rejects fewer steps and spends fewer
 *    right-hand sides than PI, and both find the stop within 1e-9;
 *  - Kosenko's vehicle coast: the same events under both controllers within
 *    1e-9 s, fewer rejected steps with the default, and the option reaches
 *    the run (summary counters differ). */
#include <math.h>

#include "engine_util.h"
#include "integrator.h"
#include "nsed_test.h"
#include "step_controller.h"

typedef struct {
  double y[2], t;
  long counts[NSEDI_NCOUNT];
} vdp_run;

/* To t = 30, reinitialised at the first root (as after an event). */
static vdp_run vdp(nsedi_step_rule rule) {
  nsedi_integrator_settings s = {.method = NSEDI_ODE_DP5, .step_rule = rule, .rtol = 1e-9, .atol = 1e-12};
  nsedi_integrator *it = NULL;
  nsed_error err;
  vdp_run r = {.y = {2, 0}, .t = 0};
  CHECK(nsedi_integrator_create(&s, 2, 0, 1, vdp5_rhs, vdp5_root, NULL, 0.0, r.y, &it, &err) == NSED_OK);
  nsedi_step_result res = NSEDI_STEP_TOUT;
  CHECK(nsedi_integrator_advance(it, 30.0, 30.0, r.y, &r.t, &res, &err) == NSED_OK && res == NSEDI_STEP_ROOT);
  CHECK(nsedi_integrator_reinit(it, r.t, r.y, &err) == NSED_OK);
  do {
    CHECK(nsedi_integrator_advance(it, 30.0, 30.0, r.y, &r.t, &res, &err) == NSED_OK);
  } while (res == NSEDI_STEP_ROOT);
  nsedi_integrator_counts(it, r.counts);
  nsedi_integrator_free(&it);
  return r;
}

static void replica_is_arkodes_pi(void) {
  vdp_run a = vdp(NSEDI_STEP_PI), b = vdp(NSEDI_STEP_PI_REPLICA), c = vdp(NSEDI_STEP_PI_GUSTAFSSON);
  printf("Van der Pol to t = 30: ARKODE's PI %ld steps (%ld rejected), replica %ld (%ld), "
         "min(PI, Gustafsson) %ld (%ld)\n",
         a.counts[NSEDI_COUNT_STEPS], a.counts[NSEDI_COUNT_ERR_FAILS], b.counts[NSEDI_COUNT_STEPS],
         b.counts[NSEDI_COUNT_ERR_FAILS], c.counts[NSEDI_COUNT_STEPS], c.counts[NSEDI_COUNT_ERR_FAILS]);
  CHECK(a.t == 30.0 && b.t == 30.0);
  for (int i = 0; i < NSEDI_NCOUNT; i++) CHECK(a.counts[i] == b.counts[i]);
  CHECK(a.y[0] == b.y[0] && a.y[1] == b.y[1]); /* bit for bit */
  CHECK(a.counts[NSEDI_COUNT_STEPS] > 200);      /* the steps did vary */
  CHECK_NEAR(c.y[0], a.y[0], 0, 1e-5);           /* the same solution to the tolerance's scale */
}

static void formulas(void) {
  const double h1 = 0.02, h2 = 0.025, e1 = 0.6, e2 = 0.3;
  const int p = 4;
  double pi = h1 * pow(e1, -0.8 / 4) * pow(e2, 0.31 / 4);
  double gus = h1 * (h1 / h2) * pow(e1, -0.98 / 4) * pow(e1 / e2, -0.95 / 4);
  CHECK_NEAR(nsedi_step_pi(h1, e1, e2, p), pi, 0, 1e-15);
  CHECK_NEAR(nsedi_step_gustafsson(h1, h2, e1, e2, p), gus, 0, 1e-15);
  CHECK_NEAR(nsedi_step_gustafsson(h1, 0.0, e1, e2, p), h1 * pow(e1, -0.25), 0, 1e-15);
  CHECK_NEAR(nsedi_step_pi(h1, 0.0, e2, p), h1 * pow(1e-10, -0.2) * pow(e2, 0.31 / 4), 0, 1e-15);
  nsedi_step_control c = {.phase_steps = 3};
  double h = 0;
  CHECK(nsedi_step_controller(NULL, 0, h1, h2, 0, e1, e2, 0, 5, p, &h, &c) == 0);
  CHECK(h == fmin(pi, gus) && gus < pi); /* shrinking steps and growing errors: Gustafsson's */
  c.phase_steps = 0;                     /* h2 is the last phase's: not used */
  CHECK(nsedi_step_controller(NULL, 0, h1, h2, 0, e1, e2, 0, 5, p, &h, &c) == 0);
  CHECK(h == fmin(pi, h1 * pow(e1, -0.25)));
  c.pi_only = 1;
  CHECK(nsedi_step_controller(NULL, 0, h1, h2, 0, e1, e2, 0, 5, p, &h, &c) == 0 && h == pi);
}

/* y = (1 - t)^(3/2): y' = -3/2 y^(1/3), its higher derivatives unbounded at t = 1. */
static int stop_rhs(double t, const double *y, double *yd, void *ud) {
  (void)t, (void)ud;
  yd[0] = -1.5 * cbrt(fmax(y[0], 0.0));
  return 0;
}

static int stop_root(double t, const double *y, double *g, void *ud) {
  (void)t, (void)ud;
  g[0] = y[0] - 1e-12;
  return 0;
}

static void singular_stop(void) {
  const double t_stop = 1.0 - pow(1e-12, 2.0 / 3.0);
  long c[2][NSEDI_NCOUNT];
  for (int k = 0; k < 2; k++) {
    nsedi_integrator_settings s = {.method = NSEDI_ODE_DP5,
                                   .step_rule = k ? NSEDI_STEP_PI_GUSTAFSSON : NSEDI_STEP_PI,
                                   .rtol = 1e-10, .atol = 1e-14};
    nsedi_integrator *it = NULL;
    nsed_error err;
    double y = 1, t = 0;
    nsedi_step_result res = NSEDI_STEP_TOUT;
    CHECK(nsedi_integrator_create(&s, 1, 0, 1, stop_rhs, stop_root, NULL, 0.0, &y, &it, &err) == NSED_OK);
    CHECK(nsedi_integrator_advance(it, 2.0, 2.0, &y, &t, &res, &err) == NSED_OK && res == NSEDI_STEP_ROOT);
    nsedi_integrator_counts(it, c[k]);
    printf("singular stop, %-15s: %5ld steps, %4ld rejected, %6ld right-hand sides, stop at %.12f "
           "(error %.1e)\n", k ? "min(PI, Gus.)" : "ARKODE's PI", c[k][NSEDI_COUNT_STEPS],
           c[k][NSEDI_COUNT_ERR_FAILS], c[k][NSEDI_COUNT_RHS], t, t - t_stop);
    CHECK_NEAR(t, t_stop, 1e-9, 0);
    nsedi_integrator_free(&it);
  }
  /* Measured: PI rejects about one step in four there, the minimum almost none. */
  CHECK(c[1][NSEDI_COUNT_ERR_FAILS] * 4 < c[0][NSEDI_COUNT_ERR_FAILS]);
  CHECK(c[1][NSEDI_COUNT_RHS] < c[0][NSEDI_COUNT_RHS]);
}

static nsed_stats coast(const char *root, const char *controller, recorder *rec) {
  char path[4096], set[64];
  snprintf(path, sizeof path, "%s/problems/omni_vehicle_coast.yaml", root);
  snprintf(set, sizeof set, "solver.step_controller=%s", controller);
  const char *sets[] = {"solver.t_end=3", set};
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  must(nsed_problem_load(path, sets, 2, &m, &err), &err);
  must(nsed_data_create(m, &d, &err), &err);
  memset(rec, 0, sizeof *rec);
  nsed_observer obs = {.ctx = rec, .event = rec_event};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s", rc ? err.message : "");
  nsed_stats st = *nsed_data_stats(d);
  nsed_data_free(&d);
  nsed_model_free(&m);
  return st;
}

static void vehicle(const char *root) {
  static recorder a, b;
  nsed_stats sa = coast(root, "pi", &a), sb = coast(root, "pi_gustafsson", &b);
  double worst = events_worst_difference(&a, &b);
  CHECK(a.nev > 10);
  printf("Kosenko's coast to t = 3: %d events; PI %ld steps, %ld rejected, %ld right-hand sides; "
         "min(PI, Gustafsson) %ld, %ld, %ld; events within %.1e s\n",
         a.nev, sa.steps, sa.error_test_failures, sa.rhs_evals, sb.steps, sb.error_test_failures,
         sb.rhs_evals, worst);
  CHECK(worst < 1e-9);
  CHECK(sb.error_test_failures * 2 < sa.error_test_failures);
}

int main(int argc, char **argv) {
  replica_is_arkodes_pi();
  formulas();
  singular_stop();
  if (argc > 1) vehicle(argv[1]);
  else CHECK_MSG(0, "usage: %s SOURCE_ROOT", argv[0]);
  return TEST_DONE();
}
