/* The names of the simulate layer's enums, as results.csv, summary.json and
 * messages write them. */
#include "nsed/simulate.h"

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
      "open_gap",     "closed_gap",     "joint_drift",    "spin_friction"};
  return (unsigned)check < NSED_LAW_NCHECK ? names[check] : "unknown";
}
