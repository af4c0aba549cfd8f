/* libFuzzer target: the LCP text reader (nsed_lcp_read_file, src/complementarity/lcp_file.c).
 *
 * On success the result is checked against the reader's contract: 1 <= n
 * <= 4096, M and q present and every entry finite. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_scratch.h"
#include "nsed/complementarity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = scratch_with(data, size, "lcp");
  int n = 0;
  double *M = NULL, *q = NULL;
  nsed_error err;
  int rc = nsed_lcp_read_file(path, &n, &M, &q, &err);
  if (rc == NSED_OK) {
    if (n < 1 || n > 4096 || !M || !q) abort();
    for (size_t k = 0; k < (size_t)n * (size_t)n; k++)
      if (!isfinite(M[k])) abort();
    for (int k = 0; k < n; k++)
      if (!isfinite(q[k])) abort();
  } else if (M || q || n || !err.message[0]) {
    abort();
  }
  free(M);
  free(q);
  return 0;
}
