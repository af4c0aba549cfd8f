/* The problem loader: a complete good file gives the right definitions and
 * options; overrides reach every kind of key; bad input is reported with
 * file:line:column and the key path, all problems in one pass. */
#include <math.h>
#include <string.h>

#include "nsed/io.h"
#include "nsed_test.h"

static const char good[] =
    "name: everything\n"
    "description: one of each kind\n"
    "gravity: [0, -9.81, 0]\n"
    "floor: {normal: [0, 1, 0], point: [0, 0, 0], velocity: [0.5, 0, 0]}\n"
    "bodies:\n"
    "  - name: ball\n"
    "    mass: 2\n"
    "    shape: {type: sphere, radius: 0.1}\n"
    "    position: [0, 0.1, 0]\n"
    "    velocity: [2, 0, 0]\n"
    "    angular_velocity: [0, 0, 3]\n"
    "  - name: wheel.1\n"
    "    mass: 1\n"
    "    inertia: [0.25, 0.25, 0.5]\n"
    "    shape: {type: disk, radius: 1}\n"
    "    orientation: {axis: [1, 0, 0], angle_deg: 90}\n"
    "    position: [0, 1, 0]\n"
    "  - name: crate\n"
    "    mass: 3\n"
    "    shape: {type: box, half_extents: [0.1, 0.2, 0.3]}\n"
    "    orientation: [2, 0, 0, 0]\n"
    "    position: [5, 1, 0]\n"
    "joints:\n"
    "  - name: axle\n"
    "    type: revolute\n"
    "    body_b: wheel.1\n"
    "    anchor_a: [0, 1, 0]\n"
    "    axis_a: [1, 0, 0]\n"
    "    axis_b: [1, 0, 0]\n"
    "    torque: {type: sine, amplitude: 2, omega: 3, phase_deg: 90, offset: 1}\n"
    "  - name: slider\n"
    "    type: prismatic\n"
    "    body_a: ball\n"
    "    body_b: crate\n"
    "    spring: {k: 100, c: 2, rest_length: 0.5}\n"
    "forces:\n"
    "  - name: push\n"
    "    type: force\n"
    "    body: crate\n"
    "    direction: [1, 0, 0]\n"
    "    frame: body\n"
    "    point: [0.1, 0, 0]\n"
    "    magnitude: {type: piecewise, times: [0, 1, 2], values: [0, 5, 0]}\n"
    "  - name: twist\n"
    "    type: torque\n"
    "    body: ball\n"
    "    direction: [0, 0, 1]\n"
    "    magnitude: 0.5\n"
    "  - name: tether\n"
    "    type: spring\n"
    "    body: crate\n"
    "    point_b: [6, 1, 0]\n"
    "    k: 10\n"
    "    c: 0.1\n"
    "    rest_length: 1\n"
    "contacts:\n"
    "  - {name: ball_floor, body: ball, mu: 0.25}\n"
    "  - {name: wheel_floor, body: wheel.1, with: floor, mu: 0.5, mu0: 0.7, restitution: 0.3}\n"
    "friction: {model: polygon, form: vertex, sides: 16, path: nsed}\n"
    "solver:\n"
    "  integrator: cvode_bdf\n"
    "  rtol: 1e-9\n"
    "  atol: 1e-11\n"
    "  t_end: 2.5\n"
    "  max_step: 0.01\n"
    "  baumgarte: {eta: 25, xi: 50, gamma: 25}\n"
    "  contact_tol: 1e-8\n"
    "  slip_tol: 1e-7\n"
    "  zeno: {events: 20, window: 0.01, velocity: 0.002}\n"
    "  max_events: 5000\n"
    "output: {dt: 0.05}\n";

static nsed_model *load(const char *text, const char *const *ov, int nov, nsed_error *err) {
  nsed_model *m = NULL;
  int rc = nsed_problem_load_string(text, strlen(text), "good.yaml", ov, nov, &m, err);
  CHECK_MSG(rc == NSED_OK, "load failed: %s", err->message);
  return m;
}

