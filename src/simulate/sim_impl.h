/* The simulation data's private layout and the simulate layer's internal
 * functions. Everything is sized from the model at creation and owned here;
 * nothing is allocated during a run.
 *
 * The data is grouped by lifetime (after MuJoCo's mjData): what the current
 * smooth phase holds (set at each event, read by the right-hand side and the
 * indicators), the caches of the last evaluation, the smooth phase's
 * workspace, and the per-event workspace of the event step's stages. */
#ifndef NSED_SIMULATE_SIM_IMPL_H
#define NSED_SIMULATE_SIM_IMPL_H

#include "accel.h"
#include "integrator.h"
#include "nsed/simulate.h"
#include "rows.h"

#include <math.h>

/* Root functions of a contact, each decreasing through zero (positive
 * while its mode holds). Slot meanings by mode (docs/engine.md,
 * "Indicators"): */
enum {
  NSEDI_ROOT_CONTACT = 0,  /* open: the gap closing; closed: lambda_n reaching zero */
  NSEDI_ROOT_FRICTION = 1, /* stick: the friction margin; held slip: v_t . s (the stop);
                              free slip: |v_t| - slip_stop_speed / 2 (slowing to a hold) */
  NSEDI_ROOT_LINE = 2,     /* held slip: slow: slip_stop_speed - |v_t| (speeding up); fast:
                              min(tol |v_t| - |v_t x s|, |v_t| - slip_stop_speed / 2)
                              (turning away from its direction, or slowing down) */
  NSEDI_ROOT_REGION = 3,   /* closed roller: its contact point onto another surface piece */
  NSEDI_ROOT_MINIMUM = 4,  /* held slip: -(a_t . s), its speed's minimum (a stop hidden inside
                              one step, see missed_stop.c) */
  NSEDI_ROOTS_PER_CONTACT = 5
};

/* Work accumulators integrated after the body states (x[nstate + k]):
 * external loads (force/torque laws, dampers), contact forces (friction,
 * plus the kinetic energy changes of impacts and settling impulses), and
 * joint constraint forces (servos; Baumgarte corrections). With them the
 * energy balance E(t) - E(0) = sum of the works is checkable. */
#define NSEDI_NWORK 3

/* What the current smooth phase holds for each contact; set at events. */
typedef struct {
  nsed_mode *mode;      /* nc: open, stick or slip */
  int *held;            /* nc: a slip whose friction is held on the direction dir (a slip
                           that does not turn, or a slow one, docs/engine.md "Slip direction") */
  int *slow;            /* nc: a held slip below slip_stop_speed at the phase start */
  int *off_circle;      /* nc: a slow slip started on the event problem's polygon force: an
                           onset the friction circle does not admit (docs/engine.md) */
  double *hold_mu;      /* nc: a slow slip's friction coefficient: mu, or |lambda_t| / lambda_n
                           of the event problem's answer when off_circle */
  double *dir;          /* 2 nc: (t1, t2) unit direction of a held slip; a free slip's direction
                           when its speed is exactly zero */
  double *root_offset;  /* NSEDI_ROOTS_PER_CONTACT nc: subtracted from each indicator: the
                           closing margin of an open contact, and the start value of an
                           indicator that starts at zero (docs/engine.md, "Phase starts") */
  double *region_sign;  /* nc: sign of a roller contact's surface region at the phase start */
  int *track_live;      /* nc: DIFFERENTIAL tracking states integrated in this phase */
} nsedi_phase;

/* Caches of the last evaluation at (t, x) for the current phase. */
typedef struct {
  nsedi_kin *kin;            /* nbody: positions, rotations, velocities */
  nsedi_contact_geom *geom;  /* nc: gap, frame, rows, region */
  int *geom_ok;              /* nc: geometry defined (not a disk lying flat) */
  double *lambda_c;          /* 3 nc: contact forces (n, t1, t2) in N */
  double *lambda_j;          /* nrow: joint multipliers */
  double *f;                 /* nv: applied generalised forces */
  double *du;                /* nv: accelerations */
} nsedi_cache;

