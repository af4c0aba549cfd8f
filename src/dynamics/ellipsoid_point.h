/* The point of an ellipsoid's surface nearest an outside point, and its
 * rate, from the closest-point equations solved to machine precision
 * (docs/engine.md, "Contacts": sphere on ellipsoid). */
#ifndef NSED_DYNAMICS_ELLIPSOID_POINT_H
#define NSED_DYNAMICS_ELLIPSOID_POINT_H

/* For the ellipsoid sum (y_i / a_i)^2 = 1 and a point x outside it moving
 * at xd (all in the ellipsoid's axes): the nearest surface point y and
 * its rate yd. Returns 0, 1 if x is not outside (no unique nearest point
 * on the surface), 2 if the iteration did not converge (not expected:
 * its convergence is monotone). */
int nsedi_ellipsoid_nearest(const double a[3], const double x[3], const double xd[3], double y[3],
                            double yd[3]);

#endif
