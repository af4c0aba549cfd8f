/* The simulation data's private layout (after MuJoCo's mjdata.h): every
 * field with its meaning and shape. Everything is sized from the model at
 * creation (data.c); nothing is allocated during a run.
 *
 * Grouped by lifetime: the run's state (time, state vector, the contacts'
 * modes and the phase's constants, the Zeno guard's memory), the solvers,
 * the caches of the last evaluation, the workspace of one smooth-phase
 * evaluation and that of one event step. Shapes: nc contacts, nv = 6 nbody
 * velocities, nrow joint rows. */
#ifndef NSED_SIMULATE_DATA_H
#define NSED_SIMULATE_DATA_H

#include <stdint.h>
#include "accel.h"
#include "integrator.h"
#include "lapack.h"
#include "nsed/simulate.h"
#include "rows.h"

/* Root functions of a contact, each decreasing through zero (positive
 * while its mode holds). Slot meanings by mode (docs/engine.md,
 * "Indicators"): */
enum {
  NSEDI_ROOT_CONTACT = 0,  /* open: the gap closing; closed: lambda_n reaching zero */
  NSEDI_ROOT_FRICTION = 1, /* stick: the friction margin; held slip: v_t . s (the stop);
                              free slip: |v_t| - slip_stop_speed / 2 (slowing to a hold) */
  NSEDI_ROOT_LINE = 2,     /* held slip: slow: slip_stop_speed - |v_t| (speeding up); fast:
                              min(tol |v_t| - |v_t x s|, |v_t| - slip_stop_speed / 2)
                              (turning away from its direction, or slowing down); free slip in
                              the vertex form: its force's direction reaching a vertex of the
                              polygon (a kink of its friction, law_kinks.c) */
  NSEDI_ROOT_REGION = 3,   /* closed roller: its contact point onto another surface piece */
  NSEDI_ROOT_MINIMUM = 4,  /* held slip: -(a_t . s), its speed's minimum (a stop hidden inside
                              one step, see missed_stop.c) */
  NSEDI_ROOT_SPIN = 5,     /* closed, exact torsional friction: sticking spin: its margin
                              torsion lambda_n - |tau|; turning: its spin velocity times its sign
                              (the stop) */
  NSEDI_ROOTS_PER_CONTACT = 6
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
  double *region_sign;  /* nc: a contact's side of its surface regions at the phase start: the
                           region's sign, a roller's evaluated side (+1 surface, -1 tip) */
  int *region_rising;   /* nc: a closed roller whose oriented region indicator starts the phase
                           below zero and rising (on the side it moves to, within the
                           boundary's band): its root fires also where the indicator turns
                           back below zero (indicators.c; docs/rollers.md, "A handover the
                           turn reverses") */
  int *track_live;      /* nc: DIFFERENTIAL tracking states integrated in this phase */
  double *force_anchor; /* 3 nc: the event problem's contact forces (n, t1, t2) at the phase
                           start; redundant contacts' forces in the phase are the solution
                           nearest them (docs/engine.md, "Redundant contacts") */
  nsed_mode *spin;      /* nc: a closed contact's spin with exact torsional friction: STICK
                           (its relative spin held at zero) or SLIP (turning); OPEN otherwise */
  double *spin_sign;    /* nc: +1 or -1, the sign of a turning spin's velocity */
  double *spin_anchor;  /* nc: the event problem's torsional moment at the phase start (N m) */
  int load_shares;      /* redundant sticks share friction by their normal loads (eval.c,
                           share_by_load): set once the event has chosen the anchor, clear
                           while it searches for it */
  int *sector;          /* nc: a free slip's sector of the vertex form's polygon: its friction
                           force's direction lies between vertices k and k + 1 (angles
                           2 pi k / sides) in this phase; -1 for every other contact
                           (law_kinks.c) */
  double *kink_side;    /* 3 nc: for a compliant contact, the sign each of its force law's kink
                           functions (slots CONTACT: its gap; LINE: the spring-damper's force)
                           started the phase with, the indicator being that sign times the
                           function; 0 where the slot has none (law_kinks.c) */
  int *clearing;        /* nc: an open contact that lifted off, its closing root a margin
                           below the level it left, until its gap rises to clear_at
                           (NSEDI_ROOT_LINE; liftoff_margin.c) */
  double *clear_at;     /* nc: that gap (m): the level plus a margin */
  double *clear_to;     /* nc: the closing offset from then on (m): the level */
  int *edge;            /* nc: a roller tip on its wheel's sector edge together with the
                           neighbour's tip edge[c] (a sliding mode, docs/rollers.md, "The
                           sector edge's sliding mode"); -1 for every other contact */
  int *edge_row;        /* nc: 1 for the tip of such a pair whose normal row is replaced by
                           its region row, held at zero (its gap follows from the other's) */
  int *kink_seg;        /* nkink: the segment of its table a drive's input is in: k between
                           knots k-1 and k, 0 below the first, npoints above the last
                           (kinks.c) */
} nsedi_phase;

