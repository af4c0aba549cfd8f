/* The assemblies (src/assemblies/) against models nobody built with them:
 *  - the omni_wheel_testbench block against the problem files written by
 *    scripts/make_omni_wheel.py (quaternion products in Python, not the
 *    builder's rotation matrices): with roller_frame: rotor the same parts
 *    to 1e-14; with its default attached rollers (reduced coordinates) the
 *    same events in a run to 1e-9 s;
 *  - the disk_on_shaft block against the hand-written generic
 *    problems/disk_on_shaft_case2.yaml: the same parts exactly;
 *  - the omni vehicle built from C (nsed_omni_vehicle_add) against the
 *    omni_vehicle block of a problem file: the same parts exactly;
 *  - the definitions' checks from C name the field, and the blocks' bad
 *    input names file, line and key.
 * argv[1] is the source root. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "math3.h"
#include "nsed/assemblies.h"
#include "nsed/io.h"
#include "nsed/simulate.h"
#include "nsed_test.h"

static const char *root = ".";

static nsed_model *load_file(const char *file) {
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/%s", root, file);
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load(path, NULL, 0, &m, &err);
  CHECK_MSG(rc == NSED_OK, "%s: %s", file, err.message);
  return rc == NSED_OK ? m : NULL;
}

static nsed_model *load_text(const char *text) {
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load_string(text, strlen(text), "asm.yaml", NULL, 0, &m, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  return rc == NSED_OK ? m : NULL;
}

static void near3(const char *what, const char *name, const double *a, const double *b, int n,
                  double tol) {
  for (int k = 0; k < n; k++)
    CHECK_MSG(fabs(a[k] - b[k]) <= tol, "%s %s[%d]: %.17g vs %.17g", name, what, k, a[k], b[k]);
}

/* Every part of a and b the same, numbers to tol (0: bit for bit);
 * orientations compared as rotations (q and -q are one). */
