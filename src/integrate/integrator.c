#include "integrator.h"

#include "nvector_kernels.h"
#include "step_controller.h"

#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

/* Steps allowed between two outputs before the integrator gives up: far above
 * any smooth phase of the shipped problems (the longest takes ~20,000), so
 * reaching it means a collapsed step size, not a long phase. */
#define MAX_STEPS 1000000L
/* Error-test failures allowed in one step (SUNDIALS' default is 7): a free
 * 2D slip's direction is a stiff mode at low speed (rate ~ 1/|v|), and a
 * step after a restart may need more shrinking (docs/engine.md, "Slip
 * direction"). */
#define MAX_ERR_TEST_FAILS 50
/* Steps retried smaller in a row after a recoverable right-hand-side
 * failure, each at a quarter of the failed size (CVODE's own rule and
 * limit for its recoverable failures): ARKODE's explicit stepper treats
 * such a failure as fatal, so the adapter restarts it from the last
 * accepted step. */
#define MAX_RHS_RETRIES 10

/* The failure flags flag_meaning() names hold for both integrators. */
_Static_assert(ARK_TOO_MUCH_WORK == CV_TOO_MUCH_WORK && ARK_TOO_MUCH_ACC == CV_TOO_MUCH_ACC &&
                   ARK_ERR_FAILURE == CV_ERR_FAILURE && ARK_CONV_FAILURE == CV_CONV_FAILURE &&
                   ARK_RHSFUNC_FAIL == CV_RHSFUNC_FAIL && ARK_FIRST_RHSFUNC_ERR == CV_FIRST_RHSFUNC_ERR &&
                   ARK_REPTD_RHSFUNC_ERR == CV_REPTD_RHSFUNC_ERR &&
                   ARK_UNREC_RHSFUNC_ERR == CV_UNREC_RHSFUNC_ERR && ARK_RTFUNC_FAIL == CV_RTFUNC_FAIL,
               "ARKODE and CVODE failure flags differ");

struct nsedi_integrator {
  nsedi_ode_method kind;
  SUNContext ctx;
  N_Vector y;
  N_Vector yd; /* the dense output's destination */
  void *mem;
  SUNNonlinearSolver nls;
  SUNMatrix A;
  SUNLinearSolver LS;
  int n, nroot;
  nsedi_rhs_fn f;
  nsedi_root_fn g;
  void *ud;
  long banked[NSEDI_NCOUNT]; /* counters accumulated over reinitialisations */
  double t_stop_set;
  int rhs_recoverable; /* the last right-hand side failed recoverably (> 0) */
  N_Vector y_ok;       /* ERKStep: the last accepted step's state, at t_ok */
  double t_ok;
  N_Vector y_start;    /* ERKStep: the state the last accepted step started from, at t_start */
  double t_start;
  ARKodeButcherTable B; /* ERKStep: the method's table (SUNDIALS' own, read only) */
  double *k;            /* B->stages x n: the stages of a step taken again (nsedi_integrator_restep) */
  double *y_stage;      /* n: a stage's state */
  int k1_valid;         /* k[0] is f(t_start, y_start) of the current last step */
  int sample_interpolated; /* the last tout came from the interpolant: the step taken again failed */
  nsedi_step_control control; /* ERKStep: the step controller's phase count */
  nsedi_step_fn step_log;     /* ERKStep: called after each accepted step, or NULL */
  void *step_log_ud;
  N_Vector ele, ewt;          /* the step log's copies of the error estimate and weights */
  long log_base[NSEDI_NCOUNT]; /* the raw counters at the last logged step */
};

static int rhs_tramp(realtype t, N_Vector y, N_Vector yd, void *p) {
  nsedi_integrator *it = p;
  int rc = it->f(t, NV_DATA_S(y), NV_DATA_S(yd), it->ud);
  it->rhs_recoverable = rc > 0;
  return rc;
}

static void raw_counts(const nsedi_integrator *it, long c[NSEDI_NCOUNT]);

/* The step ERKStep has just accepted: its error estimate (tempv1, which
 * nothing overwrites between the error test and the post-step hook) in the
 * weights it was tested in (set from the step's start). */
