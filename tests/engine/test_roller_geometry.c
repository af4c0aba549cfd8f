/* Independent checks of the spindle-roller geometry (seed 000 §5, seed 001
 * eqs. 1-7): the profile (the torus at psi = 0, closure, derivatives), the
 * envelope property that defines the inclined roller (mounted on a vertical
 * wheel, its lowest point is always R below the wheel centre), the engine's
 * explicit lowest point against a brute-force search for free rollers in
 * random orientations, and the inertia against an independent quadrature.
 * Nothing here reuses the engine's lowest-point formula: the surface is the
 * surface of revolution of nsedi_roller_profile about body x, and its lowest
 * point is found by search. */
#include "engine_util.h"
#include "kinematics.h"
#include "math3.h"
#include "nsed_test.h"
#include "roller.h"
#include "roller_shape.h"

static const double RAD = 0.7; /* not 1: a missing scale factor shows */
static const int NS[] = {3, 4, 5, 8};
static const double PSIS[] = {0, 0.2, 0.4, 0.8, -0.4};

static nsed_shape make_shape(int n, double psi) {
  nsed_shape s;
  memset(&s, 0, sizeof s);
  s.type = NSED_SHAPE_ROLLER;
  s.radius = RAD;
  s.rollers = n;
  s.psi = psi;
  return s;
}

static double r1_of(const nsed_shape *s) { return s->radius * cos(M_PI / s->rollers); }

/* ---- 1-3: the profile ---------------------------------------------------- */

/* Returns the largest deviation from the torus x^2 + (r + R1)^2 = R^2 (psi = 0 only). */
static double check_torus(const nsed_shape *s) {
  double a = M_PI / s->rollers, R1 = r1_of(s), worst = 0;
  for (int k = 0; k <= 200; k++) {
    double q = -a + 2 * a * k / 200, x, r;
    nsedi_roller_profile(s, q, &x, &r, NULL, NULL);
    double err = fabs(x * x + (r + R1) * (r + R1) - s->radius * s->radius);
    CHECK_MSG(err <= 1e-14, "n %d q %g: torus residual %.3g", s->rollers, q, err);
    worst = fmax(worst, err);
  }
  return worst;
}

/* Tips closed at +-half length, r > 0 and x strictly increasing inside;
 * returns the largest tip error. */
static double check_closure(const nsed_shape *s) {
  double a = M_PI / s->rollers, L = s->radius * sin(a) / cos(s->psi), worst = 0;
  CHECK_NEAR(nsedi_roller_half_length(s), L, 1e-14, 0);
  for (int sg = -1; sg <= 1; sg += 2) {
    double x, r;
    nsedi_roller_profile(s, sg * a, &x, &r, NULL, NULL);
    CHECK_NEAR(r, 0.0, 1e-14, 0);
    CHECK_NEAR(x, sg * nsedi_roller_half_length(s), 1e-14, 0);
    worst = fmax(worst, fmax(fabs(r), fabs(x - sg * L)));
  }
  double xprev = -INFINITY;
  int bad_r = 0, bad_x = 0;
  for (int k = 1; k < 2000; k++) {
    double q = -a + 2 * a * k / 2000, x, r, dx;
    nsedi_roller_profile(s, q, &x, &r, &dx, NULL);
    bad_r += !(r > 0);
    bad_x += !(x > xprev && dx > 0);
    xprev = x;
  }
  CHECK_MSG(bad_r == 0 && bad_x == 0, "n %d psi %g: %d samples with r <= 0, %d not increasing",
            s->rollers, s->psi, bad_r, bad_x);
  return worst;
}

/* dx, dr against central differences; returns the largest relative error
 * (floored at the scale R where a derivative vanishes, dr at q = 0). */
static double check_derivatives(const nsed_shape *s) {
  double a = M_PI / s->rollers, h = 1e-6 * a, worst = 0;
  for (int k = 0; k <= 100; k++) {
    double q = -a + h + (2 * a - 2 * h) * k / 100, dx, dr, xp, rp, xm, rm;
    nsedi_roller_profile(s, q, NULL, NULL, &dx, &dr);
    nsedi_roller_profile(s, q + h, &xp, &rp, NULL, NULL);
    nsedi_roller_profile(s, q - h, &xm, &rm, NULL, NULL);
    double fx = (xp - xm) / (2 * h), fr = (rp - rm) / (2 * h);
    CHECK_NEAR(dx, fx, 1e-7 * s->radius, 1e-7);
    CHECK_NEAR(dr, fr, 1e-7 * s->radius, 1e-7);
    worst = fmax(worst, fabs(dx - fx) / fmax(fabs(fx), s->radius));
    worst = fmax(worst, fabs(dr - fr) / fmax(fabs(fr), s->radius));
  }
  return worst;
}

