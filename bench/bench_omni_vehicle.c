/* Kosenko's omni vehicle (problems/omni_vehicle_coast.yaml, coasting) at
 * solver.rtol = 1e-10, atol = 1e-12: the cost of the 16-body vehicle (3
 * wheels x 4 rollers) and how it scales with the number of bodies.
 *
 *   bench_omni_vehicle ROOT [T_END [REPEATS [T_SCALE [BUDGET]]]]
 *
 * ROOT the source root; T_END the base case's end time (default 10);
 * REPEATS runs of each case, the fastest reported (default 1); T_SCALE the
 * end time of the scaling cases (default min(T_END, 1); the n = 16 case runs
 * to T_SCALE / 2 and n = 32 to T_SCALE / 4, the spans the figures in the
 * docs were measured over); BUDGET the wall time (s) one scaling case may take before it is
 * stopped and reported as a time-out (default 300; the base case gets
 * max(BUDGET, 20 T_END REPEATS + 60)). A case whose simulated time advances
 * by less than 1e-6 of its end time in STALL_WALL (60) s of wall time is
 * stopped and reported as stalled (an event cascade: see the N_w = 6 case).
 *
 * Reported per case: wall time per simulated second and the real-time
 * factor (simulated time units per wall second; the problem is in Kosenko's
 * non-dimensional units, time unit sqrt(R/g)), CPU time (the machine may be
 * shared: wall >= CPU), handovers and wall time per handover, RHS
 * evaluations, and the shares of the wall time spent in right-hand sides,
 * indicator functions (roots), event resolution, and the rest (the
 * integrator's own work, output samples, start-up).
 *
 * Handovers are counted from the event log: a wheel's contact passes to
 * another roller when a roller contact closes (a CLOSE or IMPACT event whose
 * new mode is not open) and that roller is not the last one of its wheel to
 * have touched. A closing of the same roller again (after it lifted off) is
 * a re-contact, not a handover. This is what counts the roller changes: the
 * raw CLOSE + IMPACT count also includes the re-contacts and the CLOSE
 * events at which the event problem kept the contact open (a grazing touch
 * that becomes an impact a few microseconds later), and OPEN counts
 * lift-offs as well as handovers.
 *
 * Scaling: n = 4, 8, 16, 32 rollers a wheel on 3 wheels (the file's d = 2;
 * 16 to 100 bodies), and
 * N_w = 3, 4, 6 wheels of 4 rollers at d = 3 (6 wheels need d > 2), all over
 * T_SCALE (n = 16 over half of it, n = 32 over a quarter). The wheel
 * series is sprung (suspension stiffness 1000, a strut more per wheel)
 * throughout: a rigid platform on four or more wheels is
 * statically indeterminate and the loader refuses it. The exponent p of wall per simulated second ~ bodies^p is fitted
 * by least squares on logs over the cases of a series that reached their end
 * time; likewise the cost of one RHS evaluation. The 100-body vehicle runs
 * once more with its rollers as rotor bodies on revolute axles
 * (roller_frame: rotor), for the ratio to the attached rollers (the
 * default; docs/engine.md, "Attached rotors").
 *
 * Every case runs in a child process (fork), so a case that fails, crashes
 * or does not finish within its budget is reported (status, message, time
 * reached) and the others still run. Exit status: non-zero only if the base
 * case fails. Set OPENBLAS_NUM_THREADS=1 (the dense solves are small). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nsed/nsed.h"

#define MAX_WHEELS 64
#define MAX_OV 8
#define STALL_WALL 60.0 /* s of wall time without progress that stop a case */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* What a child reports, in memory shared with the parent. */
typedef struct {
  int started, done;    /* the child got as far as simulating / finished */
  int status;           /* nsed status of the (last) run */
  char message[1024];
  int bodies, states, contacts;
  double t_end, t_reached;
  double wall, cpu;     /* of the fastest run (s) */
  double wall_rhs, wall_roots, wall_events, wall_monitor;
  long rhs, roots, steps, rejected, events, by_kind[8];
  long handovers, recontacts;
  /* progress of the current run, for a case stopped on its budget */
  double progress_t, progress_wall;
  long progress_events;
} result;

