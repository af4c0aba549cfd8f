/* Thin wrappers over the LAPACK routines nsed uses (OpenBLAS exports the
 * Fortran symbols; Debian's OpenBLAS has no LAPACKE, so the prototypes with the
 * hidden gfortran CHARACTER length are declared here, in one place). */
#ifndef NSED_CORE_LAPACK_H
#define NSED_CORE_LAPACK_H

/* Cholesky factorisation of the n x n column-major SPD matrix A in place
 * (lower triangle). Returns 0, or k > 0 if the leading minor k is not positive. */
int nsedi_cholesky_factor(int n, double *A);

/* Solve A x = b for nrhs right-hand sides in B (n x nrhs, column-major) with
 * the factor from nsedi_cholesky_factor. */
void nsedi_cholesky_solve(int n, const double *L, int nrhs, double *B);

/* LU solve of the general n x n column-major A (overwritten) for B (n x nrhs,
 * overwritten with the solution). ipiv has n entries. Returns LAPACK's info:
 * 0 success, k > 0 exactly singular pivot k. */
int nsedi_lu_solve(int n, double *A, int *ipiv, int nrhs, double *B);

/* Minimum-norm least-squares solve of A x = b by SVD (dgelsd): A is m x n
 * column-major (overwritten), B has max(m,n) x nrhs entries, on return its
 * first n rows hold x. rcond: singular values below rcond*s_max count as zero.
 * rank receives the effective rank. Returns LAPACK's info (0 success). */
int nsedi_lstsq(int m, int n, double *A, int nrhs, double *B, double rcond, int *rank);

/* Workspace of nsedi_lstsq_square, sized once for square systems of up to
 * n unknowns and nrhs right-hand sides, so that a solve inside the RHS
 * allocates nothing (dgelsd's sizes grow with n and nrhs, so the largest
 * serves every smaller one). */
typedef struct {
  int n, nrhs, lwork;
  double *s, *work;
  int *iwork;
} nsedi_lstsq_ws;

/* Size ws for n x n systems with nrhs right-hand sides; 0, or -1 when out
 * of memory (ws then holds nothing to free). */
int nsedi_lstsq_ws_init(nsedi_lstsq_ws *ws, int n, int nrhs);
void nsedi_lstsq_ws_free(nsedi_lstsq_ws *ws);

/* nsedi_lstsq for a square A (n x n, n <= ws->n, nrhs <= ws->nrhs; B n x
 * nrhs) in ws's memory. */
int nsedi_lstsq_square(nsedi_lstsq_ws *ws, int n, double *A, int nrhs, double *B, double rcond,
                       int *rank);

#endif
