/* The step log (nsed_observer.step; docs/engine.md, "The step log"):
 *  - on y' = L y (L diagonal) the Dormand-Prince error estimate of a step of
 *    size h from y_n is (R(hL) - R^(hL)) y_n, R and R^ the stability
 *    polynomials of the fifth- and fourth-order solutions, computed here
 *    from the method's coefficients as published (Dormand and Prince 1980;
 *    tests/reference/dp45_tableau.h, which the references' integrators use):
 *    each record's error norm, limiting state and share must be those, and
 *    the states the records imply must be the integrator's, across a
 *    reinitialisation;
 *  - on Van der Pol, whose steps are rejected at times, the records add up
 *    to the integrator's counters of steps, rejections and right-hand sides;
 *  - on Kosenko's coast, through nsed_simulate: one record per step, the
 *    rejections as summary.json counts them, each step starting where the
 *    one before ended or at an event, every state named;
 *  - a CVODE integrator is refused, and a failing callback stops the run. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "engine_util.h"
#include "integrator.h"
#include "nsed_test.h"
#include "reference/dp45_tableau.h"

/* The stages' growth factors k_i / (lambda y_n) for z = h lambda. */
static void dp_stages(double z, double g[7]) {
  for (int i = 0; i < 7; i++) {
    double s = 1;
    for (int j = 0; j < i; j++) s += z * DP45_A[i][j] * g[j];
    g[i] = s;
  }
}

/* R(z) - 1 and R(z) - R^(z), both as z sum(w_i g_i): the weights b are
 * the last row of A (first same as last), b - b^ are DP45_E. */
static void dp_step(double z, double *growth, double *error) {
  double g[7], sb = 0, se = 0;
  dp_stages(z, g);
  for (int i = 0; i < 7; i++) {
    sb += (i < 6 ? DP45_A[6][i] : 0) * g[i];
    se += DP45_E[i] * g[i];
  }
  *growth = z * sb;
  *error = z * se;
}

enum { NLIN = 3 };
static const double lin_rate[NLIN] = {-1.0, -30.0, -0.2};
static const double lin_y0[NLIN] = {1.0, 1e-2, -3.0};
static const double lin_rtol = 1e-8, lin_atol = 1e-12;

static int lin_rhs(double t, const double *y, double *yd, void *ud) {
  (void)t, (void)ud;
  for (int i = 0; i < NLIN; i++) yd[i] = lin_rate[i] * y[i];
  return 0;
}

typedef struct {
  double y[NLIN];     /* the state the records imply, at the last record's end */
  double worst_error; /* largest difference of a record's norm from the closed form, in units
                         of 1e-9 of it plus the rounding of its sum */
  double worst_share;
  int wrong_limit, records, compared, limits[NLIN];
} lin_check;

/* ERKStep sums the error from the stages in floating point, where the
 * weights' sum is zero: a rounding of a few eps |k_i| h per component,
 * which dominates the estimate of the smallest steps (a step cut short by
 * a stop time). The comparisons allow for it. */
static void lin_record(const nsedi_step_record *r, void *ud) {
  lin_check *c = ud;
  double sq[NLIN], sum = 0, largest = 0, second = 0, rounding = 0;
  int limit = -1;
  for (int i = 0; i < NLIN; i++) {
    double growth, error, w = 1.0 / (lin_rtol * fabs(c->y[i]) + lin_atol);
    dp_step(r->h * lin_rate[i], &growth, &error);
    sq[i] = error * c->y[i] * w * error * c->y[i] * w;
    double ri = 16 * DBL_EPSILON * fabs(r->h * lin_rate[i] * c->y[i]) * w;
    rounding += ri * ri;
    sum += sq[i];
    if (sq[i] > largest) second = largest, largest = sq[i], limit = i;
    else if (sq[i] > second) second = sq[i];
    c->y[i] += growth * c->y[i];
  }
  double norm = sqrt(sum / NLIN), floor = sqrt(rounding / NLIN);
  c->worst_error = fmax(c->worst_error, fabs(r->error - norm) / (1e-9 * norm + floor));
  if (norm > 1e3 * floor) {
    c->worst_share = fmax(c->worst_share, fabs(r->limit_share - largest / sum));
    c->wrong_limit += r->limit != limit && largest > 1.01 * second;
    c->compared++;
  }
  if (limit >= 0) c->limits[limit]++;
  c->records++;
}

