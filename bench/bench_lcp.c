/* Microseconds per contact solve (acceleration level, face form, random
 * Delassus matrices of full rank as in tests/complementarity/test_lcp_random.c)
 * for 1x4, 1x8, 4x4, 4x8, 12x4, 12x8 (contacts x edges): nsed's AUTO path
 * against Siconos' Lemke alone (NSED_LCP_PATH_SICONOS_LEMKE) and nsed's
 * Lemke alone (NSED_LCP_PATH_NSED_LEMKE), all verified, in one run. Reports
 * how many of the problems each path solved, the time ratios on the
 * problems all three solved, and AUTO's mean over every problem (the ones
 * Siconos fails included: what a simulation pays). Not a timed assertion.
 *   usage: bench_lcp [problems per size (default 50)] [repetitions (default 20)]
 *                    [CxE ...: contacts (1..12) x edges (a multiple of 4 up to 64);
 *                     default the six above] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "nsed/complementarity.h"
#include "../tests/complementarity/cp_test_util.h"

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

typedef struct {
  double *G, *b;
  nsed_cp_contact c[12];
} problem;

static void make(cpt_rng *rng, int nc, problem *p) {
  int n3 = 3 * nc, k = n3 + 6;
  double *J = malloc(sizeof(double) * (size_t)n3 * k), *minv = malloc(sizeof(double) * k),
         *y = malloc(sizeof(double) * k);
  p->G = malloc(sizeof(double) * (size_t)n3 * n3);
  p->b = malloc(sizeof(double) * (size_t)n3);
  for (int d = 0; d < k; d++) {
    minv[d] = 0.5 + 1.5 * cpt_unif(rng);
    y[d] = 2.0 * cpt_unif(rng) - 1.0;
    for (int r = 0; r < n3; r++) J[(size_t)d * n3 + r] = 2.0 * cpt_unif(rng) - 1.0;
  }
  for (int i = 0; i < nc; i++) J[3 * i] = 0.5 + cpt_unif(rng);
  y[0] -= 3.0 * cpt_unif(rng);
  for (int r = 0; r < n3; r++) {
    double v = 0.0;
    for (int d = 0; d < k; d++) v += J[(size_t)d * n3 + r] * y[d];
    p->b[r] = v;
  }
  cpt_delassus(n3, k, J, minv, p->G);
  for (int i = 0; i < nc; i++) p->c[i] = (nsed_cp_contact){.kind = NSED_CP_STICK_CANDIDATE, .mu0 = 0.3};
  free(J), free(minv), free(y);
}

int main(int argc, char **argv) {
  int nprob = argc > 1 ? atoi(argv[1]) : 50, reps = argc > 2 ? atoi(argv[2]) : 20;
  enum { MAX_SIZES = 32 };
  int sizes[MAX_SIZES][2] = {{1, 4}, {1, 8}, {4, 4}, {4, 8}, {12, 4}, {12, 8}}, nsize = 6;
  if (argc > 3) nsize = 0;
  for (int i = 3; i < argc && nsize < MAX_SIZES; i++, nsize++) {
    char tail = 0;
    int *sz = sizes[nsize];
    if (sscanf(argv[i], "%dx%d%c", &sz[0], &sz[1], &tail) != 2 || sz[0] < 1 || sz[0] > 12 ||
        sz[1] < 4 || sz[1] > 64 || sz[1] % 4) {
      nprob = 0; /* reported below */
      break;
    }
  }
  if (nprob < 1 || reps < 1 || argc - 3 > MAX_SIZES) {
    fprintf(stderr, "usage: bench_lcp [problems per size] [repetitions] [CxE ...] (contacts 1..12 x "
                    "edges a multiple of 4 up to 64, at most %d sizes)\n", MAX_SIZES);
    return 2;
  }
  printf("contact solve, face form, mu0 = 0.3, %d random problems per size x %d repetitions\n", nprob, reps);
  printf("%-8s %5s | %11s %7s | %11s %7s | %11s %7s | %10s %10s | %11s\n", "size", "LCP",
         "siconos us", "solved", "nsed-lemke", "solved", "auto us", "solved", "nsed/sic", "auto/sic",
         "auto all us");
  cpt_rng rng = {0xbe4c11ull};
  for (int si = 0; si < nsize; si++) {
    int nc = sizes[si][0], edges = sizes[si][1];
    enum { NV = 3 };
    static const nsed_lcp_path paths[NV] = {NSED_LCP_PATH_SICONOS_LEMKE, NSED_LCP_PATH_NSED_LEMKE,
                                            NSED_LCP_PATH_AUTO};
    double tsum[NV] = {0}, t_auto_all = 0.0;
    int okn[NV] = {0}, all = 0, lcp = 0;
    nsed_contact_solver *solv[NV];
    for (int v = 0; v < NV; v++) {
      nsed_complementarity_settings set;
      nsed_complementarity_default_settings(&set);
      set.sides = edges;
      set.path = paths[v];
      nsed_error err;
      if (nsed_contact_solver_create(&set, nc, &solv[v], &err) != NSED_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
      }
    }
    double *lam = malloc(sizeof(double) * 3 * nc), *a = malloc(sizeof(double) * 3 * nc),
           *sd = malloc(sizeof(double) * 2 * nc);
    nsed_cp_mode *mode = malloc(sizeof(nsed_cp_mode) * nc);
    nsed_contact_solution sol = {.lambda = lam, .a = a, .mode = mode, .slip_dir = sd};
    for (int t = 0; t < nprob; t++) {
      problem pr;
      make(&rng, nc, &pr);
      nsed_contact_problem p = {.nc = nc, .G = pr.G, .b = pr.b, .contacts = pr.c};
      double us[NV];
      int ok[NV];
      for (int v = 0; v < NV; v++) {
        nsed_lcp_stats st;
        nsed_error err;
        ok[v] = nsed_contact_solve_accel(solv[v], &p, &sol, &st, &err) == NSED_OK;
        lcp = st.lcp_size;
        double t0 = now_us();
        for (int r = 0; r < reps; r++) (void)nsed_contact_solve_accel(solv[v], &p, &sol, &st, &err);
        us[v] = (now_us() - t0) / reps;
      }
      for (int v = 0; v < NV; v++) okn[v] += ok[v];
      t_auto_all += us[2];
      if (ok[0] && ok[1] && ok[2]) {
        all++;
        for (int v = 0; v < NV; v++) tsum[v] += us[v];
      }
      free(pr.G), free(pr.b);
    }
    char name[16];
    snprintf(name, sizeof name, "%dx%d", nc, edges);
    double den = all ? (double)all : 1.0;
    printf("%-8s %5d | %11.2f %3d/%-3d | %11.2f %3d/%-3d | %11.2f %3d/%-3d | %10.2f %10.2f | %11.2f\n",
           name, lcp, tsum[0] / den, okn[0], nprob, tsum[1] / den, okn[1], nprob, tsum[2] / den,
           okn[2], nprob, tsum[0] > 0 ? tsum[1] / tsum[0] : 0.0, tsum[0] > 0 ? tsum[2] / tsum[0] : 0.0,
           t_auto_all / nprob);
    free(lam), free(a), free(sd), free(mode);
    for (int v = 0; v < NV; v++) nsed_contact_solver_free(&solv[v]);
  }
  printf("times: mean over the problems all three paths solved (each alone plus nsed's verification;\n"
         "failures are reported, not timed); nsed/sic and auto/sic their ratios to Siconos' Lemke;\n"
         "auto all: AUTO's mean over every problem, those Siconos fails included.\n");
  return 0;
}
