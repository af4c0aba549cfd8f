/* A sample of the stick-slip sweeps of bench/bench_stick_slip.c (docs/
 * engine.md, "Stick-slip sweeps"): the block on a belt for 8 values of mu
 * in [0.05, 0.5] times the seven ratios mu0/mu of the full sweep, 40
 * spheres with random spins and velocities, and the disk on a shaft with 4
 * values of mu0 in [mu, 2 mu] for cases 1 and 2; every run must end ok with
 * a clean law monitor and agree with its reference (the tolerances are in
 * tests/reference/stick_slip_sweep.h). argv[1] is the source root. */
#include <stdio.h>

#include "nsed/nsed.h"
#include "nsed_test.h"
#include "stick_slip_sweep.h"

/* Steps and stops of the belt at mu = 0.3, mu0 = 0.3 ratio, 20 s. */
static void belt_steps(const char *root, double ratio, long *steps, long *stops) {
  char path[4096], ov[2][64];
  snprintf(path, sizeof path, "%s/problems/block_on_belt.yaml", root);
  snprintf(ov[0], sizeof ov[0], "contacts.block_belt.mu=0.3");
  snprintf(ov[1], sizeof ov[1], "contacts.block_belt.mu0=%.17g", 0.3 * ratio);
  const char *ovp[2] = {ov[0], ov[1]};
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  *steps = *stops = -1;
  if (nsed_problem_load(path, ovp, 2, &m, &err) || nsed_data_create(m, &d, &err) ||
      nsed_simulate(m, d, NULL, &err)) {
    fprintf(stderr, "belt %g: %s\n", ratio, err.message);
  } else {
    *steps = nsed_data_stats(d)->steps;
    *stops = nsed_data_stats(d)->events_by_kind[NSED_EVENT_STICK];
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void check(const char *name, const sweep_stats *st) {
  sweep_print_row(stdout, name, st);
  CHECK_MSG(st->completed == st->runs, "%s: %d of %d runs completed", name, st->completed, st->runs);
  CHECK_MSG(st->worst_ratio <= 1.0, "%s: an event time off by %.3g of its tolerance", name, st->worst_ratio);
  CHECK_MSG(st->worst_law <= 1.0, "%s: law margin %.3g of its tolerance", name, st->worst_law);
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  static const double ratios[] = {1.0, 1.0 + 1e-12, 1.0 + 1e-9, 1.0 + 1e-6, 1.0 + 1e-3, 1.2, 2.0};
  sweep_stats st;
  sweep_print_header(stdout);
  sweep_belt(root, 8, 0.05, 0.5, ratios, 7, 20.0, stderr, &st);
  check("belt, 20 s", &st);
  /* What a stop costs: the belt at mu0 = mu (1 + 1e-3) stops 9 times in
   * 20 s on nearly the orbit of mu0 = mu, which never stops; the extra
   * steps per stop were ~60,000 when stops were declared below a speed
   * (the slip's direction a stiff mode), and must stay below 100. */
  long s0, n0, s1, n1;
  belt_steps(root, 1.0, &s0, &n0);
  belt_steps(root, 1.0 + 1e-3, &s1, &n1);
  printf("belt: %ld steps without stops, %ld with %ld stops: %.1f steps per stop\n", s0, s1, n1,
         n1 > 0 ? (double)(s1 - s0) / (double)n1 : 0.0);
  CHECK(n0 == 0 && n1 >= 9);
  CHECK(n1 > 0 && (double)(s1 - s0) / (double)n1 < 100);
  sweep_sphere(root, 40, 2024u, stderr, &st);
  check("sphere", &st);
  sweep_dos(root, 1, 4, 10.0, stderr, &st);
  check("disk on shaft case 1", &st);
  sweep_dos(root, 2, 4, 25.0, stderr, &st);
  check("disk on shaft case 2", &st);
  return TEST_DONE();
}
