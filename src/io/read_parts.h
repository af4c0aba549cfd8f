/* Readers shared by the problem's item lists (build_items.c) and its
 * assembly blocks (read_*.c): a contact's force law, a body's principal
 * moments, and an assembly builder's message placed at the key it names. */
#ifndef NSEDI_READ_PARTS_H
#define NSEDI_READ_PARTS_H

#include "build.h"

/* A contact's force-law keys (mu, mu0, restitution, law, delta, stiffness,
 * damping, torsion, torsion_rate, tracking) of the mapping node (at path) into c, which holds the
 * defaults on entry; -1 if anything was reported. */
int nsedi_read_contact_law(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                           nsed_contact_def *c);

/* Exact Coulomb torsional friction needs the polygon friction models and
 * the LCP resolver (p->opt, read before the items): reported at the
 * contact's torsion key (node: its mapping at path); -1 if reported. */
int nsedi_check_exact_torsion(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                              const nsed_contact_def *c);

/* An assembly's contact mapping at path (every roller's or the rim's floor
 * contact): the force-law keys of a contacts item, with tracking for
 * roller contacts; -1 if anything was reported. */
int nsedi_read_assembly_contact(nsedi_problem_defs *p, const nsedi_ynode *node, const char *path,
                                int rollers, nsed_contact_def *c);

/* An omni wheel's roller_frame key in the mapping node (at path), if
 * present: "rotor" (each roller a rotor about its axis, the default) sets
 * *rotors to 1, "spinning" (its state's frame spins with it) to 0; -1 if
 * reported. */
int nsedi_read_roller_frame(nsedi_diag *d, const nsedi_ynode *node, const char *path, int *rotors);

/* Principal moments [J1, J2, J3] of a rigid body (positive, triangle
 * inequality); -1 if reported. */
int nsedi_read_inertia(nsedi_diag *d, const nsedi_ynode *v, const char *path, double J[3]);

/* Report an assembly builder's error, whose message starts with the key it
 * is about ("wheel_distance: ...", "wheel_angles[2]: ...", "floor.normal:
 * ..."), at that key's node in the block (block name, node), or in the
 * problem's settings for floor.* and gravity; the block itself when the key
 * is absent (left at its default). Returns -1. */
int nsedi_report_at_key(nsedi_problem_defs *p, const char *block, const nsedi_ynode *node,
                        const nsed_error *e);

#endif