/* Workspace of one smooth-phase evaluation: the active rows. */
typedef struct {
  int maxr;                  /* capacity: nrow + 4 nc */
  nsedi_row *rows, *cols;    /* maxr: constraint rows and their force columns */
  double *target, *lam;      /* maxr: row accelerations wanted, multipliers */
  int *row_contact;          /* maxr: contact of a row, -1 for joints */
  nsedi_dyn_ws *ws;          /* the constrained solve's own workspace */
} nsedi_smooth_ws;

/* What an event means for a contact (nsedi_event_ws.trigger bits). */
enum {
  NSEDI_TRIG_CLOSING = 1 << 0,   /* open: its gap root fired, or it touches at this event */
  NSEDI_TRIG_LIFTOFF = 1 << 1,   /* closed: its normal force reached zero */
  NSEDI_TRIG_SATURATED = 1 << 2, /* stick: its friction reached the friction set's boundary */
  NSEDI_TRIG_STOPPED = 1 << 3,   /* held slip: its slip velocity reached zero */
  NSEDI_TRIG_SLOWED = 1 << 4,    /* free slip: its speed fell to slip_stop_speed */
  NSEDI_TRIG_LINE = 1 << 5,      /* held slip: its speed crossed slip_stop_speed, or it turned
                                    away from its direction */
  NSEDI_TRIG_REGION = 1 << 6,    /* closed roller: its point moved onto another surface piece */
  NSEDI_TRIG_ONSET = 1 << 7,     /* set by the stages: it starts slipping from rest here */
  NSEDI_TRIG_NOSTICK = 1 << 8,   /* set by the stages: posed as slipping (stick ruled out) */
  NSEDI_TRIG_MINIMUM = 1 << 9,   /* held slip: its speed passed a minimum without stopping */
  NSEDI_TRIG_HOLD = 1 << 10      /* set by the stages: a slip entering the slow hold (its
                                    transverse velocity is settled) */
};

/* Per-event workspace of the event step's stages (event.c). */
typedef struct {
  const int *fired;          /* the roots that fired (NULL at the start) */
  nsed_mode *prev_mode;      /* nc: modes before the event */
  int *prev_held, *prev_slow, *prev_off_circle; /* nc: the slip state before the event */
  double *prev_dir, *prev_hold_mu; /* 2 nc, nc */
  int *trigger;              /* nc: NSEDI_TRIG_* bits */
  double *pre_force;         /* 3 nc: the smooth phase's contact forces just before the event */
  double *pose_dir;          /* 2 nc: slip direction of a contact posed as slipping that was not
                                slipping (NSEDI_TRIG_NOSTICK) */
  int *cand;                 /* nc: the event problem's contacts; [0, n) touching, [0, na) in
                                the acceleration problem */
  int n, na;
  int impact;                /* the impact problem ran */
  int *impacted;             /* nc: took part in this event's impact */
  double *impact_speed;      /* nc: its approach speed before the impact (m/s) */
  int *taking_over;          /* nc: a roller taking the contact over from its neighbour */
  nsed_lcp_stats ist, ast;   /* what the impact and acceleration problems cost */
  /* The event problem for the candidates (complementarity layer's interface). */
  nsedi_row *W;              /* 3 nc: contact rows of the candidates */
  double *G, *b, *PWt;       /* (3nc)^2, 3nc, nv x 3nc */
  double *cl, *ca, *cdir;    /* 3nc forces, 3nc accelerations, 2nc slip directions */
  nsed_cp_contact *cpc;      /* nc */
  nsed_cp_mode *cmode;       /* nc */
  /* Settling impulses. */
  int *settle_rows;          /* 3 nc */
  double *settle_G, *settle_rhs; /* (3 nc)^2, 3 nc */
  int *settle_piv;           /* 6 nc: pivots and the LU's workspace */
  double *du_imp;            /* nv: velocity jump of an impulse */
  double fscale;             /* the largest applied generalised force at the event */
  double *accel_floor;       /* nc: an onset's acceleration along its direction below this
                                (m/s^2) is round-off (onset.c) */
  double *x_tmp;             /* nstate + NSEDI_NWORK: a state from the dense output */
} nsedi_event_ws;

