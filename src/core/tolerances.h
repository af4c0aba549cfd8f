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

/* A Coulomb stick's tangential speed <= NSEDI_LAW_STICK_SPEED slip_tol. A
 * stick starts within slip_tol of rest: a contact closing below it is a
 * stick candidate and keeps its velocity, and the settling impulse on
 * dependent rows stops at it (event_settle.c); the phase then holds the
 * tangential acceleration at zero, and the integration adds its drift,
 * for which the check allows slip_tol again (measured: the shipped
 * problems' sticks within 3.9e-11 m/s at the method's states, the
 * 1000-unit vehicle runs within 5e-10, the mecanum car's chatter up to
 * 9.99e-10). */
#define NSEDI_LAW_STICK_SPEED 2.0

/* ... beyond this many times the velocity's noise (nsedi_slip_noise: the
 * integration's rtol of the magnitudes the velocity is made of, plus
 * atol), the drift the integration's error leaves a stick with. The
 * stabilised stick (gamma > 0) creeps at up to 2.7 times that noise under
 * DP5 and 38 times under CVODE's BDF (the snakeboards), 20 times without
 * stabilisation over 50 s (the disk on a shaft's case 3 without it),
 * measured on every shipped problem at rtol 1e-6, 1e-8 and the files'
 * own (docs/engine.md, "Loose tolerances"). */
#define NSEDI_LAW_STICK_NOISE 100.0

/* A drift_tol below this many times rtol is finer than the integration
 * holds positions (about rtol times their size, a metre or so in the
 * shipped problems: at rtol 1e-6 joints drift to 1e-6 and beyond): the law
 * monitor's message on a drift then says so. Only a message. */
#define NSEDI_DRIFT_RTOL_HINT 100.0

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

/* ... and the slow hold starts no lower than this many times the slip
 * velocity's noise (nsedi_slow_speed; docs/engine.md, "Loose
 * tolerances"): a free slip's direction turns at a rate ~ 1/|v|, and the
 * explicit method follows it only where the velocity stands well clear of
 * its noise. Within 5 to 20 noises of rest a slowing 2D slip hovered there
 * instead of stopping (the disk on a shaft at rtol 1e-8: 0.17 s late, 40
 * times the steps of rtol 1e-10); a hold inside the noise started its
 * roots within it (a sliding sphere at rtol 1e-6 left the hold reversed
 * before its stop root fired). At the files' tolerances 100 noises are
 * far below slip_stop_speed and nothing changes. */
#define NSEDI_SLOW_NOISE 100.0

/* A stick may only start with its friction force inside the friction set
 * by more than this (relative to the force scale): a force on the boundary
 * within round-off is a graze (the slip touches zero velocity and goes on:
 * the stick force there moves outwards, docs/engine.md "Stops and
 * grazes"), so the contact is posed as slipping. The smooth phase's forces
 * carry ~1e-15 of the scale on the shipped problems; the belt's stick at
 * mu0 = mu (1 + 1e-12) has a margin of 2e-12 of it and is kept. */
#define NSEDI_STICK_START_FLOOR 1e-13

/* Ternary-search steps for the redundant contacts' force anchor
 * (redundant_forces.c): each keeps 2/3 of the segment, so 40 locate the
 * deepest point to (2/3)^40 = 9e-8 of the segment between the event
 * problem's answer and the minimum-norm forces. Any point inside the laws
 * serves; the search only has to move off the answer's boundary vertex. */
#define NSEDI_ANCHOR_SEARCH_STEPS 40

/* Projected ascent from there: at most this many steps (each halves its
 * step from the force scale down to NSEDI_ANCHOR_STEP_FLOOR of it before
 * giving up); an improvement below NSEDI_ANCHOR_TIE of the force scale is
 * round-off, not progress. The objective is the soft minimum of the
 * margins with temperature NSEDI_ANCHOR_SOFTMIN of the force scale:
 * margins more than a few times that above the smallest hardly weigh, and
 * its maximum is within log(number of margins) times it of the best
 * smallest margin. */
#define NSEDI_ANCHOR_SOFTMIN 1e-2
/* The climb then goes on at temperatures falling by NSEDI_ANCHOR_COOLING
 * down to NSEDI_ANCHOR_SOFTMIN_LAST: each sees margins down to about its
 * own size, so a share of 1e-7 of the force scale (a box's trailing vertex
 * near its tipping point, the normal forces' free twist) is centred too,
 * to about the last temperature; at 1e-2 alone the two trailing vertices
 * of a tipping box kept a twist of 2e-7 of the force scale and left at
 * different instants. */
