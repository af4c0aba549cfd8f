/* Vertex form of a polygonal friction cone (Stewart-Trinkle; derivation in
 * docs/complementarity.md §3). For each stick candidate k the tangential force
 * is lambda_T = sum_j beta_kj d_j with m directions d_j = r (cos phi_j, sin phi_j),
 * phi_j = phi0 + 2 pi j / m, and
 *   w_beta = D^T a_T + e sigma >= 0  _|_ beta >= 0
 *   w_sig  = mu lambda_n - e^T beta >= 0 _|_ sigma >= 0
 * so lambda_T ranges over mu lambda_n conv{0, d_j}, with maximal dissipation
 * (sigma = max_j -d_j . a_T is the slip speed measure). r = 1, phi0 = 0 is the
 * inscribed polygon; r = 1/cos(pi/m), phi0 = pi/m is the vertex form of the
 * circumscribed polygon whose faces have normals at 2 pi j/m: the face form's
 * fallback, which needs no inverse of G_TT. LCP size nc + (m + 1) ns.
 *
 * A torsional stick candidate k (moment lambda_w about its contact's normal,
 * |lambda_w| <= mu lambda_n) is the same construction in one dimension: two
 * directions +1 and -1, lambda_w = beta+ - beta-, and
 *   w(beta+) = +a_w + sigma_k,  w(beta-) = -a_w + sigma_k,
 *   w(sigma_k) = mu lambda_n - beta+ - beta-
 * (docs/complementarity.md §11). Its unknowns follow all the contacts':
 * [x | beta | sigma | (beta+, beta-) per torsional candidate | their sigmas],
 * so with none the LCP is the contacts' alone, entry for entry. The interval
 * has no polygon error: r and phi0 do not apply to it. LCP size
 * nc + (m + 1) ns + 3 nws. */
#include "cp_internal.h"

#include <math.h>
#include <string.h>

