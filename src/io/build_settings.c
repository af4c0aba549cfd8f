#include <string.h>

#include "build.h"
#include "yread.h"

static const char *const integrator_names[] = {"arkode_dp5", "arkode_verner", "cvode_adams",
                                               "cvode_bdf", NULL};
static const char *const step_controllers[] = {"pi_gustafsson", "pi", NULL};
static const char *const friction_models[] = {"polygon", "exact_cone", NULL};
static const char *const friction_forms[] = {"face", "vertex", NULL};
static const char *const lcp_paths[] = {"auto", "siconos", "nsed", "enum", "milp", NULL};
static const char *const tracking_names[] = {"explicit", "implicit", "differential", NULL};

/* A section mapping, or NULL if absent (an empty "solver:" counts as absent). */
static const nsedi_ynode *section(nsedi_problem_defs *p, const char *key, const char *const *keys,
                                  int *rc) {
  const nsedi_ynode *s = nsedi_ymap_get(p->root, key);
  if (!s || nsedi_yis_null(s)) return NULL;
  if (nsedi_check_map(p->d, s, key, keys)) {
    *rc = -1;
    if (s->kind != NSEDI_Y_MAP) return NULL;
  }
  return s;
}

static int read_floor(nsedi_problem_defs *p) {
  static const char *const keys[] = {"normal", "point", "velocity", "spin", NULL};
  int rc = 0;
  const nsedi_ynode *s = section(p, "floor", keys, &rc);
  if (!s) return rc;
  nsed_options *o = &p->opt;
  const char *path = "floor";
  NSEDI_OPT(s, path, "normal", nsedi_read_dir(p->d, v_, kp_, o->floor_normal));
  NSEDI_OPT(s, path, "point", nsedi_read_vec(p->d, v_, kp_, 3, o->floor_point));
  NSEDI_OPT(s, path, "velocity", nsedi_read_vec(p->d, v_, kp_, 3, o->floor_velocity));
  NSEDI_OPT(s, path, "spin", nsedi_read_double(p->d, v_, kp_, NSEDI_ANY, &o->floor_spin));
  return rc;
}

static int read_friction(nsedi_problem_defs *p) {
  static const char *const keys[] = {"model", "form", "sides", "path", "tol", "max_pivots",
                                     "cone_tol", NULL};
  int rc = 0;
  const nsedi_ynode *s = section(p, "friction", keys, &rc);
  if (!s) return rc;
  nsed_complementarity_settings *f = &p->opt.friction;
  const char *path = "friction";
  int model = f->model == NSED_FRICTION_EXACT_CONE ? 1 : 0;
  int form = f->model == NSED_FRICTION_POLYGON_VERTEX ? 1 : 0;
  int lcp = (int)f->path;
  long sides = f->sides, pivots = f->max_pivots;
  NSEDI_OPT(s, path, "model", nsedi_read_enum(p->d, v_, kp_, friction_models, &model));
  NSEDI_OPT(s, path, "form", nsedi_read_enum(p->d, v_, kp_, friction_forms, &form));
  NSEDI_OPT(s, path, "path", nsedi_read_enum(p->d, v_, kp_, lcp_paths, &lcp));
  NSEDI_OPT(s, path, "sides", nsedi_read_int(p->d, v_, kp_, 4, 4096, &sides));
  NSEDI_OPT(s, path, "max_pivots", nsedi_read_int(p->d, v_, kp_, 1, 100000000, &pivots));
  NSEDI_OPT(s, path, "tol", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &f->tol));
  NSEDI_OPT(s, path, "cone_tol", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &f->cone_tol));
  if (!rc && sides % 4) {
    char kp[300];
    KP(kp, path, "sides");
    rc = nsedi_diag_add(p->d, nsedi_ymap_get(s, "sides"), kp,
                        "the friction polygon has 4n* sides: expected a multiple of 4, got %ld", sides);
  }
  f->model = model == 1 ? NSED_FRICTION_EXACT_CONE
                        : (form == 1 ? NSED_FRICTION_POLYGON_VERTEX : NSED_FRICTION_POLYGON_FACE);
  f->path = (nsed_lcp_path)lcp;
  f->sides = (int)sides;
  f->max_pivots = (int)pivots;
  return rc;
}

