/* `nsed sweep`: the sweep file (a grid or a list of overrides of one problem
 * file), the table of summary metrics, and the minimal JSON reading needed to
 * take those metrics out of each point's summary.json (docs/sweeps.md). */
#ifndef NSED_CLI_SWEEP_H
#define NSED_CLI_SWEEP_H

#include <stddef.h>

#include "nsed/status.h"

/* One point: its overrides ("key=value", fixed `set:` ones first) and the
 * value shown in each override column of the table ("" where the point does
 * not set that key). */
typedef struct {
  char **overrides;
  int noverrides;
  char **cells; /* ncolumns, owned */
} nsedi_sweep_point;

typedef struct {
  char *problem;       /* path of the problem file (resolved against the sweep file's folder) */
  char **columns;      /* override keys tabulated (grid keys, or list keys in first-seen order) */
  int ncolumns;
  char **metrics;      /* summary.json keys, dotted for nested ones ("events_by_kind.slip") */
  int nmetrics;
  nsedi_sweep_point *points;
  int npoints;
} nsedi_sweep_spec;

/* Read and check SWEEP.yaml. On error returns NSED_ERR_INPUT (NSED_ERR_IO if
 * unreadable) with every problem in err->message ("FILE:LINE:COL: KEY: ...").
 * Free with nsedi_sweep_spec_free (also after a failure). */
int nsedi_sweep_spec_load(const char *path, nsedi_sweep_spec *s, nsed_error *err);
void nsedi_sweep_spec_free(nsedi_sweep_spec *s);

/* The JSON text of the overrides as summary.json records them
 * (["a=1", "b=2"]), to recognise a point's earlier result on resume. */
char *nsedi_sweep_overrides_json(const nsedi_sweep_point *p);

/* In the JSON text json (an object), find the value at a dotted key path.
 * Returns 1 and the value's span [*begin, *end) if found, 0 if not, -1 if
 * the text is not valid JSON. */
int nsedi_json_find(const char *json, const char *path, const char **begin, const char **end);

/* A found value as table text (malloc'd): strings unescaped, anything else
 * verbatim; NULL when out of memory. */
char *nsedi_json_text(const char *begin, const char *end);

/* Append text to a CSV line (quoted when it holds a comma, a quote or a line
 * break). Returns 0, or -1 when out of memory. */
typedef struct {
  char *buf;
  size_t len, cap;
} nsedi_strbuf;
int nsedi_strbuf_add(nsedi_strbuf *b, const char *text);
int nsedi_strbuf_add_csv(nsedi_strbuf *b, const char *cell);

/* Write text to path atomically (a temporary sibling renamed over it). */
int nsedi_write_atomic(const char *path, const char *text, size_t len, nsed_error *err);

#endif
