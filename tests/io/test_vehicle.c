/* The omni_vehicle block (src/io/build_vehicle.c): the problem files expand
 * into the right number of bodies and states, the generated geometry is
 * the documented one (hubs at height R and distance d, rollers at
 * R1 = R cos(pi/n) from their hub with |axis . hub axis| = |sin psi|), the
 * initial velocities satisfy every joint and let the touching rollers roll
 * without slip, user-written items may name the generated bodies, every bad
 * input is reported with its key, and a short run of the coasting vehicle
 * completes. argv[1] is the source root. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "math3.h"
#include "nsed/io.h"
#include "nsed/simulate.h"
#include "nsed_test.h"

static const char *root = ".";

static nsed_model *load_file(const char *file, const char *const *ov, int nov) {
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/%s", root, file);
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load(path, ov, nov, &m, &err);
  CHECK_MSG(rc == NSED_OK, "%s: %s", file, err.message);
  return rc == NSED_OK ? m : NULL;
}

static nsed_model *load_text(const char *text) {
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load_string(text, strlen(text), "veh.yaml", NULL, 0, &m, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  return rc == NSED_OK ? m : NULL;
}

/* A body's world pose and motion from its stored definition or its state. */
typedef struct {
  double r[3], R[9], v[3], w[3]; /* w in world axes */
} pose;

static void pose_of_state(const double s[13], pose *p) {
  nsedi_v3_copy(p->r, s);
  nsedi_quat_to_mat(p->R, s + 3);
  nsedi_v3_copy(p->v, s + 7);
  nsedi_m3_mulv(p->w, p->R, s + 10);
}

static int body(const nsed_model *m, const char *fmt, int i, int k) {
  char name[64];
  snprintf(name, sizeof name, fmt, i, k);
  int b = nsed_model_find_body(m, name);
  CHECK_MSG(b >= 0, "no body %s", name);
  return b;
}

static void def_pose(const nsed_model *m, int b, pose *p) {
  const nsed_body_def *d = nsed_model_body_def(m, b);
  double s[13];
  nsedi_v3_copy(s, d->position);
  for (int q = 0; q < 4; q++) s[3 + q] = d->quat[q];
  nsedi_v3_copy(s + 7, d->velocity);
  nsedi_v3_copy(s + 10, d->angular_velocity);
  pose_of_state(s, p);
}

/* Hubs at height R and horizontal distance d from the platform centre with
 * their axis along that radius, rollers at R1 from their hub, across the
 * radius, at psi to the wheel plane; roller 0 straight below the hub. */
static void check_geometry(const nsed_model *m, int nw, int n, double R, double d, double psi) {
  double R1 = R * cos(M_PI / n), tol = 1e-12 * (R + d);
  pose P;
  def_pose(m, nsed_model_find_body(m, "platform"), &P);
  CHECK_NEAR(P.r[2], R, tol, 0);
  for (int i = 0; i < nw; i++) {
    pose H;
    def_pose(m, body(m, "wheel%d", i, 0), &H);
    double off[3], hz[3] = {H.R[2], H.R[5], H.R[8]};
    nsedi_v3_sub(off, H.r, P.r);
    CHECK_NEAR(H.r[2], R, tol, 0);
    CHECK_NEAR(hypot(off[0], off[1]), d, tol, 0);
    CHECK_NEAR(nsedi_v3_dot(off, hz), d, tol, 0); /* axle along the radius, outwards */
    for (int k = 0; k < n; k++) {
      pose G;
      def_pose(m, body(m, "wheel%d_roller%d", i, k), &G);
      double rel[3], ax[3] = {G.R[0], G.R[3], G.R[6]};
      nsedi_v3_sub(rel, G.r, H.r);
      CHECK_NEAR(nsedi_v3_norm(rel), R1, tol, 0);
      CHECK_NEAR(fabs(nsedi_v3_dot(ax, hz)), fabs(sin(psi)), 1e-12, 0);
      CHECK_NEAR(nsedi_v3_dot(ax, rel), 0, tol, 0);
      CHECK_NEAR(nsedi_v3_dot(rel, hz), 0, tol, 0); /* in the wheel plane */
      if (k == 0) CHECK_NEAR(rel[2], -R1, tol, 0);
    }
  }
}

