/* The event-driven loop: integrate the smooth phase until an indicator's
 * root or the next output instant, resolve events, reinitialise, repeat. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <x86intrin.h>
#endif

#include "forces.h"
#include "sim_impl.h"
#include "tolerances.h"

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The clock of the run's shares (right-hand sides, indicators, the law
 * monitor, events): read twice per right-hand side, so its cost counts on
 * small problems (25 ns for clock_gettime here, 7% of a sphere's run; the
 * time-stamp counter 10 ns). Ticks are converted to seconds at the end of
 * each nsed_simulate by that call's own ratio of wall time to ticks. */
#if defined(__x86_64__) && defined(__GNUC__)
static inline uint64_t tick_now(void) { return __rdtsc(); }
#else
static inline uint64_t tick_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

/* A right-hand side at the point of the last one (nsedi_rhs_memo, keyed
 * by the caches' key): the same function of the same (t, x) in the same
 * phase, so its answer is copied, bit for bit what evaluating gives. */
static int rhs_from_memo(nsed_data *d, double t, const double *y, double *ydot) {
  if (d->memo.off || !nsedi_cached_at(d->m, d, t, y)) return 0;
  memcpy(ydot, d->memo.xdot, sizeof(double) * (size_t)(d->m->nstate + NSEDI_NWORK));
  d->stats.rhs_reused++;
  return 1;
}

static int rhs_evaluate(nsed_data *d, double t, const double *y, double *ydot);

#ifdef NSEDI_CHECK_RHS_MEMO
/* -Dcheck_rhs_memo: the memo's answer against evaluating; a difference
 * means a phase changed without clearing it, and the run stops there. */
static void rhs_memo_check(nsed_data *d, double t, const double *y, const double *ydot) {
  size_t bytes = sizeof(double) * (size_t)(d->m->nstate + NSEDI_NWORK);
  if (rhs_evaluate(d, t, y, d->memo.xdot_check) == 0 && memcmp(ydot, d->memo.xdot_check, bytes)) {
    fprintf(stderr, "nsed: the right-hand side's memo at t = %.17g differs from evaluating\n", t);
    abort();
  }
}
#endif

static int rhs_cb(double t, const double *y, double *ydot, void *ud) {
  nsed_data *d = ud;
  if (rhs_from_memo(d, t, y, ydot)) {
#ifdef NSEDI_CHECK_RHS_MEMO
    rhs_memo_check(d, t, y, ydot);
#endif
    if (d->rhs_err.status != NSED_OK) nsed_error_clear(&d->rhs_err);
    return 0;
  }
  return rhs_evaluate(d, t, y, ydot);
}

/* One evaluation for the integrator: kept for the indicators at a step's
 * end and in the memo. */
static int rhs_evaluate(nsed_data *d, double t, const double *y, double *ydot) {
  nsed_error err;
  uint64_t w0 = tick_now();
  int rc = d->memo.all_geometry ? nsedi_eval(d->m, d, t, y, ydot, &err)
                                 : nsedi_eval_rhs(d->m, d, t, y, ydot, &err);
  d->ticks.rhs += tick_now() - w0;
  if (rc) {
    d->rhs_err = err;
    /* A closed contact's geometry that no trajectory keeping it closed
     * reaches (a sphere's centre inside the body) means a trial stage past
     * the event that ends it: a smaller step finds the event first
     * (recoverable). Anything else is fatal: a disk lying flat is a state
     * the motion itself reaches, and retrying smaller steps cannot cure a
     * force law that returns NaN. */
    int past_event = rc == NSED_ERR_EVENT && d->rhs_past_event;
    d->rhs_past_event = 0;
    return past_event ? 1 : -1;
  }
  /* a recoverable failure that a smaller step cured is no reason to keep */
  if (d->rhs_err.status != NSED_OK) nsed_error_clear(&d->rhs_err);
  /* Kept for the indicators at a step's end (nsedi_indicators) and for
   * the integrator asking again (rhs_from_memo). */
  memcpy(d->cache.x_key, y, sizeof(double) * (size_t)d->m->nstate);
  d->cache.t_key = t;
  d->cache.key_valid = 1;
  memcpy(d->memo.xdot, ydot, sizeof(double) * (size_t)(d->m->nstate + NSEDI_NWORK));
  return 0;
}

/* The law monitor at an integrator step's end, where the root search
 * evaluates the indicators on the step's own state (a return inside the
 * step is on the interpolant: not checked). A step that holds a root (an
 * indicator that was positive at the step before and is not now) ends past
 * an event, where the old modes' law need not hold; the event's own checks
 * follow. The indicators at the phase's start (the first call after a
 * restart, at the integrator's time too) begin the comparison. */
