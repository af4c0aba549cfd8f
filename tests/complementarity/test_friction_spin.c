/* Torsional (drilling) friction rows: a moment lambda_w about a contact's
 * normal with |lambda_w| <= mu lambda_n (docs/complementarity.md §11).
 *  - a body on the floor under an applied torque: stick / slip / given slip
 *    against their closed forms, every polygon model and size (the interval
 *    is exact in all of them, so all must agree);
 *  - the contact off the centre of mass (a lever): the spin couples to t2
 *    and the slipping spin accelerates with the parallel-axis inertia;
 *  - a spinning body landing (impact): the moment impulse;
 *  - random coupled problems checked against the laws here, independently;
 *  - a frictionless torsional row changes nothing about the contacts;
 *  - the exact cone refuses moments; bad inputs give clear errors. */
#include <stdio.h>
#include <stdlib.h>

#include "cp_test_util.h"
#include "nsed_test.h"

typedef struct {
  double *lambda, *a, *slip, *sign;
  nsed_cp_mode *mode, *wmode;
  nsed_contact_solution sol;
} ssol;

static void ssol_init(ssol *s, int nc, int nw) {
  size_t n = (size_t)(3 * nc + nw + 1);
  s->lambda = calloc(n, sizeof(double));
  s->a = calloc(n, sizeof(double));
  s->slip = calloc((size_t)(2 * nc + 1), sizeof(double));
  s->sign = calloc((size_t)(nw + 1), sizeof(double));
  s->mode = calloc((size_t)(nc + 1), sizeof(nsed_cp_mode));
  s->wmode = calloc((size_t)(nw + 1), sizeof(nsed_cp_mode));
  s->sol = (nsed_contact_solution){.lambda = s->lambda, .a = s->a, .mode = s->mode, .slip_dir = s->slip,
                                   .spin_mode = s->wmode, .spin_sign = s->sign};
}

static void ssol_free(ssol *s) {
  free(s->lambda), free(s->a), free(s->slip), free(s->sign), free(s->mode), free(s->wmode);
}

static const char *mname(nsed_friction_model m) {
  return m == NSED_FRICTION_POLYGON_FACE ? "face" : m == NSED_FRICTION_POLYGON_VERTEX ? "vertex" : "cone";
}

