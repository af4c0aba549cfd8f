/* nsed_run_problem: simulate with the result writer (CSV or HDF5) as the
 * observer into a temporary directory, add summary.json, complete the
 * writer's files, then move the directory into place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/io.h"
#include "outdir.h"
#include "step_log.h"
#include "writer.h"

void nsed_run_options_default(nsed_run_options *o) { memset(o, 0, sizeof *o); }

/* Hash the problem text, reading it from problem_path if the caller gave
 * none; *read_text (free it) keeps what was read, for the HDF5 metadata. */
static void hash_problem(const nsed_run_options *o, char hex[65], int *have, char **read_text,
                         size_t *read_len) {
  *have = 0;
  *read_text = NULL;
  *read_len = 0;
  if (o->problem_text) {
    nsed_sha256_hex(o->problem_text, o->problem_len, hex);
    *have = 1;
  } else if (o->problem_path) {
    if (nsed_problem_read_file(o->problem_path, read_text, read_len, NULL) == NSED_OK) {
      nsed_sha256_hex(*read_text, *read_len, hex);
      *have = 1;
    }
  }
}

/* Forward progress to the caller's callback (the observer's ctx is the writer). */
typedef struct {
  nsedi_sink w;
  nsedi_step_log *steps; /* steps.csv, or NULL */
  const nsed_run_options *opt;
} run_ctx;

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  nsedi_sink *w = &((run_ctx *)ctx)->w;
  return w->sample(w->self, m, d, why);
}
static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  nsedi_sink *w = &((run_ctx *)ctx)->w;
  return w->event(w->self, m, d, ev);
}
static int on_step(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_step_info *s) {
  return nsedi_step_log_write(((run_ctx *)ctx)->steps, m, d, s);
}
static void on_progress(void *ctx, double t, double t_end, long events, double wall) {
  const nsed_run_options *o = ((run_ctx *)ctx)->opt;
  if (o->progress) o->progress(o->progress_ctx, t, t_end, events, wall);
}

/* x in the fewest digits that read back as x (out: 32 bytes). */
static void shortest(double x, char *out) {
  for (int digits = 1; digits <= 17; digits++) {
    snprintf(out, 32, "%.*g", digits, x);
    if (strtod(out, NULL) == x) return;
  }
}

/* The event problem the run could not solve, into dir's
 * NSED_FAILED_PROBLEM_FILE with what names it (time, problem file, the
 * contacts of its row blocks, the message) as comments; *written 1 if a
 * file was written. */
static int write_failed_problem(const nsed_model *m, const nsed_data *d, const char *dir,
                                const nsed_run_options *opt, const char *message, int *written,
                                nsed_error *err) {
  nsed_contact_problem p;
  int impact = 0;
  *written = 0;
  if (!nsed_data_failed_problem(d, &p, &impact)) return NSED_OK;
  size_t cap = 4096 + 80 * (size_t)p.nc, used = 0;
  char *comment = malloc(cap), *path = malloc(strlen(dir) + sizeof NSED_FAILED_PROBLEM_FILE + 2);
  if (!comment || !path) {
    free(comment);
    free(path);
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory for the failed event problem");
  }
  used += (size_t)snprintf(comment + used, cap - used,
                           "The %s problem nsed could not solve at t = %.17g\nproblem: %s\n%s\n"
                           "contacts (row blocks in order):",
                           impact ? "impact" : "acceleration-level event", nsed_data_time(d),
                           opt && opt->problem_path ? opt->problem_path : "(in memory)",
                           message ? message : "");
  for (int i = 0; i < p.nc && used + 80 < cap; i++) {
    int c = nsed_data_failed_problem_contact(d, i);
    used += (size_t)snprintf(comment + used, cap - used, "%s %s", i ? "," : "",
                             c >= 0 ? nsed_model_contact_name(m, c) : "?");
  }
  const nsed_complementarity_settings *fs = &nsed_model_options(m)->friction;
  char tol[32], cone_tol[32];
  shortest(fs->tol, tol);
  shortest(fs->cone_tol, cone_tol);
  static const char *const models[] = {"face", "vertex", "cone"};
  static const char *const paths[] = {"auto", "siconos", "nsed", "enum", "milp"};
  snprintf(comment + used, cap - used,
           "\nsolve it again with the run's settings (docs/complementarity.md):\n"
           "nsed cp --model %s --sides %d --path %s --tol %s --max-pivots %d --cone-tol %s FILE",
           models[fs->model >= 0 && fs->model <= 2 ? fs->model : 0], fs->sides,
           paths[fs->path >= 0 && fs->path <= 4 ? fs->path : 0], tol, fs->max_pivots, cone_tol);
  sprintf(path, "%s/%s", dir, NSED_FAILED_PROBLEM_FILE);
  int rc = nsed_data_failed_problem_write(d, path, comment, err);
  free(comment);
  free(path);
  *written = rc == NSED_OK;
  return rc;
}

