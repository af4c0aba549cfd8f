#include "step_controller.h"

#include <math.h>

/* ARKODE's own constants (arkode_impl.h, SUNDIALS 6.4): with them the PI
 * part is ARKODE's default controller bit for bit, which
 * engine_step_controller checks against ARKODE itself. */
static const double PI_K1 = 0.8, PI_K2 = 0.31;   /* AD1_K1, AD1_K2 */
static const double GUS_K1 = 0.98, GUS_K2 = 0.95; /* AD4_K1, AD4_K2 */
static const double ERR_FLOOR = 1e-10; /* ARKODE's TINY: an error norm of zero is not a step of infinity */

double nsedi_step_pi(double h1, double e1, double e2, int p) {
  double a = fmax(e1, ERR_FLOOR), b = fmax(e2, ERR_FLOOR);
  return h1 * pow(a, -PI_K1 / p) * pow(b, PI_K2 / p);
}

double nsedi_step_gustafsson(double h1, double h2, double e1, double e2, int p) {
  double a = fmax(e1, ERR_FLOOR);
  if (!(h2 > 0)) return h1 * pow(a, -1.0 / p);
  double ratio = a / fmax(e2, ERR_FLOOR);
  return h1 * (h1 / h2) * pow(a, -GUS_K1 / p) * pow(ratio, -GUS_K2 / p);
}

int nsedi_step_controller(N_Vector y, realtype t, realtype h1, realtype h2, realtype h3,
                          realtype e1, realtype e2, realtype e3, int q, int p, realtype *hnew,
                          void *data) {
  (void)y, (void)t, (void)h3, (void)e3, (void)q;
  const nsedi_step_control *c = data;
  double pi = nsedi_step_pi(h1, e1, e2, p);
  if (c->pi_only) {
    *hnew = pi;
    return 0;
  }
  double gus = nsedi_step_gustafsson(h1, c->phase_steps >= 1 ? h2 : 0.0, e1, e2, p);
  *hnew = fmin(pi, gus);
  return 0;
}
