/* A slip onset started on the event problem's own force is the saturated
 * stick's force continued (docs/engine.md, "Onsets the circle does not
 * admit"). At mu0 = mu the friction force is continuous across a
 * saturation; the problem is posed with the stick's set shrunk by
 * NSEDI_SATURATION_SHRINK (1e-7), which moves its answer by a first-order
 * amount, so the answer is extrapolated to a vanishing shrink.
 *
 * Kosenko's coast with 32 rollers a wheel at the file's tolerances reaches
 * three such events by t = 2.94: at each, every contact that went from
 * stick to slip must keep its force's direction to 1e-9 rad, and its
 * ratio |lambda_t| / lambda_n to 1e-9 or take the circle's mu (measured:
 * 9.8e-12 rad and 7.5e-12 at t = 2.93251, where the shrunk answer's
 * direction was 1.6e-7 rad off, the onset decelerated at 16 times its
 * acceleration floor and the run stopped). */
#include <math.h>
#include <string.h>

#include "engine_util.h"
#include "nsed_test.h"

enum { NC_MAX = 128 };

typedef struct {
  nsed_contact_info before[NC_MAX];
  long off_circle_before;
  int onsets_checked, events_with_onsets;
  double worst_angle, worst_ratio;
} watch;

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  watch *w = ctx;
  int nc = nsed_model_ncontact(m); /* at most NC_MAX: checked before the run */
  const nsed_stats *st = nsed_data_stats(d);
  if (why == NSED_SAMPLE_PRE_EVENT) {
    for (int c = 0; c < nc; c++) nsed_data_contact(d, c, &w->before[c]);
    w->off_circle_before = st->onsets_off_circle;
    return 0;
  }
  if (why != NSED_SAMPLE_EVENT || st->onsets_off_circle == w->off_circle_before) return 0;
  w->off_circle_before = st->onsets_off_circle;
  w->events_with_onsets++;
  for (int c = 0; c < nc; c++) {
    nsed_contact_info after;
    nsed_data_contact(d, c, &after);
    const nsed_contact_info *b = &w->before[c];
    if (b->mode != NSED_MODE_STICK || after.mode != NSED_MODE_SLIP) continue;
    if (nsed_model_contact_def(m, c)->mu0 != nsed_model_contact_def(m, c)->mu) continue;
    double a0 = atan2(b->lambda[2], b->lambda[1]), a1 = atan2(after.lambda[2], after.lambda[1]);
    double r0 = hypot(b->lambda[1], b->lambda[2]) / b->lambda[0];
    double r1 = hypot(after.lambda[1], after.lambda[2]) / after.lambda[0];
    w->worst_angle = fmax(w->worst_angle, fabs(remainder(a1 - a0, 2 * M_PI)));
    /* Held on the stick's force, or slipping on the circle, whose kinetic
     * friction the face form's polygon exceeds. */
    double mu = nsed_model_contact_def(m, c)->mu;
    w->worst_ratio = fmax(w->worst_ratio, fmin(fabs(r1 / r0 - 1), fabs(r1 / mu - 1)));
    w->onsets_checked++;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    CHECK_MSG(0, "usage: %s SOURCE_ROOT", argv[0]);
    return TEST_DONE();
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/omni_vehicle_coast.yaml", argv[1]);
  /* The file's output grid: the samples move the root searches' brackets
   * by round-off, and this trajectory's order of events is decided there. */
  /* The rollers as rotors on axles, the trajectory where the three events
   * come (attached rollers, the default, take another at round-off). */
  const char *sets[] = {"omni_vehicle.rollers=32", "solver.t_end=2.94",
                        "omni_vehicle.roller_frame=rotor"};
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  must(nsed_problem_load(path, sets, 3, &m, &err), &err);
  must(nsed_data_create(m, &d, &err), &err);
  CHECK_MSG(nsed_model_ncontact(m) <= NC_MAX, "%d contacts, the watch holds %d",
            nsed_model_ncontact(m), NC_MAX);
  if (nsed_model_ncontact(m) > NC_MAX) return TEST_DONE();
  static watch w;
  memset(&w, 0, sizeof w);
  nsed_observer obs = {.ctx = &w, .sample = on_sample};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s", rc ? err.message : "");
  const nsed_stats *st = nsed_data_stats(d);
  printf("coast, 3 wheels x 32 rollers, to t = %.4f: %ld events, %ld onsets off the circle at %d "
         "events; %d saturated sticks' onsets keep their force's direction to %.2e rad and its ratio "
         "(or take mu) to %.2e\n",
         nsed_data_time(d), st->events, st->onsets_off_circle, w.events_with_onsets, w.onsets_checked,
         w.worst_angle, w.worst_ratio);
  CHECK(w.onsets_checked >= 3); /* the case this test is about occurs */
  CHECK(w.worst_angle < 1e-9);
  CHECK(w.worst_ratio < 1e-9);
  CHECK(monitor_clean(st));
  nsed_data_free(&d);
  nsed_model_free(&m);
  return TEST_DONE();
}