/* ---- brute-force lowest point of the surface of revolution ---------------- */

typedef struct {
  double p[3]; /* the lowest point minus the roller centre, world */
  double q;    /* its profile parameter */
  int tip;     /* 1 if it is a tip (q = +-alpha) */
} lowpt;

/* The surface point (q, phi) relative to the centre: x(q) i + r(q) (cos phi
 * j + sin phi k), with (i, j, k) the roller's axes in world. */
static void surf_point(const nsed_shape *s, const double ax[3][3], double q, double phi,
                       double p[3]) {
  double x, r;
  nsedi_roller_profile(s, q, &x, &r, NULL, NULL);
  for (int d = 0; d < 3; d++) p[d] = x * ax[0][d] + r * (cos(phi) * ax[1][d] + sin(phi) * ax[2][d]);
}

/* Search: a coarse (q, phi) grid (both tips included) finds the basin; then
 * phi is exact (a circle's lowest point is opposite the vertical's
 * projection on its plane) and q is refined by bisection on dz/dq inside
 * the grid cells around the best node, to machine precision. No tangency
 * formula is used; the refined point must not lie above any grid point. */
static lowpt lowest(const nsed_shape *s, const double ax[3][3]) {
  enum { NQ = 241, NPHI = 360 };
  double a = M_PI / s->rollers, best = INFINITY, iz = ax[0][2], jz = ax[1][2], kz = ax[2][2];
  double ez[NPHI]; /* height of the unit radial vector at each grid angle */
  for (int ip = 0; ip < NPHI; ip++)
    ez[ip] = cos(2 * M_PI * ip / NPHI) * jz + sin(2 * M_PI * ip / NPHI) * kz;
  int bq = 0;
  for (int iq = 0; iq < NQ; iq++) {
    double x, r;
    nsedi_roller_profile(s, -a + 2 * a * iq / (NQ - 1), &x, &r, NULL, NULL);
    for (int ip = 0; ip < NPHI; ip++)
      if (x * iz + r * ez[ip] < best) best = x * iz + r * ez[ip], bq = iq;
  }
  double w = sqrt(jz * jz + kz * kz);
  double phi = atan2(-kz, -jz);
  /* z(q) = x(q) i_z - r(q) w along the lowest meridian: dz/dq = dx i_z - dr w */
  double lo = fmax(-a, -a + 2 * a * (bq - 1) / (NQ - 1));
  double hi = fmin(a, -a + 2 * a * (bq + 1) / (NQ - 1)), dlo, dhi, dx, dr;
  nsedi_roller_profile(s, lo, NULL, NULL, &dx, &dr);
  dlo = dx * iz - dr * w;
  nsedi_roller_profile(s, hi, NULL, NULL, &dx, &dr);
  dhi = dx * iz - dr * w;
  lowpt L;
  if (dlo < 0 && dhi > 0) {
    while (hi - lo > 1e-15) { /* |q| <= pi/3: the spacing of doubles is < 1e-15 */
      double mid = 0.5 * (lo + hi);
      nsedi_roller_profile(s, mid, NULL, NULL, &dx, &dr);
      if (dx * iz - dr * w < 0) lo = mid;
      else hi = mid;
    }
    L.q = 0.5 * (lo + hi);
  } else {
    L.q = bq < NQ / 2 ? -a : a; /* monotone next to the best node: the tip */
  }
  L.tip = fabs(L.q) == a;
  surf_point(s, ax, L.q, phi, L.p);
  CHECK_MSG(L.p[2] <= best + 1e-15, "refined %.17g above the grid minimum %.17g", L.p[2], best);
  return L;
}

/* ---- 4: the envelope on a vertical wheel --------------------------------- */

/* Wheel centre O_A at height R, axis k1 = y; the roller centre O_B = O_A -
 * R1 rho, rho = (sin q, 0, cos q); axis i2 = cos(psi) t + sin(psi) k1 with
 * t = rho x k1 (so t.z = sin q). Returns the lowest point's height and its
 * offset along k1 from the wheel plane. */
