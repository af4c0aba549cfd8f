/* The simulate layer's internal functions; the data's layout is in data.h. */
#ifndef NSED_SIMULATE_SIM_IMPL_H
#define NSED_SIMULATE_SIM_IMPL_H

#include "data.h"

#include <math.h>
#include <string.h>

/* ---- the smooth phase (eval.c, indicators.c) ---- */

/* The caches (and the right-hand side's memo) hold the integrator's
 * evaluation at exactly (t, x) for this phase: the right-hand side depends
 * on x's first nstate entries and t alone (not on the work integrals). */
static inline int nsedi_cached_at(const nsed_model *m, const nsed_data *d, double t,
                                  const double *x) {
  const nsedi_cache *ca = &d->cache;
  return ca->key_valid && t == ca->t_key &&
         !memcmp(x, ca->x_key, sizeof(double) * (size_t)m->nstate);
}
/* The side a closed roller is evaluated on (nsedi_roller_point_eval): in a
 * smooth phase the one it started on, continued past the boundary to the
 * phase's region root, so that no step integrates across a switch of its
 * forces; in an event's stages the side it is moving to (0). */
static inline int nsedi_contact_side(const nsed_model *m, const nsed_data *d, int c) {
  (void)m;
  if (d->ph.mode[c] == NSED_MODE_OPEN) return 0;
  if (d->ph.edge[c] >= 0) return -1; /* on its sector edge: at its tip */
  if (d->ev.by_motion) return 0;
  return d->ph.region_sign[c] > 0 ? 1 : d->ph.region_sign[c] < 0 ? -1 : 0;
}

/* Evaluate everything at (t, x) for the current phase: kinematics, contact
 * geometry, accelerations (into xdot if not NULL) and multipliers. */
int nsedi_eval(const nsed_model *m, nsed_data *d, double t, const double *x, double *xdot,
               nsed_error *err);

/* The same for the integrator's right-hand side: the geometry of an open
 * contact (no rows, no force, no tracked point) is left out; the
 * accelerations, multipliers and xdot are nsedi_eval's, bit for bit. */
int nsedi_eval_rhs(const nsed_model *m, nsed_data *d, double t, const double *x, double *xdot,
                   nsed_error *err);

/* Adds the geometry nsedi_eval_rhs left out, at the same x (its
 * kinematics are still in the cache): then the caches are nsedi_eval's. */
void nsedi_eval_complete(const nsed_model *m, nsed_data *d, const double *x);

/* The torsional moment of contact c per unit normal force (m), signed
 * about n on the body: -torsion sat(w_n / torsion_rate); 0 without torsion. */
double nsedi_torsion_factor(const nsed_contact_def *cd, const nsedi_contact_geom *g);

/* Redundant contacts' forces follow the phase's force anchor only while no
 * closed contact slips with friction (or torsion): a slipping contact's
 * friction follows its normal force, so there the share of the normal
 * forces moves the bodies, and it stays the minimum-norm one (that of
 * equally stiff contacts), a function of the state alone. With sticking
 * and frictionless contacts only, the share moves nothing (docs/engine.md,
 * "Redundant contacts"). */
int nsedi_forces_anchored(const nsed_model *m, const nsed_data *d);

/* A joint row's acceleration target -(bias + Baumgarte terms): the row's
 * own feedback replaces the Baumgarte terms (an acceleration-level servo). */
double nsedi_joint_row_target(const nsed_options *o, const nsedi_row *r);

/* Root functions at (t, x) for the current phase (nroot values). An
 * explicit method's step end is the point of its last right-hand side
 * (FSAL): when the caches still hold exactly that evaluation, it is
 * reused instead of repeated. */
int nsedi_indicators(const nsed_model *m, nsed_data *d, double t, const double *x, double *g);

/* The raw indicators of contact c from the last evaluation, before the
 * phase's root offsets are subtracted. */
void nsedi_contact_indicators(const nsed_model *m, const nsed_data *d, int c,
                              double g[NSEDI_ROOTS_PER_CONTACT]);

/* Held slip c's regime root at the cached state, for its slow flag and
 * held direction s: the indicator NSEDI_ROOT_LINE, before root offsets. */
double nsedi_line_root(const nsed_model *m, const nsed_data *d, int c, int slow, const double s[2]);

/* The error of contact c's slip velocity components at the cached state:
 * the integration's (rtol times the magnitudes it is made of, plus atol)
 * or round-off's, whichever is larger. A slip's direction is known only to
 * this over its speed. */