struct nsed_data {
  const nsed_model *m;
  double t;                  /* s */
  double *x;                 /* nstate + NSEDI_NWORK: body states, tracking states, works */
  nsedi_phase ph;
  nsedi_cache cache;
  nsedi_smooth_ws sw;
  nsedi_event_ws ev;
  nsed_contact_solver *cs;   /* the complementarity layer's solver and workspace */
  int *plastic;              /* nc: the Zeno guard made this contact's impacts plastic */
  double *zeno_t;            /* nc * zeno_events: ring of recent event times per contact */
  int *zeno_n;               /* nc: events recorded in the ring */
  int failure_contact;       /* the contact an event failure concerns, -1 if none or several */
  nsedi_integrator *integ;
  nsed_stats stats;
  nsed_error rhs_err;        /* set when the right-hand side fails, reported by the loop */
  double energy_initial;
  double t_next_breakpoint;  /* next breakpoint of a piecewise law (INFINITY if none) */
};

/* ---- the smooth phase (eval.c, indicators.c) ---- */

/* Evaluate everything at (t, x) for the current phase: kinematics, contact
 * geometry, accelerations (into xdot if not NULL) and multipliers. */
int nsedi_eval(const nsed_model *m, nsed_data *d, double t, const double *x, double *xdot,
               nsed_error *err);

/* Root functions at (t, x) for the current phase (nroot values). */
int nsedi_indicators(const nsed_model *m, nsed_data *d, double t, const double *x, double *g);

/* The raw indicators of contact c from the last evaluation, before the
 * phase's root offsets are subtracted. */
void nsedi_contact_indicators(const nsed_model *m, const nsed_data *d, int c,
                              double g[NSEDI_ROOTS_PER_CONTACT]);

/* The error of contact c's slip velocity components at the cached state:
 * the integration's (rtol times the magnitudes it is made of, plus atol)
 * or round-off's, whichever is larger. A slip's direction is known only to
 * this over its speed. */
double nsedi_slip_noise(const nsed_model *m, const nsed_data *d, int c);

/* Number of root functions of the model. */
int nsedi_nroot(const nsed_model *m);

/* Relative acceleration along row r for the body accelerations du. */
double nsedi_row_accel(const nsedi_row *r, const double *du);

/* Distance of the tangential force (l1, l2) inside the friction polygon (or
 * circle) of radius mu0 ln: positive inside, zero on the boundary. */
double nsedi_friction_margin(const nsed_options *o, double mu0, double ln, double l1, double l2);

/* Next breakpoint of any piecewise time law strictly after t (INFINITY if none). */
double nsedi_next_breakpoint(const nsed_model *m, double t);

/* ---- the event step (event.c and its stages) ---- */

/* Decide the contacts' modes at the current state and set up the next
 * phase: the stages of docs/engine.md, "The event step". Records events
 * through the observer. fired: which root functions triggered (NULL at the
 * start). */
int nsedi_resolve(const nsed_model *m, nsed_data *d, const int *fired, const nsed_observer *obs,
                  nsed_error *err);

/* Stage 1, classify (event_classify.c): the triggers each fired root means
 * and the contacts of the event problem (ev.cand[0, ev.n)). */
