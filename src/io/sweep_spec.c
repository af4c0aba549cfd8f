/* The sweep file: problem, grid or list, set, metrics (docs/sweeps.md). It
 * is read with the problem reader's YAML tree, so its messages carry
 * file:line:column like a problem file's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "nsed/io.h"
#include "nsed/simulate.h"
#include "nsed/sweep.h"
#include "yread.h"
#include "writer.h"
#include "ytree.h"

static const char *const default_metrics[] = {"events", "t_reached", "energy_balance_error",
                                              "wall_seconds"};

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

/* A node as YAML flow text, which is what an override's value is parsed as. */
static void flow(FILE *f, const nsedi_ynode *n) {
  if (n->kind == NSEDI_Y_SCALAR) {
    if (n->plain) {
      fputs(n->text, f);
      return;
    }
    fputc('"', f);
    for (const char *p = n->text; *p; p++) {
      if (*p == '"' || *p == '\\') fputc('\\', f);
      if (*p == '\n') fputs("\\n", f);
      else fputc(*p, f);
    }
    fputc('"', f);
    return;
  }
  int map = n->kind == NSEDI_Y_MAP;
  fputc(map ? '{' : '[', f);
  for (int i = 0; i < n->n; i++) {
    if (i) fputs(", ", f);
    if (map) {
      flow(f, n->keys[i]);
      fputs(": ", f);
    }
    flow(f, n->items[i]);
  }
  fputc(map ? '}' : ']', f);
}

/* prefix (may be NULL) followed by the node's flow text, malloc'd; NULL when
 * out of memory. */
static char *flow_text(const char *prefix, const nsedi_ynode *n) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  if (prefix) fputs(prefix, f);
  flow(f, n);
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* The value's text in the table: a scalar as written, a collection as flow. */
static char *cell_text(const nsedi_ynode *n) {
  return n->kind == NSEDI_Y_SCALAR ? xstrdup(n->text) : flow_text(NULL, n);
}

static char *override_text(const char *key, const nsedi_ynode *value) {
  size_t n = strlen(key) + 2;
  char *prefix = malloc(n);
  if (!prefix) return NULL;
  snprintf(prefix, n, "%s=", key);
  char *t = flow_text(prefix, value);
  free(prefix);
  return t;
}

static int column_of(nsed_sweep_spec *s, const char *key) {
  for (int i = 0; i < s->ncolumns; i++)
    if (!strcmp(s->columns[i], key)) return i;
  return -1;
}

static int add_column(nsed_sweep_spec *s, const char *key) {
  int c = column_of(s, key);
  if (c >= 0) return c;
  char **p = realloc(s->columns, (size_t)(s->ncolumns + 1) * sizeof *p);
  if (!p) return -1;
  s->columns = p;
  if (!(s->columns[s->ncolumns] = xstrdup(key))) return -1;
  return s->ncolumns++;
}

/* Start every point with the fixed overrides of `set:`. */
static int init_points(nsed_sweep_spec *s, int npoints, const nsedi_ynode *set, int per_point) {
  s->points = calloc((size_t)npoints, sizeof *s->points);
  if (!s->points) return -1;
  s->npoints = npoints;
  int nset = set ? set->n : 0;
  for (int i = 0; i < npoints; i++) {
    nsed_sweep_point *p = &s->points[i];
    p->overrides = calloc((size_t)(nset + per_point), sizeof *p->overrides);
    if (!p->overrides) return -1;
    for (int k = 0; k < nset; k++)
      if (!(p->overrides[p->noverrides++] = override_text(set->keys[k]->text, set->items[k])))
        return -1;
  }
  return 0;
}

static int fill_cells(nsed_sweep_spec *s) {
  for (int i = 0; i < s->npoints; i++) {
    nsed_sweep_point *p = &s->points[i];
    p->cells = calloc((size_t)s->ncolumns + 1, sizeof *p->cells);
    if (!p->cells) return -1;
  }
  return 0;
}

static int set_cell(nsed_sweep_point *p, int col, const nsedi_ynode *value) {
  free(p->cells[col]);
  return (p->cells[col] = cell_text(value)) ? 0 : -1;
}

/* grid: {key: [v...], ...}: the cartesian product, the first key varying
 * slowest (as nested loops written in the file's order). */
