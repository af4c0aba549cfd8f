/* The right-hand side's memo (data.h, nsedi_rhs_memo) answers the
 * integrator's repeated calls from the last evaluation: every problem here
 * must give bit for bit the same samples and events with it and without it,
 * through the same steps, with fewer evaluations. The same for the
 * right-hand side's partial geometry (nsedi_eval_rhs leaves the open
 * contacts' out, and the indicators complete it, those far above their
 * plane with a lower bound of their gap: docs/engine.md, "Open contacts
 * far from their plane"): bit for bit what evaluating every contact's
 * geometry in every right-hand side gives.
 * Problems with events of every kind: stick-slip (disk on a shaft), impacts
 * (bouncing ball), roller handovers and error-test retries (Gerasimov and
 * Zobova's vehicle), landings found by open contacts' gaps (the ball, a
 * roller dropped on the floor; indicators that read no completed geometry
 * miss them: the ball's 2.87 s and the roller's 0.65 s end penetrating), a
 * piecewise drive's breakpoints (turntable). */
#include "data.h"
#include "engine_util.h"
#include "nsed_test.h"

#define MAX_WORDS 4000000

typedef struct {
  double *s; /* every sample's body states, then every event's time and kind */
  long n;
} trace;

static void put(trace *tr, double v) {
  if (tr->n < MAX_WORDS) tr->s[tr->n] = v;
  tr->n++;
}

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  trace *tr = ctx;
  put(tr, nsed_data_time(d));
  put(tr, (double)why);
  for (int b = 0; b < nsed_model_nbody(m); b++) {
    double st[13];
    nsed_data_body_state(d, b, st);
    for (int k = 0; k < 13; k++) put(tr, st[k]);
  }
  return 0;
}

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m, (void)d;
  trace *tr = ctx;
  put(tr, e->t);
  put(tr, (double)e->kind);
  put(tr, (double)e->contact);
  return 0;
}

static nsed_stats run(const nsed_model *m, int memo_off, int all_geometry, trace *tr) {
  nsed_error err;
  nsed_data *d = NULL;
  must(nsed_data_create(m, &d, &err), &err);
  d->memo.off = memo_off;
  d->memo.all_geometry = all_geometry;
  tr->n = 0;
  nsed_observer obs = {.ctx = tr, .sample = on_sample, .event = on_event};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s", rc ? err.message : "");
  nsed_stats st = *nsed_data_stats(d);
  nsed_data_free(&d);
  return st;
}

/* bounded: some open contact is far above the floor at some step's end,
 * where the indicators take a bound of its gap, which the law monitor then
 * does not judge: fewer open-gap checks than with every contact evaluated. */
static void same_run(const char *root, const char *file, const char *t_end, int bounded) {
  char path[4096], set[64];
  snprintf(path, sizeof path, "%s/problems/%s", root, file);
  snprintf(set, sizeof set, "solver.t_end=%s", t_end);
  const char *sets[] = {set};
  nsed_model *m = NULL;
  nsed_error err;
  must(nsed_problem_load(path, sets, 1, &m, &err), &err);
  static trace a, b, c;
  if (!a.s)
    a.s = malloc(sizeof(double) * MAX_WORDS), b.s = malloc(sizeof(double) * MAX_WORDS),
    c.s = malloc(sizeof(double) * MAX_WORDS);
  CHECK(a.s && b.s && c.s);
  nsed_stats with = run(m, 0, 0, &a), without = run(m, 1, 0, &b), all = run(m, 0, 1, &c);
  CHECK_MSG(c.n == a.n && (a.n > MAX_WORDS || memcmp(a.s, c.s, sizeof(double) * (size_t)a.n) == 0),
            "%s: partial and complete geometry in the right-hand sides differ", file);
  CHECK(all.steps == with.steps && all.rhs_evals == with.rhs_evals);
  long open_checks = with.law[NSED_LAW_OPEN_GAP].count, open_all = all.law[NSED_LAW_OPEN_GAP].count;
  printf("%-32s open-gap checks %ld (every contact evaluated: %ld)\n", file, open_checks, open_all);
  CHECK(bounded ? open_checks < open_all : open_checks == open_all);
  CHECK_MSG(a.n <= MAX_WORDS && a.n == b.n, "%s: %ld and %ld values recorded", file, a.n, b.n);
  long first = -1;
  for (long i = 0; i < a.n && i < MAX_WORDS && first < 0; i++)
    if (memcmp(&a.s[i], &b.s[i], sizeof(double))) first = i;
  printf("%-32s t_end %-4s %6ld steps, %8ld evaluations with the memo (%ld reused), %8ld without; "
         "%ld values, first difference %ld\n",
         file, t_end, with.steps, with.rhs_evals, with.rhs_reused, without.rhs_evals, a.n, first);
  CHECK_MSG(first < 0, "%s: samples or events differ at value %ld", file, first);
  CHECK(with.events == without.events && with.events > 0);
  CHECK(with.steps == without.steps);
  CHECK(without.rhs_reused == 0);
  /* the integrator asked for the same right-hand sides */
  CHECK(with.rhs_evals + with.rhs_reused == without.rhs_evals);
  /* nearly every accepted step's start was the previous step's last stage */
  CHECK_MSG(with.rhs_reused > 0.8 * with.steps, "%s: %ld reused over %ld steps", file,
            with.rhs_reused, with.steps);
  nsed_model_free(&m);
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  same_run(root, "disk_on_shaft_case2.yaml", "3", 0);
  same_run(root, "bouncing_ball.yaml", "4", 1);
  same_run(root, "roller_drop.yaml", "1", 1);
  same_run(root, "omni_vehicle_coast_gz.yaml", "0.3", 1);
  same_run(root, "turntable_drives.yaml", "2", 0);
  return TEST_DONE();
}
