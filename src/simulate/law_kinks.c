/* The kinks of the contact laws' forces (docs/engine.md, "Kinks of the
 * contact laws"): points where a phase's right-hand side is continuous but
 * not smooth, or jumps, while no mode changes. A step across one carries
 * a local error of low order that the method's estimate does not bound,
 * so each is watched by a root, and at the crossing the phase goes on with
 * the integrator restarted there, as at the knots of a drive's table
 * (kinks.c):
 *  - the vertex form's kinetic friction mu lambda_n rho(f), rho the
 *    inscribed polygon's radius along the force's direction f = -v/|v|
 *    (friction_law.c), whose derivative jumps where f crosses a vertex: a
 *    free slip watches its sector (the two vertices around f);
 *  - the compliant contact's normal force max(0, -k gap - c v_n) while the
 *    surfaces overlap: it jumps by c |v_n| where the gap closes or opens
 *    with a velocity, and its derivative jumps where the spring-damper's
 *    force reaches zero.
 * The same light path clears a lift-off's closing margin (liftoff_margin.c):
 * that root changes no force either.
 * The crossings count in the stall guard's ring (event_record.c): a kink
 * function hovering about zero would restart the integrator for ever.
 * Not the regularised friction's kink at |v| = delta: a creeping slip
 * hovers about delta, and a restart at each crossing cost more than the
 * kink (docs/engine.md). */
#include <math.h>

#include "sim_impl.h"

/* A free slip whose friction has kinks: exact Coulomb in the vertex form,
 * not held on a direction, slipping at a speed with a direction. */
static int kinked(const nsed_model *m, const nsed_data *d, int c) {
  return m->opt.friction.model == NSED_FRICTION_POLYGON_VERTEX && nsedi_coulomb_friction(m, c) &&
         d->ph.mode[c] == NSED_MODE_SLIP && !d->ph.held[c] && d->cache.geom_ok[c] &&
         nsedi_slip_speed(&d->cache.geom[c]) > 0;
}

/* The side each of contact c's kink functions starts on: its sign, or
 * where it is zero the sign of its rate (the side it moves to); 0 where
 * the slot has none. */
static void pose_sides(const nsed_model *m, nsed_data *d, int c) {
  for (int k = NSEDI_ROOT_CONTACT; k <= NSEDI_ROOT_LINE; k++) {
    double rate, v = nsedi_law_kink(m, d, c, k, &rate);
    d->ph.kink_side[3 * c + k] = isnan(v) ? 0.0 : v > 0 ? 1.0 : v < 0 ? -1.0 : rate < 0 ? -1.0 : 1.0;
  }
}

void nsedi_pose_kinks(const nsed_model *m, nsed_data *d) {
  int sides = m->opt.friction.sides;
  for (int c = 0; c < m->ncontact; c++) {
    pose_sides(m, d, c);
    d->ph.sector[c] = -1;
    if (!kinked(m, d, c)) continue;
    const nsedi_contact_geom *g = &d->cache.geom[c];
    double v1 = g->row[1].vel, v2 = g->row[2].vel, sp = hypot(v1, v2);
    double a1 = nsedi_row_accel(&g->row[1], d->cache.du), a2 = nsedi_row_accel(&g->row[2], d->cache.du);
    /* On a vertex within the direction's noise, the sector it turns into
     * (f = -v turns as v does). */
    double on_vertex = nsedi_slip_noise(m, d, c) / sp;
    d->ph.sector[c] = nsedi_vertex_sector(sides, -v1, -v2, on_vertex, v1 * a2 - v2 * a1);
  }
}

/* Whether root slot k of contact c is a kink of its law in this phase. */
static int kink_slot(const nsed_data *d, int c, int k) {
  if (k == NSEDI_ROOT_LINE && (d->ph.sector[c] >= 0 || d->ph.clearing[c])) return 1;
  return k <= NSEDI_ROOT_LINE && d->ph.kink_side[3 * c + k] != 0;
}

int nsedi_only_kink_roots(const nsed_model *m, const nsed_data *d, const int *fired, int nroot) {
  int any = 0;
  for (int r = 0; r < nroot; r++) {
    if (!fired[r]) continue;
    int c = r / NSEDI_ROOTS_PER_CONTACT;
    if (c >= m->ncontact || !kink_slot(d, c, r % NSEDI_ROOTS_PER_CONTACT)) return 0;
    any = 1;
  }
  return any;
}

int nsedi_cross_kinks(const nsed_model *m, nsed_data *d, const int *fired, nsed_error *err) {
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  int sides = m->opt.friction.sides;
  for (int c = 0; c < m->ncontact; c++) {
    const int *f = fired + NSEDI_ROOTS_PER_CONTACT * c;
    for (int k = NSEDI_ROOT_CONTACT; k <= NSEDI_ROOT_LINE; k++)
      if (f[k] && d->ph.kink_side[3 * c + k] != 0) {
        d->ph.kink_side[3 * c + k] = -d->ph.kink_side[3 * c + k];
        d->ph.root_offset[NSEDI_ROOTS_PER_CONTACT * c + k] = 0.0;
        d->stats.law_kinks++;
        rc = nsedi_stall_guard(m, d, c, k, k == NSEDI_ROOT_CONTACT ? "compliant gap" : "spring-damper force",
                               err);
        if (rc) return rc;
      }
    if (f[NSEDI_ROOT_LINE] && d->ph.clearing[c]) nsedi_clear_liftoff_margin(d, c);
    if (!f[NSEDI_ROOT_LINE] || d->ph.sector[c] < 0) continue;
    const nsedi_contact_geom *g = &d->cache.geom[c];
    int k = d->ph.sector[c];
    double f1 = -g->row[1].vel, f2 = -g->row[2].vel, h = 2 * M_PI / sides;
    /* The vertex crossed is the one nearer f: below it into k - 1, above
     * into k + 1 (the root located it; which side of it f is now is
     * round-off). */
    double below = cos(k * h) * f2 - sin(k * h) * f1;
    double above = f1 * sin((k + 1) * h) - f2 * cos((k + 1) * h);
    d->ph.sector[c] = ((below < above ? k - 1 : k + 1) + sides) % sides;
    d->ph.root_offset[NSEDI_ROOTS_PER_CONTACT * c + NSEDI_ROOT_LINE] = 0.0;
    d->stats.law_kinks++;
    rc = nsedi_stall_guard(m, d, c, NSEDI_ROOT_LINE, "friction polygon's vertex (a kink)", err);
    if (rc) return rc;
  }
  return NSED_OK;
}