static int read_grid(nsed_sweep_spec *s, const nsedi_ynode *g, const nsedi_ynode *set,
                     nsedi_diag *d) {
  if (g->kind != NSEDI_Y_MAP || g->n == 0)
    return nsedi_diag_add(d, g, "grid", "expected a mapping of override keys to lists of values");
  if (g->n > 64) return nsedi_diag_add(d, g, "grid", "more than 64 keys");
  long total = 1;
  int bad = 0;
  for (int k = 0; k < g->n; k++) {
    char path[256];
    nsedi_path_key(path, sizeof path, "grid", g->keys[k]->text);
    if (g->items[k]->kind != NSEDI_Y_SEQ || g->items[k]->n == 0) {
      bad |= nsedi_diag_add(d, g->items[k], path, "expected a non-empty list of values");
      continue;
    }
    total *= g->items[k]->n;
    if (total > 10000000) return nsedi_diag_add(d, g, "grid", "more than 10^7 points");
  }
  if (bad) return -1;
  if (init_points(s, (int)total, set, g->n)) return -2;
  for (int k = 0; k < g->n; k++)
    if (add_column(s, g->keys[k]->text) < 0) return -2;
  if (fill_cells(s)) return -2;
  for (int i = 0; i < s->npoints; i++) {
    long rest = i;
    int idx[64];
    for (int k = g->n - 1; k >= 0; k--) {
      idx[k] = (int)(rest % g->items[k]->n);
      rest /= g->items[k]->n;
    }
    nsed_sweep_point *p = &s->points[i];
    for (int k = 0; k < g->n; k++) {
      const nsedi_ynode *v = g->items[k]->items[idx[k]];
      if (!(p->overrides[p->noverrides++] = override_text(g->keys[k]->text, v))) return -2;
      if (set_cell(p, k, v)) return -2;
    }
  }
  return 0;
}

/* list: [{key: value, ...}, ...]: one point per item. */
static int read_list(nsed_sweep_spec *s, const nsedi_ynode *l, const nsedi_ynode *set,
                     nsedi_diag *d) {
  if (l->kind != NSEDI_Y_SEQ || l->n == 0)
    return nsedi_diag_add(d, l, "list", "expected a non-empty list of mappings (key: value)");
  int most = 0, bad = 0;
  for (int i = 0; i < l->n; i++) {
    char path[64];
    nsedi_path_index(path, sizeof path, "list", i);
    if (l->items[i]->kind != NSEDI_Y_MAP) {
      bad |= nsedi_diag_add(d, l->items[i], path, "expected a mapping of override keys to values");
      continue;
    }
    if (l->items[i]->n > most) most = l->items[i]->n;
    for (int k = 0; k < l->items[i]->n; k++)
      if (add_column(s, l->items[i]->keys[k]->text) < 0) return -2;
  }
  if (bad) return -1;
  if (init_points(s, l->n, set, most) || fill_cells(s)) return -2;
  for (int i = 0; i < l->n; i++) {
    const nsedi_ynode *m = l->items[i];
    nsed_sweep_point *p = &s->points[i];
    for (int k = 0; k < m->n; k++) {
      if (!(p->overrides[p->noverrides++] = override_text(m->keys[k]->text, m->items[k])))
        return -2;
      if (set_cell(p, column_of(s, m->keys[k]->text), m->items[k])) return -2;
    }
  }
  return 0;
}

/* A summary.json key: a top-level one, events_by_kind.KIND or
 * law_monitor.CHECK.FIELD. */
static int known_metric(const char *m) {
  for (int i = 0; nsedi_summary_keys[i]; i++)
    if (!strcmp(m, nsedi_summary_keys[i])) return 1;
  if (!strncmp(m, "events_by_kind.", 15))
    for (int k = 0; k < NSED_EVENT_NKIND; k++)
      if (!strcmp(m + 15, nsed_event_kind_name((nsed_event_kind)k))) return 1;
  if (!strncmp(m, "law_monitor.", 12)) {
    static const char *const fields[] = {"worst", "tolerance", "t", "where", "count"};
    for (int k = 0; k < NSED_LAW_NCHECK; k++) {
      const char *name = nsed_law_check_name((nsed_law_check)k);
      size_t n = strlen(name);
      if (strncmp(m + 12, name, n) || m[12 + n] != '.') continue;
      for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        if (!strcmp(m + 13 + n, fields[f])) return 1;
    }
  }
  return 0;
}