/* Revolute joints: anchors coincide and move together, axes aligned, no
 * relative rotation across the axis. */
static double joint_error(const nsed_model *m, const nsed_data *dat, int j) {
  const nsed_joint_def *jd = nsed_model_joint_def(m, j);
  int a = nsed_model_find_body(m, jd->body_a), b = nsed_model_find_body(m, jd->body_b);
  double sa[13], sb[13];
  nsed_data_body_state(dat, a, sa);
  nsed_data_body_state(dat, b, sb);
  pose A, B;
  pose_of_state(sa, &A);
  pose_of_state(sb, &B);
  double ra[3], rb[3], pa[3], pb[3], va[3], vb[3], aa[3], ab[3], t[3], wr[3], e = 0;
  nsedi_m3_mulv(ra, A.R, jd->anchor_a);
  nsedi_m3_mulv(rb, B.R, jd->anchor_b);
  nsedi_v3_add(pa, A.r, ra);
  nsedi_v3_add(pb, B.r, rb);
  nsedi_v3_cross(va, A.w, ra);
  nsedi_v3_add(va, va, A.v);
  nsedi_v3_cross(vb, B.w, rb);
  nsedi_v3_add(vb, vb, B.v);
  nsedi_m3_mulv(aa, A.R, jd->axis_a);
  nsedi_m3_mulv(ab, B.R, jd->axis_b);
  nsedi_v3_normalize(aa);
  nsedi_v3_normalize(ab);
  nsedi_v3_sub(t, pa, pb);
  e = fmax(e, nsedi_v3_norm(t));
  nsedi_v3_sub(t, va, vb);
  e = fmax(e, nsedi_v3_norm(t));
  nsedi_v3_cross(t, aa, ab);
  e = fmax(e, nsedi_v3_norm(t));
  nsedi_v3_sub(wr, B.w, A.w);
  nsedi_v3_cross(t, wr, aa);
  return fmax(e, nsedi_v3_norm(t));
}

/* The initial state: every joint satisfied at velocity level, the platform
 * moving as asked, the touching rollers (roller 0 of each wheel) at zero
 * gap with their material point at the envelope's lowest point at rest,
 * the others clear of the floor. */
