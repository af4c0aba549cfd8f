/* The modes an impact leaves (event_modes.c; docs/engine.md, "Modes after
 * an impact"), one event at a time, against the closed form of a plastic
 * impact with Coulomb friction:
 *
 * A box (half sides a, b, c) lies on the floor, turning about its -x edge
 * at w_y, its +x edge landing at 2 a w_y. The impact stops the turn and the
 * fall (plastic); the friction impulse mu P_n of the four feet cannot stop
 * the centre's horizontal velocity c w_y when c > mu a, so the box slides
 * on at v_x = w_y (c - mu a), its feet all slipping along +x, and the -x
 * feet's normal impulse stays positive ((a^2 + c^2) / (3 a) + mu c < a).
 *
 *  1. the -x feet stuck before the impact: set sliding by it, they slip
 *     along their velocity (left sticking, they would creep with a
 *     velocity no stick can have);
 *  2. the -x feet were in a slow slip held on -x (at 1e-7 m/s): the impact
 *     turns them back, and they slip along their new velocity (kept on -x,
 *     they would run backwards without a stop root: the law monitor's
 *     reversal);
 *  3. the -x feet's slow slip stopped at the impact's instant (their stop
 *     roots fired, 5e-8 m/s across their direction left): the impact
 *     starts them anew along +x like the others (a stop's settling impulse
 *     must not remove what the impact gave: it had stopped the box);
 *  4. the -x feet slid freely (not held) along -x at 2e-6 m/s, above the
 *     slow hold's entry speed, and mu is chosen so that the box slides on
 *     along +x at 3e-7 m/s, below it: the impact took the slip across the
 *     hold's entry without its root, so the -x feet enter the hold on
 *     their new velocity (left free below the entry, their slowing root
 *     starts negative and never fires, and a free direction turns at
 *     ~1/|v| as the slip stops: the mecanum car's 1000-unit run collapsed
 *     its step to 3e-13 s at t = 282.49355 on such a slip, 4e-13 m/s);
 * under the exact cone (the closed form to round-off) and the polygon
 * forms (along x the face form's octagon has a face normal, so the
 * saturated impulse is mu P_n there too; the vertex form's inscribed
 * octagon has a vertex, mu P_n as well). */
#include "engine_util.h"
#include "nsed_test.h"
#include "sim_impl.h"

static const double A = 0.3, B = 0.2, C = 0.05, MASS = 2.0, WY = 1.5;

static nsed_model *lying_box(nsed_friction_model form, double mu) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "box");
  b.mass = MASS;
  b.shape.type = NSED_SHAPE_BOX;
  b.shape.half[0] = A, b.shape.half[1] = B, b.shape.half[2] = C;
  b.position[2] = C;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c, v;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "foot");
  snprintf(c.body, sizeof c.body, "box");
  c.mu = c.mu0 = mu;
  for (int i = 0; i < 8; i++) {
    must(nsed_contact_feature(&c, NSED_SHAPE_BOX, i, &v, &err), &err);
    must(nsed_model_add_contact(m, &v, &err), &err);
  }
  nsed_options o = *nsed_model_options(m);
  o.friction.model = form;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

/* The angle between a slip's held direction and its velocity (rad). */
static double off_velocity(const nsed_data *d, int c) {
  const nsedi_contact_geom *g = &d->cache.geom[c];
  double v1 = g->row[1].vel, v2 = g->row[2].vel, s1 = d->ph.dir[2 * c], s2 = d->ph.dir[2 * c + 1];
  return atan2(fabs(v1 * s2 - v2 * s1), v1 * s1 + v2 * s2);
}

enum { STUCK, SLOW_SLIP, STOPPED, FREE_SLIP };

/* The back feet's velocity before the impact (along x) and the box's after
 * it, FREE_SLIP: 3e-7 m/s, mu from v_x = w_y (c - mu a) + creep. */
static const double FREE_CREEP = -2e-6, FREE_AFTER = 3e-7;

static double creep_of(int before) {
  return before == SLOW_SLIP ? -1e-7 : before == FREE_SLIP ? FREE_CREEP : 0.0;
}

/* The box landing, its -x feet as `before` says; returns the contacts of
 * the -x feet in back[2]. */