int nsed_run_problem(const nsed_model *m, const char *outdir, const nsed_run_options *opt,
                     nsed_run_result *result, nsed_error *err) {
  nsed_run_result scratch;
  if (!result) result = &scratch;
  memset(result, 0, sizeof *result);
  nsed_run_options defaults;
  nsed_run_options_default(&defaults);
  if (!opt) opt = &defaults;
  if (!m) return nsed_error_set(err, NSED_ERR_INPUT, "nsed_run_problem: no model");
  /* Refuse an unavailable format before anything is created or simulated. */
  if (!nsed_format_available(opt->format)) {
    nsedi_sink none;
    return nsedi_sink_open(&none, opt->format, outdir, m, err);
  }
  /* An impossible initial state is bad input: refused before anything is
   * written. */
  nsed_data *d = NULL;
  int rc = nsed_data_create(m, &d, err);
  if (rc == NSED_OK) rc = nsed_data_check_initial_state(m, d, NULL, err);
  if (rc) {
    nsed_data_free(&d);
    return rc;
  }
  char *tmp = NULL;
  int lock = -1;
  rc = nsedi_outdir_begin(outdir, &tmp, &lock, err);
  if (rc) {
    nsed_data_free(&d);
    return rc;
  }

  run_ctx ctx;
  ctx.opt = opt;
  ctx.steps = NULL;
  nsedi_step_log steps;
  memset(&steps, 0, sizeof steps);
  rc = nsedi_sink_open(&ctx.w, opt->format, tmp, m, err);
  if (rc == NSED_OK && nsed_model_options(m)->output_steps) rc = nsedi_step_log_open(&steps, tmp, m, err);
  if (rc != NSED_OK) {
    nsed_data_free(&d);
    nsedi_step_log_close(&steps, NULL);
    if (ctx.w.self) ctx.w.close(ctx.w.self, NULL, NULL);
    nsedi_remove_tree(tmp);
    nsedi_outdir_release(lock);
    free(tmp);
    return rc;
  }

  nsed_observer obs;
  memset(&obs, 0, sizeof obs);
  obs.ctx = &ctx;
  obs.sample = on_sample;
  obs.event = on_event;
  obs.progress = on_progress;
  obs.interrupt = opt->interrupt;
  if (steps.f) {
    obs.step = on_step;
    ctx.steps = &steps;
  }
  nsed_error sim_err;
  nsed_error_clear(&sim_err);
  int sim_rc = nsed_simulate(m, d, &obs, &sim_err);
  result->status = sim_rc;
  result->t_reached = nsed_data_time(d);
  result->events = nsed_data_stats(d)->events;
  result->wall_seconds = nsed_data_stats(d)->wall_seconds;

  /* summary.json first: the HDF5 writer stores its text in results.h5. A
   * write error of either means no result (the directory is removed). */
  nsed_error io_err;
  nsed_error_clear(&io_err);
  char hex[65];
  int have_hash;
  char *read_text;
  size_t read_len;
  hash_problem(opt, hex, &have_hash, &read_text, &read_len);
  int failed_problem = 0, io_rc = NSED_OK;
  if (sim_rc != NSED_OK && sim_rc != NSED_ERR_INTERRUPTED)
    io_rc = write_failed_problem(m, d, tmp, opt, sim_err.message, &failed_problem, &io_err);
  nsed_summary_info info;
  memset(&info, 0, sizeof info);
  info.failed_problem = failed_problem ? NSED_FAILED_PROBLEM_FILE : NULL;
  info.problem_path = opt->problem_path;
  info.problem_sha256 = have_hash ? hex : NULL;
  info.overrides = opt->overrides;
  info.noverrides = opt->noverrides;
  info.status = sim_rc;
  info.message = sim_err.message;
  char *summary_text = NULL;
  if (io_rc == NSED_OK) io_rc = nsed_summary_json(m, d, &info, &summary_text, &io_err);
  nsed_data_free(&d);
  if (io_rc == NSED_OK) io_rc = nsedi_summary_write(tmp, summary_text, &io_err);
  nsedi_meta meta;
  memset(&meta, 0, sizeof meta);
  meta.problem_path = opt->problem_path;
  meta.problem_text = opt->problem_text ? opt->problem_text : read_text;
  meta.problem_len = opt->problem_text ? opt->problem_len : read_len;
  meta.sha256 = info.problem_sha256;
  meta.overrides = opt->overrides;
  meta.noverrides = opt->noverrides;
  meta.status = sim_rc;
  meta.summary_json = summary_text;
  nsed_error close_err;
  nsed_error_clear(&close_err);
  int close_rc = ctx.w.close(ctx.w.self, io_rc == NSED_OK ? &meta : NULL, &close_err);
  if (close_rc == NSED_OK) close_rc = nsedi_step_log_close(&steps, &close_err);
  else nsedi_step_log_close(&steps, NULL);
  free(summary_text);
  free(read_text);
  if (io_rc == NSED_OK && close_rc != NSED_OK) {
    io_rc = close_rc;
    io_err = close_err;
  }
  if (io_rc == NSED_OK) io_rc = nsedi_outdir_commit(outdir, tmp, &io_err);
  if (io_rc != NSED_OK) {
    /* Without complete files there is no result: leave nothing behind. */
    nsedi_remove_tree(tmp);
    nsedi_outdir_release(lock);
    free(tmp);
    return nsed_error_set(err, io_rc, "%s", io_err.message);
  }
  nsedi_outdir_release(lock);
  free(tmp);
  result->written = 1;
  result->failed_problem = failed_problem;
  if (sim_rc != NSED_OK) return nsed_error_set(err, sim_rc, "%s", sim_err.message);
  nsed_error_clear(err);
  return NSED_OK;
}