static void check_velocities(const nsed_model *m, int nw, int n, double R, const double vel[2],
                             double spin) {
  const double *vf = nsed_model_options(m)->floor_velocity; /* the surface rolled on */
  nsed_data *dat = NULL;
  nsed_error err;
  if (nsed_data_create(m, &dat, &err)) {
    CHECK_MSG(0, "%s", err.message);
    return;
  }
  double scale = 1 + hypot(vel[0], vel[1]) + fabs(spin) * 10 * R, tol = 1e-12 * scale;
  double worst = 0;
  for (int j = 0; j < nsed_model_njoint(m); j++) worst = fmax(worst, joint_error(m, dat, j));
  CHECK_MSG(worst < tol, "joint velocity error %.3g", worst);
  double s[13];
  nsed_data_body_state(dat, nsed_model_find_body(m, "platform"), s);
  pose P;
  pose_of_state(s, &P);
  CHECK_NEAR(P.v[0], vel[0], tol, 0);
  CHECK_NEAR(P.v[1], vel[1], tol, 0);
  CHECK_NEAR(P.v[2], 0, tol, 0);
  CHECK_NEAR(P.w[2], spin, tol, 0);
  CHECK_NEAR(hypot(P.w[0], P.w[1]), 0, tol, 0);
  double slip = 0, gap = 0, lowest = 0, clear = INFINITY;
  for (int i = 0; i < nw; i++) {
    pose H, G;
    nsed_data_body_state(dat, body(m, "wheel%d", i, 0), s);
    pose_of_state(s, &H);
    nsed_data_body_state(dat, body(m, "wheel%d_roller%d", i, 0), s);
    pose_of_state(s, &G);
    double Q[3] = {H.r[0], H.r[1], H.r[2] - R}, rel[3], vq[3];
    nsedi_v3_sub(rel, Q, G.r);
    nsedi_v3_cross(vq, G.w, rel);
    nsedi_v3_add(vq, vq, G.v);
    nsedi_v3_sub(vq, vq, vf);
    lowest = fmax(lowest, nsedi_v3_norm(vq));
  }
  for (int c = 0; c < nsed_model_ncontact(m); c++) {
    nsed_contact_info info;
    nsed_data_contact(dat, c, &info);
    const char *name = nsed_model_contact_name(m, c);
    if (strstr(name, "_roller0_floor")) {
      slip = fmax(slip, info.slip_speed);
      gap = fmax(gap, fabs(info.gap));
    } else {
      clear = fmin(clear, info.gap);
    }
  }
  CHECK_MSG(lowest < tol, "contact point velocity %.3g", lowest);
  CHECK_MSG(slip < tol, "slip speed %.3g", slip);
  CHECK_MSG(gap < 1e-12 * R, "gap %.3g", gap);
  CHECK_MSG(clear > 0.01 * R * (1 - cos(M_PI / n)), "a non-touching roller at gap %.3g", clear);
  printf("  %d wheels x %d rollers: joint error %.2e, touching rollers' slip %.2e, gap %.2e, "
         "lowest point speed %.2e\n", nw, n, worst, slip, gap, lowest);
  nsed_data_free(&dat);
}

static void test_problem_files(void) {
  static const double v_coast[2] = {1, 0}, rest[2] = {0, 0};
  nsed_model *m = load_file("omni_vehicle_coast.yaml", NULL, 0);
  if (m) {
    CHECK(nsed_model_nbody(m) == 16);
    /* The platform's and the hubs' 13 states each; the 12 rollers attached
     * to their hubs (the default), a turn and a rate each, no axle joint. */
    CHECK(nsed_model_nstate(m) == 4 * 13 + 2 * 12);
    CHECK(nsed_model_njoint(m) == 3);
    CHECK(nsed_model_ncontact(m) == 12);
    CHECK(nsed_model_nconstraint_rows(m) == 15);
    const nsed_body_def *p = nsed_model_body_def(m, 0);
    CHECK(!strcmp(p->name, "platform") && p->mass == 3.3);
    CHECK_NEAR(p->inertia[2], 0.5 * 3.3 * 4, 1e-12, 0); /* thin disk of radius d */
    CHECK(nsed_model_contact_def(m, 0)->mu == 0.5 && nsed_model_contact_def(m, 0)->mu0 == 0.5);
    check_geometry(m, 3, 4, 1.0, 2.0, 0.0);
    check_velocities(m, 3, 4, 1.0, v_coast, 0.5);
    nsed_model_free(&m);
  }
  m = load_file("omni_vehicle_coast_gz.yaml", NULL, 0);
  if (m) {
    CHECK(nsed_model_nbody(m) == 19);
    CHECK(nsed_model_nstate(m) == 4 * 13 + 2 * 15);
    check_geometry(m, 3, 5, 0.05, 0.15, 0.0);
    check_velocities(m, 3, 5, 0.05, v_coast, 1.0);
    nsed_model_free(&m);
  }
  m = load_file("omni_vehicle_drive.yaml", NULL, 0);
  if (m) {
    CHECK(nsed_model_nbody(m) == 16);
    const nsed_joint_def *ax = nsed_model_joint_def(m, 1); /* wheel1_axle */
    CHECK(!strcmp(ax->name, "wheel1_axle") && ax->has_torque);
    CHECK(ax->torque.type == NSED_LAW_PIECEWISE && ax->torque.values[1] == 0.5);
    CHECK(nsed_model_njoint(m) == 3); /* rollers turn freely, attached to their hubs */
    check_velocities(m, 3, 4, 1.0, rest, 0.0);
    nsed_model_free(&m);
  }
  m = load_file("omni_vehicle_drive_gz.yaml", NULL, 0);
  if (m) {
    CHECK(nsed_model_nbody(m) == 19);
    check_geometry(m, 3, 5, 0.05, 0.15, 0.0);
    nsed_model_free(&m);
  }
  /* The block's keys are overridable like any other. */
  const char *ov[] = {"omni_vehicle.rollers=8", "omni_vehicle.psi=0.2"};
  m = load_file("omni_vehicle_coast.yaml", ov, 2);
  if (m) {
    CHECK(nsed_model_nbody(m) == 1 + 3 * 9);
    check_geometry(m, 3, 8, 1.0, 2.0, 0.2);
    check_velocities(m, 3, 8, 1.0, v_coast, 0.5);
    nsed_model_free(&m);
  }
}

