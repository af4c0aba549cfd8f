/* Differential contact tracking: the states a contact integrates instead
 * of solving for its point (a roller's (q, phi), docs/rollers.md; an
 * algebraic surface's point, docs/engine.md "Algebraic surfaces"), their
 * consistent values and how far they have drifted. */
#ifndef NSED_DYNAMICS_TRACK_H
#define NSED_DYNAMICS_TRACK_H

#include "kinematics.h"

/* Consistent values of contact c's tracking states at the current
 * kinematics (the explicit solution). Returns NSED_OK or NSED_ERR_EVENT
 * where the explicit point is undefined. */
int nsedi_track_init(const nsed_model *m, int c, const nsedi_kin *kin, double *xtrack);

/* How far contact c's tracking states are from satisfying the contact
 * point's equations at the current kinematics (dimensionless; 0 when
 * just initialised), INFINITY or NAN where they no longer describe a
 * point of the surface. */
double nsedi_track_residual(const nsed_model *m, int c, const nsedi_kin *kin,
                            const double *xtrack);

#endif
