/* The dynamic side: simulation data (state, modes, multipliers, caches,
 * workspace) created from a finalized model, and the event-driven loop.
 *
 *   smooth phase (SUNDIALS with root-finding on the modes' indicators)
 *   -> event: classify -> impact problem -> acceleration problem (Lemke)
 *   -> new modes, verified -> reinitialise -> resume.
 *
 * Each nsed_data belongs to one thread; a model may be shared read-only. */
#ifndef NSED_SIMULATE_H
#define NSED_SIMULATE_H

#include <signal.h>

#include "nsed/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nsed_data nsed_data;

/* Contact modes during smooth phases. */
typedef enum { NSED_MODE_OPEN = 0, NSED_MODE_STICK = 1, NSED_MODE_SLIP = 2 } nsed_mode;

/* Event kinds, as written to events.csv. */
typedef enum {
  NSED_EVENT_STICK = 0,  /* slip -> stick (or rolling) */
  NSED_EVENT_SLIP = 1,   /* stick -> slip */
  NSED_EVENT_CLOSE = 2,  /* open -> closed without impact (grazing) */
  NSED_EVENT_OPEN = 3,   /* closed -> open (lambda_n reached zero) */
  NSED_EVENT_IMPACT = 4, /* open -> closed with approaching velocity */
  NSED_EVENT_ZENO = 5,   /* the Zeno guard closed or stuck a contact */
  NSED_EVENT_TIME = 6,   /* a breakpoint of a time law */
  NSED_EVENT_FAILURE = 7, /* the run stopped on an error: path holds the status name,
                             contact the contact involved (or -1); the message is in the summary */
  NSED_EVENT_SPIN_STICK = 8, /* exact torsional friction: the contact's spin stops and sticks */
  NSED_EVENT_SPIN_SLIP = 9,  /* exact torsional friction: its spin starts turning (or reverses) */
  NSED_EVENT_KINK = 10,  /* a joint drive's table: its coordinate or rate reached a knot; path
                            holds the joint's name, contact is -1 */
  NSED_EVENT_NKIND = 11    /* number of kinds */
} nsed_event_kind;

typedef struct {
  double t;
  nsed_event_kind kind;
  int contact;           /* contact index, -1 for none (time events) */
  nsed_mode from, to;
  int lcp_size, pivots;
  double residual;
  const char *path;      /* LCP path that solved the event problem (static string) or "" */
  double impulse[3];     /* the impact problem's impulse on the contact (n, t1, t2) in N s
                            when one ran at this event (an impact here or elsewhere);
                            0 otherwise */
} nsed_event;

/* Per-contact snapshot. */
typedef struct {
  nsed_mode mode;
  double gap;            /* m */
  double lambda[3];      /* force (n, t1, t2) in N */
  double slip_speed;     /* |tangential relative velocity| m/s */
  double point[3];       /* contact point on the body (world) */
  double moment;         /* torsional moment about the normal on the body (N m); 0 without
                            torsional friction */
  nsed_mode spin;        /* exact torsional friction: STICK or SLIP (turning) while closed;
                            OPEN otherwise */
} nsed_contact_info;

/* The law monitor's checks (docs/engine.md, "The law monitor"). Each is a
 * margin that is >= 0 where the law holds; the run stops with NSED_ERR_LAW
 * when one falls below minus its tolerance. */
