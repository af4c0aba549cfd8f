/* Dense LU with partial pivoting for the small systems of one right-hand-side
 * evaluation (tens of rows): plain loops, no BLAS call overhead or locks. */
#ifndef NSED_CORE_SMALL_LU_H
#define NSED_CORE_SMALL_LU_H

/* Factor the n x n column-major A in place (pivots in piv; nz: n ints of
 * workspace; U's diagonal is stored as its reciprocals 1 / u_ii) and return
 * the ratio min|u_ii| / max|u_ii| of the pivots: 0 for an exactly singular
 * matrix, tiny for a (numerically) rank-deficient one. Structural zeros are skipped: a block-sparse A (the Schur complement
 * of a multibody tree, rows ordered leaves first) costs far less than n^3/3. */
double nsedi_small_lu_factor(int n, double *A, int *piv, int *nz);

/* Solve with the factors for nrhs right-hand sides B (n x nrhs, column-major). */
void nsedi_small_lu_solve(int n, const double *LU, const int *piv, int nrhs, double *B);

#endif