#define NSEDI_ANCHOR_SOFTMIN_LAST 1e-12
#define NSEDI_ANCHOR_COOLING 1e-2
#define NSEDI_ANCHOR_ASCENT_STEPS 30
#define NSEDI_ANCHOR_STEP_FLOOR 1e-12
#define NSEDI_ANCHOR_TIE 1e-13

/* The anchor's linear program (redundant_forces.c, deepen): the cone's
 * circle enters through its inscribed polygon of this many sides, whose
 * margins are below the circle's by at most mu0 lambda_n (1 - cos(pi/64)) =
 * 1.2e-3 mu0 lambda_n: its answer lies inside the circle, and comparing it
 * with the climbed anchor's allows for that difference (lp_resolution). */
#define NSEDI_ANCHOR_LP_SIDES 64
/* The null space's basis from the anchored solve's projector: a column
 * left by Gram-Schmidt counts while its norm exceeds this over sqrt(q) (q
 * the anchored components): a projector's nonzero singular values are at
 * least 1, so while its range is not exhausted some column has norm at
 * least 1/sqrt(q); after, the columns are round-off (1e-15). */
#define NSEDI_ANCHOR_LP_RANGE 0.5
/* The climbed anchor's friction shares give way to the linear program's
 * only where those are deeper by more than this fraction of the force
 * scale at the first of their sorted margins that differ: GLPK solves to
 * its primal feasibility tolerance (tol_bnd, 1e-7 on rows that are margins
 * relative to the force scale), so a difference below it is the program's
 * resolution, and the climbed anchor stays. */
#define NSEDI_ANCHOR_LP_GAIN 1e-7
/* The pivots the anchor's linear program (maxmin_lp.c) may take, per row
 * and column: a few sweeps of a problem of tens of rows. One that needs
 * more is degenerate and cycling; the climbed anchor then stays. */
#define NSEDI_LP_PIVOTS_PER_ROW 20

/* At the root of a sticking contact's friction margin its force is on the
 * friction set's boundary and moving out: the acceleration problem is
 * asked with mu0 shrunk by this relative amount, i.e. as it is a moment
 * after the root (to first order the same answer for any small amount),
 * so that stick is ruled out and maximal dissipation picks the onset's
 * direction. Large against the problem's round-off (~1e-15 cond), small
 * against every physical margin. Its first-order effect on the answer's
 * forces is taken out where an onset starts on them (event_modes.c). */
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

/* Settling impulses (event_settle.c): rows of full rank by their singular
 * values (NSEDI_SCHUR_RANK_CUT) are solved by LU while its pivot ratio
 * stays above this; otherwise they are dependent (two rollers touching at
 * one point) and take the least-squares path below. The pivots alone do
 * not reveal rank: the mecanum car's tied tips left a ratio of 2e-7 on
 * rows dependent to round-off (docs/engine.md, "Settling on dependent
 * rows"). */
#define NSEDI_SETTLE_PIVOT 1e-12

/* Dependent settling rows (event_settle.c): the rows that only keep
 * their velocity weigh NSEDI_SETTLE_KEPT_WEIGHT against the hard rows
 * (those whose change the event asks for, and a slow slip's), so the
 * least-squares impulse reaches the hard ones to ~its square (1e-6
 * relative) and the kept ones absorb what the dependency forces. The hard
 * rows must then be reached to within NSEDI_SETTLE_CONSISTENT of the
 * largest change asked (measured: 1e-15 relative on the vehicle spinning
 * in place and on the table) or to within slip_tol, below which a contact
 * counts as at rest anyway, and a kept stick must end within slip_tol of
 * rest; otherwise the hard rows contradict the dependency. */
#define NSEDI_SETTLE_KEPT_WEIGHT 1e-3
#define NSEDI_SETTLE_CONSISTENT 1e-4

/* The modes are decided at the velocities before the settling impulse;
 * where the phase's forces after it leave a stick on or beyond its
 * friction set's boundary (a roller touching at its tip, whose
 * accelerations turn with its slip velocity as 1/r), they are decided
 * again at the settled state, up to NSEDI_SETTLE_PASSES times in all.
 * Measured: one pass more at one event of the vehicle spinning nearly in
 * place, none on the shipped problems (docs/engine.md, "Modes at the
 * settled state"); a stick still outside after the last pass is the law
 * monitor's to report. */
#define NSEDI_SETTLE_PASSES 3

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

/* The scan and bisection of one slip's direction run on its response
 * fitted from three evaluations (slip_response.c), which is exact in exact
 * arithmetic at a fixed state and fixed modes; the root found is used
 * where an evaluation there agrees with the model to this fraction of
 * |a_t| (measured: 2e-13 or better on the vehicles and the disk on a
 * shaft, over every scanned angle), else the search runs on evaluations. */
#define NSEDI_LINE_MODEL_TOL 1e-9

