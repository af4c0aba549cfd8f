/* nsed sweep: run a grid or list of overrides of one problem file, one
 * result directory per point, a table of summary metrics (docs/sweeps.md).
 *
 * Parallel on three levels without linking MPI: POSIX threads inside a
 * process (one model and one data object per point in flight); processes
 * started by mpirun, which tells each its rank in the environment; tasks of a
 * Slurm job array (--shard). Every level splits the points the same way
 * (i % size == rank) and every row of the table is read back from the
 * point's summary.json, so any split gives the same table. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "nsed/io.h"
#include "sweep_run.h"

static const char usage[] =
    "usage: nsed sweep SWEEP.yaml -o DIR [--jobs N] [--shard K/N] [--quiet]\n"
    "\n"
    "Run every point of SWEEP.yaml (a grid or list of overrides of one problem\n"
    "file) into DIR/points/<index>/ (a result directory as `nsed run` writes)\n"
    "and tabulate the chosen summary.json metrics in DIR/sweep.csv, updated as\n"
    "points finish. Rerunning resumes: points with a result are not redone.\n"
    "Under mpirun each rank takes every size-th point and rank 0 writes the table.\n"
    "\n"
    "  -o, --output DIR  sweep directory (required)\n"
    "  -j, --jobs N      points run at once (default: the cores, shared by the\n"
    "                    ranks of a node under mpirun)\n"
    "      --shard K/N   run only points i with i % N == K and write no table\n"
    "                    (Slurm job arrays; a final run without --shard merges)\n"
    "  -q, --quiet       no line per point\n"
    "  -h, --help        this help\n"
    "\n"
    "Exit status: 0 every point ok, 1 some point failed or was interrupted,\n"
    "2 bad sweep file, bad point or usage (nothing is run), 3 the table could\n"
    "not be written.\n";

/* A signal handler can only reach static storage; the runs poll it. */
static volatile sig_atomic_t interrupted = 0;

static void on_signal(int sig) {
  (void)sig;
  interrupted = 1;
}

typedef struct {
  const char *sweep, *outdir;
  long jobs;
  int shard_k, shard_n; /* shard_n 0: no --shard */
  int quiet, help;
} sweep_args;

static int bad_usage(const char *msg, const char *arg) {
  fprintf(stderr, "nsed sweep: %s%s%s\n%.*s\n(nsed sweep --help for details)\n", msg,
          arg ? " " : "", arg ? arg : "", (int)strcspn(usage, "\n"), usage);
  return 2;
}

static int parse_long(const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

static int parse_args(int argc, char **argv, sweep_args *a) {
  memset(a, 0, sizeof *a);
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      a->help = 1;
    } else if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) {
      a->quiet = 1;
    } else if (!strcmp(s, "-o") || !strcmp(s, "--output")) {
      if (!val) return bad_usage("-o needs a directory", NULL);
      a->outdir = argv[++i];
    } else if (!strcmp(s, "-j") || !strcmp(s, "--jobs")) {
      if (!val || parse_long(val, 1, 4096, &a->jobs))
        return bad_usage("--jobs needs a number of points to run at once (1 to 4096), got",
                         val ? val : "nothing");
      i++;
    } else if (!strcmp(s, "--shard")) {
      long k, n;
      const char *slash = val ? strchr(val, '/') : NULL;
      char kbuf[32];
      if (!slash || (size_t)(slash - val) >= sizeof kbuf)
        return bad_usage("--shard expects K/N, got", val ? val : "nothing");
      snprintf(kbuf, sizeof kbuf, "%.*s", (int)(slash - val), val);
      if (parse_long(slash + 1, 1, 1000000, &n) || parse_long(kbuf, 0, n - 1, &k))
        return bad_usage("--shard expects K/N with 0 <= K < N, got", val);
      a->shard_k = (int)k;
      a->shard_n = (int)n;
      i++;
    } else if (s[0] == '-' && s[1]) {
      return bad_usage("unknown option", s);
    } else if (!a->sweep) {
      a->sweep = s;
    } else {
      return bad_usage("one sweep file at a time, got another:", s);
    }
  }
  if (a->help) return 0;
  if (!a->sweep) return bad_usage("no sweep file given", NULL);
  if (!a->outdir) return bad_usage("no output directory given (-o DIR)", NULL);
  return 0;
}