/* Caches of the last evaluation at (t, x) for the current phase. */
typedef struct {
  double *x_key;             /* nstate: the state of the last right-hand side the integrator
                                asked for, kept while key_valid */
  double t_key;              /* and its time (s) */
  int key_valid;             /* the caches hold that right-hand side's evaluation: no other
                                evaluation (an event stage's, a sample's) has run since, so
                                indicators at exactly (t_key, x_key) reuse it (the step end of
                                an explicit method with a last stage there, FSAL), and so does
                                the integrator asking again (nsedi_rhs_memo) */
  nsedi_kin *kin;            /* nbody: positions, rotations, velocities */
  nsedi_contact_geom *geom;  /* nc: gap, frame, rows, region */
  int *geom_ok;              /* nc: geometry defined (not a disk lying flat) */
  int geom_partial;          /* geom and geom_ok hold only the contacts the right-hand side
                                needs (nsedi_eval_rhs); nsedi_eval_complete adds the others,
                                an open contact far above its plane as a lower bound of its
                                gap alone (geom.gap_bound) */
  double *lambda_c;          /* 3 nc: contact forces (n, t1, t2) in N */
  double *tau;               /* nc: torsional moment about n on the body (N m) */
  double *share_n;           /* nc: a closed contact's normal force in the minimum-norm share,
                                before the unilateral share unloaded any (eval.c,
                                unilateral_share): its lift-off indicator; lambda_c[3c]
                                wherever none was unloaded */
  double *lambda_j;          /* nrow: joint multipliers */
  double *f;                 /* nv: applied generalised forces */
  double *du;                /* nv: accelerations */
} nsedi_cache;

/* Workspace of one smooth-phase evaluation: the active rows. */
typedef struct {
  int maxr;                  /* capacity: nrow + 3 nc + contacts with exact torsion */
  nsedi_row *rows, *cols;    /* maxr: constraint rows and their force columns */
  double *target, *lam;      /* maxr: row accelerations wanted, multipliers */
  double *anchor;            /* maxr: the multipliers' anchor (the phase's force_anchor) */
  double *load_anchor, *weight; /* maxr: the share pass's anchor and row weights
                                   (eval.c, share_by_load; unilateral_share's zero anchor
                                   and its unloaded rows' infinite weights) */
  int nr;                    /* rows of the last evaluation */
  int unloaded;              /* closed contacts the last evaluation's unilateral share left
                                without normal force (eval.c); cache.share_n holds what the
                                minimum-norm share gave them */
  int deficient;             /* the last solve's rows were redundant (least-squares path) */
  double *centre_grad;       /* 3 nc: the anchor search's gradient (redundant_forces.c) */
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
  NSEDI_TRIG_HOLD = 1 << 10,     /* set by the stages: a slip entering the slow hold (its
                                    transverse velocity is settled) */
  NSEDI_TRIG_SPIN_SATURATED = 1 << 11, /* sticking spin: its moment reached torsion lambda_n */
  NSEDI_TRIG_SPIN_STOPPED = 1 << 12,   /* turning spin: its spin velocity reached zero */
  NSEDI_TRIG_SPIN_ONSET = 1 << 13,     /* set by the stages: its spin starts from rest here */
  NSEDI_TRIG_SPIN_NOSTICK = 1 << 14,   /* set by the stages: its spin posed as turning (a stick
                                          on the boundary), in the sign below */
  NSEDI_TRIG_SPIN_NEGATIVE = 1 << 15, /* with SPIN_NOSTICK: posed turning the negative way */
  NSEDI_TRIG_HOVER = 1 << 16,          /* set by the stages: closed, lifted by an impact too
                                          slowly to rise above its closing margin: its
                                          separating velocity is settled after the impact */
  NSEDI_TRIG_UNSTOPPED = 1 << 17       /* set by the stages: its stop root fired, but the
                                          velocity it kept could not be settled: it slips on
                                          along that velocity (event_modes.c) */
};