/* Projection at events (event_project.c): a closed contact more than
 * contact_tol off its surface (the chatter's ratchet, docs/engine.md) has
 * its gap closed by Gauss-Newton steps, each converging quadratically (the
 * gaps' curvature times the square of a displacement of ~contact_tol), to
 * NSEDI_PROJECT_REL contact_tol: one step from 1e-9 m leaves ~1e-18 m. */
#define NSEDI_PROJECT_REL 1e-3
#define NSEDI_PROJECT_ITERATIONS 4

/* Differential roller tracking: the largest tangency residual a live state
 * may reach (re-anchored it is 0; the integration error grows it, ~1e-12 at
 * the default tolerances) before the run stops. */
#define NSEDI_TRACK_TOL 1e-6

/* The trial-and-error resolver's consistency tolerance, relative to the
 * force (or acceleration) scale: the smooth phase's round-off. */
#define NSEDI_TRIAL_TOL 1e-9

/* ---- constrained dynamics (src/dynamics) ---- */

/* The Schur complement R M^-1 C^T of the constrained solve (accel.c) is
 * solved by LU while the ratio min|u_kk| / max|u_kk| of its pivots exceeds
 * NSEDI_SCHUR_PIVOT; below it the rows are taken as dependent and the
 * system goes to minimum-norm least squares. The pivot ratio is a cheap
 * stand-in for a condition estimate: exactly dependent rows (redundant
 * contacts, two rollers at one point) leave a pivot at round-off level
 * (~1e-16 of the largest), independent ones keep theirs far above it (the
 * systems' cond is up to ~1e6 on the omni vehicles); the threshold lies
 * between the two. */
#define NSEDI_SCHUR_PIVOT 1e-10

/* The linear-time solve (tree_solve.c) takes at most this many
 * loop-closing rows (a body's second contact with the floor, a closed
 * chain) on the small dense system of their multipliers, which costs
 * (bodies x rows) per solve; beyond it the dense Schur complement is
 * cheaper to reason about and the solve goes there. Its pivot blocks are
 * judged by NSEDI_SCHUR_PIVOT like the dense LU: a block below it may
 * hold dependent rows, and the dense path (least squares) decides. */
#define NSEDI_TREE_MAX_SECONDARY 24

/* The linear-time solve's first pass stands when its residual is below
 * this share of the finer of the integrator's rtol and the law monitor's
 * tolerance (NSEDI_LAW_NORMAL_TOL); otherwise one step of iterative
 * refinement follows. The residual is judged per body, against the largest
 * sum of magnitudes of the forces (or torques) in its equations, and per
 * row, against its terms at its bodies' largest accelerations: a backward
 * error, the answer being exact for forces perturbed by that share. Two
 * decades below what the integrator lets each step err by, it leaves the
 * steps and events where the refined solve puts them (docs/engine.md "The
 * constrained solve": the omni vehicles' first passes reach 4.5e-13,
 * badly scaled random trees 4e-8, which are refined). Event quantities
 * are always refined. */
#define NSEDI_TREE_REFINE_SHARE 1e-2

/* Below this many rows the dense Schur complement is the cheaper solve: a
 * block elimination handles every body and row group as a 6 x 6 block,
 * which a few dozen rows do not repay. Measured by bench_constrained_solve
 * (2026-12-07, AMD EPYC, one run): on chains of five-row joints the tree
 * path costs 0.93-1.07 of the dense one at 15-35 rows, 0.90 at 45, 0.68 at
 * 55, 0.41 at 150; the disk on the shaft (2 bodies, 9 to 11 rows) 2.25 us
 * per right-hand side dense, 4.2 to 4.9 on the tree. */
#define NSEDI_TREE_MIN_ROWS 40

/* ... and each loop-closing row (secondary, NSEDI_TREE_MAX_SECONDARY) must
 * be repaid by this many more rows: its column of paths and its share of
 * the secondary system cost the tree path about as much as two rows cost
 * the dense LU at these sizes. Measured by bench_constrained_solve with
 * the sprung vehicles' structure (a platform, legs of a strut and a wheel,
 * each wheel's contact a loop row through the ground or its attached
 * roller): the tree path breaks even at 48-55 rows with 6-8 loop rows, at
 * 65-78 rows with 15-18 (rule: 52-56, 70-76); on the vehicles themselves
 * (bench_omni_vehicle's N_w series) dense is faster at 4 wheels (52 rows,
 * 12 loop rows: 4.7 s against 5.4 s for 20 units of omni_vehicle_coast_4w)
 * and the tree at 8 and 10 (14% and 17%). */
#define NSEDI_TREE_ROWS_PER_LOOP_ROW 2

