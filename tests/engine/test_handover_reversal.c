/* A handover whose turn reverses (event_anchor.c, mark_region_rising;
 * docs/rollers.md, "A handover the turn reverses").
 *
 * The omni-wheel testbench with inclined rollers (psi = 0.4) rolls towards
 * its first handover against a braking force on its hub (the load tilted
 * back). Half a band before the handover (the outgoing roller's region
 * indicator at NSEDI_ROLLER_REGION_BAND / 2) its velocities are scaled
 * down by SLOW and the run restarted there: its first event, inside the
 * band, hands the contact over (the outgoing roller on its tip side, the
 * incoming one closed on its surface side with its region indicator at
 * -band / 2, below zero). The brake then reverses the slow turn before
 * that indicator has risen through zero (it rises by ~1e-10): the incoming
 * roller's contact point moves back past its boundary, and the wheel must
 * stand on the outgoing roller again.
 *
 * With the incoming roller's region root anchored at its start value
 * (below zero) it never fired: the roller carried the wheel on its surface
 * continued past its boundary (the psi = 0.4 vehicle drive in the vertex
 * form stopped so, the other roller 1.38e-6 m below the floor after 0.087
 * s; here the wheel rolled back 0.02 rad on the wrong roller and the run
 * said ok). Checked: the wheel hands back where its turn reverses (within
 * 5% of r / a from the measured deceleration), and then rolls back on the
 * outgoing roller, its gap and the open roller's within contact_tol of
 * the floor and above it, the energy (the brake's potential included)
 * conserved as rolling without slip
 * requires. */
#include "nsed_test.h"
#include "sim_impl.h"
#include "testbench_util.h"
#include "tolerances.h"

static const double EARLY = 1e-5; /* where the region's rate is measured (s before the handover) */
static const double BRAKE = 0.2;  /* the load's backward component (N; its downward one is 1) */
static const double SLOW = 1e-5;  /* the velocities' scale at the restart */
static const double BACK = 0.5;   /* how long the run goes on after the restart (s) */

/* Every velocity of the state scaled by k (the same path, slower). */
static void scale_velocities(const nsed_model *m, double *x, double k) {
  for (int b = 0; b < m->nbody; b++) {
    const nsedi_body *bb = &m->body[b];
    if (bb->parent >= 0) {
      x[bb->xrate] *= k;
      continue;
    }
    for (int i = 7; i < 13; i++) x[bb->xbody + i] *= k;
  }
}

/* The events, and the rollers' modes after the restart's own event. */
typedef struct {
  recorder rec; /* first: rec_event's context */
  int in, out, started, in_closed, out_open;
  double g0; /* the incoming roller's oriented region indicator there */
} restart;

static int at_restart(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m;
  restart *r = ctx;
  if (why == NSED_SAMPLE_INITIAL && !r->started) {
    r->started = 1;
    r->in_closed = d->ph.mode[r->in] != NSED_MODE_OPEN;
    r->out_open = d->ph.mode[r->out] == NSED_MODE_OPEN;
    r->g0 = d->ph.region_sign[r->in] * d->cache.geom[r->in].region;
  }
  return 0;
}