static int monitor_step_end(nsed_data *d, double t, const double *y, const double *g, uint64_t w0) {
  const nsed_model *m = d->m;
  double t0, t1;
  nsedi_integrator_last_step(d->integ, &t0, &t1);
  if (t != t1) return 0;
  int nroot = nsedi_nroot(m), root = 0;
  nsedi_step_check *sc = &d->step_check;
  for (int k = 0; k < nroot && sc->valid && !root; k++) root = sc->g[k] > 0 && !(g[k] > 0);
  memcpy(sc->g, g, sizeof(double) * (size_t)nroot);
  sc->valid = 1;
  if (root) return 0;
  /* Timed from the indicators' end (w0, a clock read fewer). */
  nsed_error err;
  int rc = nsedi_track_check(m, d, t, y, &err);
  if (rc == NSED_OK) rc = nsedi_monitor_check(m, d, t, &err);
#ifdef NSEDI_MONITOR_REPORT_ONLY
  rc = NSED_OK;
#endif
  d->ticks.monitor += tick_now() - w0;
  if (rc) {
    /* The run stops at the state judged, not at the integrator's last return. */
    d->rhs_err = err;
    sc->failed = 1;
    sc->t_failed = t;
    memcpy(sc->x, y, sizeof(double) * (size_t)(m->nstate + NSEDI_NWORK));
  }
  return rc;
}

static int root_cb(double t, const double *y, double *g, void *ud) {
  nsed_data *d = ud;
  uint64_t w0 = tick_now();
  int rc = nsedi_indicators(d->m, d, t, y, g);
  uint64_t w1 = tick_now();
  d->ticks.roots += w1 - w0;
  if (rc == 0 && d->integ) rc = monitor_step_end(d, t, y, g, w1);
  return rc ? -1 : 0;
}

static void track_violation(const nsed_model *m, nsed_data *d) {
  double v = d->stats.max_constraint_violation;
  for (int i = 0; i < m->nrow; i++)
    if (!d->sw.rows[i].own_feedback) v = fmax(v, fabs(d->sw.rows[i].pos));
  for (int c = 0; c < m->ncontact; c++)
    if (d->ph.mode[c] != NSED_MODE_OPEN) v = fmax(v, fabs(d->cache.geom[c].gap));
  d->stats.max_constraint_violation = v;
}

static int monitor(const nsed_model *m, nsed_data *d, double t, nsed_error *err) {
  uint64_t w0 = tick_now();
  int rc = nsedi_monitor_check(m, d, t, err);
  d->ticks.monitor += tick_now() - w0;
#ifdef NSEDI_MONITOR_REPORT_ONLY
  rc = NSED_OK;
#endif
  return rc;
}

static int sample(const nsed_model *m, nsed_data *d, const nsed_observer *obs,
                  nsed_sample_reason why, nsed_error *err) {
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc == NSED_OK) rc = nsedi_track_check(m, d, d->t, d->x, err);
  /* At an event the old modes' law is at its boundary by definition (the
   * friction on the cone, a gap reaching zero) and the event decides anew:
   * the monitor checks the state after it. */
  if (rc == NSED_OK && why != NSED_SAMPLE_PRE_EVENT) rc = monitor(m, d, d->t, err);
  if (rc) return rc;
  d->stats.work_external = d->x[m->nstate];
  d->stats.work_contacts = d->x[m->nstate + 1];
  d->stats.work_joints = d->x[m->nstate + 2];
  track_violation(m, d);
  if (obs && obs->sample && obs->sample(obs->ctx, m, d, why))
    return nsed_error_set(err, NSED_ERR_IO, "writing the results failed at t = %.17g", d->t);
  return NSED_OK;
}

static void update_counts(nsed_data *d) {
  if (!d->integ) return;
  long c[NSEDI_NCOUNT];
  nsedi_integrator_counts(d->integ, c);
  d->stats.steps = c[NSEDI_COUNT_STEPS];
  d->stats.rhs_evals = c[NSEDI_COUNT_RHS];
  d->stats.root_evals = c[NSEDI_COUNT_ROOTS];
  d->stats.error_test_failures = c[NSEDI_COUNT_ERR_FAILS];
  d->stats.rhs_evals -= d->stats.rhs_reused; /* the integrator counts its calls */
}

static const char *const state_names[13] = {"x", "y", "z", "q0", "q1", "q2", "q3",
                                             "vx", "vy", "vz", "wx", "wy", "wz"};