double nsedi_slip_noise(const nsed_model *m, const nsed_data *d, int c);

/* The same for contact c's relative spin velocity (rad/s). */
double nsedi_spin_noise(const nsed_model *m, const nsed_data *d, int c);

/* The same for contact c's normal velocity: a closed contact's normal
 * velocity within it of slip_tol is the phase's drift, not a separation. */
double nsedi_normal_noise(const nsed_model *m, const nsed_data *d, int c);

/* Whether contact c's normal velocity separates it at this event: above
 * slip_tol and above its noise, and for a contact closed before the event
 * only if an impulse of this event (an impact) gave it. Otherwise it is the
 * drift of a contact held closed, which its stabilisation corrects (1.3e-9
 * m/s on the mecanum car at the default tolerances, 1.2e-9 on a roller at
 * rtol 1e-8). */
int nsedi_separating(const nsed_model *m, const nsed_data *d, int c);

/* The speed below which contact c's slip is held on its direction:
 * solver.slip_stop_speed, raised to NSEDI_SLOW_NOISE times the slip
 * velocity's noise where the integration does not resolve it (loose
 * tolerances, fast bodies): the slow hold's roots then start clear of the
 * noise, as its band requires (docs/engine.md, "Slip direction"). */
double nsedi_slow_speed(const nsed_model *m, const nsed_data *d, int c);

/* Number of root functions of the model: NSEDI_ROOTS_PER_CONTACT a contact,
 * then the time breakpoints' (index NSEDI_ROOTS_PER_CONTACT nc), then two a
 * drive table's knots (kinks.c). */
int nsedi_nroot(const nsed_model *m);

/* ---- joint drives' table knots (kinks.c) ---- */

/* Index of the first root function of table k (of the model's nkink). */
int nsedi_kink_root(const nsed_model *m, int k);

/* The tables' root functions at state x (the kinematic cache evaluated
 * there) into g[0 .. 2 nkink): the distances of each table's input from
 * the ends of its segment, positive inside. */
void nsedi_kink_indicators(const nsed_model *m, const nsed_data *d, const double *x, double *g);

/* At a phase start (the cache at d->x): each table's segment, one on for a
 * table whose root fired (fired: the integrator's roots, NULL at the
 * start), else the one its input lies in; records a kink event for each
 * fired table. Returns NSED_OK or NSED_ERR_IO. */
int nsedi_kinks_pose(const nsed_model *m, nsed_data *d, const int *fired,
                     const nsed_observer *obs);

/* Relative acceleration along row r for the body accelerations du. */
double nsedi_row_accel(const nsedi_row *r, const double *du);

/* Distance of the tangential force (l1, l2) inside the friction polygon (or
 * circle) of radius mu0 ln: positive inside, zero on the boundary. */
double nsedi_friction_margin(const nsed_options *o, double mu0, double ln, double l1, double l2);

/* The inscribed polygon's radius (vertices at 2 pi j/sides on the unit
 * circle) along the direction (f1, f2): cos(pi/sides) mid-face .. 1 at a
 * vertex; 1 for a zero direction. */
double nsedi_inscribed_radius(int sides, double f1, double f2);

/* The vertex form's kinetic friction mu lambda_n rho(f) is continuous in the
 * force's direction f but has a kink at each vertex (angles 2 pi k /
 * sides): the sector k (vertices k and k + 1) that f = (f1, f2) lies in;
 * within on_vertex (rad) of a vertex, the one f turns into (turn: the rate
 * of f's angle; 0 takes the lower). */
int nsedi_vertex_sector(int sides, double f1, double f2, double on_vertex, double turn);

/* How far f lies inside sector k: min(e_k x f, f x e_k+1), positive
 * inside, zero on either vertex (units of f). */
double nsedi_sector_margin(int sides, int k, double f1, double f2);

/* The value of contact c's force-law kink function in root slot `slot`
 * and its rate (from the cached velocities and accelerations; rate may be
 * NULL), or NAN where the slot has none: a compliant contact's gap
 * (CONTACT; its force jumps there by the damping's part) and its
 * spring-damper force -k gap - c v_n (LINE; clamped at zero;
 * indicators.c). */
double nsedi_law_kink(const nsed_model *m, const nsed_data *d, int c, int slot, double *rate);

/* ---- the kinks of the contact laws (law_kinks.c) ---- */

