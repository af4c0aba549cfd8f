/* 1000 random multi-contact problems (fixed seed): 1-12 contacts, polygons of
 * 4-32 edges, Delassus matrices G = J M^-1 J^T from random Jacobians with
 * 2..3nc+6 columns (rank-deficient whenever that is below 3nc), b = J y with
 * the contacts pushed in. Every problem must be solved (LCP residual <= 1e-12,
 * verified by the library) and its forces must pass independent physical
 * checks here: signs, normal complementarity, the friction polygon, stick
 * means a_T = 0, slip means maximal dissipation. Prints which path answered
 * and how often Siconos' Lemke, where it ran, was rejected. NSED_LCP_DUMP=DIR
 * writes the LCPs Siconos failed on. */
#include <stdio.h>
#include <stdlib.h>

#include "cp_internal.h"
#include "cp_test_util.h"
#include "nsed_test.h"

#define NPROB 1000
#define MAXC 12

int main(void) {
  cpt_rng rng = {0x5eed2024ull};
  const char *dump = getenv("NSED_LCP_DUMP");
  int solved = 0, sic_failed = 0, face_direct = 0, dumped = 0, total_n = 0;
  int by_path[8] = {0};
  double worst = 0.0;
  for (int model = 0; model < 2; model++) {
    nsed_complementarity_settings set;
    nsed_complementarity_default_settings(&set);
    set.tol = 1e-12;
    set.model = model ? NSED_FRICTION_POLYGON_VERTEX : NSED_FRICTION_POLYGON_FACE;
    nsed_contact_solver *s = NULL;
    nsed_error err;
    CHECK(nsed_contact_solver_create(&set, 4, &s, &err) == NSED_OK);
    for (int t = 0; t < NPROB / 2; t++) {
      int nc = cpt_int(&rng, 1, MAXC), sides = 4 * cpt_int(&rng, 1, 8), n3 = 3 * nc;
      int k = cpt_int(&rng, 2, n3 + 6);
      double *J = malloc(sizeof(double) * (size_t)n3 * (size_t)k), *minv = malloc(sizeof(double) * (size_t)k);
      double *G = malloc(sizeof(double) * (size_t)n3 * (size_t)n3), *b = malloc(sizeof(double) * (size_t)n3);
      double *y = malloc(sizeof(double) * (size_t)k);
      cpt_random_system(&rng, n3, k, J, minv, y);
      /* column 0 lifts every contact (so the normal problem is feasible) and
       * gravity pushes along it */
      for (int i = 0; i < nc; i++) J[3 * i] = 0.5 + cpt_unif(&rng);
      y[0] -= 3.0 * cpt_unif(&rng);
      cpt_apply(n3, k, J, y, b);
      cpt_delassus(n3, k, J, minv, G);
      nsed_cp_contact c[MAXC];
      for (int i = 0; i < nc; i++) {
        double u = cpt_unif(&rng);
        c[i] = (nsed_cp_contact){.kind = u < 0.1 ? NSED_CP_FRICTIONLESS : NSED_CP_STICK_CANDIDATE,
                                 .mu0 = 0.1 + 0.9 * cpt_unif(&rng)};
      }
      set.sides = sides;
      nsed_contact_solver_free(&s);
      CHECK(nsed_contact_solver_create(&set, nc, &s, &err) == NSED_OK);
      nsed_contact_problem p = {.nc = nc, .G = G, .b = b, .contacts = c};
      cpt_sol S;
      cpt_sol_init(&S, nc);
      nsed_lcp_stats st;
      int rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
      CHECK_MSG(rc == NSED_OK, "problem %d (%s, %d contacts, %d edges, rank <= %d): %s", t,
                model ? "vertex" : "face", nc, sides, k, err.message);
      if (rc == NSED_OK) {
        solved++;
        total_n += st.lcp_size;
        CHECK_MSG(st.residual <= 1e-12, "problem %d residual %.3g", t, st.residual);
        worst = fmax(worst, st.residual);
        if (st.siconos_failed) sic_failed++;
        if (strncmp(st.path, "face/", 5) == 0) face_direct++;
        const char *m = strchr(st.path, '/') ? strchr(st.path, '/') + 1 : st.path;
        static const char *names[] = {"trivial", "siconos-lemke", "nsed-lemke", "nsed-lemke+reg", "enum"};
        for (int q = 0; q < 5; q++)
          if (strcmp(m, names[q]) == 0) by_path[q]++;
        if (dump && st.siconos_failed && dumped < 6 && st.lcp_size <= 60) {
          char path[512];
          snprintf(path, sizeof path, "%s/random_%s_%dc_%de_%03d.dat", dump, model ? "vertex" : "face", nc,
                   sides, t);
          if (nsed_lcp_write_file(path, st.lcp_size, s->ws.M, s->ws.q, &err) == NSED_OK) dumped++;
        }
        /* independent physical checks */
        double lmax = 0, gmax = 0, bmax = 0;
        for (int r = 0; r < n3; r++) lmax = fmax(lmax, fabs(S.lambda[r])), bmax = fmax(bmax, fabs(b[r]));
        for (size_t q = 0; q < (size_t)n3 * n3; q++) gmax = fmax(gmax, fabs(G[q]));
        double tl = 1e-9 * fmax(lmax, bmax / fmax(gmax, 1e-300)), ta = 1e-9 * fmax(bmax, gmax * lmax);
        int fails_before = nsed_test_failures;
        for (int i = 0; i < nc; i++) {
          double ln = S.lambda[3 * i], an = S.a[3 * i], l1 = S.lambda[3 * i + 1], l2 = S.lambda[3 * i + 2];
          double a1 = S.a[3 * i + 1], a2 = S.a[3 * i + 2];
          CHECK(ln >= -tl && an >= -ta);
          CHECK(fmin(ln / fmax(lmax, 1e-300), an / fmax(ta * 1e9, 1e-300)) <= 1e-9);
          if (c[i].kind == NSED_CP_FRICTIONLESS) {
            CHECK(l1 == 0.0 && l2 == 0.0);
            continue;
          }
          /* inside the polygon: face form circumscribed (faces at 2 pi j/m),
           * vertex form inscribed (faces at pi/m + 2 pi j/m, distance cos(pi/m)) */
          double h = 2 * M_PI / sides, off = model ? h / 2 : 0.0, rad = model ? cos(M_PI / sides) : 1.0;
          for (int j = 0; j < sides; j++)
            CHECK_MSG(cos(off + j * h) * l1 + sin(off + j * h) * l2 <= c[i].mu0 * ln * rad + tl,
                      "problem %d (%s, %s) contact %d face %d/%d: %.9g > %.9g", t, model ? "vertex" : "face",
                      st.path, i, j, sides, cos(off + j * h) * l1 + sin(off + j * h) * l2, c[i].mu0 * ln * rad);
          if (S.mode[i] == NSED_CP_STICK) {
            CHECK(hypot(a1, a2) <= 1e-8 * fmax(bmax, gmax * lmax));
          } else if (S.mode[i] == NSED_CP_SLIP) {
            /* maximal dissipation: -a_T . lambda_T = max over the polygon */
            double hmax = 0.0, vr = model ? 1.0 : 1.0 / cos(M_PI / sides), voff = model ? 0.0 : h / 2;
            for (int j = 0; j < sides; j++)
              hmax = fmax(hmax, -c[i].mu0 * ln * vr * (cos(voff + j * h) * a1 + sin(voff + j * h) * a2));
            CHECK_MSG(-(a1 * l1 + a2 * l2) >= hmax - 1e-8 * lmax * fmax(bmax, gmax * lmax),
                      "problem %d contact %d: dissipation %.6g < max %.6g", t, i, -(a1 * l1 + a2 * l2), hmax);
          }
        }
        if (dump && nsed_test_failures > fails_before) {
          char path[512];
          snprintf(path, sizeof path, "%s/physfail_%s_%03d.dat", dump, model ? "vertex" : "face", t);
          nsed_lcp_write_file(path, st.lcp_size, s->ws.M, s->ws.q, &err);
        }
      }
      cpt_sol_free(&S);
      free(J), free(minv), free(G), free(b), free(y);
    }
    nsed_contact_solver_free(&s);
  }
  printf("random contact LCPs: %d of %d solved (worst residual %.2e, mean LCP size %.1f)\n", solved, NPROB,
         worst, solved ? (double)total_n / solved : 0.0);
  /* AUTO runs Siconos' Lemke only after nsed's has failed, so this counts
   * where it ran and was rejected. */
  printf("  Siconos' Lemke ran and was rejected on %d of %d\n", sic_failed, NPROB);
  printf("  paths: trivial %d, siconos-lemke %d, nsed-lemke %d, nsed-lemke+reg %d, enum %d; face form direct %d, "
         "via vertex %d of %d\n",
         by_path[0], by_path[1], by_path[2], by_path[3], by_path[4], face_direct, NPROB / 2 - face_direct, NPROB / 2);
  CHECK(solved == NPROB);
  return TEST_DONE();
}