/* An open contact with a plane whose shape's bounding sphere is above the
 * plane by more than this many contact_tol is given that distance as a
 * lower bound of its gap at a step's end, not its closest point and rows
 * (simulate/eval.c, bounded_above_plane): any positive margin keeps its
 * closing indicator positive (its closing level is at or below the
 * surface); one contact_tol keeps the bound clear of the level's round-off. */
#define NSEDI_OPEN_BOUND_MARGIN 1.0

/* Least squares of a rank-deficient Schur complement: singular values
 * below this fraction of the largest count as zero. Dependent rows give
 * round-off-level ones (~1e-16 of the largest); the genuine directions of
 * the shipped models are above ~1e-6 of it. */
#define NSEDI_SCHUR_RANK_CUT 1e-11

/* The least-squares answer must still satisfy every row to this fraction
 * of 1 + the largest |target| + the largest free acceleration |M^-1 f|
 * (acceleration units; the 1 keeps the test meaningful when both vanish).
 * Dependent but consistent rows are met to round-off times the condition
 * (~1e-10 at cond 1e6); contradicting rows leave a residual of the size of
 * their contradiction, and the solve fails as singular. */
#define NSEDI_SCHUR_LSQ_RESIDUAL 1e-7

/* A disk lies flat on the floor when |u|, the sine of the angle between
 * its axis and the floor normal (u: the part of -n across the axis), is
 * below this: the lowest rim point's direction u/|u| carries a round-off
 * of eps/|u| and its rate grows as 1/|u|, while the rim is level to
 * 1e-9 R. Flat, every rim point is lowest and the rim contact is
 * undefined (an event error). */
#define NSEDI_DISK_FLAT 1e-9

/* Two spheres whose centres are closer than this (absolute, in the
 * model's length unit) have no contact normal: D / |D| is round-off. Any
 * real contact has |D| near ra + rb, so this only guards the division. */
#define NSEDI_SPHERE_COINCIDENT 1e-12

/* Two capsules' axes are parallel when 1 - (u . w)^2 is below this (an
 * angle of 1e-6 rad): the nearest points' rates grow as 1 / (1 - (u . w)^2)
 * and overlapping parallel segments touch along a line, which has no
 * nearest point (an event error); parallel segments apart touch end to
 * end. */
#define NSEDI_CAPSULE_PARALLEL 1e-12

/* The nearest point of an ellipsoid (ellipsoid_point.c): Newton's step on
 * the closest-point equation's root t ends below this, relative to
 * max a_i^2 + t, the size of the step that F's round-off alone makes (1.5
 * eps of it); the iteration converges monotonically and quadratically, so
 * it gets there within a few dozen steps even from far away. The limit
 * only guards against a NaN input. The superellipsoid's iterations
 * (superellipsoid.c) end on the same relative step, and on a bracket that
 * narrow. */
#define NSEDI_NEAREST_STEP (4 * 2.220446049250313e-16)
#define NSEDI_NEAREST_MAX_ITER 200

/* A stalled integration names a closed superellipsoid contact whose plane
 * normal has a body component below this (dimensionless): it is crossing
 * a flat direction, where the explicit point's rate is unbounded
 * (docs/engine.md, "Algebraic surfaces"). Measured: the stalls stop at
 * components of 1e-16 to 1e-17. */
#define NSEDI_FLAT_NOTE 1e-6

/* Roller region boundary (roller.c): within this band of the region
 * indicator cos(psi) sin(alpha) - |n.i| (dimensionless, a difference of
 * direction cosines) the contact counts as on the boundary, where the tip
 * and the surface share the point but not its motion, and each roller is
 * evaluated on the side it is moving to (docs/rollers.md, "Handovers are
 * events"). A handover is located to ~1e-12 s, so the indicator at the
 * event is round-off times its rate, well inside the band, which is small
 * against the indicator's range (up to sin(alpha)). */
#define NSEDI_ROLLER_REGION_BAND 1e-9

/* The time (in the model's time unit) that weighs a rising roller's region
 * indicator r against its rate in max(r, T dr/dt) (simulate/indicators.c):
 * not a tolerance, the indicator's zero set is the same for any T > 0; it
 * tells a turn reversing short of the sector from an exit only where r and
 * dr/dt are both within round-off of zero at once (docs/rollers.md, "A
 * handover the turn reverses"). */
#define NSEDI_REGION_TURN_TIME 1.0

/* Differential tracking: the integrated profile parameter q is on the
 * roller's profile while cos(psi) (|sin q| - sin(alpha)) <= 2 band + this.
 * That expression is the region indicator's distance past the boundary in
 * q's terms (dimensionless, as the band). The states follow the surface
 * across the region band on both sides: an incoming roller counts as on
 * the surface from 2 band past the boundary, an outgoing one until its
 * region event. Beyond that only the location error of that event is
 * allowed (~1e-12 s times an O(1) indicator rate; this bound is 1000x
 * that); a q past it has left the roller and the tracking residual is
 * reported infinite (docs/rollers.md, "Tracking across the band"). */
