/* Torque-free rigid body: energy and world angular momentum are conserved
 * to 1e-10 over 100 s (quaternion kinematics with T(q) of seed 000, Euler's
 * equations with gyroscopic terms), and spinning near the intermediate axis
 * flips (Dzhanibekov effect). */
#include "engine_util.h"
#include "nsed_test.h"

static double L0[3], E0;
static double worst_L, worst_E;
static int flips;
static double last_w2 = 0;

static void momentum(const nsed_model *m, const nsed_data *d, double L[3], double *E) {
  const nsed_body_def *b = nsed_model_body_def(m, 0);
  double s[13];
  nsed_data_body_state(d, 0, s);
  double w = s[3], x = s[4], y = s[5], z = s[6];
  double R[9] = {w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y),
                 2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x),
                 2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z};
  double Lb[3];
  *E = 0;
  for (int k = 0; k < 3; k++) {
    Lb[k] = b->inertia[k] * s[10 + k];
    *E += 0.5 * b->inertia[k] * s[10 + k] * s[10 + k];
  }
  for (int i = 0; i < 3; i++) L[i] = R[3 * i] * Lb[0] + R[3 * i + 1] * Lb[1] + R[3 * i + 2] * Lb[2];
}

static int smp(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)ctx;
  double L[3], E, s[13];
  momentum(m, d, L, &E);
  if (why == NSED_SAMPLE_INITIAL) {
    memcpy(L0, L, sizeof L);
    E0 = E;
  }
  for (int k = 0; k < 3; k++) worst_L = fmax(worst_L, fabs(L[k] - L0[k]) / sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]));
  worst_E = fmax(worst_E, fabs(E - E0) / E0);
  nsed_data_body_state(d, 0, s);
  if (last_w2 * s[11] < 0) flips++;
  last_w2 = s[11];
  return 0;
}

int main(void) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "tbar");
  b.mass = 1.0;
  b.inertia[0] = 1.0;
  b.inertia[1] = 2.0;
  b.inertia[2] = 3.0;
  b.angular_velocity[0] = 0.01;
  b.angular_velocity[1] = 2.0;
  b.angular_velocity[2] = 0.01;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.gravity[2] = 0.0;
  o.t_end = 100.0;
  o.output_dt = 0.05;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  nsed_data *d;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  nsed_observer obs = {.sample = smp};
  CHECK(nsed_simulate(m, d, &obs, &err) == NSED_OK);
  printf("energy drift %.3e, momentum drift %.3e, %d flips of w2\n", worst_E, worst_L, flips);
  CHECK(worst_E < 1e-10);
  CHECK(worst_L < 1e-10);
  CHECK(flips >= 4);
  nsed_data_free(&d);
  nsed_model_free(&m);
  return TEST_DONE();
}
