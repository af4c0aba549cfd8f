/* Kosenko's vehicle spinning nearly in place (omni_vehicle_coast.yaml with
 * velocity (v, 0) and its yaw rate 0.5): its three wheels hand over within
 * nanoseconds of each other, and a roller that started slipping from rest
 * at one handover is still within its velocity noise at the next. Two
 * mechanisms of the event step (docs/engine.md), each of which stopped
 * such a run on the law monitor before it was mended:
 *   v = 1e-8: a slip from rest carried through another wheel's handover
 *   decelerates from rest, and its stop indicator, anchored at zero,
 *   started below zero where no root fires ("Phase starts"): the run
 *   stopped at t = 0.7854061 with the slip reversed. Anchored a noise
 *   below, wheel 1's roller 0 stops on its own root between wheel 2's
 *   handover and wheel 0's;
 *   v = 1e-4: the settling impulse of a roller that closed at its tip
 *   changed the phase's forces by 1% and left another roller's stick
 *   outside its friction polygon ("Modes at the settled state": they are
 *   decided again there); the run stopped at t = 19.6452.
 * Each must run clean (the law monitor checks every sample, event and
 * step end). argv[1] is the source root. */
#include <math.h>
#include <string.h>

#include "engine_util.h"
#include "nsed_test.h"
#include "sim_impl.h"

static recorder rec;

static int run(const char *root, const char *velocity, const char *t_end, nsed_model **mp) {
  char vset[64], tset[64];
  snprintf(vset, sizeof vset, "omni_vehicle.velocity=[%s, 0]", velocity);
  snprintf(tset, sizeof tset, "solver.t_end=%s", t_end);
  /* The rollers as rotors on axles: the trajectory where the mechanisms
   * showed (attached rollers, the default, order these near-simultaneous
   * handovers otherwise at round-off and do not reach them). */
  const char *const sets[] = {vset, tset, "output.dt=0.1", "omni_vehicle.roller_frame=rotor"};
  nsed_model *m = load_shipped(root, "omni_vehicle_coast.yaml", sets, 4);
  nsed_data *d = NULL;
  nsed_error err;
  must(nsed_data_create(m, &d, &err), &err);
  memset(&rec, 0, sizeof rec);
  nsed_observer obs = {.ctx = &rec, .event = rec_event, .sample = rec_sample};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "velocity %s: %s", velocity, rc ? err.message : "");
  printf("velocity (%s, 0): %s at t = %.9g, %d events\n", velocity, rc ? "failed" : "ok", d->t, rec.nev);
  nsed_data_free(&d);
  *mp = m;
  return rc;
}

static int contact_index(const nsed_model *m, const char *name) {
  for (int c = 0; c < nsed_model_ncontact(m); c++)
    if (!strcmp(nsed_model_contact_name(m, c), name)) return c;
  return -1;
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  nsed_model *m = NULL;
  run(root, "1e-8", "1", &m);
  /* wheel 1's roller 0, slipping from rest, stops on its own root after
   * wheel 2's handover and before wheel 0's (8.6e-9 s later) */
  int r10 = contact_index(m, "wheel1_roller0_floor"), r20 = contact_index(m, "wheel2_roller0_floor"),
      r00 = contact_index(m, "wheel0_roller0_floor");
  CHECK(r10 >= 0 && r20 >= 0 && r00 >= 0);
  double t2 = -1, t0 = -1, t_stick = -1;
  for (int i = 0; i < rec.nev; i++) {
    const nsed_event *e = &rec.ev[i];
    if (t2 < 0 && e->contact == r20 && e->kind == NSED_EVENT_OPEN) t2 = e->t;
    if (t0 < 0 && e->contact == r00 && e->kind == NSED_EVENT_OPEN) t0 = e->t;
    if (t_stick < 0 && t2 > 0 && e->contact == r10 && e->kind == NSED_EVENT_STICK) t_stick = e->t;
  }
  printf("handovers of wheel 2 at t = %.17g and wheel 0 at %.17g; wheel 1's roller 0 sticks at %.17g\n", t2, t0,
         t_stick);
  CHECK_MSG(t2 > 0.7854 && t2 < 0.7855, "wheel 2's handover at %.17g", t2);
  CHECK_MSG(t_stick > t2 && t_stick < t0, "the slip from rest stops between the handovers (at %.17g)", t_stick);
  nsed_model_free(&m);
  run(root, "1e-4", "20", &m);
  nsed_model_free(&m);
  return TEST_DONE();
}