/* Everything away from the defaults at once: the inclined rollers'
 * spin equations couple, the heading and the wheel angles turn every
 * frame. Implicit tracking makes the engine check each roller's mount too. */
static void test_general(void) {
  static const char text[] =
      "omni_vehicle:\n"
      "  wheels: 4\n"
      "  rollers: 6\n"
      "  psi: 0.3\n"
      "  wheel_radius: 0.4\n"
      "  wheel_distance: 1.1\n"
      "  wheel_angles: [10, 100, 190, 275]\n"
      "  platform: {mass: 2, inertia: [0.5, 0.6, 1.0]}\n"
      "  wheel: {mass: 0.3, inertia: [0.01, 0.01, 0.02]}\n"
      "  roller_mass: 0.01\n"
      "  position: [2, -1]\n"
      "  heading: 0.7\n"
      "  velocity: [0.3, -0.8]\n"
      "  spin: 1.3\n"
      "  contact: {mu: 0.4, mu0: 0.6, tracking: implicit}\n"
      "  drive: {type: sine, amplitude: 0.1, omega: 2}\n"
      "  suspension: {stiffness: 400, damping: 3, strut_mass: 0.05}\n";
  static const double vel[2] = {0.3, -0.8};
  nsed_model *m = load_text(text);
  if (!m) return;
  /* Per wheel a strut, a hub and 6 rollers. */
  CHECK(nsed_model_nbody(m) == 1 + 4 * 8);
  CHECK(!strcmp(nsed_model_body_name(m, 1), "wheel0_strut") && nsed_model_body_def(m, 1)->mass == 0.05);
  const nsed_joint_def *sj = nsed_model_joint_def(m, 0), *axle = nsed_model_joint_def(m, 1);
  CHECK(!strcmp(sj->name, "wheel0_suspension") && sj->type == NSED_JOINT_PRISMATIC);
  CHECK(!strcmp(sj->body_a, "platform") && !strcmp(sj->body_b, "wheel0_strut"));
  CHECK(sj->spring_k == 400 && sj->spring_c == 3);
  /* The preload carries the platform's quarter of its weight (g = 9.81). */
  CHECK_NEAR(sj->rest_length, -2 * 9.81 / (4 * 400), 1e-15, 0);
  CHECK(!strcmp(axle->name, "wheel0_axle") && !strcmp(axle->body_a, "wheel0_strut"));
  const nsed_body_def *p = nsed_model_body_def(m, 0);
  CHECK(p->inertia[0] == 0.5 && p->inertia[2] == 1.0 && p->position[0] == 2);
  CHECK(nsed_model_body_def(m, 2)->inertia[2] == 0.02);
  const nsed_contact_def *c = nsed_model_contact_def(m, 0);
  CHECK(c->mu == 0.4 && c->mu0 == 0.6 && c->tracking == NSED_TRACKING_IMPLICIT);
  const nsed_joint_def *ax1 = nsed_model_joint_def(m, 3); /* per wheel a strut and an axle */
  CHECK(!strcmp(ax1->name, "wheel1_axle") && ax1->has_torque && ax1->torque.omega == 2);
  check_geometry(m, 4, 6, 0.4, 1.1, 0.3);
  check_velocities(m, 4, 6, 0.4, vel, 1.3);
  nsed_model_free(&m);

  /* On a moving floor (a belt) the rollers roll relative to its surface. */
  static const char neg[] = "omni_vehicle: {psi: -0.5, rollers: 3, velocity: [0.2, 0.5], spin: -0.4}\n"
                            "floor: {velocity: [0.3, -0.1, 0]}\n";
  static const double vn[2] = {0.2, 0.5};
  m = load_text(neg);
  if (!m) return;
  check_geometry(m, 3, 3, 1.0, 2.0, -0.5);
  check_velocities(m, 3, 3, 1.0, vn, -0.4);
  nsed_model_free(&m);
}