/* For the phase that starts (an event's anchor stage, from the cached
 * velocities and accelerations): each free slip's sector in the vertex
 * form (-1 for every other contact), and the sides of the compliant law's
 * kink functions (ph.kink_side). */
void nsedi_pose_kinks(const nsed_model *m, nsed_data *d);

/* Whether the roots that fired (nroot flags) are all kinks of the laws or
 * lift-offs rising clear of their margins (no mode changes: the phase goes
 * on past them). */
int nsedi_only_kink_roots(const nsed_model *m, const nsed_data *d, const int *fired, int nroot);

/* At such roots: each crossing slip enters its next sector, each kink
 * function its other side, each clearing contact its level; the phase goes
 * on (the caches evaluated at d->x). */
int nsedi_cross_kinks(const nsed_model *m, nsed_data *d, const int *fired, nsed_error *err);

/* The kinetic friction coefficient of contact c slipping at speed sp with
 * its friction force along (f1, f2) in its tangent frame: exact Coulomb
 * mu, times, in the vertex form, the inscribed polygon's radius along the
 * force, since the slip's force must lie on the boundary of the set its
 * sticks are held in (docs/friction-models.md, "(c) The vertex form slides
 * on its polygon"); regularised and compliant mu min(1, sp/delta). Inline:
 * the right-hand side asks it for every slip. */
static inline double nsedi_kinetic_mu(const nsed_model *m, int c, double sp, double f1, double f2) {
  const nsed_contact_def *cd = &m->contact[c].def;
  if (cd->law != NSED_CONTACT_COULOMB) return cd->mu * fmin(1.0, sp / cd->delta);
  if (m->opt.friction.model != NSED_FRICTION_POLYGON_VERTEX) return cd->mu;
  return cd->mu * nsedi_inscribed_radius(m->opt.friction.sides, f1, f2);
}

/* Next breakpoint of any piecewise time law strictly after t (INFINITY if none). */
double nsedi_next_breakpoint(const nsed_model *m, double t);

/* ---- the event step (event.c and its stages) ---- */

/* Decide the contacts' modes at the current state and set up the next
 * phase: the stages of docs/engine.md, "The event step". Records events
 * through the observer. fired: which root functions triggered (NULL at the
 * start). */
int nsedi_resolve(const nsed_model *m, nsed_data *d, const int *fired, const nsed_observer *obs,
                  nsed_error *err);

/* Stage 0b, project (event_project.c), within prepare: the ending phase's
 * closed contacts moved back onto their surfaces when one has drifted
 * beyond contact_tol; re-evaluates the state when it moved it. */