/* A tip of a pair on its wheel's sector edge at an event (nsedi_event_ws.edge_out). */
enum {
  NSEDI_EDGE_WAITS = 1, /* kept out of the event problem: the edge stage poses it again
                           beside its partner, or opens it */
  NSEDI_EDGE_OPENS = 2  /* its load reached zero (or both tips had events): it opens */
};

/* Per-event workspace of the event step's stages (event.c). */
typedef struct {
  const int *fired;          /* the roots that fired (NULL at the start) */
  nsed_mode *prev_mode;      /* nc: modes before the event */
  int *prev_held, *prev_slow, *prev_off_circle; /* nc: the slip state before the event, with
                                                   the regime changes of continuing slips at
                                                   this event applied (slip_regime.c): the
                                                   state the event problem poses them in */
  nsed_mode *prev_spin;      /* nc: the spin modes before the event */
  double *prev_spin_sign;    /* nc: their signs */
  double *prev_dir, *prev_hold_mu; /* 2 nc, nc: its direction and slow-hold coefficient */
  int *prev_edge, *prev_edge_row; /* nc: the sector edges' pairs before the event */
  int rocking;               /* a contact whose storm the Zeno guard found to be its wheel
                                rocking on a sector edge, left to the edge stage; -1 */
  int *edge_entered;         /* nc: 1 for a tip closed at this event onto its sector edge beside
                                its partner, whose turn came to rest there (event_edge.c,
                                nsedi_edge_enter) */
  int *edge_out;             /* nc: 1 for a tip of a pair on its sector edge kept out of the
                                event problem (its partner carries the wheel there); the
                                edge stage decides it (event_edge.c) */
  int *trigger;              /* nc: NSEDI_TRIG_* bits */
  double *pose_dir;          /* 2 nc: slip direction of a contact posed as slipping that was not
                                slipping (NSEDI_TRIG_NOSTICK) */
  int *cand;                 /* nc: the event problem's contacts; [0, n) touching, [0, na) in
                                the acceleration problem */
  int n, na;                 /* touching candidates, and those in the acceleration problem */
  int impact;                /* the impact problem ran */
  int *impacted;             /* nc: took part in this event's impact */
  double *impact_speed;      /* nc: its approach speed before the impact (m/s) */
  double *impulse;           /* 3 nc: the impact problem's impulse on it (n, t1, t2), N s;
                                0 when none ran */
  int *taking_over;          /* nc: a roller taking the contact over from its neighbour */
  nsed_lcp_stats ist, ast;   /* what the impact and acceleration problems cost */
  /* The event problem for the candidates (complementarity layer's interface). */
  nsedi_row *W;              /* 3 nc + nt: contact rows of the candidates, then their spin rows
                                (nt: contacts with exact torsional friction) */
  double *G, *b, *PWt;       /* (3nc + nt)^2 Delassus matrix W P W^T, its free accelerations,
                                nv x (3nc + nt) P W^T (an impulse L changes u by PWt L;
                                nsedi_delassus); leading dimension ldg */
  double *cl, *ca, *cdir;    /* the answer: 3nc + nt forces and moments, their accelerations,
                                2nc slip directions */
  nsed_cp_contact *cpc;      /* nc: how each candidate is posed (kind, mu, mu0, direction) */
  nsed_cp_mode *cmode;       /* nc: the mode the problem gives each */
  int nw;                    /* torsional rows of the last assembled problem: the candidates
                                with exact torsional friction, rows 3n + k of W, G, b, PWt */
  int ldg;                   /* leading dimension of G (3n + nw) of the last assembly */
  int *spin_of;              /* nw: the candidate index i whose spin row k is */
  nsed_cp_spin *cps;         /* nw: how each spin is posed */
  nsed_cp_mode *cspin;       /* nw: the spin mode the problem gives each */
  double *cspin_sign;        /* nw: and its sign */
  /* Settling impulses. */
  int *settle_rows;          /* 3 nc + nt: the contact rows the impulse acts on */
  double *settle_G, *settle_rhs; /* (3 nc + nt)^2 their Delassus matrix, the velocity change */
  int *settle_piv;           /* 2 (3 nc + nt): pivots and the LU's workspace */
  double *settle_want;       /* 3 nc + nt: each row's velocity change (m/s; 0 for a row that
                                keeps its velocity) */
  int *settle_hard;          /* 3 nc + nt: 1 where the row must reach its change: the event asks
                                for it (a stop's or onset's residual, a slow hold's transverse
                                velocity, a landing's approach), or it is a slow slip's
                                tangential row; 0 where the row only keeps its velocity */
  double *settle_weight;     /* 3 nc + nt: row weights of a dependent solve (event_settle.c) */
  nsedi_lstsq_ws settle_lstsq; /* minimum-norm solve of dependent settling rows */
  double *du_imp;            /* nv: velocity jump of an impulse */
  int settled;               /* the settle stage applied an impulse at this event */
  int settle_refused;        /* the settle stage had residuals to remove but its hard rows
                                contradicted each other: it applied nothing */
  int stops_unsettled;       /* the stops of this event still carry the residual tangential
                                velocities the settle stage removes: their sticks are evaluated
                                without their velocity stabilisation (eval.c) */
  double fscale;             /* the largest applied generalised force at the event (N) */
  double *accel_floor;       /* nc: an onset's acceleration along its direction below this
                                (m/s^2) is round-off (onset.c) */
  double *x_tmp;             /* nstate + NSEDI_NWORK: a state from the dense output; the
                                projection's state before its step (event_project.c) */
  double *project_vel;       /* nrow + 3 nc + nt: the holding rows' velocities before the
                                projection moved the positions (event_project.c) */
  double *force_ev;          /* 3 nc: the acceleration problem's forces, by contact
                                (redundant_forces.c) */
  int prev_shares;           /* the phase before the event had redundant sticks whose forces
                                followed an anchor (eval.c): their shares could move */
  int onsets_on_polygon;     /* the circle admits no directions for this event's onsets: they
                                start on the event problem's own forces, and the modes are
                                decided under those (onset.c; docs/engine.md, "Onsets the
                                circle does not admit") */
  double shrink;             /* the relative amount a saturated stick's friction set is shrunk
                                by in the problem being posed (event_modes.c) */
  double *cl_twice;          /* 3nc + nt: the answer with that shrink doubled */
  nsed_cp_mode *cmode_twice; /* nc + nt: its modes, then its spin modes */
  int extrapolated;          /* cl is the answer extrapolated to a vanishing shrink: its
                                saturated sticks' forces are on their law's own sets */
  int circle_why, circle_culprit; /* what the circle's directions ran into, and the contact
                                     that would pull there (onset.c, for the message) */
  int by_motion;             /* the event's stages evaluate each roller on the side it is
                                moving to, not on its phase's (nsedi_contact_side) */
  int line_model_off;        /* slips' directions searched on evaluations only, not on their
                                fitted responses (tests compare both ways; onset.c) */
  long line_evals;           /* evaluations the directions' search made (tests count them) */
} nsedi_event_ws;

