/* A joint's torque or axial force in a problem file: a time law, or a drive
 * of the joint coordinate (docs/problem-format.md, "Joint drives"). */
#include "read_drive.h"

#include <string.h>

static const char *const table_inputs[] = {"coordinate", "rate", NULL};

static int read_feedback(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                         nsed_joint_drive *out) {
  static const char *const keys[] = {"type", "k", "c", "reference", "feedforward", NULL};
  int rc = nsedi_check_map(d, node, path, keys);
  char kp[300];
  const nsedi_ynode *v;
  out->type = NSED_DRIVE_FEEDBACK;
  if ((v = nsedi_ymap_get(node, "k"))) {
    nsedi_path_key(kp, sizeof kp, path, "k");
    rc |= nsedi_read_double(d, v, kp, NSEDI_NONNEGATIVE, &out->k);
  }
  if ((v = nsedi_ymap_get(node, "c"))) {
    nsedi_path_key(kp, sizeof kp, path, "c");
    rc |= nsedi_read_double(d, v, kp, NSEDI_NONNEGATIVE, &out->c);
  }
  if ((v = nsedi_ymap_get(node, "reference"))) {
    nsedi_path_key(kp, sizeof kp, path, "reference");
    rc |= nsedi_read_law(d, v, kp, &out->reference);
  }
  if ((v = nsedi_ymap_get(node, "feedforward"))) {
    nsedi_path_key(kp, sizeof kp, path, "feedforward");
    rc |= nsedi_read_law(d, v, kp, &out->feedforward);
  }
  if (!rc && out->k == 0 && out->c == 0 && !nsedi_ymap_get(node, "feedforward"))
    rc = nsedi_diag_add(d, node, path,
                        "a feedback drive needs k, c or a feedforward law (all are zero or absent)");
  return rc ? -1 : 0;
}

static int read_table(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                      nsed_joint_drive *out) {
  static const char *const keys[] = {"type", "of", "at", "values", NULL};
  int rc = nsedi_check_map(d, node, path, keys);
  rc |= nsedi_require(d, node, path, "of");
  out->type = NSED_DRIVE_TABLE;
  const nsedi_ynode *v = nsedi_ymap_get(node, "of");
  if (v) {
    char kp[300];
    int of = 0;
    nsedi_path_key(kp, sizeof kp, path, "of");
    if (nsedi_read_enum(d, v, kp, table_inputs, &of)) rc = -1;
    out->input = of ? NSED_DRIVE_OF_RATE : NSED_DRIVE_OF_COORDINATE;
  }
  if (nsedi_read_points(d, node, path, "at", &out->table)) rc = -1;
  return rc ? -1 : 0;
}

int nsedi_read_joint_load(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                          nsed_joint_drive *drive, nsed_law *time_law) {
  static const char *const load_types[] = {"constant", "sine", "piecewise", "feedback", "table", NULL};
  const nsedi_ynode *type = node && node->kind == NSEDI_Y_MAP ? nsedi_ymap_get(node, "type") : NULL;
  drive->type = NSED_DRIVE_NONE;
  if (!type) return nsedi_read_law(d, node, path, time_law);
  char kp[300];
  int which = 0;
  nsedi_path_key(kp, sizeof kp, path, "type");
  if (nsedi_read_enum(d, type, kp, load_types, &which)) return -1;
  if (which < 3) return nsedi_read_law(d, node, path, time_law);
  return which == 3 ? read_feedback(d, node, path, drive) : read_table(d, node, path, drive);
}