static long env_long(const char *name, long fallback) {
  const char *v = getenv(name);
  long x;
  return v && !parse_long(v, 0, 1000000000L, &x) ? x : fallback;
}

/* The rank and size mpirun gives through the environment (Open MPI, or the
 * PMI variables of MPICH's launcher); a plain run is rank 0 of 1. The token
 * identifies this launch, so rank 0 never takes an old run's done-marker for
 * a current one. */
static void mpi_env(int *rank, int *size, const char **token) {
  *rank = 0;
  *size = 1;
  *token = "";
  long r = env_long("OMPI_COMM_WORLD_RANK", -1), n = env_long("OMPI_COMM_WORLD_SIZE", -1);
  if (r < 0 || n < 1) {
    r = env_long("PMI_RANK", -1);
    n = env_long("PMI_SIZE", -1);
  }
  if (r < 0 || n < 1 || r >= n) return;
  *rank = (int)r;
  *size = (int)n;
  const char *t = getenv("PMIX_NAMESPACE");
  if (!t) t = getenv("OMPI_MCA_ess_base_jobid");
  if (!t) t = getenv("PMI_KVSNAME");
  if (t) *token = t;
}

/* Load every point's model before running any: a typo in one point's value
 * should cost seconds, not the hours of the points before it. */
static int check_points(const nsedi_sweep_run *r) {
  int bad = 0;
  for (int i = 0; i < r->spec.npoints; i++) {
    const nsed_sweep_point *p = &r->spec.points[i];
    nsed_model *m = NULL;
    nsed_error err;
    nsed_error_clear(&err);
    int rc = nsed_problem_load_string(r->problem_text, r->problem_len, r->spec.problem,
                                      (const char *const *)p->overrides, p->noverrides, &m, &err);
    nsed_model_free(&m);
    if (rc) {
      fprintf(stderr, "nsed sweep: point %d:\n%s\n", i, err.message);
      if (rc != NSED_ERR_INPUT) return 1;
      if (++bad >= 10) break; /* enough to see the pattern */
    }
  }
  return bad ? 2 : 0;
}

static int mkdir_p(const char *path) {
  if (mkdir(path, 0777) == 0 || errno == EEXIST) return 0;
  fprintf(stderr, "nsed sweep: cannot create %s: %s\n", path, strerror(errno));
  return -1;
}

/* A sweep killed mid-point leaves points/<i>.tmp-* (and, if killed while
 * replacing an interrupted result, <i>.old-*). Only this process's own
 * points are cleaned: another rank may be writing its own right now. */
static void clean_stale(const nsedi_sweep_run *r) {
  size_t n = strlen(r->outdir) + 16;
  char *dir = malloc(n);
  if (!dir) return;
  snprintf(dir, n, "%s/points", r->outdir);
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    char *end;
    long i = strtol(e->d_name, &end, 10);
    if (end == e->d_name || (strncmp(end, ".tmp-", 5) && strncmp(end, ".old-", 5))) continue;
    if (i < 0 || i >= r->spec.npoints || i % r->size != r->rank) continue;
    size_t m = n + strlen(e->d_name) + 2;
    char *path = malloc(m);
    if (path) {
      snprintf(path, m, "%s/%s", dir, e->d_name);
      nsed_error ignored; /* a leftover that stays is harmless: the point is rerun */
      nsed_outdir_remove_leftover(path, &ignored);
    }
    free(path);
  }
  if (d) closedir(d);
  free(dir);
}

static void report(nsedi_sweep_run *r, int i, int rc, const nsed_run_result *res,
                   const nsed_error *err) {
  if (rc != NSED_OK && !res->written) {
    fprintf(stderr, "nsed sweep: point %d: no result written: %s\n", i, err->message);
    return;
  }
  if (rc == NSED_ERR_INTERRUPTED) /* the library's message says only that */
    fprintf(stderr, "nsed sweep: point %d interrupted at t = %.10g s\n", i, res->t_reached);
  else if (rc != NSED_OK)
    fprintf(stderr, "nsed sweep: point %d failed at t = %.10g s: %s\n", i, res->t_reached,
            err->message);
  if (r->quiet) return;
  printf("nsed sweep: point %d %s: t = %.10g s, %ld events, %.3g s wall [%d of %d here]\n", i,
         rc == NSED_OK ? "ok" : rc == NSED_ERR_INTERRUPTED ? "interrupted" : "failed",
         res->t_reached, res->events, res->wall_seconds, r->ran, r->nmine);
  fflush(stdout);
}

