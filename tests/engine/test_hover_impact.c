/* A flight held closed keeps the impact that lifted it (event_settle.c,
 * nsedi_settle_hovering; docs/engine.md, "Flights below the margin").
 *
 * The omni-wheel testbench with inclined rollers (psi = 0.4) rolls towards
 * its first handover. A little before it the wheel is lowered by EPS, as
 * the drift of a loose integration lowers it (2.1e-10 m on a mecanum
 * vehicle at rtol 1e-6): the incoming roller's tip, which would touch the
 * floor tangentially at the handover, now reaches below it early and
 * approaches with the wheel's turn (R dtheta omega, ~1e-5 m/s). Its
 * closing root fires; the event is a plastic impact at the tip, which
 * lifts the outgoing roller's contact (the wheel rocks onto the tip) by a
 * flight below its lift-off margin, which the event holds closed.
 *
 * The law of the impact: after the event the struck tip does not approach.
 * When the hold was settled with the struck contact's row among those
 * that only keep their velocity, the least-squares impulse gave the tip
 * back its approach (-2.6e-6 m/s on the vehicle): the tip, left open below
 * its closing level, fired again at once, 50 times within 1e-9 s, until
 * the Zeno guard stopped the run. With only the struck row also required,
 * the hold reached both feet by stopping the wheel's roll (a wheel rolling
 * over a tip must lift its hub): 0.642 J, all its kinetic energy. Checked
 * here: the tip does not approach after the event (to slip_tol), and the
 * event takes no more energy than the wheel's vertical approach had. */
#include "nsed_test.h"
#include "sim_impl.h"
#include "testbench_util.h"
#include "tolerances.h"

static const double EPS = 2.5e-10; /* the wheel lowered (m; R = 1) */
static const double EARLY = 1e-5; /* how long before the handover (s; the wheel turns at 1 rad/s) */

int main(void) {
  nsed_error err;
  nsed_assembly parts;
  testbench_parts(0.4, &parts);

  /* the first handover's instant and its two rollers */
  int out, in;
  double t_handover = testbench_handover_time(&parts, &out, &in);
  CHECK(!isnan(t_handover));
  if (isnan(t_handover)) return TEST_DONE();

  /* a little before it, the wheel lowered */
  nsed_model *m = testbench_model(&parts, 1, t_handover - EARLY);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  must(nsed_simulate(m, d, NULL, &err), &err);
  CHECK(d->ph.mode[out] != NSED_MODE_OPEN && d->ph.mode[in] == NSED_MODE_OPEN);
  for (int b = 0; b < m->nbody; b++)
    if (m->body[b].xbody >= 0) d->x[m->body[b].xbody + 2] -= EPS;
  nsedi_refresh_geometry(m, d);
  const nsedi_contact_geom *gi = &d->cache.geom[in], *go = &d->cache.geom[out];
  double approach = gi->row[0].vel;
  printf("t = %.10g (handover at %.10g): incoming tip gap %.3g m, normal velocity %.3g m/s; outgoing gap %.3g m\n",
         d->t, t_handover, gi->gap, approach, go->gap);
  /* below the roller's closing level, approaching faster than an impact's threshold */
  CHECK(gi->gap < -NSEDI_ROLLER_LIFTOFF_MARGIN * m->opt.contact_tol);
  CHECK(approach < -100 * m->opt.slip_tol);
  CHECK_NEAR(go->gap, -EPS, 1e-11, 0);

  int fired[NSEDI_ROOTS_PER_CONTACT * 4 + 1] = {0};
  if (m->ncontact != 4) {
    CHECK_MSG(0, "the testbench has %d contacts, not 4", m->ncontact);
    return TEST_DONE();
  }
  fired[NSEDI_ROOTS_PER_CONTACT * in + NSEDI_ROOT_CONTACT] = -1;
  double e0 = nsed_data_energy(m, d);
  int rc = nsedi_resolve(m, d, fired, NULL, &err);
  CHECK_MSG(rc == NSED_OK, "the event: %s", rc ? err.message : "");
  double e1 = nsed_data_energy(m, d);
  printf("after: incoming %s (impacted %d, impulse %.4g N s, normal velocity %.3g m/s), outgoing %s (hover %d, "
         "normal velocity %.3g m/s); mechanical energy lost %.3g\n",
         nsed_mode_name(d->ph.mode[in]), d->ev.impacted[in], d->ev.impulse[3 * in], gi->row[0].vel,
         nsed_mode_name(d->ph.mode[out]), (d->ev.trigger[out] & NSEDI_TRIG_HOVER) != 0, go->row[0].vel, e0 - e1);
  CHECK(d->ev.impacted[in]);
  CHECK(d->ev.impulse[3 * in] > 0);
  CHECK_MSG(gi->row[0].vel >= -m->opt.slip_tol, "the struck tip approaches at %.3g m/s after the impact",
            gi->row[0].vel);
  CHECK_MSG(go->row[0].vel >= -m->opt.slip_tol, "the outgoing roller approaches at %.3g m/s", go->row[0].vel);
  /* a plastic impact at a tip approaching at |approach| loses at most
   * what stopping the whole wheel's vertical approach would: M v^2 / 2
   * (5.5e-11 J; a hold that stops the roll takes 0.642 J) */
  nsed_omni_testbench_def def; /* the parts' masses */
  nsed_omni_testbench_def_default(&def);
  double mass = def.wheel.hub_mass + def.wheel.rollers * def.wheel.roller_mass;
  CHECK(e0 - e1 >= -1e-15);
  CHECK(e0 - e1 <= 0.5 * mass * approach * approach * (1 + 1e-6));

  nsed_data_free(&d);
  nsed_model_free(&m);
  nsed_assembly_free(&parts);
  return TEST_DONE();
}
