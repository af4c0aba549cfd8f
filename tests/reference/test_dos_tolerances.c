/* nsed at loose tolerances against the independent reduced-coordinate model
 * (dos_reduced.c, at its own rtol 1e-12): the disk on a shaft, case 2, its
 * 24 stick-slip events over 25 s, at rtol 1e-6 .. 1e-9 (atol = rtol / 100).
 * Every run must end ok (its law monitor clean), with the reference's event
 * sequence, its event times within EVENT_ERR_PER_RTOL rtol (a stop that
 * hovers near zero speed and comes late breaks it), and its steps falling
 * with the tolerance (the hover took 40 times the steps of rtol 1e-10).
 * docs/engine.md, "Loose tolerances". argv[1] is the source root. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dos_reduced.h"
#include "nsed/nsed.h"
#include "nsed_test.h"

/* Worst event time error over rtol (s): measured 974, 1030, 725 and 390
 * at rtol 1e-6 .. 1e-9 (a 2D slip's stop as it turns while slowing is the
 * worst conditioned event); 1e4 keeps a factor of ten. The hovering stop
 * came 0.17 s late at rtol 1e-8: 1.7e7 rtol. */
#define EVENT_ERR_PER_RTOL 1e4
#define MAXEV 64

typedef struct {
  int nev;
  double t[MAXEV];
  int kind[MAXEV];
} events;

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m;
  (void)d;
  events *r = ctx;
  if (e->kind == NSED_EVENT_TIME) return 0;
  if (r->nev < MAXEV) {
    r->t[r->nev] = e->t;
    r->kind[r->nev] = e->kind;
  }
  r->nev++;
  return 0;
}

/* Runs case 2 at rtol; returns its steps (-1 on failure), fills ev. */
static long run_nsed(const char *root, double rtol, events *ev) {
  char path[4096], r[64], a[64];
  snprintf(path, sizeof path, "%s/problems/disk_on_shaft_case2.yaml", root);
  snprintf(r, sizeof r, "solver.rtol=%.17g", rtol);
  snprintf(a, sizeof a, "solver.atol=%.17g", rtol * 1e-2);
  const char *over[] = {r, a};
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  if (nsed_problem_load(path, over, 2, &m, &err) != NSED_OK || nsed_data_create(m, &d, &err) != NSED_OK) {
    CHECK_MSG(0, "rtol %g: %s", rtol, err.message);
    nsed_model_free(&m);
    return -1;
  }
  memset(ev, 0, sizeof *ev);
  nsed_observer obs = {.ctx = ev, .event = on_event};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "rtol %g: the run ends ok: %s", rtol, rc ? err.message : "");
  long steps = rc == NSED_OK ? nsed_data_stats(d)->steps : -1;
  nsed_data_free(&d);
  nsed_model_free(&m);
  return steps;
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  dos_params p;
  dos_params_case(&p, 2);
  dos_result ref;
  int rrc = dos_run(&p, &ref);
  CHECK_MSG(rrc == 0, "reduced model: %s", ref.error);
  if (rrc) return TEST_DONE();
  const double rtols[] = {1e-6, 1e-7, 1e-8, 1e-9};
  long last_steps = 0;
  for (int k = 0; k < 4; k++) {
    static events ev;
    long steps = run_nsed(root, rtols[k], &ev);
    if (steps < 0) continue;
    int same = ev.nev == ref.nev;
    double worst = 0;
    for (int i = 0; same && i < ev.nev; i++) {
      same = ev.kind[i] == ref.ev[i].kind;
      worst = fmax(worst, fabs(ev.t[i] - ref.ev[i].t));
    }
    printf("rtol %g: %d events (reduced model %d), %s sequence, worst event time error %.3g s (%.3g rtol), "
           "%ld steps\n",
           rtols[k], ev.nev, ref.nev, same ? "the same" : "another", worst, worst / rtols[k], steps);
    CHECK_MSG(same, "rtol %g: the reduced model's event sequence", rtols[k]);
    CHECK_MSG(worst <= EVENT_ERR_PER_RTOL * rtols[k], "rtol %g: event times within %g rtol (%.3g s)", rtols[k],
              EVENT_ERR_PER_RTOL, worst);
    CHECK_MSG(steps > last_steps, "rtol %g: %ld steps, more than the looser tolerance's %ld", rtols[k], steps,
              last_steps);
    last_steps = steps;
  }
  dos_result_free(&ref);
  return TEST_DONE();
}
