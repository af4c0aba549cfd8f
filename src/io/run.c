/* nsed_run_problem: simulate with the CSV observer into a temporary
 * directory, add summary.json, then move the directory into place. */
#include <stdlib.h>
#include <string.h>

#include "nsed/io.h"
#include "outdir.h"
#include "writer.h"

void nsed_run_options_default(nsed_run_options *o) { memset(o, 0, sizeof *o); }

static void hash_problem(const nsed_run_options *o, char hex[65], int *have) {
  *have = 0;
  if (o->problem_text) {
    nsed_sha256_hex(o->problem_text, o->problem_len, hex);
    *have = 1;
  } else if (o->problem_path) {
    char *text = NULL;
    size_t len = 0;
    if (nsed_problem_read_file(o->problem_path, &text, &len, NULL) == NSED_OK) {
      nsed_sha256_hex(text, len, hex);
      *have = 1;
    }
    free(text);
  }
}

/* Forward progress to the caller's callback (the observer's ctx is the writer). */
typedef struct {
  nsedi_writer w;
  const nsed_run_options *opt;
} run_ctx;

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  return nsedi_writer_sample(&((run_ctx *)ctx)->w, m, d, why);
}
static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  return nsedi_writer_event(&((run_ctx *)ctx)->w, m, d, ev);
}
static void on_progress(void *ctx, double t, double t_end, long events, double wall) {
  const nsed_run_options *o = ((run_ctx *)ctx)->opt;
  if (o->progress) o->progress(o->progress_ctx, t, t_end, events, wall);
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
  char *tmp = NULL;
  int rc = nsedi_outdir_begin(outdir, &tmp, err);
  if (rc) return rc;

  run_ctx ctx;
  ctx.opt = opt;
  nsed_data *d = NULL;
  rc = nsedi_writer_open(&ctx.w, tmp, m, err);
  if (rc == NSED_OK) rc = nsed_data_create(m, &d, err);
  if (rc != NSED_OK) {
    nsed_error e;
    nsedi_writer_close(&ctx.w, &e);
    nsedi_remove_tree(tmp);
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
  nsed_error sim_err;
  nsed_error_clear(&sim_err);
  int sim_rc = nsed_simulate(m, d, &obs, &sim_err);
  result->status = sim_rc;
  result->t_reached = nsed_data_time(d);
  result->events = nsed_data_stats(d)->events;
  result->wall_seconds = nsed_data_stats(d)->wall_seconds;

  nsed_error io_err;
  nsed_error_clear(&io_err);
  int io_rc = nsedi_writer_close(&ctx.w, &io_err);
  if (io_rc == NSED_OK) {
    char hex[65];
    int have_hash;
    hash_problem(opt, hex, &have_hash);
    nsedi_summary s;
    memset(&s, 0, sizeof s);
    s.problem_path = opt->problem_path;
    s.sha256 = have_hash ? hex : NULL;
    s.overrides = opt->overrides;
    s.noverrides = opt->noverrides;
    s.status = sim_rc;
    s.message = sim_rc == NSED_OK ? "" : sim_err.message;
    s.t_reached = nsed_data_time(d);
    s.energy_initial = nsed_data_stats(d)->energy_initial;
    s.energy_final = nsed_data_energy(m, d);
    s.stats = nsed_data_stats(d);
    io_rc = nsedi_summary_write(tmp, m, &s, &io_err);
  }
  nsed_data_free(&d);
  if (io_rc == NSED_OK) io_rc = nsedi_outdir_commit(outdir, tmp, &io_err);
  if (io_rc != NSED_OK) {
    /* Without complete files there is no result: leave nothing behind. */
    nsedi_remove_tree(tmp);
    free(tmp);
    return nsed_error_set(err, io_rc, "%s", io_err.message);
  }
  free(tmp);
  result->written = 1;
  if (sim_rc != NSED_OK) return nsed_error_set(err, sim_rc, "%s", sim_err.message);
  nsed_error_clear(err);
  return NSED_OK;
}
