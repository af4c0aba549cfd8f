/* nsed lcp [--path auto|siconos|nsed|enum|milp] FILE...
 *
 * Solves LCPs stored in Siconos' text format and prints one line per file:
 *   FILE n=N solved|infeasible|failed residual=R pivots=P us=T path=PATH
 * (residual: nsed's verified relative residual; us: one solve, wall clock),
 * then `solved S of N`. Exit status: 0 if every problem was solved, 1 if some
 * were not, 2 on bad usage or an unreadable/malformed file (reported on
 * stderr, the other files are still solved). */
#include "commands.h"
#include "nsed/complementarity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *f) {
  fprintf(f, "usage: nsed lcp [--path auto|siconos|nsed|enum|milp] FILE...\n"
             "Solve LCPs w = Mz + q, 0 <= z _|_ w >= 0 stored in Siconos' text format\n"
             "(n, 0, n, n, \"n n\", then M column by column, then q) and print one line per\n"
             "file: FILE n=N solved|infeasible|failed residual=R pivots=P us=T path=PATH,\n"
             "then `solved S of N`. Every answer is verified (residual of the\n"
             "complementarity conditions); docs/complementarity.md.\n"
             "\n"
             "  --path P     the LCP path: auto (default: the two Lemkes, the regularised\n"
             "               Lemke, then the exhaustive enumeration for n <= 16 or the\n"
             "               mixed-integer search (GLPK) above, until one answer\n"
             "               verifies), or only siconos, nsed, enum (the enumeration\n"
             "               proves infeasibility) or milp\n"
             "  -h, --help   this help\n"
             "\n"
             "Example: nsed lcp --path nsed tests/data/lcp/*.dat\n"
             "Exit status: 0 every problem solved, 1 some not solved or infeasible, 2 bad\n"
             "usage or an unreadable or malformed file.\n");
}

int nsedi_lcp_path_named(const char *name, nsed_lcp_path *path) {
  static const char *const names[] = {"auto", "siconos", "nsed", "enum", "milp"};
  static const nsed_lcp_path paths[] = {NSED_LCP_PATH_AUTO, NSED_LCP_PATH_SICONOS_LEMKE,
                                        NSED_LCP_PATH_NSED_LEMKE, NSED_LCP_PATH_ENUM,
                                        NSED_LCP_PATH_MILP};
  for (int k = 0; k < 5; k++)
    if (strcmp(name, names[k]) == 0) {
      *path = paths[k];
      return 1;
    }
  return 0;
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

int nsedi_cmd_lcp(int argc, char **argv) {
  nsed_complementarity_settings set;
  nsed_complementarity_default_settings(&set);
  int first = 1;
  while (first < argc && strncmp(argv[first], "--", 2) == 0) {
    const char *a = argv[first];
    if (strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(a, "--") == 0) {
      first++;
      break;
    }
    const char *v = NULL;
    if (strcmp(a, "--path") == 0 && first + 1 < argc) {
      v = argv[first + 1];
      first += 2;
    } else if (strncmp(a, "--path=", 7) == 0) {
      v = a + 7;
      first += 1;
    } else {
      fprintf(stderr, "nsed lcp: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    }
    if (!nsedi_lcp_path_named(v, &set.path)) {
      fprintf(stderr, "nsed lcp: unknown path '%s' (auto, siconos, nsed, enum or milp)\n", v);
      return 2;
    }
  }
  if (first >= argc) {
    usage(stderr);
    return 2;
  }
  nsed_error err;
  nsed_error_clear(&err);
  nsed_contact_solver *s = NULL;
  if (nsed_contact_solver_create(&set, 1, &s, &err) != NSED_OK) {
    fprintf(stderr, "nsed lcp: %s\n", err.message);
    return 1;
  }
  int solved = 0, total = 0, bad = 0;
  for (int k = first; k < argc; k++) {
    total++;
    int n = 0;
    double *M = NULL, *q = NULL;
    int rc = nsed_lcp_read_file(argv[k], &n, &M, &q, &err);
    if (rc != NSED_OK) {
      fprintf(stderr, "nsed lcp: %s\n", err.message);
      printf("%s n=0 bad-input residual=nan pivots=0 us=0 path=none\n", argv[k]);
      bad = 1;
      continue;
    }
    double *z = malloc(sizeof(double) * (size_t)n), *w = malloc(sizeof(double) * (size_t)n);
    if (!z || !w) {
      fprintf(stderr, "nsed lcp: %s: out of memory\n", argv[k]);
      free(z), free(w), free(M), free(q);
      bad = 1;
      continue;
    }
    nsed_lcp_stats st;
    double t0 = now_us();
    rc = nsed_lcp_solve(s, n, M, q, z, w, &st, &err);
    double us = now_us() - t0;
    const char *what = rc == NSED_OK ? "solved" : (rc == NSED_LCP_INFEASIBLE ? "infeasible" : "failed");
    printf("%s n=%d %s residual=%.3g pivots=%d us=%.1f path=%s%s\n", argv[k], n, what, st.residual,
           st.pivots, us, st.path, st.siconos_failed ? " (siconos-lemke rejected)" : "");
    if (rc == NSED_OK)
      solved++;
    else
      fprintf(stderr, "nsed lcp: %s: %s\n", argv[k], err.message);
    free(z), free(w), free(M), free(q);
  }
  printf("solved %d of %d\n", solved, total);
  nsed_contact_solver_free(&s);
  if (bad) return 2;
  return solved == total ? 0 : 1;
}
