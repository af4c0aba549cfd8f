/* The law monitor at the integrator's step ends (docs/engine.md, "The law
 * monitor"), below and beside whole simulations:
 *   a drift between two output samples is caught at the first step end
 *   past it, not at the next sample: the disk on a shaft, case 3 without
 *   stabilisation (its joints drift by design), drift_tol 1e-10 and one
 *   sample a second. The crossing comes from an independent run of the
 *   same problem that does not stop (drift_tol 1), sampled every 1e-3 s:
 *   the stop lies within one step after it and is no sample; the same
 *   under CVODE;
 *   a step that holds a root ends past an event, where the old modes' law
 *   need not hold: the block on a belt (its sticks saturating into slips,
 *   its slips stopping), the disk on a shaft case 2 and 2 s of Gerasimov
 *   and Zobova's coast run clean with every step end between their events
 *   checked (without the rule each stops at its first such step).
 * argv[1] is the source root. */
#include <math.h>
#include <string.h>

#include "engine_util.h"
#include "nsed_test.h"
#include "sim_impl.h"

enum { STEPS_MAX = 1 << 16 };

typedef struct {
  double t[STEPS_MAX], h[STEPS_MAX];
  int n;
} step_list;

static int on_step(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_step_info *s) {
  (void)m, (void)d;
  step_list *l = ctx;
  if (l->n < STEPS_MAX) {
    l->t[l->n] = s->t;
    l->h[l->n++] = s->h;
  }
  return 0;
}

typedef struct {
  double limit, t_prev, t_cross;
} crossing;

/* The largest joint row error of the sample just evaluated (the caches are
 * the sample's: nsedi_eval at d->t before the observer is called). */
static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)why;
  crossing *c = ctx;
  double worst = 0;
  for (int i = 0; i < m->nrow; i++)
    if (!d->sw.rows[i].own_feedback) worst = fmax(worst, fabs(d->sw.rows[i].pos));
  if (c->t_cross < 0 && worst > c->limit) c->t_cross = d->t;
  if (c->t_cross < 0) c->t_prev = d->t;
  return 0;
}

