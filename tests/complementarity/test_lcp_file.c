/* LCP files: nsed's reader agrees with Siconos' own reader
 * (linearComplementarity_newFromFilename) on every data file, a written file
 * reads back bit-exactly, and malformed files give located errors. */
#include <LinearComplementarityProblem.h>
#include <NumericsMatrix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp_internal.h"
#include "nsed_test.h"

static void compare_with_siconos(const char *path) {
  nsed_error err;
  int n = 0;
  double *M = NULL, *q = NULL;
  int rc = nsed_lcp_read_file(path, &n, &M, &q, &err);
  CHECK_MSG(rc == NSED_OK, "%s: %s", path, err.message);
  LinearComplementarityProblem *lcp = calloc(1, sizeof *lcp);
  (void)linearComplementarity_newFromFilename(lcp, path); /* its return code is not documented: compare the data */
  CHECK(lcp->size == n);
  int same = 1;
  for (int k = 0; k < n * n && rc == NSED_OK; k++) same &= lcp->M->matrix0[k] == M[k];
  for (int k = 0; k < n && rc == NSED_OK; k++) same &= lcp->q[k] == q[k];
  CHECK_MSG(same, "%s: nsed and Siconos read different numbers", path);
  freeLinearComplementarityProblem(lcp);
  free(M);
  free(q);
}

static void expect_error(const char *path, int status, const char *needle) {
  nsed_error err;
  int n = 0;
  double *M = NULL, *q = NULL;
  int rc = nsed_lcp_read_file(path, &n, &M, &q, &err);
  CHECK_MSG(rc == status && strstr(err.message, needle), "%s: rc %d message '%s'", path, rc, err.message);
  CHECK(M == NULL && q == NULL);
}

int main(int argc, char **argv) {
  /* argv: data files (read by both readers), then "--bad" and the bad files'
   * directory */
  for (int k = 1; k < argc && strcmp(argv[k], "--bad") != 0; k++) compare_with_siconos(argv[k]);
  const char *bad = argc > 2 ? argv[argc - 1] : ".";
  char p[1024];
  snprintf(p, sizeof p, "%s/nonfinite.dat", bad);
  expect_error(p, NSED_ERR_INPUT, "M(1,0) is not finite");
  snprintf(p, sizeof p, "%s/mismatch.dat", bad);
  expect_error(p, NSED_ERR_INPUT, "mismatched sizes");
  snprintf(p, sizeof p, "%s/short.dat", bad);
  expect_error(p, NSED_ERR_INPUT, "mismatched sizes");
  expect_error("/nonexistent/dir/x.dat", NSED_ERR_IO, "cannot open");
  /* round trip */
  double M[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2.0 / 3.0}, q[3] = {-1, 2e-300, -3.25};
  nsed_error err;
  char tmpl[] = "/tmp/nsed_lcp_XXXXXX";
  int fd = mkstemp(tmpl);
  CHECK(fd >= 0);
  if (fd >= 0) {
    close(fd);
    CHECK(nsed_lcp_write_file(tmpl, 3, M, q, &err) == NSED_OK);
    int n;
    double *M2, *q2;
    CHECK(nsed_lcp_read_file(tmpl, &n, &M2, &q2, &err) == NSED_OK && n == 3);
    CHECK(memcmp(M, M2, sizeof M) == 0 && memcmp(q, q2, sizeof q) == 0);
    compare_with_siconos(tmpl);
    free(M2);
    free(q2);
    /* a non-number where a number is due: located */
    FILE *f = fopen(tmpl, "w");
    fprintf(f, "2\n0\n2\n2\n2 2\n1 0\n0 x1\n-1 -1\n");
    fclose(f);
    expect_error(tmpl, NSED_ERR_INPUT, ":7: expected a number");
    f = fopen(tmpl, "w");
    fprintf(f, "2\n1\n2\n2\n");
    fclose(f);
    expect_error(tmpl, NSED_ERR_INPUT, "storage type 1 not supported");
    remove(tmpl);
  }
  return TEST_DONE();
}