/* What a stalled integration was doing, appended to SUNDIALS' reason: the
 * step size it had come down to, the time since the last event, and every
 * closed contact's mode with its slip speed (slips, onsets held on their
 * event direction) or friction margin (sticks), so that a stall after an
 * event can be traced to the contact whose forces are not smooth. */
static void stall_context(const nsed_model *m, nsed_data *d, double t_event, nsed_error *err) {
  nsed_error quiet;
  nsed_error_clear(&quiet);
  if (nsedi_eval(m, d, d->t, d->x, NULL, &quiet) != NSED_OK) return;
  char buf[sizeof err->message];
  size_t used = (size_t)snprintf(buf, sizeof buf, "%s; step size %.3g s, %.3g s after the last event "
                                 "(t = %.17g); closed contacts:", err->message,
                                 nsedi_integrator_step_size(d->integ), d->t - t_event, t_event);
  int listed = 0;
  for (int c = 0; c < m->ncontact && used + 96 < sizeof buf; c++) {
    if (d->ph.mode[c] == NSED_MODE_OPEN) continue;
    const nsedi_contact_geom *g = &d->cache.geom[c];
    const double *l = d->cache.lambda_c + 3 * c;
    double sp = nsedi_slip_speed(g);
    if (d->ph.mode[c] == NSED_MODE_SLIP)
      used += (size_t)snprintf(buf + used, sizeof buf - used, " %s (slip%s %.3g m/s)",
                               m->contact[c].def.name, d->ph.held[c] ? " held" : "", sp);
    else
      used += (size_t)snprintf(buf + used, sizeof buf - used, " %s (stick, margin %.3g N)",
                               m->contact[c].def.name,
                               nsedi_friction_margin(&m->opt, m->contact[c].def.mu0, l[0], l[1], l[2]));
    double flat = nsedi_contact_flatness(m, c, d->cache.kin);
    if (flat < NSEDI_FLAT_NOTE && used + 200 < sizeof buf)
      used += (size_t)snprintf(buf + used, sizeof buf - used,
                               " at a flat direction of its superellipsoid (the plane's normal "
                               "has a body component of %.1e: the contact point crosses it at "
                               "unbounded speed; tracking: differential integrates through it)",
                               flat);
    listed++;
  }
  if (!listed && used + 8 < sizeof buf) snprintf(buf + used, sizeof buf - used, " none");
  nsed_error_set(err, err->status, "%s", buf);
}

static int integrator_error(const nsed_model *m, nsed_data *d, double t_event, nsed_error *err) {
  /* Prefer the engine's own reason (NaN, inconsistent modes) over SUNDIALS'. */
  if (d->rhs_err.status != NSED_OK) {
    *err = d->rhs_err;
    return d->rhs_err.status;
  }
  /* A state that overflows makes SUNDIALS fail in many ways; name it. */
  for (int i = 0; i < m->nbstate; i++)
    if (!isfinite(d->x[i]) || fabs(d->x[i]) > 1e150) {
      char why[sizeof err->message];
      snprintf(why, sizeof why, "%s", err->message);
      return nsed_error_set(err, NSED_ERR_NONFINITE,
                            "t = %.17g: body '%s' state %s = %g is not finite or overflows "
                            "(a force law out of range?); the integrator said: %s",
                            d->t, m->body[nsedi_state_body(m, i)].def.name, state_names[i % 13],
                            d->x[i], why);
    }
  /* Or the accelerations of the last evaluation do. */
  for (int i = 0; i < m->nv; i++)
    if (!isfinite(d->cache.du[i]) || fabs(d->cache.du[i]) > 1e150) {
      char why[sizeof err->message];
      snprintf(why, sizeof why, "%s", err->message);
      return nsed_error_set(err, NSED_ERR_NONFINITE,
                            "t = %.17g: body '%s' acceleration d%s/dt = %g is not finite or "
                            "overflows (a force law out of range?); the integrator said: %s",
                            d->t, m->body[i / 6].def.name, state_names[7 + i % 6], d->cache.du[i], why);
    }
  stall_context(m, d, t_event, err);
  return err->status;
}

/* The integrate layer's settings from the model's options. */
static void integrator_settings(const nsed_options *o, nsedi_integrator_settings *s) {
  static const nsedi_ode_method method[] = {
      [NSED_INTEGRATOR_ARKODE_DP5] = NSEDI_ODE_DP5,
      [NSED_INTEGRATOR_ARKODE_VERNER] = NSEDI_ODE_VERNER,
      [NSED_INTEGRATOR_CVODE_ADAMS] = NSEDI_ODE_ADAMS,
      [NSED_INTEGRATOR_CVODE_BDF] = NSEDI_ODE_BDF};
  s->method = method[o->integrator];
  s->step_rule = o->step_controller == NSED_STEP_CONTROLLER_PI ? NSEDI_STEP_PI : NSEDI_STEP_PI_GUSTAFSSON;
  s->rtol = o->rtol;
  s->atol = o->atol;
  s->max_step = o->max_step;
}

