/* summary.json: what was run, how it ended, and with which versions, so a
 * result can be reproduced (problem hash, overrides, library versions).
 * The text is built in memory by one function, which both the file written
 * by nsed_run_problem and in-memory runs (the Python binding) use. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/version.h"
#include "nsed_config.h"
#include "json.h"
#include "writer.h"

static void key(FILE *f, const char *k) {
  fputs(",\n  ", f);
  nsedi_json_string(f, k);
  fputs(": ", f);
}

static const char *status_word(int status) {
  if (status == NSED_OK) return "ok";
  if (status == NSED_ERR_INTERRUPTED) return "interrupted";
  return "failed";
}

const char *const nsedi_summary_keys[] = {
    "problem", "problem_sha256", "overrides", "status", "status_code", "message", "failed_event_problem", "t_end",
    "t_reached", "bodies", "body_names", "joints", "contacts", "forces", "states", "integrator", "step_controller",
    "friction_model", "friction_sides", "contact_laws", "geometry", "events", "events_by_kind", "lcp_solves",
    "rhs_evaluations", "rhs_reused", "landings", "landings_interpolated", "landing_steps", "samples_interpolated", "steps", "error_test_failures", "projections", "max_projected_gap", "law_kinks", "margins_cleared", "wall_seconds", "max_constraint_violation", "max_lcp_residual",
    "energy_initial", "energy_final", "work_external", "work_contacts", "work_joints",
    "energy_balance_error", "law_monitor", "onsets_off_circle", "monitor_seconds", "max_track_residual",
    "nsed_version",
    "sundials_version", "siconos_version", NULL};

void nsed_free(void *p) { free(p); }

int nsed_summary_json(const nsed_model *m, const nsed_data *d, const nsed_summary_info *info,
                      char **text, nsed_error *err) {
  if (text) *text = NULL;
  if (!m || !d || !text)
    return nsed_error_set(err, NSED_ERR_INPUT, "nsed_summary_json: no model, data or text");
  nsed_summary_info none;
  if (!info) {
    memset(&none, 0, sizeof none);
    info = &none;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  const nsed_options *o = nsed_model_options(m);
  const nsed_stats *st = nsed_data_stats(d);
  double energy_initial = st->energy_initial;
  double energy_final = nsed_data_energy(m, d);
  fputs("{\n  \"problem\": ", f);
  if (info->problem_path) nsedi_json_string(f, info->problem_path);
  else fputs("null", f);
  key(f, "problem_sha256");
  if (info->problem_sha256) nsedi_json_string(f, info->problem_sha256);
  else fputs("null", f);
  key(f, "overrides");
  fputc('[', f);
  for (int i = 0; i < info->noverrides; i++) {
    if (i) fputs(", ", f);
    nsedi_json_string(f, info->overrides[i]);
  }
  fputc(']', f);
  key(f, "status");
  nsedi_json_string(f, status_word(info->status));
  key(f, "status_code");
  nsedi_json_string(f, nsed_status_name(info->status));
  key(f, "message");
  nsedi_json_string(f, info->status == NSED_OK || !info->message ? "" : info->message);
  key(f, "failed_event_problem");
  if (info->failed_problem) nsedi_json_string(f, info->failed_problem);
  else fputs("null", f);
  key(f, "t_end");
  nsedi_json_number(f, o->t_end);
  key(f, "t_reached");
  nsedi_json_number(f, nsed_data_time(d));
  key(f, "bodies");
  fprintf(f, "%d", nsed_model_nbody(m));
  key(f, "body_names");
  fputc('[', f);
  for (int i = 0; i < nsed_model_nbody(m); i++) {
    if (i) fputs(", ", f);
    nsedi_json_string(f, nsed_model_body_name(m, i));
  }
  fputc(']', f);
  key(f, "joints");
  fprintf(f, "%d", nsed_model_njoint(m));
  key(f, "contacts");
  fprintf(f, "%d", nsed_model_ncontact(m));
  key(f, "forces");
  fprintf(f, "%d", nsed_model_nforce(m));
  key(f, "states");
  fprintf(f, "%d", nsed_model_nstate(m));
  key(f, "integrator");
  nsedi_json_string(f, nsed_integrator_name(o->integrator));
  key(f, "step_controller");
  nsedi_json_string(f, o->integrator == NSED_INTEGRATOR_ARKODE_DP5 || o->integrator == NSED_INTEGRATOR_ARKODE_VERNER
                           ? nsed_step_controller_name(o->step_controller)
                           : "cvode");
  key(f, "friction_model");
  nsedi_json_string(f, nsed_friction_model_name(o->friction.model));
  key(f, "friction_sides");
  fprintf(f, "%d", o->friction.sides);
  key(f, "contact_laws");
  nsedi_summary_contact_laws(f, m);
  key(f, "geometry");
  nsedi_summary_geometry(f, m);
  key(f, "events");
  fprintf(f, "%ld", st->events);
  key(f, "events_by_kind");
  fputc('{', f);
  for (int k = 0; k < NSED_EVENT_NKIND; k++) {
    if (k) fputs(", ", f);
    nsedi_json_string(f, nsed_event_kind_name((nsed_event_kind)k));
    fprintf(f, ": %ld", st->events_by_kind[k]);
  }
  fputc('}', f);
  key(f, "lcp_solves");
  fprintf(f, "%ld", st->lcp_solves);
  key(f, "rhs_evaluations");
  fprintf(f, "%ld", st->rhs_evals);
  key(f, "rhs_reused");
  fprintf(f, "%ld", st->rhs_reused);
  key(f, "landings");
  fprintf(f, "%ld", st->landings);
  key(f, "landings_interpolated");
  fprintf(f, "%ld", st->landings_interpolated);
  key(f, "landing_steps");
  fprintf(f, "%ld", st->landing_steps);
  key(f, "samples_interpolated");
  fprintf(f, "%ld", st->samples_interpolated);
  key(f, "steps");
  fprintf(f, "%ld", st->steps);
  key(f, "error_test_failures");
  fprintf(f, "%ld", st->error_test_failures);
  key(f, "projections");
  fprintf(f, "%ld", st->projections);
  key(f, "max_projected_gap");
  nsedi_json_number(f, st->max_projected_gap);
  key(f, "law_kinks");
  fprintf(f, "%ld", st->law_kinks);
  key(f, "margins_cleared");
  fprintf(f, "%ld", st->margins_cleared);
  key(f, "wall_seconds");
  nsedi_json_number(f, st->wall_seconds);
  key(f, "max_constraint_violation");
  nsedi_json_number(f, st->max_constraint_violation);
  key(f, "max_lcp_residual");
  nsedi_json_number(f, st->max_lcp_residual);
  key(f, "energy_initial");
  nsedi_json_number(f, energy_initial);
  key(f, "energy_final");
  nsedi_json_number(f, energy_final);
  /* The energy balance: the change of mechanical energy equals the work of
   * the non-conservative forces; its residual measures the integration. */
  key(f, "work_external");
  nsedi_json_number(f, st->work_external);
  key(f, "work_contacts");
  nsedi_json_number(f, st->work_contacts);
  key(f, "work_joints");
  nsedi_json_number(f, st->work_joints);
  key(f, "energy_balance_error");
  nsedi_json_number(f, energy_final - energy_initial - st->work_external - st->work_contacts -
                     st->work_joints);
  /* The law monitor: the worst margin of each check, with its tolerance
   * and where it was seen (docs/engine.md, "The law monitor"). */
  key(f, "law_monitor");
  fputc('{', f);
  for (int k = 0; k < NSED_LAW_NCHECK; k++) {
    const nsed_law_margin *lm = &st->law[k];
    fputs(k ? ",\n    " : "\n    ", f);
    nsedi_json_string(f, nsed_law_check_name((nsed_law_check)k));
    fputs(": {\"worst\": ", f);
    nsedi_json_number(f, lm->count ? lm->worst : NAN);
    fputs(", \"tolerance\": ", f);
    nsedi_json_number(f, lm->tolerance);
    fputs(", \"t\": ", f);
    nsedi_json_number(f, lm->count ? lm->t : NAN);
    fputs(", \"where\": ", f);
    const char *where = NULL;
    if (lm->count && lm->where >= 0)
      where = k == NSED_LAW_JOINT_DRIFT ? nsed_model_joint_name(m, lm->where)
                                        : nsed_model_contact_name(m, lm->where);
    if (where) nsedi_json_string(f, where);
    else fputs("null", f);
    fprintf(f, ", \"count\": %ld}", lm->count);
  }
  fputs("\n  }", f);
  key(f, "onsets_off_circle");
  fprintf(f, "%ld", st->onsets_off_circle);
  key(f, "monitor_seconds");
  nsedi_json_number(f, st->wall_monitor);
  key(f, "max_track_residual");
  nsedi_json_number(f, st->max_track_residual);
  key(f, "nsed_version");
  nsedi_json_string(f, NSED_VERSION_STRING);
  key(f, "sundials_version");
  nsedi_json_string(f, NSED_SUNDIALS_VERSION);
  key(f, "siconos_version");
  nsedi_json_string(f, NSED_SICONOS_VERSION);
  fputs("\n}\n", f);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad) {
    free(buf);
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  }
  *text = buf;
  return NSED_OK;
}

int nsedi_summary_write(const char *dir, const char *text, nsed_error *err) {
  char path[4096];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  FILE *f = fopen(path, "w");
  if (!f) return nsed_error_set(err, NSED_ERR_IO, "cannot create %s: %s", path, strerror(errno));
  int bad = fputs(text, f) < 0;
  bad |= ferror(f);
  bad |= fclose(f) != 0;
  if (bad) return nsed_error_set(err, NSED_ERR_IO, "writing %s failed: %s", path, strerror(errno));
  return NSED_OK;
}
