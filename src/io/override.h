/* Command-line overrides "KEY=VALUE" applied to a parsed problem tree before
 * validation, so an override is checked exactly like the file's own text.
 * KEY is a dotted path: mapping keys, list indices (0-based) or, inside
 * bodies/joints/forces/contacts, an item's name ("bodies.ball.velocity").
 * VALUE is YAML flow ("[1,0,0]", "1e-8", "{type: sine, amplitude: 1}"). */
#ifndef NSEDI_OVERRIDE_H
#define NSEDI_OVERRIDE_H

#include "diag.h"
#include "ytree.h"

/* Apply one override to the tree at *root (a mapping). src names the
 * override in messages and must outlive the tree. Returns 0, -1 (reported)
 * or -2 (no memory). */
int nsedi_override_apply(nsedi_ynode *root, const char *override, const char *src, nsedi_diag *d);

#endif