/* Defaults, and user-written items beside the block naming its bodies. */
static void test_with_user_items(void) {
  nsed_model *m = load_text("omni_vehicle: {}\n");
  if (m) {
    CHECK(nsed_model_nbody(m) == 16 && nsed_model_nstate(m) == 4 * 13 + 2 * 12);
    CHECK(nsed_model_body_def(m, 2)->mass == 0.025);
    CHECK(nsed_model_body_def(m, 1)->shape.type == NSED_SHAPE_DISK);
    CHECK(nsed_model_contact_def(m, 0)->mu == 0.3);
    check_geometry(m, 3, 4, 1.0, 2.0, 0.0);
    nsed_model_free(&m);
  }
  static const char text[] =
      "gravity: [0, 0, -1]\n"
      "omni_vehicle: {velocity: [0.5, 0]}\n"
      "bodies:\n"
      "  - {name: payload, mass: 0.5, shape: {type: sphere, radius: 0.2}, position: [0, 0, 1.5],\n"
      "     velocity: [0.5, 0, 0]}\n"
      "joints:\n"
      "  - {name: mount, type: weld, body_a: platform, body_b: payload, anchor_a: [0, 0, 0.5]}\n"
      "forces:\n"
      "  - {name: push, type: force, body: platform, direction: [1, 0, 0], magnitude: 0.1}\n"
      "  - {name: brake, type: torque, body: wheel0_roller2, direction: [1, 0, 0], frame: body,\n"
      "     magnitude: 0.01}\n"
      "contacts:\n"
      "  - {name: payload_floor, body: payload}\n";
  m = load_text(text);
  if (!m) return;
  CHECK(nsed_model_nbody(m) == 17);
  CHECK(!strcmp(nsed_model_body_name(m, 0), "payload"));
  CHECK(!strcmp(nsed_model_body_name(m, 1), "platform"));
  CHECK(!strcmp(nsed_model_joint_name(m, 0), "mount")); /* the user's first, then the block's */
  CHECK(!strcmp(nsed_model_joint_name(m, 1), "wheel0_axle"));
  CHECK(!strcmp(nsed_model_contact_name(m, 0), "payload_floor"));
  CHECK(nsed_model_ncontact(m) == 13 && nsed_model_nforce(m) == 2);
  nsed_model_free(&m);
}

/* Bad input: the load fails and the message names the place and says why. */
static void expect_error(const char *text, const char *want1, const char *want2) {
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load_string(text, strlen(text), "veh.yaml", NULL, 0, &m, &err);
  CHECK_MSG(rc == NSED_ERR_INPUT, "accepted:\n%s", text);
  if (rc != NSED_ERR_INPUT) {
    nsed_model_free(&m);
    return;
  }
  CHECK_MSG(strstr(err.message, want1), "message lacks '%s': %s", want1, err.message);
  if (want2) CHECK_MSG(strstr(err.message, want2), "message lacks '%s': %s", want2, err.message);
}