static int read_metrics(nsed_sweep_spec *s, const nsedi_ynode *n, nsedi_diag *d) {
  int count = n ? n->n : (int)(sizeof default_metrics / sizeof default_metrics[0]);
  if (n && n->kind != NSEDI_Y_SEQ)
    return nsedi_diag_add(d, n, "metrics", "expected a list of summary.json keys");
  s->metrics = calloc((size_t)count + 1, sizeof *s->metrics);
  if (!s->metrics) return -2;
  int bad = 0;
  for (int i = 0; i < count; i++) {
    const char *m = default_metrics[i % 4];
    if (n) {
      char path[64];
      nsedi_path_index(path, sizeof path, "metrics", i);
      if (n->items[i]->kind != NSEDI_Y_SCALAR) {
        bad |= nsedi_diag_add(d, n->items[i], path, "expected a summary.json key");
        continue;
      }
      m = n->items[i]->text;
      if (!known_metric(m)) {
        const char *hint = nsedi_suggest(m, nsedi_summary_keys);
        if (hint)
          bad |= nsedi_diag_add(d, n->items[i], path,
                                "'%s' is not a summary.json key (did you mean '%s'?)", m, hint);
        else
          bad |= nsedi_diag_add(d, n->items[i], path,
                                "'%s' is not a summary.json key (docs/sweeps.md lists them)", m);
        continue;
      }
    }
    if (!(s->metrics[s->nmetrics++] = xstrdup(m))) return -2;
  }
  return bad ? -1 : 0;
}

/* problem: relative to the sweep file's folder, so a sweep file can be run
 * from anywhere. */
static char *resolve(const char *sweep_path, const char *problem) {
  const char *slash = strrchr(sweep_path, '/');
  if (problem[0] == '/' || !slash) return xstrdup(problem);
  size_t dl = (size_t)(slash - sweep_path), n = dl + 1 + strlen(problem) + 1;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%.*s/%s", (int)dl, sweep_path, problem);
  return p;
}

static int read_root(nsed_sweep_spec *s, const char *path, const nsedi_ynode *root,
                     nsedi_diag *d) {
  static const char *const allowed[] = {"problem", "grid", "list", "set", "metrics", NULL};
  if (!root) return nsedi_diag_add_at(d, path, 0, 0, NULL, "empty sweep file");
  /* Unknown keys are reported and reading goes on, so one run lists every fix. */
  int unknown = nsedi_check_map(d, root, "", allowed);
  if (root->kind != NSEDI_Y_MAP) return -1;
  if (nsedi_require(d, root, "", "problem")) return -1;
  const nsedi_ynode *prob = nsedi_ymap_get(root, "problem");
  if (prob->kind != NSEDI_Y_SCALAR || !prob->text[0])
    return nsedi_diag_add(d, prob, "problem", "expected the path of a problem file");
  const nsedi_ynode *grid = nsedi_ymap_get(root, "grid"), *list = nsedi_ymap_get(root, "list");
  const nsedi_ynode *set = nsedi_ymap_get(root, "set");
  if (!!grid == !!list)
    return nsedi_diag_add(d, root, "", "give exactly one of 'grid' (a cartesian product) and "
                                       "'list' (one point per item)");
  if (set && set->kind != NSEDI_Y_MAP)
    return nsedi_diag_add(d, set, "set", "expected a mapping of override keys to values");
  if (!(s->problem = resolve(path, prob->text))) return -2;
  int rc = read_metrics(s, nsedi_ymap_get(root, "metrics"), d);
  if (rc == -2) return rc;
  int rc2 = grid ? read_grid(s, grid, set, d) : read_list(s, list, set, d);
  return rc2 ? rc2 : rc ? rc : unknown;
}

int nsed_sweep_spec_load(const char *path, nsed_sweep_spec *s, nsed_error *err) {
  memset(s, 0, sizeof *s);
  char *text = NULL;
  size_t len = 0;
  int rc = nsed_problem_read_file(path, &text, &len, err);
  if (rc) return rc;
  nsedi_diag d;
  nsedi_diag_init(&d);
  nsedi_ynode *root = NULL;
  rc = nsedi_yparse(text, len, path, 1, &root, &d);
  if (rc == 0) rc = read_root(s, path, root, &d);
  nsedi_yfree(root);
  free(text);
  if (rc == -2) return nsed_error_set(err, NSED_ERR_NOMEM, "%s: out of memory", path);
  if (rc || d.count) return nsedi_diag_to_error(&d, NSED_ERR_INPUT, err);
  return NSED_OK;
}

void nsed_sweep_spec_free(nsed_sweep_spec *s) {
  for (int i = 0; i < s->npoints; i++) {
    nsed_sweep_point *p = &s->points[i];
    for (int k = 0; k < p->noverrides; k++) free(p->overrides[k]);
    if (p->cells)
      for (int k = 0; k < s->ncolumns; k++) free(p->cells[k]);
    free(p->overrides);
    free(p->cells);
  }
  for (int i = 0; i < s->ncolumns; i++) free(s->columns[i]);
  for (int i = 0; i < s->nmetrics; i++) free(s->metrics[i]);
  free(s->points);
  free(s->columns);
  free(s->metrics);
  free(s->problem);
  memset(s, 0, sizeof *s);
}