static double sgn(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

static double relerr(double x, double ref) { return fabs(x - ref) / fmax(fabs(ref), 1e-300); }

/* A body of mass m and polar inertia I on the floor (G diagonal: 1/m on
 * n, t1, t2; 1/I on the spin row), gravity and a torque T about n. */
static void test_floor(void) {
  const double m = 2.0, g = 9.81, I = 2.5e-3, muw = 0.02, lim = muw * m * g;
  const double Ts[] = {0.0, 0.5 * lim, -0.5 * lim, 0.99 * lim, -0.99 * lim, 1.01 * lim, -1.01 * lim, 3.0 * lim,
                       -3.0 * lim};
  const int nT = (int)(sizeof Ts / sizeof Ts[0]);
  double G[16] = {0}, b[4];
  G[0] = G[5] = G[10] = 1.0 / m;
  G[15] = 1.0 / I;
  double worst_l = 0.0, worst_a = 0.0;
  ssol S;
  ssol_init(&S, 1, 1);
  nsed_error err;
  nsed_lcp_stats st;
  for (int im = 0; im < 2; im++)
    for (int sides = 4; sides <= 32; sides *= 2) {
      if (sides == 16) continue;
      nsed_friction_model model = im ? NSED_FRICTION_POLYGON_VERTEX : NSED_FRICTION_POLYGON_FACE;
      nsed_contact_solver *s = cpt_solver(model, sides);
      nsed_cp_contact c = {.kind = NSED_CP_STICK_CANDIDATE, .mu = 0.4, .mu0 = 0.5};
      for (int t = 0; t < nT; t++) {
        double T = Ts[t];
        b[0] = -g, b[1] = b[2] = 0.0, b[3] = T / I;
        nsed_cp_spin w = {.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = muw};
        nsed_contact_problem p = {.nc = 1, .G = G, .b = b, .contacts = &c, .nw = 1, .spins = &w};
        int rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
        CHECK_MSG(rc == NSED_OK, "%s %d T %g: %s", mname(model), sides, T, err.message);
        CHECK_NEAR(S.lambda[0], m * g, 1e-12 * m * g, 0);
        CHECK(S.mode[0] == NSED_CP_STICK);
        CHECK_MSG(st.lcp_size == 1 + (sides + 1) + 3, "lcp size %d", st.lcp_size);
        if (model == NSED_FRICTION_POLYGON_FACE)
          CHECK_MSG(strncmp(st.path, "face-as-vertex/", 15) == 0, "path %s", st.path);
        if (fabs(T) < lim) {
          CHECK_NEAR(S.lambda[3], -T, 1e-12 * lim, 0);
          CHECK_NEAR(S.a[3], 0.0, 1e-12 * lim / I, 0);
          CHECK_MSG(S.wmode[0] == NSED_CP_STICK && S.sign[0] == 0.0, "%s %d T %g: mode %d sign %g",
                    mname(model), sides, T, S.wmode[0], S.sign[0]);
          if (T != 0.0) worst_l = fmax(worst_l, relerr(S.lambda[3], -T));
          worst_a = fmax(worst_a, fabs(S.a[3]) / (lim / I));
        } else {
          /* a_w's error: its terms' (T/I, lambda_w/I) relative error times their size */
          double lw = -lim * sgn(T), aw = (T + lw) / I, as = (fabs(T) + lim) / I;
          CHECK_NEAR(S.lambda[3], lw, 1e-12 * lim, 0);
          CHECK_NEAR(S.a[3], aw, 1e-12 * as, 0);
          CHECK_MSG(S.wmode[0] == NSED_CP_SLIP && S.sign[0] == sgn(T), "%s %d T %g: mode %d sign %g",
                    mname(model), sides, T, S.wmode[0], S.sign[0]);
          worst_l = fmax(worst_l, relerr(S.lambda[3], lw));
          worst_a = fmax(worst_a, fabs(S.a[3] - aw) / as);
        }
        /* already turning with sign sg: the kinetic moment whatever T is */
        for (double sg = -1.0; sg <= 1.0; sg += 2.0) {
          w.kind = NSED_CP_SLIPPING;
          w.sign = sg;
          rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
          CHECK_MSG(rc == NSED_OK, "%s", err.message);
          CHECK_NEAR(S.lambda[3], -lim * sg, 1e-12 * lim, 0);
          CHECK_NEAR(S.a[3], (T - lim * sg) / I, 1e-12 * (fabs(T) + lim) / I, 0);
          CHECK(S.wmode[0] == NSED_CP_SLIP && S.sign[0] == sg);
          worst_l = fmax(worst_l, relerr(S.lambda[3], -lim * sg));
        }
        /* frictionless (kind, or a stick candidate with mu = 0): no moment */
        for (int fk = 0; fk < 2; fk++) {
          w = fk ? (nsed_cp_spin){.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = 0.0}
                 : (nsed_cp_spin){.contact = 0, .kind = NSED_CP_FRICTIONLESS, .mu = muw};
          rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
          CHECK(rc == NSED_OK && S.lambda[3] == 0.0 && S.a[3] == T / I);
          CHECK(S.wmode[0] == NSED_CP_SLIP && S.sign[0] == sgn(T));
          if (model == NSED_FRICTION_POLYGON_FACE) CHECK(strncmp(st.path, "face/", 5) == 0);
        }
        /* lifted off: the contact opens and its spin row with it */
        b[0] = 1.0;
        w = (nsed_cp_spin){.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = muw};
        rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
        CHECK(rc == NSED_OK && S.mode[0] == NSED_CP_OPEN && S.wmode[0] == NSED_CP_OPEN);
        /* lambda_w <= mu 0 up to the LCP's round-off (Siconos' Lemke leaves
         * 5e-14 of T in a degenerate basis) */
        CHECK_MSG(S.lambda[0] == 0.0 && fabs(S.lambda[3]) <= 1e-12 * fmax(lim, fabs(T)) && S.sign[0] == 0.0,
                  "%s %d T %g: lambda_n %g lambda_w %g sign %g", mname(model), sides, T, S.lambda[0], S.lambda[3],
                  S.sign[0]);
      }
      nsed_contact_solver_free(&s);
    }
  printf("floor + torque (face, vertex; 4, 8, 32 sides): worst rel. error lambda_w %.2e, a_w %.2e (of |T|/I + "
         "mu m g/I)\n", worst_l, worst_a);
  ssol_free(&S);
}

/* The contact at r = (d, 0, 0) from the centre of mass (isotropic inertia
 * I): t2 = y moves with omega_z d, so G couples t2 and the spin row. Built
 * as J M^-1 J^T. Stuck: the body held, lambda_w = -T, lambda_t2 = 0. The
 * spin slipping with t2 stuck: the body turns about the contact point,
 * a_w = (T + lambda_w) / (I + m d^2), lambda_t2 = -m d (T + lambda_w) / (I + m d^2). */
static void test_lever(void) {
  const double m = 2.0, I = 0.01, d = 0.1, g = 9.81, muw = 0.05;
  /* rows n, t1, t2, w; columns v (3), omega (3) */
  double J[24] = {0}, minv[6] = {1 / m, 1 / m, 1 / m, 1 / I, 1 / I, 1 / I}, G[16], b[4];
  J[2 * 4 + 0] = 1.0, J[4 * 4 + 0] = -d;  /* n: v_z + (r x z).omega = v_z - d omega_y */
  J[0 * 4 + 1] = 1.0;                     /* t1: v_x (r x x = 0) */
  J[1 * 4 + 2] = 1.0, J[5 * 4 + 2] = d;   /* t2: v_y + d omega_z */
  J[5 * 4 + 3] = 1.0;                     /* spin: omega_z */
  cpt_delassus(4, 6, J, minv, G);
  const double Ln = g / (1 / m + d * d / I), lim = muw * Ln, Ip = I + m * d * d;
  double worst = 0.0;
  ssol S;
  ssol_init(&S, 1, 1);
  nsed_error err;
  nsed_lcp_stats st;
  const double Ts[] = {0.3 * lim, -0.9 * lim, 1.5 * lim, -2.5 * lim};
  for (int im = 0; im < 2; im++)
    for (int sides = 4; sides <= 32; sides *= 2) {
      if (sides == 16) continue;
      nsed_friction_model model = im ? NSED_FRICTION_POLYGON_VERTEX : NSED_FRICTION_POLYGON_FACE;
      nsed_contact_solver *s = cpt_solver(model, sides);
      nsed_cp_contact c = {.kind = NSED_CP_STICK_CANDIDATE, .mu0 = 1.0};
      nsed_cp_spin w = {.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = muw};
      for (int t = 0; t < 4; t++) {
        double T = Ts[t];
        b[0] = -g, b[1] = 0.0, b[2] = T * d / I, b[3] = T / I;
        nsed_contact_problem p = {.nc = 1, .G = G, .b = b, .contacts = &c, .nw = 1, .spins = &w};
        int rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
        CHECK_MSG(rc == NSED_OK, "%s %d: %s", mname(model), sides, err.message);
        double lw = fabs(T) < lim ? -T : -lim * sgn(T), aw = (T + lw) / Ip, lt2 = -m * d * (T + lw) / Ip;
        double e[5] = {relerr(S.lambda[0], Ln), fabs(S.lambda[1]) / Ln, fabs(S.lambda[2] - lt2) / Ln,
                       fabs(S.lambda[3] - lw) / lim, fabs(S.a[3] - aw) / (lim / Ip)};
        for (int k = 0; k < 5; k++) {
          CHECK_MSG(e[k] <= 1e-12, "%s %d T %g: error %d = %.3g", mname(model), sides, T, k, e[k]);
          worst = fmax(worst, e[k]);
        }
        CHECK(S.mode[0] == NSED_CP_STICK);
        CHECK(S.wmode[0] == (fabs(T) < lim ? NSED_CP_STICK : NSED_CP_SLIP));
        CHECK(S.sign[0] == (fabs(T) < lim ? 0.0 : sgn(T)));
      }
      nsed_contact_solver_free(&s);
    }
  printf("lever (spin coupled to t2, parallel-axis inertia): worst error %.2e\n", worst);
  ssol_free(&S);
}

/* A spinning body landing flat: pre-impact v_n = -2, spin rate w0 (b_w).
 * Lambda_n = m (1 + e) 2; the moment impulse stops the spin if
 * I |w0| <= mu Lambda_n, else it is mu Lambda_n against it. */
static void test_impact(void) {
  const double m = 1.5, I = 4e-3, vn = -2.0, muw = 0.01;
  double G[16] = {0};
  G[0] = G[5] = G[10] = 1.0 / m;
  G[15] = 1.0 / I;
  double worst = 0.0;
  ssol S;
  ssol_init(&S, 1, 1);
  nsed_error err;
  nsed_lcp_stats st;
  for (int im = 0; im < 2; im++) {
    nsed_friction_model model = im ? NSED_FRICTION_POLYGON_VERTEX : NSED_FRICTION_POLYGON_FACE;
    nsed_contact_solver *s = cpt_solver(model, 8);
    for (int ie = 0; ie < 2; ie++)
      for (int kind = 0; kind < 2; kind++)
        for (int sp = 0; sp < 4; sp++) {
          const double e = ie ? 0.5 : 0.0, Ln = m * (1 + e) * fabs(vn), w0s[4] = {5.0, -5.0, 200.0, -200.0};
          double w0 = w0s[sp], b[4] = {vn, 0.0, 0.0, w0};
          nsed_cp_contact c = {.kind = NSED_CP_STICK_CANDIDATE, .mu0 = 0.5, .restitution = e};
          /* a SLIPPING spin is a stick candidate at impulse level */
          nsed_cp_spin w = {.contact = 0, .kind = kind ? NSED_CP_SLIPPING : NSED_CP_STICK_CANDIDATE, .mu = muw,
                            .sign = sgn(w0)};
          nsed_contact_problem p = {.nc = 1, .G = G, .b = b, .contacts = &c, .nw = 1, .spins = &w};
          int rc = nsed_contact_solve_impact(s, &p, &S.sol, &st, &err);
          CHECK_MSG(rc == NSED_OK, "%s", err.message);
          CHECK_NEAR(S.lambda[0], Ln, 1e-12 * Ln, 0);
          CHECK_NEAR(S.a[0], -e * vn, 1e-12, 0);
          int stops = I * fabs(w0) <= muw * Ln;
          double lw = stops ? -I * w0 : -muw * Ln * sgn(w0), aw = stops ? 0.0 : w0 + lw / I;
          CHECK(fabs(S.lambda[3]) <= muw * S.lambda[0] * (1 + 1e-12));
          CHECK_NEAR(S.lambda[3], lw, 1e-12 * muw * Ln, 0);
          CHECK_NEAR(S.a[3], aw, 1e-12 * fabs(w0), 0);
          worst = fmax(worst, fabs(S.lambda[3] - lw) / (muw * Ln));
          worst = fmax(worst, fabs(S.a[3] - aw) / fabs(w0));
          if (e > 0.0) {
            CHECK(S.mode[0] == NSED_CP_OPEN && S.wmode[0] == NSED_CP_OPEN); /* it bounces */
          } else {
            CHECK(S.mode[0] == NSED_CP_STICK);
            CHECK(S.wmode[0] == (stops ? NSED_CP_STICK : NSED_CP_SLIP));
            CHECK(S.sign[0] == (stops ? 0.0 : sgn(w0)));
          }
        }
    nsed_contact_solver_free(&s);
  }
  printf("impact of a spinning body: worst error %.2e (of mu Lambda_n, of |w0|)\n", worst);
  ssol_free(&S);
}

/* The laws, checked here on a solution of a (possibly impact) problem.
 * Tolerances: 1e-8 of scales computed here (forces: max|lambda|, |b|/|G|;
 * each torsional row its own: its moment and its row of G times the
 * unknowns' scales). Returns the number of failed checks. */
static int check_laws(int nc, int nw, const double *G, const double *b, const nsed_cp_contact *c,
                      const nsed_cp_spin *w, int impact, int sides, int inscribed, const ssol *S, int id) {
  const int n3 = 3 * nc, N = n3 + nw;
  const int before = nsed_test_failures;
  double lmax = 0, gmax = 0, bmax = 0;
  for (int i = 0; i < n3; i++) lmax = fmax(lmax, fabs(S->lambda[i])), bmax = fmax(bmax, fabs(b[i]));
  for (int j = 0; j < n3; j++)
    for (int i = 0; i < n3; i++) gmax = fmax(gmax, fabs(G[(size_t)j * N + i]));
  const double lref = fmax(lmax, bmax / fmax(gmax, 1e-300));
  double ms[8], as = fmax(bmax, gmax * lref);
  for (int k = 0; k < nw; k++) ms[k] = fmax(fabs(S->lambda[n3 + k]), w[k].mu * lref);
  for (int i = 0; i < n3; i++) {
    double sum = 0;
    for (int k = 0; k < nw; k++) sum += fabs(G[(size_t)(n3 + k) * N + i]) * ms[k];
    as = fmax(as, sum);
  }
  const double tl = 1e-8 * lref, ta = 1e-8 * as;
  /* a = G lambda + b, recomputed */
  for (int r = 0; r < N; r++) {
    double v = b[r], mag = fabs(b[r]);
    for (int j = 0; j < N; j++) v += G[(size_t)j * N + r] * S->lambda[j], mag += fabs(G[(size_t)j * N + r] * S->lambda[j]);
    CHECK_MSG(fabs(v - S->a[r]) <= 1e-13 * mag, "problem %d: a(%d) %.17g vs %.17g", id, r, S->a[r], v);
  }
  for (int i = 0; i < nc; i++) {
    double ln = S->lambda[3 * i], an = S->a[3 * i] + (impact ? c[i].restitution * b[3 * i] : 0.0);
    double l1 = S->lambda[3 * i + 1], l2 = S->lambda[3 * i + 2], a1 = S->a[3 * i + 1], a2 = S->a[3 * i + 2];
    CHECK_MSG(ln >= -tl && an >= -ta, "problem %d contact %d: lambda_n %g a_n %g", id, i, ln, an);
    CHECK_MSG(fmin(ln / lref, an / as) <= 1e-8, "problem %d contact %d: lambda_n %g a_n %g", id, i, ln, an);
    int kind = c[i].kind;
    double mu = kind == NSED_CP_STICK_CANDIDATE ? c[i].mu0 : c[i].mu;
    if (impact && kind == NSED_CP_SLIPPING) kind = NSED_CP_STICK_CANDIDATE;
    if (kind == NSED_CP_FRICTIONLESS || mu == 0.0) {
      CHECK(l1 == 0.0 && l2 == 0.0);
      continue;
    }
    if (kind == NSED_CP_SLIPPING) {
      CHECK(l1 == -mu * ln * c[i].slip_dir[0] && l2 == -mu * ln * c[i].slip_dir[1]);
      continue;
    }
    double h = 2 * M_PI / sides, off = inscribed ? h / 2 : 0.0, rad = inscribed ? cos(M_PI / sides) : 1.0;
    for (int j = 0; j < sides; j++)
      CHECK_MSG(cos(off + j * h) * l1 + sin(off + j * h) * l2 <= mu * ln * rad + tl,
                "problem %d contact %d: outside the polygon", id, i);
    if (S->mode[i] == NSED_CP_STICK) {
      CHECK_MSG(hypot(a1, a2) <= 1e-7 * as, "problem %d contact %d: sticks with |a_T| %g", id, i, hypot(a1, a2));
    } else if (S->mode[i] == NSED_CP_SLIP) {
      double hmax = 0.0, vr = inscribed ? 1.0 : 1.0 / cos(M_PI / sides), voff = inscribed ? 0.0 : h / 2;
      for (int j = 0; j < sides; j++)
        hmax = fmax(hmax, -mu * ln * vr * (cos(voff + j * h) * a1 + sin(voff + j * h) * a2));
      CHECK_MSG(-(a1 * l1 + a2 * l2) >= hmax - 1e-7 * lref * as, "problem %d contact %d: dissipation", id, i);
    }
  }
  for (int k = 0; k < nw; k++) {
    const int ci = w[k].contact, R = n3 + k;
    const double ln = S->lambda[3 * ci], lw = S->lambda[R], aw = S->a[R], mu = w[k].mu;
    double rs = fabs(b[R]);
    {
      double sum = 0;
      for (int j = 0; j < n3; j++) sum += fabs(G[(size_t)j * N + R]) * lref;
      for (int l = 0; l < nw; l++) sum += fabs(G[(size_t)(n3 + l) * N + R]) * ms[l];
      rs = fmax(rs, sum);
    }
    const double tm = 1e-8 * ms[k], tw = 1e-7 * rs;
    if (S->mode[ci] == NSED_CP_OPEN) CHECK_MSG(S->wmode[k] == NSED_CP_OPEN, "problem %d spin %d: not open", id, k);
    int kind = w[k].kind;
    if (impact && kind == NSED_CP_SLIPPING) kind = NSED_CP_STICK_CANDIDATE;
    if (mu == 0.0 && kind == NSED_CP_STICK_CANDIDATE) kind = NSED_CP_FRICTIONLESS;
    if (kind == NSED_CP_FRICTIONLESS) {
      CHECK_MSG(lw == 0.0, "problem %d spin %d: frictionless with moment %g", id, k, lw);
      continue;
    }
    CHECK_MSG(fabs(lw) <= mu * ln + tm, "problem %d spin %d: |lambda_w| %.9g > mu lambda_n %.9g", id, k, fabs(lw),
              mu * ln);
    if (kind == NSED_CP_SLIPPING) {
      CHECK_MSG(lw == -mu * w[k].sign * ln, "problem %d spin %d: kinetic moment %g", id, k, lw);
      if (S->wmode[k] != NSED_CP_OPEN) CHECK(S->wmode[k] == NSED_CP_SLIP && S->sign[k] == w[k].sign);
      continue;
    }
    if (S->wmode[k] == NSED_CP_STICK) {
      CHECK_MSG(fabs(aw) <= tw, "problem %d spin %d: sticks with a_w %g (scale %g)", id, k, aw, rs);
    } else if (S->wmode[k] == NSED_CP_SLIP) {
      /* turning: a_w != 0, the moment at the bound against it */
      CHECK_MSG(aw != 0.0 && S->sign[k] == sgn(aw), "problem %d spin %d: slip sign %g a_w %g", id, k,
                S->sign[k], aw);
      CHECK_MSG(fabs(lw + mu * ln * sgn(aw)) <= tm + 1e-8 * mu * lref, "problem %d spin %d: slip moment %.9g vs %.9g",
                id, k, lw, -mu * ln * sgn(aw));
    }
    /* maximal dissipation in any case */
    CHECK_MSG(-aw * lw >= mu * ln * fabs(aw) - 1e-7 * ms[k] * rs, "problem %d spin %d: dissipation", id, k);
  }
  return nsed_test_failures - before;
}

#define NPROB 200
static void test_random(void) {
  cpt_rng rng = {0x5b1a2025ull};
  for (int model = 0; model < 2; model++) {
    int solved = 0, infeasible = 0, other = 0, wrong = 0, with_slip = 0, solved_plain = 0, total_plain = 0;
    int face_direct = 0, spins_total = 0, lcp_max = 0;
    nsed_complementarity_settings set;
    nsed_complementarity_default_settings(&set);
    set.model = model ? NSED_FRICTION_POLYGON_VERTEX : NSED_FRICTION_POLYGON_FACE;
    for (int t = 0; t < NPROB; t++) {
      const int nc = cpt_int(&rng, 1, 4), nw = cpt_int(&rng, 0, 4), n3 = 3 * nc, N = n3 + nw;
      const int k = cpt_int(&rng, 2, N + 6), impact = t % 4 == 3;
      set.sides = 4 * cpt_int(&rng, 1, 8);
      double *J = malloc(sizeof(double) * (size_t)N * (size_t)k), *minv = malloc(sizeof(double) * (size_t)k);
      double *G = malloc(sizeof(double) * (size_t)N * (size_t)N), *b = malloc(sizeof(double) * (size_t)N);
      double *y = malloc(sizeof(double) * (size_t)k);
      cpt_random_system(&rng, N, k, J, minv, y);
      /* column 0 lifts every contact, gravity pushes along it; the spin rows
       * in other units (lever 1/L, L from 0.01 to 1) */
      for (int i = 0; i < nc; i++) J[3 * i] = 0.5 + cpt_unif(&rng);
      y[0] -= 3.0 * cpt_unif(&rng);
      double L[4];
      for (int q = 0; q < nw; q++) {
        L[q] = pow(10.0, -2.0 * cpt_unif(&rng));
        for (int d = 0; d < k; d++) J[(size_t)d * N + n3 + q] /= L[q];
      }
      cpt_apply(N, k, J, y, b);
      cpt_delassus(N, k, J, minv, G);
      nsed_cp_contact c[4];
      nsed_cp_spin w[4];
      int slips = 0;
      for (int i = 0; i < nc; i++) {
        double u = cpt_unif(&rng), ang = 2 * M_PI * cpt_unif(&rng);
        int kind = u < 0.1 ? NSED_CP_FRICTIONLESS : u < 0.2 ? NSED_CP_SLIPPING : NSED_CP_STICK_CANDIDATE;
        slips |= kind == NSED_CP_SLIPPING && !impact;
        c[i] = (nsed_cp_contact){.kind = (nsed_cp_kind)kind, .mu = 0.1 + 0.3 * cpt_unif(&rng),
                                 .mu0 = 0.1 + 0.9 * cpt_unif(&rng), .slip_dir = {cos(ang), sin(ang)},
                                 .restitution = 0.5 * cpt_unif(&rng)};
      }
      for (int q = 0; q < nw; q++) {
        double u = cpt_unif(&rng);
        int kind = u < 0.15 ? NSED_CP_FRICTIONLESS : u < 0.35 ? NSED_CP_SLIPPING : NSED_CP_STICK_CANDIDATE;
        double mu = cpt_unif(&rng) < 0.1 ? 0.0 : L[q] * (0.05 + 0.5 * cpt_unif(&rng));
        slips |= kind == NSED_CP_SLIPPING && mu > 0.0 && !impact;
        w[q] = (nsed_cp_spin){.contact = cpt_int(&rng, 0, nc - 1), .kind = (nsed_cp_kind)kind, .mu = mu,
                              .sign = cpt_unif(&rng) < 0.5 ? -1.0 : 1.0};
      }
      spins_total += nw;
      nsed_contact_solver *s = NULL;
      nsed_error err;
      CHECK(nsed_contact_solver_create(&set, 1, &s, &err) == NSED_OK);
      nsed_contact_problem p = {.nc = nc, .G = G, .b = b, .contacts = c, .nw = nw, .spins = w};
      ssol S;
      ssol_init(&S, nc, nw);
      nsed_lcp_stats st;
      int rc = impact ? nsed_contact_solve_impact(s, &p, &S.sol, &st, &err)
                      : nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
      with_slip += slips;
      total_plain += !slips;
      if (rc == NSED_OK) {
        solved++;
        solved_plain += !slips;
        lcp_max = st.lcp_size > lcp_max ? st.lcp_size : lcp_max;
        if (strncmp(st.path, "face/", 5) == 0) face_direct++;
        int f = check_laws(nc, nw, G, b, c, w, impact, set.sides, model, &S, t);
        if (f) {
          wrong++;
          fprintf(stderr, "  problem %d (%s, %d contacts, %d spins, %d sides, %s): %d failed checks, path %s\n", t,
                  mname(set.model), nc, nw, set.sides, impact ? "impact" : "accel", f, st.path);
        }
      } else if (rc == NSED_LCP_INFEASIBLE) {
        infeasible++;
        /* the outputs are reset, not a half answer */
        for (int r = 0; r < N; r++) CHECK(S.lambda[r] == 0.0 && S.a[r] == b[r]);
        for (int q = 0; q < nw; q++) CHECK(S.wmode[q] == NSED_CP_OPEN && S.sign[q] == 0.0);
      } else {
        other++;
        fprintf(stderr, "  problem %d (%s, %d contacts, %d spins%s): %s\n", t, mname(set.model), nc, nw,
                slips ? ", slipping" : "", err.message);
      }
      ssol_free(&S);
      nsed_contact_solver_free(&s);
      free(J), free(minv), free(G), free(b), free(y);
    }
    printf("random coupled (%s): %d problems (%d spins, %d with slipping rows): %d solved and verified here, "
           "%d reported infeasible, %d other errors, %d wrong; without slipping rows %d of %d solved; face form "
           "direct %d; largest LCP %d\n",
           mname(set.model), NPROB, spins_total, with_slip, solved, infeasible, other, wrong, solved_plain,
           total_plain, face_direct, lcp_max);
    CHECK(wrong == 0);
    CHECK(other == 0);
    CHECK(solved_plain == total_plain); /* symmetric problems: Lemke always solves them */
    CHECK(solved + infeasible == NPROB);
  }
}

/* A frictionless torsional row, decoupled or coupled, changes nothing for
 * the contacts: the same LCP, so the same forces to the bit. */
static void test_frictionless_row(void) {
  cpt_rng rng = {0xf00dull};
  int identical = 0, total = 0;
  double worst = 0.0;
  for (int model = 0; model < 3; model++)
    for (int t = 0; t < 40; t++) {
      const int nc = cpt_int(&rng, 1, model == 2 ? 3 : 4), n3 = 3 * nc, N = n3 + 1, k = n3 + 4;
      double J[16 * 16], minv[16], G0[12 * 12], G1[13 * 13], b0[12], b1[13], y[16];
      for (int d = 0; d < k; d++) {
        minv[d] = 0.5 + cpt_unif(&rng);
        y[d] = 2.0 * cpt_unif(&rng) - 1.0;
        for (int r = 0; r < N; r++) J[d * N + r] = 2.0 * cpt_unif(&rng) - 1.0;
      }
      for (int i = 0; i < nc; i++) J[3 * i] = 0.5 + cpt_unif(&rng);
      y[0] -= 3.0;
      int coupled = t % 2;
      if (!coupled) { /* the spin row and the last column only for each other */
        for (int d = 0; d < k; d++) J[d * N + n3] = d == k - 1 ? 1.0 : 0.0;
        for (int r = 0; r < n3; r++) J[(k - 1) * N + r] = 0.0;
      }
      for (int r = 0; r < N; r++) {
        b1[r] = 0.0;
        for (int d = 0; d < k; d++) b1[r] += J[d * N + r] * y[d];
      }
      cpt_delassus(N, k, J, minv, G1);
      for (int j = 0; j < n3; j++)
        for (int i = 0; i < n3; i++) G0[j * n3 + i] = G1[j * N + i];
      memcpy(b0, b1, sizeof(double) * (size_t)n3);
      nsed_cp_contact c[4];
      for (int i = 0; i < nc; i++)
        c[i] = (nsed_cp_contact){.kind = cpt_unif(&rng) < 0.2 ? NSED_CP_FRICTIONLESS : NSED_CP_STICK_CANDIDATE,
                                 .mu0 = 0.2 + 0.6 * cpt_unif(&rng)};
      nsed_cp_spin w = {.contact = cpt_int(&rng, 0, nc - 1), .kind = t % 4 < 2 ? NSED_CP_FRICTIONLESS : NSED_CP_STICK_CANDIDATE,
                        .mu = t % 4 < 2 ? 0.3 : 0.0};
      nsed_contact_solver *s = cpt_solver((nsed_friction_model)model, 8);
      nsed_contact_problem p0 = {.nc = nc, .G = G0, .b = b0, .contacts = c};
      nsed_contact_problem p1 = {.nc = nc, .G = G1, .b = b1, .contacts = c, .nw = 1, .spins = &w};
      ssol S0, S1;
      ssol_init(&S0, nc, 0);
      ssol_init(&S1, nc, 1);
      nsed_error err;
      nsed_lcp_stats st0, st1;
      int rc0 = nsed_contact_solve_accel(s, &p0, &S0.sol, &st0, &err);
      int rc1 = nsed_contact_solve_accel(s, &p1, &S1.sol, &st1, &err);
      CHECK_MSG(rc0 == NSED_OK && rc1 == NSED_OK, "%s: %s", mname((nsed_friction_model)model), err.message);
      CHECK(strcmp(st0.path, st1.path) == 0 && st0.lcp_size == st1.lcp_size);
      total++;
      int same = memcmp(S0.lambda, S1.lambda, sizeof(double) * (size_t)n3) == 0 &&
                 memcmp(S0.a, S1.a, sizeof(double) * (size_t)n3) == 0 &&
                 memcmp(S0.mode, S1.mode, sizeof(nsed_cp_mode) * (size_t)nc) == 0;
      identical += same;
      double lm = 0;
      for (int r = 0; r < n3; r++) lm = fmax(lm, fabs(S0.lambda[r]));
      for (int r = 0; r < n3; r++) {
        worst = fmax(worst, fabs(S0.lambda[r] - S1.lambda[r]) / lm);
        CHECK_NEAR(S1.lambda[r], S0.lambda[r], 1e-14 * lm, 0);
      }
      /* its own row: no moment, a_w = G_w. lambda + b_w, turning with sign(a_w) */
      double aw = b1[n3];
      for (int j = 0; j < n3; j++) aw += G1[j * N + n3] * S1.lambda[j];
      CHECK(S1.lambda[n3] == 0.0);
      CHECK_NEAR(S1.a[n3], aw, 1e-14 * fabs(aw), 0);
      CHECK(S1.wmode[0] == (S1.mode[w.contact] == NSED_CP_OPEN ? NSED_CP_OPEN : NSED_CP_SLIP));
      ssol_free(&S0);
      ssol_free(&S1);
      nsed_contact_solver_free(&s);
    }
  printf("frictionless torsional row: %d of %d identical to the bit without it (worst difference %.1e)\n", identical,
         total, worst);
  CHECK(identical == total);
}

/* The exact cone refuses a moment; bad inputs say which spin is wrong. */
static void test_refusals(void) {
  const double m = 2.0, I = 2.5e-3, g = 9.81;
  double G[16] = {0}, b[4] = {-g, 0.0, 0.0, 10.0};
  G[0] = G[5] = G[10] = 1.0 / m;
  G[15] = 1.0 / I;
  nsed_cp_contact c = {.kind = NSED_CP_STICK_CANDIDATE, .mu0 = 0.5};
  ssol S;
  ssol_init(&S, 1, 1);
  nsed_error err;
  nsed_lcp_stats st;
  nsed_contact_solver *cone = cpt_solver(NSED_FRICTION_EXACT_CONE, 8);
  for (int kind = 0; kind < 2; kind++) {
    nsed_cp_spin w = {.contact = 0, .kind = kind ? NSED_CP_SLIPPING : NSED_CP_STICK_CANDIDATE, .mu = 0.02, .sign = 1.0};
    nsed_contact_problem p = {.nc = 1, .G = G, .b = b, .contacts = &c, .nw = 1, .spins = &w};
    S.lambda[0] = S.lambda[3] = 7.0;
    S.wmode[0] = NSED_CP_STICK;
    int rc = nsed_contact_solve_accel(cone, &p, &S.sol, &st, &err);
    CHECK_MSG(rc == NSED_ERR_INPUT, "rc %d", rc);
    CHECK_MSG(strstr(err.message, "fc3d") && strstr(err.message, "torsional") && strstr(err.message, "polygon") &&
                  strstr(err.message, "spin 0"),
              "message: %s", err.message);
    CHECK(S.lambda[0] == 0.0 && S.lambda[3] == 0.0 && S.a[3] == b[3] && S.wmode[0] == NSED_CP_OPEN);
  }
  printf("cone refuses: %s\n", err.message);
  /* frictionless, or slipping at mu = 0: nothing to carry, the cone answers */
  for (int kind = 0; kind < 3; kind++) {
    nsed_cp_spin w = {.contact = 0, .kind = kind == 0 ? NSED_CP_FRICTIONLESS : kind == 1 ? NSED_CP_SLIPPING : NSED_CP_STICK_CANDIDATE,
                      .mu = kind == 0 ? 0.02 : 0.0, .sign = -1.0};
    nsed_contact_problem p = {.nc = 1, .G = G, .b = b, .contacts = &c, .nw = 1, .spins = &w};
    int rc = nsed_contact_solve_accel(cone, &p, &S.sol, &st, &err);
    CHECK_MSG(rc == NSED_OK, "%s", err.message);
    CHECK_NEAR(S.lambda[0], m * g, 1e-9 * m * g, 0);
    CHECK(S.lambda[3] == 0.0 && S.a[3] == b[3] && S.wmode[0] == NSED_CP_SLIP);
    CHECK(S.sign[0] == (kind == 1 ? -1.0 : 1.0)); /* the given sign, or a_w's */
  }
  nsed_contact_solver_free(&cone);

  nsed_contact_solver *s = cpt_solver(NSED_FRICTION_POLYGON_FACE, 8);
  struct {
    nsed_cp_spin w;
    int nw, g_nan, b_nan, no_spins, no_out, rc;
    const char *says;
  } bad[] = {
      {{.contact = 1, .kind = NSED_CP_STICK_CANDIDATE, .mu = 0.1}, 1, 0, 0, 0, 0, NSED_ERR_INPUT, "spin 0: contact 1 out of range"},
      {{.contact = -1, .kind = NSED_CP_STICK_CANDIDATE, .mu = 0.1}, 1, 0, 0, 0, 0, NSED_ERR_INPUT, "spin 0: contact -1 out of range"},
      {{.contact = 0, .kind = NSED_CP_SLIPPING, .mu = 0.1, .sign = 0.0}, 1, 0, 0, 0, 0, NSED_ERR_INPUT, "spin 0: SLIPPING needs sign"},
      {{.contact = 0, .kind = NSED_CP_SLIPPING, .mu = 0.1, .sign = 0.5}, 1, 0, 0, 0, 0, NSED_ERR_INPUT, "spin 0: SLIPPING needs sign"},
      {{.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = -0.1}, 1, 0, 0, 0, 0, NSED_ERR_INPUT, "spin 0: torsional friction coefficient"},
      {{.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = NAN}, 1, 0, 0, 0, 0, NSED_ERR_INPUT, "spin 0: torsional friction coefficient"},
      {{.contact = 0, .kind = (nsed_cp_kind)7, .mu = 0.1}, 1, 0, 0, 0, 0, NSED_ERR_INPUT, "spin 0: kind 7 unknown"},
      {{.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = 0.1}, 1, 1, 0, 0, 0, NSED_ERR_NONFINITE, "G(3,1) = nan (spin 0's row)"},
      {{.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = 0.1}, 1, 0, 1, 0, 0, NSED_ERR_NONFINITE, "b(3) = nan (spin 0)"},
      {{.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = 0.1}, -1, 0, 0, 0, 0, NSED_ERR_INPUT, "torsional rows (spins) -1 is negative"},
      {{.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = 0.1}, 1, 0, 0, 1, 0, NSED_ERR_INPUT, "spins is NULL"},
      {{.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = 0.1}, 1, 0, 0, 0, 1, NSED_ERR_INPUT, "spin_mode or spin_sign is NULL"},
  };
  for (size_t q = 0; q < sizeof bad / sizeof bad[0]; q++) {
    double Gq[16], bq[4];
    memcpy(Gq, G, sizeof Gq);
    memcpy(bq, b, sizeof bq);
    if (bad[q].g_nan) Gq[1 * 4 + 3] = NAN;
    if (bad[q].b_nan) bq[3] = NAN;
    nsed_contact_problem p = {.nc = 1, .G = Gq, .b = bq, .contacts = &c, .nw = bad[q].nw,
                              .spins = bad[q].no_spins ? NULL : &bad[q].w};
    nsed_contact_solution sol = S.sol;
    if (bad[q].no_out) sol.spin_sign = NULL;
    int rc = nsed_contact_solve_accel(s, &p, &sol, &st, &err);
    CHECK_MSG(rc == bad[q].rc && strstr(err.message, bad[q].says), "bad input %zu: rc %d, message: %s", q, rc,
              err.message);
  }
  /* spins without contacts */
  nsed_cp_spin w0 = {.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = 0.1};
  nsed_contact_problem p0 = {.nc = 0, .G = G, .b = b, .contacts = &c, .nw = 1, .spins = &w0};
  int rc = nsed_contact_solve_accel(s, &p0, &S.sol, &st, &err);
  CHECK_MSG(rc == NSED_ERR_INPUT && strstr(err.message, "no contacts"), "%s", err.message);
  nsed_contact_solver_free(&s);
  ssol_free(&S);
}

int main(void) {
  test_floor();
  test_lever();
  test_impact();
  test_random();
  test_frictionless_row();
  test_refusals();
  return TEST_DONE();
}