#define NSEDI_ROLLER_PROFILE_MARGIN 1e-9

/* The roller's axis i counts as parallel to the floor normal n when
 * |n.i| >= 1 - this. Short of it the direction across the axis has length
 * sqrt(1 - (n.i)^2) >= ~1.4e-6 and its round-off is ~1e-10 rad, so the
 * initial angle phi is taken from it; at it the lowest point is a tip
 * (the surface needs |n.i| <= sin(alpha) < 1) and phi starts at 0. */
#define NSEDI_ROLLER_AXIS_PARALLEL 1e-12

/* ---- the complementarity layer (src/complementarity) ---- */

/* nsed's Lemke (lcp_lemke.c) works on the scaled LCP (D M D with every
 * entry at most 1, q to unit max-norm), so its tableau starts O(1); its
 * growth, 1 plus the sum over the pivots so far of each one's largest
 * update |T_ie| |T_rc|, bounds its entries' round-off in units of the unit
 * round-off. A pivot
 * must exceed NSEDI_LEMKE_PIVOT_REL of its column's largest entry and
 * NSEDI_LEMKE_PIVOT_ABS times the growth: entries below that are round-off
 * left by earlier pivots, never pivoted on. A fixed 1e-13 let the mecanum
 * car's impact problem (LCP of 80, tableau grown to 4e4) pivot on 3.8e-11
 * in a column whose every positive entry was round-off: the step (1.7e7)
 * blew the tableau up to 9e12 and Lemke "ended" 5.2e-6 from a solution
 * (docs/complementarity.md, section 7). */
#define NSEDI_LEMKE_PIVOT_REL 1e-11
#define NSEDI_LEMKE_PIVOT_ABS 1e-13

/* Ties in Lemke's minimum-ratio test: ratios within their round-off of
 * the minimum, DBL_EPSILON times the growth times (1 + minimum) over the
 * smallest pivot among them, are tied, that round-off taken at least
 * NSEDI_LEMKE_TIE_RATIO and at most NSEDI_LEMKE_TIE_CAP (both relative to
 * max(minimum, 1)); the most negative entries of the scaled q at the first
 * step are tied within NSEDI_LEMKE_TIE_RATIO. Degenerate problems produce
 * ratios equal up to round-off, which floating-point equality misses,
 * losing the lexicographic rule's anti-cycling guarantee. A fixed 1e-12 was
 * below the round-off of the mecanum car's impact problems (two feet a
 * wheel, the wheels mirrored): 21 to 23 ratios equal in real arithmetic
 * came out 1.3e-12 to 6.1e-11 apart, round-off chose among them instead of
 * the lexicographic rule, and Lemke ended on rays of problems that have
 * solutions. A fixed 1e-10 tied genuinely different ratios (1.7e-10 to
 * 8.4e-10 apart, their round-off below 1e-11) of the six-wheeled vehicle's
 * impact problem, and ended 2e-9 from its solution. The cap keeps a tie's
 * error ten times below the accuracy an answer is accepted at (solver tol,
 * 1e-9 relative): at 1e-9 itself, a sticking vehicle's event problem, whose
 * tangential rows' q are 1e-9 of the normal rows', had those rows tied
 * with z0's, and Lemke ended 2.6e-9 from the solution; the floor is what a
 * fixed tolerance was from 2026-11-29 (docs/complementarity.md, section 7). */
#define NSEDI_LEMKE_TIE_RATIO 1e-12
#define NSEDI_LEMKE_TIE_CAP 1e-10

/* Ties in the lexicographic comparison of the tied rows of B^-1 over the
 * pivot: within this fraction of the column's largest such quotient, for
 * the same reason. */
#define NSEDI_LEMKE_TIE_LEX 1e-9

/* The face form (friction_face.c) eliminates G_TT through its Cholesky
 * factor L; it treats G_TT as singular, and the vertex form of the same
 * polygon (which inverts nothing) is used instead, when min(L_ii)^2 is
 * below this fraction of max(G_TT,ii). Redundant contacts (a box on its
 * four corners) give round-off-level pivots, far below it. The ratio only
 * bounds 1/cond(G_TT) from above, so this cheap test catches the
 * rank-deficient G_TT, not every ill-conditioned one: an answer the
 * elimination damages is caught by the law check (NSEDI_CP_LAW_TOL) and
 * takes the same fallback. */
#define NSEDI_FACE_COND 1e-8