static int read_solver(nsedi_problem_defs *p) {
  static const char *const keys[] = {"integrator", "rtol", "atol", "t_end", "max_step", "baumgarte",
                                     "contact_tol", "slip_tol", "slip_stop_speed", "drift_tol", "zeno",
                                     "max_events", "event_resolver", "step_controller", NULL};
  static const char *const resolver_names[] = {"lcp", "trial", NULL};
  static const char *const bkeys[] = {"eta", "xi", "gamma", NULL};
  static const char *const zkeys[] = {"events", "window", "velocity", NULL};
  int rc = 0;
  const nsedi_ynode *s = section(p, "solver", keys, &rc);
  if (!s) return rc;
  nsed_options *o = &p->opt;
  const char *path = "solver";
  int integ = (int)o->integrator;
  long max_events = o->max_events, zeno_events = o->zeno_events;
  NSEDI_OPT(s, path, "integrator", nsedi_read_enum(p->d, v_, kp_, integrator_names, &integ));
  o->integrator = (nsed_integrator)integ;
  const nsedi_ynode *ctl_node = nsedi_ymap_get(s, "step_controller");
  int ctl = (int)o->step_controller;
  if (ctl_node) {
    if (nsedi_read_enum(p->d, ctl_node, "solver.step_controller", step_controllers, &ctl))
      rc = -1;
    else if (o->integrator == NSED_INTEGRATOR_CVODE_ADAMS || o->integrator == NSED_INTEGRATOR_CVODE_BDF)
      rc = nsedi_diag_add(p->d, ctl_node, "solver.step_controller",
                          "applies to the arkode integrators; %s chooses its steps itself (remove "
                          "the key or use arkode_dp5 / arkode_verner)", nsed_integrator_name(o->integrator));
  }
  o->step_controller = (nsed_step_controller)ctl;
  int resolver = (int)o->event_resolver;
  NSEDI_OPT(s, path, "event_resolver", nsedi_read_enum(p->d, v_, kp_, resolver_names, &resolver));
  o->event_resolver = (nsed_event_resolver)resolver;
  NSEDI_OPT(s, path, "rtol", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &o->rtol));
  NSEDI_OPT(s, path, "atol", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &o->atol));
  NSEDI_OPT(s, path, "t_end", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &o->t_end));
  NSEDI_OPT(s, path, "max_step", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &o->max_step));
  NSEDI_OPT(s, path, "contact_tol", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &o->contact_tol));
  NSEDI_OPT(s, path, "slip_tol", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &o->slip_tol));
  NSEDI_OPT(s, path, "slip_stop_speed",
      nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &o->slip_stop_speed));
  NSEDI_OPT(s, path, "drift_tol", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &o->drift_tol));
  NSEDI_OPT(s, path, "max_events", nsedi_read_int(p->d, v_, kp_, 1, 2147483647L, &max_events));
  o->max_events = (int)max_events;
  const nsedi_ynode *b = nsedi_ymap_get(s, "baumgarte");
  if (b && !nsedi_yis_null(b)) {
    const char *bp = "solver.baumgarte";
    if (nsedi_check_map(p->d, b, bp, bkeys)) rc = -1;
    else {
      NSEDI_OPT(b, bp, "eta", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &o->baumgarte_eta));
      NSEDI_OPT(b, bp, "xi", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &o->baumgarte_xi));
      NSEDI_OPT(b, bp, "gamma", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &o->baumgarte_gamma));
    }
  }
  const nsedi_ynode *z = nsedi_ymap_get(s, "zeno");
  if (z && !nsedi_yis_null(z)) {
    const char *zp = "solver.zeno";
    if (nsedi_check_map(p->d, z, zp, zkeys)) rc = -1;
    else {
      NSEDI_OPT(z, zp, "events", nsedi_read_int(p->d, v_, kp_, 2, 2147483647L, &zeno_events));
      o->zeno_events = (int)zeno_events;
      NSEDI_OPT(z, zp, "window", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &o->zeno_window));
      NSEDI_OPT(z, zp, "velocity", nsedi_read_double(p->d, v_, kp_, NSEDI_NONNEGATIVE, &o->zeno_velocity));
    }
  }
  return rc;
}

static int read_output(nsedi_problem_defs *p) {
  static const char *const keys[] = {"dt", "steps", NULL};
  static const char *const booleans[] = {"false", "true", NULL};
  int rc = 0;
  const nsedi_ynode *s = section(p, "output", keys, &rc);
  if (!s) return rc;
  const char *path = "output";
  NSEDI_OPT(s, path, "dt", nsedi_read_double(p->d, v_, kp_, NSEDI_POSITIVE, &p->opt.output_dt));
  const nsedi_ynode *steps = nsedi_ymap_get(s, "steps");
  if (steps) {
    int on = p->opt.output_steps != 0;
    if (nsedi_read_enum(p->d, steps, "output.steps", booleans, &on)) return -1;
    nsed_integrator it = p->opt.integrator;
    if (on && (it == NSED_INTEGRATOR_CVODE_ADAMS || it == NSED_INTEGRATOR_CVODE_BDF))
      return nsedi_diag_add(p->d, steps, "output.steps",
                            "the step log needs an arkode integrator; %s has no hook after each step "
                            "(remove the key or use arkode_dp5 / arkode_verner)", nsed_integrator_name(it));
    p->opt.output_steps = on;
  }
  return rc;
}

int nsedi_build_settings(nsedi_problem_defs *p) {
  int rc = 0;
  const char *path = "";
  NSEDI_OPT(p->root, path, "gravity", nsedi_read_vec(p->d, v_, kp_, 3, p->opt.gravity));
  int tracking = (int)p->opt.contact_tracking;
  NSEDI_OPT(p->root, path, "contact_tracking", nsedi_read_enum(p->d, v_, kp_, tracking_names, &tracking));
  p->opt.contact_tracking = (nsed_contact_tracking)tracking;
  rc |= read_floor(p);
  rc |= read_friction(p);
  rc |= read_solver(p);
  rc |= read_output(p);
  const nsedi_ynode *v;
  char got[96];
  if ((v = nsedi_ymap_get(p->root, "name")) && (v->kind != NSEDI_Y_SCALAR || nsedi_yis_null(v))) {
    nsedi_ydescribe(v, got, sizeof got);
    rc = nsedi_diag_add(p->d, v, "name", "expected a string, got %s", got);
  }
  if ((v = nsedi_ymap_get(p->root, "description")) && v->kind != NSEDI_Y_SCALAR) {
    nsedi_ydescribe(v, got, sizeof got);
    rc = nsedi_diag_add(p->d, v, "description", "expected a string, got %s", got);
  }
  return rc ? -1 : 0;
}
