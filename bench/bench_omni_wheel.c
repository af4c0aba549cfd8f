/* The omni-wheel testbench (problems/omni_wheel_testbench*.yaml, t = 10)
 * with each contact-tracking algorithm, in one run: wall time per
 * simulated second (best of `repeats`, argv[2], default 3), RHS
 * evaluations, and the cost relative to explicit tracking. Seed 000 found
 * explicit tracking about 1.5x faster than implicit in Modelica. argv[1]
 * is the source root. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "nsed/nsed.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Best wall time of `repeats` runs; 0 on failure (reported). */
static double best_run(const char *path, const char *tracking, int repeats, long *rhs, long *events) {
  char set[64];
  snprintf(set, sizeof set, "contact_tracking=%s", tracking);
  const char *ov[1] = {set};
  nsed_model *m = NULL;
  nsed_error err;
  if (nsed_problem_load(path, ov, 1, &m, &err) != NSED_OK) {
    fprintf(stderr, "%s\n", err.message);
    return 0;
  }
  double best = 1e300;
  for (int k = 0; k < repeats && best > 0; k++) {
    nsed_data *d = NULL;
    double w0 = now();
    int rc = nsed_data_create(m, &d, &err);
    if (!rc) rc = nsed_simulate(m, d, NULL, &err);
    double w = now() - w0;
    if (rc) {
      fprintf(stderr, "%s (%s): %s\n", path, tracking, err.message);
      best = 0;
    } else {
      *rhs = nsed_data_stats(d)->rhs_evals;
      *events = nsed_data_stats(d)->events;
      if (w < best) best = w;
    }
    nsed_data_free(&d);
  }
  double t_end = nsed_model_options(m)->t_end;
  nsed_model_free(&m);
  return best / t_end;
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  int repeats = argc > 2 ? atoi(argv[2]) : 3;
  if (repeats < 1) repeats = 1;
  static const char *const files[] = {"omni_wheel_testbench", "omni_wheel_testbench_n5",
                                      "omni_wheel_testbench_psi04",
                                      "omni_wheel_testbench_n5_psi04"};
  static const char *const tracking[] = {"explicit", "implicit", "differential"};
  printf("%-32s %-13s %14s %10s %7s %12s\n", "problem", "tracking", "ms/sim second", "rhs", "events",
         "vs explicit");
  int failed = 0;
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/problems/%s.yaml", root, files[f]);
    double base = 0;
    for (int k = 0; k < 3; k++) {
      long rhs = 0, events = 0;
      double w = best_run(path, tracking[k], repeats, &rhs, &events);
      if (w <= 0) {
        failed = 1;
        continue;
      }
      if (k == 0) base = w;
      printf("%-32s %-13s %14.2f %10ld %7ld %12.2f\n", files[f], tracking[k], 1e3 * w, rhs, events,
             base > 0 ? w / base : 0.0);
    }
  }
  return failed;
}
