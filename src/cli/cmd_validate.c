/* nsed validate: check a problem file (with overrides) and print the model
 * as nsed will simulate it, defaults and computed inertias filled in. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "nsed/io.h"
#include "problem_args.h"

static const char usage[] =
    "usage: nsed validate PROBLEM.yaml [--set KEY=VALUE ...]\n"
    "\n"
    "Check PROBLEM.yaml without running it and print the expanded model: bodies,\n"
    "joints, forces, contacts, state count, friction model and solver settings.\n"
    "Every problem found is listed as FILE:LINE:COLUMN: KEY: message.\n"
    "\n"
    "  -s, --set KEY=VALUE  override a key as `nsed run` does (repeatable)\n"
    "  -h, --help           this help\n"
    "\n"
    "Exit status: 0 valid, 2 invalid problem file or usage.\n";

static const char *const force_names[] = {"force", "torque", "spring"};
static const char *const lcp_path_names[] = {"auto", "siconos", "nsed", "enum", "milp"};

static void vec(const char *label, const double *v, int n) {
  printf("%s [", label);
  for (int i = 0; i < n; i++) printf("%s%.10g", i ? ", " : "", v[i]);
  printf("]");
}

static void law(const char *label, const nsed_law *l) {
  printf("      %s: ", label);
  switch (l->type) {
    case NSED_LAW_CONSTANT: printf("constant %.10g\n", l->value); break;
    case NSED_LAW_SINE:
      printf("%.10g + %.10g sin(%.10g t + %.10g)\n", l->offset, l->amplitude, l->omega, l->phase);
      break;
    default: printf("piecewise linear, %d points from t = %.10g to %.10g\n", l->npoints,
                    l->times[0], l->times[l->npoints - 1]);
  }
}

static const char *ground(const char *name) { return *name ? name : "ground"; }

/* A joint drive in words, its law(s) below it. */
static void drive(const char *label, const nsed_joint_drive *dr, const char *unit,
                  const char *coordinate) {
  if (dr->type == NSED_DRIVE_FEEDBACK) {
    printf("      %s (%s): feedforward(t) - %.10g (%s - reference(t)) - %.10g (d%s/dt - "
           "reference'(t))\n",
           label, unit, dr->k, coordinate, dr->c, coordinate);
    law("  reference", &dr->reference);
    law("  feedforward", &dr->feedforward);
  } else if (dr->type == NSED_DRIVE_TABLE) {
    const int of_rate = dr->input == NSED_DRIVE_OF_RATE;
    printf("      %s (%s): table of %s%s, %d points from %.10g to %.10g, constant outside\n", label,
           unit, of_rate ? "d" : "", of_rate ? (coordinate[0] == 'q' ? "q/dt" : "s/dt") : coordinate,
           dr->table.npoints, dr->table.times[0], dr->table.times[dr->table.npoints - 1]);
  }
}