static void test_good_file(void) {
  nsed_error err;
  nsed_model *m = load(good, NULL, 0, &err);
  if (!m) return;
  CHECK(nsed_model_nbody(m) == 3);
  CHECK(nsed_model_njoint(m) == 2);
  CHECK(nsed_model_nforce(m) == 3);
  CHECK(nsed_model_ncontact(m) == 2);
  const nsed_body_def *ball = nsed_model_body_def(m, 0);
  CHECK(!strcmp(ball->name, "ball"));
  CHECK(ball->mass == 2);
  CHECK(ball->shape.type == NSED_SHAPE_SPHERE && ball->shape.radius == 0.1);
  CHECK(ball->velocity[0] == 2 && ball->angular_velocity[2] == 3);
  const nsed_body_def *wheel = nsed_model_body_def(m, 1);
  CHECK(!strcmp(wheel->name, "wheel.1"));
  CHECK(wheel->inertia[2] == 0.5);
  CHECK_NEAR(wheel->quat[0], sqrt(0.5), 1e-15, 0);
  CHECK_NEAR(wheel->quat[1], sqrt(0.5), 1e-15, 0);
  const nsed_body_def *crate = nsed_model_body_def(m, 2);
  CHECK(crate->shape.type == NSED_SHAPE_BOX && crate->shape.half[2] == 0.3);
  CHECK_NEAR(crate->quat[0], 1, 1e-15, 0); /* normalised by the builder */

  const nsed_joint_def *axle = nsed_model_joint_def(m, 0);
  CHECK(axle->type == NSED_JOINT_REVOLUTE);
  CHECK(!strcmp(axle->body_b, "wheel.1"));
  CHECK(axle->body_a[0] == '\0' || !strcmp(axle->body_a, "ground"));
  CHECK(axle->has_torque && axle->torque.type == NSED_LAW_SINE);
  CHECK(axle->torque.amplitude == 2 && axle->torque.omega == 3 && axle->torque.offset == 1);
  CHECK_NEAR(axle->torque.phase, M_PI / 2, 1e-15, 0);
  const nsed_joint_def *slider = nsed_model_joint_def(m, 1);
  CHECK(slider->type == NSED_JOINT_PRISMATIC);
  CHECK(slider->spring_k == 100 && slider->spring_c == 2 && slider->rest_length == 0.5);

  const nsed_force_def *push = nsed_model_force_def(m, 0);
  CHECK(push->type == NSED_FORCE_BODY_FORCE && push->direction_in_body == 1);
  CHECK(push->point[0] == 0.1);
  CHECK(push->magnitude.type == NSED_LAW_PIECEWISE && push->magnitude.npoints == 3);
  CHECK(push->magnitude.values[1] == 5);
  const nsed_force_def *twist = nsed_model_force_def(m, 1);
  CHECK(twist->type == NSED_FORCE_BODY_TORQUE && twist->magnitude.type == NSED_LAW_CONSTANT);
  CHECK(twist->magnitude.value == 0.5 && twist->direction_in_body == 0);
  const nsed_force_def *tether = nsed_model_force_def(m, 2);
  CHECK(tether->type == NSED_FORCE_SPRING && tether->k == 10 && tether->point_b[0] == 6);

  const nsed_contact_def *c0 = nsed_model_contact_def(m, 0);
  CHECK(c0->mu == 0.25 && c0->mu0 == 0.25); /* mu0 defaults to mu */
  const nsed_contact_def *c1 = nsed_model_contact_def(m, 1);
  CHECK(c1->mu == 0.5 && c1->mu0 == 0.7 && c1->restitution == 0.3);

  const nsed_options *o = nsed_model_options(m);
  CHECK(o->gravity[1] == -9.81 && o->gravity[2] == 0);
  CHECK(o->floor_normal[1] == 1 && o->floor_velocity[0] == 0.5);
  CHECK(o->friction.model == NSED_FRICTION_POLYGON_VERTEX);
  CHECK(o->friction.sides == 16 && o->friction.path == NSED_LCP_PATH_NSED_LEMKE);
  CHECK(o->integrator == NSED_INTEGRATOR_CVODE_BDF);
  CHECK(o->rtol == 1e-9 && o->atol == 1e-11 && o->t_end == 2.5 && o->max_step == 0.01);
  CHECK(o->baumgarte_eta == 25 && o->baumgarte_xi == 50 && o->baumgarte_gamma == 25);
  CHECK(o->contact_tol == 1e-8 && o->slip_tol == 1e-7);
  CHECK(o->zeno_events == 20 && o->zeno_window == 0.01 && o->zeno_velocity == 0.002);
  CHECK(o->max_events == 5000 && o->output_dt == 0.05);
  nsed_model_free(&m);
}

