/* The ODE stepper adapter (src/integrate/ is nsed's only user of
 * SUNDIALS). ARKODE's explicit ERKStep (Dormand-Prince 5(4) or Verner
 * 6(5)) or CVODE (Adams with fixed-point iteration, or BDF with a dense
 * Newton solver), with root-finding on the engine's indicator functions;
 * reinitialised (never reallocated) after every event. */
#ifndef NSED_INTEGRATE_INTEGRATOR_H
#define NSED_INTEGRATE_INTEGRATOR_H

#include "nsed/status.h"

/* The methods (docs/engine.md, "Integrators"). */
typedef enum {
  NSEDI_ODE_DP5 = 0,    /* ARKODE ERKStep, Dormand-Prince 5(4) */
  NSEDI_ODE_VERNER = 1, /* ARKODE ERKStep, Verner 6(5), 8 stages */
  NSEDI_ODE_ADAMS = 2,  /* CVODE Adams-Moulton, fixed-point iteration */
  NSEDI_ODE_BDF = 3     /* CVODE BDF, dense Newton */
} nsedi_ode_method;

/* How ERKStep chooses its next step (docs/engine.md, "Step-size
 * controller"); CVODE keeps its own. */
typedef enum {
  NSEDI_STEP_PI_GUSTAFSSON = 0, /* the smaller of ARKODE's PI and the implicit Gustafsson estimates */
  NSEDI_STEP_PI = 1,            /* ARKODE's PI controller (its default) */
  NSEDI_STEP_PI_REPLICA = 2     /* nsed's replica of ARKODE's PI through the same adapter: tests */
} nsedi_step_rule;

/* The stepper and its tolerances; the simulate layer fills them from the
 * model's options. */
typedef struct {
  nsedi_ode_method method;
  nsedi_step_rule step_rule;
  double rtol, atol;    /* relative, and absolute for every state but the quadratures */
  double max_step;      /* largest step; 0: no limit */
} nsedi_integrator_settings;

typedef struct nsedi_integrator nsedi_integrator;

/* ydot = f(t, y); return 0 ok, > 0 recoverable (step retried smaller), < 0 fatal. */
typedef int (*nsedi_rhs_fn)(double t, const double *y, double *ydot, void *ud);
/* g[0..nroot-1] at (t, y); return 0 ok, non-zero fatal. */
typedef int (*nsedi_root_fn)(double t, const double *y, double *g, void *ud);

typedef enum { NSEDI_STEP_TOUT = 0, NSEDI_STEP_ROOT = 1 } nsedi_step_result;

/* Create for n states and nroot root functions (all detected only when
 * decreasing through zero: every indicator is positive inside its mode).
 * The last n_quad states are quadratures (work integrals) carried along
 * without error control, so they do not change the steps of the others. */
int nsedi_integrator_create(const nsedi_integrator_settings *o, int n, int n_quad, int nroot, nsedi_rhs_fn f,
                            nsedi_root_fn g, void *ud, double t0, const double *y0,
                            nsedi_integrator **out, nsed_error *err);
void nsedi_integrator_free(nsedi_integrator **it);

/* Restart at (t, y) after an event (same tolerances and root functions). */
int nsedi_integrator_reinit(nsedi_integrator *it, double t, const double *y, nsed_error *err);

/* Advance towards tout (never past t_stop). On return *t and y hold the
 * reached point; *result says whether a root (event) or tout was reached.
 * Under ARKODE tout is reached by a step of the method, never by its
 * interpolant (docs/engine.md, "Samples on the method's steps").
 * Returns NSED_OK or NSED_ERR_INTEGRATOR with err naming SUNDIALS' flag. */
int nsedi_integrator_advance(nsedi_integrator *it, double tout, double t_stop, double *y,
                             double *t, nsedi_step_result *result, nsed_error *err);

/* Whether the state the last advance returned at tout is the interpolant's
 * (ERKStep: the step to it could not be taken again, a stage's right-hand
 * side failed), not the method's. */
int nsedi_integrator_sample_interpolated(const nsedi_integrator *it);

/* Which root functions fired at the last root return: rf[i] != 0. */
int nsedi_integrator_roots(nsedi_integrator *it, int *rf);

/* The step size the integrator would try next (0 before the first step):
 * how far a stalled integration had shrunk its steps. */
double nsedi_integrator_step_size(const nsedi_integrator *it);

/* The interval [t0, t1] of the last step, over which the dense output is
 * valid (t0 == t1 before the first step). */
void nsedi_integrator_last_step(const nsedi_integrator *it, double *t0, double *t1);

/* The state at t within the last step from the integrator's dense output
 * (its interpolant, accurate to the local error). Returns NSED_OK, or
 * NSED_ERR_INTEGRATOR when t is outside the step. */
int nsedi_integrator_dense(const nsedi_integrator *it, double t, double *y);

/* Whether the last step can be taken again to a point inside it (ERKStep,
 * after at least one step since the last (re)initialisation). */
int nsedi_integrator_can_restep(const nsedi_integrator *it);

/* The method's own state at t within the last step: one step of its table
 * from the step's start, of size t - start (the stages of the first kept
 * across calls within the step). Costs stages - 1 right-hand sides (one
 * more at the first call). Returns NSED_OK, or NSED_ERR_INTEGRATOR when t
 * is outside the step or a right-hand side fails. */
int nsedi_integrator_restep(nsedi_integrator *it, double t, double *y);

/* One step ERKStep accepted, for the step log (docs/engine.md, "The step
 * log"). */
typedef struct {
  double t, h;        /* the step's end, and its size (t less the previous step's end) */
  long rejected;      /* error-test failures since the previous accepted step or (re)start */
  long rhs;           /* right-hand sides ERKStep asked for since then (memo answers included) */
  double error;       /* the local error estimate's weighted RMS norm, as ERKStep tested it */
  int limit;          /* the state with the largest weighted error (-1: the estimate is zero) */
  double limit_share; /* that state's share of the squared norm */
  int first;          /* the first step since the integrator was (re)started */
} nsedi_step_record;

typedef void (*nsedi_step_fn)(const nsedi_step_record *r, void *ud);

/* Call fn after each accepted step (fn NULL: no more). ERKStep only:
 * NSED_ERR_INPUT for CVODE, whose steps have no post-step hook. The first
 * call allocates the two vectors the records need; none per step. */
int nsedi_integrator_set_step_log(nsedi_integrator *it, nsedi_step_fn fn, void *ud, nsed_error *err);

/* The solver's counters, cumulative across reinitialisations. */
enum {
  NSEDI_COUNT_STEPS = 0,     /* steps taken */
  NSEDI_COUNT_RHS = 1,       /* right-hand sides asked for */
  NSEDI_COUNT_ROOTS = 2,     /* root function evaluations */
  NSEDI_COUNT_ERR_FAILS = 3, /* steps rejected on the error test */
  NSEDI_NCOUNT = 4
};
void nsedi_integrator_counts(const nsedi_integrator *it, long counts[NSEDI_NCOUNT]);

#endif
