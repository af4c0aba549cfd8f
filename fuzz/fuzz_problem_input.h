/* The problem fuzzer's input format, shared with the regression replay test
 * (tests/reliability/test_regressions.c) so a crash file found by the fuzzer
 * replays exactly as the fuzzer ran it.
 *
 * Layout: problem text, then optionally a line "%%set" after which every
 * line is one --set override (at most NSED_FUZZ_MAX_SET). One input thus
 * exercises YAML parsing, override path resolution and value parsing,
 * validation and the model builder together, as `nsed run FILE --set ...`
 * does. The problem part goes in an exact-size buffer without a NUL:
 * nsed_problem_load_string takes (text, len), and ASan then catches any read
 * past len. */
#ifndef NSED_FUZZ_PROBLEM_INPUT_H
#define NSED_FUZZ_PROBLEM_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/io.h"

#define NSED_FUZZ_MAX_SET 8

/* Offset of the separator line "%%set" (at the start or after a newline),
 * or size; *after: where the override lines start. */
static size_t nsed_fuzz_find_separator(const uint8_t *data, size_t size, size_t *after) {
  static const char sep[] = "%%set";
  const size_t sl = sizeof sep - 1;
  for (size_t i = 0; i + sl <= size; i++) {
    if ((i == 0 || data[i - 1] == '\n') && !memcmp(data + i, sep, sl) &&
        (i + sl == size || data[i + sl] == '\n')) {
      *after = i + sl + (i + sl < size);
      return i;
    }
  }
  *after = size;
  return size;
}

/* Split data as above and load it; returns nsed_problem_load_string's status
 * (-1000 if the fuzz harness itself is out of memory). */
static int nsed_fuzz_problem_load(const uint8_t *data, size_t size, nsed_model **m, nsed_error *err) {
  size_t rest = 0;
  size_t plen = nsed_fuzz_find_separator(data, size, &rest);
  char *text = malloc(plen ? plen : 1);
  if (!text) return -1000;
  if (plen) memcpy(text, data, plen);

  /* Overrides: NUL-terminated copies (the API takes C strings). */
  char *sets[NSED_FUZZ_MAX_SET];
  int nset = 0;
  size_t i = rest;
  while (i < size && nset < NSED_FUZZ_MAX_SET) {
    size_t j = i;
    while (j < size && data[j] != '\n') j++;
    char *s = malloc(j - i + 1);
    if (!s) break;
    memcpy(s, data + i, j - i);
    s[j - i] = '\0';
    sets[nset++] = s;
    i = j + 1;
  }
  int rc = nsed_problem_load_string(text, plen, "<fuzz>", (const char *const *)sets, nset, m, err);
  for (int k = 0; k < nset; k++) free(sets[k]);
  free(text);
  return rc;
}

#endif