typedef struct {
  const char *label;
  int series; /* 0 base, 1 rollers, 2 wheels, 3 the 100-body vehicle on axles (no fit) */
  char ov[MAX_OV][96];
  int nov;
  double t_end, budget;
  result r;
  const char *state; /* "ok", "failed", "time-out", "stalled", "crashed" */
  char why[1100];
} bench_case;

/* Handover bookkeeping (child side). */
typedef struct {
  const nsed_model *m;
  result *r;
  int ncontact;
  int *wheel, *roller; /* per contact, -1 if not a vehicle roller contact */
  int last[MAX_WHEELS];
  int ready;
  long handovers, recontacts;
} counter;

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  counter *c = ctx;
  if (why != NSED_SAMPLE_INITIAL || c->ready) return 0;
  for (int i = 0; i < c->ncontact; i++) {
    if (c->wheel[i] < 0) continue;
    nsed_contact_info ci;
    nsed_data_contact(d, i, &ci);
    if (ci.mode != NSED_MODE_OPEN) c->last[c->wheel[i]] = c->roller[i];
  }
  c->ready = 1;
  (void)m;
  return 0;
}

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  counter *c = ctx;
  (void)m;
  (void)d;
  /* Events of the initial resolve (t = 0, before the first sample) decide
   * the starting modes: not handovers. */
  if (!c->ready || ev->contact < 0 || ev->contact >= c->ncontact) return 0;
  if (ev->kind != NSED_EVENT_CLOSE && ev->kind != NSED_EVENT_IMPACT && ev->kind != NSED_EVENT_ZENO)
    return 0;
  if (ev->to == NSED_MODE_OPEN) return 0;
  int w = c->wheel[ev->contact], k = c->roller[ev->contact];
  if (w < 0) return 0;
  if (c->last[w] == k) {
    c->recontacts++;
  } else {
    c->handovers++;
    c->last[w] = k;
  }
  return 0;
}

static void on_progress(void *ctx, double t, double t_end, long events, double wall) {
  counter *c = ctx;
  (void)t_end;
  c->r->progress_t = t;
  c->r->progress_events = events;
  c->r->progress_wall = wall;
}

static void record(result *r, const nsed_data *d, double cpu, const counter *c) {
  const nsed_stats *st = nsed_data_stats(d);
  r->t_reached = nsed_data_time(d);
  r->wall = st->wall_seconds;
  r->cpu = cpu;
  r->wall_rhs = st->wall_rhs;
  r->wall_roots = st->wall_roots;
  r->wall_events = st->wall_events;
  r->wall_monitor = st->wall_monitor;
  r->rhs = st->rhs_evals;
  r->roots = st->root_evals;
  r->steps = st->steps;
  r->rejected = st->error_test_failures;
  r->events = st->events;
  memcpy(r->by_kind, st->events_by_kind, sizeof r->by_kind);
  r->handovers = c->handovers;
  r->recontacts = c->recontacts;
}

