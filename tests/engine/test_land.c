/* Landing on events (event_land.c; docs/engine.md, "Landing on events"):
 * an event's root located again on the method's own steps.
 *  - Gerasimov and Zobova's coast, whose approaches to stops and roller
 *    tips are not smooth on the step's scale: the same events as at rtol
 *    1e-13, each within 3e-12 s of it, every root landed.
 *  - Kosenko's vehicle spinning in place from rest: its three wheels' slips
 *    slow within 2e-12 s of each other; landed, the roots split, and a slip
 *    the event's impulses took below the slow entry must be held at that
 *    event (event_classify.c, simultaneous_slowing), or it stops unseen and
 *    the step size collapses.
 *  - A roller handover inside a step: a closed roller is evaluated on its
 *    phase's side up to its region root (nsedi_contact_side), so the step
 *    that holds the handover is taken whole and the root located in it;
 *    evaluated on the side it moves to, its forces jumped 6e-11 s before
 *    the root and the steps shrank to 1e-12 s to cross the jump (54 steps
 *    for the first handover of Gerasimov and Zobova's coast, 12 now). */
#include "data.h"
#include "engine_util.h"
#include "nsed_test.h"

typedef struct {
  double t[400];
  int kind[400], contact[400];
  int n;
} evlog;

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m, (void)d;
  evlog *l = ctx;
  if (l->n < 400) {
    l->t[l->n] = e->t;
    l->kind[l->n] = e->kind;
    l->contact[l->n] = e->contact;
  }
  l->n++;
  return 0;
}

static nsed_stats run(const nsed_model *m, int land_off, evlog *l) {
  nsed_error err;
  nsed_data *d = NULL;
  must(nsed_data_create(m, &d, &err), &err);
  d->land.off = land_off;
  l->n = 0;
  nsed_observer obs = {.ctx = l, .event = on_event};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s", rc ? err.message : "");
  nsed_stats st = *nsed_data_stats(d);
  nsed_data_free(&d);
  return st;
}

/* The worst event time difference, or INFINITY if the sequences differ. */
static double worst_difference(const evlog *a, const evlog *b) {
  if (a->n != b->n || a->n > 400) return INFINITY;
  double w = 0;
  for (int i = 0; i < a->n; i++) {
    if (a->kind[i] != b->kind[i] || a->contact[i] != b->contact[i]) return INFINITY;
    w = fmax(w, fabs(a->t[i] - b->t[i]));
  }
  return w;
}

static void gz_coast(const char *root) {
  const char *file = "omni_vehicle_coast_gz.yaml";
  const char *sets[] = {"solver.t_end=0.3"};
  const char *ref_sets[] = {"solver.t_end=0.3", "solver.rtol=1e-13", "solver.atol=1e-15"};
  nsed_model *m = load_shipped(root, file, sets, 1), *mr = load_shipped(root, file, ref_sets, 3);
  static evlog ref, landed, interp;
  nsed_stats sr = run(mr, 0, &ref), sl = run(m, 0, &landed), si = run(m, 1, &interp);
  double el = worst_difference(&landed, &ref), ei = worst_difference(&interp, &ref);
  printf("%s to 0.3 s: %d events; against rtol 1e-13: landed %.2e s (%ld landings, %ld steps "
         "taken again, %ld interpolated, %ld evaluations), interpolated %.2e s (%ld evaluations)\n",
         file, landed.n, el, sl.landings, sl.landing_steps, sl.landings_interpolated, sl.rhs_evals, ei,
         si.rhs_evals);
  CHECK(landed.n >= 30);
  CHECK_MSG(el <= 3e-12, "landed events %.3e s from the reference", el);
  CHECK(sl.landings >= landed.n / 2 && sl.landings_interpolated == 0);
  CHECK(sl.landing_steps >= sl.landings && sl.landing_steps <= 4 * sl.landings);
  CHECK(si.landings == 0 && si.landing_steps == 0);
  CHECK(sr.landings > 0 && sr.landings_interpolated == 0);
  nsed_model_free(&m);
  nsed_model_free(&mr);
}

static void spin_from_rest(const char *root) {
  const char *sets[] = {"solver.t_end=0.81", "omni_vehicle.velocity=[0, 0]"};
  nsed_model *m = load_shipped(root, "omni_vehicle_coast.yaml", sets, 2);
  static evlog l;
  nsed_stats st = run(m, 0, &l);
  int stops = 0;
  for (int i = 0; i < l.n && i < 400; i++)
    if (l.kind[i] == NSED_EVENT_STICK && l.t[i] > 0.8034 && l.t[i] < 0.8035) stops++;
  printf("omni_vehicle_coast.yaml spinning from rest to 0.81: %d events, %d stops at t = 0.80349, "
         "%ld steps, %ld landings\n", l.n, stops, st.steps, st.landings);
  CHECK(stops == 3); /* the three wheels' rollers stick */
  CHECK(st.steps < 20000);
  nsed_model_free(&m);
}

static nsed_stats gz_to(const char *root, const char *t_end, evlog *l) {
  char set[64];
  snprintf(set, sizeof set, "solver.t_end=%s", t_end);
  const char *sets[] = {set};
  nsed_model *m = load_shipped(root, "omni_vehicle_coast_gz.yaml", sets, 1);
  nsed_stats st = run(m, 0, l);
  nsed_model_free(&m);
  return st;
}

static void handover_in_one_step(const char *root) {
  static evlog before, after;
  nsed_stats a = gz_to(root, "0.0307", &before), b = gz_to(root, "0.0308", &after);
  int handovers = 0;
  for (int i = before.n; i < after.n && i < 400; i++)
    handovers += i > 0 && after.kind[i] == NSED_EVENT_CLOSE && after.t[i] > 0.0307 &&
                  after.t[i - 1] == after.t[i];
  printf("first handover of omni_vehicle_coast_gz.yaml: %d events in (0.0307, 0.0308], %ld steps "
         "(%ld to 0.0307, %ld to 0.0308)\n", after.n - before.n, b.steps - a.steps, a.steps, b.steps);
  CHECK(handovers == 1);
  CHECK(b.steps - a.steps <= 20);
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  handover_in_one_step(root);
  gz_coast(root);
  spin_from_rest(root);
  return TEST_DONE();
}
