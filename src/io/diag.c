#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ytree.h"

void nsedi_diag_init(nsedi_diag *d) {
  d->text[0] = '\0';
  d->used = 0;
  d->count = 0;
  d->dropped = 0;
}

static int diag_vadd(nsedi_diag *d, const char *src, int line, int col, const char *path,
                     const char *fmt, va_list ap) {
  char msg[512];
  char head[300];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (line > 0)
    snprintf(head, sizeof head, "%s:%d:%d: ", src ? src : "<input>", line, col);
  else
    snprintf(head, sizeof head, "%s: ", src ? src : "<input>");
  char line_buf[900];
  int n = snprintf(line_buf, sizeof line_buf, "%s%s%s%s", head, path && *path ? path : "",
                   path && *path ? ": " : "", msg);
  if (n < 0) n = 0;
  if ((size_t)n >= sizeof line_buf) n = (int)sizeof line_buf - 1;
  d->count++;
  size_t need = (size_t)n + (d->used ? 1 : 0);
  if (d->used + need + 1 > sizeof d->text) {
    d->dropped++;
    return -1;
  }
  if (d->used) d->text[d->used++] = '\n';
  memcpy(d->text + d->used, line_buf, (size_t)n);
  d->used += (size_t)n;
  d->text[d->used] = '\0';
  return -1;
}

int nsedi_diag_add(nsedi_diag *d, const nsedi_ynode *at, const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vadd(d, at ? at->src : NULL, at ? at->line : 0, at ? at->col : 0, path, fmt, ap);
  va_end(ap);
  return -1;
}

int nsedi_diag_add_at(nsedi_diag *d, const char *src, int line, int col, const char *path,
                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vadd(d, src, line, col, path, fmt, ap);
  va_end(ap);
  return -1;
}

int nsedi_diag_to_error(const nsedi_diag *d, int status, nsed_error *err) {
  if (d->dropped)
    return nsed_error_set(err, status, "%s\n(%d more problem%s not shown)", d->text, d->dropped,
                          d->dropped == 1 ? "" : "s");
  return nsed_error_set(err, status, "%s", d->text);
}

int nsedi_edit_distance(const char *a, const char *b) {
  /* Keys and names are short; longer strings are clipped, which only
   * weakens a suggestion. */
  enum { MAXL = 64 };
  size_t la = strlen(a), lb = strlen(b);
  if (la > MAXL) la = MAXL;
  if (lb > MAXL) lb = MAXL;
  int prev[MAXL + 1], cur[MAXL + 1];
  for (size_t j = 0; j <= lb; j++) prev[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    cur[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      int del = prev[j] + 1, ins = cur[j - 1] + 1;
      int best = sub < del ? sub : del;
      cur[j] = best < ins ? best : ins;
    }
    memcpy(prev, cur, (lb + 1) * sizeof prev[0]);
  }
  return prev[lb];
}

const char *nsedi_suggest(const char *word, const char *const *candidates) {
  const char *best = NULL;
  int best_d = 1 << 30;
  for (const char *const *c = candidates; c && *c; c++) {
    int dist = nsedi_edit_distance(word, *c);
    if (dist < best_d) {
      best_d = dist;
      best = *c;
    }
  }
  int len = (int)strlen(word);
  int limit = len / 3 > 1 ? len / 3 : 1;
  if (len <= 2) limit = 1;
  return best && best_d <= limit && best_d > 0 ? best : NULL;
}
