/* The spindle roller's surface (seed 001 eq. 1, seed 000 §5.2): a surface of
 * revolution about the roller's axis (body x) whose lowest points trace the
 * wheel's envelope, the cylinder of radius R about the wheel's axis, while
 * the wheel stays vertical. Derivation: docs/rollers.md. */
#ifndef NSED_MODEL_ROLLER_SHAPE_H
#define NSED_MODEL_ROLLER_SHAPE_H

#include "nsed/model.h"

/* The generatrix at parameter q, |q| <= pi/n (q: the angle between the
 * roller's radius in the wheel plane and the downward vertical when the
 * point touches): axial coordinate x, distance r from the axis, and their
 * q-derivatives (any of the outputs may be NULL). For psi = 0 the arc
 * x = R sin q, r = R cos q - R1 of seed 001 eq. 1. */
void nsedi_roller_profile(const nsed_shape *s, double q, double *x, double *r, double *dx,
                          double *dr);

/* Half length of the roller along its axis, R sin(pi/n) / cos(psi) (seed 000 §5.2). */
double nsedi_roller_half_length(const nsed_shape *s);

/* Principal central moments (axial, transverse, transverse) of the solid
 * roller of uniform density and the given mass. */
void nsedi_roller_inertia(const nsed_shape *s, double mass, double J[3]);

#endif
