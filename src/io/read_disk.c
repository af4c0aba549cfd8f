/* The disk_on_shaft block: one mapping read into an nsed_disk_on_shaft_def
 * (docs/problem-format.md) and built by the assemblies layer. */
#include <string.h>

#include "blocks.h"
#include "read_parts.h"
#include "yread.h"

static const char *const block = "disk_on_shaft";

/* spring: {k, c, rest_length}. */
static int read_spring(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_disk_on_shaft_def *s) {
  static const char *const keys[] = {"k", "c", "rest_length", NULL};
  const nsedi_ynode *sp = nsedi_ymap_get(node, "spring");
  if (!sp) return 0;
  char path[300];
  KP(path, block, "spring");
  int rc = nsedi_check_map(p->d, sp, path, keys);
  if (sp->kind != NSEDI_Y_MAP) return -1;
  NSEDI_OPT(sp, path, "k", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &s->spring_k));
  NSEDI_OPT(sp, path, "c", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &s->spring_c));
  NSEDI_OPT(sp, path, "rest_length",
            nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &s->spring_rest));
  return rc;
}

static int read_def(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_disk_on_shaft_def *s) {
  static const char *const keys[] = {"disk_radius", "disk_mass", "shaft_length", "shaft_mass",
                                     "shaft_diameter", "spring", "disk_position", "torque",
                                     "contact", NULL};
  const char *path = block;
  nsed_disk_on_shaft_def_default(s);
  int rc = nsedi_check_map(p->d, node, path, keys);
  if (node->kind != NSEDI_Y_MAP) return -1;
  NSEDI_OPT(node, path, "disk_radius",
            nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &s->disk_radius));
  NSEDI_OPT(node, path, "disk_mass", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &s->disk_mass));
  NSEDI_OPT(node, path, "shaft_length",
            nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &s->shaft_length));
  NSEDI_OPT(node, path, "shaft_mass",
            nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &s->shaft_mass));
  NSEDI_OPT(node, path, "shaft_diameter",
            nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &s->shaft_diameter));
  if (read_spring(p, node, s)) rc = -1;
  NSEDI_OPT(node, path, "disk_position",
            nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &s->disk_position));
  NSEDI_OPT(node, path, "torque", nsedi_read_law(p->d, v_, kp_, &s->torque));
  const nsedi_ynode *c = nsedi_ymap_get(node, "contact");
  if (c) {
    char cp[300];
    KP(cp, path, "contact");
    if (nsedi_read_assembly_contact(p, c, cp, 0, &s->contact)) rc = -1;
  }
  return rc;
}

int nsedi_read_disk_block(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_assembly *a) {
  nsed_disk_on_shaft_def s;
  int rc = read_def(p, node, &s);
  if (node->kind != NSEDI_Y_MAP) return -1;
  nsed_error e;
  if (!rc) {
    int brc = nsed_disk_on_shaft_build(&s, a, &e);
    if (brc == NSED_ERR_NOMEM) return -2;
    if (!brc) return 0;
    rc = nsedi_report_at_key(p, block, node, &e);
  }
  /* Its parts' names, so that the user's items naming them are checked. */
  nsed_disk_on_shaft_def_default(&s);
  if (nsed_disk_on_shaft_build(&s, a, &e) == NSED_ERR_NOMEM) return -2;
  return rc ? rc : -1;
}
