/* nsed run: load a problem, simulate it, write the result directory. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "commands.h"
#include "nsed/io.h"
#include "plot.h"
#include "problem_args.h"

static const char usage[] =
    "usage: nsed run PROBLEM.yaml [-o OUTDIR] [--set KEY=VALUE ...] [--format csv|hdf5]\n"
    "                [--plot] [--quiet]\n"
    "\n"
    "Simulate PROBLEM.yaml and write trajectory.csv, contacts.csv, events.csv and\n"
    "summary.json into OUTDIR (default results/<problem name>). The directory\n"
    "appears complete or not at all; an older nsed result there is replaced.\n"
    "\n"
    "  -o, --output DIR     output directory\n"
    "  -s, --set KEY=VALUE  override a key, e.g. --set solver.rtol=1e-8,\n"
    "                       --set bodies.ball.velocity=[1,0,0] (repeatable)\n"
    "  --format FMT         csv (default) or hdf5: one file results.h5 with the\n"
    "                       trajectory, contacts, events and the run's metadata\n"
    "  --plot               draw the figures into OUTDIR/plots when the run ends,\n"
    "                       also after a failed or interrupted one (as `nsed plot\n"
    "                       OUTDIR`; needs python3-matplotlib; the exit status\n"
    "                       stays the run's)\n"
    "  -q, --quiet          no progress bar and no report on success\n"
    "  -h, --help           this help\n"
    "\n"
    "On a terminal, runs longer than a second show a progress bar on stderr.\n"
    "Exit status: 0 success, 1 the simulation failed or was interrupted (the\n"
    "files up to that instant are written), 2 bad problem file, usage or an\n"
    "OUTDIR holding files nsed did not write, 3 the results could not be written\n"
    "(permissions, a full disk).\n";

/* The one piece of global mutable state: a signal handler can only reach
 * static storage. The run polls it through the observer. */
static volatile sig_atomic_t interrupted = 0;

static void on_signal(int sig) {
  (void)sig;
  interrupted = 1;
}

/* The progress bar: one line on stderr, redrawn in place. */
typedef struct {
  int shown;        /* a progress line is on the terminal */
  double last_draw; /* wall time of the last redraw (s) */
  int columns;      /* terminal width: a wrapped line could not be redrawn */
} progress_state;

static int terminal_columns(int fd) {
  struct winsize ws;
  if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 80;
}

/* "4.2 s", "3m07s", "2h05m": wide ranges in a few characters. */
static void duration(char *buf, size_t size, double s) {
  if (!(s >= 0) || s > 1e7) snprintf(buf, size, "--");
  else if (s < 60) snprintf(buf, size, "%.1f s", s);
  else if (s < 3600) snprintf(buf, size, "%dm%02ds", (int)(s / 60), (int)s % 60);
  else snprintf(buf, size, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

static void on_progress(void *ctx, double t, double t_end, long events, double wall) {
  progress_state *ps = ctx;
  /* Short runs stay silent: a bar that flashes for 0.2 s is noise. The
   * engine calls about every 0.1 s; the own limit keeps it at 10 Hz even
   * if that changes. */
  if (wall < 1.0 || !(t_end > 0)) return;
  if (ps->shown && wall - ps->last_draw < 0.1) return;
  double frac = t / t_end;
  if (!(frac > 0)) frac = 0;
  if (frac > 1) frac = 1;
  char bar[21];
  int filled = (int)(frac * 20);
  for (int i = 0; i < 20; i++) bar[i] = i < filled ? '#' : '.';
  bar[20] = '\0';
  char w[16], eta[16], line[256];
  duration(w, sizeof w, wall);
  duration(eta, sizeof eta, frac > 0 ? wall * (1 - frac) / frac : -1);
  int n = snprintf(line, sizeof line, "[%s] %3d%%  t %.4g/%.4g s  events %ld  wall %s  eta %s",
                   bar, (int)(frac * 100), t, t_end, events, w, eta);
  if (n < 0) return;
  /* Never wrap: \r only returns to the start of the current screen line. */
  if (n >= ps->columns) line[ps->columns - 1] = '\0';
  /* \r, the line, then erase the rest of the old one (ESC [ K). */
  fprintf(stderr, "\r%s\033[K", line);
  fflush(stderr);
  ps->shown = 1;
  ps->last_draw = wall;
}

/* Remove the bar so that whatever follows starts on a clean line. */
static void progress_clear(progress_state *ps) {
  if (!ps->shown) return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  ps->shown = 0;
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
  opt.format = a.format && !strcmp(a.format, "hdf5") ? NSED_FORMAT_HDF5 : NSED_FORMAT_CSV;
  if (!a.quiet && isatty(STDERR_FILENO)) {
    ps.columns = terminal_columns(STDERR_FILENO);
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
  progress_clear(&ps);

  if (rc == NSED_OK) {
    if (!a.quiet) {
      printf("nsed run: %s: t = %.10g s reached, %ld events, %.3g s wall\n", a.problem,
             res.t_reached, res.events, res.wall_seconds);
      if (opt.format == NSED_FORMAT_HDF5)
        printf("  results     %s/results.h5\n", outdir);
      else
        printf("  trajectory  %s/trajectory.csv\n  contacts    %s/contacts.csv\n"
               "  events      %s/events.csv\n",
               outdir, outdir, outdir);
      printf("  summary     %s/summary.json\n", outdir);
    }
    code = a.plot ? nsedi_plot_results(outdir, NULL, NULL, NULL, a.quiet) : 0;
  } else if (res.written) {
    if (rc == NSED_ERR_INTERRUPTED) /* the library's message says only that */
      fprintf(stderr, "nsed run: %s: interrupted at t = %.17g s\n", a.problem, res.t_reached);
    else
      fprintf(stderr, "nsed run: %s: simulation failed at t = %.17g s: %s\n", a.problem,
              res.t_reached, err.message);
    fprintf(stderr, "nsed run: results up to t = %.17g s are in %s (summary.json status \"%s\")\n",
            res.t_reached, outdir, rc == NSED_ERR_INTERRUPTED ? "interrupted" : "failed");
    if (res.failed_problem)
      fprintf(stderr, "nsed run: the event problem it could not solve is %s/%s (nsed cp solves it again)\n",
              outdir, NSED_FAILED_PROBLEM_FILE);
    /* The figures of a failed run show where it went wrong; the exit status
     * stays that of the run. */
    if (a.plot) nsedi_plot_results(outdir, NULL, NULL, NULL, a.quiet);
    code = 1;
  } else {
    fprintf(stderr, "nsed run: %s\n", err.message);
    code = nsedi_exit_status(rc);
  }
  free(outdir);
  free(text);
  nsed_model_free(&m);
  nsedi_problem_args_free(&a);
  if (rc == NSED_ERR_IO && opt.format == NSED_FORMAT_HDF5) {
    /* A write that failed inside HDF5 1.10 (a full disk) leaves a file id
     * whose object HDF5 has freed, and HDF5's exit handler then crashes on
     * it (HDFGroup/hdf5 #2257, fixed in 1.14): the message is out, the
     * temporary directory removed, so leave without the exit handlers. */
    fflush(stdout);
    fflush(stderr);
    _exit(code);
  }
  return code;
}
