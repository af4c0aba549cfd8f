/* Applied generalised forces (gravity, force laws, springs, joint torque and
 * spring laws, gyroscopic terms) and the potential energy they derive from. */
#ifndef NSED_DYNAMICS_FORCES_H
#define NSED_DYNAMICS_FORCES_H

#include "kinematics.h"

/* f (6 per body: force world, torque body axes incl. -w x Jw) at time t;
 * x: the state (the joint drives' turn counts), or NULL. */
void nsedi_applied_forces(const nsed_model *m, const nsedi_kin *kin, const double *x, double t,
                          double *f);

/* Potential energy of gravity and of the springs (J). */
double nsedi_potential_energy(const nsed_model *m, const nsedi_kin *kin);

/* Kinetic energy (J). */
double nsedi_kinetic_energy(const nsed_model *m, const nsedi_kin *kin);

/* Mechanical power of the time-dependent (non-potential) loads: force and
 * torque laws, joint torques and drives, plus spring dampers (negative). (W) */
double nsedi_external_power(const nsed_model *m, const nsedi_kin *kin, const double *x, double t);

#endif