int nsedi_vertex_solve(nsed_contact_solver *s, const nsedi_cp *p, double r, const double *dirs, int form,
                       double *lambda, nsed_lcp_stats *stats, nsed_error *err) {
  nsedi_workspace *ws = &s->ws;
  const int nc = p->nc, ns = p->ns, m = s->set.sides, n3 = 3 * nc, nws = p->nws;
  const int nb = m * ns, nz0 = nc + nb + ns, nz = nz0 + 3 * nws;
  const size_t ng = (size_t)n3 + (size_t)p->nw; /* G's dimension */
  const double *G = p->G, *b = p->b;
  nsedi_build_GE(ws, p);
  /* GD: G times each direction column, ng x (m ns) */
  double *GD = ws->GD;
  for (int k = 0; k < ns; k++) {
    const double *g1 = G + (size_t)(3 * p->stick[k] + 1) * ng, *g2 = g1 + ng;
    for (int j = 0; j < m; j++) {
      double d1 = r * dirs[2 * j], d2 = r * dirs[2 * j + 1];
      double *col = GD + (size_t)(k * m + j) * ng;
      for (size_t row = 0; row < ng; row++) col[row] = d1 * g1[row] + d2 * g2[row];
    }
  }
  double *M = ws->M, *q = ws->q;
  memset(M, 0, sizeof(double) * (size_t)nz * (size_t)nz);
  /* normal rows */
  for (int i = 0; i < nc; i++) {
    for (int j = 0; j < nc; j++) M[(size_t)j * nz + i] = ws->GE[(size_t)j * ng + 3 * i];
    for (int j = 0; j < nb; j++) M[(size_t)(nc + j) * nz + i] = GD[(size_t)j * ng + 3 * i];
    for (int k = 0; k < nws; k++) {
      double g = G[((size_t)n3 + (size_t)p->wstick[k]) * ng + 3 * i];
      M[(size_t)(nz0 + 2 * k) * nz + i] = g;
      M[(size_t)(nz0 + 2 * k + 1) * nz + i] = -g;
    }
    q[i] = b[3 * i];
  }
  /* beta rows: d_j . a_T,k + sigma_k */
  for (int k = 0; k < ns; k++) {
    int t = 3 * p->stick[k] + 1;
    for (int j = 0; j < m; j++) {
      double d1 = r * dirs[2 * j], d2 = r * dirs[2 * j + 1];
      int row = nc + k * m + j;
      for (int l = 0; l < nc; l++) {
        const double *g = ws->GE + (size_t)l * ng + t;
        M[(size_t)l * nz + row] = d1 * g[0] + d2 * g[1];
      }
      for (int l = 0; l < nb; l++) {
        const double *g = GD + (size_t)l * ng + t;
        M[(size_t)(nc + l) * nz + row] = d1 * g[0] + d2 * g[1];
      }
      M[(size_t)(nc + nb + k) * nz + row] = 1.0;
      for (int l = 0; l < nws; l++) {
        const double *g = G + ((size_t)n3 + (size_t)p->wstick[l]) * ng + t;
        double v = d1 * g[0] + d2 * g[1];
        M[(size_t)(nz0 + 2 * l) * nz + row] = v;
        M[(size_t)(nz0 + 2 * l + 1) * nz + row] = -v;
      }
      q[row] = d1 * b[t] + d2 * b[t + 1];
    }
  }
  /* sigma rows: mu lambda_n - sum_j beta_kj */
  for (int k = 0; k < ns; k++) {
    int row = nc + nb + k;
    M[(size_t)p->stick[k] * nz + row] = p->mu[p->stick[k]];
    for (int j = 0; j < m; j++) M[(size_t)(nc + k * m + j) * nz + row] = -1.0;
    q[row] = 0.0;
  }
  /* torsional rows: +-a_w + sigma_w, then mu_w lambda_n - beta+ - beta- */
  for (int k = 0; k < nws; k++) {
    const size_t R = (size_t)n3 + (size_t)p->wstick[k];
    const int rp = nz0 + 2 * k, rm = rp + 1, rs = nz0 + 2 * nws + k;
    for (int l = 0; l < nc; l++) {
      double v = ws->GE[(size_t)l * ng + R];
      M[(size_t)l * nz + rp] = v;
      M[(size_t)l * nz + rm] = -v;
    }
    for (int l = 0; l < nb; l++) {
      double v = GD[(size_t)l * ng + R];
      M[(size_t)(nc + l) * nz + rp] = v;
      M[(size_t)(nc + l) * nz + rm] = -v;
    }
    for (int l = 0; l < nws; l++) {
      double v = G[((size_t)n3 + (size_t)p->wstick[l]) * ng + R];
      M[(size_t)(nz0 + 2 * l) * nz + rp] = v;
      M[(size_t)(nz0 + 2 * l + 1) * nz + rp] = -v;
      M[(size_t)(nz0 + 2 * l) * nz + rm] = -v;
      M[(size_t)(nz0 + 2 * l + 1) * nz + rm] = v;
    }
    M[(size_t)rs * nz + rp] = 1.0;
    M[(size_t)rs * nz + rm] = 1.0;
    q[rp] = b[R];
    q[rm] = -b[R];
    M[(size_t)p->w[p->wstick[k]].contact * nz + rs] = p->w[p->wstick[k]].mu;
    M[(size_t)rp * nz + rs] = -1.0;
    M[(size_t)rm * nz + rs] = -1.0;
    q[rs] = 0.0;
  }
  int rc = nsedi_lcp_run(s, nz, M, q, ws->z, ws->w, stats, form, err);
  if (rc != NSED_OK) return rc;
  const double *z = ws->z;
  memset(lambda, 0, sizeof(double) * ng);
  for (int i = 0; i < nc; i++) {
    lambda[3 * i] = z[i];
    if (p->kind[i] == NSED_CP_SLIPPING) {
      lambda[3 * i + 1] = -p->mu[i] * z[i] * p->c[i].slip_dir[0];
      lambda[3 * i + 2] = -p->mu[i] * z[i] * p->c[i].slip_dir[1];
    }
  }
  for (int k = 0; k < ns; k++) {
    double l1 = 0.0, l2 = 0.0;
    for (int j = 0; j < m; j++) {
      double beta = z[nc + k * m + j];
      l1 += beta * r * dirs[2 * j];
      l2 += beta * r * dirs[2 * j + 1];
    }
    lambda[3 * p->stick[k] + 1] = l1;
    lambda[3 * p->stick[k] + 2] = l2;
  }
  nsedi_spin_lambda(p, lambda);
  for (int k = 0; k < nws; k++) lambda[n3 + p->wstick[k]] = z[nz0 + 2 * k] - z[nz0 + 2 * k + 1];
  return NSED_OK;
}
