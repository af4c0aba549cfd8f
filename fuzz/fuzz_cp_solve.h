/* How the contact-problem fuzzer solves what the reader accepts, shared with
 * the regression replay test (tests/reliability/test_regressions.c) so a
 * file found by the fuzzer replays exactly as the fuzzer ran it: problems of
 * at most 8 contacts, the face form (the default settings) held to 200
 * pivots. */
#ifndef NSED_FUZZ_CP_SOLVE_H
#define NSED_FUZZ_CP_SOLVE_H

#include "nsed/complementarity.h"

#define NSED_FUZZ_CP_MAX_CONTACTS 8

/* Solve f's problem (f->problem.nc in 1..NSED_FUZZ_CP_MAX_CONTACTS); the
 * solver's status, err set on failure. -1000 if the solver could not be
 * created. */
static int nsed_fuzz_cp_solve(const nsed_contact_problem_file *f, nsed_error *err) {
  const nsed_contact_problem *p = &f->problem;
  enum { NC = NSED_FUZZ_CP_MAX_CONTACTS };
  nsed_complementarity_settings set;
  nsed_complementarity_default_settings(&set);
  set.max_pivots = 200;
  nsed_contact_solver *s = NULL;
  double lambda[4 * NC], a[4 * NC], dir[2 * NC], wsign[NC];
  nsed_cp_mode mode[NC], wmode[NC];
  nsed_contact_solution sol = {.lambda = lambda, .a = a, .mode = mode, .slip_dir = dir,
                               .spin_mode = wmode, .spin_sign = wsign};
  nsed_lcp_stats st;
  if (nsed_contact_solver_create(&set, p->nc, &s, err) != NSED_OK) return -1000;
  int rc = f->impact ? nsed_contact_solve_impact(s, p, &sol, &st, err)
                     : nsed_contact_solve_accel(s, p, &sol, &st, err);
  nsed_contact_solver_free(&s);
  return rc;
}

#endif
