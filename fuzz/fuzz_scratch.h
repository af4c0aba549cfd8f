/* The readers under fuzzing take a path (as `nsed lcp`, `nsed cp` and the
 * tests use them), so each input is written to one scratch file created at
 * start-up (in /dev/shm when it exists: no disk traffic) and read back. */
#ifndef NSED_FUZZ_SCRATCH_H
#define NSED_FUZZ_SCRATCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char scratch[256];
static int scratch_fd = -1;

static void remove_scratch(void) {
  if (scratch_fd >= 0) unlink(scratch);
}

/* The input as the scratch file's whole content; its path (aborts if no
 * scratch file can be made: nothing could be fuzzed). */
static const char *scratch_with(const uint8_t *data, size_t size, const char *tag) {
  if (scratch_fd < 0) {
    const char *dirs[] = {"/dev/shm", getenv("TMPDIR"), "/tmp"};
    for (size_t k = 0; k < sizeof dirs / sizeof dirs[0] && scratch_fd < 0; k++) {
      if (!dirs[k]) continue;
      snprintf(scratch, sizeof scratch, "%s/nsed-fuzz-%s-XXXXXX", dirs[k], tag);
      scratch_fd = mkstemp(scratch);
    }
    if (scratch_fd < 0) abort();
    atexit(remove_scratch);
  }
  if (ftruncate(scratch_fd, 0) != 0) abort();
  size_t off = 0;
  while (off < size) {
    ssize_t w = pwrite(scratch_fd, data + off, size - off, (off_t)off);
    if (w <= 0) abort();
    off += (size_t)w;
  }
  return scratch;
}

#endif
