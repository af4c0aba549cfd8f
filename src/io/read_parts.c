/* Readers shared by the item lists and the assembly blocks (read_parts.h). */
#include <stdio.h>
#include <string.h>

#include "read_parts.h"
#include "yread.h"

/* NSEDI_OPT at the path of the item being read. */
#define OPT(map, key, call) NSEDI_OPT(map, path, key, call)

int nsedi_read_inertia(nsedi_diag *d, const nsedi_ynode *v, const char *path, double J[3]) {
  if (nsedi_read_vec(d, v, path, 3, J)) return -1;
  if (!(J[0] > 0 && J[1] > 0 && J[2] > 0))
    return nsedi_diag_add(d, v, path,
                          "expected three positive principal moments (a positive definite inertia), "
                          "got [%.15g, %.15g, %.15g]", J[0], J[1], J[2]);
  /* Principal moments of any mass distribution satisfy the triangle
   * inequality; a slack of 1e-9 admits the thin disk's equality. */
  for (int i = 0; i < 3; i++) {
    double a = J[(i + 1) % 3], b = J[(i + 2) % 3];
    if (a + b < J[i] * (1 - 1e-9))
      return nsedi_diag_add(d, v, path,
                            "principal moments [%.15g, %.15g, %.15g] violate J%d + J%d >= J%d: no "
                            "rigid body has this inertia", J[0], J[1], J[2], (i + 1) % 3 + 1,
                            (i + 2) % 3 + 1, i + 1);
  }
  return 0;
}

int nsedi_read_contact_law(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                           nsed_contact_def *c) {
  static const char *const law_names[] = {"coulomb", "regularized", "compliant", NULL};
  static const char *const tracking_names[] = {"explicit", "implicit", "differential", NULL};
  int rc = 0;
  OPT(node, "mu", nsedi_read_double(d, v_, kp_, NSEDI_NONNEGATIVE, &c->mu));
  if (nsedi_ymap_get(node, "mu") && !nsedi_ymap_get(node, "mu0")) c->mu0 = c->mu;
  OPT(node, "mu0", nsedi_read_double(d, v_, kp_, NSEDI_NONNEGATIVE, &c->mu0));
  OPT(node, "restitution", nsedi_read_double(d, v_, kp_, NSEDI_UNIT, &c->restitution));
  int law = (int)c->law;
  OPT(node, "law", nsedi_read_enum(d, v_, kp_, law_names, &law));
  c->law = (nsed_contact_law)law;
  OPT(node, "delta", nsedi_read_double(d, v_, kp_, NSEDI_POSITIVE, &c->delta));
  OPT(node, "stiffness", nsedi_read_double(d, v_, kp_, NSEDI_POSITIVE, &c->stiffness));
  OPT(node, "damping", nsedi_read_double(d, v_, kp_, NSEDI_NONNEGATIVE, &c->damping));
  OPT(node, "torsion", nsedi_read_double(d, v_, kp_, NSEDI_NONNEGATIVE, &c->torsion));
  OPT(node, "torsion_rate", nsedi_read_double(d, v_, kp_, NSEDI_POSITIVE, &c->torsion_rate));
  int tracking = 0;
  OPT(node, "tracking", nsedi_read_enum(d, v_, kp_, tracking_names, &tracking) ||
                            ((c->tracking = (nsed_contact_tracking)tracking), 0));
  if (c->law == NSED_CONTACT_COMPLIANT && !nsedi_ymap_get(node, "stiffness")) {
    char kp[300];
    KP(kp, path, "stiffness");
    rc = nsedi_diag_add(d, node, kp, "a compliant contact needs 'stiffness' (N/m)");
  }
  if (rc) return -1;
  if (c->mu0 < c->mu) {
    const nsedi_ynode *at = nsedi_ymap_get(node, "mu0");
    char kp[300];
    KP(kp, path, at ? "mu0" : "mu");
    return nsedi_diag_add(d, at ? at : nsedi_ymap_get(node, "mu"), kp,
                          "static friction mu0 = %.15g is below kinetic friction mu = %.15g "
                          "(mu0 >= mu is required)", c->mu0, c->mu);
  }
  return 0;
}

