/* The omni-wheel testbench with psi = 0 rollers (problems/omni_wheel_testbench*.yaml):
 * the rollers' envelope is the circle of radius R, so the wheel rolls like a
 * disk: uniformly, at v = 1 and spin 1 about the axle, the contact handed over
 * from roller to roller when the wheel has turned by alpha, 3 alpha, ...:
 * at t_k = (2k + 1) pi / n (located to ~5e-7 s: a tangential touch-down). The handovers have zero normal velocity (no
 * impacts), the contacting roller's gap stays below 1e-9 across all of them,
 * and the energy is conserved. argv[1] is the source root. */
#include "engine_util.h"
#include "nsed_test.h"

static void run(const char *root, const char *file, int n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/%s", root, file);
  nsed_model *m;
  nsed_error err;
  if (nsed_problem_load(path, NULL, 0, &m, &err)) {
    CHECK_MSG(0, "%s", err.message);
    return;
  }
  static recorder rec;
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  int closes = 0, opens = 0, impacts = 0;
  double worst_dt = 0;
  for (int i = 0; i < rec.nev; i++) {
    const nsed_event *e = &rec.ev[i];
    impacts += e->kind == NSED_EVENT_IMPACT;
    opens += e->kind == NSED_EVENT_OPEN;
    if (e->kind == NSED_EVENT_CLOSE) {
      double expect = (2 * closes + 1) * M_PI / n;
      worst_dt = fmax(worst_dt, fabs(e->t - expect));
      closes++;
    }
  }
  const nsed_stats *st = nsed_data_stats(d);
  double s[13];
  int hub = nsed_model_find_body(m, "hub");
  nsed_data_body_state(d, hub, s);
  double E1 = nsed_data_energy(m, d);
  double bal = E1 - st->energy_initial - st->work_external - st->work_contacts - st->work_joints;
  printf("%s: %d handovers (%d opens, %d impacts), max |t - (2k+1) pi/n| = %.2e s, max gap or "
         "joint error %.2e, hub speed %.12f, energy balance %.2e\n",
         file, closes, opens, impacts, worst_dt, st->max_constraint_violation, s[7], bal);
  int expect_n = (int)floor((10.0 * n / M_PI + 1) / 2);
  CHECK(closes == expect_n);
  CHECK(opens == closes);
  CHECK(impacts == 0);
  /* The incoming roller touches down tangentially: its gap is quadratic in
   * time, so its root is located only to sqrt(round-off / curvature), about
   * 5e-7 s; the motion itself is not affected (the envelope is smooth). */
  CHECK(worst_dt < 2e-6);
  CHECK(st->max_constraint_violation < 1e-9);
  CHECK_NEAR(s[7], 1.0, 1e-8, 0);
  CHECK(fabs(bal) < 1e-8 * st->energy_initial);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  run(root, "omni_wheel_testbench.yaml", 4);
  run(root, "omni_wheel_testbench_n5.yaml", 5);
  return TEST_DONE();
}