/* The integrator's step record, passed on to the run's observer with the
 * events so far. A failing callback cannot stop ERKStep cleanly from
 * inside its step, so the loop stops the run when the integrator returns. */
static void step_logged(const nsedi_step_record *r, void *ud) {
  nsed_data *d = ud;
  const nsed_observer *obs = d->step_obs;
  if (!obs || !obs->step || d->step_obs_failed) return;
  nsed_step_info s = {.t = r->t, .h = r->h, .rejected = r->rejected, .rhs = r->rhs, .error = r->error,
                      .limit = r->limit, .limit_share = r->limit_share, .events = d->stats.events, .first = r->first};
  if (obs->step(obs->ctx, d->m, d, &s)) d->step_obs_failed = 1;
}

int nsed_simulate(const nsed_model *m, nsed_data *d, const nsed_observer *obs, nsed_error *err) {
  const nsed_options *o = &m->opt;
  double w0 = wall_now(), last_progress = w0, wall_before = d->stats.wall_seconds;
  uint64_t tick0 = tick_now();
  memset(&d->ticks, 0, sizeof d->ticks);
  nsed_error_clear(err);
  nsed_error_clear(&d->rhs_err);
  d->step_check.failed = 0;
  int rc = NSED_OK;
  d->cache.key_valid = 0; /* no evaluation of an earlier call is reused */
  if (obs && obs->step && o->integrator != NSED_INTEGRATOR_ARKODE_DP5 &&
      o->integrator != NSED_INTEGRATOR_ARKODE_VERNER)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "a step log needs an ARKODE integrator (arkode_dp5 or arkode_verner), not "
                          "%s: CVODE has no hook after each step",
                          nsed_integrator_name(o->integrator));
  int nroot = nsedi_nroot(m);
  int *fired = calloc((size_t)nroot, sizeof *fired);
  if (!fired) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  if (!d->integ) {
    rc = nsed_data_check_initial_state(m, d, NULL, err);
    if (rc) goto done;
    rc = nsedi_project_velocities(m, d, err);
    if (rc) goto done;
    nsedi_kin_eval(m, d->x, d->cache.kin);
    d->stats.energy_initial = nsed_data_energy(m, d);
    rc = nsedi_resolve(m, d, NULL, obs, err);
    if (rc) goto done;
    nsedi_track_reanchor(m, d);
    nsedi_integrator_settings is;
    integrator_settings(o, &is);
    d->step_check.valid = 0;
    rc = nsedi_integrator_create(&is, m->nstate + NSEDI_NWORK, NSEDI_NWORK, nroot, rhs_cb, root_cb,
                                 d, d->t, d->x, &d->integ, err);
    if (rc) goto done;
    rc = sample(m, d, obs, NSED_SAMPLE_INITIAL, err);
    if (rc) goto done;
  }
  d->step_obs = obs;
  d->step_obs_failed = 0;
  rc = nsedi_integrator_set_step_log(d->integ, obs && obs->step ? step_logged : NULL, d, err);
  if (rc) goto done;
  long k_out = (long)floor(d->t / o->output_dt + 1e-9) + 1;
  double t_event = d->t; /* of the last event (or the start): a stall's context */
  while (d->t < o->t_end) {
    /* A breakpoint of a piecewise law is a stop time, so no step straddles
     * the kink (a root of t - t_b would be located on a step across it). */
    double stop = fmin(o->t_end, d->t_next_breakpoint);
    double next_out = fmin(k_out * o->output_dt, stop);
    nsedi_step_result res;
    double t, t_from = d->t;
    rc = nsedi_integrator_advance(d->integ, next_out, stop, d->x, &t, &res, err);
    if (d->step_obs_failed) {
      d->t = t;
      rc = nsed_error_set(err, NSED_ERR_IO, "t = %.17g: the step log's callback failed", t);
      goto done;
    }
    if (rc) {
      d->t = t;
      if (d->step_check.failed) {
        d->t = d->step_check.t_failed;
        memcpy(d->x, d->step_check.x, sizeof(double) * (size_t)(m->nstate + NSEDI_NWORK));
      }
      rc = integrator_error(m, d, t_event, err);
      goto done;
    }
    d->t = t;
    int at_breakpoint = res == NSEDI_STEP_TOUT && t >= d->t_next_breakpoint;
    if (at_breakpoint) {
      d->t = d->t_next_breakpoint;
      memset(fired, 0, sizeof *fired * (size_t)nroot);
      fired[NSEDI_ROOTS_PER_CONTACT * m->ncontact] = -1; /* the time indicator */
    }
    int at_event = res == NSEDI_STEP_ROOT || at_breakpoint, at_kink = 0;
    uint64_t we = at_event ? tick_now() : 0;
    if (at_event && !at_breakpoint) {
      nsedi_integrator_roots(d->integ, fired);
      rc = nsedi_land_on_event(m, d, fired, t_from, err);
      if (rc) goto done;
      rc = nsedi_locate_missed_stops(m, d, fired, t_from, err);
      if (rc) goto done;
      /* A kink of a contact law's force changes no mode, nor does a
       * lift-off's gap rising clear of its margin: the phase goes on,
       * restarted there (law_kinks.c, liftoff_margin.c). */
      at_kink = nsedi_only_kink_roots(m, d, fired, nroot);
    }
    if (at_kink) {
      rc = nsedi_cross_kinks(m, d, fired, err);
      d->ticks.events += tick_now() - we;
      if (rc) goto done;
      d->step_check.valid = 0;
      rc = nsedi_integrator_reinit(d->integ, d->t, d->x, err);
      if (rc) goto done;
    } else if (at_event) {
      rc = sample(m, d, obs, NSED_SAMPLE_PRE_EVENT, err);
      if (rc) goto done;
      rc = nsedi_resolve(m, d, fired, obs, err);
      d->ticks.events += tick_now() - we;
      t_event = d->t;
      if (rc) goto done;
      nsedi_track_reanchor(m, d);
      rc = sample(m, d, obs, NSED_SAMPLE_EVENT, err);
      if (rc) goto done;
      d->step_check.valid = 0;
      rc = nsedi_integrator_reinit(d->integ, d->t, d->x, err);
      if (rc) goto done;
      /* A breakpoint on an output instant (a piecewise law's knot at
       * t = 0.05 with dt = 0.01) is that sample too: the next one is later. */
      while (k_out * o->output_dt <= d->t + 1e-12 * fmax(1.0, d->t)) k_out++;
    } else {
      d->stats.samples_interpolated += nsedi_integrator_sample_interpolated(d->integ);
      int final = d->t >= o->t_end;
      rc = sample(m, d, obs, final ? NSED_SAMPLE_FINAL : NSED_SAMPLE_OUTPUT, err);
      if (rc) goto done;
      if (d->t >= k_out * o->output_dt - 1e-12 * fmax(1.0, d->t)) k_out++;
    }
    if (obs && obs->interrupt && *obs->interrupt) {
      rc = nsed_error_set(err, NSED_ERR_INTERRUPTED, "interrupted at t = %.17g", d->t);
      goto done;
    }
    double now = wall_now();
    if (obs && obs->progress && now - last_progress > 0.1) {
      last_progress = now;
      obs->progress(obs->ctx, d->t, o->t_end, d->stats.events, now - w0);
    }
  }
