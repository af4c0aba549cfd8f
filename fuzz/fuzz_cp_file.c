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
  if (p->nc <= 8) { /* solve the small ones: the solvers' own checks must agree */
    nsed_complementarity_settings set;
    nsed_complementarity_default_settings(&set);
    set.max_pivots = 200;
    nsed_contact_solver *s = NULL;
    double lambda[3 * 8 + 8], a[3 * 8 + 8], dir[16], wsign[8];
    nsed_cp_mode mode[8], wmode[8];
    nsed_contact_solution sol = {.lambda = lambda, .a = a, .mode = mode, .slip_dir = dir,
                                 .spin_mode = wmode, .spin_sign = wsign};
    nsed_lcp_stats st;
    if (nsed_contact_solver_create(&set, p->nc, &s, &err) != NSED_OK) abort();
    rc = f.impact ? nsed_contact_solve_impact(s, p, &sol, &st, &err)
                  : nsed_contact_solve_accel(s, p, &sol, &st, &err);
    if (rc == NSED_ERR_INPUT) abort();
    nsed_contact_solver_free(&s);
  }
  nsed_contact_problem_file_free(&f);
  return 0;
}
