/* nsed cp [--model face|vertex|cone] [--sides N] [--path P] [--tol X]
 *         [--max-pivots K] [--cone-tol X] [--write-lcp DIR] FILE...
 *
 * Solves event problems stored as contact-problem files (what a failed run
 * leaves in its result directory, failed_event_problem.txt) and prints one
 * line per file, then each contact's mode, force and resulting relative
 * acceleration (velocity, for an impact problem), then `solved S of N`.
 * Exit status as `nsed lcp`: 0 every problem solved, 1 some not, 2 bad
 * usage or a malformed file. --write-lcp writes every LCP the solve poses
 * (Siconos' format, `nsed lcp` reads it) as DIR/BASE.K.FORM.dat. */
#include "commands.h"
#include "nsed/complementarity.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *f) {
  fprintf(f, "usage: nsed cp [--model face|vertex|cone] [--sides N] [--path P] [--tol X]\n"
             "               [--max-pivots K] [--cone-tol X] [--write-lcp DIR] FILE...\n"
             "Solve the event problems in contact-problem files (a failed run's\n"
             "failed_event_problem.txt; format in docs/complementarity.md) and print, per\n"
             "file, FILE level=L contacts=N solved|infeasible|failed residual=R lcp=n\n"
             "pivots=P path=PATH, then each contact's mode, force lambda (n, t1, t2) and\n"
             "relative acceleration a (velocity after an impact), then `solved S of N`.\n"
             "Every answer is verified (docs/complementarity.md).\n"
             "\n"
             "  --model M      friction in the problem: face (default: the circumscribed\n"
             "                 polygon's face form), vertex (inscribed polygon) or cone\n"
             "                 (exact circle, Siconos fc3d)\n"
             "  --sides N      polygon sides, a multiple of 4 (default 8)\n"
             "  --path P       LCP path: auto (default), siconos, nsed, enum or milp\n"
             "  --tol X        relative residual accepted for an LCP answer (default 1e-9)\n"
             "  --max-pivots K Lemke pivot limit (default 10000)\n"
             "  --cone-tol X   fc3d tolerance for --model cone (default 1e-12)\n"
             "  --write-lcp DIR  write every LCP the solve poses (face, face-as-vertex,\n"
             "                 vertex form) as DIR/BASE.K.FORM.dat in Siconos' format,\n"
             "                 which `nsed lcp` reads; DIR is created if missing and\n"
             "                 files of the same names in it are replaced\n"
             "  -h, --help     this help\n"
             "\n"
             "A failed run's file names the run's settings as these options in its header.\n"
             "\n"
             "Example: nsed cp --model cone tests/data/cone/coast_slip_3c.txt\n"
             "Exit status: 0 every problem solved, 1 some not solved or infeasible, 2 bad\n"
             "usage or an unreadable or malformed file.\n");
}

/* Parse "--name VALUE" or "--name=VALUE" at argv[*i]: the value, or NULL. */
static const char *option_value(int argc, char **argv, int *i, const char *name) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) != 0) return NULL;
  if (argv[*i][n] == '=') return argv[(*i)++] + n + 1;
  if (argv[*i][n] == '\0' && *i + 1 < argc) {
    *i += 2;
    return argv[*i - 1];
  }
  return NULL;
}

/* A tolerance option's value, a number in (0, 1): 1, or 0 after saying why. */
static int fraction(const char *name, const char *v, double *out) {
  char *end = NULL;
  errno = 0;
  double x = strtod(v, &end);
  if (end == v || *end || errno || !(x > 0 && x < 1)) {
    fprintf(stderr, "nsed cp: %s '%s' (a number in (0, 1))\n", name, v);
    return 0;
  }
  *out = x;
  return 1;
}