static nsed_data *land_box(const nsed_model *m, int before, int back[2]) {
  nsed_data *d;
  nsed_error err;
  must(nsed_data_create(m, &d, &err), &err);
  double creep = creep_of(before);
  d->t = 1.0;
  d->x[7] = WY * C + creep, d->x[9] = -WY * A; /* the -x edge at rest (or creeping) */
  d->x[8] = before == STOPPED ? 5e-8 : 0.0;   /* the stopped slip's velocity across -x */
  d->x[11] = WY;
  nsedi_refresh_geometry(m, d);
  int fired[8 * NSEDI_ROOTS_PER_CONTACT + 1] = {0}, nback = 0, bottom = 0;
  for (int c = 0; c < m->ncontact; c++) {
    const nsedi_contact_geom *g = &d->cache.geom[c];
    d->ph.mode[c] = NSED_MODE_OPEN;
    if (fabs(g->gap) > 1e-12) continue; /* the top vertices */
    bottom++;
    if (g->p[0] > 0) {
      fired[NSEDI_ROOTS_PER_CONTACT * c + NSEDI_ROOT_CONTACT] = -1;
      continue;
    }
    if (nback < 2) back[nback] = c;
    nback++;
    if (before == STUCK) {
      d->ph.mode[c] = NSED_MODE_STICK;
      continue;
    }
    d->ph.mode[c] = NSED_MODE_SLIP;
    d->ph.held[c] = d->ph.slow[c] = before != FREE_SLIP;
    d->ph.hold_mu[c] = m->contact[c].def.mu;
    d->ph.dir[2 * c] = -g->t1[0], d->ph.dir[2 * c + 1] = -g->t2[0]; /* -x in (t1, t2) */
    if (before == STOPPED) fired[NSEDI_ROOTS_PER_CONTACT * c + NSEDI_ROOT_FRICTION] = -1;
  }
  CHECK(bottom == 4 && nback == 2);
  int rc = nsedi_resolve(m, d, fired, NULL, &err);
  CHECK_MSG(rc == NSED_OK, "landing: %s", err.message);
  return d;
}

static void landing(nsed_friction_model form, int before) {
  const char *label = before == SLOW_SLIP  ? "slow slip on -x"
                      : before == STOPPED  ? "slip stopped"
                      : before == FREE_SLIP ? "free slip on -x, slowed below the hold"
                                            : "stuck";
  double creep = creep_of(before);
  const double mu = before == FREE_SLIP ? (C - (FREE_AFTER - creep) / WY) / A : 0.1;
  nsed_model *m = lying_box(form, mu);
  int back[2];
  nsed_data *d = land_box(m, before, back);
  double vx = WY * (C - mu * A) + creep, worst_dir = 0;
  int slipping = 0;
  for (int c = 0; c < m->ncontact; c++) {
    if (fabs(d->cache.geom[c].gap) > 1e-12) continue;
    if (d->ph.mode[c] == NSED_MODE_SLIP) slipping++;
    if (d->ph.mode[c] == NSED_MODE_SLIP) worst_dir = fmax(worst_dir, off_velocity(d, c));
  }
  printf("%s, %s: box after the impact v = (%.15g, %.3g, %.3g), w_y %.3g (closed form v_x %.15g); "
         "%d of 4 feet slipping, held directions within %.2e rad of their velocities; back feet: "
         "%s, %s\n",
         label, nsed_friction_model_name(form), d->x[7], d->x[8], d->x[9], d->x[11], vx, slipping,
         worst_dir, nsed_mode_name(d->ph.mode[back[0]]), nsed_mode_name(d->ph.mode[back[1]]));
  double tol = form == NSED_FRICTION_EXACT_CONE ? 1e-12 : 1e-9;
  CHECK_NEAR(d->x[7], vx, tol, 0);
  CHECK(fabs(d->x[9]) < 1e-12 && fabs(d->x[11]) < 1e-12);
  CHECK(slipping == 4);
  CHECK_MSG(worst_dir < 1e-9, "%s: a slip held %.3g rad off its velocity", label, worst_dir);
  if (before == FREE_SLIP) {
    CHECK_NEAR(vx, FREE_AFTER, 1e-15, 0);
    for (int k = 0; k < 2; k++)
      CHECK_MSG(d->ph.held[back[k]] && d->ph.slow[back[k]], "%s: a back foot slips %s at %.3g m/s", label,
                d->ph.held[back[k]] ? "held, not slow" : "free", nsedi_slip_speed(&d->cache.geom[back[k]]));
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(void) {
  const nsed_friction_model forms[] = {NSED_FRICTION_EXACT_CONE, NSED_FRICTION_POLYGON_FACE,
                                       NSED_FRICTION_POLYGON_VERTEX};
  for (int f = 0; f < 3; f++) {
    landing(forms[f], STUCK);
    landing(forms[f], SLOW_SLIP);
    landing(forms[f], STOPPED);
    landing(forms[f], FREE_SLIP);
  }
  return TEST_DONE();
}
