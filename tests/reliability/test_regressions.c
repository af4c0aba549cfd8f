/* Replays the fuzzers' regression inputs (tests/reliability/regressions/):
 *   problem/NAME   through the problem loader, split exactly as fuzz_problem
 *                  splits it (fuzz/fuzz_problem_input.h: text, "%%set", overrides)
 *   lcp/NAME       through the LCP file reader (nsed_lcp_read_file)
 *   cp/NAME        through the contact-problem reader and the face form's
 *                  solve, as fuzz/fuzz_cp_file.c runs them
 * Each must keep the loader's contract (a model or LCP exactly on success, a
 * message on failure); NAME.expect, when present, holds a substring the error
 * message must contain ("OK" = must load). Under ASan/UBSan (CI) the memory
 * errors the fuzzer found are caught again. Further directories given after
 * the first are replayed for the contract only (the fuzz seeds).
 * Usage: test_regressions REGRESSIONS_DIR [MORE_PROBLEM_DIRS...] */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"
#include "fuzz_cp_solve.h"
#include "fuzz_problem_input.h"
#include "nsed_test.h"

/* Contents of path into a malloc'ed buffer (NUL-terminated), or NULL. */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 == cap) {
      char *nb = realloc(buf, 2 * cap);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf) buf[n] = '\0';
  *len = n;
  return buf;
}

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && !strcmp(s + a - b, suf);
}

/* The expected substring for path (from path.expect), or NULL. */
static char *expectation(const char *path) {
  char ep[1200];
  snprintf(ep, sizeof ep, "%s.expect", path);
  size_t n;
  char *e = slurp(ep, &n);
  while (e && n && (e[n - 1] == '\n' || e[n - 1] == '\r')) e[--n] = '\0';
  return e;
}

static void check_outcome(const char *path, int rc, const char *msg, const char *expect) {
  if (!expect) return;
  if (!strcmp(expect, "OK")) {
    CHECK_MSG(rc == NSED_OK, "%s: expected to load, got %s: %s", path, nsed_status_name(rc), msg);
  } else {
    CHECK_MSG(rc != NSED_OK && strstr(msg, expect) != NULL, "%s: expected an error containing '%s', got %s: %s",
              path, expect, nsed_status_name(rc), msg);
  }
}

static int replay_problem(const char *path, int with_expect) {
  size_t len;
  char *data = slurp(path, &len);
  CHECK_MSG(data != NULL, "%s: cannot read", path);
  if (!data) return 0;
  nsed_model *m = NULL;
  nsed_error err;
  nsed_error_clear(&err);
  int rc = nsed_fuzz_problem_load((const uint8_t *)data, len, &m, &err);
  CHECK_MSG(rc != -1000, "%s: out of memory in the harness", path);
  CHECK_MSG((rc == NSED_OK) == (m != NULL), "%s: status %s but model %p", path, nsed_status_name(rc), (void *)m);
  CHECK_MSG(rc == NSED_OK || err.message[0], "%s: failed (%s) without a message", path, nsed_status_name(rc));
  char *expect = with_expect ? expectation(path) : NULL;
  check_outcome(path, rc, err.message, expect);
  free(expect);
  nsed_model_free(&m);
  free(data);
  return 1;
}

static int replay_lcp(const char *path) {
  int n = 0;
  double *M = NULL, *q = NULL;
  nsed_error err;
  nsed_error_clear(&err);
  int rc = nsed_lcp_read_file(path, &n, &M, &q, &err);
  CHECK_MSG((rc == NSED_OK) == (M != NULL && q != NULL && n >= 1), "%s: status %s but n = %d", path,
            nsed_status_name(rc), n);
  CHECK_MSG(rc == NSED_OK || err.message[0], "%s: failed without a message", path);
  char *expect = expectation(path);
  check_outcome(path, rc, err.message, expect);
  free(expect);
  free(M);
  free(q);
  return 1;
}

/* A contact-problem file through the reader and, if it loads, the solve
 * fuzz/fuzz_cp_file.c runs (fuzz_cp_solve.h): a status (never an input
 * error) and its message. */
static int replay_cp(const char *path) {
  nsed_contact_problem_file f;
  nsed_error err;
  nsed_error_clear(&err);
  int rc = nsed_contact_problem_read(path, &f, &err);
  CHECK_MSG(rc == NSED_OK || err.message[0], "%s: failed without a message", path);
  if (rc == NSED_OK && f.problem.nc >= 1 && f.problem.nc <= NSED_FUZZ_CP_MAX_CONTACTS) {
    rc = nsed_fuzz_cp_solve(&f, &err);
    CHECK_MSG(rc != -1000, "%s: the solver could not be created: %s", path, err.message);
    CHECK_MSG(rc != NSED_ERR_INPUT, "%s: the solver refused what the reader accepted: %s", path, err.message);
    CHECK_MSG(rc == NSED_OK || err.message[0], "%s: the solve failed without a message", path);
  }
  char *expect = expectation(path);
  check_outcome(path, rc, err.message, expect);
  free(expect);
  nsed_contact_problem_file_free(&f);
  return 1;
}

enum { REPLAY_PROBLEM, REPLAY_LCP, REPLAY_CP };

/* Replay every file of dir (not the .expect files); returns the count. */
static int replay_dir(const char *dir, int kind, int with_expect) {
  DIR *dp = opendir(dir);
  CHECK_MSG(dp != NULL, "cannot open %s", dir);
  if (!dp) return 0;
  int count = 0;
  struct dirent *e;
  while ((e = readdir(dp)) != NULL) {
    if (e->d_name[0] == '.' || ends_with(e->d_name, ".expect")) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    count += kind == REPLAY_LCP  ? replay_lcp(path)
             : kind == REPLAY_CP ? replay_cp(path)
                                 : replay_problem(path, with_expect);
  }
  closedir(dp);
  return count;
}

int main(int argc, char **argv) {
  CHECK_MSG(argc >= 2, "usage: test_regressions REGRESSIONS_DIR [MORE_PROBLEM_DIRS...]");
  if (argc < 2) return TEST_DONE();
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/problem", argv[1]);
  int np = replay_dir(dir, REPLAY_PROBLEM, 1);
  snprintf(dir, sizeof dir, "%s/lcp", argv[1]);
  int nl = replay_dir(dir, REPLAY_LCP, 1);
  snprintf(dir, sizeof dir, "%s/cp", argv[1]);
  int nc = replay_dir(dir, REPLAY_CP, 1);
  int ns = 0;
  for (int i = 2; i < argc; i++) ns += replay_dir(argv[i], REPLAY_PROBLEM, 0);
  printf("replayed %d problem, %d LCP and %d contact-problem regression inputs, %d seeds\n", np, nl, nc, ns);
  CHECK(np >= 2);
  return TEST_DONE();
}