int nsedi_event_project(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Stage 1, classify (event_classify.c): the triggers each fired root means
 * and the contacts of the event problem (ev.cand[0, ev.n)). */
int nsedi_event_classify(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Stage 2, impact (event_problems.c): the velocity-level problem when a
 * touching contact approaches; applies the impulses. */
int nsedi_event_impact(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Stage 2b, regimes (slip_regime.c): each continuing slip's regime at
 * this event (held on its direction, slow, or free), decided once before
 * the event problem poses it; rewrites the ev.prev_* slip state. */
void nsedi_event_regimes(const nsed_model *m, nsed_data *d);

/* Stage 3, acceleration problem and mode decision (event_modes.c): the
 * acceleration-level problem for the touching contacts without separating
 * velocity, its answer turned into modes, repeated with a contact posed as
 * slipping while one would start sticking on the friction set's boundary. */
int nsedi_event_modes(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Sector edges (event_edge.c; docs/rollers.md, "The sector edge's sliding
 * mode"). At classify: a wheel whose turn came to rest inside the band of
 * a sector edge (a rising roller's region root at its reversal) held on
 * the edge where the mode holds there (ev.edge_entered), then which tip of
 * each pair on an edge waits out of the event problem and which opens
 * (ev.edge_out). */
void nsedi_edge_enter(const nsed_model *m, nsed_data *d);
void nsedi_edge_classify(const nsed_model *m, nsed_data *d);

/* Whether closed roller c's region root, rising from below zero, fired as
 * its turn reversed short of its sector (indicators.c), not at its exit. */
int nsedi_region_turned_back(const nsed_data *d, int c);

/* Stage 3b, edge, after each mode decision: each waiting tip posed again
 * beside its partner if that one is closed and the waiting tip slipped
 * fast, kept while both tips are loaded and its gap is held by its
 * partner's; else opened. Re-evaluates. */
int nsedi_event_edge(const nsed_model *m, nsed_data *d, nsed_error *err);

/* The Zeno guard's remedy for a wheel rocking on a sector edge between
 * roller contacts c and o (one closed and slipping, the other just opened
 * at its tip): both closed on the edge, the residual turn removed by an
 * impulse at the reopened tip. Returns 1 when the mode holds (why: the
 * turn rate removed), else 0 with the positions, velocities and the two
 * contacts' modes as they were (the run then stops on the storm) and why
 * it does not hold in why. */
int nsedi_edge_capture(const nsed_model *m, nsed_data *d, int c, int o, char *why, size_t size);

/* Stage 7b, after record: the storm the Zeno guard left to it (ev.rocking,
 * a wheel rocking on a sector edge) ends in the edge's sliding mode,
 * recorded as a zeno event on the tip closed again; where the mode does
 * not hold, the storm error, with why. */
int nsedi_event_rocking(const nsed_model *m, nsed_data *d, const nsed_observer *obs, nsed_error *err);

/* The Zeno guard's error for an event storm on contact c, with what the
 * storm is appended (event_record.c). */
int nsedi_storm_error(const nsed_model *m, nsed_data *d, int c, const char *why, nsed_error *err);

/* Slip c goes on through the event in the state it had before it (its
 * regime as the regimes stage left it): held or free, slow, its direction
 * and coefficient (event_modes.c). */
void nsedi_slip_goes_on(nsed_data *d, int c);

/* Its inverse: slip c's present state taken as the one it had before the
 * event (a tip closed onto its sector edge at the event's start, which the
 * edge stage then poses as going on). */
void nsedi_slip_as_before(nsed_data *d, int c);

/* After an evaluation of the new modes: pose as slipping every sticking
 * candidate whose friction force is on or beyond its friction set's
 * boundary (NSEDI_TRIG_NOSTICK); returns how many (event_modes.c). */
int nsedi_event_boundary_sticks(const nsed_model *m, nsed_data *d);

/* After the settle stage refused its impulse: every closed contact whose
 * stop root fired at this event (a stick, or a slip from rest) and that
 * still moves faster than slip_tol has not stopped; it is posed as
 * slipping on along its velocity (NSEDI_TRIG_UNSTOPPED); returns how many
 * (event_modes.c). */
int nsedi_event_unstopped(const nsed_model *m, nsed_data *d);

/* Assemble the event problem of the candidates cand[0, n) (W, G, b, PWt). */
int nsedi_event_build(const nsed_model *m, nsed_data *d, int n);

/* Solve the assembled problem (impact or acceleration level); a failure
 * becomes an error naming the contacts with their gaps and speeds. */
int nsedi_event_solve(const nsed_model *m, nsed_data *d, int n, int impact_level,
                      nsed_lcp_stats *st, nsed_error *err);

/* After the acceleration problem's modes (event_modes.c): the phase's
 * force anchor, the point between the problem's answer and the
 * minimum-norm forces of the new phase that lies deepest inside every
 * closed contact's law (redundant_forces.c; docs/engine.md, "Redundant
 * contacts"). Leaves the caches evaluated with it. */
int nsedi_centre_force_anchor(const nsed_model *m, nsed_data *d, int na, nsed_error *err);



/* Stage 5, settle (event_settle.c): impulses that remove the residual
 * tangential velocity of stopping contacts and of slips starting from rest,
 * the transverse velocity of slips entering the slow hold, and the
 * residual approach of contacts closing without an impact. */
int nsedi_event_settle(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Stage 4, slip directions (onset.c): the direction each new or slowing
 * slip is held on, aligned with its own tangential acceleration. Leaves
 * the caches evaluated. Where the friction circle admits no directions
 * for the onsets it sets *off_circle and changes nothing: the caller
 * decides the modes again with ev.onsets_on_polygon, and the stage then
 * checks the onsets on the problem's own forces. */
int nsedi_event_lines(const nsed_model *m, nsed_data *d, int *off_circle, nsed_error *err);

/* Put onset candidate i (ev.cand[i]) on the event problem's own friction
 * force: against it, with its magnitude while the slip is slow
 * (event_modes.c; docs/engine.md, "Onsets the circle does not admit"). */
void nsedi_onset_on_problem_force(const nsed_model *m, nsed_data *d, int i);

/* Stage 6, anchor (event_anchor.c): the next phase's root offsets and
 * region signs. */
void nsedi_event_anchor(const nsed_model *m, nsed_data *d);

/* The same for contact c alone (a mode the Zeno guard changed after the
 * anchor stage). */
void nsedi_event_anchor_contact(const nsed_model *m, nsed_data *d, int c);

/* After an impact (event_settle.c): the impulse that settles the separating
 * velocity of the contacts marked NSEDI_TRIG_HOVER, every other touching
 * contact's rows keeping their velocities (dependent rows by least
 * squares). Returns 1 when applied, 0 when there was none or not every
 * row can be given its velocity (nothing is applied: the contact flies). */
int nsedi_settle_hovering(const nsed_model *m, nsed_data *d);

/* Every fast held slip takes its velocity's direction (after an impulse that
 * kept the rows' velocities but not the slips' tangential ones; docs/engine.md,
 * "Slips the settling impulse reaches"); slow slips keep theirs
 * (event_settle.c). */
void nsedi_realign_fast_slips(const nsed_model *m, nsed_data *d);

/* ---- the lift-off margin (liftoff_margin.c) ---- */

/* How far (m) below its gap a contact that lifts off at contact c's event
 * may sink before its closing root counts: NSEDI_LIFTOFF_MARGIN or, for a
 * roller, NSEDI_ROLLER_LIFTOFF_MARGIN contact_tol. */
double nsedi_liftoff_margin(const nsed_model *m, int c);

/* Contact c lifts off at this event, its closing root watched from offset
 * `watched` (a margin below the level it left); `level` is the offset it
 * is watched from once its gap has risen a margin above that: armed here
 * (ph.clearing), or, where the two hardly differ, not. Returns the closing
 * offset to start with (`level` if the gap is above it already). */
double nsedi_arm_liftoff_clearance(const nsed_model *m, nsed_data *d, int c, double watched, double level);

/* Contact c's clearance indicator (root slot NSEDI_ROOT_LINE of an open
 * contact): positive until its gap rises to ph.clear_at; 1 unarmed. */
double nsedi_liftoff_clearance_root(const nsed_data *d, int c);

/* At that root: c's closing root watched from the level from now on. */
void nsedi_clear_liftoff_margin(nsed_data *d, int c);

/* Stage 7, record (event_record.c): every mode change as an event, the
 * Zeno guard and the event limits. */
int nsedi_event_record(const nsed_model *m, nsed_data *d, const nsed_observer *obs,
                       nsed_error *err);

/* The stall guard (event_record.c; docs/engine.md, "The Zeno guard"): root
 * slot `root` of contact c (named `what` in the message) fired where no
 * mode changed. A phase that returns to the same boundary at once fires it
 * again and again, a crawl no event records: zeno_events such roots on one
 * contact within zeno_window, with no mode changed anywhere in between
 * (event_record.c starts the rings again at every recorded change), stop
 * the run (NSED_ERR_EVENT). */
int nsedi_stall_guard(const nsed_model *m, nsed_data *d, int c, int root, const char *what,
                      nsed_error *err);

/* Emit one event through the observer. */
/* A kink event of joint j's drive table (its name in the event's path). */
int nsedi_kink_event(const nsed_model *m, nsed_data *d, const nsed_observer *obs, int j);

int nsedi_event_emit(const nsed_model *m, nsed_data *d, const nsed_observer *obs,
                     nsed_event_kind kind, int c, nsed_mode from, nsed_mode to,
                     const nsed_lcp_stats *st);

/* Locate the root SUNDIALS returned (at d->t, on its interpolant) again
 * on the method's own solution between t_from (the last return) and the
 * step's end, and move the state, time and fired roots to it
 * (event_land.c; docs/engine.md, "Landing on events"). */
int nsedi_land_on_event(const nsed_model *m, nsed_data *d, int *fired, double t_from, nsed_error *err);

/* A held slip whose speed dipped through zero and back within one step
 * (missed_stop.c): at a root of its speed minimum with the speed below
 * zero, the stop is located on the step's dense output between t_from
 * (the last return) and d->t, and the state and fired roots are moved
 * back to it. */
int nsedi_locate_missed_stops(const nsed_model *m, nsed_data *d, int *fired, double t_from,
                              nsed_error *err);

/* Roller handovers (roller_events.c): the policy by which roller contacts
 * join an event problem or hand their contact over to the next roller. */
int nsedi_roller_drop_handed_over(const nsed_model *m, nsed_data *d, int n);
int nsedi_roller_next_waiting(const nsed_model *m, const nsed_data *d, int c);
int nsedi_is_roller(const nsed_model *m, int c);
int nsedi_roller_storm_partner(const nsed_model *m, const nsed_data *d, int c, int *together);

/* The trial-and-error alternative to the acceleration LCP for candidates
 * cand[0..n) (resolve_trial.c); fills cmode, cl, cdir like the LCP. */
int nsedi_trial_modes(const nsed_model *m, nsed_data *d, int n, nsed_lcp_stats *st, nsed_error *err);

/* Make the initial velocities consistent with the joints' velocity
 * constraints by the mass-weighted projection (positions are not moved). */
int nsedi_project_velocities(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Slip speed |v_t| of a contact geometry. */
static inline double nsedi_slip_speed(const nsedi_contact_geom *g) {
  return hypot(g->row[1].vel, g->row[2].vel);
}

/* The contact's law is exact Coulomb with friction (a direction to decide). */
static inline int nsedi_coulomb_friction(const nsed_model *m, int c) {
  const nsed_contact_def *cd = &m->contact[c].def;
  return cd->law == NSED_CONTACT_COULOMB && !(cd->mu == 0 && cd->mu0 == 0);
}

/* The contact's torsional friction is exact Coulomb (set-valued): its spin
 * sticks or turns, decided at events (docs/engine.md, "Torsional friction"). */
static inline int nsedi_exact_torsion(const nsed_model *m, int c) {
  const nsed_contact_def *cd = &m->contact[c].def;
  return cd->law == NSED_CONTACT_COULOMB && cd->torsion > 0;
}

/* A spin slower than this is at rest (rad/s): slip_tol / torsion, where
 * its moment's power per unit normal force falls below that of a
 * tangential slip at slip_tol. */
static inline double nsedi_spin_rest_speed(const nsed_model *m, int c) {
  return m->opt.slip_tol / m->contact[c].def.torsion;
}

/* Number of contacts with exact torsional friction. */
static inline int nsedi_n_exact_torsion(const nsed_model *m) {
  int n = 0;
  for (int c = 0; c < m->ncontact; c++) n += nsedi_exact_torsion(m, c);
  return n;
}

/* Kinetic energy of the current state (refreshes the kinematic cache). */
double nsedi_state_kinetic(const nsed_model *m, nsed_data *d);

/* Add the velocity change du (nv) to the state's body velocities. */
void nsedi_add_velocity(const nsed_model *m, double *x, const double *du);

/* Move the bodies by the displacement dq (nv, laid out as the velocities:
 * translation in the world, rotation in body axes); a rotor's rotation
 * about its axis goes to its turn. Quaternions are left unnormalised. */
void nsedi_add_displacement(const nsed_model *m, double *x, const double *dq);

/* Refresh kinematics and contact geometry at (t, x) without solving. */
void nsedi_refresh_geometry(const nsed_model *m, nsed_data *d);

/* ---- the law monitor (monitor.c) ---- */

/* Set the checks' tolerances and clear their worst margins. */
void nsedi_monitor_init(const nsed_model *m, nsed_data *d);

/* Check every contact against its law and every joint against drift_tol on
 * the caches of the last evaluation, which was at time t (an output
 * sample, an event or an integrator step's end); record the worst margins;
 * NSED_ERR_LAW with the numbers on a violation. */
int nsedi_monitor_check(const nsed_model *m, nsed_data *d, double t, nsed_error *err);

/* ---- differential roller tracking (data.c) ---- */

/* DIFFERENTIAL tracking states are integrated only while their contact is
 * closed on the roller's smooth surface ("live"); otherwise the point is
 * computed explicitly. At each event (and the start) a contact that became
 * live gets states consistent with the explicit point. */
void nsedi_track_reanchor(const nsed_model *m, nsed_data *d);

/* NSED_ERR_EVENT naming the contact if a live DIFFERENTIAL tracking state
 * of the state x at time t (the caches evaluated there) has drifted beyond
 * NSEDI_TRACK_TOL or off the roller's profile. */
int nsedi_track_check(const nsed_model *m, nsed_data *d, double t, const double *x, nsed_error *err);

/* The live tracking states of contact c in x, or NULL. */
static inline const double *nsedi_live_track(const nsed_model *m, const nsed_data *d,
                                             const double *x, int c) {
  int xt = m->contact[c].xtrack;
  return xt >= 0 && d->ph.track_live[c] ? x + xt : NULL;
}

/* Renormalise the quaternions of the state and bring rotors' turns within
 * one turn (only at events). */
void nsedi_normalize_quats(const nsed_model *m, double *x);

#endif
