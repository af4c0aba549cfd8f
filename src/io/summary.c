/* summary.json: what was run, how it ended, and with which versions, so a
 * result can be reproduced (problem hash, overrides, library versions). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsed/version.h"
#include "nsed_config.h"
#include "writer.h"

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    switch (*p) {
      case '"': fputs("\\\"", f); break;
      case '\\': fputs("\\\\", f); break;
      case '\n': fputs("\\n", f); break;
      case '\r': fputs("\\r", f); break;
      case '\t': fputs("\\t", f); break;
      default:
        if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
  }
  fputc('"', f);
}

/* JSON has no NaN or infinity: those become null. */
static void json_number(FILE *f, double v) {
  if (isfinite(v)) fprintf(f, "%.17g", v);
  else fputs("null", f);
}

static void key(FILE *f, const char *k) {
  fputs(",\n  ", f);
  json_string(f, k);
  fputs(": ", f);
}

static const char *status_word(int status) {
  if (status == NSED_OK) return "ok";
  if (status == NSED_ERR_INTERRUPTED) return "interrupted";
  return "failed";
}

int nsedi_summary_write(const char *dir, const nsed_model *m, const nsedi_summary *s,
                        nsed_error *err) {
  char path[4096];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  FILE *f = fopen(path, "w");
  if (!f) return nsed_error_set(err, NSED_ERR_IO, "cannot create %s: %s", path, strerror(errno));
  const nsed_options *o = nsed_model_options(m);
  const nsed_stats *st = s->stats;
  fputs("{\n  \"problem\": ", f);
  if (s->problem_path) json_string(f, s->problem_path);
  else fputs("null", f);
  key(f, "problem_sha256");
  if (s->sha256) json_string(f, s->sha256);
  else fputs("null", f);
  key(f, "overrides");
  fputc('[', f);
  for (int i = 0; i < s->noverrides; i++) {
    if (i) fputs(", ", f);
    json_string(f, s->overrides[i]);
  }
  fputc(']', f);
  key(f, "status");
  json_string(f, status_word(s->status));
  key(f, "status_code");
  json_string(f, nsed_status_name(s->status));
  key(f, "message");
  json_string(f, s->message);
  key(f, "t_end");
  json_number(f, o->t_end);
  key(f, "t_reached");
  json_number(f, s->t_reached);
  key(f, "bodies");
  fprintf(f, "%d", nsed_model_nbody(m));
  key(f, "body_names");
  fputc('[', f);
  for (int i = 0; i < nsed_model_nbody(m); i++) {
    if (i) fputs(", ", f);
    json_string(f, nsed_model_body_name(m, i));
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
  json_string(f, nsed_integrator_name(o->integrator));
  key(f, "friction_model");
  json_string(f, nsed_friction_model_name(o->friction.model));
  key(f, "friction_sides");
  fprintf(f, "%d", o->friction.sides);
  key(f, "events");
  fprintf(f, "%ld", st ? st->events : 0L);
  key(f, "events_by_kind");
  fputc('{', f);
  for (int k = 0; k < NSED_EVENT_NKIND; k++) {
    if (k) fputs(", ", f);
    json_string(f, nsed_event_kind_name((nsed_event_kind)k));
    fprintf(f, ": %ld", st ? st->events_by_kind[k] : 0L);
  }
  fputc('}', f);
  key(f, "lcp_solves");
  fprintf(f, "%ld", st ? st->lcp_solves : 0L);
  key(f, "rhs_evaluations");
  fprintf(f, "%ld", st ? st->rhs_evals : 0L);
  key(f, "steps");
  fprintf(f, "%ld", st ? st->steps : 0L);
  key(f, "wall_seconds");
  json_number(f, st ? st->wall_seconds : 0.0);
  key(f, "max_constraint_violation");
  json_number(f, st ? st->max_constraint_violation : 0.0);
  key(f, "max_lcp_residual");
  json_number(f, st ? st->max_lcp_residual : 0.0);
  key(f, "energy_initial");
  json_number(f, s->energy_initial);
  key(f, "energy_final");
  json_number(f, s->energy_final);
  /* The energy balance: the change of mechanical energy equals the work of
   * the non-conservative forces; its residual measures the integration. */
  key(f, "work_external");
  json_number(f, st ? st->work_external : 0.0);
  key(f, "work_contacts");
  json_number(f, st ? st->work_contacts : 0.0);
  key(f, "work_joints");
  json_number(f, st ? st->work_joints : 0.0);
  key(f, "energy_balance_error");
  json_number(f, st ? s->energy_final - s->energy_initial - st->work_external -
                           st->work_contacts - st->work_joints
                     : 0.0);
  /* The law monitor: the worst margin of each check, with its tolerance
   * and where it was seen (docs/engine.md, "The law monitor"). */
  key(f, "law_monitor");
  fputc('{', f);
  for (int k = 0; k < NSED_LAW_NCHECK; k++) {
    const nsed_law_margin *lm = st ? &st->law[k] : NULL;
    fputs(k ? ",\n    " : "\n    ", f);
    json_string(f, nsed_law_check_name((nsed_law_check)k));
    fputs(": {\"worst\": ", f);
    json_number(f, lm && lm->count ? lm->worst : NAN);
    fputs(", \"tolerance\": ", f);
    json_number(f, lm ? lm->tolerance : NAN);
    fputs(", \"t\": ", f);
    json_number(f, lm && lm->count ? lm->t : NAN);
    fputs(", \"where\": ", f);
    const char *where = NULL;
    if (lm && lm->count && lm->where >= 0)
      where = k == NSED_LAW_JOINT_DRIFT ? nsed_model_joint_name(m, lm->where)
                                        : nsed_model_contact_name(m, lm->where);
    if (where) json_string(f, where);
    else fputs("null", f);
    fprintf(f, ", \"count\": %ld}", lm ? lm->count : 0L);
  }
  fputs("\n  }", f);
  key(f, "onsets_off_circle");
  fprintf(f, "%ld", st ? st->onsets_off_circle : 0L);
  key(f, "monitor_seconds");
  json_number(f, st ? st->wall_monitor : 0.0);
  key(f, "nsed_version");
  json_string(f, NSED_VERSION_STRING);
  key(f, "sundials_version");
  json_string(f, NSED_SUNDIALS_VERSION);
  key(f, "siconos_version");
  json_string(f, NSED_SICONOS_VERSION);
  fputs("\n}\n", f);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad) return nsed_error_set(err, NSED_ERR_IO, "writing %s failed: %s", path, strerror(errno));
  return NSED_OK;
}
