/* The spindle roller of an omni wheel against the floor: its profile (with
 * inclination psi) and the three ways of tracking its lowest point (seed 000
 * §5, seed 001 eqs. 1-7). Derivations: docs/rollers.md. */
#ifndef NSED_DYNAMICS_ROLLER_H
#define NSED_DYNAMICS_ROLLER_H

#include "kinematics.h"
#include "roller_shape.h"

/* The contact point of a roller: where it is and how it moves. */
typedef struct {
  double rho[3];     /* contact point minus the roller's centre, world */
  double rho_dot[3]; /* d rho / dt (the point slides over the surface while rolling) */
  double region;     /* > 0 on the spindle's smooth surface, < 0 past it (a tip touches) */
  double region_rate; /* d region / dt (1/s) */
  int leaving;       /* the point is (or, on the boundary, is about to be) a tip moving
                        away from the surface: the roller is handing its contact over */
  int at_tip;        /* the point is the tip: past the region boundary, or on it moving
                        there */
  double rate[2];    /* DIFFERENTIAL: d(q, phi)/dt of the tracking states, else 0 */
} nsedi_roller_point;

/* Lowest point of contact c's roller (a roller/floor contact) for the floor
 * normal n, with the contact's tracking algorithm. xtrack: the contact's
 * two DIFFERENTIAL states while they are integrated, else NULL (the point
 * is then computed explicitly). side: +1 the surface (continued past its
 * end), -1 the tip, 0 the side the point is moving to near the boundary
 * (docs/rollers.md, "Handovers are events"). */
void nsedi_roller_point_eval(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                             int side, const double n[3], nsedi_roller_point *out);

/* How far contact c's DIFFERENTIAL tracking states xtrack = (q, phi) are
 * from a lowest point at the current kinematics: the larger of the two
 * tangency residuals |sin(q) cos(psi) + n_b.e_x| and
 * |n_b.(0, -sin phi, cos phi)| (zero when re-anchored; the integration
 * error grows it), or INFINITY if q has left the profile's range
 * |sin q| <= sin(pi/n). */
double nsedi_roller_track_residual(const nsed_model *m, int c, const nsedi_kin *kin,
                                   const double xtrack[2]);

/* Consistent values of the DIFFERENTIAL tracking states (q, phi) of
 * contact c at the current kinematics (the explicit solution). */
void nsedi_roller_track_init(const nsed_model *m, int c, const nsedi_kin *kin, double xtrack[2]);

#endif
