/* The names of the simulate layer's enums, as results.csv, summary.json and
 * messages write them, and of the state vector's entries (the step log). */
#include <stdio.h>

#include "nsed/simulate.h"
#include "sim_impl.h"

const char *nsed_mode_name(nsed_mode mode) {
  static const char *const names[] = {"open", "stick", "slip"};
  return (unsigned)mode < 3 ? names[mode] : "unknown";
}

const char *nsed_event_kind_name(nsed_event_kind kind) {
  static const char *const names[NSED_EVENT_NKIND] = {"stick", "slip", "close", "open",
                                                       "impact", "zeno", "time", "failure",
                                                       "spin_stick", "spin_slip", "kink"};
  return (unsigned)kind < NSED_EVENT_NKIND ? names[kind] : "unknown";
}

const char *nsed_law_check_name(nsed_law_check check) {
  static const char *const names[NSED_LAW_NCHECK] = {
      "normal_force", "stick_friction", "slip_friction", "slip_direction",
      "open_gap",     "closed_gap",     "joint_drift",    "spin_friction",
      "stick_velocity"};
  return (unsigned)check < NSED_LAW_NCHECK ? names[check] : "unknown";
}

/* The state vector's layout (src/model/model.c, nsed_model_finalize): 13
 * per body not attached, then the tracking states of differentially
 * tracked contacts, the driven joints' angles, the rotors' turns and the
 * attached rotors' rates, then the works. */
int nsed_state_name(const nsed_model *m, int i, char *buf, size_t size) {
  static const char *const body_fields[13] = {"x",  "y",  "z",  "q0", "q1", "q2", "q3",
                                              "vx", "vy", "vz", "wx", "wy", "wz"};
  static const char *const work[NSEDI_NWORK] = {"work_external", "work_contacts", "work_joints"};
  static const char *const roller_track[2] = {"track_q", "track_phi"};
  static const char *const surface_track[3] = {"track_x", "track_y", "track_z"};
  if (size > 0) buf[0] = '\0';
  if (i < 0 || i >= m->nstate + NSEDI_NWORK) return NSED_ERR_INPUT;
  if (i < m->nbstate) {
    snprintf(buf, size, "%s.%s", m->body[nsedi_state_body(m, i)].def.name, body_fields[i % 13]);
    return NSED_OK;
  }
  if (i >= m->nstate) {
    snprintf(buf, size, "%s", work[i - m->nstate]);
    return NSED_OK;
  }
  for (int c = 0; c < m->ncontact; c++) {
    const nsedi_contact *k = &m->contact[c];
    if (k->xtrack >= 0 && i >= k->xtrack && i < k->xtrack + k->ntrack) {
      const char *const *f = k->ntrack == 2 ? roller_track : surface_track;
      snprintf(buf, size, "%s.%s", k->def.name, f[i - k->xtrack]);
      return NSED_OK;
    }
  }
  for (int j = 0; j < m->njoint; j++)
    if (m->joint[j].xangle == i) {
      snprintf(buf, size, "%s.angle", m->joint[j].def.name);
      return NSED_OK;
    }
  for (int b = 0; b < m->nbody; b++) {
    if (m->body[b].xspin == i) {
      snprintf(buf, size, "%s.spin", m->body[b].def.name);
      return NSED_OK;
    }
    if (m->body[b].xrate == i) {
      snprintf(buf, size, "%s.rate", m->body[b].def.name);
      return NSED_OK;
    }
  }
  return NSED_ERR_INPUT; /* every index below nstate is one of the above */
}
