#include "problem_args.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/io.h"

/* Usage errors show the synopsis only; --help has the rest. */
static void synopsis(const char *cmd, const char *usage) {
  const char *nl = strchr(usage, '\n');
  fprintf(stderr, "%.*s\n(nsed %s --help for details)\n", nl ? (int)(nl - usage) : (int)strlen(usage), usage, cmd);
}

int nsedi_problem_args_parse(int argc, char **argv, int allow_output, const char *usage,
                             nsedi_problem_args *a) {
  memset(a, 0, sizeof *a);
  a->overrides = calloc((size_t)argc + 1, sizeof *a->overrides);
  if (!a->overrides) {
    fprintf(stderr, "nsed %s: out of memory\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      a->help = 1;
    } else if (!strcmp(s, "--set") || !strcmp(s, "-s")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "nsed %s: %s needs KEY=VALUE\n", argv[0], s);
        synopsis(argv[0], usage);
        return 2;
      }
      a->overrides[a->noverrides++] = argv[++i];
    } else if (!strncmp(s, "--set=", 6)) {
      a->overrides[a->noverrides++] = s + 6;
    } else if (allow_output && (!strcmp(s, "-o") || !strcmp(s, "--output"))) {
      if (i + 1 >= argc) {
        fprintf(stderr, "nsed %s: %s needs a directory\n", argv[0], s);
        synopsis(argv[0], usage);
        return 2;
      }
      a->outdir = argv[++i];
    } else if (allow_output && !strncmp(s, "--output=", 9)) {
      a->outdir = s + 9;
    } else if (allow_output && (!strcmp(s, "-q") || !strcmp(s, "--quiet"))) {
      a->quiet = 1;
    } else if (allow_output && !strcmp(s, "--format")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "nsed %s: %s needs csv or hdf5\n", argv[0], s);
        synopsis(argv[0], usage);
        return 2;
      }
      a->format = argv[++i];
    } else if (allow_output && !strncmp(s, "--format=", 9)) {
      a->format = s + 9;
    } else if (allow_output && !strcmp(s, "--plot")) {
      a->plot = 1;
    } else if (s[0] == '-' && s[1]) {
      fprintf(stderr, "nsed %s: unknown option '%s'\n", argv[0], s);
        synopsis(argv[0], usage);
      return 2;
    } else if (!a->problem) {
      a->problem = s;
    } else {
      fprintf(stderr, "nsed %s: one problem file at a time ('%s' and '%s')\n", argv[0],
              a->problem, s);
      synopsis(argv[0], usage);
      return 2;
    }
  }
  if (!a->help && !a->problem) {
    fprintf(stderr, "nsed %s: no problem file given\n", argv[0]);
    synopsis(argv[0], usage);
    return 2;
  }
  if (a->format && strcmp(a->format, "csv") && strcmp(a->format, "hdf5")) {
    fprintf(stderr, "nsed %s: --format expects csv or hdf5, got '%s'\n", argv[0], a->format);
    return 2;
  }
  for (int i = 0; i < a->noverrides; i++)
    if (!strchr(a->overrides[i], '=')) {
      fprintf(stderr, "nsed %s: --set expects KEY=VALUE, got '%s'\n", argv[0], a->overrides[i]);
      return 2;
    }
  return 0;
}

void nsedi_problem_args_free(nsedi_problem_args *a) {
  free(a->overrides);
  a->overrides = NULL;
}

/* A parameter the contact's law does not use is a warning, not an error:
 * the run is what the law says, the file only says more than it needs. */
static void warn_ignored_parameters(const char *problem, const nsed_model *m) {
  for (int i = 0; i < nsed_model_ncontact(m); i++) {
    char text[1024];
    if (nsed_contact_ignored_parameters(m, i, text, sizeof text) <= 0) continue;
    for (char *s = text; s && *s;) {
      char *next = strstr(s, "; ");
      if (next) *next = '\0';
      fprintf(stderr, "%s: warning: contact '%s': %s\n", problem, nsed_model_contact_name(m, i), s);
      s = next ? next + 2 : NULL;
    }
  }
}

/* Regularised friction -mu N v_t / max(|v_t|, delta) is a damper of rate
 * about mu g / delta while |v_t| < delta (N ~ m g); an explicit
 * integrator is stable only for steps below ~3 / rate (Dormand-Prince's
 * stability interval), so a long run near rolling or sticking costs
 * t_end * rate / 3 steps where an implicit one takes few. */
static void hint_stiff_friction(const char *problem, const nsed_model *m) {
  const nsed_options *o = nsed_model_options(m);
  if (o->integrator != NSED_INTEGRATOR_ARKODE_DP5 && o->integrator != NSED_INTEGRATOR_ARKODE_VERNER)
    return;
  double g = sqrt(o->gravity[0] * o->gravity[0] + o->gravity[1] * o->gravity[1] +
                  o->gravity[2] * o->gravity[2]);
  for (int i = 0; i < nsed_model_ncontact(m); i++) {
    const nsed_contact_def *c = nsed_model_contact_def(m, i);
    if (c->law == NSED_CONTACT_COULOMB || c->mu <= 0 || g <= 0) continue;
    double rate = c->mu * g / c->delta, steps = o->t_end * rate / 3.0;
    if (steps < 1e5) continue;
    fprintf(stderr,
            "%s: note: contact '%s': %s friction with delta = %.3g m/s is stiff near v_t = 0 "
            "(rate mu g / delta = %.3g 1/s): %s may take ~%.2g steps for t_end = %.10g s; "
            "solver.integrator: cvode_bdf takes far fewer (docs/friction-models.md)\n",
            problem, c->name, nsed_contact_law_name(c->law), c->delta, rate,
            nsed_integrator_name(o->integrator), steps, o->t_end);
    return; /* once: the advice is the same for every contact */
  }
}

int nsedi_problem_args_load(const nsedi_problem_args *a, nsed_model **model, char **text,
                            size_t *len) {
  nsed_error err;
  nsed_error_clear(&err);
  size_t n = 0;
  *text = NULL;
  *model = NULL;
  int rc = nsed_problem_read_file(a->problem, text, &n, &err);
  nsed_model *m = NULL;
  if (rc == NSED_OK)
    rc = nsed_problem_load_string(*text, n, a->problem, (const char *const *)a->overrides,
                                  a->noverrides, &m, &err);
  if (rc != NSED_OK) {
    fprintf(stderr, "%s\n", err.message);
    free(*text);
    *text = NULL;
    /* A missing or unreadable problem file is the user's input too. */
    return rc == NSED_ERR_NOMEM || rc == NSED_ERR_INTERNAL ? 1 : 2;
  }
  warn_ignored_parameters(a->problem, m);
  hint_stiff_friction(a->problem, m);
  *model = m;
  *len = n;
  return 0;
}