typedef enum {
  NSED_LAW_NORMAL_FORCE = 0,   /* closed contact: lambda_n / force scale */
  NSED_LAW_STICK_FRICTION = 1, /* stick: distance of lambda_t inside the friction set of
                                  mu0 lambda_n (polygon, or circle for the cone), relative
                                  to mu0 lambda_n + floor */
  NSED_LAW_SLIP_FRICTION = 2,  /* slip: -| |lambda_t| - mu lambda_n |, relative likewise (vertex
                                  form: mu times the inscribed polygon's radius along lambda_t) */
  NSED_LAW_SLIP_DIRECTION = 3, /* slip: -(angle between -lambda_t and the slip velocity), rad */
  NSED_LAW_OPEN_GAP = 4,       /* open contact: gap (m) */
  NSED_LAW_CLOSED_GAP = 5,     /* closed contact: -|gap| (m) */
  NSED_LAW_JOINT_DRIFT = 6,    /* joint rows: -|phi| (m or rad) */
  NSED_LAW_SPIN_FRICTION = 7,  /* exact torsional friction: sticking spin: distance of the moment
                                  inside +-torsion lambda_n; turning: -| |tau| - torsion lambda_n |
                                  (or -1 when the spin reversed without stopping); relative to
                                  torsion lambda_n + floor */
  NSED_LAW_STICK_VELOCITY = 8, /* Coulomb stick: -|tangential velocity| (m/s); its tolerance
                                  2 slip_tol (a stick starts within slip_tol of rest) */
  NSED_LAW_NCHECK = 9
} nsed_law_check;

/* The worst margin one check has seen so far. */
typedef struct {
  double worst;     /* smallest margin (+INFINITY before the first evaluation) */
  double tolerance; /* the run fails when worst < -tolerance */
  double t;         /* when the worst margin was seen (s) */
  int where;        /* contact (joint for JOINT_DRIFT) index, -1 before any evaluation */
  long count;       /* evaluations */
} nsed_law_margin;

typedef struct {
  long events, lcp_solves, rhs_evals, steps, root_evals;
  long events_by_kind[NSED_EVENT_NKIND];
  double max_constraint_violation; /* max |phi| of bilateral position constraints and closed gaps */
  double max_lcp_residual;
  double wall_seconds;
  /* Of which (s): right-hand sides (the constrained solve), indicator
   * functions, and event resolution (the complementarity problems); timed
   * by the CPU's time-stamp counter on x86-64, converted by each call's own
   * wall time. */
  double wall_rhs, wall_roots, wall_events;
  /* Work done since the start (J), for the energy balance
   * E(t) - E(0) = work_external + work_contacts + work_joints: */
  double work_external; /* force and torque laws, joint drives, spring dampers */
  double work_contacts; /* contact forces (friction), impacts, slip-stop impulses */
  double work_joints;   /* joint forces: servos, Baumgarte corrections */
  double energy_initial; /* mechanical energy after the initial velocity projection */
  nsed_law_margin law[NSED_LAW_NCHECK]; /* the law monitor's worst margins */
  double wall_monitor;   /* s spent in the law monitor */
  long onsets_off_circle; /* slip onsets started on the event problem's direction: no
                             direction on the friction circle was consistent (docs/engine.md,
                             "Onsets the circle does not admit") */
  double max_track_residual; /* worst residual of live DIFFERENTIAL tracking states over
                                samples, events and step ends: a roller's tangency (docs/rollers.md), an
                                algebraic surface's closest-point equations (docs/engine.md);
                                0 without */
  long rhs_reused; /* right-hand sides the integrator asked for again at the point of the
                      last one, copied from that evaluation (not in rhs_evals; docs/engine.md,
                      "Right-hand sides asked for twice") */
  long landings;      /* events located again on the method's own steps (docs/engine.md,
                         "Landing on events") */
  long landings_interpolated; /* events left at the integrator's interpolated root: its
                                 steps did not bracket it, or a shorter step's stage could
                                 not be evaluated */
  long landing_steps; /* steps taken again for them (their right-hand sides are in rhs_evals) */
  long samples_interpolated; /* output samples left on the integrator's interpolant: the step
                                to them could not be taken again (docs/engine.md, "Samples on
                                the method's steps"); 0 under CVODE, whose samples are its own */
  long error_test_failures; /* steps the integrator rejected on its error test and tried again
                               smaller (their right-hand sides are in rhs_evals; docs/engine.md,
                               "Step-size controller") */
  long projections;         /* events whose closed contacts were projected back onto their
                               surfaces, one having drifted beyond contact_tol (docs/engine.md,
                               "Projection at events") */
  double max_projected_gap; /* the largest |gap| such a projection removed (m) */
  long law_kinks;      /* kinks of the contact laws crossed: free slips' friction directions
                          crossing a vertex of the vertex form's polygon, compliant contacts'
                          gaps and spring-damper forces crossing zero; each a root where the
                          phase restarts (no mode changes; docs/engine.md, "Kinks of the
                          contact laws") */
  long margins_cleared; /* contacts that lifted off and rose clear of their closing margin,
                           watched from then on at the level they left (docs/engine.md,
                           "Landing after a lift-off") */
} nsed_stats;

