/* Every fixed numerical tolerance of the engine in one place, each with the
 * reason for its value (docs/engine.md, "Tolerances"). The user's own
 * tolerances (solver.rtol, atol, contact_tol, slip_tol, slip_stop_speed,
 * drift_tol) are options; these are the fixed ones, each relative to the
 * scale stated with it. A value here changes only with a measurement that
 * says why. */
#ifndef NSED_CORE_TOLERANCES_H
#define NSED_CORE_TOLERANCES_H

/* ---- scales ---- */

/* Force floor, relative to the force scale of the instant (the largest
 * applied force on a body, or normal force): forces below it are round-off
 * of the constrained solve, whose multipliers carry errors of about
 * cond * 1e-16 of that scale (cond up to ~1e6 on the omni vehicles). */
#define NSEDI_FORCE_FLOOR 1e-9

/* Round-off of a computed relative velocity J u, relative to the sum of the
 * magnitudes it is made of: a few ulps per term of the row, generously
 * (the noise of a slip velocity is this or the integration's rtol, the
 * larger). A slip starting from rest at mu0 = mu grows as t^2 and stays
 * below that noise for a while; its stop indicator must not fire on it. */
#define NSEDI_VELOCITY_ROUNDOFF (64 * 2.220446049250313e-16)

/* ---- the law monitor (src/simulate/monitor.c) ---- */

/* lambda_n >= -NSEDI_LAW_NORMAL_TOL * force scale for a closed contact: a
 * normal force crosses zero at its root, located to ~1e-14 s, and is
 * round-off there. */
#define NSEDI_LAW_NORMAL_TOL 1e-9

/* A sticking lambda_t may lie outside the friction set by this much
 * relative to mu0 lambda_n + floor (its margin root lands within round-off
 * past the boundary); a slipping |lambda_t| may differ from mu lambda_n by
 * this much relatively (a held slip's is sqrt(1 + NSEDI_SLIP_LINE_TOL^2)
 * times mu lambda_n at most: 5e-13 off). */
#define NSEDI_LAW_FRICTION_TOL 1e-9

/* A slipping contact's friction opposes its slip velocity to within this
 * angle (rad) beyond what the velocity's noise leaves undetermined
 * (nsedi_slip_noise: rtol of its magnitudes plus atol, over the speed): a
 * fast held slip's velocity is off its direction by at most
 * NSEDI_SLIP_LINE_TOL beyond that noise, located by a root. */
#define NSEDI_LAW_DIRECTION_TOL 2e-6

/* (An open contact may penetrate by contact_tol + drift_tol: it closes at a
 * root contact_tol below the gap it left with, a closed contact's drift,
 * which the closed-gap check bounds by drift_tol.) */

/* ---- the event step (src/simulate/event*.c, onset.c) ---- */

/* A slip is held on a straight line while the transverse force that keeps
 * it there stays below this fraction of mu lambda_n + floor: the friction
 * direction is then within 1e-6 rad of the slip's. A slip that does not
 * turn (the belt, a sphere's slide) is held from onset to stop and its
 * direction is exact; one that turns is released to the free direction
 * v/|v| (above slip_stop_speed) or its line is re-aligned (below). */
#define NSEDI_SLIP_LINE_TOL 1e-6

/* A slip enters the slow hold when its speed falls to this fraction of
 * slip_stop_speed and leaves it when the speed rises to slip_stop_speed:
 * the band keeps each regime's root away from zero at its start (a root
 * starting at zero may go negative unseen). */
#define NSEDI_SLOW_ENTRY 0.5

/* A stick may only start with its friction force inside the friction set
 * by more than this (relative to the force scale): a force on the boundary
 * within round-off is a graze (the slip touches zero velocity and goes on:
 * the stick force there moves outwards, docs/engine.md "Stops and
 * grazes"), so the contact is posed as slipping. The smooth phase's forces
 * carry ~1e-15 of the scale on the shipped problems; the belt's stick at
 * mu0 = mu (1 + 1e-12) has a margin of 2e-12 of it and is kept. */
#define NSEDI_STICK_START_FLOOR 1e-13

