/* The adapter to Siconos Numerics' LCP Lemke: the only file of the LCP path
 * that includes Siconos headers. One SolverOptions lives as long as the
 * solver (created once; Siconos still mallocs its tableau on each call).
 *
 * Guards (notes/dependencies.md):
 *  - P4: SKIP_TRIVIAL, so the driver's n == 1 shortcut z = -q/M (no check)
 *    is never taken;
 *  - P3: the driver's own filter is off: nsed verifies every answer itself
 *    (lcp_verify.c), which is also cheaper than doing it twice;
 *  - P7: only the known id SICONOS_LCP_LEMKE is used, and numerics_error's
 *    longjmp target is armed around the call so a library error comes back
 *    as NSEDI_LCP_FAILED instead of abort(). */
#include "cp_internal.h"

#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>
#include <sn_error_handling.h>

#include <stdlib.h>
#include <string.h>

struct nsedi_siconos {
  SolverOptions *lemke;
};

int nsedi_siconos_create(nsedi_siconos **out) {
  *out = NULL;
  nsedi_siconos *s = calloc(1, sizeof *s);
  if (!s) return NSED_ERR_NOMEM;
  s->lemke = solver_options_create(SICONOS_LCP_LEMKE);
  if (!s->lemke) {
    free(s);
    return NSED_ERR_NOMEM;
  }
  s->lemke->iparam[SICONOS_LCP_IPARAM_SKIP_TRIVIAL] = SICONOS_LCP_SKIP_TRIVIAL_YES;
  s->lemke->filterOn = false;
  *out = s;
  return NSED_OK;
}

void nsedi_siconos_free(nsedi_siconos **s) {
  if (!s || !*s) return;
  if ((*s)->lemke) {
    solver_options_delete((*s)->lemke);
    free((*s)->lemke); /* solver_options_delete does not free the struct (P5) */
  }
  free(*s);
  *s = NULL;
}

int nsedi_siconos_lemke(nsedi_siconos *s, int n, double *M, double *q, double *z, double *w,
                        int max_pivots, int *pivots) {
  NumericsMatrix nm;
  NM_null(&nm); /* a stack header over nsed's buffer: no allocation, no ownership */
  nm.storageType = NM_DENSE;
  nm.size0 = n;
  nm.size1 = n;
  nm.matrix0 = M;
  LinearComplementarityProblem lcp = {.size = n, .M = &nm, .q = q};
  s->lemke->iparam[SICONOS_IPARAM_MAX_ITER] = max_pivots;
  s->lemke->iparam[SICONOS_IPARAM_ITER_DONE] = 0;
  /* On a ray Siconos leaves one entry of z and w unwritten (z0 is still
   * basic): clear them so the verification never sees stale data. */
  memset(z, 0, sizeof(double) * (size_t)n);
  memset(w, 0, sizeof(double) * (size_t)n);
  volatile int info = -1;
  if (SN_SETJMP_EXTERNAL_START == 0) {
    info = linearComplementarity_driver(&lcp, z, w, s->lemke);
    SN_SETJMP_EXTERNAL_STOP
  } else {
    /* numerics_error longjmp'ed here; Siconos' tableau rows may leak. */
    *pivots = 0;
    return NSEDI_LCP_FAILED;
  }
  *pivots = s->lemke->iparam[SICONOS_IPARAM_ITER_DONE];
  /* info 1 is only the pivot limit for raw Lemke (a ray also gives 0):
   * the caller's verification decides. */
  if (info == 1 && *pivots >= max_pivots) return NSEDI_LCP_MAXPIV;
  return info == 0 ? NSEDI_LCP_SOLVED : NSEDI_LCP_FAILED;
}
