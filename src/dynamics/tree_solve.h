/* The constrained solve in time linear in the number of bodies, by block
 * elimination of the saddle-point system along the body-constraint graph
 * (Baraff 1996, "Linear-time dynamics using Lagrange multipliers"):
 *
 *   [ M   -C^T ] [du    ]   [f     ]
 *   [ J    0   ] [lambda] = [target]
 *
 * Bodies and groups of rows (consecutive rows between one pair of bodies)
 * are the nodes; a row group joins its one or two bodies. A spanning forest
 * of that graph, with the world as one node that is never eliminated, is
 * factored leaves first with no fill-in; the groups that close a loop (two
 * contacts of one body with the floor, a chain closed on itself) are
 * secondary rows, solved on the small Schur complement of their multipliers;
 * so are the rows on an attached rotor (one degree of freedom: its axial rate).
 * docs/engine.md "The constrained solve". */
#ifndef NSED_DYNAMICS_TREE_SOLVE_H
#define NSED_DYNAMICS_TREE_SOLVE_H

#include "rows.h"

typedef struct nsedi_tree_ws nsedi_tree_ws;

/* Workspace for nbody bodies and up to max_rows rows; axial_only (nbody
 * flags, or NULL for none) marks attached rotors, whose rows are always
 * solved as secondary. NULL when out of memory. Nothing is allocated
 * after this. */
nsedi_tree_ws *nsedi_tree_ws_create(int nbody, int max_rows, const unsigned char *axial_only);
void nsedi_tree_ws_free(nsedi_tree_ws **t);

/* Factor the system of rows J and force columns C (nr each; minv: 6 nbody
 * inverse masses and inertias). Returns 1 when factored, 0 when the dense
 * solve must take it: more than NSEDI_TREE_MAX_SECONDARY loop-closing rows,
 * fewer rows than min_rows plus NSEDI_TREE_ROWS_PER_LOOP_ROW per loop row
 * (min_rows > 0; the dense LU is cheaper there), or a pivot block whose
 * pivot ratio is below NSEDI_SCHUR_PIVOT (possibly dependent rows, which
 * the dense path solves by least squares). rows, cols and minv must stay
 * unchanged until the last nsedi_tree_solve. */
int nsedi_tree_factor(nsedi_tree_ws *t, const double *minv, int nr, const nsedi_row *rows,
                      const nsedi_row *cols, int min_rows);

/* With the last factors: du (6 nbody) and lambda (nr) for forces f (6
 * nbody) and row targets (nr; NULL: all zero). One step of iterative
 * refinement follows when the first pass's residual, against each body's
 * and row's own scale, is above refine_above (<= 0: always). */
void nsedi_tree_solve(nsedi_tree_ws *t, const double *f, const double *target, double *du,
                      double *lambda, double refine_above);

/* Solves since the workspace was created, and how many of them refined. */
void nsedi_tree_counts(const nsedi_tree_ws *t, long *solves, long *refined);

#endif