int nsedi_event_classify(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Stage 2, impact (event_problems.c): the velocity-level problem when a
 * touching contact approaches; applies the impulses. */
int nsedi_event_impact(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Stage 3, acceleration problem and mode decision (event_modes.c): the
 * acceleration-level problem for the touching contacts without separating
 * velocity, its answer turned into modes, repeated with a contact posed as
 * slipping while one would start sticking on the friction set's boundary. */
int nsedi_event_modes(const nsed_model *m, nsed_data *d, nsed_error *err);

/* After an evaluation of the new modes: pose as slipping every sticking
 * candidate whose friction force is on or beyond its friction set's
 * boundary (NSEDI_TRIG_NOSTICK); returns how many (event_modes.c). */
int nsedi_event_boundary_sticks(const nsed_model *m, nsed_data *d);

/* Assemble the event problem of the candidates cand[0, n) (W, G, b, PWt). */
int nsedi_event_build(const nsed_model *m, nsed_data *d, int n);

/* Solve the assembled problem (impact or acceleration level); a failure
 * becomes an error naming the contacts with their gaps and speeds. */
int nsedi_event_solve(const nsed_model *m, nsed_data *d, int n, int impact_level,
                      nsed_lcp_stats *st, nsed_error *err);

/* Stage 5, settle (event_settle.c): impulses that remove the residual
 * tangential velocity of stopping contacts and of slips starting from rest,
 * the transverse velocity of slips entering the slow hold, and the
 * residual approach of contacts closing without an impact. */
int nsedi_event_settle(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Stage 4, slip directions (onset.c): the direction each new or slowing
 * slip is held on, aligned with its own tangential acceleration; the held
 * slips that turned are released. Leaves the caches evaluated. */
int nsedi_event_lines(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Stage 6, anchor (event_anchor.c): the next phase's root offsets and
 * region signs. */
void nsedi_event_anchor(const nsed_model *m, nsed_data *d);

/* Stage 7, record (event_record.c): every mode change as an event, the
 * Zeno guard and the event limits. */
int nsedi_event_record(const nsed_model *m, nsed_data *d, const nsed_observer *obs,
                       nsed_error *err);

/* Emit one event through the observer. */
int nsedi_event_emit(const nsed_model *m, nsed_data *d, const nsed_observer *obs,
                     nsed_event_kind kind, int c, nsed_mode from, nsed_mode to,
                     const nsed_lcp_stats *st);

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

/* Kinetic energy of the current state (refreshes the kinematic cache). */
double nsedi_state_kinetic(const nsed_model *m, nsed_data *d);

/* Add the velocity change du (nv) to the state's body velocities. */
void nsedi_add_velocity(const nsed_model *m, double *x, const double *du);

/* Refresh kinematics and contact geometry at (t, x) without solving. */
void nsedi_refresh_geometry(const nsed_model *m, nsed_data *d);

/* ---- the law monitor (monitor.c) ---- */

/* Set the checks' tolerances and clear their worst margins. */
void nsedi_monitor_init(const nsed_model *m, nsed_data *d);

/* Check every contact against its law and every joint against drift_tol on
 * the caches of the last evaluation (nsedi_eval at d->t, d->x); record the
 * worst margins; NSED_ERR_LAW with the numbers on a violation. */
int nsedi_monitor_check(const nsed_model *m, nsed_data *d, nsed_error *err);

/* ---- differential roller tracking (data.c) ---- */

/* DIFFERENTIAL tracking states are integrated only while their contact is
 * closed on the roller's smooth surface ("live"); otherwise the point is
 * computed explicitly. At each event (and the start) a contact that became
 * live gets states consistent with the explicit point. */
void nsedi_track_reanchor(const nsed_model *m, nsed_data *d);

/* NSED_ERR_EVENT naming the contact if a live DIFFERENTIAL tracking state
 * has drifted beyond NSEDI_TRACK_TOL or off the roller's profile. */
int nsedi_track_check(const nsed_model *m, nsed_data *d, nsed_error *err);

/* The live tracking states of contact c in x, or NULL. */
static inline const double *nsedi_live_track(const nsed_model *m, const nsed_data *d,
                                             const double *x, int c) {
  int xt = m->contact[c].xtrack;
  return xt >= 0 && d->ph.track_live[c] ? x + xt : NULL;
}

/* Renormalise the quaternions of the state (only at events). */
void nsedi_normalize_quats(const nsed_model *m, double *x);

#endif
