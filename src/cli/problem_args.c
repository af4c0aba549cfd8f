#include "problem_args.h"

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
  /* The plotting script reads the CSV files. */
  if (a->plot && a->format && !strcmp(a->format, "hdf5")) {
    fprintf(stderr, "nsed %s: --plot reads the CSV files: use it with --format csv\n", argv[0]);
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
  *model = m;
  *len = n;
  return 0;
}