int main(void) {
  nsed_error err;
  nsed_assembly parts;
  testbench_parts(0.4, &parts);
  CHECK(parts.nforce == 1);
  nsed_force_def *load = &parts.forces[0];
  load->direction[0] = -BRAKE, load->direction[2] = -1;
  load->magnitude = nsed_law_constant(hypot(BRAKE, 1));

  /* the first handover's instant and its two rollers */
  int out, in;
  double t_handover = testbench_handover_time(&parts, &out, &in);
  CHECK(!isnan(t_handover));
  if (isnan(t_handover)) return TEST_DONE();

  /* the outgoing roller's region rate, then half a band before its root */
  nsed_model *probe = testbench_model(&parts, 1, t_handover - EARLY);
  nsed_data *dp;
  must(nsed_data_create(probe, &dp, &err), &err);
  must(nsed_simulate(probe, dp, NULL, &err), &err);
  double rate = dp->cache.geom[out].region / EARLY;
  double band = NSEDI_ROLLER_REGION_BAND;
  nsed_model *m = testbench_model(&parts, 1, t_handover - 0.5 * band / rate);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  must(nsed_simulate(m, d, NULL, &err), &err);
  const nsedi_contact_geom *gi = &d->cache.geom[in], *go = &d->cache.geom[out];
  printf("t = %.15g (handover at %.15g): outgoing region %.3g (rate %.3g), mode %s; incoming gap %.3g\n", d->t,
         t_handover, go->region, rate, nsed_mode_name(d->ph.mode[out]), gi->gap);
  CHECK(go->region > 0 && go->region < band);
  CHECK(d->ph.mode[out] != NSED_MODE_OPEN && d->ph.mode[in] == NSED_MODE_OPEN);

  /* slowed down and started again there (the same model, its run longer) */
  double t0 = d->t;
  nsed_model *m2 = testbench_model(&parts, 1, t0 + BACK);
  nsed_data *d2;
  must(nsed_data_create(m2, &d2, &err), &err);
  memcpy(d2->x, d->x, sizeof(double) * (size_t)m->nstate);
  d2->t = t0;
  scale_velocities(m2, d2->x, SLOW);
  nsed_data_free(&d);
  nsed_model_free(&m);
  m = m2, d = d2;
  gi = &d->cache.geom[in], go = &d->cache.geom[out];
  nsedi_kin_eval(m, d->x, d->cache.kin);
  double e0 = nsed_data_energy(m, d);
  restart rec = {.in = in, .out = out};
  nsed_observer obs = {.ctx = &rec, .event = rec_event, .sample = at_restart};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "the restarted run: %s", rc ? err.message : "");
  /* the restart's event hands over inside the band, then the wheel back */
  CHECK_MSG(rec.in_closed && rec.out_open, "the restart did not hand over to the incoming roller");
  double g0 = rec.g0;
  printf("after the restart's event: incoming roller's indicator %.3g\n", g0);
  CHECK(g0 < 0); /* the case: an indicator that starts below zero */
  double t_back = NAN;
  for (int i = 0; i < rec.rec.nev; i++) {
    const nsed_event *e = &rec.rec.ev[i];
    printf("  event %d: t - t0 = %.4g, %s '%s' %s -> %s\n", i, e->t - t0, nsed_event_kind_name(e->kind),
           e->contact >= 0 ? m->contact[e->contact].def.name : "-", nsed_mode_name(e->from), nsed_mode_name(e->to));
    if (e->contact == in && e->kind == NSED_EVENT_OPEN && isnan(t_back)) t_back = e->t;
  }
  CHECK_MSG(!isnan(t_back), "the wheel did not hand back to the outgoing roller");
  /* The turn's rate r = SLOW rate falls at the brake's a_region (from the
   * hub's deceleration over the run: the region changed at `rate` while
   * the hub rolled at 1): the indicator rises by r^2 / 2 a_region, staying
   * below zero, and the turn reverses at r / a_region, where the wheel
   * must hand back. */
  double r = SLOW * rate;
  CHECK(d->ph.mode[out] != NSED_MODE_OPEN && d->ph.mode[in] == NSED_MODE_OPEN);
  double vx = d->x[m->body[0].xbody + 7];
  double a = -vx / BACK, a_region = a * fabs(rate);
  double rise = r * r / (2 * a_region), expected = r / a_region;
  printf("the hub rolls back at %.6g after %.3g s (deceleration %.4g); handed back %.4g s after the restart "
         "(expected %.4g, the indicator's rise %.3g)\n",
         vx, BACK, a, t_back - t0, expected, rise);
  CHECK(vx < 0);
  CHECK(rise < fabs(g0)); /* the case: reversed before the indicator reaches zero */
  CHECK_NEAR(t_back - t0, expected, 0, 0.05);
  printf("at the end: outgoing gap %.3g m (%s), incoming gap %.3g m; energy change %.3g, work of the load %.3g, "
         "of the contacts %.3g J\n",
         go->gap, nsed_mode_name(d->ph.mode[out]), gi->gap, nsed_data_energy(m, d) - e0,
         d->stats.work_external, d->stats.work_contacts);
  CHECK(fabs(go->gap) <= m->opt.contact_tol);
  CHECK(gi->gap >= -m->opt.contact_tol);
  /* rolling: no slip, no impact, the load's work all kinetic energy */
  CHECK_NEAR(nsed_data_energy(m, d) - e0, d->stats.work_external, 1e-9, 1e-6);
  CHECK(fabs(d->stats.work_contacts) <= 1e-9);

  nsed_data_free(&d);
  nsed_model_free(&m);
  nsed_data_free(&dp);
  nsed_model_free(&probe);
  nsed_assembly_free(&parts);
  return TEST_DONE();
}