static void log_step(nsedi_integrator *it, double t) {
  nsedi_step_record r = {.t = t, .h = t - it->t_start, .limit = -1, .first = it->control.phase_steps == 1};
  long c[NSEDI_NCOUNT];
  raw_counts(it, c);
  r.rejected = c[NSEDI_COUNT_ERR_FAILS] - it->log_base[NSEDI_COUNT_ERR_FAILS];
  r.rhs = c[NSEDI_COUNT_RHS] - it->log_base[NSEDI_COUNT_RHS];
  memcpy(it->log_base, c, sizeof c);
  if (ERKStepGetEstLocalErrors(it->mem, it->ele) >= 0 && ERKStepGetErrWeights(it->mem, it->ewt) >= 0) {
    const double *e = NV_DATA_S(it->ele), *w = NV_DATA_S(it->ewt);
    double sum = 0, largest = 0;
    for (int i = 0; i < it->n; i++) {
      double ew = e[i] * w[i], sq = ew * ew;
      sum += sq;
      if (sq > largest) {
        largest = sq;
        r.limit = i;
      }
    }
    r.error = sqrt(sum / it->n);
    r.limit_share = sum > 0 ? largest / sum : 0;
  }
  it->step_log(&r, it->step_log_ud);
}

/* ERKStep, after each accepted step: where a retry restarts, and where a
 * step taken again starts (the step before's end). */
static int step_accepted(realtype t, N_Vector y, void *p) {
  nsedi_integrator *it = p;
  N_Vector start = it->y_start; /* the previous step's end is this one's start */
  it->y_start = it->y_ok;
  it->t_start = it->t_ok;
  it->y_ok = start;
  it->t_ok = t;
  N_VScale(1.0, y, it->y_ok);
  it->k1_valid = 0;
  it->control.phase_steps++;
  if (it->step_log) log_step(it, t);
  return 0;
}

static int root_tramp(realtype t, N_Vector y, realtype *g, void *p) {
  nsedi_integrator *it = p;
  return it->g(t, NV_DATA_S(y), g, it->ud);
}

static int is_cvode(const nsedi_integrator *it) {
  return it->kind == NSEDI_ODE_ADAMS || it->kind == NSEDI_ODE_BDF;
}

static ARKODE_ERKTableID erk_table(nsedi_ode_method kind) {
  return kind == NSEDI_ODE_VERNER ? ARKODE_VERNER_8_5_6 : ARKODE_DORMAND_PRINCE_7_4_5;
}

/* The solver's own counters since its last (re)initialisation. */
static void raw_counts(const nsedi_integrator *it, long c[NSEDI_NCOUNT]) {
  for (int i = 0; i < NSEDI_NCOUNT; i++) c[i] = 0;
  if (!it->mem) return;
  if (is_cvode(it)) {
    CVodeGetNumSteps(it->mem, &c[NSEDI_COUNT_STEPS]);
    CVodeGetNumRhsEvals(it->mem, &c[NSEDI_COUNT_RHS]);
    CVodeGetNumGEvals(it->mem, &c[NSEDI_COUNT_ROOTS]);
    CVodeGetNumErrTestFails(it->mem, &c[NSEDI_COUNT_ERR_FAILS]);
  } else {
    ERKStepGetNumSteps(it->mem, &c[NSEDI_COUNT_STEPS]);
    ERKStepGetNumRhsEvals(it->mem, &c[NSEDI_COUNT_RHS]);
    ERKStepGetNumGEvals(it->mem, &c[NSEDI_COUNT_ROOTS]);
    ERKStepGetNumErrTestFails(it->mem, &c[NSEDI_COUNT_ERR_FAILS]);
  }
}

double nsedi_integrator_step_size(const nsedi_integrator *it) {
  double h = 0.0;
  if (!it->mem) return h;
  if (is_cvode(it)) CVodeGetCurrentStep(it->mem, &h);
  else ERKStepGetCurrentStep(it->mem, &h);
  return h;
}