static void run_point(nsedi_sweep_run *r, int i) {
  const nsed_sweep_point *p = &r->spec.points[i];
  nsed_error err;
  nsed_error_clear(&err);
  nsed_run_result res;
  memset(&res, 0, sizeof res);
  nsed_model *m = NULL;
  char *dir = nsed_sweep_point_dir(r, i);
  int rc = dir ? nsed_problem_load_string(r->problem_text, r->problem_len, r->spec.problem,
                                          (const char *const *)p->overrides, p->noverrides, &m,
                                          &err)
               : nsed_error_set(&err, NSED_ERR_NOMEM, "out of memory");
  if (rc == NSED_OK) {
    nsed_run_options opt;
    nsed_run_options_default(&opt);
    opt.problem_path = r->spec.problem;
    opt.problem_text = r->problem_text;
    opt.problem_len = r->problem_len;
    opt.overrides = (const char *const *)p->overrides;
    opt.noverrides = p->noverrides;
    opt.interrupt = r->interrupt;
    rc = nsed_run_problem(m, dir, &opt, &res, &err);
  }
  nsed_model_free(&m);
  free(dir);

  pthread_mutex_lock(&r->lock);
  r->ran++;
  nsed_error terr;
  nsed_error_clear(&terr);
  if (res.written) {
    r->state[i] = NSEDI_PT_PENDING;
    if (nsedi_sweep_refresh(r, i, &terr) != NSED_OK)
      fprintf(stderr, "nsed sweep: %s\n", terr.message);
  } else {
    r->state[i] = NSEDI_PT_ERROR;
  }
  if (rc != NSED_OK) r->failed++;
  report(r, i, rc, &res, &err);
  /* Rewriting the whole table after every point would be quadratic in a big
   * sweep; once a second keeps it current enough to watch. */
  if (r->write_table && nsedi_sweep_now() - r->last_table >= 1.0 &&
      nsedi_sweep_table(r, r->size > 1, &terr) != NSED_OK)
    fprintf(stderr, "nsed sweep: %s\n", terr.message);
  pthread_mutex_unlock(&r->lock);
}

static void *worker(void *arg) {
  nsedi_sweep_run *r = arg;
  for (;;) {
    pthread_mutex_lock(&r->lock);
    int i = -1;
    if (!*r->interrupt && r->next < r->nmine) {
      i = r->mine[r->next++];
      r->state[i] = NSEDI_PT_RUNNING;
    }
    pthread_mutex_unlock(&r->lock);
    if (i < 0) return NULL;
    run_point(r, i);
  }
}

/* Run this process's points on jobs threads (the calling thread is one). */
static int run_all(nsedi_sweep_run *r, long jobs) {
  if (jobs > r->nmine) jobs = r->nmine;
  pthread_t *th = jobs > 1 ? calloc((size_t)jobs - 1, sizeof *th) : NULL;
  long started = 0;
  for (long j = 0; th && j < jobs - 1; j++) {
    if (pthread_create(&th[j], NULL, worker, r) != 0) {
      fprintf(stderr, "nsed sweep: could start only %ld threads; continuing with those\n",
              started + 1);
      break;
    }
    started++;
  }
  worker(r);
  for (long j = 0; j < started; j++) pthread_join(th[j], NULL);
  free(th);
  return 0;
}

/* .ranks/<rank>.done (rank >= 0), or .ranks/table.done (rank < 0): rank 0
 * has written the final table. */
static char *marker_path(const nsedi_sweep_run *r, int rank) {
  size_t n = strlen(r->outdir) + 48;
  char *p = malloc(n);
  if (p && rank >= 0) snprintf(p, n, "%s/.ranks/%d.done", r->outdir, rank);
  if (p && rank < 0) snprintf(p, n, "%s/.ranks/table.done", r->outdir);
  return p;
}

/* Once interrupted, every rank stops at its next step and writes its
 * point within milliseconds; the ranks wait for each other at most this
 * long (mpirun, told to stop, kills what is left one second after its
 * SIGTERM, and at once when a rank exits: docs/sweeps.md). */
#define SWEEP_STOP_WAIT_SECONDS 5.0