static void same_model(const nsed_model *a, const nsed_model *b, double tol) {
  CHECK(nsed_model_nbody(a) == nsed_model_nbody(b));
  CHECK(nsed_model_njoint(a) == nsed_model_njoint(b));
  CHECK(nsed_model_nforce(a) == nsed_model_nforce(b));
  CHECK(nsed_model_ncontact(a) == nsed_model_ncontact(b));
  CHECK(nsed_model_nstate(a) == nsed_model_nstate(b));
  if (nsed_model_nbody(a) != nsed_model_nbody(b) || nsed_model_njoint(a) != nsed_model_njoint(b) ||
      nsed_model_nforce(a) != nsed_model_nforce(b) ||
      nsed_model_ncontact(a) != nsed_model_ncontact(b))
    return;
  for (int i = 0; i < nsed_model_nbody(a); i++) {
    const nsed_body_def *x = nsed_model_body_def(a, i), *y = nsed_model_body_def(b, i);
    CHECK_MSG(!strcmp(x->name, y->name), "body %d: %s vs %s", i, x->name, y->name);
    CHECK(x->shape.type == y->shape.type && x->shape.rollers == y->shape.rollers);
    CHECK_MSG(x->rotor == y->rotor, "body %s: rotor %d vs %d", x->name, x->rotor, y->rotor);
    near3("mass", x->name, &x->mass, &y->mass, 1, tol);
    near3("inertia", x->name, x->inertia, y->inertia, 3, tol);
    near3("shape.radius", x->name, &x->shape.radius, &y->shape.radius, 1, tol);
    near3("shape.length", x->name, &x->shape.length, &y->shape.length, 1, tol);
    near3("shape.psi", x->name, &x->shape.psi, &y->shape.psi, 1, tol);
    near3("position", x->name, x->position, y->position, 3, tol);
    double Rx[9], Ry[9];
    nsedi_quat_to_mat(Rx, x->quat);
    nsedi_quat_to_mat(Ry, y->quat);
    near3("rotation", x->name, Rx, Ry, 9, tol);
    near3("velocity", x->name, x->velocity, y->velocity, 3, tol);
    near3("angular_velocity", x->name, x->angular_velocity, y->angular_velocity, 3, tol);
  }
  for (int i = 0; i < nsed_model_njoint(a); i++) {
    const nsed_joint_def *x = nsed_model_joint_def(a, i), *y = nsed_model_joint_def(b, i);
    CHECK_MSG(!strcmp(x->name, y->name) && x->type == y->type && !strcmp(x->body_a, y->body_a) &&
                  !strcmp(x->body_b, y->body_b),
              "joint %d: %s vs %s", i, x->name, y->name);
    near3("anchor_a", x->name, x->anchor_a, y->anchor_a, 3, tol);
    near3("anchor_b", x->name, x->anchor_b, y->anchor_b, 3, tol);
    near3("axis_a", x->name, x->axis_a, y->axis_a, 3, tol);
    near3("axis_b", x->name, x->axis_b, y->axis_b, 3, tol);
    double sx[3] = {x->spring_k, x->spring_c, x->rest_length};
    double sy[3] = {y->spring_k, y->spring_c, y->rest_length};
    near3("spring", x->name, sx, sy, 3, tol);
    CHECK(x->has_torque == y->has_torque);
  }
  for (int i = 0; i < nsed_model_nforce(a); i++) {
    const nsed_force_def *x = nsed_model_force_def(a, i), *y = nsed_model_force_def(b, i);
    CHECK_MSG(!strcmp(x->name, y->name) && x->type == y->type && !strcmp(x->body, y->body),
              "force %d: %s vs %s", i, x->name, y->name);
    near3("direction", x->name, x->direction, y->direction, 3, tol);
    for (double t = 0; t < 10; t += 0.7)
      CHECK_NEAR(nsed_law_eval(&x->magnitude, t), nsed_law_eval(&y->magnitude, t), tol, 0);
  }
  for (int i = 0; i < nsed_model_ncontact(a); i++) {
    const nsed_contact_def *x = nsed_model_contact_def(a, i), *y = nsed_model_contact_def(b, i);
    CHECK_MSG(!strcmp(x->name, y->name) && !strcmp(x->body, y->body) && x->mu == y->mu &&
                  x->mu0 == y->mu0 && x->law == y->law && x->tracking == y->tracking,
              "contact %d: %s vs %s", i, x->name, y->name);
  }
}

/* The events of a run to t_end. */
typedef struct {
  int n;
  double t[256];
  int kind[256], contact[256];
} event_log;

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  (void)m;
  (void)d;
  event_log *log = ctx;
  if (log->n < 256) {
    log->t[log->n] = ev->t;
    log->kind[log->n] = ev->kind;
    log->contact[log->n] = ev->contact;
    log->n++;
  }
  return 0;
}

static void run(const nsed_model *m, event_log *log) {
  memset(log, 0, sizeof *log);
  nsed_observer obs;
  memset(&obs, 0, sizeof obs);
  obs.event = on_event;
  obs.ctx = log;
  nsed_data *d = NULL;
  nsed_error err;
  int rc = nsed_data_create(m, &d, &err);
  if (rc == NSED_OK) rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  nsed_data_free(&d);
}

static void same_events(const nsed_model *a, const nsed_model *b, double tol) {
  static event_log la, lb;
  run(a, &la);
  run(b, &lb);
  CHECK_MSG(la.n == lb.n && la.n > 0, "%d vs %d events", la.n, lb.n);
  double worst = 0;
  for (int i = 0; i < la.n && i < lb.n; i++) {
    CHECK(la.kind[i] == lb.kind[i] && la.contact[i] == lb.contact[i]);
    worst = fmax(worst, fabs(la.t[i] - lb.t[i]));
  }
  printf("  %d events, worst time difference %.3g s\n", la.n, worst);
  CHECK(worst <= tol);
}

static const char testbench_settings[] =
    "gravity: [0, 0, -1]\n"
    "friction: {model: polygon, form: face, sides: 8}\n"
    "solver: {t_end: 2, baumgarte: {eta: 25, xi: 50, gamma: 25}}\n"
    "output: {dt: 0.01}\n";

