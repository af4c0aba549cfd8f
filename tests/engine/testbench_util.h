/* The omni-wheel testbench for the single-event tests of a handover
 * (test_handover_landing.c, test_hover_impact.c): the model in Kosenko's
 * units, and its first handover. */
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

#endif