void nsedi_integrator_last_step(const nsedi_integrator *it, double *t0, double *t1) {
  double h = 0.0, tc = 0.0;
  if (it->mem) {
    if (is_cvode(it)) {
      CVodeGetLastStep(it->mem, &h);
      CVodeGetCurrentTime(it->mem, &tc);
    } else {
      ERKStepGetLastStep(it->mem, &h);
      ERKStepGetCurrentTime(it->mem, &tc);
    }
  }
  *t0 = tc - h;
  *t1 = tc;
}

int nsedi_integrator_dense(const nsedi_integrator *it, double t, double *y) {
  int flag = is_cvode(it) ? CVodeGetDky(it->mem, t, 0, it->yd) : ERKStepGetDky(it->mem, t, 0, it->yd);
  if (flag < 0) return NSED_ERR_INTEGRATOR;
  memcpy(y, NV_DATA_S(it->yd), sizeof(double) * (size_t)it->n);
  return NSED_OK;
}

/* Reinitialisation resets SUNDIALS' counters: bank them first. */
static void harvest(nsedi_integrator *it) {
  long c[NSEDI_NCOUNT];
  raw_counts(it, c);
  for (int i = 0; i < NSEDI_NCOUNT; i++) {
    it->banked[i] += c[i];
    it->log_base[i] = 0; /* the raw counters start again */
  }
}

void nsedi_integrator_counts(const nsedi_integrator *it, long counts[NSEDI_NCOUNT]) {
  raw_counts(it, counts);
  for (int i = 0; i < NSEDI_NCOUNT; i++) counts[i] += it->banked[i];
}

#define SUN_TRY(call, what)                                                                   \
  do {                                                                                        \
    int flag_ = (call);                                                                       \
    if (flag_ < 0) {                                                                          \
      nsed_error_set(err, NSED_ERR_INTEGRATOR, "SUNDIALS %s failed (flag %d)", what, flag_); \
      goto fail;                                                                              \
    }                                                                                         \
  } while (0)

/* Absolute tolerances: the model's atol, and one so large for quadratures
 * that their weight in the error norm vanishes. */
static N_Vector make_atol(const nsedi_integrator_settings *o, int n, int n_quad, SUNContext ctx) {
  N_Vector a = N_VNew_Serial(n, ctx);
  if (!a) return NULL;
  nsedi_nvector_use_own_kernels(a);
  for (int i = 0; i < n; i++) NV_Ith_S(a, i) = i < n - n_quad ? o->atol : 1e300;
  return a;
}