static void test_bad_inputs(void) {
  expect_error("omni_vehicle:\n  wheels: 2\n", "veh.yaml:2:11: omni_vehicle.wheels:",
               "integer in [3, 16], got 2");
  expect_error("omni_vehicle: {rollers: 2}\n", "omni_vehicle.rollers:", "got 2");
  expect_error("omni_vehicle:\n  wheels: 4\n", "veh.yaml:2:11: omni_vehicle.wheels:",
               "statically indeterminate");
  expect_error("omni_vehicle:\n  wheels: 4\n  suspension: {damping: 2}\n",
               "veh.yaml:3:15: omni_vehicle.suspension:", "needs its stiffness");
  expect_error("omni_vehicle:\n  suspension: {stiffness: -5}\n",
               "omni_vehicle.suspension.stiffness:", NULL);
  /* A malformed suspension is reported as such, not as a missing one. */
  static const char bad_susp[] = "omni_vehicle:\n  wheels: 4\n  suspension: 5\n";
  expect_error(bad_susp, "omni_vehicle.suspension:", "expected a mapping");
  nsed_model *bm = NULL;
  nsed_error berr;
  if (nsed_problem_load_string(bad_susp, strlen(bad_susp), "veh.yaml", NULL, 0, &bm, &berr) ==
      NSED_ERR_INPUT)
    CHECK_MSG(!strstr(berr.message, "indeterminate"), "also reported missing: %s", berr.message);
  nsed_model_free(&bm);
  expect_error("omni_vehicle:\n  suspension: {stiffness: 10, spring: 3}\n",
               "omni_vehicle.suspension.spring:", NULL);
  expect_error("omni_vehicle: {rollers: 4.5}\n", "omni_vehicle.rollers:", "integer");
  expect_error("omni_vehicle: {psi: 1.6}\n", "omni_vehicle.psi:", "(-pi/2, pi/2)");
  expect_error("omni_vehicle: {wheel_radius: 0}\n", "omni_vehicle.wheel_radius:", "positive");
  expect_error("omni_vehicle: {wheel_radius: -1}\n", "omni_vehicle.wheel_radius:", "positive");
  expect_error("omni_vehicle: {wheel_distance: 0}\n", "omni_vehicle.wheel_distance:", "positive");
  expect_error("omni_vehicle: {wheel_distance: 1.1}\n", "omni_vehicle.wheel_distance:",
               "wheel_distance must exceed 1.1547");
  expect_error("omni_vehicle: {wheel_angles: [0, 20, 180], wheel_distance: 3}\n",
               "omni_vehicle.wheel_distance: wheels 0 and 1 overlap", NULL);
  expect_error("omni_vehicle: {psi: 1.2, wheel_distance: 2, rollers: 3}\n",
               "omni_vehicle.wheel_distance:", "overlap");
  expect_error("omni_vehicle: {wheel_angles: [0, 120]}\n", "omni_vehicle.wheel_angles:",
               "one angle (degrees) per wheel, 3, got 2");
  expect_error("omni_vehicle: {wheel_angles: [0, 120, 360]}\n", "omni_vehicle.wheel_angles[2]:",
               "cannot share a place");
  expect_error("omni_vehicle: {platform: {mass: 0}}\n", "omni_vehicle.platform.mass:", "positive");
  expect_error("omni_vehicle: {platform: {mass: 1, inertia: [1, 1, 3]}}\n",
               "omni_vehicle.platform.inertia:", "no rigid body");
  expect_error("omni_vehicle: {wheel: {mass: -1}}\n", "omni_vehicle.wheel.mass:", "positive");
  expect_error("omni_vehicle: {wheel: {mas: 1}}\n", "omni_vehicle.wheel.mas:", "did you mean 'mass'");
  expect_error("omni_vehicle: {roller_mass: 0}\n", "omni_vehicle.roller_mass:", "positive");
  expect_error("omni_vehicle: {drive: [1, 2]}\n", "omni_vehicle.drive:",
               "one torque law per wheel, 3");
  expect_error("omni_vehicle: {drive: [1, 2, {type: sine}]}\n", "omni_vehicle.drive[2].amplitude:",
               NULL);
  expect_error("omni_vehicle: {heading: .nan}\n", "omni_vehicle.heading:", "NaN");
  expect_error("omni_vehicle: {velocity: [1, .inf]}\n", "omni_vehicle.velocity[1]:", "NaN");
  expect_error("omni_vehicle: {position: [1, 2, 3]}\n", "omni_vehicle.position:", "list of 2");
  expect_error("omni_vehicle: {spin: fast}\n", "omni_vehicle.spin:", "expected a number");
  expect_error("omni_vehicle: {contact: {mu: 0.5, mu0: 0.2}}\n", "omni_vehicle.contact.mu0:",
               "mu0 >= mu");
  expect_error("omni_vehicle: {contact: {name: x}}\n", "omni_vehicle.contact.name:", "unknown key");
  expect_error("omni_vehicle: {contact: {law: compliant}}\n", "omni_vehicle.contact.stiffness:",
               NULL);
  expect_error("omni_vehicle: {rolers: 5}\n", "omni_vehicle.rolers:", "did you mean 'rollers'");
  expect_error("omni_vehicle: 3\n", "omni_vehicle:", "expected a mapping");
  expect_error("omni_vehicle: {}\nfloor: {normal: [0, 1, 0]}\n", "floor.normal:", "[0, 0, 1]");
  expect_error("omni_vehicle: {}\nfloor: {point: [0, 0, 1]}\n", "floor.point:", "z must be 0");
  /* Names the block generates are taken. */
  expect_error("omni_vehicle: {}\nbodies:\n  - {name: wheel0, mass: 1, shape: {type: sphere, radius: 1}}\n",
               "veh.yaml:3:12: bodies[0].name: body name 'wheel0' is also generated by the "
               "omni_vehicle block (line 1)", NULL);
  expect_error("omni_vehicle: {}\njoints:\n  - {name: wheel2_axle, type: weld, body_a: platform, "
               "body_b: wheel2}\n", "joints[0].name: joint name 'wheel2_axle'", NULL);
  expect_error("omni_vehicle: {}\ncontacts:\n  - {name: wheel1_roller3_floor, body: wheel0_roller0}\n",
               "contacts[0].name: contact name 'wheel1_roller3_floor'", NULL);
  /* A user item naming a body the block does not make. */
  expect_error("omni_vehicle: {}\nforces:\n  - {name: f, type: force, body: wheel3, direction: [1, 0, 0], "
               "magnitude: 1}\n", "forces[0].body: no body named 'wheel3'", NULL);
  /* Without the block, bodies are still required. */
  expect_error("gravity: [0, 0, -1]\n", "required key 'bodies' is missing", NULL);
}

