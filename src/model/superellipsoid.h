/* The superellipsoid f(y) = sum |y_i / a_i|^p - 1 = 0 (p >= 2; p = 2 the
 * ellipsoid, an even p one of Otter et al.'s algebraic surfaces): its
 * point touching a plane and its point nearest an outside point, each
 * with its rate, solved to machine precision, and the rates of the
 * differential form, where the point is a tracked state
 * (docs/engine.md, "Algebraic surfaces"). Everything is in the body's
 * axes. */
#ifndef NSED_MODEL_SUPERELLIPSOID_H
#define NSED_MODEL_SUPERELLIPSOID_H

#include "nsed/model.h"

/* A shape's exponent as an algebraic surface: the superellipsoid's p, 2
 * for the ellipsoid. */
double nsedi_sq_exponent(const nsed_shape *s);

/* f(y); with g and h non-NULL also its gradient and its (diagonal)
 * Hessian. */
double nsedi_sq_value(const double a[3], double p, const double y[3], double g[3], double h[3]);

/* The surface's point y maximising d . y (its outward normal along d; d
 * need not be unit) and its rate yd for d changing at dd. Returns 0, or 1
 * where the rate is unbounded: for p > 2 the surface is flat across a
 * coordinate plane (one principal curvature 0), and the point crosses it
 * at infinite speed when d turns across it. */
int nsedi_sq_support(const double a[3], double p, const double d[3], const double dd[3],
                     double y[3], double yd[3]);

/* The surface's point y nearest the point x, which moves at xd, and its
 * rate yd. Returns 0, 1 if x is not outside, 2 if the iteration did not
 * converge. */
int nsedi_sq_nearest(const double a[3], double p, const double x[3], const double xd[3],
                     double y[3], double yd[3]);

/* Differential form, against a plane: the rate of the tracked point y
 * whose normal must stay along the unit d (changing at dd), from the
 * closest-point equations differentiated, grad f(y) = lambda d, grad f .
 * yd = 0. Returns 0, or 1 where it is unbounded (see nsedi_sq_support). */
int nsedi_sq_support_rate(const double a[3], double p, const double y[3], const double d[3],
                          const double dd[3], double yd[3]);

/* Differential form, against a point: the rate of the tracked point y
 * nearest x (moving at xd), from x - y = t grad f(y), grad f . yd = 0
 * differentiated. */
void nsedi_sq_nearest_rate(const double a[3], double p, const double y[3], const double x[3],
                           const double xd[3], double yd[3]);

/* How far a tracked point is from satisfying the closest-point equations:
 * the larger of |f(y)| and the distance of its unit normal from the unit
 * d (against a plane) or from the unit x - y (against a point; NAN when
 * y = x). */
double nsedi_sq_support_residual(const double a[3], double p, const double y[3],
                                 const double d[3]);
double nsedi_sq_nearest_residual(const double a[3], double p, const double y[3],
                                 const double x[3]);

/* Principal central moments of the solid superellipsoid of
 * the given mass (Dirichlet's integrals). */
void nsedi_sq_inertia(const double a[3], double p, double mass, double J[3]);

#endif
