/* Attached rotors in reduced coordinates (docs/engine.md, "Attached
 * rotors"): a rotor fixed to a parent body moves with it and turns about
 * its axis at its own absolute rate Omega, its only velocity state. Its
 * generalised velocity u_r = (v world, wb in its state's frame, which turns
 * with the parent) is then
 *
 *   u_r = T u_p + e_a Omega,   du_r/dt = T du_p/dt + e_a dOmega/dt + kappa,
 *
 * T = [I, -[d]x Rv_p; 0, P_a R0^T] (d the world offset of its centre from
 * the parent's, P_a dropping the axial component), kappa = (w_p x (w_p x
 * d), 0). Rows and forces written for the rotor as a body of its own are
 * reduced by T; only their axial parts stay on the rotor, in slot 3 + a of
 * its six, where its solve mass is its axial moment (the other five slots
 * carry no force and no row entry: zero acceleration). */
#ifndef NSED_DYNAMICS_ATTACHED_H
#define NSED_DYNAMICS_ATTACHED_H

#include "rows.h"

/* Every attached rotor's generalised force f (6 per body) passed to its
 * parent through T^T, less its mass times kappa: f_p += T^T (f_r - M_r
 * kappa); f_r keeps its axial torque only. After every force is added,
 * before any row's. */
void nsedi_attached_forces(const nsed_model *m, const nsedi_kin *kin, double *f);

/* Row r with a side on an attached rotor and the world on its other: the
 * rotor's side mapped through T to the parent (which takes the world's
 * place), its axial entry kept on the rotor, and kappa's share added to
 * the bias. Other rows unchanged. */
void nsedi_attached_row(const nsed_model *m, const nsedi_kin *kin, nsedi_row *r);

#endif