static void linear_closed_form(void) {
  nsedi_integrator_settings s = {.method = NSEDI_ODE_DP5, .step_rule = NSEDI_STEP_PI_GUSTAFSSON,
                                 .rtol = lin_rtol, .atol = lin_atol};
  nsedi_integrator *it = NULL;
  nsed_error err;
  lin_check c = {0};
  double y[NLIN], t = 0;
  memcpy(y, lin_y0, sizeof y);
  memcpy(c.y, lin_y0, sizeof y);
  CHECK(nsedi_integrator_create(&s, NLIN, 0, 0, lin_rhs, NULL, NULL, 0.0, y, &it, &err) == NSED_OK);
  CHECK(nsedi_integrator_set_step_log(it, lin_record, &c, &err) == NSED_OK);
  nsedi_step_result res;
  /* To the stop time 1 (the last step ends there), reinitialised, on to 4. */
  CHECK(nsedi_integrator_advance(it, 1.0, 1.0, y, &t, &res, &err) == NSED_OK && t == 1.0);
  double gap = 0;
  for (int i = 0; i < NLIN; i++) gap = fmax(gap, fabs(y[i] - c.y[i]) / (lin_rtol * fabs(y[i]) + lin_atol));
  CHECK(nsedi_integrator_reinit(it, t, y, &err) == NSED_OK);
  CHECK(nsedi_integrator_advance(it, 4.0, 4.0, y, &t, &res, &err) == NSED_OK && t == 4.0);
  for (int i = 0; i < NLIN; i++) gap = fmax(gap, fabs(y[i] - c.y[i]) / (lin_rtol * fabs(y[i]) + lin_atol));
  printf("y' = L y: %d steps; error norms within %.2f of the closed form (in units of 1e-9 of it "
         "plus its sum's rounding); of the %d steps whose estimate is above that rounding, shares within "
         "%.1e, %d limits differ; limited by y0 %d, y1 %d, y2 %d times; the records' states within "
         "%.1e of the integrator's (in units of the tolerance)\n",
         c.records, c.worst_error, c.compared, c.worst_share, c.wrong_limit, c.limits[0], c.limits[1],
         c.limits[2], gap);
  CHECK(c.records > 20 && c.compared > c.records / 2);
  CHECK(c.worst_error < 1);
  CHECK(c.worst_share < 1e-6);
  CHECK(c.wrong_limit == 0);
  /* The fast component limits the first steps, the others later. */
  CHECK(c.limits[1] > 0 && c.limits[0] + c.limits[2] > 0);
  CHECK(gap < 1e-6);
  nsedi_integrator_free(&it);
}

typedef struct {
  long records, rejected, rhs, left; /* left: right-hand sides after a phase's last record */
  double worst_error, last_t;
  int bad_limit, bad_h, firsts;
} sums;

static void add_record(const nsedi_step_record *r, void *ud) {
  sums *s = ud;
  s->records++;
  s->rejected += r->rejected;
  s->rhs += r->rhs;
  s->worst_error = fmax(s->worst_error, r->error);
  s->bad_limit += r->limit < 0 || r->limit > 1 || !(r->limit_share > 0 && r->limit_share <= 1);
  s->bad_h += !(r->h > 0) || fabs(r->t - r->h - s->last_t) > 1e-13 * fmax(1, fabs(r->t));
  s->firsts += r->first;
  s->last_t = r->t;
}