/* The last right-hand side's derivative, for the integrator asking for it
 * again: the ERKStep of SUNDIALS 6.4 evaluates each step's first stage
 * afresh, though Dormand-Prince's last stage was at that very point (first
 * same as last). Its point and validity are the caches' key
 * (nsedi_cache.x_key, t_key, key_valid): any other evaluation (a sample,
 * an event stage, a root search) invalidates it, and every event's
 * resolution evaluates before the restart, so a phase change can never be
 * answered from it. */
typedef struct {
  double *xdot;       /* nstate + NSEDI_NWORK: at (t_key, x_key) while key_valid */
  double *xdot_check; /* a fresh evaluation to compare (-Dcheck_rhs_memo) */
  int off;            /* every right-hand side evaluated (tests compare both ways) */
  int all_geometry;   /* right-hand sides evaluate open contacts' geometry too, as
                         nsedi_eval does (tests compare both ways) */
} nsedi_rhs_memo;

/* Where one nsed_simulate call's time goes, in the clock's ticks
 * (simulate.c): converted to seconds into nsed_stats when the call ends. */
typedef struct {
  uint64_t rhs, roots, monitor, events;
} nsedi_ticks;

/* The law monitor at the integrator's step ends (simulate.c): the
 * indicators at the last step end it saw, to tell whether a step holds a
 * root (then its end is past an event, where the old modes' law need not
 * hold, and the event's own checks follow). */