/* Name of a law check as written to summary.json ("stick_friction"). */
NSED_API const char *nsed_law_check_name(nsed_law_check check);

/* Why the sample callback is called. */
typedef enum {
  NSED_SAMPLE_OUTPUT = 0,
  NSED_SAMPLE_EVENT = 1,     /* after an event: the new modes, forces and velocities */
  NSED_SAMPLE_INITIAL = 2,
  NSED_SAMPLE_FINAL = 3,
  NSED_SAMPLE_PRE_EVENT = 4  /* at an event's time, before it is resolved: the old modes and
                                forces, the pre-impact velocities (the law monitor checks
                                the state after the event, not this one) */
} nsed_sample_reason;

/* One step the integrator accepted (nsed_observer.step; docs/engine.md,
 * "The step log"). A step that holds an event is recorded whole; the run
 * goes on from the event. Steps nsed takes again to land on an event
 * (nsed_stats.landing_steps) are not recorded. */
typedef struct {
  double t;           /* the step's end (s) */
  double h;           /* its size (s): t less the previous step's end, or the phase's start */
  long rejected;      /* attempts the error test rejected before it (since the previous
                         recorded step, or the phase's start) */
  long rhs;           /* right-hand sides the integrator asked for over the same span
                         (rejected attempts and a phase's initial step estimate included) */
  double error;       /* its local error estimate's weighted RMS norm, as the error test
                         saw it (<= 1) */
  int limit;          /* the state (index into the state vector, nsed_state_name) with
                         the largest weighted local error; -1 if the estimate is zero */
  double limit_share; /* that state's share of the squared norm, in (0, 1] */
  long events;        /* events handled before this step */
  int first;          /* 1: the first step since the integrator was started or restarted (the
                         run's start, an event, an indicator's root that changed no mode, a
                         step retried smaller from the last one's end after a right-hand side
                         could not be evaluated); its start may lie before the previous
                         step's end */
} nsed_step_info;

/* Observer of a run; any callback may be NULL. A non-zero return from a
 * callback stops the run with NSED_ERR_IO (e.g. a write failed). */
typedef struct {
  void *ctx;
  int (*sample)(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why);
  int (*event)(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev);
  /* Progress, called about every 0.1 s of wall time. */
  void (*progress)(void *ctx, double t, double t_end, long events, double wall_seconds);
  volatile sig_atomic_t *interrupt; /* if non-NULL and set non-zero, the run stops with NSED_ERR_INTERRUPTED */
  /* After each step the integrator accepts (ARKODE integrators only: with
   * a CVODE one nsed_simulate returns NSED_ERR_INPUT). d is mid-step: read
   * the step from s. NULL costs nothing. */
  int (*step)(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_step_info *s);
} nsed_observer;

/* The name of state i of m's state vector into buf (at most size bytes):
 * "BODY.x" ... "BODY.wz" as trajectory.csv's columns (a rotor's frame and
 * its angular velocity in that frame, docs/engine.md "Rotors"),
 * "BODY.spin" (a rotor's turn), "JOINT.angle" (a driven joint's turns),
 * "CONTACT.track_q", "CONTACT.track_phi" (a roller's differential
 * tracking), "CONTACT.track_x" .. "_z" (an algebraic surface's), "work_external",
 * "work_contacts", "work_joints". Returns NSED_OK, or NSED_ERR_INPUT for i
 * out of range (buf then ""). */
