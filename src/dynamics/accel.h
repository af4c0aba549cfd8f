/* Accelerations and multipliers for a given set of active rows: first by
 * block elimination along the body-constraint tree in linear time
 * (tree_solve.h), else (fewer than NSEDI_TREE_MIN_ROWS rows, loops with many
 * closing rows, dependent rows) by the
 * Schur complement on the block-diagonal mass matrix:
 *
 *   M du = f + C^T lambda,   J du = target          (J: rows, C: force columns)
 *   (J M^-1 C^T) lambda = target - J M^-1 f
 *
 * C differs from J only for slipping contacts, whose normal column carries
 * the kinetic friction -mu s (nonsymmetric). Redundant rows (a singular
 * Schur complement) are solved in the minimum-norm least-squares sense. */
#ifndef NSED_DYNAMICS_ACCEL_H
#define NSED_DYNAMICS_ACCEL_H

#include "rows.h"

typedef struct nsedi_dyn_ws nsedi_dyn_ws;

/* Workspace for up to max_rows rows of model m. NULL on allocation failure. */
nsedi_dyn_ws *nsedi_dyn_ws_create(const nsed_model *m, int max_rows);
void nsedi_dyn_ws_free(nsedi_dyn_ws **ws);

/* Tests: 1 makes every solve take the dense Schur complement (the
 * reference the linear-time path is checked against). */
void nsedi_dyn_ws_dense_only(nsedi_dyn_ws *ws, int on);

/* Tests: systems of fewer rows take the dense path (default
 * NSEDI_TREE_MIN_ROWS; 0 sends every system to the tree first). */
void nsedi_dyn_ws_tree_min_rows(nsedi_dyn_ws *ws, int rows);

/* How many solves took the linear-time path and the dense one. */
void nsedi_dyn_ws_paths(const nsedi_dyn_ws *ws, long *ntree, long *ndense);

/* Solves on the linear-time path (right-hand sides and event quantities)
 * and how many refined their first pass (NSEDI_TREE_REFINE_SHARE). */
void nsedi_dyn_ws_refinements(const nsedi_dyn_ws *ws, long *solves, long *refined);

/* Solve for du (nv) and lambda (nr). Returns NSED_OK, or NSED_ERR_SINGULAR
 * when even the least-squares solve fails or leaves a residual (inconsistent
 * rows). *rank_deficient is set when the least-squares path was taken.
 * Redundant rows leave lambda undetermined along the null space of the
 * system: lambda is then the solution nearest anchor (nr values; NULL: the
 * minimum-norm solution), docs/engine.md "Redundant contacts". */
int nsedi_solve_constrained(const nsed_model *m, nsedi_dyn_ws *ws, int nr, const nsedi_row *rows,
                            const nsedi_row *cols, const double *target, const double *f,
                            const double *anchor, double *du, double *lambda, int *rank_deficient);

/* Row weights for the next solves' rank-deficient path (nr values in the
 * rows' order, each > 0; NULL: none): lambda is then the solution nearest
 * the anchor in the norm sum w_i (lambda_i - anchor_i)^2. The pointer is
 * kept, not copied. */
void nsedi_dyn_ws_weights(nsedi_dyn_ws *ws, const double *weight);

/* Event quantities (on the tree path when it takes the rows J, else by the
 * dense Schur complement; nsedi_dyn_ws_dense_only forces the latter) for
 * nc contacts with rows W (3nc, ordered n t1 t2 per contact), bilateral
 * rows J (nj) with targets: G = W P W^T (3nc x 3nc,
 * column-major), b = W du_free + bias_W, and PWt = P W^T (nv x 3nc,
 * column-major) so that an impulse Lambda changes u by PWt Lambda.
 * P = M^-1 - M^-1 J^T (J M^-1 J^T)^+ J M^-1. */
int nsedi_delassus(const nsed_model *m, nsedi_dyn_ws *ws, int nj, const nsedi_row *J,
                   const double *target_j, const double *f, int nw, const nsedi_row *W,
                   double *G, double *b, double *PWt);

#endif
