/* Output samples are the method's own states (docs/engine.md, "Samples on
 * the method's steps"):
 *  - y' = -3 y under Dormand-Prince: the state at every sample is one step
 *    of the method from the start of the step that holds it,
 *    R(l (t - t0)) y(t0) (Dormand-Prince's stability polynomial), not the
 *    interpolant's; under CVODE samples stay on its own polynomial;
 *  - Kosenko's coast with 32 rollers a wheel at rtol 1e-10, sampled every
 *    1e-3: its sticking rollers are at rest at every sample to the method's
 *    noise, and its events are those of the run sampled every 0.05 to the
 *    event accuracy (a sample moves the integrator's root search's bracket
 *    only: measured 5.4e-13 s). Sampled on the Hermite interpolant, a
 *    stick's velocity oscillated between the steps up to 2.27e-9 m/s and
 *    the law monitor stopped the run at t = 0.023. */
#include <math.h>
#include <string.h>

#include "engine_util.h"
#include "integrator.h"
#include "nsed_test.h"

static int decay_rhs(double t, const double *y, double *yd, void *ud) {
  (void)t, (void)ud;
  yd[0] = -3.0 * y[0];
  return 0;
}

static void decay_samples(void) {
  nsedi_integrator_settings s = {.method = NSEDI_ODE_DP5, .rtol = 1e-6, .atol = 1e-10};
  nsedi_integrator *it = NULL;
  nsed_error err;
  double y = 1, t = 0, worst = 0, worst_dense = 0;
  int inside = 0;
  CHECK(nsedi_integrator_create(&s, 1, 0, 0, decay_rhs, NULL, NULL, 0.0, &y, &it, &err) == NSED_OK);
  nsedi_step_result res;
  for (int k = 1; k <= 40; k++) {
    double tout = 0.05 * k, t0, t1, y0, yd;
    CHECK(nsedi_integrator_advance(it, tout, 10.0, &y, &t, &res, &err) == NSED_OK && t == tout);
    nsedi_integrator_last_step(it, &t0, &t1);
    CHECK(t0 < tout && tout <= t1);
    CHECK(nsedi_integrator_dense(it, t0, &y0) == NSED_OK);
    CHECK(nsedi_integrator_dense(it, tout, &yd) == NSED_OK);
    inside += tout < t1;
    worst = fmax(worst, fabs(y - y0 * dp5_R(-3 * (tout - t0))) / fabs(y));
    worst_dense = fmax(worst_dense, fabs(yd - y) / fabs(y));
  }
  printf("y' = -3 y, DP5, 40 samples every 0.05 (%d inside a step): each is one step "
         "R(l (t - t0)) y(t0) to %.1e; the interpolant differs by up to %.1e\n",
         inside, worst, worst_dense);
  CHECK(inside > 20);
  CHECK(worst < 1e-14);
  CHECK(worst_dense > 1e-11); /* the check tells the two apart */
  nsedi_integrator_free(&it);

  /* CVODE's samples are on its own polynomial, inside its steps. */
  nsedi_integrator_settings b = {.method = NSEDI_ODE_BDF, .rtol = 1e-6, .atol = 1e-10};
  y = 1;
  inside = 0;
  worst = 0;
  CHECK(nsedi_integrator_create(&b, 1, 0, 0, decay_rhs, NULL, NULL, 0.0, &y, &it, &err) == NSED_OK);
  for (int k = 1; k <= 40; k++) {
    double tout = 0.05 * k, t0, t1, yd;
    CHECK(nsedi_integrator_advance(it, tout, 10.0, &y, &t, &res, &err) == NSED_OK && t == tout);
    nsedi_integrator_last_step(it, &t0, &t1);
    CHECK(nsedi_integrator_dense(it, tout, &yd) == NSED_OK);
    inside += t1 > tout;
    worst = fmax(worst, fabs(yd - y));
    CHECK_NEAR(y, exp(-3 * tout), 0, 1e-4);
  }
  printf("the same under CVODE BDF: %d of 40 samples inside a step, on its polynomial to %.1e\n", inside,
         worst);
  CHECK(inside > 0 && worst == 0);
  nsedi_integrator_free(&it);
}

enum { NEVENT_KEPT = 256 };

typedef struct {
  int nsample, nevent;
  double event_t[NEVENT_KEPT];
  double worst_stick; /* largest sticking tangential speed at an output sample, m/s */
} vehicle_obs;

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m, (void)d;
  vehicle_obs *o = ctx;
  if (o->nevent < NEVENT_KEPT) o->event_t[o->nevent] = e->t;
  o->nevent++;
  return 0;
}

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  vehicle_obs *o = ctx;
  if (why != NSED_SAMPLE_OUTPUT) return 0;
  o->nsample++;
  for (int c = 0; c < nsed_model_ncontact(m); c++) {
    nsed_contact_info ci;
    nsed_data_contact(d, c, &ci);
    if (ci.mode == NSED_MODE_STICK) o->worst_stick = fmax(o->worst_stick, ci.slip_speed);
  }
  return 0;
}

static void vehicle_run(const char *root, const char *dt, vehicle_obs *o, nsed_stats *st) {
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/omni_vehicle_coast.yaml", root);
  const char *sets[] = {"omni_vehicle.rollers=32", "solver.rtol=1e-10", "solver.atol=1e-12",
                        "solver.t_end=0.05", dt};
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  must(nsed_problem_load(path, sets, 5, &m, &err), &err);
  must(nsed_data_create(m, &d, &err), &err);
  memset(o, 0, sizeof *o);
  nsed_observer obs = {.ctx = o, .sample = on_sample, .event = on_event};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s: %s", dt, rc ? err.message : "");
  *st = *nsed_data_stats(d);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void vehicle_samples(const char *root) {
  static vehicle_obs dense, sparse;
  nsed_stats a, b;
  vehicle_run(root, "output.dt=0.001", &dense, &a);
  vehicle_run(root, "output.dt=0.05", &sparse, &b);
  printf("coast, 3 wheels x 32 rollers, rtol 1e-10, to t = 0.05 sampled every 1e-3: %ld steps, %d "
         "events, %d output samples (%ld interpolated); sticking rollers within %.2e m/s; every 0.05: "
         "%ld steps, %d events\n",
         a.steps, dense.nevent, dense.nsample, a.samples_interpolated, dense.worst_stick, b.steps,
         sparse.nevent);
  CHECK(dense.nsample >= 49 && a.samples_interpolated == 0);
  /* The method's own noise in a stick's velocity (measured 2.0e-10 m/s;
   * the interpolant's 2.27e-9, the law monitor's tolerance 2e-9). */
  CHECK(dense.worst_stick < 5e-10);
  CHECK(monitor_clean(&a) && monitor_clean(&b));
  CHECK(dense.nevent == sparse.nevent && dense.nevent > 0 && dense.nevent <= NEVENT_KEPT);
  double shift = 0;
  for (int i = 0; i < dense.nevent && i < NEVENT_KEPT; i++)
    shift = fmax(shift, fabs(dense.event_t[i] - sparse.event_t[i]));
  printf("  events of the two runs within %.1e s\n", shift);
  CHECK(shift < 1e-10);
}

int main(int argc, char **argv) {
  decay_samples();
  if (argc > 1) vehicle_samples(argv[1]);
  else CHECK_MSG(0, "usage: %s SOURCE_ROOT", argv[0]);
  return TEST_DONE();
}