/* The child: load, run `repeats` times, keep the fastest. */
static void child_run(const char *path, const bench_case *bc, int repeats, result *r) {
  const char *ov[MAX_OV + 3];
  char tset[64];
  int nov = 0;
  ov[nov++] = "solver.rtol=1e-10";
  ov[nov++] = "solver.atol=1e-12";
  snprintf(tset, sizeof tset, "solver.t_end=%.17g", bc->t_end);
  ov[nov++] = tset;
  for (int i = 0; i < bc->nov; i++) ov[nov++] = bc->ov[i];
  nsed_model *m = NULL;
  nsed_error err;
  nsed_error_clear(&err);
  r->status = nsed_problem_load(path, ov, nov, &m, &err);
  if (r->status != NSED_OK) {
    snprintf(r->message, sizeof r->message, "%s", err.message);
    return;
  }
  r->bodies = nsed_model_nbody(m);
  r->states = nsed_model_nstate(m);
  r->contacts = nsed_model_ncontact(m);
  r->t_end = nsed_model_options(m)->t_end;
  counter c = {.m = m, .r = r, .ncontact = r->contacts};
  c.wheel = malloc(sizeof *c.wheel * (size_t)(c.ncontact + 1));
  c.roller = malloc(sizeof *c.roller * (size_t)(c.ncontact + 1));
  if (!c.wheel || !c.roller) {
    r->status = NSED_ERR_NOMEM;
    snprintf(r->message, sizeof r->message, "out of memory");
    free(c.wheel);
    free(c.roller);
    nsed_model_free(&m);
    return;
  }
  for (int i = 0; i < c.ncontact; i++) {
    int w, k, len = 0;
    const char *name = nsed_model_contact_name(m, i);
    c.wheel[i] = c.roller[i] = -1;
    if (sscanf(name, "wheel%d_roller%d_floor%n", &w, &k, &len) == 2 && name[len] == '\0' && w >= 0 &&
        w < MAX_WHEELS) {
      c.wheel[i] = w;
      c.roller[i] = k;
    }
  }
  nsed_observer obs = {.ctx = &c, .sample = on_sample, .event = on_event, .progress = on_progress};
  r->started = 1;
  double best = INFINITY;
  for (int rep = 0; rep < repeats; rep++) {
    nsed_data *d = NULL;
    c.ready = 0;
    c.handovers = c.recontacts = 0;
    for (int w = 0; w < MAX_WHEELS; w++) c.last[w] = -1;
    int rc = nsed_data_create(m, &d, &err);
    double c0 = cpu_now();
    if (rc == NSED_OK) rc = nsed_simulate(m, d, &obs, &err);
    double cpu = cpu_now() - c0;
    if (rc != NSED_OK) {
      /* Keep what the failed run did up to its failure (shown, not fitted). */
      r->status = rc;
      snprintf(r->message, sizeof r->message, "%s", err.message);
      if (d) record(r, d, cpu, &c);
      nsed_data_free(&d);
      break;
    }
    if (nsed_data_stats(d)->wall_seconds < best) {
      best = nsed_data_stats(d)->wall_seconds;
      r->status = NSED_OK;
      record(r, d, cpu, &c);
    }
    nsed_data_free(&d);
  }
  free(c.wheel);
  free(c.roller);
  nsed_model_free(&m);
}

