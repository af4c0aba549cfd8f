/* libFuzzer target: the contact-problem reader (nsed_contact_problem_read,
 * src/complementarity/cp_file.c), and the solver on what it accepts.
 *
 * On success the result is checked against the reader's contract (sizes in
 * range, every number finite, the solvers' input checks passed: the face
 * form's solve then returns a status, never an input error); on failure
 * nothing is left allocated and the message is set. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_cp_solve.h"
#include "fuzz_scratch.h"
#include "nsed/complementarity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = scratch_with(data, size, "cp");
  nsed_contact_problem_file f;
  nsed_error err;
  int rc = nsed_contact_problem_read(path, &f, &err);
  if (rc != NSED_OK) {
    if (f.G || f.b || f.contacts || f.spins || !err.message[0]) abort();
    return 0;
  }
  const nsed_contact_problem *p = &f.problem;
  if (p->nc < 1 || p->nw < 0 || p->nw > p->nc || p->G != f.G || p->b != f.b) abort();
  size_t n = (size_t)(3 * p->nc + p->nw);
  for (size_t k = 0; k < n * n; k++)
    if (!isfinite(f.G[k])) abort();
  for (size_t k = 0; k < n; k++)
    if (!isfinite(f.b[k])) abort();
  if (p->nc <= NSED_FUZZ_CP_MAX_CONTACTS) { /* solve the small ones: the solvers' own checks must agree */
    rc = nsed_fuzz_cp_solve(&f, &err);
    if (rc == NSED_ERR_INPUT || rc == -1000) abort();
  }
  nsed_contact_problem_file_free(&f);
  return 0;
}
