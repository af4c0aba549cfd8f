/* The simulation data's private layout: dynamic state, modes, caches and
 * workspace, all sized from the model at creation and owned here. */
#ifndef NSED_SIMULATE_SIM_IMPL_H
#define NSED_SIMULATE_SIM_IMPL_H

#include "accel.h"
#include "integrator.h"
#include "nsed/simulate.h"
#include "rows.h"

#define NSEDI_ROOTS_PER_CONTACT 4

/* Work accumulators integrated after the body states (x[nstate + k]):
 * external loads (force/torque laws, dampers), contact forces (friction,
 * plus the kinetic energy changes of impacts and slip-stop impulses), and
 * joint constraint forces (servos; Baumgarte corrections). With them the
 * energy balance E(t) - E(0) = sum of the works is checkable. */
#define NSEDI_NWORK 3

struct nsed_data {
  const nsed_model *m;
  double t;
  double *x;              /* nstate */
  nsed_mode *mode;        /* ncontact */
  double *slip_dir0;      /* 2 nc: slip direction (t1, t2) at the start of a slip phase */
  double *open_offset;    /* nc: gap of an open contact when it opened, if negative */

  /* caches of the last evaluation at (t, x) */
  nsedi_kin *kin;         /* nbody */
  nsedi_contact_geom *geom; /* nc */
  int *geom_ok;           /* nc */
  double *lambda_c;       /* 3 nc: contact forces (n, t1, t2) */
  double *lambda_j;       /* nrow: joint multipliers */

  /* smooth-phase workspace */
  int maxr;
  nsedi_row *rows, *cols; /* maxr */
  double *target, *lam;   /* maxr */
  int *row_contact;       /* maxr: contact of a row, -1 for joints */
  double *f, *du;         /* nv */
  nsedi_dyn_ws *ws;

  /* event workspace */
  nsed_contact_solver *cs;
  int *cand;              /* nc: candidate contact indices */
  nsedi_row *W;           /* 3 nc */
  double *G, *b, *PWt, *cl, *ca, *cdir; /* (3nc)^2, 3nc, nv*3nc, 3nc, 3nc, 2nc */
  nsed_cp_contact *cpc;   /* nc */
  nsed_cp_mode *cmode;    /* nc */
  nsed_mode *prev_mode;   /* nc: modes before the event */
  int *impacted;          /* nc: took part in this event's impact */
  double *impact_speed;   /* nc: its approach speed before the impact (m/s) */
  int *plastic;           /* nc: the Zeno guard made its impacts plastic */
  int nacc;               /* contacts in the last acceleration problem */
  int failure_contact;    /* the contact an event failure concerns, -1 if none or several */
  int *track_live;        /* nc: DIFFERENTIAL states integrated in this phase */
  double *region_sign;    /* nc: sign of the contact's surface region at the phase start */
  int *stopping;          /* nc: a turning 2D slip declared stopped at this event */
  double *du_imp;         /* nv: velocity jump of an impact */
  int *taking_over;       /* nc: a roller taking the contact over from its neighbour at this event */
  int *stop_rows;         /* 3 nc: rows held by the slip-stop impulses */
  double *stop_G, *stop_rhs; /* (3 nc)^2, 3 nc */
  int *stop_piv;          /* 6 nc: pivots and the LU's workspace */
  int *onset_lock;        /* nc: slipping from rest with the event problem's friction force (onset.c) */
  double *lock_mu;        /* nc: that force's |lambda_t| / lambda_n */

  /* Zeno guard: recent event times per contact */
  double *zeno_t;         /* nc * zeno_events ring */
  int *zeno_n;            /* nc */

  nsedi_integrator *integ;
  nsed_stats stats;
  nsed_error rhs_err;     /* set when the rhs fails, reported by the loop */
  double energy_initial;
  double t_next_breakpoint; /* next breakpoint of a piecewise law (INFINITY if none) */
};

/* Evaluate everything at (t, x) for the current modes: kinematics, contact
 * geometry, accelerations (into xdot if not NULL) and multipliers. */
int nsedi_eval(const nsed_model *m, nsed_data *d, double t, const double *x, double *xdot,
               nsed_error *err);

/* Root functions at (t, x) for the current modes (nroot values). */
int nsedi_indicators(const nsed_model *m, nsed_data *d, double t, const double *x, double *g);

/* Number of root functions of the model. */
int nsedi_nroot(const nsed_model *m);

/* Decide the contacts' modes at the current state: impact problem if a
 * touching contact approaches, then the acceleration problem. Records
 * events through the observer. fired: which root functions triggered
 * (NULL at the start). */
int nsedi_resolve(const nsed_model *m, nsed_data *d, const int *fired, const nsed_observer *obs,
                  nsed_error *err);

/* Relative acceleration along row r for the body accelerations du. */
double nsedi_row_accel(const nsedi_row *r, const double *du);

/* Distance of the tangential force (l1, l2) inside the friction polygon (or
 * circle) of radius mu0 ln: positive inside, zero on the boundary. */
double nsedi_friction_margin(const nsed_options *o, double mu0, double ln, double l1, double l2);

/* Slip onsets after the event problem (onset.c): align each slip starting
 * from rest with its own tangential acceleration (jointly when coupled) and
 * hold it on that direction up to slip_stop_speed, or, if no consistent
 * directions exist on the circle, on the event problem's friction force.
 * Leaves the caches evaluated. */
int nsedi_onset_resolve(const nsed_model *m, nsed_data *d, nsed_error *err);

/* Next breakpoint of any piecewise time law strictly after t (INFINITY if none). */
double nsedi_next_breakpoint(const nsed_model *m, double t);

/* Make the initial velocities consistent with the joints' velocity
 * constraints by the mass-weighted projection (positions are not moved). */
int nsedi_project_velocities(const nsed_model *m, nsed_data *d, nsed_error *err);

/* The trial-and-error alternative to the acceleration LCP for candidates
 * cand[0..n) (resolve_trial.c); fills cmode, cl, cdir like the LCP. */
int nsedi_trial_modes(const nsed_model *m, nsed_data *d, int n, nsed_lcp_stats *st, nsed_error *err);

/* DIFFERENTIAL tracking states are integrated only while their contact is
 * closed on the roller's smooth surface ("live"); otherwise the point is
 * computed explicitly. At each event (and the start) a contact that became
 * live gets states consistent with the explicit point. */
void nsedi_track_reanchor(const nsed_model *m, nsed_data *d);

/* Largest tangency residual a live DIFFERENTIAL tracking state may reach
 * (re-anchored it is 0; the integration error grows it: ~1e-12 at the
 * default tolerances) before the run stops. */
#define NSEDI_TRACK_TOL 1e-6

/* NSED_ERR_EVENT naming the contact if a live DIFFERENTIAL tracking state
 * has drifted beyond NSEDI_TRACK_TOL or off the roller's profile. */
int nsedi_track_check(const nsed_model *m, nsed_data *d, nsed_error *err);

/* The live tracking states of contact c in x, or NULL. */
static inline const double *nsedi_live_track(const nsed_model *m, const nsed_data *d,
                                             const double *x, int c) {
  int xt = m->contact[c].xtrack;
  return xt >= 0 && d->track_live[c] ? x + xt : NULL;
}

/* Renormalise the quaternions of the state (only at events). */
void nsedi_normalize_quats(const nsed_model *m, double *x);

#endif
