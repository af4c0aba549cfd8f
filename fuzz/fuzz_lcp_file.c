/* libFuzzer target: the LCP text reader (nsed_lcp_read_file, src/complementarity/lcp_file.c).
 *
 * The reader takes a path (that is how `nsed lcp` and the tests use it), so
 * each input is written to one scratch file created at start-up (in /dev/shm
 * when it exists: no disk traffic) and read back. On success the result is
 * checked against the reader's contract: 1 <= n <= 4096, M and q present and
 * every entry finite. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nsed/complementarity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[256];
static int scratch_fd = -1;

static void remove_scratch(void) {
  if (scratch_fd >= 0) unlink(scratch);
}

static int open_scratch(void) {
  const char *dirs[] = {"/dev/shm", getenv("TMPDIR"), "/tmp"};
  for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
    if (!dirs[k]) continue;
    snprintf(scratch, sizeof scratch, "%s/nsed-fuzz-lcp-XXXXXX", dirs[k]);
    scratch_fd = mkstemp(scratch);
    if (scratch_fd >= 0) {
      atexit(remove_scratch);
      return 0;
    }
  }
  return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (scratch_fd < 0 && open_scratch() != 0) abort(); /* no scratch file: nothing can be fuzzed */
  if (ftruncate(scratch_fd, 0) != 0) abort();
  size_t off = 0;
  while (off < size) {
    ssize_t w = pwrite(scratch_fd, data + off, size - off, (off_t)off);
    if (w <= 0) abort();
    off += (size_t)w;
  }
  int n = 0;
  double *M = NULL, *q = NULL;
  nsed_error err;
  int rc = nsed_lcp_read_file(scratch, &n, &M, &q, &err);
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
