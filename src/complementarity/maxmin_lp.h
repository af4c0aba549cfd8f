/* The deepest point of a polytope given by affine margins, as a linear
 * program solved by GLPK's simplex (docs/engine.md, "Redundant contacts":
 * the friction shares of redundant sticks). */
#ifndef NSED_COMPLEMENTARITY_MAXMIN_LP_H
#define NSED_COMPLEMENTARITY_MAXMIN_LP_H

/* The margins are m_k(y) = c[k] + sum_j A[j nm + k] y_j for k < nm (A
 * column-major nm x ny, y free). Maximises t subject to m_k(y) >= t for
 * the rows with eq[k] == 0, m_k(y) == 0 for the others, and t <= t_max;
 * y receives the simplex's optimal vertex (the other margins where that
 * vertex leaves them). Returns 0, 1 when nsed was built without GLPK
 * (-Dglpk=disabled), -1 when GLPK reached no optimum within its pivots
 * (or stopped on an internal error, caught). */
int nsedi_maxmin_lp(int nm, int ny, const double *A, const double *c, const char *eq, double t_max,
                    double *y);

#endif
