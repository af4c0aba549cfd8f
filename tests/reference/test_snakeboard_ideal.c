/* The ideal snakeboard reference (snakeboard_ideal.c) checked on its own:
 *  1. the wheelsets held at +-phi0 and the rotor still: the board runs on a
 *     circle of radius r / tan(phi0) at its initial speed (closed form);
 *  2. the three gaits of Lewis et al. (drive, rotate, parking): no slip at
 *     either wheelset, and the energy changing by exactly the servos' work;
 *  3. RK4 against itself at twice the steps: the reference's own error. */
#include <math.h>
#include <stdio.h>

#include "nsed_test.h"
#include "snakeboard_ideal.h"

static sb_params base(void) {
  sb_params p = {.M = 2.0, .J = 0.5, .J0 = 0.2, .J1 = 0.05, .r = 0.4};
  return p;
}

static void test_circle(void) {
  sb_params p = base();
  double phi0 = 0.3, u = 0.8;
  p.phi_f = (sb_libration){phi0, 0, M_PI / 2};
  p.phi_b = (sb_libration){-phi0, 0, M_PI / 2};
  p.psi = (sb_libration){0.7, 0, M_PI / 2};
  double w = u * tan(phi0) / p.r, rho = p.r / tan(phi0), th0 = 0.4;
  sb_state s = {0, 0, 0, th0, u * cos(th0), u * sin(th0), w};
  double worst = 0;
  for (int k = 1; k <= 20; k++) {
    double t = 0.5 * k;
    sb_advance(&p, &s, t, 2000);
    /* centre (-rho sin th0, rho cos th0) from the start */
    double th = th0 + w * t, x = rho * (sin(th) - sin(th0)), y = rho * (cos(th0) - cos(th));
    worst = fmax(worst, fmax(fabs(s.x - x), fmax(fabs(s.y - y), fabs(s.theta - th))));
  }
  printf("1 wheelsets at +-%.2f, rotor still, t = 0..10: circle of radius %.6f against the closed "
         "form: %.3g\n", phi0, rho, worst);
  CHECK_MSG(worst < 1e-10, "circle off by %.3g", worst);
}

/* The gaits of Lewis et al. (Kosenko's section 3.3): drive w_f = w_b =
 * w_psi, rotate 2 w_f = w_psi, parking 3 w_f = 2 w_psi; a_b = -a_f. */
static sb_params gait(int kind) {
  sb_params p = base();
  double w = 2.0, wpsi = kind == 0 ? w : kind == 1 ? 2 * w : 1.5 * w;
  p.phi_f = (sb_libration){0.4, w, 0};
  p.phi_b = (sb_libration){-0.4, w, 0};
  p.psi = (sb_libration){0.8, wpsi, 0};
  return p;
}

static void test_gaits(void) {
  static const char *names[3] = {"drive", "rotate", "parking"};
  for (int kind = 0; kind < 3; kind++) {
    sb_params p = gait(kind);
    sb_state s = {0, 0, 0, 0, 0, 0, 0}; /* from rest */
    double E0 = sb_energy(&p, &s), work = 0, slip = 0, T = 10;
    int n = 20000;
    double h = T / n, pw_prev = sb_servo_power(&p, &s);
    for (int i = 1; i <= n; i++) {
      sb_state mid = s;
      sb_advance(&p, &mid, s.t + 0.5 * h, 1);
      sb_advance(&p, &s, i * h, 1);
      double pw = sb_servo_power(&p, &s);
      work += h / 6 * (pw_prev + 4 * sb_servo_power(&p, &mid) + pw); /* Simpson */
      pw_prev = pw;
      slip = fmax(slip, sb_slip(&p, &s));
    }
    double bal = fabs(sb_energy(&p, &s) - E0 - work);
    /* The same with twice the steps: what the comparisons' step leaves. */
    sb_state a = {0, 0, 0, 0, 0, 0, 0};
    sb_advance(&p, &a, T, 2 * n);
    double d = fmax(hypot(a.x - s.x, a.y - s.y), fabs(a.theta - s.theta));
    printf("2 %s gait, t = 0..10: centre (%.4f, %.4f), heading %.4f; no-slip residual %.2e, "
           "energy %.4f -> %.4f, balance with the servos' work %.2e; against twice the steps "
           "%.2e\n",
           names[kind], s.x, s.y, s.theta, slip, E0, sb_energy(&p, &s), bal, d);
    CHECK(slip < 1e-12);
    CHECK_MSG(bal < 1e-9 * (fabs(E0) + fabs(work) + 1), "energy balance %.3g", bal);
    CHECK_MSG(d < 1e-10, "step halving moves it by %.3g", d);
  }
}

static void test_bad(void) {
  sb_params p = base();
  sb_state s = {0};
  double d[6];
  p.M = -1;
  CHECK(sb_rhs(&p, &s, d) == SB_EPARAM);
  p = base();
  p.phi_f = (sb_libration){M_PI / 2, 0, M_PI / 2}; /* both wheelsets across the board: */
  p.phi_b = (sb_libration){M_PI / 2, 0, M_PI / 2}; /* their rows are one */
  CHECK(sb_rhs(&p, &s, d) == SB_ESINGULAR);
}

int main(void) {
  test_circle();
  test_gaits();
  test_bad();
  return TEST_DONE();
}