static void counters_add_up(void) {
  nsedi_integrator_settings s = {.method = NSEDI_ODE_DP5, .step_rule = NSEDI_STEP_PI, .rtol = 1e-9,
                                 .atol = 1e-12};
  nsedi_integrator *it = NULL;
  nsed_error err;
  sums sum = {0};
  double y[2] = {2, 0}, t = 0;
  CHECK(nsedi_integrator_create(&s, 2, 0, 1, vdp5_rhs, vdp5_root, NULL, 0.0, y, &it, &err) == NSED_OK);
  CHECK(nsedi_integrator_set_step_log(it, add_record, &sum, &err) == NSED_OK);
  nsedi_step_result res = NSEDI_STEP_TOUT;
  int roots = 0;
  long after_last = 0; /* right-hand sides after a phase's last record: its dense output's */
  do {
    CHECK(nsedi_integrator_advance(it, 30.0, 30.0, y, &t, &res, &err) == NSED_OK);
    long c[NSEDI_NCOUNT];
    nsedi_integrator_counts(it, c);
    long left = c[NSEDI_COUNT_RHS] - sum.rhs - sum.left;
    after_last = left > after_last ? left : after_last;
    if (res == NSEDI_STEP_ROOT) {
      roots++;
      sum.left += left; /* the restart leaves them in no record */
      CHECK(nsedi_integrator_reinit(it, t, y, &err) == NSED_OK);
      sum.last_t = t; /* the next step starts at the root */
    }
  } while (res == NSEDI_STEP_ROOT);
  long c[NSEDI_NCOUNT];
  nsedi_integrator_counts(it, c);
  printf("Van der Pol to t = 30 (%d roots, each a restart): %ld records of %ld steps (%d first after a "
         "restart), %ld of %ld rejections, %ld of %ld right-hand sides (at most %ld after a phase's last "
         "step); largest error norm %.3f\n",
         roots, sum.records, c[NSEDI_COUNT_STEPS], sum.firsts, sum.rejected, c[NSEDI_COUNT_ERR_FAILS],
         sum.rhs, c[NSEDI_COUNT_RHS], after_last, sum.worst_error);
  CHECK(roots >= 3 && sum.firsts == roots + 1);
  CHECK(c[NSEDI_COUNT_ERR_FAILS] > 10);
  CHECK(sum.records == c[NSEDI_COUNT_STEPS]);
  CHECK(sum.rejected == c[NSEDI_COUNT_ERR_FAILS]);
  /* Every evaluation is in a record but the dense output's after a phase's
   * last step (the degree-5 interpolant's two, for each of a few roots). */
  CHECK(sum.rhs <= c[NSEDI_COUNT_RHS] && after_last <= 16);
  CHECK(sum.worst_error <= 1.0 && sum.worst_error > 0.1);
  CHECK(sum.bad_limit == 0 && sum.bad_h == 0);
  /* Off: no more records. */
  CHECK(nsedi_integrator_set_step_log(it, NULL, NULL, &err) == NSED_OK);
  CHECK(nsedi_integrator_reinit(it, t, y, &err) == NSED_OK);
  CHECK(nsedi_integrator_advance(it, 40.0, 40.0, y, &t, &res, &err) == NSED_OK);
  CHECK(sum.records == c[NSEDI_COUNT_STEPS]);
  nsedi_integrator_free(&it);
}

typedef struct {
  long records, rejected, rhs, events_seen;
  double last_t, last_event_t, worst_error;
  int bad_start, bad_limit, fail_after, firsts, after_event;
  recorder rec;
} sim_sums;

static int sim_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  sim_sums *s = ctx;
  s->last_event_t = e->t;
  return rec_event(&s->rec, m, d, e);
}

static int sim_step(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_step_info *r) {
  (void)d;
  sim_sums *s = ctx;
  char name[128];
  double start = r->t - r->h, tol = 1e-12 * fmax(1, r->t);
  /* A step goes on from the one before, or restarts at or after the last
   * event and no later than the step before ended. */
  if (r->first) {
    s->firsts++;
    s->bad_start += start > s->last_t + tol || start < s->last_event_t - tol;
    s->after_event += r->events > s->events_seen && fabs(start - s->last_event_t) <= tol;
  } else {
    s->bad_start += fabs(start - s->last_t) > tol || r->events != s->events_seen;
  }
  s->bad_limit += nsed_state_name(m, r->limit, name, sizeof name) != NSED_OK || !(r->limit_share > 0);
  s->worst_error = fmax(s->worst_error, r->error);
  s->events_seen = r->events;
  s->last_t = r->t;
  s->records++;
  s->rejected += r->rejected;
  s->rhs += r->rhs;
  return s->fail_after > 0 && s->records >= s->fail_after;
}