done:
  d->step_obs = NULL;
  if (d->integ) nsedi_integrator_set_step_log(d->integ, NULL, NULL, NULL);
  if (rc < 0 && rc != NSED_ERR_INTERRUPTED && rc != NSED_ERR_IO && obs && obs->event) {
    /* The event log ends with the failure, so a reader of events.csv alone
     * sees that the run stopped and why (the message is in the summary). */
    nsed_event ev = {.t = d->t, .kind = NSED_EVENT_FAILURE, .contact = d->failure_contact,
                     .from = NSED_MODE_OPEN,
                     .to = NSED_MODE_OPEN, .path = nsed_status_name(rc)};
    d->stats.events_by_kind[NSED_EVENT_FAILURE]++;
    obs->event(obs->ctx, m, d, &ev);
  }
  update_counts(d);
  double wall = wall_now() - w0;
  uint64_t ticks = tick_now() - tick0;
  double per_tick = ticks > 0 ? wall / (double)ticks : 0.0;
  d->stats.wall_rhs += per_tick * (double)d->ticks.rhs;
  d->stats.wall_roots += per_tick * (double)d->ticks.roots;
  d->stats.wall_monitor += per_tick * (double)d->ticks.monitor;
  d->stats.wall_events += per_tick * (double)d->ticks.events;
  d->stats.wall_seconds = wall_before + wall;
  free(fired);
  return rc;
}
