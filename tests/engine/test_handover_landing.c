/* A roller that turns away from the floor at its tip but comes down with
 * its wheel lands; it does not hand its contact over (roller_events.c;
 * docs/rollers.md, "Handovers are events").
 *
 * The omni-wheel testbench with inclined rollers (psi = 0.4) rolls to its
 * first handover: the outgoing roller's tip and the incoming roller touch
 * the floor 2 R sin(pi/n) tan(psi) = 0.60 apart along the axle, one on
 * each side of the wheel's plane. At that state the wheel is taken off its
 * align constraint (free to tilt, as a vehicle's wheel on a rocking
 * platform) and given a downward velocity V: both contacts approach at V,
 * while the outgoing tip still turns away with the wheel's spin.
 *
 * The plastic impact must stop the approach at both feet. Had the
 * outgoing roller handed its contact over, the incoming one alone would
 * take the impact, 0.30 off the wheel's plane: the wheel would tilt about
 * it and the outgoing tip go on into the floor (its closing root then
 * anchored below it at every later event: the mecanum car's roller that
 * sank 1e-6 m unseen, docs/omni-vehicle.md). Checked against the law of
 * the impact: after it no touching contact approaches, both normal
 * impulses are positive, and the hub's
 * vertical velocity (V before) is that of a wheel held at two feet either
 * side of its plane: the tips' own rates only; the energy lost is the
 * vertical motion's, M V^2 / 2. Without the approach test in
 * roller_events.c the outgoing tip takes no impulse and goes on into the
 * floor at 1.5e-4 m/s. */
#include "nsed_test.h"
#include "sim_impl.h"
#include "testbench_util.h"

static const double V = 1e-3; /* the wheel's downward velocity (m/s; R = 1, g = 1) */

int main(void) {
  nsed_error err;
  nsed_assembly parts;
  testbench_parts(0.4, &parts);
  CHECK(strcmp(parts.joints[parts.njoint - 1].name, "vertical") == 0);

  /* the first handover, on the upright testbench */
  nsed_model *up = testbench_model(&parts, 1, 0);
  nsed_data *du;
  must(nsed_data_create(up, &du, &err), &err);
  first_events fe;
  int out, in;
  testbench_first_handover(up, du, &fe, &out, &in);
  CHECK(fe.n == 2 && fe.ev[0].t == fe.ev[1].t);
  CHECK(out >= 0 && in >= 0);
  if (out < 0 || in < 0) return TEST_DONE();

  /* the same state on the free wheel, coming down at V */
  nsed_model *m = testbench_model(&parts, 0, 0);
  CHECK(m->nstate == up->nstate && m->ncontact == up->ncontact);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  d->t = du->t;
  memcpy(d->x, du->x, sizeof(double) * (size_t)m->nstate);
  /* Attached rollers (the default) move with the hub: only bodies with
   * states of their own are given the fall. */
  for (int b = 0; b < m->nbody; b++)
    if (m->body[b].xbody >= 0) d->x[m->body[b].xbody + 9] -= V;
  nsedi_refresh_geometry(m, d);
  /* the testbench's four rollers, one contact each */
  int fired[NSEDI_ROOTS_PER_CONTACT * 4 + 1] = {0};
  if (m->ncontact != 4) {
    CHECK_MSG(0, "the testbench has %d contacts, not 4", m->ncontact);
    return TEST_DONE();
  }
  for (int c = 0; c < m->ncontact; c++) d->ph.mode[c] = NSED_MODE_OPEN;
  const int feet[2] = {out, in};
  for (int k = 0; k < 2; k++) {
    const nsedi_contact_geom *g = &d->cache.geom[feet[k]];
    CHECK_MSG(fabs(g->gap) < 1e-9, "'%s' is %.3g m off the floor", nsed_model_contact_name(m, feet[k]), g->gap);
    CHECK_NEAR(g->row[0].vel, -V, 0, 1e-3); /* the tips' own rates are ~1e-7 at the handover */
    fired[NSEDI_ROOTS_PER_CONTACT * feet[k] + NSEDI_ROOT_CONTACT] = -1;
  }
  CHECK_MSG(d->cache.geom[out].leaving, "the outgoing roller's tip does not turn away");
  double separation = hypot(d->cache.geom[out].p[1] - d->cache.geom[in].p[1],
                            d->cache.geom[out].p[0] - d->cache.geom[in].p[0]);
  double e0 = nsed_data_energy(m, d), vz0 = d->x[9];
  double tip_rate[2] = {d->cache.geom[out].row[0].vel + V, d->cache.geom[in].row[0].vel + V};

  int rc = nsedi_resolve(m, d, fired, NULL, &err);
  CHECK_MSG(rc == NSED_OK, "the landing: %s", rc ? err.message : "");
  double e1 = nsed_data_energy(m, d), vz1 = d->x[9];
  printf("feet %.4f apart; before: hub v_z %.6g, tips' own rates %.3g, %.3g; after: modes %s, %s, "
         "normal velocities %.3g, %.3g, impulses %.4g, %.4g N s, hub v_z %.3g, mechanical energy %.12g -> %.12g\n",
         separation, vz0, tip_rate[0], tip_rate[1], nsed_mode_name(d->ph.mode[out]), nsed_mode_name(d->ph.mode[in]),
         d->cache.geom[out].row[0].vel, d->cache.geom[in].row[0].vel, d->ev.impulse[3 * out], d->ev.impulse[3 * in],
         vz1, e0, e1);
  CHECK_NEAR(separation, 2 * sin(M_PI / 4) * tan(0.4), 1e-6, 0);
  for (int k = 0; k < 2; k++) {
    int c = feet[k];
    CHECK_MSG(d->cache.geom[c].row[0].vel >= -m->opt.slip_tol, "'%s' approaches at %.3g m/s after the impact",
              nsed_model_contact_name(m, c), d->cache.geom[c].row[0].vel);
    CHECK_MSG(d->ev.impulse[3 * c] > 0, "'%s' took no normal impulse", nsed_model_contact_name(m, c));
  }
  /* the outgoing tip, stopped, turns away: it opens at the acceleration
   * level (the handover after the landing); the incoming roller stays */
  CHECK(d->ph.mode[out] == NSED_MODE_OPEN && d->ph.mode[in] != NSED_MODE_OPEN);
  CHECK_NEAR(d->ev.impulse[3 * out], d->ev.impulse[3 * in], 0, 1e-8);
  /* the floor takes the whole vertical momentum (hub and rollers, their
   * centre of mass the hub's centre): sum P_n = (m_hub + n m_roller) V */
  nsed_omni_testbench_def def; /* the parts' masses */
  nsed_omni_testbench_def_default(&def);
  double mass = def.wheel.hub_mass + def.wheel.rollers * def.wheel.roller_mass;
  CHECK_NEAR(d->ev.impulse[3 * out] + d->ev.impulse[3 * in], mass * V, 0, 1e-9);
  /* plastic and without tangential slip: the impact takes the vertical
   * motion's energy, M V^2 / 2, and nothing else */
  CHECK_NEAR(e0 - e1, 0.5 * mass * V * V, 0, 1e-6);
  /* held at both feet, the hub comes down no faster than the tips' own rates */
  CHECK(fabs(vz1) <= fmax(fabs(tip_rate[0]), fabs(tip_rate[1])) + 1e-12);

  nsed_data_free(&d);
  nsed_model_free(&m);
  nsed_data_free(&du);
  nsed_model_free(&up);
  nsed_assembly_free(&parts);
  return TEST_DONE();
}
