/* Piecewise time laws whose knots fall on output instants (t = 0.05 with
 * dt = 0.01): the knot is a stop time and that sample at once; the run must
 * go on (it stopped with ARK_TOO_CLOSE) and integrate the triangle pulse
 * exactly: impulse 0.05 N s on 1 kg, displacement at 0.2 s from the
 * closed form. */
#include <math.h>

#include "engine_util.h"
#include "nsed_test.h"

int main(void) {
  static const char *text =
      "gravity: [0, 0, 0]\n"
      "bodies: [{name: b, mass: 1, inertia: [1, 1, 1]}]\n"
      "forces: [{name: f, type: force, body: b, direction: [1, 0, 0],\n"
      "          magnitude: {type: piecewise, times: [0, 0.05, 0.1], values: [0, 1, 0]}}]\n"
      "solver: {t_end: 0.2}\n"
      "output: {dt: 0.01}\n";
  nsed_model *m;
  nsed_error err;
  if (nsed_problem_load_string(text, strlen(text), "pulse", NULL, 0, &m, &err)) {
    CHECK_MSG(0, "%s", err.message);
    return TEST_DONE();
  }
  static recorder rec;
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  double s[13];
  nsed_data_body_state(d, 0, s);
  /* Rising ramp f = t/a on [0, a]: v = t^2/(2a), x = t^3/(6a). Falling
   * ramp f = 1 - tau/a, tau = t - a: v = v1 + tau - tau^2/(2a),
   * x = x1 + v1 tau + tau^2/2 - tau^3/(6a). Then v = a for 0.1 s. */
  double a = 0.05, v1 = a / 2, x1 = a * a / 6;
  double x2 = x1 + v1 * a + a * a / 2 - a * a / 6;
  double x = x2 + 0.05 * 0.1;
  printf("pulse: %d samples, v = %.15f (0.05), x(0.2) = %.15f (%.15f)\n", rec.nsamples, s[7], s[0], x);
  CHECK_NEAR(s[7], 0.05, 1e-12, 0);
  CHECK_NEAR(s[0], x, 1e-12, 0);
  CHECK(rec.nsamples >= 21);
  nsed_data_free(&d);
  nsed_model_free(&m);
  return TEST_DONE();
}
