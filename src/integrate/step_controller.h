/* The step-size controller nsed gives ARKODE's explicit methods: the
 * smaller of ARKODE's PI estimate and the implicit Gustafsson estimate,
 * which extrapolates the last step ratio (docs/engine.md, "Step-size
 * controller"). Pure functions of the step and error histories, plus the
 * adapter that ARKODE asks after every step attempt (h1, e1 the attempt's
 * size and error, h2, e2 the last accepted step's). */
#ifndef NSEDI_STEP_CONTROLLER_H
#define NSEDI_STEP_CONTROLLER_H

#include <arkode/arkode.h>

/* ARKODE's PI estimate (SUNDIALS 6.4, adaptivity method 1): h1 the step
 * just taken, e1 and e2 its and the previous step's biased error norms,
 * p the embedded method's order. */
double nsedi_step_pi(double h1, double e1, double e2, int p);

/* The implicit Gustafsson estimate (ARKODE's adaptivity method 4): the PI
 * estimate's structure times the last step ratio h1 / h2, so a run of
 * shrinking (or growing) steps is predicted to continue. h2 <= 0 (no
 * previous step since a restart): ARKODE's first-step estimate
 * h1 e1^(-1/p). */
double nsedi_step_gustafsson(double h1, double h2, double e1, double e2, int p);

/* What the adapter needs besides ARKODE's histories: the steps accepted in
 * the current phase (since the last (re)initialisation, which an event
 * makes), counted by the integrator, so that the step ratio is taken only
 * between two steps of one phase, never across an event. */
typedef struct {
  long phase_steps; /* steps accepted since the last (re)initialisation */
  int pi_only;      /* the PI estimate alone: the replica of ARKODE's own PI, for its test */
} nsedi_step_control;

/* ARKAdaptFn (data: an nsedi_step_control): *hnew = min(PI, Gustafsson). */
int nsedi_step_controller(N_Vector y, realtype t, realtype h1, realtype h2, realtype h3,
                          realtype e1, realtype e2, realtype e3, int q, int p, realtype *hnew,
                          void *data);

#endif