/* Mode decisions (contact_solver.c): tol_l = this times the largest
 * |lambda| and tol_a = this times max(largest |b|, largest |G_ij| times
 * largest |lambda|); a contact is open when lambda_n <= tol_l and
 * a_n > tol_a, a stick candidate sticks when |a_T| <= tol_a. Ten times the
 * accuracy to which answers are verified (NSEDI_CP_LAW_TOL, settings.tol
 * at its default), so a verified answer's zero a_n or a_T is never read as
 * a nonzero one. */
#define NSEDI_CP_MODE_TOL 1e-8

/* The independent check of a polygon answer against the contact laws
 * (laws_hold): lambda_n >= 0, a_n >= 0, lambda_n a_n = 0, lambda_T in the
 * polygon and maximal dissipation, each to this fraction of the problem's
 * own scales (forces: max(|lambda|, |b| / |G|); accelerations:
 * max(|b|, |G| times the force scale)). An answer verified at the default
 * settings.tol (1e-9) passes; the round-off that the face form's
 * elimination through G_TT^-1 can amplify without the LCP residual seeing
 * it (a tangential force of 77 at zero normal force with an LCP residual of
 * 1.3e-10, docs/complementarity.md §2) does not. */
#define NSEDI_CP_LAW_TOL 1e-9

/* A slipping contact's slip_dir must be a unit vector to within this
 * (absolute, on |s| - 1): its kinetic friction is -mu lambda_n s, so the
 * friction's magnitude is then mu lambda_n to this relative accuracy.
 * A direction normalised by the caller is unit to round-off; one that is
 * off by more was not normalised and is bad input. */
#define NSEDI_CP_UNIT_TOL 1e-6

/* The AUTO path's regularised retries (lcp_solve.c): nsed's Lemke on
 * M + eps I with eps these fractions of max|M_ij| in turn, smallest first.
 * M + eps I is better conditioned; the perturbation picks the support,
 * which is then re-solved on M itself and verified there. The perturbed
 * answer is kept instead only where it is the better answer of M and
 * eps max|M_ij| max|z| <= tol ||q|| (nearly dependent supports, whose
 * exact re-solve amplifies round-off). The smallest is far above the
 * round-off of M's entries, the largest still small against the entries
 * that decide the support. */
#define NSEDI_LCP_REG_EPS {1e-10, 1e-8, 1e-6}

/* The AUTO path stops Siconos' Lemke, which runs after nsed's, after this
 * many pivots per unknown. Siconos' Lemke has no anti-cycling rule: on a
 * degenerate LCP it can cycle to the pivot limit, where z0 sits at zero
 * and the basis it stops on passes the verification (a 9-unknown face
 * problem of bench/bench_lcp: 10,000 pivots, 1 ms, where nsed's
 * lexicographic Lemke, which cannot cycle, takes 3 pivots and 2 us). Its
 * successes on the bench's 1,800 random problems of 5 to 108 unknowns
 * took at most 1.6 pivots per unknown below 16 unknowns and 7.5 at 108.
 * Not only cycles reach the cap (the driven vehicle's time event in the
 * vertex form, 102 unknowns, takes Siconos 12.7 per unknown), so the basis
 * it stops on is verified like any answer, and accepted if it solves the
 * problem. */
#define NSEDI_SICONOS_PIVOTS_PER_UNKNOWN 10

/* The exact cone (friction_cone.c): fc3d's NSGS is iterative and stops at
 * cone_tol on its own error measure, while nsed recomputes the natural-map
 * residual with its own scales; the answer is accepted up to
 * max(NSEDI_CONE_ACCEPT_FACTOR cone_tol, NSEDI_CONE_ACCEPT_FLOOR): three
 * orders of slack between the two measures, and never tighter than the
 * 1e-9 of the problem's scales that polygon answers are checked to
 * (NSEDI_CP_LAW_TOL). */
#define NSEDI_CONE_ACCEPT_FACTOR 1e3
#define NSEDI_CONE_ACCEPT_FLOOR 1e-9

/* NSGS sweeps before fc3d gives up. NSGS converges linearly, slowly on
 * nearly dependent contacts: the omni vehicle spinning in place poses a
 * 3-contact problem that needs 84811 sweeps to reach cone_tol 1e-12
 * (tests/data/cone/spin_in_place_3c.txt; 20000 stopped it at a residual of
 * 1.2e-9). The limit only bounds a run that does not converge, at
 * well under 1 us per contact and sweep (the problem above: under 0.1 s);
 * converging problems stop at cone_tol. NSGS's local (one-contact)
 * solver's tolerance is no constant: friction_cone.c derives it from
 * cone_tol and the problem's force scale, its measure being squared. */
#define NSEDI_CONE_NSGS_SWEEPS 1000000