static lowpt wheel_mounted(const nsed_shape *s, double q, double *height, double *lateral) {
  double R1 = r1_of(s), cp = cos(s->psi), sp = sin(s->psi);
  double rho[3] = {sin(q), 0, cos(q)}, t[3] = {-cos(q), 0, sin(q)}, ax[3][3];
  for (int d = 0; d < 3; d++) {
    ax[0][d] = cp * t[d] + sp * (d == 1);
    ax[1][d] = rho[d];
  }
  nsedi_v3_cross(ax[2], ax[0], ax[1]);
  lowpt L = lowest(s, ax);
  *height = s->radius - R1 * rho[2] + L.p[2];
  *lateral = L.p[1];
  return L;
}

/* (a) height 0 and (b) the lateral offset of seed 000 §5.2 (-m sin psi, m =
 * R1 tan q / cos psi: the lower end of the axis is its -i2 end, and i2.k1 =
 * sin psi) for |q| <= alpha; (c) beyond alpha the tip is lowest and rises
 * as R (1 - cos(|q| - alpha)) (its height is R - R1 cos q - (L/2) cos psi
 * sin|q|). Returns the worst height and lateral errors, the smallest rise
 * and the worst rise error. */
static void check_envelope(const nsed_shape *s, double *eh, double *el, double *rise,
                           double *erise) {
  double a = M_PI / s->rollers, R1 = r1_of(s), z, y;
  *eh = *el = 0;
  for (int k = 0; k <= 40; k++) {
    double q = -a + 2 * a * k / 40;
    wheel_mounted(s, q, &z, &y);
    double ylat = -R1 * tan(q) * tan(s->psi);
    CHECK_MSG(fabs(z) <= 1e-10, "n %d psi %g q %g: lowest point at height %.3g", s->rollers,
              s->psi, q, z);
    CHECK_MSG(fabs(y - ylat) <= 1e-8, "n %d psi %g q %g: lateral %.12g, expected %.12g",
              s->rollers, s->psi, q, y, ylat);
    *eh = fmax(*eh, fabs(z));
    *el = fmax(*el, fabs(y - ylat));
  }
  *rise = INFINITY;
  *erise = 0;
  static const double past[] = {0.01, 0.05, 0.2};
  for (int k = 0; k < 6; k++) {
    double d = past[k % 3], q = (k < 3 ? 1 : -1) * (a + d);
    lowpt L = wheel_mounted(s, q, &z, &y);
    CHECK_MSG(L.tip && z > 0, "n %d psi %g q %g: tip %d, height %.3g", s->rollers, s->psi, q,
              L.tip, z);
    CHECK_NEAR(z, s->radius * (1 - cos(d)), 1e-12, 0);
    *rise = fmin(*rise, z);
    *erise = fmax(*erise, fabs(z - s->radius * (1 - cos(d))));
  }
}

/* ---- 5: the engine's explicit point on a free roller ---------------------- */

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static double urand(void) { return nsed_test_urand(&rng); }