static void print_model(const char *path, const nsed_model *m) {
  const nsed_options *o = nsed_model_options(m);
  printf("%s: valid\n\nbodies (%d):\n", path, nsed_model_nbody(m));
  for (int i = 0; i < nsed_model_nbody(m); i++) {
    const nsed_body_def *b = nsed_model_body_def(m, i);
    printf("  %s: mass %.10g kg, ", b->name, b->mass);
    vec("inertia", b->inertia, 3);
    printf(" kg m^2, shape %s", nsed_shape_type_name(b->shape.type));
    if (b->shape.type == NSED_SHAPE_SPHERE || b->shape.type == NSED_SHAPE_DISK)
      printf(" radius %.10g m", b->shape.radius);
    if (b->shape.type == NSED_SHAPE_CYLINDER || b->shape.type == NSED_SHAPE_CAPSULE)
      printf(" radius %.10g m length %.10g m", b->shape.radius, b->shape.length);
    if (b->shape.type == NSED_SHAPE_BOX) vec(" half extents", b->shape.half, 3);
    if (b->shape.type == NSED_SHAPE_ELLIPSOID || b->shape.type == NSED_SHAPE_SUPERELLIPSOID)
      vec(" semi-axes", b->shape.half, 3);
    if (b->shape.type == NSED_SHAPE_SUPERELLIPSOID) printf(" exponent %.10g", b->shape.exponent);
    if (b->shape.type == NSED_SHAPE_ROLLER)
      printf(" radius %.10g m, rollers %d, psi %.10g rad", b->shape.radius, b->shape.rollers,
             b->shape.psi);
    if (b->rotor != NSED_ROTOR_NONE) printf(", rotor about body %c", "xyz"[b->rotor - 1]);
    if (b->attached_to[0]) printf(", attached to %s", b->attached_to);
    printf("\n    ");
    vec("position", b->position, 3);
    vec("  orientation", b->quat, 4);
    printf("\n    ");
    vec("velocity", b->velocity, 3);
    vec("  angular_velocity (body)", b->angular_velocity, 3);
    printf("\n");
  }
  printf("joints (%d, %d constraint rows):\n", nsed_model_njoint(m), nsed_model_nconstraint_rows(m));
  for (int i = 0; i < nsed_model_njoint(m); i++) {
    const nsed_joint_def *j = nsed_model_joint_def(m, i);
    printf("  %s: %s, %s -> %s\n    ", j->name, nsed_joint_type_name(j->type), ground(j->body_a),
           j->body_b);
    vec("anchor_a", j->anchor_a, 3);
    vec("  anchor_b", j->anchor_b, 3);
    vec("  axis_a", j->axis_a, 3);
    vec("  axis_b", j->axis_b, 3);
    printf("\n");
    if (j->spring_k != 0 || j->spring_c != 0)
      printf("      spring: k %.10g N/m, c %.10g N s/m, rest length %.10g m\n", j->spring_k,
             j->spring_c, j->rest_length);
    if (j->has_torque) law("torque (N m)", &j->torque);
    if (j->type == NSED_JOINT_SERVO) law("servo angle (rad)", &j->servo_angle);
    if (j->servo_level == NSED_SERVO_ACCELERATION)
      printf("      servo at acceleration level: feedback kp %.10g 1/s^2, kd %.10g 1/s\n",
             j->servo_kp, j->servo_kd);
    drive("torque drive", &j->drive, "N m, q the angle from the start in rad", "q");
    drive("axial drive", &j->axial_drive, "N, s the axial coordinate in m", "s");
  }
  printf("forces (%d):\n", nsed_model_nforce(m));
  for (int i = 0; i < nsed_model_nforce(m); i++) {
    const nsed_force_def *f = nsed_model_force_def(m, i);
    printf("  %s: %s on %s", f->name, force_names[f->type], f->body);
    if (f->type == NSED_FORCE_SPRING) {
      printf(" and %s, k %.10g N/m, c %.10g N s/m, rest length %.10g m\n", ground(f->body_b), f->k,
             f->c, f->rest_length);
    } else {
      vec(", direction", f->direction, 3);
      printf(" (%s frame)\n", f->direction_in_body ? "body" : "world");
      law("magnitude", &f->magnitude);
    }
  }
  printf("contacts (%d):\n", nsed_model_ncontact(m));
  for (int i = 0; i < nsed_model_ncontact(m); i++) {
    const nsed_contact_def *c = nsed_model_contact_def(m, i);
    printf("  %s: %s", c->name, c->body);
    if (c->feature >= 0) printf(" feature %d", c->feature);
    printf(" with %s, law %s", *c->other ? c->other : "floor", nsed_contact_law_name(c->law));
    switch (c->law) {
      case NSED_CONTACT_COULOMB:
        printf(" (%s", nsed_friction_model_name(o->friction.model));
        if (o->friction.model != NSED_FRICTION_EXACT_CONE) printf(", %d sides", o->friction.sides);
        printf("), mu %.10g, mu0 %.10g, restitution %.10g", c->mu, c->mu0, c->restitution);
        break;
      case NSED_CONTACT_REGULARIZED:
        printf(", mu %.10g, delta %.10g m/s, restitution %.10g", c->mu, c->delta, c->restitution);
        break;
      default:
        printf(", stiffness %.10g N/m, damping %.10g N s/m, mu %.10g, delta %.10g m/s", c->stiffness,
               c->damping, c->mu, c->delta);
    }
    if (c->torsion > 0 && c->law == NSED_CONTACT_COULOMB)
      printf(", torsion %.10g m (moment |tau| <= torsion lambda_n: sticks or turns, decided at "
             "events)", c->torsion);
    else if (c->torsion > 0)
      printf(", torsion %.10g m (moment -torsion lambda_n sat(w_n / %.10g rad/s))", c->torsion,
             c->torsion_rate);
    int b = nsed_model_find_body(m, c->body);
    if (b >= 0 && nsed_model_body_def(m, b)->shape.type == NSED_SHAPE_ROLLER)
      printf(", tracking %s", nsed_contact_tracking_name(c->tracking == NSED_TRACKING_INHERIT
                                                              ? o->contact_tracking
                                                              : c->tracking));
    printf("\n");
  }
  printf("states: %d\n", nsed_model_nstate(m));
  int coulomb = 0;
  for (int i = 0; i < nsed_model_ncontact(m); i++)
    coulomb += nsed_model_contact_def(m, i)->law == NSED_CONTACT_COULOMB;
  printf("friction of the exact Coulomb contacts (%d of %d): %s", coulomb, nsed_model_ncontact(m),
         nsed_friction_model_name(o->friction.model));
  if (o->friction.model != NSED_FRICTION_EXACT_CONE) printf(", %d sides", o->friction.sides);
  printf(", LCP path %s, tolerance %.3g%s\n", lcp_path_names[o->friction.path], o->friction.tol,
         coulomb ? "" : " (unused: no contact has the exact Coulomb law)");
  int arkode = o->integrator == NSED_INTEGRATOR_ARKODE_DP5 || o->integrator == NSED_INTEGRATOR_ARKODE_VERNER;
  printf("solver: %s (step controller %s), rtol %.3g, atol %.3g, t_end %.10g s, max_step %.10g s%s\n",
         nsed_integrator_name(o->integrator), arkode ? nsed_step_controller_name(o->step_controller) : "CVODE's",
         o->rtol, o->atol, o->t_end, o->max_step, o->max_step == 0 ? " (no limit)" : "");
  printf("  baumgarte eta %.10g, xi %.10g, gamma %.10g; contact_tol %.3g m, slip_tol %.3g m/s\n",
         o->baumgarte_eta, o->baumgarte_xi, o->baumgarte_gamma, o->contact_tol, o->slip_tol);
  printf("  zeno guard: %d events within %.3g s below %.3g m/s; max_events %d\n", o->zeno_events,
         o->zeno_window, o->zeno_velocity, o->max_events);
  vec("gravity", o->gravity, 3);
  printf(" m/s^2\n");
  vec("floor: normal", o->floor_normal, 3);
  vec(", point", o->floor_point, 3);
  vec(", velocity", o->floor_velocity, 3);
  if (o->floor_spin != 0) printf(", spin %.10g rad/s about the normal through the point", o->floor_spin);
  printf("\n");
  for (int i = 0; i < nsed_model_nplane(m); i++) {
    const nsed_plane_def *p = nsed_model_plane_def(m, i);
    printf("plane %s: normal", p->name);
    vec("", p->normal, 3);
    vec(", point", p->point, 3);
    vec(", velocity", p->velocity, 3);
    printf("\n");
  }
  printf("output: every %.10g s and at every event%s\n", o->output_dt,
         o->output_steps ? "; steps.csv: every step the integrator accepts" : "");
}

int nsedi_cmd_validate(int argc, char **argv) {
  nsedi_problem_args a;
  int code = nsedi_problem_args_parse(argc, argv, 0, usage, &a);
  if (code || a.help) {
    if (!code) fputs(usage, stdout);
    nsedi_problem_args_free(&a);
    return code;
  }
  nsed_model *m = NULL;
  char *text = NULL;
  size_t len = 0;
  code = nsedi_problem_args_load(&a, &m, &text, &len);
  if (!code) print_model(a.problem, m);
  free(text);
  nsed_model_free(&m);
  nsedi_problem_args_free(&a);
  return code;
}