typedef struct {
  double *g;          /* nroot: the indicators at the last step end (or phase start) */
  int valid;          /* g is this phase's */
  double *x;          /* nstate + NSEDI_NWORK: the state a failed check judged */
  double t_failed;    /* its time (s) */
  int failed;         /* a step end's check failed: the run stops there */
} nsedi_step_check;

/* Landing on an event (event_land.c): its workspace and counters. */
typedef struct {
  double *g;          /* 3 nroot: a trial's indicators, the last return's, the landing's */
  double *x;          /* nstate + NSEDI_NWORK: the landing's state */
  double *corr;       /* nstate + NSEDI_NWORK: the method's state less the interpolant's, at the
                         last step taken again */
  int *set;           /* nroot: the indicators whose first root is searched */
  int off;            /* events taken at the interpolant's root (tests compare both ways) */
} nsedi_land_ws;

/* The Zeno guard's memory (event_record.c): per contact, its impacts made
 * plastic, a ring of its recent event times and one of its roots that
 * changed nothing. */
typedef struct {
  int *plastic;              /* nc: the guard made this contact's impacts plastic */
  double *t;                 /* nc * zeno_events: ring of recent event times per contact (s) */
  int *n;                    /* nc: events recorded in the ring */
  double *quiet_t;           /* nc * zeno_events: ring of the times a contact's root fired at an
                                event that changed no mode (the stall guard, event_record.c) */
  int *quiet_n;              /* nc: such roots recorded in that ring */
} nsedi_zeno;

struct nsed_data {
  const nsed_model *m;       /* the model this data was created for */

  /* ---- the run's state: what going on from here needs ---- */
  double t;                  /* simulated time (s) */
  double *x;                 /* nstate + NSEDI_NWORK: per body (13) position, quaternion,
                                velocity, angular velocity in body axes; then the tracking
                                states; then the work accumulators */
  nsedi_phase ph;            /* the contacts' modes and the current smooth phase's constants */
  nsedi_zeno zeno;           /* recent events per contact */
  double t_next_breakpoint;  /* next breakpoint of a piecewise law (s; INFINITY if none) */
  nsed_stats stats;          /* counters, works, the law monitor's worst margins (reported) */

  /* ---- solvers: created with the data (the integrator at the first
   * nsed_simulate), reinitialised, never reallocated, at events ---- */
  nsedi_integrator *integ;
  nsed_contact_solver *cs;   /* the complementarity layer's solver and its workspace */

  /* ---- caches of the last evaluation at (t, x) ---- */
  nsedi_cache cache;
  nsedi_rhs_memo memo;
  nsedi_land_ws land;
  nsedi_step_check step_check;
  nsedi_ticks ticks;

  /* ---- workspace ---- */
  nsedi_smooth_ws sw;        /* one smooth-phase evaluation (right-hand side, indicators) */
  int rhs_past_event;         /* the last RHS failed on a geometry only a step past an event
                                reaches (nsedi_contact_geom.past_event): retried smaller */
  nsed_error rhs_err;        /* a failure inside the right-hand side, which SUNDIALS cannot
                                carry: reported by the loop */
  const nsed_observer *step_obs; /* the running nsed_simulate's observer, whose step callback
                                    the integrator's step log calls (NULL between runs) */
  int step_obs_failed;       /* that callback returned non-zero: the loop stops with NSED_ERR_IO */
  nsedi_event_ws ev;         /* one event step's stages */
  int failure_contact;       /* the contact a failure concerns (-1: none, or several) */
  int failed_problem;        /* the last event problem was not solved: 1 acceleration level,
                                2 impact, 0 solved (ev keeps it until the next one) */
  int failed_nc;             /* its contacts: ev.cand[0, failed_nc) */
};

#endif