/* Run one case in a child process with a wall-time budget. */
static void run_case(const char *path, bench_case *bc, int repeats) {
  result *r = mmap(NULL, sizeof *r, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (r == MAP_FAILED) {
    bc->state = "failed";
    snprintf(bc->why, sizeof bc->why, "mmap: %s", strerror(errno));
    return;
  }
  memset(r, 0, sizeof *r);
  r->status = NSED_ERR_INTERNAL;
  fflush(stdout);
  fflush(stderr);
  double w0 = now();
  pid_t pid = fork();
  if (pid < 0) {
    bc->state = "failed";
    snprintf(bc->why, sizeof bc->why, "fork: %s", strerror(errno));
    munmap(r, sizeof *r);
    return;
  }
  if (pid == 0) {
    child_run(path, bc, repeats, r);
    r->done = 1;
    _exit(0);
  }
  int wstatus = 0, timed_out = 0, stalled = 0;
  double check_wall = w0, check_t = 0;
  for (;;) {
    pid_t w = waitpid(pid, &wstatus, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    double wall = now();
    /* Stalled: simulated time (as last reported by the progress callback,
     * every 0.1 s of wall time from the event loop) hardly moved. */
    if (wall - check_wall > STALL_WALL) {
      double t = r->progress_t;
      if (r->started && t - check_t < 1e-6 * bc->t_end) stalled = 1;
      check_wall = wall;
      check_t = t;
    }
    if (stalled || wall - w0 > bc->budget) {
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      timed_out = !stalled;
      break;
    }
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
  }
  bc->r = *r;
  munmap(r, sizeof *r);
  if (timed_out) {
    bc->state = "time-out";
    snprintf(bc->why, sizeof bc->why,
             "stopped after %.0f s wall (budget), at t = %.6g of %g with %ld events",
             bc->budget, bc->r.progress_t, bc->t_end, bc->r.progress_events);
  } else if (stalled) {
    bc->state = "stalled";
    snprintf(bc->why, sizeof bc->why,
             "stopped after %.0f s wall: simulated time advanced by less than %g in the last "
             "%.0f s; at t = %.6g of %g with %ld events",
             now() - w0, 1e-6 * bc->t_end, STALL_WALL, bc->r.progress_t, bc->t_end,
             bc->r.progress_events);
  } else if (!bc->r.done) {
    bc->state = "crashed";
    if (WIFSIGNALED(wstatus))
      snprintf(bc->why, sizeof bc->why, "child killed by signal %d (%s)", WTERMSIG(wstatus),
               strsignal(WTERMSIG(wstatus)));
    else
      snprintf(bc->why, sizeof bc->why, "child exited with status %d",
               WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
  } else if (bc->r.status != NSED_OK) {
    bc->state = "failed";
    snprintf(bc->why, sizeof bc->why, "%s: %s", nsed_status_name(bc->r.status), bc->r.message);
    /* one line in the table */
    for (char *p = bc->why; *p; p++)
      if (*p == '\n' || *p == '|') *p = ' ';
  } else {
    bc->state = "ok";
    bc->why[0] = '\0';
  }
}

static int case_ok(const bench_case *bc) { return strcmp(bc->state, "ok") == 0; }

static double pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

/* Least squares slope of log(y) against log(x). NAN if fewer than 2 points. */
static double fit_exponent(const double *x, const double *y, int n) {
  if (n < 2) return NAN;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++) {
    double lx = log(x[i]), ly = log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  double den = n * sxx - sx * sx;
  return den > 0 ? (n * sxy - sx * sy) / den : NAN;
}

/* One table row. A case that failed shows its numbers up to the failure; a
 * case stopped by the parent (time-out, stalled) only the progress it
 * reported (time reached, wall time, events). */
static void print_row(const bench_case *bc) {
  const result *r = &bc->r;
  int failed_with_stats = strcmp(bc->state, "failed") == 0 && r->t_reached > 0 && r->wall > 0;
  if (!case_ok(bc) && !failed_with_stats) {
    if (r->progress_t > 0 && r->progress_wall > 0)
      printf("| %s | %d | %d | %.4g of %g | %s | %.1f | | %.3g (partial) | %.2g | | | | %ld | | | | | | | |\n",
             bc->label, r->bodies, r->states, r->progress_t, bc->t_end, bc->state, r->progress_wall,
             r->progress_wall / r->progress_t, r->progress_t / r->progress_wall, r->progress_events);
    else
      printf("| %s | %d | %d | 0 of %g | %s | | | | | | | | | | | | | | |\n", bc->label, r->bodies,
             r->states, bc->t_end, bc->state);
    return;
  }
  char status[64] = "ok", treached[64];
  snprintf(treached, sizeof treached, "%g", r->t_reached);
  if (failed_with_stats) {
    snprintf(status, sizeof status, "failed (%s)", nsed_status_name(r->status));
    snprintf(treached, sizeof treached, "%.4g of %g", r->t_reached, bc->t_end);
  }
  double per = r->wall / r->t_reached;
  double rest = r->wall - r->wall_rhs - r->wall_roots - r->wall_events;
  char per_ho[32] = "-";
  if (r->handovers > 0) snprintf(per_ho, sizeof per_ho, "%.1f", 1e3 * r->wall / (double)r->handovers);
  printf("| %s | %d | %d | %s | %s | %.2f | %.2f | %.3f%s | %.3g | %ld | %s | %ld | %ld | %ld | %.0f | %.1f | "
         "%.1f | %.1f | %.1f | %.1f |\n",
         bc->label, r->bodies, r->states, treached, status, r->wall, r->cpu, per, failed_with_stats ? " (partial)" : "", r->t_reached / r->wall,
         r->handovers, per_ho, r->by_kind[NSED_EVENT_IMPACT], r->events, r->rhs, r->rhs / r->t_reached,
         1e6 * r->wall_rhs / (double)(r->rhs > 0 ? r->rhs : 1), pct(r->wall_rhs, r->wall),
         pct(r->wall_roots, r->wall), pct(r->wall_events, r->wall), pct(rest, r->wall));
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  double t_end = argc > 2 ? atof(argv[2]) : 10.0;
  int repeats = argc > 3 ? atoi(argv[3]) : 1;
  double t_scale = argc > 4 ? atof(argv[4]) : fmin(t_end, 1.0);
  double budget = argc > 5 ? atof(argv[5]) : 300.0;
  if (!(t_end > 0)) t_end = 10.0;
  if (repeats < 1) repeats = 1;
  if (!(t_scale > 0)) t_scale = fmin(t_end, 1.0);
  if (!(budget > 0)) budget = 300.0;
  /* The base case: generous, it is the one that must pass. */
  double base_budget = fmax(budget, 20.0 * t_end * repeats + 60.0);
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/omni_vehicle_coast.yaml", root);
  const char *blas = getenv("OPENBLAS_NUM_THREADS");
  if (!blas || strcmp(blas, "1") != 0)
    fprintf(stderr, "bench_omni_vehicle: note: OPENBLAS_NUM_THREADS is not 1; timings may include "
                    "BLAS threading overhead\n");

  enum { NCASE = 9 };
  bench_case cases[NCASE];
  memset(cases, 0, sizeof cases);
  cases[0].label = "base: N_w=3, n=4, d=2";
  cases[0].series = 0;
  cases[0].t_end = t_end;
  cases[0].budget = base_budget;
  static const int rollers[4] = {4, 8, 16, 32}, wheels[3] = {3, 4, 6};
  static const char *const rlabel[4] = {"n=4 (N_w=3, d=2)", "n=8 (N_w=3, d=2)", "n=16 (N_w=3, d=2)",
                                        "n=32 (N_w=3, d=2)"};
  static const char *const wlabel[3] = {"N_w=3 (n=4, d=3, sprung)", "N_w=4 (n=4, d=3, sprung)",
                                        "N_w=6 (n=4, d=3, sprung)"};
  for (int i = 0; i < 3; i++) {
    bench_case *a = &cases[1 + i], *b = &cases[4 + i];
    a->label = rlabel[i];
    a->series = 1;
    snprintf(a->ov[a->nov++], sizeof a->ov[0], "omni_vehicle.rollers=%d", rollers[i]);
    b->label = wlabel[i];
    b->series = 2;
    snprintf(b->ov[b->nov++], sizeof b->ov[0], "omni_vehicle.wheels=%d", wheels[i]);
    snprintf(b->ov[b->nov++], sizeof b->ov[0], "omni_vehicle.wheel_distance=3");
    snprintf(b->ov[b->nov++], sizeof b->ov[0], "omni_vehicle.suspension={stiffness: 1000}");
    a->t_end = b->t_end = t_scale;
    if (rollers[i] >= 16) a->t_end = 0.5 * t_scale;
    a->budget = b->budget = budget;
  }
  /* 3 x 32 rollers, 100 bodies: the largest vehicle, a quarter of
   * T_SCALE. Its cost per simulated second depends on how many handovers
   * the span holds; T_SCALE 4 gives the figure over a whole unit, 16
   * handovers (docs/omni-vehicle.md, "Cost"). */
  bench_case *big = &cases[7];
  big->label = rlabel[3];
  big->series = 1;
  snprintf(big->ov[big->nov++], sizeof big->ov[0], "omni_vehicle.rollers=%d", rollers[3]);
  big->t_end = 0.25 * t_scale;
  big->budget = budget;
  /* The same vehicle with its rollers as rotor bodies on revolute axles, the
   * formulation before attached rotors: their ratio in one run. */
  bench_case *axles = &cases[8];
  *axles = *big;
  axles->label = "n=32 (N_w=3, d=2), rollers on axles";
  axles->series = 3;
  snprintf(axles->ov[axles->nov++], sizeof axles->ov[0], "omni_vehicle.roller_frame=rotor");

  printf("# omni vehicle, coasting (problems/omni_vehicle_coast.yaml), rtol 1e-10, atol 1e-12\n\n");
  printf("base case t_end %g, scaling cases t_end %g (n = 16: %g), best of %d run(s), budget %g s "
         "a scaling case\n\n",
         t_end, t_scale, 0.5 * t_scale, repeats, budget);
  for (int i = 0; i < NCASE; i++) {
    fprintf(stderr, "bench_omni_vehicle: running %s to t = %g ...\n", cases[i].label, cases[i].t_end);
    run_case(path, &cases[i], repeats);
    fprintf(stderr, "bench_omni_vehicle:   %s%s%s\n", cases[i].state, cases[i].why[0] ? ": " : "",
            cases[i].why);
  }

  printf("| case | bodies | states | t (sim) | status | wall s | CPU s | wall s / sim s | real-time factor | "
         "handovers | wall ms / handover | impacts | events | RHS evals | RHS / sim s | us / RHS | RHS %% | "
         "roots %% | events %% | rest %% |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < NCASE; i++) print_row(&cases[i]);
  printf("\n");
  int any_bad = 0;
  for (int i = 0; i < NCASE; i++)
    if (!case_ok(&cases[i])) {
      if (!any_bad) printf("Cases that did not complete:\n\n");
      any_bad = 1;
      printf("- %s: %s; %s\n", cases[i].label, cases[i].state, cases[i].why);
    }
  if (any_bad) printf("\n");

  const bench_case *b = &cases[0];
  if (case_ok(b)) {
    const result *r = &b->r;
    double rest = r->wall - r->wall_rhs - r->wall_roots - r->wall_events;
    char each[64] = "";
    if (r->handovers > 0)
      snprintf(each, sizeof each, " (%.1f ms wall each)", 1e3 * r->wall / (double)r->handovers);
    printf("Base case (%d bodies, %d states, t = %g): %.3f s wall per simulated second "
           "(real-time factor %.3f; CPU %.3f s per simulated second), %ld handovers%s, "
           "%ld re-contacts of the same roller, %ld impacts; events by kind:",
           r->bodies, r->states, r->t_reached, r->wall / r->t_reached, r->t_reached / r->wall,
           r->cpu / r->t_reached, r->handovers, each, r->recontacts, r->by_kind[NSED_EVENT_IMPACT]);
    if (r->events == 0) printf(" none");
    for (int k = 0; k < 8; k++)
      if (r->by_kind[k]) printf(" %s %ld", nsed_event_kind_name((nsed_event_kind)k), r->by_kind[k]);
    printf(". %ld RHS evaluations (%.0f per simulated second, %.1f us each), %ld steps (%ld "
           "rejected), %ld indicator evaluations. Wall time shares: RHS %.1f%%, roots %.1f%%, events %.1f%%, "
           "rest %.1f%%; of it the law monitor %.2f%% (goal < 2%%).\n\n",
           r->rhs, r->rhs / r->t_reached, 1e6 * r->wall_rhs / (double)(r->rhs > 0 ? r->rhs : 1), r->steps,
           r->rejected, r->roots, pct(r->wall_rhs, r->wall), pct(r->wall_roots, r->wall), pct(r->wall_events, r->wall),
           pct(rest, r->wall), pct(r->wall_monitor, r->wall));
  }

  static const char *const sname[3] = {"", "rollers n = 4, 8, 16, 32 (N_w = 3)",
                                       "wheels N_w = 3, 4, 6 (n = 4)"};
  for (int s = 1; s <= 2; s++) {
    double x[4], y[4], yr[4];
    int n = 0;
    for (int i = 0; i < NCASE; i++)
      if (cases[i].series == s && case_ok(&cases[i]) && cases[i].r.rhs > 0) {
        x[n] = cases[i].r.bodies;
        y[n] = cases[i].r.wall / cases[i].r.t_reached;
        yr[n] = cases[i].r.wall_rhs / (double)cases[i].r.rhs;
        n++;
      }
    double p = fit_exponent(x, y, n), pr = fit_exponent(x, yr, n);
    if (n >= 2)
      printf("Scaling, %s: wall per simulated second ~ bodies^%.2f, cost of one RHS evaluation ~ "
             "bodies^%.2f (least squares on logs over %d completed case%s).\n",
             sname[s], p, pr, n, n == 1 ? "" : "s");
    else
      printf("Scaling, %s: no exponent (only %d case%s completed).\n", sname[s], n, n == 1 ? "" : "s");
    if (s == 1 && n >= 2) {
      /* the figures issue #18 names, over the roller series (16 to 100 bodies) */
      printf("rhs cost exponent: %.2f (goal <= 1.2)\n", pr);
      printf("run cost exponent: %.2f (goal <= 1.5)\n", p);
    }
  }
  if (case_ok(big))
    printf("100-body vehicle (3 wheels x 32 rollers): real-time factor %.4g (goal > 1 at rtol 1e-10)\n",
           big->r.t_reached / big->r.wall);
  else
    printf("100-body vehicle (3 wheels x 32 rollers): %s (%s)\n", big->state, big->why);
  if (case_ok(big) && case_ok(axles))
    printf("100-body vehicle, rollers on revolute axles against attached: %.3g times the wall "
           "time per simulated second, %.3g times the cost of one RHS evaluation\n",
           (axles->r.wall / axles->r.t_reached) / (big->r.wall / big->r.t_reached),
           (axles->r.wall_rhs / (double)axles->r.rhs) / (big->r.wall_rhs / (double)big->r.rhs));
  return case_ok(b) ? 0 : 1;
}
