/* LCP files in Siconos Numerics' text format (what its
 * linearComplementarity_printInFile writes and _newFromFilename reads):
 *     n
 *     0                 storage type (0 = dense; sparse ones are refused)
 *     size0
 *     size1
 *     size0 size1       the dense block's own header
 *     M                 size0*size1 numbers, column-major (one column a line)
 *     q                 n numbers
 * Anything after q that is not a number (Siconos' data files carry remarks)
 * is ignored. nsed's own parser, so a malformed file gives a message with the
 * line instead of Siconos' fscanf on garbage; a file without the "size0 size1"
 * line is accepted when the count of numbers says so. */
#include "cp_internal.h"
#include "text_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LCP_FILE_MAX_N 4096

int nsed_lcp_read_file(const char *path, int *n_out, double **M_out, double **q_out, nsed_error *err) {
  *n_out = 0;
  *M_out = *q_out = NULL;
  nsedi_text r;
  int rc = nsedi_text_load(path, 0, &r, err);
  if (rc) return rc;
  long n = 0, st = 0, s0 = 0, s1 = 0;
  double *M = NULL, *q = NULL;
  if ((rc = nsedi_text_int(&r, "LCP size", &n, err)) != NSED_OK) goto fail;
  if (n < 1 || n > LCP_FILE_MAX_N) {
    rc = nsed_error_set(err, NSED_ERR_INPUT, "%s: LCP size %ld out of range [1, %d]", path, n, LCP_FILE_MAX_N);
    goto fail;
  }
  if ((rc = nsedi_text_int(&r, "matrix storage type", &st, err)) != NSED_OK) goto fail;
  if (st != 0) {
    rc = nsed_error_set(err, NSED_ERR_INPUT, "%s: matrix storage type %ld not supported (only 0, dense)", path, st);
    goto fail;
  }
  if ((rc = nsedi_text_int(&r, "matrix row count", &s0, err)) != NSED_OK) goto fail;
  if ((rc = nsedi_text_int(&r, "matrix column count", &s1, err)) != NSED_OK) goto fail;
  if (s0 != n || s1 != n) {
    rc = nsed_error_set(err, NSED_ERR_INPUT, "%s: mismatched sizes: LCP size %ld but matrix %ld x %ld",
                        path, n, s0, s1);
    goto fail;
  }
  size_t nn = (size_t)n * (size_t)n, need = nn + (size_t)n;
  /* Collect the numbers (need + 2 at most, for the optional dense header). */
  double *vals = calloc(need + 2, sizeof(double)); /* calloc: keeps -Wmaybe-uninitialized quiet */
  int *lines = malloc(sizeof(int) * (need + 2));
  if (!vals || !lines) {
    free(vals);
    free(lines);
    rc = nsed_error_set(err, NSED_ERR_NOMEM, "%s: out of memory for an LCP of size %ld", path, n);
    goto fail;
  }
  size_t cnt = 0;
  char tok[128];
  int line = 0, bad_line = 0;
  char bad[128] = "";
  while (cnt < need + 2 && nsedi_text_next(&r, tok, sizeof tok, &line)) {
    double v;
    if (!nsedi_text_number(tok, &v)) {
      bad_line = line;
      snprintf(bad, sizeof bad, "%s", tok);
      break;
    }
    lines[cnt] = line;
    vals[cnt++] = v;
  }
  /* With the dense header pair: need + 2 numbers; without it: exactly need. */
  size_t off = 0;
  int ok = 0;
  if (cnt == need + 2 && vals[0] == (double)s0 && vals[1] == (double)s1) {
    off = 2;
    char t2[128];
    int l2 = 0;
    double v;
    ok = !(nsedi_text_next(&r, t2, sizeof t2, &l2) && nsedi_text_number(t2, &v)); /* no extra number */
    if (!ok) cnt++;
  } else if (cnt == need) {
    ok = 1;
  }
  if (!ok) {
    if (bad_line && cnt < need)
      rc = nsed_error_set(err, NSED_ERR_INPUT,
                          "%s:%d: expected a number (%zu of %zu after the header: %ld x %ld matrix, "
                          "q of %ld), found '%s'",
                          path, bad_line, cnt + 1, need, n, n, n, bad);
    else
      rc = nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: mismatched sizes: %s%zu numbers after the header, expected %zu "
                          "(%ld x %ld matrix and q of %ld, after an optional '%ld %ld' line)",
                          path, cnt > need + 1 ? "at least " : "", cnt, need, n, n, n, n, n);
    free(vals);
    free(lines);
    goto fail;
  }
  for (size_t k = 0; k < need; k++)
    if (!isfinite(vals[off + k])) {
      if (k < nn)
        rc = nsed_error_set(err, NSED_ERR_INPUT, "%s:%d: M(%zu,%zu) is not finite (%g)", path,
                            lines[off + k], k % (size_t)n, k / (size_t)n, vals[off + k]);
      else
        rc = nsed_error_set(err, NSED_ERR_INPUT, "%s:%d: q(%zu) is not finite (%g)", path,
                            lines[off + k], k - nn, vals[off + k]);
      free(vals);
      free(lines);
      goto fail;
    }
  M = malloc(sizeof(double) * nn);
  q = malloc(sizeof(double) * (size_t)n);
  if (!M || !q) {
    free(vals);
    free(lines);
    rc = nsed_error_set(err, NSED_ERR_NOMEM, "%s: out of memory for an LCP of size %ld", path, n);
    goto fail;
  }
  memcpy(M, vals + off, sizeof(double) * nn);
  memcpy(q, vals + off + nn, sizeof(double) * (size_t)n);
  free(vals);
  free(lines);
  nsedi_text_free(&r);
  *n_out = (int)n;
  *M_out = M;
  *q_out = q;
  return NSED_OK;
fail:
  free(M);
  free(q);
  nsedi_text_free(&r);
  return rc;
}

/* Written to a temporary sibling and renamed into place, so that path holds
 * either the old file or the whole new one. */
int nsed_lcp_write_file(const char *path, int n, const double *M, const double *q, nsed_error *err) {
  char *tmp = NULL;
  FILE *f = NULL;
  int rc = nsedi_text_create(path, &f, &tmp, err);
  if (rc) return rc;
  int bad = fprintf(f, "%d\n0\n%d\n%d\n%d %d\n", n, n, n, n, n) < 0;
  for (int j = 0; j < n && !bad; j++) {
    for (int i = 0; i < n && !bad; i++) bad = fprintf(f, "%.17g ", M[(size_t)j * n + i]) < 0;
    bad = bad || fputc('\n', f) == EOF;
  }
  for (int i = 0; i < n && !bad; i++) bad = fprintf(f, "%.17g ", q[i]) < 0;
  bad = bad || fputc('\n', f) == EOF;
  return nsedi_text_commit(f, tmp, path, bad, err);
}
