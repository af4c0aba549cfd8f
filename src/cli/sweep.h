/* `nsed sweep`: the table of summary metrics, and the minimal JSON reading needed to
 * take those metrics out of each point's summary.json (docs/sweeps.md). */
#ifndef NSED_CLI_SWEEP_H
#define NSED_CLI_SWEEP_H

#include <stddef.h>

#include "nsed/status.h"
#include "nsed/sweep.h"

/* The JSON text of the overrides as summary.json records them
 * (["a=1", "b=2"]), to recognise a point's earlier result on resume. */
char *nsedi_sweep_overrides_json(const nsed_sweep_point *p);

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