int nsedi_integrator_create(const nsedi_integrator_settings *o, int n, int n_quad, int nroot, nsedi_rhs_fn f,
                            nsedi_root_fn g, void *ud, double t0, const double *y0,
                            nsedi_integrator **out, nsed_error *err) {
  nsedi_integrator *it = calloc(1, sizeof *it);
  int *dir = NULL;
  N_Vector atol = NULL;
  if (!it) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (integrator)");
  it->kind = o->method;
  it->n = n;
  it->nroot = nroot;
  it->f = f;
  it->g = g;
  it->ud = ud;
  it->t_stop_set = -1;
  if (SUNContext_Create(NULL, &it->ctx)) {
    free(it);
    return nsed_error_set(err, NSED_ERR_INTEGRATOR, "SUNContext_Create failed");
  }
  it->y = N_VNew_Serial(n, it->ctx);
  it->yd = N_VNew_Serial(n, it->ctx);
  it->y_ok = N_VNew_Serial(n, it->ctx);
  it->y_start = N_VNew_Serial(n, it->ctx);
  if (!it->y || !it->yd || !it->y_ok || !it->y_start) {
    nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (N_Vector of %d states)", n);
    goto fail;
  }
  /* Before the solvers clone y: their vectors inherit the kernels. */
  nsedi_nvector_use_own_kernels(it->y);
  nsedi_nvector_use_own_kernels(it->yd);
  nsedi_nvector_use_own_kernels(it->y_ok);
  nsedi_nvector_use_own_kernels(it->y_start);
  memcpy(NV_DATA_S(it->y), y0, sizeof(double) * (size_t)n);
  memcpy(NV_DATA_S(it->y_ok), y0, sizeof(double) * (size_t)n);
  memcpy(NV_DATA_S(it->y_start), y0, sizeof(double) * (size_t)n);
  it->t_ok = it->t_start = t0;
  dir = malloc(sizeof(int) * (size_t)(nroot > 0 ? nroot : 1));
  if (!dir) {
    nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (root directions)");
    goto fail;
  }
  for (int i = 0; i < nroot; i++) dir[i] = -1;
  atol = make_atol(o, n, n_quad, it->ctx);
  if (!atol) {
    nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (tolerances)");
    goto fail;
  }
  if (is_cvode(it)) {
    it->mem = CVodeCreate(it->kind == NSEDI_ODE_BDF ? CV_BDF : CV_ADAMS, it->ctx);
    if (!it->mem) {
      nsed_error_set(err, NSED_ERR_INTEGRATOR, "CVodeCreate failed");
      goto fail;
    }
    SUN_TRY(CVodeInit(it->mem, rhs_tramp, t0, it->y), "CVodeInit");
    SUN_TRY(CVodeSetUserData(it->mem, it), "CVodeSetUserData");
    /* Failures come back as nsed errors with context; no raw stderr text. */
    SUN_TRY(CVodeSetErrFile(it->mem, NULL), "CVodeSetErrFile");
    SUN_TRY(CVodeSVtolerances(it->mem, o->rtol, atol), "CVodeSVtolerances");
    if (it->kind == NSEDI_ODE_BDF) {
      it->A = SUNDenseMatrix(n, n, it->ctx);
      it->LS = SUNLinSol_Dense(it->y, it->A, it->ctx);
      if (!it->A || !it->LS) {
        nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (CVODE dense linear solver)");
        goto fail;
      }
      SUN_TRY(CVodeSetLinearSolver(it->mem, it->LS, it->A), "CVodeSetLinearSolver");
    } else {
      it->nls = SUNNonlinSol_FixedPoint(it->y, 0, it->ctx);
      if (!it->nls) {
        nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (fixed-point solver)");
        goto fail;
      }
      SUN_TRY(CVodeSetNonlinearSolver(it->mem, it->nls), "CVodeSetNonlinearSolver");
    }
    SUN_TRY(CVodeSetMaxNumSteps(it->mem, MAX_STEPS), "CVodeSetMaxNumSteps");
    SUN_TRY(CVodeSetMaxErrTestFails(it->mem, MAX_ERR_TEST_FAILS), "CVodeSetMaxErrTestFails");
    if (o->max_step > 0) SUN_TRY(CVodeSetMaxStep(it->mem, o->max_step), "CVodeSetMaxStep");
    if (nroot > 0) {
      SUN_TRY(CVodeRootInit(it->mem, nroot, root_tramp), "CVodeRootInit");
      SUN_TRY(CVodeSetRootDirection(it->mem, dir), "CVodeSetRootDirection");
      SUN_TRY(CVodeSetNoInactiveRootWarn(it->mem), "CVodeSetNoInactiveRootWarn");
    }
  } else {
    it->mem = ERKStepCreate(rhs_tramp, t0, it->y, it->ctx);
    if (!it->mem) {
      nsed_error_set(err, NSED_ERR_INTEGRATOR, "ERKStepCreate failed");
      goto fail;
    }
    SUN_TRY(ERKStepSetUserData(it->mem, it), "ERKStepSetUserData");
    SUN_TRY(ERKStepSetPostprocessStepFn(it->mem, step_accepted), "ERKStepSetPostprocessStepFn");
    SUN_TRY(ERKStepSetErrFile(it->mem, NULL), "ERKStepSetErrFile");
    SUN_TRY(ERKStepSetTableNum(it->mem, erk_table(it->kind)), "ERKStepSetTableNum");
    SUN_TRY(ERKStepGetCurrentButcherTable(it->mem, &it->B), "ERKStepGetCurrentButcherTable");
    it->k = malloc(sizeof(double) * (size_t)n * (size_t)it->B->stages);
    it->y_stage = malloc(sizeof(double) * (size_t)n);
    if (!it->k || !it->y_stage) {
      nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (%d stages of %d states)", it->B->stages, n);
      goto fail;
    }
    SUN_TRY(ERKStepSVtolerances(it->mem, o->rtol, atol), "ERKStepSVtolerances");
    if (o->step_rule != NSEDI_STEP_PI) {
      it->control.pi_only = o->step_rule == NSEDI_STEP_PI_REPLICA;
      SUN_TRY(ERKStepSetAdaptivityFn(it->mem, nsedi_step_controller, &it->control), "ERKStepSetAdaptivityFn");
    }
    SUN_TRY(ERKStepSetMaxNumSteps(it->mem, MAX_STEPS), "ERKStepSetMaxNumSteps");
    SUN_TRY(ERKStepSetMaxErrTestFails(it->mem, MAX_ERR_TEST_FAILS), "ERKStepSetMaxErrTestFails");
    if (o->max_step > 0) SUN_TRY(ERKStepSetMaxStep(it->mem, o->max_step), "ERKStepSetMaxStep");
    if (nroot > 0) {
      SUN_TRY(ERKStepRootInit(it->mem, nroot, root_tramp), "ERKStepRootInit");
      SUN_TRY(ERKStepSetRootDirection(it->mem, dir), "ERKStepSetRootDirection");
      SUN_TRY(ERKStepSetNoInactiveRootWarn(it->mem), "ERKStepSetNoInactiveRootWarn");
    }
  }
  free(dir);
  N_VDestroy(atol); /* the solvers keep their own copy */
  *out = it;
  return NSED_OK;
fail:
  free(dir);
  if (atol) N_VDestroy(atol);
  nsedi_integrator_free(&it);
  return err ? err->status : NSED_ERR_INTEGRATOR;
}

