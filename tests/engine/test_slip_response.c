/* A slip's response to its direction (src/simulate/slip_response.c;
 * docs/engine.md, "Slip direction"):
 *  - the fit from three angles reproduces a response of the model's form at
 *    every angle (random models, lambda_n within a factor 20 of its mean),
 *    and refuses three samples that do not determine it;
 *  - on the vehicles the directions searched on the fitted response are
 *    those searched on evaluations: Gerasimov and Zobova's and Kosenko's
 *    coasts give the same events to 1e-10 s either way, and the search
 *    makes at least five times fewer evaluations. */
#include <math.h>

#include "data.h"
#include "engine_util.h"
#include "nsed_test.h"
#include "slip_response.h"

static unsigned long long rng_state = 88172645463325252ULL;

static double uniform(double lo, double hi) { return lo + (hi - lo) * nsed_test_urand(&rng_state); }

static void true_response(const nsedi_slip_response *r, double th, double *lam, double *a) {
  double s1 = cos(th), s2 = sin(th);
  *lam = r->n / (1 - r->q[0] * s1 - r->q[1] * s2);
  a[0] = r->a_r[0] + *lam * (r->P[0] * s1 + r->P[1] * s2);
  a[1] = r->a_r[1] + *lam * (r->P[2] * s1 + r->P[3] * s2);
}

static void fits(void) {
  double worst = 0;
  for (int trial = 0; trial < 500; trial++) {
    nsedi_slip_response t = {.n = uniform(0.1, 100)};
    double qn = uniform(0, 0.9), qa = uniform(0, 2 * M_PI), scale = uniform(0.01, 100);
    t.q[0] = qn * cos(qa);
    t.q[1] = qn * sin(qa);
    for (int i = 0; i < 2; i++) t.a_r[i] = scale * uniform(-1, 1);
    for (int i = 0; i < 4; i++) t.P[i] = scale / t.n * uniform(-3, 3);
    double th0 = uniform(-M_PI, M_PI), th[3] = {th0, th0 + 2 * M_PI / 3, th0 - 2 * M_PI / 3};
    double lam[3], a[6];
    for (int k = 0; k < 3; k++) true_response(&t, th[k], &lam[k], &a[2 * k]);
    nsedi_slip_response r;
    CHECK(nsedi_slip_response_fit(th, lam, a, &r) == 0);
    for (int k = 0; k < 90; k++) {
      double ang = 2 * M_PI * k / 90, l, at[2], cross, dot, mag;
      true_response(&t, ang, &l, at);
      CHECK(nsedi_slip_response_at(&r, ang, &cross, &dot, &mag) == 0);
      double s1 = cos(ang), s2 = sin(ang), size = hypot(at[0], at[1]) + scale;
      worst = fmax(worst, fabs(cross - (s1 * at[1] - s2 * at[0])) / size);
      worst = fmax(worst, fabs(dot - (s1 * at[0] + s2 * at[1])) / size);
      worst = fmax(worst, fabs(mag - hypot(at[0], at[1])) / size);
    }
  }
  printf("fit from three angles: worst relative error over 500 models x 90 angles %.1e\n", worst);
  CHECK(worst < 1e-11);
  /* Three samples that do not determine it: no normal force, two angles alike. */
  double th[3] = {0, 2, 4}, lam0[3] = {0, 0, 0}, a[6] = {1, 2, 1, 2, 1, 2}, lam[3] = {1, 2, 3};
  nsedi_slip_response r;
  CHECK(nsedi_slip_response_fit(th, lam0, a, &r) == -1);
  double same[3] = {1, 1, 3}, lam_same[3] = {2, 2, 3}; /* two samples alike */
  CHECK(nsedi_slip_response_fit(same, lam_same, a, &r) == -1);
  CHECK(nsedi_slip_response_fit(th, lam, a, &r) == 0);
  /* lambda_n unbounded: no value */
  nsedi_slip_response pole = {.n = 1, .q = {1.0, 0}};
  double cross, dot, mag;
  CHECK(nsedi_slip_response_at(&pole, 0.0, &cross, &dot, &mag) == -1);
}

static nsed_stats run(const char *root, const char *file, const char *t_end, int off, recorder *rec,
                      long *line_evals) {
  char path[4096], set[64];
  snprintf(path, sizeof path, "%s/problems/%s", root, file);
  snprintf(set, sizeof set, "solver.t_end=%s", t_end);
  const char *sets[] = {set};
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  must(nsed_problem_load(path, sets, 1, &m, &err), &err);
  must(nsed_data_create(m, &d, &err), &err);
  d->ev.line_model_off = off;
  memset(rec, 0, sizeof *rec);
  nsed_observer obs = {.ctx = rec, .event = rec_event};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s: %s", file, rc ? err.message : "");
  nsed_stats st = *nsed_data_stats(d);
  *line_evals = d->ev.line_evals;
  nsed_data_free(&d);
  nsed_model_free(&m);
  return st;
}

static void both_ways(const char *root, const char *file, const char *t_end) {
  static recorder direct, fitted;
  long ed = 0, ef = 0;
  run(root, file, t_end, 1, &direct, &ed);
  run(root, file, t_end, 0, &fitted, &ef);
  double worst = events_worst_difference(&direct, &fitted);
  CHECK(direct.nev > 10);
  printf("%s to t = %s: %d events, the same within %.1e s; the directions' search evaluated %ld "
         "times on evaluations alone, %ld with the fitted responses\n",
         file, t_end, direct.nev, worst, ed, ef);
  CHECK(worst < 1e-10);
  CHECK(5 * ef < ed);
}

int main(int argc, char **argv) {
  fits();
  const char *root = argc > 1 ? argv[1] : ".";
  both_ways(root, "omni_vehicle_coast_gz.yaml", "0.3");
  both_ways(root, "omni_vehicle_coast.yaml", "3");
  return TEST_DONE();
}