/* The first half second of the coasting vehicle: a handover of roller
 * contacts on wheel 2 (about t = 0.41) and stick-slip on the way. */
static void test_short_run(void) {
  const char *ov[] = {"solver.t_end=0.5"};
  nsed_model *m = load_file("omni_vehicle_coast.yaml", ov, 1);
  if (!m) return;
  nsed_data *d = NULL;
  nsed_error err;
  int rc = nsed_data_create(m, &d, &err);
  if (rc == NSED_OK) rc = nsed_simulate(m, d, NULL, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  if (d) {
    const nsed_stats *st = nsed_data_stats(d);
    double bal = nsed_data_energy(m, d) - st->energy_initial - st->work_external -
                 st->work_contacts - st->work_joints;
    printf("  coast to t = %.3g: %ld events, max gap or joint error %.2e, energy balance %.2e\n",
           nsed_data_time(d), st->events, st->max_constraint_violation, bal);
    CHECK_NEAR(nsed_data_time(d), 0.5, 1e-12, 0);
    CHECK(st->max_constraint_violation < 1e-8);
    CHECK(fabs(bal) < 1e-8 * st->energy_initial);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(int argc, char **argv) {
  if (argc > 1) root = argv[1];
  test_problem_files();
  test_general();
  test_with_user_items();
  test_bad_inputs();
  test_short_run();
  return TEST_DONE();
}
