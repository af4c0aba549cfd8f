/* Wall time per simulated second of the disk on a shaft, case 2
 * (problems/disk_on_shaft_case2.yaml, M = 25 N m, 25 s): nsed's generic
 * assembly against the reduced-coordinate reference model
 * (tests/reference/dos_reduced.c), measured in the same run; best of
 * `repeats` runs each (argv[2], default 5). argv[1] is the source root.
 * Issue 5's goal: the generic assembly within 2x of the reduced model. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dos_reduced.h"
#include "nsed/nsed.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  int repeats = argc > 2 ? atoi(argv[2]) : 5;
  if (repeats < 1) repeats = 1;
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/disk_on_shaft_case2.yaml", root);
  nsed_model *m = NULL;
  nsed_error err;
  if (nsed_problem_load(path, NULL, 0, &m, &err) != NSED_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    return 1;
  }
  double t_end = nsed_model_options(m)->t_end;
  double best_nsed = 1e300, best_red = 1e300;
  long nsed_events = 0, nsed_steps = 0, nsed_rhs = 0, nsed_rejected = 0;
  dos_params p;
  dos_params_case(&p, 2);
  dos_result res = {0};
  for (int k = 0; k < repeats; k++) {
    nsed_data *d = NULL;
    if (nsed_data_create(m, &d, &err) != NSED_OK) {
      fprintf(stderr, "nsed_data_create: %s\n", err.message);
      return 1;
    }
    double w0 = now();
    int rc = nsed_simulate(m, d, NULL, &err);
    double w = now() - w0;
    if (rc != NSED_OK) {
      fprintf(stderr, "nsed_simulate: %s\n", err.message);
      return 1;
    }
    const nsed_stats *st = nsed_data_stats(d);
    nsed_events = st->events;
    nsed_steps = st->steps;
    nsed_rhs = st->rhs_evals;
    nsed_rejected = st->error_test_failures;
    if (w < best_nsed) best_nsed = w;
    nsed_data_free(&d);

    dos_result_free(&res);
    w0 = now();
    rc = dos_run(&p, &res);
    w = now() - w0;
    if (rc) {
      fprintf(stderr, "reduced model: %s\n", res.error);
      return 1;
    }
    if (w < best_red) best_red = w;
  }
  printf("disk on shaft, case 2 (%g s simulated, best of %d)\n", t_end, repeats);
  printf("  nsed (generic assembly, ARKODE DP5, default tolerances): %10.3f ms per simulated s  (%ld events, %ld steps, %ld rejected, %ld rhs)\n",
         1e3 * best_nsed / t_end, nsed_events, nsed_steps, nsed_rejected, nsed_rhs);
  printf("  reduced model (own DP5 rtol 1e-12):             %10.3f ms per simulated s  (%d events, %ld steps, %ld rhs)\n",
         1e3 * best_red / p.t_end, res.nev, res.steps, res.rhs_evals);
  printf("  ratio nsed / reduced: %.2f (goal <= 2)\n", (best_nsed / t_end) / (best_red / p.t_end));
  dos_result_free(&res);
  nsed_model_free(&m);
  return 0;
}