/* The node of a key path ("a.b[2].c") below node: the deepest one found. */
static const nsedi_ynode *node_at(const nsedi_ynode *node, const char *key) {
  char part[96];
  const char *k = key;
  while (*k && node) {
    size_t n = strcspn(k, ".[");
    if (n >= sizeof part) break;
    memcpy(part, k, n);
    part[n] = '\0';
    const nsedi_ynode *next = n ? nsedi_ymap_get(node, part) : node;
    if (!next) break;
    node = next;
    k += n;
    while (*k == '[') {
      int i = -1;
      if (sscanf(k, "[%d]", &i) != 1 || node->kind != NSEDI_Y_SEQ || i < 0 || i >= node->n)
        return node;
      node = node->items[i];
      k = strchr(k, ']') + 1;
    }
    if (*k == '.') k++;
  }
  return node;
}

int nsedi_report_at_key(nsedi_problem_defs *p, const char *block, const nsedi_ynode *node,
                        const nsed_error *e) {
  const char *msg = e->message, *colon = strstr(msg, ": ");
  size_t n = colon ? (size_t)(colon - msg) : 0;
  char key[96] = "";
  if (n > 0 && n < sizeof key && strspn(msg, "abcdefghijklmnopqrstuvwxyz0123456789_.[]") == n) {
    memcpy(key, msg, n);
    key[n] = '\0';
    msg = colon + 2;
  }
  int setting = !strncmp(key, "floor.", 6) || !strcmp(key, "gravity");
  char path[300];
  if (setting) snprintf(path, sizeof path, "%s", key);
  else if (key[0]) KP(path, block, key);
  else snprintf(path, sizeof path, "%s", block);
  const nsedi_ynode *at = setting ? node_at(p->root, key) : key[0] ? node_at(node, key) : node;
  return nsedi_diag_add(p->d, at ? at : node, path, "%s", msg);
}

int nsedi_check_exact_torsion(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                               const nsed_contact_def *c) {
  if (c->law != NSED_CONTACT_COULOMB || !(c->torsion > 0)) return 0;
  int cone = p->opt.friction.model == NSED_FRICTION_EXACT_CONE;
  if (!cone && p->opt.event_resolver != NSED_RESOLVER_TRIAL) return 0;
  char kp[300];
  KP(kp, path, "torsion");
  return nsedi_diag_add(p->d, nsedi_ymap_get(node, "torsion"), kp,
                        cone ? "exact Coulomb torsional friction needs friction.model: polygon; "
                               "the exact cone (Siconos fc3d) has no torsional row"
                             : "exact Coulomb torsional friction needs solver.event_resolver: "
                               "lcp; the trial-and-error resolver does not decide spins");
}

int nsedi_read_roller_frame(nsedi_diag *d, const nsedi_ynode *node, const char *path, int *rotors) {
  static const char *const names[] = {"spinning", "rotor", "attached", NULL};
  int rc = 0;
  NSEDI_OPT(node, path, "roller_frame", nsedi_read_enum(d, v_, kp_, names, rotors));
  return rc;
}

int nsedi_read_assembly_contact(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                                int rollers, nsed_contact_def *c) {
  static const char *const keys[] = {"mu",        "mu0",     "restitution", "law",
                                     "delta",     "stiffness", "damping",   "torsion",
                                     "torsion_rate", "tracking", NULL};
  static const char *const rim_keys[] = {"mu",      "mu0",       "restitution", "law",
                                         "delta",   "stiffness", "damping",     "torsion",
                                         "torsion_rate", NULL};
  int rc = nsedi_check_map(p->d, node, path, rollers ? keys : rim_keys);
  if (!node || node->kind != NSEDI_Y_MAP) return -1;
  if (nsedi_read_contact_law(p->d, node, path, c) || nsedi_check_exact_torsion(p, node, path, c)) rc = -1;
  return rc;
}