/* The block with its rollers as rotors on axle joints is the file, part for
 * part; with its rollers attached to the hub (the default: reduced
 * coordinates, no axles) it is another formulation of the same wheel, and
 * the two runs give the same events. */
static void test_testbench(const char *file, const char *settings) {
  char text[1024], rotors[1024];
  snprintf(text, sizeof text, "%somni_wheel_testbench: {%s}\n", testbench_settings, settings);
  snprintf(rotors, sizeof rotors, "%somni_wheel_testbench: {%s, roller_frame: rotor}\n",
           testbench_settings, settings);
  printf("testbench {%s} vs %s\n", settings, file);
  nsed_model *a = load_text(text), *ar = load_text(rotors), *b = load_file(file);
  if (ar && b) same_model(ar, b, 1e-14);
  if (a && b) {
    CHECK(nsed_model_njoint(a) == 1 && nsed_model_nbody(a) == nsed_model_nbody(b));
    const char *ov[] = {"solver.t_end=2"};
    nsed_model *b2 = NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/problems/%s", root, file);
    nsed_error err;
    if (nsed_problem_load(path, ov, 1, &b2, &err) == NSED_OK) same_events(a, b2, 1e-9);
    nsed_model_free(&b2);
  }
  nsed_model_free(&a);
  nsed_model_free(&ar);
  nsed_model_free(&b);
}

static void test_disk_on_shaft(void) {
  static const char text[] =
      "gravity: [0, 0, -9.81]\n"
      "disk_on_shaft: {}\n"
      "friction: {model: polygon, form: face, sides: 32}\n"
      "solver: {t_end: 25, baumgarte: {eta: 25, xi: 50, gamma: 25}}\n"
      "output: {dt: 0.01}\n";
  printf("disk_on_shaft block vs disk_on_shaft_case2.yaml\n");
  nsed_model *a = load_text(text), *b = load_file("disk_on_shaft_case2.yaml");
  if (a && b) same_model(a, b, 0);
  nsed_model_free(&a);
  nsed_model_free(&b);
  /* The block's keys reach the parts. */
  static const char case1[] =
      "disk_on_shaft: {torque: {type: sine, amplitude: 5, omega: 1}, disk_position: 1.2,\n"
      "                spring: {k: 100, rest_length: 1.3}, contact: {mu: 0.2, mu0: 0.4}}\n";
  nsed_model *m = load_text(case1);
  if (m) {
    CHECK(nsed_model_body_def(m, 1)->position[0] == 1.2);
    CHECK(nsed_model_joint_def(m, 1)->spring_k == 100 &&
          nsed_model_joint_def(m, 1)->rest_length == 1.3);
    CHECK_NEAR(nsed_law_eval(&nsed_model_force_def(m, 0)->magnitude, M_PI / 2), 5, 1e-15, 0);
    CHECK(nsed_model_contact_def(m, 0)->mu == 0.2 && nsed_model_contact_def(m, 0)->mu0 == 0.4);
  }
  nsed_model_free(&m);
}