static void test_defaults(void) {
  static const char text[] = "bodies:\n  - {name: b, mass: 1, shape: {type: sphere, radius: 1}}\n";
  nsed_error err;
  nsed_model *m = load(text, NULL, 0, &err);
  if (!m) return;
  nsed_options ref;
  nsed_options_default(&ref);
  const nsed_options *o = nsed_model_options(m);
  CHECK(o->t_end == ref.t_end && o->rtol == ref.rtol && o->output_dt == ref.output_dt);
  CHECK(o->friction.sides == ref.friction.sides && o->friction.model == ref.friction.model);
  CHECK(o->gravity[2] == ref.gravity[2]);
  nsed_model_free(&m);
}

static void test_overrides(void) {
  const char *ov[] = {
      "bodies.ball.velocity=[1, 0, 0]",
      "solver.rtol=1e-8",
      "bodies.wheel.1.mass=4",             /* a name with a dot */
      "bodies[2].position=[7, 1, 0]",      /* by index */
      "contacts.ball_floor.mu0=0.4",
      "joints.axle.torque=3",              /* a law as a number */
      "forces.twist.magnitude={type: sine, amplitude: 1, omega: 2}",
      "solver.baumgarte.xi=7",
      "output.dt=0.02",
      "friction.model=exact_cone",
      "name=renamed",
  };
  nsed_error err;
  nsed_model *m = load(good, ov, (int)(sizeof ov / sizeof ov[0]), &err);
  if (!m) return;
  CHECK(nsed_model_body_def(m, 0)->velocity[0] == 1);
  CHECK(nsed_model_body_def(m, 1)->mass == 4);
  CHECK(nsed_model_body_def(m, 2)->position[0] == 7);
  CHECK(nsed_model_contact_def(m, 0)->mu0 == 0.4 && nsed_model_contact_def(m, 0)->mu == 0.25);
  CHECK(nsed_model_joint_def(m, 0)->torque.type == NSED_LAW_CONSTANT);
  CHECK(nsed_model_joint_def(m, 0)->torque.value == 3);
  CHECK(nsed_model_force_def(m, 1)->magnitude.type == NSED_LAW_SINE);
  const nsed_options *o = nsed_model_options(m);
  CHECK(o->rtol == 1e-8 && o->baumgarte_xi == 7 && o->baumgarte_eta == 25);
  CHECK(o->output_dt == 0.02);
  CHECK(o->friction.model == NSED_FRICTION_EXACT_CONE);
  nsed_model_free(&m);

  /* A section absent from the file is created by the override. */
  static const char bare[] = "bodies:\n  - {name: b, mass: 1, shape: {type: sphere, radius: 1}}\n";
  const char *ov2[] = {"solver.baumgarte.eta=3", "gravity=[0, 0, -1.62]"};
  m = load(bare, ov2, 2, &err);
  if (!m) return;
  CHECK(nsed_model_options(m)->baumgarte_eta == 3);
  CHECK(nsed_model_options(m)->gravity[2] == -1.62);
  nsed_model_free(&m);
}

/* Load text expecting failure; every expected substring must appear. */
static void expect_errors(const char *text, const char *const *ov, int nov, const char *const *want) {
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load_string(text, strlen(text), "bad.yaml", ov, nov, &m, &err);
  CHECK_MSG(rc == NSED_ERR_INPUT, "rc %d for:\n%s", rc, text);
  CHECK(m == NULL);
  for (; *want; want++) CHECK_MSG(strstr(err.message, *want), "missing '%s' in:\n%s", *want, err.message);
  nsed_model_free(&m);
}

