/* The contact laws by name, and the parameters a contact's law does not
 * use: a value set for one of them is a mistake worth a warning (a
 * regularized contact given mu0 still slips at mu), not an error. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model_impl.h"
#include "shape_pairs.h"

const char *nsed_contact_law_name(nsed_contact_law law) {
  static const char *names[] = {"coulomb", "regularized", "compliant"};
  return (unsigned)law < sizeof names / sizeof names[0] ? names[law] : "unknown";
}

typedef struct {
  char *text;
  size_t size, used;
  int count;
} notes;

static void note(notes *n, const char *fmt, ...) {
  n->count++;
  if (!n->text || n->used + 1 >= n->size) return;
  if (n->used) n->used += (size_t)snprintf(n->text + n->used, n->size - n->used, "; ");
  if (n->used + 1 >= n->size) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(n->text + n->used, n->size - n->used, fmt, ap);
  va_end(ap);
  if (k > 0) n->used += (size_t)k;
  if (n->used >= n->size) n->used = n->size - 1;
}

int nsed_contact_ignored_parameters(const nsed_model *m, int i, char *text, size_t size) {
  if (text && size) text[0] = '\0';
  if (!m || i < 0 || i >= nsed_model_ncontact(m)) return -1;
  const nsed_contact_def *c = nsed_model_contact_def(m, i);
  nsed_contact_def def;
  nsed_contact_def_default(&def);
  notes n = {text, size, 0, 0};
  const char *law = nsed_contact_law_name(c->law);
  if (c->law != NSED_CONTACT_COULOMB && c->mu0 != c->mu)
    note(&n, "mu0 = %.10g is ignored: the %s law has no static friction (it slips at mu = %.10g)",
         c->mu0, law, c->mu);
  if (c->law == NSED_CONTACT_COMPLIANT && c->restitution != 0)
    note(&n, "restitution = %.10g is ignored: the compliant law has no impacts (its damping "
             "takes the energy)", c->restitution);
  if (c->law != NSED_CONTACT_COMPLIANT && (c->stiffness != 0 || c->damping != 0))
    note(&n, "stiffness and damping are ignored: only the compliant law uses them");
  if (c->law == NSED_CONTACT_COULOMB && c->delta != def.delta)
    note(&n, "delta = %.10g is ignored: exact Coulomb friction is not regularised", c->delta);
  if (c->torsion == 0 && c->torsion_rate != def.torsion_rate)
    note(&n, "torsion_rate = %.10g is ignored: the contact has no torsion", c->torsion_rate);
  else if (c->law == NSED_CONTACT_COULOMB && c->torsion_rate != def.torsion_rate)
    note(&n, "torsion_rate = %.10g is ignored: the exact Coulomb moment is set-valued (it sticks "
             "or turns, decided at events), not regularised", c->torsion_rate);
  int b = nsed_model_find_body(m, c->body);
  int roller = b >= 0 && nsed_model_body_def(m, b)->shape.type == NSED_SHAPE_ROLLER;
  int surface = nsedi_pair_tracked_surface(m->contact[i].pair);
  if (!roller && !surface && c->tracking != NSED_TRACKING_INHERIT)
    note(&n, "tracking is ignored: only roller contacts and an ellipsoid's or a superellipsoid's "
             "contacts with a plane or a sphere track their contact point");
  nsed_contact_tracking tracking =
      c->tracking == NSED_TRACKING_INHERIT ? nsed_model_options(m)->contact_tracking : c->tracking;
  if (c->wheel[0] && (!roller || tracking != NSED_TRACKING_IMPLICIT))
    note(&n, "wheel is ignored: only implicit tracking of a roller contact uses it");
  return n.count;
}
