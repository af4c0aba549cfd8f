/* nsed run: load a problem, simulate it, write the result directory. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "nsed/io.h"
#include "problem_args.h"

static const char usage[] =
    "usage: nsed run PROBLEM.yaml [-o OUTDIR] [--set KEY=VALUE ...] [--quiet]\n"
    "\n"
    "Simulate PROBLEM.yaml and write trajectory.csv, contacts.csv, events.csv and\n"
    "summary.json into OUTDIR (default results/<problem name>). The directory\n"
    "appears complete or not at all; an older nsed result there is replaced.\n"
    "\n"
    "  -o, --output DIR     output directory\n"
    "  -s, --set KEY=VALUE  override a key, e.g. --set solver.rtol=1e-8,\n"
    "                       --set bodies.ball.velocity=[1,0,0] (repeatable)\n"
    "  -q, --quiet          no progress bar and no report on success\n"
    "  -h, --help           this help\n"
    "\n"
    "Exit status: 0 success, 1 the simulation failed or was interrupted (the\n"
    "files up to that instant are written), 2 bad problem file or usage.\n";

/* The one piece of global mutable state: a signal handler can only reach
 * static storage. The run polls it through the observer. */
static volatile sig_atomic_t interrupted = 0;

static void on_signal(int sig) {
  (void)sig;
  interrupted = 1;
}

typedef struct {
  int shown; /* a progress line is on the terminal */
} progress_state;

static void on_progress(void *ctx, double t, double t_end, long events, double wall) {
  progress_state *ps = ctx;
  /* Short runs stay silent: a bar that flashes for 0.2 s is noise. */
  if (wall < 1.0 || t_end <= 0) return;
  double frac = t / t_end;
  if (frac < 0) frac = 0;
  if (frac > 1) frac = 1;
  char bar[31];
  int filled = (int)(frac * 30);
  for (int i = 0; i < 30; i++) bar[i] = i < filled ? '#' : '.';
  bar[30] = '\0';
  double eta = frac > 0 ? wall * (1 - frac) / frac : 0;
  fprintf(stderr, "\r[%s] t = %.4g / %.4g s  events %ld  wall %.1f s  eta %.1f s ", bar, t, t_end,
          events, wall, eta);
  fflush(stderr);
  ps->shown = 1;
}

/* results/<basename without .yaml/.yml>. */
static char *default_outdir(const char *problem) {
  const char *base = strrchr(problem, '/');
  base = base ? base + 1 : problem;
  size_t len = strlen(base);
  if (len > 5 && !strcmp(base + len - 5, ".yaml")) len -= 5;
  else if (len > 4 && !strcmp(base + len - 4, ".yml")) len -= 4;
  if (len == 0) {
    base = "result";
    len = 6;
  }
  char *out = malloc(len + 9);
  if (out) snprintf(out, len + 9, "results/%.*s", (int)len, base);
  return out;
}

static void install_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  /* A second Ctrl-C kills for real, in case the run cannot stop cleanly. */
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

int nsedi_cmd_run(int argc, char **argv) {
  nsedi_problem_args a;
  int code = nsedi_problem_args_parse(argc, argv, 1, usage, &a);
  if (code || a.help) {
    if (!code) fputs(usage, stdout);
    nsedi_problem_args_free(&a);
    return code;
  }
  nsed_model *m = NULL;
  char *text = NULL;
  size_t len = 0;
  code = nsedi_problem_args_load(&a, &m, &text, &len);
  char *outdir = NULL;
  if (!code) {
    outdir = a.outdir ? strdup(a.outdir) : default_outdir(a.problem);
    if (!outdir) {
      fprintf(stderr, "nsed run: out of memory\n");
      code = 1;
    }
  }
  if (code) {
    free(text);
    nsed_model_free(&m);
    nsedi_problem_args_free(&a);
    return code;
  }

  progress_state ps = {0};
  nsed_run_options opt;
  nsed_run_options_default(&opt);
  opt.problem_path = a.problem;
  opt.problem_text = text;
  opt.problem_len = len;
  opt.overrides = (const char *const *)a.overrides;
  opt.noverrides = a.noverrides;
  opt.interrupt = &interrupted;
  if (!a.quiet && isatty(STDERR_FILENO)) {
    opt.progress = on_progress;
    opt.progress_ctx = &ps;
  }
  install_handlers();
  nsed_error err;
  nsed_error_clear(&err);
  nsed_run_result res;
  int rc = nsed_run_problem(m, outdir, &opt, &res, &err);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  if (ps.shown) fputc('\n', stderr);

  if (rc == NSED_OK) {
    if (!a.quiet)
      printf("nsed run: %s: t = %.10g s reached, %ld events, %.3g s wall\n"
             "  trajectory  %s/trajectory.csv\n  contacts    %s/contacts.csv\n"
             "  events      %s/events.csv\n  summary     %s/summary.json\n",
             a.problem, res.t_reached, res.events, res.wall_seconds, outdir, outdir, outdir, outdir);
    code = 0;
  } else if (res.written) {
    fprintf(stderr, "nsed run: %s: %s at t = %.17g s: %s\n", a.problem,
            rc == NSED_ERR_INTERRUPTED ? "interrupted" : "simulation failed", res.t_reached,
            err.message);
    fprintf(stderr, "nsed run: results up to t = %.17g s are in %s (summary.json status \"%s\")\n",
            res.t_reached, outdir, rc == NSED_ERR_INTERRUPTED ? "interrupted" : "failed");
    code = 1;
  } else {
    fprintf(stderr, "nsed run: %s\n", err.message);
    code = rc == NSED_ERR_INPUT ? 2 : 1;
  }
  free(outdir);
  free(text);
  nsed_model_free(&m);
  nsedi_problem_args_free(&a);
  return code;
}
