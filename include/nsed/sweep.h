/* Sweep files: a grid or a list of overrides of one problem file, and the
 * summary.json metrics to tabulate (docs/sweeps.md). `nsed sweep` runs
 * them; a script can read one here and run its points with
 * nsed_problem_load and nsed_run_problem. */
#ifndef NSED_SWEEP_H
#define NSED_SWEEP_H

#include "nsed/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One point: its overrides ("key=value", the fixed `set:` ones first) and
 * the value shown in each override column of the table ("" where the point
 * does not set that key). */
typedef struct {
  char **overrides;
  int noverrides;
  char **cells;        /* ncolumns (of the spec) */
} nsed_sweep_point;

typedef struct {
  char *problem;       /* path of the problem file (resolved against the sweep file's folder) */
  char **columns;      /* override keys tabulated (grid keys, or list keys in first-seen order) */
  int ncolumns;
  char **metrics;      /* summary.json keys, dotted for nested ones ("events_by_kind.slip") */
  int nmetrics;
  nsed_sweep_point *points;
  int npoints;
} nsed_sweep_spec;

/* Read and check the sweep file at path into *s. On error returns
 * NSED_ERR_INPUT (NSED_ERR_IO if unreadable) with every problem in
 * err->message ("FILE:LINE:COL: KEY: ..."). Free *s with
 * nsed_sweep_spec_free, also after a failure. */
NSED_API int nsed_sweep_spec_load(const char *path, nsed_sweep_spec *s, nsed_error *err);

/* Release what nsed_sweep_spec_load allocated and clear *s. */
NSED_API void nsed_sweep_spec_free(nsed_sweep_spec *s);

#ifdef __cplusplus
}
#endif
#endif