static nsed_model *roller_model(const nsed_shape *s) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "roller");
  b.shape = *s;
  b.position[2] = 1.0;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c); /* tracking inherited: EXPLICIT by default */
  snprintf(c.name, sizeof c.name, "roller_floor");
  snprintf(c.body, sizeof c.body, "roller");
  must(nsed_model_add_contact(m, &c, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

/* The engine's point for the 13-number state x; ax gets the body axes. */
static void engine_point(const nsed_model *m, const double x[13], nsedi_roller_point *pt,
                         double ax[3][3]) {
  static const double n[3] = {0, 0, 1};
  nsedi_kin kin;
  nsedi_kin_eval(m, x, &kin);
  nsedi_roller_point_eval(m, 0, &kin, NULL, 0, n, pt);
  if (ax)
    for (int c = 0; c < 3; c++)
      for (int d = 0; d < 3; d++) ax[c][d] = kin.R[3 * d + c];
}

/* x with its orientation carried by the constant body rate for time h:
 * q(h) = q (x) (cos(|w| h / 2), sin(|w| h / 2) w / |w|). */
static void advance(const double x[13], double h, double xo[13]) {
  double wn = nsedi_v3_norm(x + 10), e[4] = {cos(0.5 * wn * h)}, sh = sin(0.5 * wn * h) / wn;
  for (int d = 0; d < 3; d++) e[1 + d] = sh * x[10 + d];
  memcpy(xo, x, 13 * sizeof *x);
  nsedi_quat_mul(xo + 3, x + 3, e);
}

/* Random uniform orientations (Shoemake) and body rates; returns the worst
 * position error and relative rho_dot error, and counts body/tip samples. */
static void check_free(const nsed_shape *s, double *ep, double *ev, int *nbody, int *ntip) {
  nsed_model *m = roller_model(s);
  double lim = cos(s->psi) * sin(M_PI / s->rollers), hfd = 1e-5;
  *ep = *ev = 0;
  *nbody = *ntip = 0;
  for (int k = 0; k < 60; k++) {
    double u1 = urand(), u2 = 2 * M_PI * urand(), u3 = 2 * M_PI * urand();
    double x[13] = {0.3, -0.2, 1.0, sqrt(1 - u1) * sin(u2), sqrt(1 - u1) * cos(u2),
                    sqrt(u1) * sin(u3), sqrt(u1) * cos(u3), 0.5, 0.1, -0.2};
    for (int d = 0; d < 3; d++) x[10 + d] = 4 * urand() - 2;
    nsedi_roller_point pt, pp, pm;
    double ax[3][3], xp[13], xm[13];
    engine_point(m, x, &pt, ax);
    double ni = ax[0][2];
    if (fabs(fabs(ni) - lim) < 1e-3) continue; /* the body/tip switch: not a smooth sample */
    lowpt L = lowest(s, ax);
    int want_tip = fabs(ni) > lim;
    CHECK_MSG(L.tip == want_tip && (pt.region < 0) == want_tip,
              "n %d psi %g: |n.i| %.6f vs %.6f, search tip %d, engine region %.3g", s->rollers,
              s->psi, fabs(ni), lim, L.tip, pt.region);
    *nbody += !want_tip;
    *ntip += want_tip;
    double dp[3];
    nsedi_v3_sub(dp, pt.rho, L.p);
    double e = nsedi_v3_norm(dp);
    CHECK_MSG(e <= 1e-9, "n %d psi %g n.i %.6f: engine point off the searched one by %.3g",
              s->rollers, s->psi, ni, e);
    *ep = fmax(*ep, e);
    /* rho_dot against the central difference of rho along the rigid motion */
    advance(x, hfd, xp);
    advance(x, -hfd, xm);
    engine_point(m, xp, &pp, NULL);
    engine_point(m, xm, &pm, NULL);
    double fd[3];
    for (int d = 0; d < 3; d++) fd[d] = (pp.rho[d] - pm.rho[d]) / (2 * hfd) - pt.rho_dot[d];
    double rel = nsedi_v3_norm(fd) / nsedi_v3_norm(pt.rho_dot);
    CHECK_MSG(rel <= 1e-6, "n %d psi %g n.i %.6f: rho_dot relative error %.3g", s->rollers,
              s->psi, ni, rel);
    *ev = fmax(*ev, rel);
  }
  nsed_model_free(&m);
}

/* ---- 6: inertia ---------------------------------------------------------- */

/* q with x(q) = xv by bisection (x is strictly increasing: check 2). */
static double q_of_x(const nsed_shape *s, double xv) {
  double lo = -M_PI / s->rollers, hi = -lo;
  for (int it = 0; it < 200 && hi - lo > 1e-16; it++) {
    double mid = 0.5 * (lo + hi), x;
    nsedi_roller_profile(s, mid, &x, NULL, NULL, NULL);
    if (x < xv) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/* Discs across the axis, in x rather than q: composite 5-point
 * Gauss-Legendre over [-L/2, L/2] (L/2 the half length) (r(x) is smooth up to the tips, where it
 * vanishes linearly). Per unit density: volume pi int r^2, axial moment
 * pi int r^4 / 2, transverse pi int (r^4 / 4 + r^2 x^2). */
static void inertia_quad(const nsed_shape *s, double mass, double J[3], double *vol) {
  static const double gx[5] = {-0.9061798459386640, -0.5384693101056831, 0, 0.5384693101056831,
                               0.9061798459386640};
  static const double gw[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                               0.4786286704993665, 0.2369268850561891};
  double L = nsedi_roller_half_length(s), m0 = 0, jx = 0, jt = 0;
  const int P = 64;
  for (int p = 0; p < P; p++) {
    double c = -L + (2 * p + 1) * L / P, hw = L / P;
    for (int g = 0; g < 5; g++) {
      double x = c + hw * gx[g], r;
      nsedi_roller_profile(s, q_of_x(s, x), NULL, &r, NULL, NULL);
      double r2 = r * r, w = gw[g] * hw;
      m0 += w * r2;
      jx += w * 0.5 * r2 * r2;
      jt += w * (0.25 * r2 * r2 + r2 * x * x);
    }
  }
  J[0] = mass * jx / m0;
  J[1] = J[2] = mass * jt / m0;
  *vol = M_PI * m0;
}

/* psi = 0 in closed form: r = sqrt(R^2 - x^2) - R1 = A - 2 R1 s squared,
 * A = R^2 + R1^2 - x^2, s = sqrt(R^2 - x^2), with the table integrals of s,
 * s^3 and x^2 s at x = L = R sin(alpha) (s(L) = R1, asin(L/R) = alpha); all
 * integrands are even, so int_{-L}^{L} = 2 F(L). */
static void inertia_psi0(double R, int n, double mass, double J[3], double *vol) {
  double a = M_PI / n, R1 = R * cos(a), L = R * sin(a), c = R * R + R1 * R1, L3 = L * L * L;
  double S1 = 0.5 * (L * R1 + R * R * a);
  double S3 = L * (5 * R * R - 2 * L * L) * R1 / 8 + 3 * pow(R, 4) * a / 8;
  double X2S = L * (2 * L * L - R * R) * R1 / 8 + pow(R, 4) * a / 8;
  double I2 = 2 * (c * L - L3 / 3 - 2 * R1 * S1);
  double I4 = 2 * (c * c * L - 2 * c * L3 / 3 + L3 * L * L / 5 - 4 * R1 * (R1 * R1 * S1 + S3) +
                   4 * R1 * R1 * (R * R * L - L3 / 3));
  double IX = 2 * (c * L3 / 3 - L3 * L * L / 5 - 2 * R1 * X2S);
  J[0] = mass * 0.5 * I4 / I2;
  J[1] = J[2] = mass * (0.25 * I4 + IX) / I2;
  *vol = M_PI * I2;
}

/* Returns the worst relative error of nsed's moments. */
static double check_inertia(const nsed_shape *s) {
  const double mass = 2.5;
  double J[3], Jq[3], vq, worst = 0;
  nsedi_roller_inertia(s, mass, J);
  inertia_quad(s, mass, Jq, &vq);
  for (int d = 0; d < 3; d++) {
    CHECK_NEAR(J[d], Jq[d], 0, 1e-8);
    worst = fmax(worst, fabs(J[d] - Jq[d]) / Jq[d]);
  }
  if (s->psi == 0) {
    double Jc[3], vc;
    inertia_psi0(s->radius, s->rollers, mass, Jc, &vc);
    /* The quadrature itself against the closed form. The closed form loses
     * digits to cancellation (r^4 is ~1e-5 R^4 for n = 8 while its terms
     * are ~R^4): against 40-digit quadrature it is good to ~5e-11 there,
     * the Gauss-Legendre moments to ~1e-16, hence 1e-9 and not 1e-12. */
    CHECK_NEAR(vq, vc, 0, 1e-9);
    for (int d = 0; d < 3; d++) {
      CHECK_NEAR(J[d], Jc[d], 0, 1e-8);
      CHECK_NEAR(Jq[d], Jc[d], 0, 1e-9);
      worst = fmax(worst, fabs(J[d] - Jc[d]) / Jc[d]);
    }
  }
  return worst;
}

int main(void) {
  printf("  n    psi | torus    tips     d/dq    | env h    lateral  rise>=   rise err | free pos"
         "  rho_dot  body/tip | inertia\n");
  for (size_t in = 0; in < sizeof NS / sizeof *NS; in++)
    for (size_t ip = 0; ip < sizeof PSIS / sizeof *PSIS; ip++) {
      nsed_shape s = make_shape(NS[in], PSIS[ip]);
      char torus[16] = "   -   "; /* the torus exists at psi = 0 only */
      if (s.psi == 0) snprintf(torus, sizeof torus, "%.1e", check_torus(&s));
      double ec = check_closure(&s), ed = check_derivatives(&s), eh, el, rise, erise, ep, ev;
      int nb, nt;
      check_envelope(&s, &eh, &el, &rise, &erise);
      check_free(&s, &ep, &ev, &nb, &nt);
      double ei = check_inertia(&s);
      printf("  %d %6.2f | %s  %.1e  %.1e | %.1e  %.1e  %.1e  %.1e  | %.1e  %.1e  %2d/%2d | %.1e\n",
             s.rollers, s.psi, torus, ec, ed, eh, el, rise, erise, ep, ev, nb, nt, ei);
    }
  return TEST_DONE();
}