static void through_simulate(const char *root) {
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/omni_vehicle_coast.yaml", root);
  const char *sets[] = {"solver.t_end=2"};
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  must(nsed_problem_load(path, sets, 1, &m, &err), &err);
  must(nsed_data_create(m, &d, &err), &err);
  static sim_sums s;
  memset(&s, 0, sizeof s);
  nsed_observer obs = {.ctx = &s, .event = sim_event, .step = sim_step};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s", rc ? err.message : "");
  const nsed_stats *st = nsed_data_stats(d);
  printf("Kosenko's coast to t = 2: %ld records, %ld steps; %ld and %ld rejected; %ld right-hand "
         "sides asked for (%ld evaluated, %ld reused); %ld events; largest error norm %.3f\n",
         s.records, st->steps, s.rejected, st->error_test_failures, s.rhs, st->rhs_evals, st->rhs_reused,
         st->events, s.worst_error);
  CHECK(st->events > 3);
  CHECK(s.records == st->steps);
  CHECK(s.rejected == st->error_test_failures);
  /* Six new stages a step (the seventh is the next step's first); the
   * event step's and the landings' own evaluations are not the integrator's. */
  CHECK(s.rhs >= 6 * s.records && s.rhs <= st->rhs_evals + st->rhs_reused);
  printf("  %d steps after a restart, %d of them at an event\n", s.firsts, s.after_event);
  CHECK(s.bad_start == 0 && s.bad_limit == 0);
  CHECK(s.firsts > s.after_event && s.after_event > st->events / 2);
  CHECK(s.worst_error <= 1.0);

  /* Every state has one name. */
  int n = nsed_model_nstate(m) + 3, rotors = 0, spins = 0, dup = 0;
  char (*names)[128] = calloc((size_t)n, sizeof *names);
  CHECK(names != NULL);
  for (int i = 0; i < n; i++) {
    CHECK(nsed_state_name(m, i, names[i], sizeof names[i]) == NSED_OK);
    spins += strstr(names[i], ".spin") != NULL;
    for (int j = 0; j < i; j++) dup += !strcmp(names[i], names[j]);
  }
  for (int b = 0; b < nsed_model_nbody(m); b++) rotors += nsed_model_body_def(m, b)->rotor != NSED_ROTOR_NONE;
  CHECK(!strcmp(names[0], "platform.x") && !strcmp(names[12], "platform.wz"));
  CHECK(!strcmp(names[n - 3], "work_external") && !strcmp(names[n - 1], "work_joints"));
  CHECK(spins == rotors && rotors > 0 && dup == 0);
  char buf[8] = "x";
  CHECK(nsed_state_name(m, n, buf, sizeof buf) == NSED_ERR_INPUT && buf[0] == '\0');
  CHECK(nsed_state_name(m, -1, buf, sizeof buf) == NSED_ERR_INPUT);
  free(names);
  nsed_data_free(&d);

  /* A failing callback stops the run. */
  must(nsed_data_create(m, &d, &err), &err);
  memset(&s, 0, sizeof s);
  s.fail_after = 50;
  rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_ERR_IO && strstr(err.message, "step log"), "%d %s", rc, err.message);
  CHECK(s.records == 50);
  nsed_data_free(&d);
  nsed_model_free(&m);

  /* CVODE has no step hook. */
  const char *cvode[] = {"solver.t_end=0.1", "solver.integrator=cvode_adams"};
  must(nsed_problem_load(path, cvode, 2, &m, &err), &err);
  must(nsed_data_create(m, &d, &err), &err);
  memset(&s, 0, sizeof s);
  rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_ERR_INPUT && strstr(err.message, "cvode_adams"), "%d %s", rc, err.message);
  CHECK(s.records == 0);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(int argc, char **argv) {
  linear_closed_form();
  counters_add_up();
  if (argc > 1) through_simulate(argv[1]);
  else CHECK_MSG(0, "usage: %s SOURCE_ROOT", argv[0]);
  return TEST_DONE();
}