/* Where NSGS's answer does not verify, fc3d's extragradient method (VI_EG)
 * gets this many iterations: the mecanum car's impact problem of five
 * contacts that NSGS leaves at 3.2e-5 after its 1e6 sweeps takes it 1e4
 * (to 1.1e-13); each costs a product with W and a projection per contact,
 * so the limit bounds a problem that does not converge at well under a
 * second for a dozen contacts. */
#define NSEDI_CONE_EG_ITERATIONS 1000000

/* The AUTO path's last resort above the enumeration's size
 * (lcp_milp.c): a mixed-integer search over the complementary supports,
 * limited to pairs with z and w within a bound of the problem's scale (z_j
 * max_i |M_ij| and w_i against max_i |q_i|), tried with each of
 * NSEDI_LCP_MILP_BOUNDS in turn, and to NSEDI_LCP_MILP_TIME_MS of wall time
 * in all, shared evenly. An event problem's answer is of the problem's
 * scale (an impulse of order |v| / |G|), but dependent contacts may load
 * each other far beyond it. The bound is the big-M of the formulation and
 * sets the cost unpredictably: on the mecanum car's impact problem of 70
 * unknowns 30 took 23 s, 100 0.27 s, 1000 1.5 s, and 1e4 hit an internal
 * assertion of GLPK's simplex after 20 s; on its sibling from the run in
 * differential tracking 100 gave up after 10,000 nodes (9 s) and 1000 took
 * 0.14 s (docs/complementarity.md, "The mixed-integer search"). The time
 * limit bounds a search that does not end: a problem whose entries span 19
 * decades (a fuzzed contact problem) took GLPK 0.25 s a node. Five seconds
 * are about 20 times the car's searches, and what a run that cannot go on
 * spends before it says so; a search stopped by the limit depends on the
 * machine's speed, an answer never does (it is verified). An integer point
 * is accepted with y_i within NSEDI_LCP_MILP_TOL_INT of 0 or 1 (GLPK's
 * default 1e-5 times U would let z_i reach 1e-3 of the scale where y_i says
 * 0); the point is sharpened with y fixed anyway, and verified. */
#define NSEDI_LCP_MILP_BOUNDS {1e2, 1e3}
#define NSEDI_LCP_MILP_TIME_MS 5000
#define NSEDI_LCP_MILP_TOL_INT 1e-9

/* LCP verification (lcp_verify.c): row i's scale is at least this
 * fraction of sum_j |M_ij z_j|, the size of what was summed into w_i, so
 * its round-off eps sum_j |M_ij z_j| weighs at most 2.2e-13 in the
 * residual, below the tightest settings.tol in use (1e-12). */
#define NSEDI_LCP_ROW_SCALE 1e-3

/* The basis polish re-solves a singular support block (redundant
 * contacts) by minimum-norm least squares: singular values below this
 * fraction of the largest count as zero. Exactly dependent rows give
 * round-off-level ones; the cut sits just above them, and the polished
 * answer is kept only if its verified residual is smaller. */
#define NSEDI_POLISH_RANK_CUT 1e-13

/* ---- joint drives' tables (src/simulate/kinks.c) ---- */

/* A table's input (a joint coordinate or rate) within this fraction of a
 * knot's magnitude (and its own) lies on that knot: where a knot's root
 * fired, the input is there to the root's location in time, a few ulps of
 * the input's own size; the side it goes on is then the motion's, not its
 * round-off's. */
#define NSEDI_KINK_ON_KNOT 1e-12

/* ---- model validation (src/model) ---- */

/* Quaternions, joint axes, force directions and the floor normal are
 * normalised when the model is built; one whose length is below this
 * (absolute: they are given at any length) has no direction and is bad
 * input. A nonzero vector given by the user is far longer. */
#define NSEDI_MODEL_ZERO_VECTOR 1e-12

/* Principal moments obey the triangle inequality J_i <= J_j + J_k up to
 * this fraction of J_0 + J_1 + J_2: a planar body (a thin disk or plate)
 * is on the equality, and its moments, computed or given, carry round-off. */
#define NSEDI_MODEL_INERTIA_SLACK 1e-12

/* A rotor's two moments across its axis must be equal to this fraction
 * of their sum: its state's frame does not turn with it about the axis, so
 * the inertia in that frame is constant only for a body symmetric about
 * it, and a difference e J is a torque e J w_axis w_across left out.
 * Moments computed from a shape of revolution, or given to 15 digits,
 * agree to round-off. */
#define NSEDI_MODEL_ROTOR_SYMMETRY 1e-12

/* Joint axes in the initial configuration, on the cosine c of the angle
 * between the two axes in world coordinates: a universal joint's must be
 * perpendicular to |c| <= this (an angle error of 1e-6 rad); the aligned
 * joints' (revolute, cylindrical, prismatic, weld, servo) need
 * c >= 1 - this, which, the cosine being quadratic there, admits an angle
 * of sqrt(2e-6) = 1.4e-3 rad. Axes and orientations given to 7 digits
 * (a round-off of ~1e-7 in c) pass. */