void nsedi_integrator_free(nsedi_integrator **pit) {
  if (!pit || !*pit) return;
  nsedi_integrator *it = *pit;
  if (it->mem) {
    if (is_cvode(it))
      CVodeFree(&it->mem);
    else
      ERKStepFree(&it->mem);
  }
  if (it->nls) SUNNonlinSolFree(it->nls);
  if (it->LS) SUNLinSolFree(it->LS);
  if (it->A) SUNMatDestroy(it->A);
  if (it->y) N_VDestroy(it->y);
  if (it->yd) N_VDestroy(it->yd);
  if (it->y_ok) N_VDestroy(it->y_ok);
  if (it->y_start) N_VDestroy(it->y_start);
  if (it->ele) N_VDestroy(it->ele);
  if (it->ewt) N_VDestroy(it->ewt);
  free(it->k);
  free(it->y_stage);
  if (it->ctx) SUNContext_Free(&it->ctx);
  free(it);
  *pit = NULL;
}

int nsedi_integrator_set_step_log(nsedi_integrator *it, nsedi_step_fn fn, void *ud, nsed_error *err) {
  if (fn && is_cvode(it))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "a step log needs an ARKODE integrator (arkode_dp5 or arkode_verner): "
                          "CVODE has no hook after each step");
  if (fn && !it->ele) {
    it->ele = N_VClone(it->y);
    it->ewt = N_VClone(it->y);
    if (!it->ele || !it->ewt) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (step log)");
  }
  if (fn && !it->step_log) raw_counts(it, it->log_base); /* the record counts from here */
  it->step_log = fn;
  it->step_log_ud = ud;
  return NSED_OK;
}

int nsedi_integrator_reinit(nsedi_integrator *it, double t, const double *y, nsed_error *err) {
  harvest(it);
  memcpy(NV_DATA_S(it->y), y, sizeof(double) * (size_t)it->n);
  memcpy(NV_DATA_S(it->y_ok), y, sizeof(double) * (size_t)it->n);
  memcpy(NV_DATA_S(it->y_start), y, sizeof(double) * (size_t)it->n);
  it->t_ok = it->t_start = t;
  it->k1_valid = 0;
  it->control.phase_steps = 0;
  int flag = is_cvode(it) ? CVodeReInit(it->mem, t, it->y) : ERKStepReInit(it->mem, rhs_tramp, t, it->y);
  if (flag >= 0 && !is_cvode(it)) flag = ERKStepSetInitStep(it->mem, 0.0); /* estimated afresh */
  it->t_stop_set = -1;
  if (flag < 0)
    return nsed_error_set(err, NSED_ERR_INTEGRATOR, "SUNDIALS reinitialisation at t = %.17g failed (flag %d)", t, flag);
  return NSED_OK;
}