static void drift_between_samples(const char *root) {
  const char *const stop_sets[] = {"solver.drift_tol=1e-10", "output.dt=1"};
  nsed_model *m = load_shipped(root, "disk_on_shaft_case3_nostab.yaml", stop_sets, 2);
  nsed_data *d = NULL;
  nsed_error err;
  must(nsed_data_create(m, &d, &err), &err);
  static step_list steps;
  memset(&steps, 0, sizeof steps);
  nsed_observer obs = {.ctx = &steps, .step = on_step};
  int rc = nsed_simulate(m, d, &obs, &err);
  double t_stop = nsed_data_time(d);
  CHECK_MSG(rc == NSED_ERR_LAW, "expected the law monitor's stop, got %d: %s", rc, err.message);
  CHECK_MSG(strstr(err.message, "joint 'tube' drifted") != NULL, "message: %s", err.message);
  CHECK_MSG(fabs(t_stop - nearbyint(t_stop)) > 1e-6, "stopped at a sample, t = %.17g", t_stop);
  /* The step that ended at t_stop is the last the log holds (a step is
   * recorded before its end's indicators are evaluated). */
  CHECK(steps.n > 0);
  double h = steps.n > 0 ? steps.h[steps.n - 1] : 0;
  CHECK_MSG(steps.n > 0 && steps.t[steps.n - 1] == t_stop, "the stop %.17g is not the last step's end %.17g",
            t_stop, steps.n > 0 ? steps.t[steps.n - 1] : NAN);
  const nsed_stats *st = nsed_data_stats(d);
  const nsed_law_margin *drift = &st->law[NSED_LAW_JOINT_DRIFT];
  CHECK_MSG(-drift->worst > 1e-10 && -drift->worst < 1.01e-10, "the stop's drift %.6g", -drift->worst);
  nsed_data_free(&d);
  nsed_model_free(&m);

  const char *const ref_sets[] = {"solver.drift_tol=1", "output.dt=0.001", "solver.t_end=23"};
  m = load_shipped(root, "disk_on_shaft_case3_nostab.yaml", ref_sets, 3);
  must(nsed_data_create(m, &d, &err), &err);
  crossing c = {.limit = 1e-10, .t_prev = 0, .t_cross = -1};
  nsed_observer ref_obs = {.ctx = &c, .sample = on_sample};
  rc = nsed_simulate(m, d, &ref_obs, &err);
  CHECK_MSG(rc == NSED_OK, "the reference run: %s", err.message);
  printf("drift 1e-10 crossed between samples %.3f and %.3f; stopped at the step end %.9f (step %.4f s); "
         "the sample grid of 1 s stopped at 23\n",
         c.t_prev, c.t_cross, t_stop, h);
  CHECK_MSG(c.t_cross > 0, "the reference run's drift never crossed 1e-10");
  CHECK_MSG(t_stop >= c.t_prev && t_stop <= c.t_cross + h, "stop %.9f outside [%.9f, %.9f + %.4f]", t_stop,
            c.t_prev, c.t_cross, h);
  CHECK(t_stop < 22.5);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* The same under CVODE (Adams), whose root search evaluates the
 * indicators at its steps' ends too: it stopped at the sample t = 6 with
 * |phi| = 1.01e-10; now at a step end before it, just past the bound. */
static void drift_under_cvode(const char *root) {
  const char *const sets[] = {"solver.drift_tol=1e-10", "output.dt=1", "solver.integrator=cvode_adams"};
  nsed_model *m = load_shipped(root, "disk_on_shaft_case3_nostab.yaml", sets, 3);
  nsed_data *d = NULL;
  nsed_error err;
  must(nsed_data_create(m, &d, &err), &err);
  int rc = nsed_simulate(m, d, NULL, &err);
  double t_stop = nsed_data_time(d), drift = -nsed_data_stats(d)->law[NSED_LAW_JOINT_DRIFT].worst;
  printf("cvode_adams: stopped at t = %.9f with |phi| = %.6g\n", t_stop, drift);
  CHECK_MSG(rc == NSED_ERR_LAW, "expected the law monitor's stop, got %d: %s", rc, err.message);
  CHECK_MSG(t_stop > 5 && t_stop < 6 && fabs(t_stop - nearbyint(t_stop)) > 1e-6, "t_stop = %.17g", t_stop);
  CHECK_MSG(drift > 1e-10 && drift < 1.005e-10, "the stop's drift %.6g", drift);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* A run to its end with every step end between events checked: status ok,
 * and the monitor's evaluations at least one per step. */
static void clean_with_roots(const char *root, const char *file, const char *const *sets, int nset) {
  nsed_model *m = load_shipped(root, file, sets, nset);
  nsed_data *d = NULL;
  nsed_error err;
  must(nsed_data_create(m, &d, &err), &err);
  int rc = nsed_simulate(m, d, NULL, &err);
  CHECK_MSG(rc == NSED_OK, "%s: %s", file, err.message);
  const nsed_stats *st = nsed_data_stats(d);
  long checks = st->law[NSED_LAW_NORMAL_FORCE].count;
  printf("%s: %ld steps, %ld events, %ld normal-force checks, monitor %.3g s of %.3g s\n", file, st->steps,
         st->events, checks, st->wall_monitor, st->wall_seconds);
  CHECK_MSG(checks > st->steps, "%ld checks for %ld steps", checks, st->steps);
  CHECK(monitor_clean(st));
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    CHECK_MSG(0, "usage: %s SOURCE_ROOT", argv[0]);
    return TEST_DONE();
  }
  drift_between_samples(argv[1]);
  drift_under_cvode(argv[1]);
  clean_with_roots(argv[1], "block_on_belt.yaml", NULL, 0);
  const char *const vehicle_sets[] = {"solver.t_end=2"};
  clean_with_roots(argv[1], "omni_vehicle_coast_gz.yaml", vehicle_sets, 1);
  clean_with_roots(argv[1], "disk_on_shaft_case2.yaml", NULL, 0);
  return TEST_DONE();
}