#define NSEDI_MODEL_AXIS_COS 1e-6

/* Implicit tracking takes the contact point from the wheel's envelope, so
 * a roller must be mounted where the envelope needs it: its centre at
 * R cos(pi/n) from the wheel's to this fraction of R, its axis across the
 * radius and the wheel's axis at psi, each direction cosine to this
 * (absolute). The envelope's point is then off the roller's surface by
 * about this times R; coordinates given to 7 digits pass. */
#define NSEDI_MODEL_MOUNT_TOL 1e-6

/* The floor's velocity (a belt's) must lie in its plane: the plane itself
 * stays at floor.point, so a normal component would be a velocity the gap
 * does not have. |v.n| <= this times (1 + |v|): round-off relative to |v|
 * (absolute, in m/s, for a slow floor). */
#define NSEDI_MODEL_FLOOR_TANGENT 1e-12

/* A parent with attached rotors is solved with their mass and moments
 * added to its own as a body about its centre with principal axes its own
 * (docs/engine.md, "Attached rotors"): the rotors' mass moment about that
 * centre must vanish to this fraction of sum m_i |rho_i|, and the inertia
 * they add must be diagonal in its axes to this fraction of its trace. A
 * ring of equal rollers has both at round-off (1e-16 a roller). */
#define NSEDI_MODEL_ATTACHED_BALANCE 1e-12

/* An attached rotor's initial velocity and its angular velocity across its
 * axis are the parent's motion, not states of their own: given ones must
 * agree with it to this fraction of the motion's scale (|v| + |w| |rho|,
 * |w|) plus this (absolute, m/s and rad/s). Values computed from the
 * parent's to 15 digits pass; a velocity the run would silently replace
 * does not. */
#define NSEDI_MODEL_ATTACHED_MOTION 1e-9

/* Sharing redundant sticks' friction by load (eval.c, share_by_load): a
 * normal force below this fraction of the largest counts as this much in
 * a tangential row's weight N_ref / N. */
#define NSEDI_LOAD_SHARE_FLOOR 1e-17

/* share_by_load keeps the first (nearest-anchor) answer when its weighted
 * distance to the load shares is within this fraction of the largest
 * normal force: the two answers then differ by at most twice this, well
 * inside the force floor. A tenth of NSEDI_LIFTOFF_FORCE, not the floor
 * itself: contacts of one pair leave together when their normal forces are
 * within that of zero, and a tipping box's two trailing normals kept 1e-9
 * apart instead of equal did not (engine_box_tipping, mu 0.6, cone).
 * Measured: the resting boxes of engine_planes sit at 1e-10 to 1e-15 of
 * their normal force, where the weighted solve costs half their run. */
#define NSEDI_LOAD_SHARE_KEEP (NSEDI_LIFTOFF_FORCE / 10)

/* ---- landing on an event (src/simulate/event_land.c) ---- */

/* An event's time is located on the method's own steps to this many
 * roundoffs of (|t| + |h|): SUNDIALS' own root tolerance (100 uround of
 * the same sum), below which the indicator's sign is round-off. */
#define NSEDI_LAND_TIME_RES (100 * 2.220446049250313e-16)

/* Where the interpolant stands in for the method's steps, as a fraction
 * of the local error tolerance (rtol |x| + atol): the method's state at
 * the interpolant's root within this fraction of it in every state leaves
 * that root standing (no search: the interpolant's error is negligible
 * against the step's own); and within this fraction of the step from a
 * step taken again, a trial is the interpolant plus the difference found
 * there, which changes over |t - t_c| by about that fraction of itself
 * (the difference is itself of the order of the local error). */
#define NSEDI_LAND_AGREE 1e-3

/* Trials of the search per landing before it reports failure: from the
 * interpolant's root it ends in 1 to 3 (measured on the vehicles); it
 * bisects whenever two trials did not halve the bracket, so a step of any
 * size is resolved to 1e-16 of it within 3 x 55 trials. More means the
 * indicators are not a function of the state (a bug). */
#define NSEDI_LAND_MAX_TRIALS 200

/* A tip held on its wheel's sector edge by its region row (its normal row
 * replaced, simulate/event_edge.c) must have its gap held by its partner's:
 * its normal acceleration within this fraction of the accelerations' scale
 * (the largest generalised acceleration or g). Where the vehicle's normal
 * rows are dependent (a rigid three-wheeler on four feet) it is round-off,
 * ~1e-12; where they are not (a sprung wheel), of order one: the sliding
 * mode is then not posed. */
#define NSEDI_EDGE_DEPENDENT 1e-6

#endif