/* The vehicle from C, under the coast problem's settings, against the file. */
static void test_vehicle_from_c(void) {
  nsed_model *file = load_file("omni_vehicle_coast.yaml");
  nsed_model *m = NULL;
  nsed_error err;
  CHECK(nsed_model_create(&m, &err) == NSED_OK);
  if (!file || !m) goto done;
  CHECK(nsed_model_set_options(m, nsed_model_options(file), &err) == NSED_OK);
  nsed_omni_vehicle_def v;
  nsed_omni_vehicle_def_default(&v);
  /* omni_vehicle_coast.yaml's block: */
  v.gravity = 1;
  v.velocity[0] = 1;
  v.spin = 0.5;
  v.wheel.contact.mu = v.wheel.contact.mu0 = 0.5;
  int rc = nsed_omni_vehicle_add(m, &v, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  if (rc == NSED_OK) {
    /* The extra states (the rollers' turns) are counted at finalize. */
    CHECK_MSG(nsed_model_finalize(m, &err) == NSED_OK, "%s", err.message);
    same_model(m, file, 0);
  }
  /* The options must fit the vehicle. */
  nsed_model *m2 = NULL;
  CHECK(nsed_model_create(&m2, &err) == NSED_OK);
  nsed_options o = *nsed_model_options(m2);
  o.floor_normal[0] = 0.1;
  CHECK(nsed_model_set_options(m2, &o, &err) == NSED_OK);
  CHECK(nsed_omni_vehicle_add(m2, &v, &err) == NSED_ERR_INPUT &&
        !strncmp(err.message, "floor.normal:", 13));
  nsed_model_free(&m2);
done:
  nsed_model_free(&file);
  nsed_model_free(&m);
}

static void expect_check(int rc, const nsed_error *err, const char *prefix) {
  CHECK_MSG(rc == NSED_ERR_INPUT && !strncmp(err->message, prefix, strlen(prefix)),
            "want %s..., got %d: %s", prefix, rc, err->message);
}

/* The checks from C, each naming its field. */
static void test_checks(void) {
  nsed_omni_vehicle_def v;
  nsed_assembly a;
  nsed_error err;
  nsed_omni_vehicle_def_default(&v);
  CHECK(nsed_omni_vehicle_check(&v, &err) == NSED_OK);
  v.wheels = 2;
  expect_check(nsed_omni_vehicle_build(&v, &a, &err), &err, "wheels:");
  v.wheels = 4;
  expect_check(nsed_omni_vehicle_check(&v, &err), &err, "wheels: a rigid platform on 4 wheels");
  v.suspended = 1;
  expect_check(nsed_omni_vehicle_check(&v, &err), &err, "suspension_stiffness:");
  v.suspension_stiffness = 100;
  CHECK(nsed_omni_vehicle_check(&v, &err) == NSED_OK);
  nsed_omni_vehicle_def_default(&v);
  v.wheel_distance = 1.1;
  expect_check(nsed_omni_vehicle_check(&v, &err), &err, "wheel_distance: wheels");
  nsed_omni_vehicle_def_default(&v);
  v.angles_given = 1;
  v.wheel_angles[0] = 0;
  v.wheel_angles[1] = 2;
  v.wheel_angles[2] = 2 * M_PI;
  expect_check(nsed_omni_vehicle_check(&v, &err), &err, "wheel_angles[2]:");
  nsed_omni_vehicle_def_default(&v);
  v.wheel.psi = 2;
  expect_check(nsed_omni_vehicle_check(&v, &err), &err, "wheel.psi:");
  v.wheel.psi = 0;
  v.wheel.rollers = 101;
  expect_check(nsed_omni_vehicle_check(&v, &err), &err, "wheel.rollers:");
  v.wheel.rollers = 4;
  v.heading = NAN;
  expect_check(nsed_omni_vehicle_check(&v, &err), &err, "platform_inertia, position, heading");

  nsed_omni_testbench_def t;
  nsed_omni_testbench_def_default(&t);
  t.load = -1;
  expect_check(nsed_omni_testbench_build(&t, &a, &err), &err, "load:");
  t.load = 1;
  t.wheel.roller_mass = 0;
  expect_check(nsed_omni_testbench_build(&t, &a, &err), &err, "wheel.roller_mass:");

  nsed_disk_on_shaft_def s;
  nsed_disk_on_shaft_def_default(&s);
  s.disk_position = 3;
  expect_check(nsed_disk_on_shaft_build(&s, &a, &err), &err, "disk_position:");
  s.disk_position = 1.5;
  s.spring_k = -1;
  expect_check(nsed_disk_on_shaft_build(&s, &a, &err), &err, "spring_k:");
  s.spring_k = 230;
  CHECK(nsed_disk_on_shaft_build(&s, &a, &err) == NSED_OK && a.nbody == 2 && a.ncontact == 1);
  nsed_assembly_free(&a);
  CHECK(a.bodies == NULL && a.nbody == 0);
}

static void expect_error(const char *text, const char *want1, const char *want2) {
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load_string(text, strlen(text), "asm.yaml", NULL, 0, &m, &err);
  CHECK_MSG(rc == NSED_ERR_INPUT, "accepted:\n%s", text);
  if (rc != NSED_ERR_INPUT) {
    nsed_model_free(&m);
    return;
  }
  CHECK_MSG(strstr(err.message, want1), "message lacks '%s': %s", want1, err.message);
  if (want2) CHECK_MSG(strstr(err.message, want2), "message lacks '%s': %s", want2, err.message);
}

static void test_bad_blocks(void) {
  expect_error("omni_wheel_testbench: {rolers: 5}\n", "asm.yaml:1:24: omni_wheel_testbench.rolers:",
               "did you mean 'rollers'");
  expect_error("omni_wheel_testbench: {rollers: 2}\n", "omni_wheel_testbench.rollers:", "got 2");
  expect_error("omni_wheel_testbench: {psi: 2}\n", "omni_wheel_testbench.psi:", "(-pi/2, pi/2)");
  expect_error("omni_wheel_testbench: {hub: {mass: 0}}\n", "omni_wheel_testbench.hub.mass:",
               "positive");
  expect_error("omni_wheel_testbench: {contact: {mu: 0.5, mu0: 0.1}}\n",
               "omni_wheel_testbench.contact.mu0:", "mu0 >= mu");
  expect_error("omni_wheel_testbench: {load: -1}\n", "omni_wheel_testbench.load:", NULL);
  expect_error("omni_wheel_testbench: 5\n", "omni_wheel_testbench:", "expected a mapping");
  expect_error("disk_on_shaft:\n  disk_position: 3\n", "asm.yaml:2:18: disk_on_shaft.disk_position:",
               "must sit on the shaft");
  expect_error("disk_on_shaft: {spring: {k: -1}}\n", "disk_on_shaft.spring.k:", NULL);
  expect_error("disk_on_shaft: {torque: {type: sine}}\n", "disk_on_shaft.torque.amplitude:", NULL);
  expect_error("disk_on_shaft: {contact: {tracking: implicit}}\n", "disk_on_shaft.contact.tracking:",
               "unknown key");
  /* Names the blocks generate are taken; user items may name their bodies. */
  expect_error("disk_on_shaft: {}\nbodies:\n  - {name: disk, mass: 1, shape: {type: sphere, radius: 1}}\n",
               "bodies[0].name: body name 'disk' is also generated by the disk_on_shaft block "
               "(line 1)", NULL);
  expect_error("omni_wheel_testbench: {}\nforces:\n  - {name: load, type: force, body: hub, "
               "direction: [1, 0, 0], magnitude: 1}\n",
               "forces[0].name: force name 'load' is also generated by the omni_wheel_testbench",
               NULL);
  nsed_model *m = load_text("omni_wheel_testbench: {}\nforces:\n  - {name: push, type: force, "
                            "body: hub, direction: [1, 0, 0], magnitude: 0.1}\n");
  if (m) CHECK(nsed_model_nforce(m) == 2 && !strcmp(nsed_model_force_def(m, 0)->name, "push"));
  nsed_model_free(&m);
  /* With a block in a file with mistakes, user items naming its bodies are
   * not reported as unknown. */
  static const char both[] = "omni_wheel_testbench: {load: -1}\nforces:\n  - {name: push, type: "
                             "force, body: hub, direction: [1, 0, 0], magnitude: 0.1}\n";
  nsed_model *bm = NULL;
  nsed_error berr;
  if (nsed_problem_load_string(both, strlen(both), "asm.yaml", NULL, 0, &bm, &berr) ==
      NSED_ERR_INPUT)
    CHECK_MSG(!strstr(berr.message, "no body named"), "also reported: %s", berr.message);
  nsed_model_free(&bm);
}

int main(int argc, char **argv) {
  if (argc > 1) root = argv[1];
  test_testbench("omni_wheel_testbench.yaml", "rollers: 4, contact: {mu: 0.5}");
  test_testbench("omni_wheel_testbench_n5_psi04.yaml", "rollers: 5, psi: 0.4, contact: {mu: 0.5}");
  test_disk_on_shaft();
  test_vehicle_from_c();
  test_checks();
  test_bad_blocks();
  return TEST_DONE();
}
