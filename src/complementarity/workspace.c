/* The solver's workspace (it only grows) and the normal-unknown columns
 * every polygon formulation starts from. Shared by the drivers
 * (contact_solver.c), the formulations and the LCP paths, so it sits below
 * all of them. */
#include "cp_internal.h"

#include <stdlib.h>
#include <string.h>

/* Replace *p by a fresh array of count elements (contents not kept). */
static int grow(void **p, size_t count, size_t size) {
  void *q = malloc((count ? count : 1) * size);
  if (!q) return NSED_ERR_NOMEM;
  free(*p);
  *p = q;
  return NSED_OK;
}

int nsedi_ws_reserve_lcp(nsedi_workspace *ws, int n) {
  if (n <= ws->cap_n) return NSED_OK;
  size_t N = (size_t)n, D = sizeof(double), I = sizeof(int);
  int rc = NSED_OK;
  void **dbl[] = {(void **)&ws->q, (void **)&ws->z, (void **)&ws->w, (void **)&ws->qw,
                  (void **)&ws->zw, (void **)&ws->ww, (void **)&ws->rs, (void **)&ws->cs, (void **)&ws->cn};
  for (size_t k = 0; k < sizeof dbl / sizeof dbl[0] && rc == NSED_OK; k++) rc = grow(dbl[k], N, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->M, N * N, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->Mw, N * N, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->sq, N * N, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->tab, N * (2 * N + 2), D);
  if (rc == NSED_OK) rc = grow((void **)&ws->vec, 2 * N, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->basis, N, I);
  if (rc == NSED_OK) rc = grow((void **)&ws->cand, N, I);
  if (rc == NSED_OK) rc = grow((void **)&ws->ipiv, N, I);
  if (rc == NSED_OK) ws->cap_n = n;
  return rc;
}

int nsedi_ws_reserve_contacts(nsedi_workspace *ws, int nc, int nw, int m) {
  if (nc <= ws->cap_nc && m <= ws->cap_m && nw <= ws->cap_nw) return NSED_OK;
  if (nc < ws->cap_nc) nc = ws->cap_nc;
  if (m < ws->cap_m) m = ws->cap_m;
  if (nw < ws->cap_nw) nw = ws->cap_nw;
  size_t C = (size_t)nc, W = (size_t)nw, N = 3 * C + W, Ms = (size_t)m, D = sizeof(double),
         I = sizeof(int);
  int rc = grow((void **)&ws->GE, N * C, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->GD, N * Ms * C, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->D, 4 * C * C, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->X, 2 * C * (C + Ms * C + 1), D);
  if (rc == NSED_OK) rc = grow((void **)&ws->lam, N, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->acc, N, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->bmod, N, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->mu_eff, C, D);
  if (rc == NSED_OK) rc = grow((void **)&ws->stick, C, I);
  if (rc == NSED_OK) rc = grow((void **)&ws->kind, C, I);
  if (rc == NSED_OK) rc = grow((void **)&ws->wkind, W, I);
  if (rc == NSED_OK) rc = grow((void **)&ws->wstick, W, I);
  if (rc != NSED_OK) return rc;
  ws->cap_nc = nc;
  ws->cap_m = m;
  ws->cap_nw = nw;
  /* the largest LCP of these rows: vertex form, nc (m + 2) for the contacts
   * and 3 per torsional row (beta+, beta-, sigma) */
  return nsedi_ws_reserve_lcp(ws, nc * (m + 2) + 3 * nw);
}

void nsedi_ws_free(nsedi_workspace *ws) {
  void *all[] = {ws->M, ws->q, ws->z, ws->w, ws->Mw, ws->qw, ws->zw, ws->ww, ws->tab,
                 ws->basis, ws->cand, ws->rs, ws->cs, ws->cn, ws->sq, ws->vec, ws->ipiv, ws->GE,
                 ws->GD, ws->D, ws->X, ws->lam, ws->acc, ws->bmod, ws->stick, ws->kind,
                 ws->mu_eff, ws->wkind, ws->wstick};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) free(all[k]);
  memset(ws, 0, sizeof *ws);
}

void nsedi_build_GE(nsedi_workspace *ws, const nsedi_cp *p) {
  const int nc = p->nc, n3 = 3 * nc;
  const size_t N = (size_t)n3 + (size_t)p->nw;
  for (int i = 0; i < nc; i++) {
    double *col = ws->GE + (size_t)i * N;
    const double *gn = p->G + (size_t)(3 * i) * N;
    if (p->kind[i] == NSED_CP_SLIPPING && p->mu[i] > 0.0) {
      /* lambda_i = x_i (e_n - mu s): kinetic friction folded into the column */
      const double *g1 = gn + N, *g2 = gn + 2 * N;
      double m1 = p->mu[i] * p->c[i].slip_dir[0], m2 = p->mu[i] * p->c[i].slip_dir[1];
      for (size_t r = 0; r < N; r++) col[r] = gn[r] - m1 * g1[r] - m2 * g2[r];
    } else {
      memcpy(col, gn, sizeof(double) * N);
    }
  }
  /* a turning contact's kinetic moment -mu sign x_i goes the same way: it is
   * a known multiple of the normal force, so no unknown of its own */
  for (int k = 0; k < p->nw; k++) {
    if (p->wkind[k] != NSED_CP_SLIPPING || !(p->w[k].mu > 0.0)) continue;
    double *col = ws->GE + (size_t)p->w[k].contact * N;
    const double *gw = p->G + ((size_t)n3 + (size_t)k) * N;
    double ms = p->w[k].mu * p->w[k].sign;
    for (size_t r = 0; r < N; r++) col[r] -= ms * gw[r];
  }
}

void nsedi_spin_lambda(const nsedi_cp *p, double *lambda) {
  const int n3 = 3 * p->nc;
  for (int k = 0; k < p->nw; k++) {
    const nsed_cp_spin *w = &p->w[k];
    if (p->wkind[k] == NSED_CP_SLIPPING && w->mu > 0.0)
      lambda[n3 + k] = -w->mu * w->sign * lambda[3 * w->contact];
    else if (p->wkind[k] != NSED_CP_STICK_CANDIDATE)
      lambda[n3 + k] = 0.0;
  }
}