/* Wait until path holds this launch's token. Without end while the sweep
 * runs (a rank that dies makes mpirun end the whole job, so the wait
 * cannot outlive the launch); once interrupted, SWEEP_STOP_WAIT_SECONDS at
 * most. Rank 0 keeps the table current meanwhile. */
static void wait_marker(nsedi_sweep_run *r, const char *path, const char *token,
                        double *interrupted_at) {
  for (;;) {
    char *text = NULL;
    size_t len = 0;
    int done = access(path, F_OK) == 0 &&
               nsed_problem_read_file(path, &text, &len, NULL) == NSED_OK &&
               len == strlen(token) && !memcmp(text, token, len);
    free(text);
    if (done) return;
    double now = nsedi_sweep_now();
    if (*r->interrupt && *interrupted_at < 0) *interrupted_at = now;
    if (*interrupted_at >= 0 && now - *interrupted_at > SWEEP_STOP_WAIT_SECONDS) return;
    if (r->write_table && now - r->last_table >= 1.0) {
      nsed_error e;
      if (nsedi_sweep_table(r, 1, &e)) fprintf(stderr, "nsed sweep: %s\n", e.message);
    }
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

/* Rank 0 waits until every other rank has marked itself done (with this
 * launch's token), also after an interruption, so that their interrupted
 * points are in the table. */
static void wait_ranks(nsedi_sweep_run *r, const char *token) {
  double interrupted_at = -1;
  for (int k = 1; k < r->size; k++) {
    char *path = marker_path(r, k);
    if (path) wait_marker(r, path, token, &interrupted_at);
    free(path);
  }
}

/* The other ranks exit only after rank 0 has written the table: a rank
 * that exits with a non-zero status (a failed or interrupted point) makes
 * mpirun kill the others at once, rank 0 with its table half done. */
static void wait_table(nsedi_sweep_run *r, const char *token) {
  double interrupted_at = -1;
  char *path = marker_path(r, -1);
  if (path) wait_marker(r, path, token, &interrupted_at);
  free(path);
}

static void mark(const nsedi_sweep_run *r, int rank, const char *token) {
  char *path = marker_path(r, rank);
  nsed_error e;
  if (!path || nsedi_write_atomic(path, token, strlen(token), &e))
    fprintf(stderr, "nsed sweep: rank %d cannot write its %s-marker%s%s\n", r->rank,
            rank < 0 ? "table" : "done", path ? ": " : "", path ? e.message : "");
  free(path);
}

static void install_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills for real */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

/* Everything after the sweep file and the points are known to be good. */
static int sweep(nsedi_sweep_run *r, const sweep_args *a, const char *token) {
  nsed_error err;
  nsed_error_clear(&err);
  size_t n = strlen(r->outdir) + 16;
  char *sub = malloc(n);
  if (!sub) return 1;
  int bad = mkdir_p(r->outdir);
  snprintf(sub, n, "%s/points", r->outdir);
  bad = bad || mkdir_p(sub);
  snprintf(sub, n, "%s/.ranks", r->outdir);
  bad = bad || (r->size > 1 && mkdir_p(sub));
  free(sub);
  if (bad) return 1;
  char *mine_marker = r->size > 1 ? marker_path(r, r->rank) : NULL;
  if (mine_marker) unlink(mine_marker); /* an old launch's; ignore ENOENT */
  free(mine_marker);
  /* The table marker is an old launch's too (rank 0 removes it; the others
   * compare its token). */
  char *table_marker = r->size > 1 && r->rank == 0 ? marker_path(r, -1) : NULL;
  if (table_marker) unlink(table_marker);
  free(table_marker);

  /* Resume: what is already there (and made from this sweep) is not redone. */
  for (int i = 0; i < r->spec.npoints; i++)
    if (nsedi_sweep_refresh(r, i, &err) != NSED_OK) {
      fprintf(stderr, "nsed sweep: %s\n", err.message);
      return 2;
    }
  for (int i = 0; i < r->spec.npoints; i++)
    if (i % r->size == r->rank && r->state[i] != NSEDI_PT_DONE) r->mine[r->nmine++] = i;
  clean_stale(r);
  int done_before = 0;
  for (int i = 0; i < r->spec.npoints; i++) done_before += r->state[i] == NSEDI_PT_DONE;
  if (!r->quiet && r->rank == 0)
    printf("nsed sweep: %d points, %d already done, %d to run here on %ld threads%s\n",
           r->spec.npoints, done_before, r->nmine, a->jobs < r->nmine ? a->jobs : r->nmine,
           r->size > 1 ? (a->shard_n ? " (this shard)" : " (rank 0)") : "");
  if (r->write_table && nsedi_sweep_table(r, 0, &err) != NSED_OK)
    fprintf(stderr, "nsed sweep: %s\n", err.message);

  install_handlers();
  run_all(r, a->jobs);
  int ranked = r->size > 1 && !a->shard_n;
  if (ranked && r->rank != 0) {
    mark(r, r->rank, token);
    wait_table(r, token);
  }
  if (ranked && r->rank == 0) wait_ranks(r, token);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);

  int code = 0;
  if (r->write_table) {
    int table_rc = nsedi_sweep_table(r, 1, &err);
    if (table_rc != NSED_OK) fprintf(stderr, "nsed sweep: %s\n", err.message);
    int ok = 0;
    for (int i = 0; i < r->spec.npoints; i++) {
      int good = r->state[i] == NSEDI_PT_DONE && !strncmp(r->row[i], "ok,", 3);
      good = good || (r->state[i] == NSEDI_PT_DONE && !strcmp(r->row[i], "ok"));
      ok += good;
    }
    if (ok < r->spec.npoints) code = 1;
    if (table_rc != NSED_OK) code = nsedi_exit_status(table_rc);
    if (!r->quiet || code)
      printf("nsed sweep: %d of %d points ok; table %s/sweep.csv%s\n", ok, r->spec.npoints,
             r->outdir, *r->interrupt ? " (interrupted: rerun the same command to resume)" : "");
    fflush(stdout);
    if (ranked) mark(r, -1, token); /* now the other ranks may exit */
  } else if (r->failed || *r->interrupt) {
    code = 1;
  }
  return code;
}

int nsedi_cmd_sweep(int argc, char **argv) {
  sweep_args a;
  int code = parse_args(argc, argv, &a);
  if (code || a.help) {
    if (a.help && !code) fputs(usage, stdout);
    return code;
  }
  nsedi_sweep_run r;
  memset(&r, 0, sizeof r);
  r.outdir = a.outdir;
  r.quiet = a.quiet;
  r.interrupt = &interrupted;
  nsed_error err;
  nsed_error_clear(&err);
  int rc = nsed_sweep_spec_load(a.sweep, &r.spec, &err);
  if (rc == NSED_OK) rc = nsed_problem_read_file(r.spec.problem, &r.problem_text, &r.problem_len, &err);
  if (rc != NSED_OK) {
    fprintf(stderr, "%s\n", err.message);
    nsed_sweep_spec_free(&r.spec);
    return rc == NSED_ERR_NOMEM ? 1 : 2;
  }
  nsed_sha256_hex(r.problem_text, r.problem_len, r.sha256);
  const char *token = "";
  mpi_env(&r.rank, &r.size, &token);
  if (a.shard_n) {
    r.rank = a.shard_k;
    r.size = a.shard_n;
  }
  r.write_table = r.rank == 0 && !a.shard_n;
  if (!a.jobs) {
    /* All cores, shared by the ranks mpirun placed on this node. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long local = env_long("OMPI_COMM_WORLD_LOCAL_SIZE", 1);
    a.jobs = (cores > 0 ? cores : 1) / (local > 0 ? local : 1);
    if (a.jobs < 1) a.jobs = 1;
  }
  int np = r.spec.npoints;
  r.state = calloc((size_t)np, sizeof *r.state);
  r.row = calloc((size_t)np, sizeof *r.row);
  r.mine = calloc((size_t)np, sizeof *r.mine);
  if (!r.state || !r.row || !r.mine) {
    fprintf(stderr, "nsed sweep: out of memory\n");
    code = 1;
  } else if (pthread_mutex_init(&r.lock, NULL) != 0) {
    fprintf(stderr, "nsed sweep: cannot create a mutex\n");
    code = 1;
  } else {
    code = check_points(&r);
    if (!code) code = sweep(&r, &a, token);
    pthread_mutex_destroy(&r.lock);
  }
  for (int i = 0; r.row && i < np; i++) free(r.row[i]);
  free(r.row);
  free(r.state);
  free(r.mine);
  free(r.problem_text);
  nsed_sweep_spec_free(&r.spec);
  return code;
}
