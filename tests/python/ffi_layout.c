/* The layout of the public structs the Python binding declares by hand
 * (python/nsed/_ffi.py): "STRUCT sizeof N" and "STRUCT FIELD OFFSET" lines,
 * which test_ffi_layout.py compares with cffi's reading of the CDEF. */
#include <stddef.h>
#include <stdio.h>

#include "nsed/nsed.h"

#define SIZE(s) printf(#s " sizeof %zu\n", sizeof(s))
#define FIELD(s, f) printf(#s " " #f " %zu\n", offsetof(s, f))

int main(void) {
  SIZE(nsed_error);
  FIELD(nsed_error, status);
  FIELD(nsed_error, message);
  SIZE(nsed_event);
  FIELD(nsed_event, t);
  FIELD(nsed_event, kind);
  FIELD(nsed_event, contact);
  FIELD(nsed_event, from);
  FIELD(nsed_event, to);
  FIELD(nsed_event, lcp_size);
  FIELD(nsed_event, pivots);
  FIELD(nsed_event, residual);
  FIELD(nsed_event, path);
  FIELD(nsed_event, impulse);
  SIZE(nsed_contact_info);
  FIELD(nsed_contact_info, mode);
  FIELD(nsed_contact_info, gap);
  FIELD(nsed_contact_info, lambda);
  FIELD(nsed_contact_info, slip_speed);
  FIELD(nsed_contact_info, point);
  SIZE(nsed_law_margin);
  FIELD(nsed_law_margin, worst);
  FIELD(nsed_law_margin, tolerance);
  FIELD(nsed_law_margin, t);
  FIELD(nsed_law_margin, where);
  FIELD(nsed_law_margin, count);
  SIZE(nsed_stats);
  FIELD(nsed_stats, events);
  FIELD(nsed_stats, lcp_solves);
  FIELD(nsed_stats, rhs_evals);
  FIELD(nsed_stats, steps);
  FIELD(nsed_stats, root_evals);
  FIELD(nsed_stats, events_by_kind);
  FIELD(nsed_stats, max_constraint_violation);
  FIELD(nsed_stats, max_lcp_residual);
  FIELD(nsed_stats, wall_seconds);
  FIELD(nsed_stats, wall_rhs);
  FIELD(nsed_stats, wall_roots);
  FIELD(nsed_stats, wall_events);
  FIELD(nsed_stats, work_external);
  FIELD(nsed_stats, work_contacts);
  FIELD(nsed_stats, work_joints);
  FIELD(nsed_stats, energy_initial);
  FIELD(nsed_stats, law);
  FIELD(nsed_stats, wall_monitor);
  FIELD(nsed_stats, onsets_off_circle);
  SIZE(nsed_observer);
  FIELD(nsed_observer, ctx);
  FIELD(nsed_observer, sample);
  FIELD(nsed_observer, event);
  FIELD(nsed_observer, progress);
  FIELD(nsed_observer, interrupt);
  SIZE(nsed_complementarity_settings);
  FIELD(nsed_complementarity_settings, model);
  FIELD(nsed_complementarity_settings, sides);
  FIELD(nsed_complementarity_settings, path);
  FIELD(nsed_complementarity_settings, tol);
  FIELD(nsed_complementarity_settings, max_pivots);
  FIELD(nsed_complementarity_settings, cone_tol);
  SIZE(nsed_options);
  FIELD(nsed_options, gravity);
  FIELD(nsed_options, floor_normal);
  FIELD(nsed_options, floor_point);
  FIELD(nsed_options, floor_velocity);
  FIELD(nsed_options, friction);
  FIELD(nsed_options, integrator);
  FIELD(nsed_options, t_end);
  FIELD(nsed_options, rtol);
  FIELD(nsed_options, atol);
  FIELD(nsed_options, max_step);
  FIELD(nsed_options, output_dt);
  SIZE(nsed_force_def);
  FIELD(nsed_force_def, name);
  SIZE(nsed_run_options);
  FIELD(nsed_run_options, problem_path);
  FIELD(nsed_run_options, problem_text);
  FIELD(nsed_run_options, problem_len);
  FIELD(nsed_run_options, overrides);
  FIELD(nsed_run_options, noverrides);
  FIELD(nsed_run_options, progress);
  FIELD(nsed_run_options, progress_ctx);
  FIELD(nsed_run_options, interrupt);
  FIELD(nsed_run_options, format);
  SIZE(nsed_run_result);
  FIELD(nsed_run_result, status);
  FIELD(nsed_run_result, t_reached);
  FIELD(nsed_run_result, events);
  FIELD(nsed_run_result, wall_seconds);
  FIELD(nsed_run_result, written);
  SIZE(nsed_summary_info);
  FIELD(nsed_summary_info, problem_path);
  FIELD(nsed_summary_info, problem_sha256);
  FIELD(nsed_summary_info, overrides);
  FIELD(nsed_summary_info, noverrides);
  FIELD(nsed_summary_info, status);
  FIELD(nsed_summary_info, message);
  printf("NSED_EVENT_NKIND %d\nNSED_LAW_NCHECK %d\nNSED_RECORDER_CONTACT_COLUMNS %d\n",
         NSED_EVENT_NKIND, NSED_LAW_NCHECK, NSED_RECORDER_CONTACT_COLUMNS);
  return 0;
}