/* What a failure flag means for the user, and what to change; written to buf. */
static const char *flag_meaning(int flag, char *buf, size_t size) {
  switch (flag) {
  case CV_TOO_MUCH_WORK:
    snprintf(buf, size,
             "%ld steps without reaching the next output: solver.max_step too small for "
             "output.dt, or the step size collapsed, usually on a nonsmooth right-hand side "
             "(a transition the events did not resolve) or a stiff force law (solver.integrator: "
             "cvode_bdf)", MAX_STEPS);
    break;
  case CV_TOO_MUCH_ACC:
    snprintf(buf, size, "the tolerances ask for more than double precision can give: raise solver.rtol / "
                        "solver.atol");
    break;
  case CV_ERR_FAILURE:
    snprintf(buf, size,
             "the error test failed %d times in one step or at the smallest step: the right-hand side is "
             "not smooth there, or the tolerances are too tight for it", MAX_ERR_TEST_FAILS);
    break;
  case CV_CONV_FAILURE:
    snprintf(buf, size, "the implicit solver's Newton iteration did not converge (a stiff law: tighter "
                        "tolerances or a smaller solver.max_step)");
    break;
  case CV_RHSFUNC_FAIL:
  case CV_FIRST_RHSFUNC_ERR:
  case CV_REPTD_RHSFUNC_ERR:
  case CV_UNREC_RHSFUNC_ERR:
    snprintf(buf, size, "the equations of motion could not be evaluated");
    break;
  case CV_RTFUNC_FAIL:
    snprintf(buf, size, "an event indicator could not be evaluated");
    break;
  default:
    snprintf(buf, size, "see the SUNDIALS documentation of this flag");
  }
  return buf;
}

/* ERKStepEvolve, retrying a step that a recoverable right-hand-side
 * failure stopped (a trial stage beyond an event, where a contact's
 * geometry no longer exists) from the last accepted step, smaller. */
static int erk_evolve(nsedi_integrator *it, double tout, double t_stop, realtype *tret) {
  int flag = ERKStepEvolve(it->mem, tout, it->y, tret, ARK_NORMAL);
  for (int retry = 0; flag == ARK_UNREC_RHSFUNC_ERR && it->rhs_recoverable && retry < MAX_RHS_RETRIES;
       retry++) {
    double h = 0;
    ERKStepGetCurrentStep(it->mem, &h);
    harvest(it);
    N_VScale(1.0, it->y_ok, it->y);
    int f2 = ERKStepReInit(it->mem, rhs_tramp, it->t_ok, it->y);
    it->control.phase_steps = 0;
    if (f2 >= 0) f2 = ERKStepSetInitStep(it->mem, 0.25 * h);
    if (f2 >= 0) f2 = ERKStepSetStopTime(it->mem, t_stop);
    if (f2 < 0) return flag;
    flag = ERKStepEvolve(it->mem, tout, it->y, tret, ARK_NORMAL);
  }
  return flag;
}

