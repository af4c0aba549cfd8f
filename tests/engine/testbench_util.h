/* The omni-wheel testbench for the single-event tests of a handover
 * (test_handover_landing.c, test_hover_impact.c, test_handover_reversal.c):
 * its parts, the model in Kosenko's units, and its first handover. */
#ifndef NSED_TESTS_ENGINE_TESTBENCH_UTIL_H
#define NSED_TESTS_ENGINE_TESTBENCH_UTIL_H

#include "engine_util.h"
#include "nsed/assemblies.h"

/* The testbench of parts (g = 1 along -z, the face form); without its
 * align constraint "vertical" (the last joint) unless upright; t_end > 0
 * replaces the default. */
static inline nsed_model *testbench_model(const nsed_assembly *a, int upright, double t_end) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_assembly parts = *a;
  if (!upright) parts.njoint--;
  must(nsed_assembly_add(m, &parts, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.gravity[0] = o.gravity[1] = 0, o.gravity[2] = -1;
  o.friction.model = NSED_FRICTION_POLYGON_FACE;
  if (t_end > 0) o.t_end = t_end;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

/* Runs d of m to its first handover (both halves: fe); *out, *in: the
 * roller contacts that open and close there, or -1. */
static inline void testbench_first_handover(const nsed_model *m, nsed_data *d, first_events *fe, int *out,
                                            int *in) {
  nsed_error err;
  *fe = (first_events){.stop_at = 2};
  nsed_observer obs = {.ctx = fe, .event = stop_after_events};
  nsed_simulate(m, d, &obs, &err); /* ends with NSED_ERR_IO when the observer stops it */
  *out = *in = -1;
  for (int i = 0; i < fe->n; i++) {
    if (fe->ev[i].kind == NSED_EVENT_OPEN) *out = fe->ev[i].contact;
    if (fe->ev[i].kind == NSED_EVENT_CLOSE) *in = fe->ev[i].contact;
  }
}

/* The default testbench's parts with rollers inclined by psi. */
static inline void testbench_parts(double psi, nsed_assembly *parts) {
  nsed_error err;
  nsed_omni_testbench_def def;
  nsed_omni_testbench_def_default(&def);
  def.wheel.psi = psi;
  *parts = (nsed_assembly){0};
  must(nsed_omni_testbench_build(&def, parts, &err), &err);
}

/* The instant of the upright testbench's first handover (NAN if it has
 * none); *out, *in as testbench_first_handover. */
static inline double testbench_handover_time(const nsed_assembly *parts, int *out, int *in) {
  nsed_error err;
  nsed_model *m = testbench_model(parts, 1, 0);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  first_events fe;
  testbench_first_handover(m, d, &fe, out, in);
  double t = fe.n == 2 && *out >= 0 && *in >= 0 ? fe.ev[0].t : NAN;
  nsed_data_free(&d);
  nsed_model_free(&m);
  return t;
}

#endif