NSED_API int nsed_state_name(const nsed_model *m, int i, char *buf, size_t size);

/* Create simulation data for a finalized model, at the model's initial state. */
NSED_API int nsed_data_create(const nsed_model *m, nsed_data **out, nsed_error *err);

/* Check the data's current state before a run: NSED_ERR_INPUT with err
 * naming the contact and its gap when bodies start interpenetrating by more
 * than solver.contact_tol (compliant contacts may overlap); *contact (if
 * not NULL) is that contact's index, else -1. nsed_simulate runs it at t = 0. */
NSED_API int nsed_data_check_initial_state(const nsed_model *m, const nsed_data *d, int *contact,
                                  nsed_error *err);

/* Free data (set *d to NULL). */
NSED_API void nsed_data_free(nsed_data **d);

/* Run from the current state to the model's t_end. On failure the data keeps
 * the last consistent state and err says at what time, which contact or body,
 * and why. */
NSED_API int nsed_simulate(const nsed_model *m, nsed_data *d, const nsed_observer *obs, nsed_error *err);

/* Current time. */
NSED_API double nsed_data_time(const nsed_data *d);

/* Body i's state: r[3], q[4] (scalar first, normalised), v[3] world, w[3] body;
 * a rotor's too is its material body's (its spin angle applied). */
NSED_API void nsed_data_body_state(const nsed_data *d, int i, double out[13]);

/* Contact i's snapshot at the current time. */
NSED_API void nsed_data_contact(const nsed_data *d, int i, nsed_contact_info *out);

/* Multipliers of joint j's rows at the current time (returns their number,
 * at most 6). For joints whose anchors coincide (spherical, revolute,
 * universal, weld, servo) the first three are the reaction force on body_b
 * in world axes (N); the others are the torques (N m) and forces that keep
 * the axes aligned. */
NSED_API int nsed_data_joint_multipliers(const nsed_data *d, int j, double out[6]);

/* Joint j's coordinates at the current time: out = (angle of B about A's
 * axis (rad, from the initial configuration; continuous over turns for a
 * joint with a rotational drive, else in (-pi, pi]), its rate (rad/s), the
 * axial coordinate of anchor_b along axis_a from anchor_a (m), its rate
 * (m/s)). The angle means something for joints whose axes stay aligned
 * (revolute, cylindrical, prismatic, weld, servo). Returns NSED_OK, or
 * NSED_ERR_INPUT for a bad index. */
NSED_API int nsed_data_joint_coordinates(const nsed_data *d, int j, double out[4]);

/* Total mechanical energy: kinetic + gravity + spring potentials (J). */
NSED_API double nsed_data_energy(const nsed_model *m, const nsed_data *d);

/* Statistics so far. */
NSED_API const nsed_stats *nsed_data_stats(const nsed_data *d);

/* The event problem the run could not solve (its last one, when a run ended
 * with NSED_ERR_LCP or NSED_LCP_INFEASIBLE on it): returns 1 and fills *p,
 * whose arrays point into d and stay valid until d runs on or is freed, and
 * *impact (1: impact level); 0 when the last event problem was solved. */
NSED_API int nsed_data_failed_problem(const nsed_data *d, nsed_contact_problem *p, int *impact);

/* Write that problem to path as a contact-problem file
 * (nsed_contact_problem_write; comment as '#' lines). NSED_ERR_INPUT if
 * there is none. */
NSED_API int nsed_data_failed_problem_write(const nsed_data *d, const char *path, const char *comment,
                                            nsed_error *err);

/* The model's contact behind row block i of that problem (-1 if none). */
NSED_API int nsed_data_failed_problem_contact(const nsed_data *d, int i);

/* Names as written to the output files ("stick", "impact", ...). */
NSED_API const char *nsed_mode_name(nsed_mode mode);
NSED_API const char *nsed_event_kind_name(nsed_event_kind kind);

#ifdef __cplusplus
}
#endif
#endif
