/* The omni_wheel_testbench block: one mapping read into an
 * nsed_omni_testbench_def (docs/problem-format.md) and built by the
 * assemblies layer. */
#include <math.h>
#include <string.h>

#include "blocks.h"
#include "read_parts.h"
#include "yread.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const char *const block = "omni_wheel_testbench";

/* hub: {mass, inertia}. */
static int read_hub(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_omni_wheel_def *w) {
  static const char *const keys[] = {"mass", "inertia", NULL};
  const nsedi_ynode *s = nsedi_ymap_get(node, "hub");
  if (!s) return 0;
  char path[300];
  KP(path, block, "hub");
  int rc = nsedi_check_map(p->d, s, path, keys);
  if (s->kind != NSEDI_Y_MAP) return -1;
  NSEDI_OPT(s, path, "mass", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &w->hub_mass));
  NSEDI_OPT(s, path, "inertia", nsedi_read_inertia(p->d, v_, kp_, w->hub_inertia));
  return rc;
}

static int read_def(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_omni_testbench_def *t) {
  static const char *const keys[] = {"rollers", "psi", "radius", "hub", "roller_mass",
                                     "roller_frame", "contact", "load", "velocity", "spin", NULL};
  const char *path = block;
  nsed_omni_testbench_def_default(t);
  nsed_omni_wheel_def *w = &t->wheel;
  int rc = nsedi_check_map(p->d, node, path, keys);
  if (node->kind != NSEDI_Y_MAP) return -1;
  long n = w->rollers;
  NSEDI_OPT(node, path, "rollers", nsedi_read_int(p->d, v_, kp_, 3, NSED_OMNI_MAX_ROLLERS, &n));
  w->rollers = (int)n;
  NSEDI_OPT(node, path, "psi", nsedi_read_double(p->d, v_, kp_, NSEDI_ANY, &w->psi));
  const nsedi_ynode *psi = nsedi_ymap_get(node, "psi");
  if (psi && !(fabs(w->psi) < M_PI / 2)) {
    char kp[300];
    KP(kp, path, "psi");
    rc = nsedi_diag_add(p->d, psi, kp,
                        "the roller inclination psi must lie in (-pi/2, pi/2) rad, got %.15g",
                        w->psi);
  }
  NSEDI_OPT(node, path, "radius", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &w->radius));
  if (read_hub(p, node, w)) rc = -1;
  /* The rollers are a tenth of the hub's mass in all unless given. */
  w->roller_mass = 0.1 * w->hub_mass / w->rollers;
  NSEDI_OPT(node, path, "roller_mass",
            nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &w->roller_mass));
  if (nsedi_read_roller_frame(p->d, node, path, &w->roller_rotors)) rc = -1;
  const nsedi_ynode *c = nsedi_ymap_get(node, "contact");
  if (c) {
    char cp[300];
    KP(cp, path, "contact");
    if (nsedi_read_assembly_contact(p, c, cp, 1, &w->contact)) rc = -1;
  }
  NSEDI_OPT(node, path, "load", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &t->load));
  NSEDI_OPT(node, path, "velocity", nsedi_read_double(p->d, v_, kp_, NSEDI_ANY, &t->velocity));
  NSEDI_OPT(node, path, "spin", nsedi_read_double(p->d, v_, kp_, NSEDI_ANY, &t->spin));
  return rc;
}

int nsedi_read_testbench_block(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_assembly *a) {
  nsed_omni_testbench_def t;
  int rc = read_def(p, node, &t);
  if (node->kind != NSEDI_Y_MAP) return -1;
  nsed_error e;
  if (!rc) {
    int brc = nsed_omni_testbench_build(&t, a, &e);
    if (brc == NSED_ERR_NOMEM) return -2;
    if (!brc) return 0;
    rc = nsedi_report_at_key(p, block, node, &e);
  }
  /* Its parts' names, so that the user's items naming them are checked. */
  nsed_omni_testbench_def names;
  nsed_omni_testbench_def_default(&names);
  names.wheel.rollers = t.wheel.rollers;
  names.wheel.roller_mass = 0.1 / names.wheel.rollers;
  if (nsed_omni_testbench_build(&names, a, &e) == NSED_ERR_NOMEM) return -2;
  return rc ? rc : -1;
}
