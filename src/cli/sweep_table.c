/* A sweep's points' results and its table, sweep.csv. Every row comes from
 * the point's summary.json, never from memory, so a table merged from many
 * processes (MPI ranks, job-array tasks, a resumed run) is byte-identical to
 * one written by a single process. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nsed/io.h"
#include "sweep_run.h"

double nsedi_sweep_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

char *nsed_sweep_point_dir(const nsedi_sweep_run *r, int i) {
  size_t n = strlen(r->outdir) + 32;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/points/%d", r->outdir, i);
  return p;
}

/* The string value of key in json (malloc'd), or NULL. */
static char *json_get(const char *json, const char *key) {
  const char *b, *e;
  if (nsedi_json_find(json, key, &b, &e) != 1) return NULL;
  return nsedi_json_text(b, e);
}

/* A summary.json of another problem or other overrides would put the wrong
 * numbers under this point's values: refuse rather than tabulate it. */
static int check_same(const nsedi_sweep_run *r, int i, const char *path, const char *json,
                      nsed_error *err) {
  const char *b, *e;
  char *want = nsedi_sweep_overrides_json(&r->spec.points[i]);
  if (!want) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  int same = nsedi_json_find(json, "overrides", &b, &e) == 1 &&
             (size_t)(e - b) == strlen(want) && !memcmp(b, want, (size_t)(e - b));
  free(want);
  char *sha = json_get(json, "problem_sha256");
  int same_problem = sha && !strcmp(sha, r->sha256);
  free(sha);
  if (!same || !same_problem)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: this result was made from %s than point %d of the sweep; "
                          "use another -o DIR (or remove %s/points) to start afresh",
                          path, same ? "another problem file" : "other overrides", i, r->outdir);
  return NSED_OK;
}

static int make_row(nsedi_sweep_run *r, int i, const char *json, const char *status) {
  nsedi_strbuf b = {0};
  int bad = nsedi_strbuf_add_csv(&b, status);
  for (int k = 0; k < r->spec.nmetrics && !bad; k++) {
    const char *vb, *ve;
    char *v = NULL;
    if (nsedi_json_find(json, r->spec.metrics[k], &vb, &ve) == 1 &&
        !(v = nsedi_json_text(vb, ve)))
      bad = 1;
    bad = bad || nsedi_strbuf_add(&b, ",") || nsedi_strbuf_add_csv(&b, v ? v : "");
    free(v);
  }
  if (bad) {
    free(b.buf);
    return -1;
  }
  free(r->row[i]);
  r->row[i] = b.buf;
  return 0;
}

int nsedi_sweep_refresh(nsedi_sweep_run *r, int i, nsed_error *err) {
  if (r->state[i] == NSEDI_PT_DONE) return NSED_OK;
  char *dir = nsed_sweep_point_dir(r, i);
  if (!dir) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  size_t n = strlen(dir) + 16;
  char *path = malloc(n);
  if (!path) {
    free(dir);
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  }
  snprintf(path, n, "%s/summary.json", dir);
  free(dir);
  int rc = NSED_OK;
  char *json = NULL;
  size_t len = 0;
  /* Absent (not run yet, or being replaced this instant): nothing to read. */
  if (access(path, F_OK) != 0 || nsed_problem_read_file(path, &json, &len, NULL) != NSED_OK) {
    free(path);
    return NSED_OK;
  }
  rc = check_same(r, i, path, json, err);
  if (rc == NSED_OK) {
    char *status = json_get(json, "status");
    if (!status) {
      rc = nsed_error_set(err, NSED_ERR_INPUT, "%s: no \"status\" (not an nsed summary?)", path);
    } else if (!strcmp(status, "interrupted")) {
      if (r->state[i] != NSEDI_PT_RUNNING) r->state[i] = NSEDI_PT_INTERRUPTED;
    } else if (make_row(r, i, json, status)) {
      rc = nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
    } else {
      r->state[i] = NSEDI_PT_DONE;
    }
    free(status);
  }
  free(json);
  free(path);
  return rc;
}

static const char *state_word(nsedi_point_state s) {
  switch (s) {
    case NSEDI_PT_RUNNING: return "running";
    case NSEDI_PT_INTERRUPTED: return "interrupted";
    case NSEDI_PT_ERROR: return "error";
    default: return "pending";
  }
}

int nsedi_sweep_table(nsedi_sweep_run *r, int rescan, nsed_error *err) {
  const nsed_sweep_spec *s = &r->spec;
  nsedi_strbuf b = {0};
  int bad = nsedi_strbuf_add(&b, "point");
  for (int c = 0; c < s->ncolumns && !bad; c++)
    bad = nsedi_strbuf_add(&b, ",") || nsedi_strbuf_add_csv(&b, s->columns[c]);
  bad = bad || nsedi_strbuf_add(&b, ",status");
  for (int k = 0; k < s->nmetrics && !bad; k++)
    bad = nsedi_strbuf_add(&b, ",") || nsedi_strbuf_add_csv(&b, s->metrics[k]);
  bad = bad || nsedi_strbuf_add(&b, "\n");
  for (int i = 0; i < s->npoints && !bad; i++) {
    if (rescan && r->state[i] != NSEDI_PT_DONE) {
      int rc = nsedi_sweep_refresh(r, i, err);
      if (rc) {
        free(b.buf);
        return rc;
      }
    }
    char idx[32];
    snprintf(idx, sizeof idx, "%d", i);
    bad = nsedi_strbuf_add(&b, idx);
    for (int c = 0; c < s->ncolumns && !bad; c++)
      bad = nsedi_strbuf_add(&b, ",") || nsedi_strbuf_add_csv(&b, s->points[i].cells[c]
                                                                     ? s->points[i].cells[c]
                                                                     : "");
    bad = bad || nsedi_strbuf_add(&b, ",");
    if (r->state[i] == NSEDI_PT_DONE) {
      bad = bad || nsedi_strbuf_add(&b, r->row[i]);
    } else {
      bad = bad || nsedi_strbuf_add(&b, state_word(r->state[i]));
      for (int k = 0; k < s->nmetrics && !bad; k++) bad = nsedi_strbuf_add(&b, ",");
    }
    bad = bad || nsedi_strbuf_add(&b, "\n");
  }
  if (bad) {
    free(b.buf);
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  }
  size_t n = strlen(r->outdir) + 16;
  char *path = malloc(n);
  int rc = path ? NSED_OK : nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  if (path) {
    snprintf(path, n, "%s/sweep.csv", r->outdir);
    rc = nsedi_write_atomic(path, b.buf, b.len, err);
  }
  free(path);
  free(b.buf);
  r->last_table = nsedi_sweep_now();
  return rc;
}