int nsedi_integrator_advance(nsedi_integrator *it, double tout, double t_stop, double *y,
                             double *t, nsedi_step_result *result, nsed_error *err) {
  int flag;
  realtype tret = 0;
  if (it->t_stop_set != t_stop) {
    flag = is_cvode(it) ? CVodeSetStopTime(it->mem, t_stop) : ERKStepSetStopTime(it->mem, t_stop);
    if (flag < 0) return nsed_error_set(err, NSED_ERR_INTEGRATOR, "setting the stop time failed (flag %d)", flag);
    it->t_stop_set = t_stop;
  }
  if (is_cvode(it)) {
    flag = CVode(it->mem, tout, it->y, &tret, CV_NORMAL);
  } else {
    flag = erk_evolve(it, tout, t_stop, &tret);
  }
  memcpy(y, NV_DATA_S(it->y), sizeof(double) * (size_t)it->n);
  *t = tret;
  /* ERKStep returns tout from its dense output, a Hermite interpolant of
   * lower order whose error no error test bounds: it can be far above the
   * method's own (docs/engine.md, "Samples on the method's steps"). The
   * method's state at tout is one step of its table from the step's
   * start; the integration itself goes on from the step's end unchanged.
   * CVODE's interpolant is its method's own polynomial. */
  it->sample_interpolated = 0;
  if (flag == ARK_SUCCESS && !is_cvode(it) && tret < it->t_ok && nsedi_integrator_can_restep(it))
    it->sample_interpolated = nsedi_integrator_restep(it, tret, y) != NSED_OK;
  if (flag < 0) {
    char *name = is_cvode(it) ? CVodeGetReturnFlagName(flag) : ERKStepGetReturnFlagName(flag);
    char meaning[256];
    nsed_error_set(err, NSED_ERR_INTEGRATOR, "the integrator failed at t = %.17g: %s (flag %d): %s",
                   tret, name ? name : "?", flag, flag_meaning(flag, meaning, sizeof meaning));
    free(name);
    return NSED_ERR_INTEGRATOR;
  }
  /* ARK_ROOT_RETURN == CV_ROOT_RETURN == 2 */
  *result = flag == 2 ? NSEDI_STEP_ROOT : NSEDI_STEP_TOUT;
  /* The stop time is enforced again at each call; SUNDIALS clears it once reached. */
  if (flag == 1) it->t_stop_set = -1; /* ARK_TSTOP_RETURN / CV_TSTOP_RETURN */
  return NSED_OK;
}

int nsedi_integrator_sample_interpolated(const nsedi_integrator *it) { return it->sample_interpolated; }

int nsedi_integrator_roots(nsedi_integrator *it, int *rf) {
  return is_cvode(it) ? CVodeGetRootInfo(it->mem, rf) : ERKStepGetRootInfo(it->mem, rf);
}

int nsedi_integrator_can_restep(const nsedi_integrator *it) {
  return !is_cvode(it) && it->t_ok > it->t_start;
}

/* One step of the method's table from the last step's start: the stages
 * are those of the accepted step with tau in place of its size, so the
 * result is the method's own solution at t, not an interpolant's. */
int nsedi_integrator_restep(nsedi_integrator *it, double t, double *y) {
  int n = it->n, s = it->B->stages;
  const double *y0 = NV_DATA_S(it->y_start);
  double tau = t - it->t_start;
  if (!(tau >= 0 && t <= it->t_ok)) return NSED_ERR_INTEGRATOR;
  if (tau == 0) {
    memcpy(y, y0, sizeof(double) * (size_t)n);
    return NSED_OK;
  }
  if (!it->k1_valid) {
    if (it->f(it->t_start, y0, it->k, it->ud)) return NSED_ERR_INTEGRATOR;
    it->banked[NSEDI_COUNT_RHS]++;
    it->k1_valid = 1;
  }
  for (int i = 1; i < s; i++) {
    for (int q = 0; q < n; q++) {
      double sum = 0;
      for (int j = 0; j < i; j++) sum += it->B->A[i][j] * it->k[(size_t)j * n + q];
      it->y_stage[q] = y0[q] + tau * sum;
    }
    if (it->f(it->t_start + it->B->c[i] * tau, it->y_stage, it->k + (size_t)i * n, it->ud))
      return NSED_ERR_INTEGRATOR;
    it->banked[NSEDI_COUNT_RHS]++;
  }
  for (int q = 0; q < n; q++) {
    double sum = 0;
    for (int j = 0; j < s; j++) sum += it->B->b[j] * it->k[(size_t)j * n + q];
    y[q] = y0[q] + tau * sum;
  }
  return NSED_OK;
}