static void test_errors(void) {
  /* Several problems, all reported in one pass, each with its position. */
  const char *all[] = {"bad.yaml:3:5: bodies[0].mas: unknown key 'mas' (did you mean 'mass'?)",
                       "bad.yaml:2:5: bodies[0].mass: required key 'mass' is missing",
                       "bad.yaml:7:11: bodies[1].mass: expected a positive number, got -1",
                       "bad.yaml:9:10: solver.t_end: expected a positive number, got 0",
                       "bad.yaml:10:14: output.dt: expected a positive number, got -1", NULL};
  expect_errors("bodies:\n"
                "  - name: a\n"
                "    mas: 1\n"
                "    shape: {type: sphere, radius: 1}\n"
                "  - name: b\n"
                "    shape: {type: sphere, radius: 1}\n"
                "    mass: -1\n"
                "solver:\n"
                "  t_end: 0\n"
                "output: {dt: -1}\n",
                NULL, 0, all);
  const char *ref[] = {"contacts[0].with: no body named 'bll' (did you mean 'ball'?)", NULL};
  expect_errors("bodies:\n  - {name: ball, mass: 1, shape: {type: sphere, radius: 1}}\n"
                "contacts:\n  - {name: c, body: ball, with: bll}\n",
                NULL, 0, ref);
  const char *ov[] = {"bodies.ball.mass=-3", "contacts.c.mu=[1]", "solver=3"};
  const char *ovwant[] = {"--set bodies.ball.mass=-3: bodies[0].mass: expected a positive number, got -3",
                          "--set contacts.c.mu=[1]: contacts[0].mu: expected a number >= 0, got a list",
                          "--set solver=3: solver: expected a mapping of keys, got 3", NULL};
  expect_errors("bodies:\n  - {name: ball, mass: 1, shape: {type: sphere, radius: 1}}\n"
                "contacts:\n  - {name: c, body: ball}\n",
                ov, 3, ovwant);
  const char *law[] = {"forces[0].magnitude.type: unknown value 'sin' (did you mean 'sine'?)", NULL};
  expect_errors("bodies:\n  - {name: ball, mass: 1, shape: {type: sphere, radius: 1}}\n"
                "forces:\n  - {name: f, type: torque, body: ball, direction: [0, 0, 1], "
                "magnitude: {type: sin, amplitude: 1, omega: 1}}\n",
                NULL, 0, law);
  const char *spring[] = {"joints[0].spring: a spring along the axis needs a cylindrical or prismatic joint", NULL};
  expect_errors("bodies:\n  - {name: ball, mass: 1, shape: {type: sphere, radius: 1}}\n"
                "joints:\n  - {name: j, type: revolute, body_b: ball, spring: {k: 1}}\n",
                NULL, 0, spring);
  const char *wrongkey[] = {"forces[0].k: 'k' does not apply to a force of type torque", NULL};
  expect_errors("bodies:\n  - {name: ball, mass: 1, shape: {type: sphere, radius: 1}}\n"
                "forces:\n  - {name: f, type: torque, body: ball, direction: [0, 0, 1], magnitude: 1, k: 3}\n",
                NULL, 0, wrongkey);
}

static void test_sha256(void) {
  char hex[65];
  nsed_sha256_hex("", 0, hex);
  CHECK(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
  nsed_sha256_hex("abc", 3, hex);
  CHECK(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  const char *s56 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  nsed_sha256_hex(s56, strlen(s56), hex);
  CHECK(!strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
  static char million[1000000];
  memset(million, 'a', sizeof million);
  nsed_sha256_hex(million, sizeof million, hex);
  CHECK(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
}

int main(void) {
  test_good_file();
  test_defaults();
  test_overrides();
  test_errors();
  test_sha256();
  return TEST_DONE();
}