static int parse_options(int argc, char **argv, nsed_complementarity_settings *set, const char **lcp_dir,
                         int *first) {
  int i = 1;
  while (i < argc && strncmp(argv[i], "-", 1) == 0) {
    const char *a = argv[i], *v;
    char *end = NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    if ((v = option_value(argc, argv, &i, "--model"))) {
      if (!strcmp(v, "face")) set->model = NSED_FRICTION_POLYGON_FACE;
      else if (!strcmp(v, "vertex")) set->model = NSED_FRICTION_POLYGON_VERTEX;
      else if (!strcmp(v, "cone")) set->model = NSED_FRICTION_EXACT_CONE;
      else return fprintf(stderr, "nsed cp: --model '%s' (face, vertex or cone)\n", v), 2;
    } else if ((v = option_value(argc, argv, &i, "--sides"))) {
      errno = 0;
      long s = strtol(v, &end, 10);
      if (end == v || *end || errno || s < 4 || s % 4 || s > 4096)
        return fprintf(stderr, "nsed cp: --sides '%s' (a multiple of 4, from 4 to 4096)\n", v), 2;
      set->sides = (int)s;
    } else if ((v = option_value(argc, argv, &i, "--path"))) {
      if (!nsedi_lcp_path_named(v, &set->path))
        return fprintf(stderr, "nsed cp: --path '%s' (auto, siconos, nsed, enum or milp)\n", v), 2;
    } else if ((v = option_value(argc, argv, &i, "--tol"))) {
      if (!fraction("--tol", v, &set->tol)) return 2;
    } else if ((v = option_value(argc, argv, &i, "--max-pivots"))) {
      errno = 0;
      long k = strtol(v, &end, 10);
      if (end == v || *end || errno || k < 1 || k > 100000000)
        return fprintf(stderr, "nsed cp: --max-pivots '%s' (an integer >= 1)\n", v), 2;
      set->max_pivots = (int)k;
    } else if ((v = option_value(argc, argv, &i, "--cone-tol"))) {
      if (!fraction("--cone-tol", v, &set->cone_tol)) return 2;
    } else if ((v = option_value(argc, argv, &i, "--write-lcp"))) {
      if (!*v) return fprintf(stderr, "nsed cp: --write-lcp needs a directory\n"), 2;
      *lcp_dir = v;
    } else {
      fprintf(stderr, "nsed cp: unknown option or missing value '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (i >= argc) {
    usage(stderr);
    return 2;
  }
  *first = i;
  return -1;
}

static const char *mode_word(nsed_cp_mode m) {
  return m == NSED_CP_OPEN ? "open" : m == NSED_CP_STICK ? "stick" : "slip";
}

/* Where the posed LCPs of one input go: DIR/BASE.K.FORM.dat, K from 1. */
enum { MAX_REPORTED = 16 };
typedef struct {
  const char *dir, *base;
  int count;
  char last[4096]; /* the last file written, or why writing failed */
  int failed;
  const char *form[MAX_REPORTED]; /* what was written, reported after the answer */
  int n[MAX_REPORTED];
} lcp_writer;

/* The input's file name without its directory and last extension. */
static void base_name(const char *path, char *out, size_t size) {
  const char *slash = strrchr(path, '/');
  snprintf(out, size, "%s", slash ? slash + 1 : path);
  char *dot = strrchr(out, '.');
  if (dot && dot != out) *dot = '\0';
}

static int write_posed_lcp(void *user, const char *form, int n, const double *M, const double *q) {
  lcp_writer *w = user;
  w->count++;
  int len = snprintf(w->last, sizeof w->last, "%s/%s.%d.%s.dat", w->dir, w->base, w->count, form);
  if (len < 0 || (size_t)len >= sizeof w->last) {
    snprintf(w->last, sizeof w->last, "the file name under '%s' is too long", w->dir);
    w->failed = 1;
    return 1;
  }
  nsed_error err;
  nsed_error_clear(&err);
  if (nsed_lcp_write_file(w->last, n, M, q, &err) != NSED_OK) {
    snprintf(w->last, sizeof w->last, "%s", err.message);
    w->failed = 1;
    return 1;
  }
  if (w->count <= MAX_REPORTED) {
    w->form[w->count - 1] = form;
    w->n[w->count - 1] = n;
  }
  return 0;
}

/* One file: 1 solved, 0 not solved, -1 bad input (reported). */
static int solve_file(const nsed_complementarity_settings *set, const char *lcp_dir, const char *path) {
  nsed_error err;
  nsed_error_clear(&err);
  nsed_contact_problem_file f;
  if (nsed_contact_problem_read(path, &f, &err) != NSED_OK) {
    fprintf(stderr, "nsed cp: %s\n", err.message);
    printf("%s bad-input\n", path);
    return -1;
  }
  const nsed_contact_problem *p = &f.problem;
  size_t n = (size_t)(3 * p->nc + p->nw);
  double *lambda = calloc(n, sizeof(double)), *a = calloc(n, sizeof(double));
  double *dir = calloc(2 * (size_t)p->nc, sizeof(double)), *wsign = calloc((size_t)p->nw + 1, sizeof(double));
  nsed_cp_mode *mode = calloc((size_t)p->nc, sizeof *mode), *wmode = calloc((size_t)p->nw + 1, sizeof *wmode);
  nsed_contact_solver *s = NULL;
  int result = -1;
  if (!lambda || !a || !dir || !wsign || !mode || !wmode) {
    fprintf(stderr, "nsed cp: %s: out of memory\n", path);
  } else if (nsed_contact_solver_create(set, p->nc, &s, &err) != NSED_OK) {
    fprintf(stderr, "nsed cp: %s\n", err.message);
  } else {
    char base[1024];
    base_name(path, base, sizeof base);
    lcp_writer writer = {.dir = lcp_dir, .base = base};
    if (lcp_dir) nsed_contact_solver_set_lcp_observer(s, write_posed_lcp, &writer);
    nsed_contact_solution sol = {.lambda = lambda, .a = a, .mode = mode, .slip_dir = dir,
                                 .spin_mode = wmode, .spin_sign = wsign};
    nsed_lcp_stats st;
    memset(&st, 0, sizeof st);
    int rc = f.impact ? nsed_contact_solve_impact(s, p, &sol, &st, &err)
                      : nsed_contact_solve_accel(s, p, &sol, &st, &err);
    const char *what = rc == NSED_OK ? "solved" : rc == NSED_LCP_INFEASIBLE ? "infeasible" : "failed";
    printf("%s level=%s contacts=%d spins=%d %s residual=%.3g lcp=%d pivots=%d path=%s\n", path,
           f.impact ? "impact" : "accel", p->nc, p->nw, what, st.residual, st.lcp_size, st.pivots,
           st.path ? st.path : "none");
    if (rc == NSED_OK) {
      for (int i = 0; i < p->nc; i++)
        printf("  contact %d %-5s lambda %.17g %.17g %.17g  a %.17g %.17g %.17g\n", i,
               mode_word(mode[i]), lambda[3 * i], lambda[3 * i + 1], lambda[3 * i + 2], a[3 * i],
               a[3 * i + 1], a[3 * i + 2]);
      for (int k = 0; k < p->nw; k++)
        printf("  spin %d (contact %d) %-5s moment %.17g  a_w %.17g\n", k, p->spins[k].contact,
               mode_word(wmode[k]), lambda[3 * p->nc + k], a[3 * p->nc + k]);
      result = 1;
    } else {
      fprintf(stderr, "nsed cp: %s: %s\n", path, err.message);
      result = rc == NSED_ERR_INPUT ? -1 : 0;
    }
    for (int k = 0; k < writer.count && k < MAX_REPORTED && !writer.failed; k++)
      printf("  lcp %d %s n=%d written to %s/%s.%d.%s.dat\n", k + 1, writer.form[k], writer.n[k], lcp_dir,
             base, k + 1, writer.form[k]);
    if (writer.count > MAX_REPORTED && !writer.failed)
      printf("  lcp %d to %d written to %s/%s.*.dat\n", MAX_REPORTED + 1, writer.count, lcp_dir, base);
    if (writer.failed) {
      fprintf(stderr, "nsed cp: %s: writing its LCP: %s\n", path, writer.last);
      result = -1;
    }
  }
  nsed_contact_solver_free(&s);
  free(lambda), free(a), free(dir), free(wsign), free(mode), free(wmode);
  nsed_contact_problem_file_free(&f);
  return result;
}

int nsedi_cmd_cp(int argc, char **argv) {
  nsed_complementarity_settings set;
  nsed_complementarity_default_settings(&set);
  const char *lcp_dir = NULL;
  int first = 0, rc = parse_options(argc, argv, &set, &lcp_dir, &first);
  if (rc >= 0) return rc;
  if (lcp_dir) {
    /* Two inputs of one base name would write the same files. */
    for (int a = first; a < argc; a++)
      for (int b = first; b < a; b++) {
        char ba[1024], bb[1024];
        base_name(argv[a], ba, sizeof ba);
        base_name(argv[b], bb, sizeof bb);
        if (!strcmp(ba, bb))
          return fprintf(stderr, "nsed cp: --write-lcp: '%s' and '%s' would write the same files (%s.K.FORM.dat)\n",
                         argv[b], argv[a], ba), 2;
      }
    if (mkdir(lcp_dir, 0777) != 0 && errno != EEXIST)
      return fprintf(stderr, "nsed cp: --write-lcp: cannot create '%s': %s\n", lcp_dir, strerror(errno)), 2;
  }
  int solved = 0, total = 0, bad = 0;
  for (int k = first; k < argc; k++, total++) {
    int r = solve_file(&set, lcp_dir, argv[k]);
    solved += r == 1;
    bad |= r < 0;
  }
  printf("solved %d of %d\n", solved, total);
  if (bad) return 2;
  return solved == total ? 0 : 1;
}
