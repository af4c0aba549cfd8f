/* Command-line arguments shared by `nsed run` and `nsed validate`: the
 * problem file and its --set overrides. */
#ifndef NSED_CLI_PROBLEM_ARGS_H
#define NSED_CLI_PROBLEM_ARGS_H

#include <stddef.h>

#include "nsed/model.h"

typedef struct {
  const char *problem;    /* PROBLEM.yaml */
  const char *outdir;     /* -o DIR (run only), NULL: results/<basename> */
  const char **overrides; /* --set KEY=VALUE, in order (points into argv) */
  int noverrides;
  int quiet;              /* --quiet */
  const char *format;     /* --format csv|hdf5 (run only), NULL: csv */
  int plot;               /* --plot (run only) */
  int help;               /* --help given */
} nsedi_problem_args;

/* Parse argv (argv[0] is the subcommand). allow_output: accept -o, --quiet,
 * --format and --plot.
 * Returns 0, or 2 after printing a usage error to stderr. Free with
 * nsedi_problem_args_free. */
int nsedi_problem_args_parse(int argc, char **argv, int allow_output, const char *usage,
                             nsedi_problem_args *a);

void nsedi_problem_args_free(nsedi_problem_args *a);

/* Load a.problem with the overrides into a finalized model; on failure print
 * the problems to stderr and return the exit status (2 for bad input). On
 * success *text (free it) holds the file's bytes for hashing. */
int nsedi_problem_args_load(const nsedi_problem_args *a, nsed_model **model, char **text, size_t *len);

#endif