/* At the root of a sticking contact's friction margin its force is on the
 * friction set's boundary and moving out: the acceleration problem is
 * asked with mu0 shrunk by this relative amount, i.e. as it is a moment
 * after the root (to first order the same answer for any small amount),
 * so that stick is ruled out and maximal dissipation picks the onset's
 * direction. Large against the problem's round-off (~1e-15 cond), small
 * against every physical margin. */
#define NSEDI_SATURATION_SHRINK 1e-7

/* At the root of a closed contact's normal force, the acceleration problem
 * keeping lambda_n below this fraction of the force scale means the force
 * stays at zero: the contact opens (else it would go negative without
 * another sign change). Lemke's answers are verified to 1e-9 relative. */
#define NSEDI_LIFTOFF_FORCE 1e-9

/* After the event the smooth phase's lambda_n of a closed contact must not
 * be below -NSEDI_INCONSISTENT_NORMAL * force scale: the event problem and
 * the smooth phase disagree (a mode the event problem chose is not
 * consistent), an error rather than a silent sign flip. */
#define NSEDI_INCONSISTENT_NORMAL 1e-8

/* Settling impulses (event_settle.c): a pivot ratio below this means the
 * settled rows are dependent (two rollers touching at one point); the
 * Baumgarte gamma term then removes the residual velocity instead. */
#define NSEDI_SETTLE_PIVOT 1e-12

/* Approach speeds, in units of slip_tol. A contact closing without an
 * impact whose approach exceeds NSEDI_LANDED_APPROACH slip_tol has it
 * zeroed at the event (left to the stabilisation, ~v/(e eta) of gap: 1e-8
 * at 7e-7 m/s on a sprung wheel); a roller taking over touches down
 * tangentially and is located to ~5e-7 s, so approaches below
 * NSEDI_GRAZING_APPROACH slip_tol are its geometry, not an impact. */
#define NSEDI_LANDED_APPROACH 10.0
#define NSEDI_GRAZING_APPROACH 1e3

/* Closing margins of open contacts, in units of contact_tol: a contact
 * lifting off leaves with a gap that grows quadratically from round-off,
 * so it may sink this far before its root counts as closing; a roller's
 * is smaller because a rocking vehicle lifts off and lands within
 * microseconds, before the stabilisation removes the landing's
 * penetration (the margin adds up per lift-off: 2e-9 with the full one). */
#define NSEDI_LIFTOFF_MARGIN 1.0
#define NSEDI_ROLLER_LIFTOFF_MARGIN 0.1

/* Slip lines (onset.c): the direction s is aligned with the tangential
 * acceleration when their angle is below NSEDI_LINE_ALIGNED rad; the scan
 * for a sign change of s x a_t uses NSEDI_LINE_SCAN angles, bisection
 * stops at NSEDI_LINE_BISECT rad, the coupled Newton's finite-difference
 * step is NSEDI_LINE_FD_STEP rad (f(th) is smooth; 1e-7 balances
 * truncation and round-off), its Jacobian is singular below a pivot ratio
 * of NSEDI_LINE_PIVOT and Gauss-Seidel sweeps stop when no direction moves
 * by NSEDI_LINE_SWEEP_MOVE rad. */
#define NSEDI_LINE_ALIGNED 1e-9
#define NSEDI_LINE_SCAN 72
#define NSEDI_LINE_BISECT 1e-15
#define NSEDI_LINE_FD_STEP 1e-7
#define NSEDI_LINE_PIVOT 1e-14
#define NSEDI_LINE_SWEEP_MOVE 1e-13

/* A direction is neutral, not unstable, when turning it by the finite-
 * difference step changes s x a_t by less than this fraction of |a_t| per
 * radian (a sphere's slip: every direction is aligned; a stable or
 * unstable root changes it by ~|a_t| per radian). */
#define NSEDI_LINE_NEUTRAL 1e-6

/* Differential roller tracking: the largest tangency residual a live state
 * may reach (re-anchored it is 0; the integration error grows it, ~1e-12 at
 * the default tolerances) before the run stops. */
#define NSEDI_TRACK_TOL 1e-6

/* The trial-and-error resolver's consistency tolerance, relative to the
 * force (or acceleration) scale: the smooth phase's round-off. */
#define NSEDI_TRIAL_TOL 1e-9

#endif
