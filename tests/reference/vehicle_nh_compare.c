/* nsed's omni vehicle (platform + 3 wheels + physical rollers, exact
 * Coulomb, problems built by the `omni_vehicle` block) against the
 * independent nonholonomic model with massless rollers (omni_nh.c), which
 * it must approach as the rollers' mass goes to zero. The reference wheel
 * lumps the rollers in as if welded to it (their spin about their own axes
 * is what the massless limit drops). Kosenko's set: R = 1, d = 2, platform
 * 3.3, hub 1, g = 1, mu = 0.5, psi = 0; the vehicle starts rolling with
 * v = (1, 0) and yaw rate 0.5 and coasts.
 *
 * Test mode (no arguments besides the source root): n = 4 with roller
 * masses 0.025 and 0.00025 to t = 2: the error must fall at the rate the
 * rollers' tips explain, and the reference's first integral (the yaw
 * rate) must hold ever better; the same for four sprung wheels and for
 * rollers inclined at psi = 0.4; the driven inclined-roller problems
 * against the reference driven by the same laws.
 * Table mode (argv[2] = "table" [t_end]): the table of docs/omni-vehicle.md
 * over n = 4, 8, 16 and roller masses 2.5e-2 .. 2.5e-5; "sprung" [t_end]:
 * four sprung wheels over suspension stiffness and roller mass; "inclined"
 * psi [mu [t_end]]: n = 4, 8 at roller inclination psi; "drive" FILE: a
 * driven problem file against the reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/nsed.h"
#include "nsed_test.h"
#include "omni_nh.h"
#include "vehicle_drive.h"

typedef struct {
  double pos_err, ang_err, omega_err, omega_drift;
  double spin_err;    /* wheel 0's initial spin about its axle against the reference's */
  long events, handovers, ref_handovers;
  double wall;
  int ok;
} compare_result;

/* Lump hub and rollers into the reference's rigid wheel: mass, moment about
 * the axle (rollers at R1; a roller's own moments, axial jax and transverse
 * jt, about its axis cos(psi) tau + sin(psi) e: jt + (jax - jt) sin^2(psi)
 * about e) and about a diameter (averaged over the n rollers' positions
 * around the axle: jt + (jax - jt) cos^2(psi) / 2). A sprung
 * wheel's strut rides with the wheel centre and turns with the platform
 * about the vertical, a diameter of the wheel: its mass and that moment
 * join too. */
static void lump_wheel(const nsed_model *m, int n, double R1, double psi, double *mw, double *Ja,
                       double *Jd) {
  const nsed_body_def *hub = nsed_model_body_def(m, nsed_model_find_body(m, "wheel0"));
  const nsed_body_def *rol = nsed_model_body_def(m, nsed_model_find_body(m, "wheel0_roller0"));
  double mr = rol->mass, jax = rol->inertia[0], jt = rol->inertia[1];
  double s2 = sin(psi) * sin(psi), c2 = 1 - s2;
  *mw = hub->mass + n * mr;
  *Ja = hub->inertia[2] + n * (mr * R1 * R1 + jt + (jax - jt) * s2);
  *Jd = hub->inertia[0] + n * (0.5 * mr * R1 * R1 + jt + 0.5 * (jax - jt) * c2);
  int st = nsed_model_find_body(m, "wheel0_strut");
  if (st >= 0) {
    *mw += nsed_model_body_def(m, st)->mass;
    *Jd += nsed_model_body_def(m, st)->inertia[2];
  }
}

static int count_handovers(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m;
  (void)d;
  long *h = ctx;
  if (e->kind == NSED_EVENT_CLOSE || e->kind == NSED_EVENT_IMPACT) (*h)++;
  return 0;
}

/* nw wheels of n rollers of mass mr inclined at psi, rigid (k = 0) or
 * sprung with suspension stiffness k, against the reference at t_end. */
static compare_result compare(const char *root, int nw, double k, int n, double mr, double psi,
                              double mu, double t_end) {
  compare_result res = {0};
  char path[4096], ov[7][96];
  snprintf(path, sizeof path, "%s/problems/omni_vehicle_coast.yaml", root);
  snprintf(ov[0], sizeof ov[0], "omni_vehicle.rollers=%d", n);
  snprintf(ov[1], sizeof ov[1], "omni_vehicle.roller_mass=%.17g", mr);
  snprintf(ov[2], sizeof ov[2], "solver.t_end=%.17g", t_end);
  snprintf(ov[3], sizeof ov[3], "omni_vehicle.contact.mu=%.17g", mu);
  snprintf(ov[4], sizeof ov[4], "omni_vehicle.wheels=%d", nw);
  snprintf(ov[5], sizeof ov[5], "omni_vehicle.psi=%.17g", psi);
  snprintf(ov[6], sizeof ov[6], "omni_vehicle.suspension={stiffness: %.17g}", k);
  const char *ovp[7] = {ov[0], ov[1], ov[2], ov[3], ov[4], ov[5], ov[6]};
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  if (nsed_problem_load(path, ovp, k > 0 ? 7 : 6, &m, &err) || nsed_data_create(m, &d, &err)) {
    fprintf(stderr, "%s\n", err.message);
    nsed_model_free(&m);
    return res;
  }
  int P = nsed_model_find_body(m, "platform");
  double s0[13], hub0[13];
  nsed_data_body_state(d, P, s0);
  /* The hub's body z is its axle, across the platform's vertical yaw. */
  nsed_data_body_state(d, nsed_model_find_body(m, "wheel0"), hub0);
  nsed_observer obs = {.ctx = &res.handovers, .event = count_handovers};
  int rc = nsed_simulate(m, d, &obs, &err);
  if (rc) {
    fprintf(stderr, "%d wheels (k = %g), n = %d, roller mass %g: %s\n", nw, k, n, mr, err.message);
    nsed_data_free(&d);
    nsed_model_free(&m);
    return res;
  }
  double s1[13];
  nsed_data_body_state(d, P, s1);
  res.events = nsed_data_stats(d)->events;
  res.wall = nsed_data_stats(d)->wall_seconds;

  const nsed_body_def *pd = nsed_model_body_def(m, P);
  double R = 1.0, R1 = R * cos(M_PI / n), mw, Ja, Jd;
  lump_wheel(m, n, R1, psi, &mw, &Ja, &Jd);
  omni_nh_params p;
  omni_nh_params_symmetric(&p, nw, 2.0, R, pd->mass, pd->inertia[2], mw, Ja, Jd);
  p.psi = psi;
  p.rollers = n;
  omni_nh_state s;
  /* Platform yaw rate: body z is vertical, so w_body z is the yaw rate. */
  int nrc = omni_nh_init(&p, s0[0], s0[1], 0.0, s0[7], s0[8], s0[12], &s);
  if (!nrc) res.spin_err = fabs(hub0[12] - s.phidot[0]);
  /* In short legs, so that a stop is placed in time. */
  for (int leg = 1; leg <= 100 && !nrc; leg++) nrc = omni_nh_advance(&p, &s, t_end * leg / 100, 1e-13);
  if (nrc) {
    fprintf(stderr, "n = %d, roller mass %g, psi %g: the reference stops after t = %.4f (%s)\n", n,
            mr, psi, s.t,
            nrc == OMNI_NH_EHANDOVER ? "a wheel reaches the edge of its roller's sector and the "
                                       "next roller's impulse would turn it back"
                                     : "error");
    nsed_data_free(&d);
    nsed_model_free(&m);
    return res;
  }
  /* Heading from the platform quaternion (rotation about z only, to the
   * platform's small tilt). */
  double th = 2 * atan2(s1[6], s1[3]);
  res.pos_err = hypot(s1[0] - s.x, s1[1] - s.y);
  res.ang_err = fabs(remainder(th - s.theta, 2 * M_PI));
  res.omega_err = fabs(s1[12] - s.omega);
  res.omega_drift = fabs(s1[12] - s0[12]);
  res.ref_handovers = s.handovers;
  res.ok = 1;
  nsed_data_free(&d);
  nsed_model_free(&m);
  return res;
}

static void table(const char *root, double t_end) {
  static const int ns[] = {4, 8, 16};
  static const double mrs[] = {2.5e-2, 2.5e-3, 2.5e-4, 2.5e-5};
  printf("| n | roller mass | position error | heading error | yaw-rate error | yaw-rate drift | "
         "handovers | wall s |\n|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
    for (size_t j = 0; j < sizeof mrs / sizeof mrs[0]; j++) {
      compare_result r = compare(root, 3, 0.0, ns[i], mrs[j], 0.0, 0.5, t_end);
      if (!r.ok) {
        printf("| %d | %g | failed | | | | | |\n", ns[i], mrs[j]);
        continue;
      }
      printf("| %d | %g | %.2e | %.2e | %.2e | %.2e | %ld | %.1f |\n", ns[i], mrs[j], r.pos_err,
             r.ang_err, r.omega_err, r.omega_drift, r.handovers, r.wall);
      fflush(stdout);
    }
}

/* Four sprung wheels of 4 rollers: the error against the rigid reference
 * as the springs stiffen and the rollers lighten. */
static void sprung_table(const char *root, double t_end) {
  static const double ks[] = {1e3, 1e4, 1e5}, mrs[] = {2.5e-2, 2.5e-4};
  printf("| stiffness | roller mass | position error | heading error | yaw-rate error | handovers | "
         "wall s |\n|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
    for (size_t j = 0; j < sizeof mrs / sizeof mrs[0]; j++) {
      compare_result r = compare(root, 4, ks[i], 4, mrs[j], 0.0, 0.5, t_end);
      if (!r.ok) {
        printf("| %g | %g | failed | | | | |\n", ks[i], mrs[j]);
        continue;
      }
      printf("| %g | %g | %.2e | %.2e | %.2e | %ld | %.1f |\n", ks[i], mrs[j], r.pos_err, r.ang_err,
             r.omega_err, r.handovers, r.wall);
      fflush(stdout);
    }
}

/* A driven problem file against the reference driven by the same laws. */
static int drive_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m;
  vehicle_drive_record(ctx, d, why);
  return 0;
}

typedef struct {
  vehicle_drive_samples nsed, ref; /* nsed's and the reference's platform at t = 2, 4, 6 */
  vehicle_drive_samples classical; /* the reference with infinitely many rollers */
  int ok;
} drive_result;

/* A driven problem file to t = 6 and the reference driven by the same
 * laws, the wheels where the file puts them (vehicle_drive_layout). */
static drive_result compare_drive(const char *root, const char *file) {
  drive_result res = {0};
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/%s", root, file);
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  const char *over[] = {"solver.t_end=6"};
  if (nsed_problem_load(path, over, 1, &m, &err) || nsed_data_create(m, &d, &err)) {
    fprintf(stderr, "%s: %s\n", file, err.message);
    nsed_model_free(&m);
    return res;
  }
  res.nsed.P = nsed_model_find_body(m, "platform");
  double s0[13];
  nsed_data_body_state(d, res.nsed.P, s0);
  nsed_observer obs = {.ctx = &res.nsed, .sample = drive_sample};
  int rc = nsed_simulate(m, d, &obs, &err);
  if (rc == NSED_OK) {
    const nsed_body_def *pd = nsed_model_body_def(m, res.nsed.P);
    const nsed_body_def *rol = nsed_model_body_def(m, nsed_model_find_body(m, "wheel0_roller0"));
    int n = rol->shape.rollers;
    double mw, Ja, Jd;
    lump_wheel(m, n, cos(M_PI / n), rol->shape.psi, &mw, &Ja, &Jd);
    omni_nh_params p;
    omni_nh_params_symmetric(&p, 3, 2.0, rol->shape.radius, pd->mass, pd->inertia[2], mw, Ja, Jd);
    int nw = vehicle_drive_layout(m, &p);
    vehicle_drive_laws dl;
    vehicle_drive_laws_find(m, nw, &dl);
    p.torque = vehicle_drive_torque;
    p.ctx = &dl;
    omni_nh_state st;
    int nrc = 0;
    for (int pass = 0; pass < 2 && !nrc; pass++) {
      vehicle_drive_samples *out = pass ? &res.classical : &res.ref;
      p.rollers = pass ? 0 : n;
      nrc = omni_nh_init(&p, s0[0], s0[1], 0.0, s0[7], s0[8], s0[12], &st);
      for (int k = 0; k < 3 && !nrc; k++) {
        nrc = omni_nh_advance(&p, &st, 2.0 * (k + 1), 1e-12);
        out->at[k] = (vehicle_drive_point){st.x, st.y, st.vx, st.vy, st.omega};
      }
    }
    res.ok = nrc == OMNI_NH_OK;
    if (nrc) fprintf(stderr, "%s: the reference failed (%d)\n", file, nrc);
  } else {
    fprintf(stderr, "%s: %s\n", file, err.message);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
  return res;
}

static void print_drive(const char *file, const drive_result *r) {
  printf("%s, nsed / reference / classical (infinitely many rollers):\n", file);
  for (int k = 0; k < 3; k++) {
    const vehicle_drive_point *a = &r->nsed.at[k], *b = &r->ref.at[k], *c = &r->classical.at[k];
    printf("  t = %d: x %.6f / %.6f / %.6f, y %.6g / %.6g / %.6g, vx %.6f / %.6f / %.6f, vy %.6g / "
           "%.6g / %.6g, yaw rate %.6f / %.6f / %.6f\n",
           2 * (k + 1), a->x, b->x, c->x, a->y, b->y, c->y, a->vx, b->vx, c->vx, a->vy, b->vy, c->vy,
           a->w, b->w, c->w);
  }
}

/* Inclined rollers: the error against the reference with the same rollers
 * (massless) as the rollers lighten. */
static void inclined_table(const char *root, double psi, double mu, double t_end) {
  static const int ns[] = {4, 8};
  static const double mrs[] = {2.5e-2, 2.5e-3, 2.5e-4, 2.5e-5};
  printf("psi = %g, mu = %g, t = %g\n| n | roller mass | position error | heading error | yaw-rate error | "
         "initial wheel spin error | handovers (nsed events, reference) | wall s |\n"
         "|---|---|---|---|---|---|---|---|\n", psi, mu, t_end);
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
    for (size_t j = 0; j < sizeof mrs / sizeof mrs[0]; j++) {
      compare_result r = compare(root, 3, 0.0, ns[i], mrs[j], psi, mu, t_end);
      if (!r.ok) {
        printf("| %d | %g | failed | | | | | |\n", ns[i], mrs[j]);
        continue;
      }
      printf("| %d | %g | %.2e | %.2e | %.2e | %.1e | %ld, %ld | %.1f |\n", ns[i], mrs[j], r.pos_err,
             r.ang_err, r.omega_err, r.spin_err, r.handovers, r.ref_handovers, r.wall);
      fflush(stdout);
    }
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  if (argc > 3 && !strcmp(argv[2], "drive")) {
    drive_result r = compare_drive(root, argv[3]);
    print_drive(argv[3], &r);
    return r.ok ? 0 : 1;
  }
  if (argc > 3 && !strcmp(argv[2], "inclined")) {
    inclined_table(root, atof(argv[3]), argc > 4 ? atof(argv[4]) : 0.5,
                   argc > 5 ? atof(argv[5]) : 2.0);
    return 0;
  }
  if (argc > 2 && !strcmp(argv[2], "table")) {
    table(root, argc > 3 ? atof(argv[3]) : 5.0);
    return 0;
  }
  if (argc > 2 && !strcmp(argv[2], "sprung")) {
    sprung_table(root, argc > 3 ? atof(argv[3]) : 2.0);
    return 0;
  }
  compare_result heavy = compare(root, 3, 0.0, 4, 2.5e-2, 0.0, 0.5, 2.0),
                 light = compare(root, 3, 0.0, 4, 2.5e-4, 0.0, 0.5, 2.0);
  CHECK(heavy.ok && light.ok);
  printf("n = 4, t = 2: roller mass 0.025: position error %.2e, heading %.2e, yaw rate %.2e "
         "(drift %.2e); 0.00025: %.2e, %.2e, %.2e (drift %.2e)\n",
         heavy.pos_err, heavy.ang_err, heavy.omega_err, heavy.omega_drift, light.pos_err,
         light.ang_err, light.omega_err, light.omega_drift);
  /* Light rollers track the nonholonomic model better, and break its first
   * integral (constant yaw rate) far less. The position error falls only as
   * the cube root of the roller mass: near a tip (r -> 0) a roller cannot
   * spin fast enough to let the wheel slide along its axle, and slips where
   * J_r u r' / r^3 > mu N, a stretch of r ~ m_r^(1/3) (docs/omni-vehicle.md). */
  double p_pos = log(heavy.pos_err / light.pos_err) / log(100.0);
  double p_om = log(heavy.omega_drift / light.omega_drift) / log(100.0);
  printf("error ~ roller mass^%.3f (position), ^%.3f (yaw-rate drift)\n", p_pos, p_om);
  CHECK(p_pos > 0.25 && p_pos < 0.45);
  CHECK(p_om > 0.5);
  CHECK(light.pos_err < 0.05);
  /* Four sprung wheels converge the same way: the cube-root law of the
   * rigid three-wheeler (sprung table: 0.0218 for the light rollers at
   * k = 1e3, 1e4 and 1e5 alike; docs/omni-vehicle.md). */
  compare_result sh = compare(root, 4, 1e5, 4, 2.5e-2, 0.0, 0.5, 2.0),
                 sl = compare(root, 4, 1e5, 4, 2.5e-4, 0.0, 0.5, 2.0);
  CHECK(sh.ok && sl.ok);
  double p_sprung = log(sh.pos_err / sl.pos_err) / log(100.0);
  printf("4 sprung wheels (k = 1e5), t = 2: position error %.2e (roller mass 0.025) -> %.2e "
         "(0.00025): ~ roller mass^%.3f\n", sh.pos_err, sl.pos_err, p_sprung);
  CHECK(p_sprung > 0.25 && p_sprung < 0.45);

  /* Rollers inclined at psi = 0.4 against the reference with the same
   * rollers, massless: the wheels start with the reference's spins (the
   * builder's rolling start solves the same no-slip condition), hand over
   * as often, and converge at the rate of psi = 0 (measured: position
   * error 8.54e-2 -> 1.75e-2, exponent 0.344). */
  compare_result ih = compare(root, 3, 0.0, 4, 2.5e-2, 0.4, 0.5, 2.0),
                 il = compare(root, 3, 0.0, 4, 2.5e-4, 0.4, 0.5, 2.0);
  CHECK(ih.ok && il.ok);
  double p_incl = log(ih.pos_err / il.pos_err) / log(100.0);
  printf("psi = 0.4, n = 4, t = 2: position error %.2e (roller mass 0.025) -> %.2e (0.00025): ~ "
         "roller mass^%.3f; handovers %ld, %ld (reference %ld, %ld); initial wheel spin %.1e\n",
         ih.pos_err, il.pos_err, p_incl, ih.handovers, il.handovers, ih.ref_handovers,
         il.ref_handovers, fmax(ih.spin_err, il.spin_err));
  CHECK(p_incl > 0.25 && p_incl < 0.45);
  CHECK(il.pos_err < 0.03);
  CHECK(ih.handovers == ih.ref_handovers && il.handovers == il.ref_handovers);
  CHECK(ih.spin_err < 1e-12 && il.spin_err < 1e-12);

  /* Driven inclined-roller vehicles (problems/omni_vehicle_drive_psi04.yaml,
   * _mecanum.yaml): distance and speed at t = 2 (measured 0.22-0.26%
   * apart), the yaw rate at t = 6 (0.05-0.09%), and the sideways drift that
   * only finitely many rollers give (the roller in contact turns the free
   * direction by 1 / cos(q)): -9.2e-5 and -2.0e-4 in the reference, nsed
   * within 5% and 8% of it. */
  static const char *drives[] = {"omni_vehicle_drive_psi04.yaml", "omni_vehicle_drive_mecanum.yaml"};
  for (int k = 0; k < 2; k++) {
    drive_result r = compare_drive(root, drives[k]);
    CHECK(r.ok);
    print_drive(drives[k], &r);
    const vehicle_drive_point *a = r.nsed.at, *b = r.ref.at;
    CHECK(fabs(a[0].x - b[0].x) < 0.01 * fabs(b[0].x));
    CHECK(fabs(a[0].vx - b[0].vx) < 0.01 * fabs(b[0].vx));
    CHECK(fabs(a[2].w - b[2].w) < 0.005 * fabs(b[2].w));
    CHECK(fabs(b[0].y) > 5e-5);
    CHECK(fabs(a[0].y - b[0].y) < 0.15 * fabs(b[0].y));
  }

  /* The mecanum car (problems/omni_vehicle_mecanum_car.yaml): torques
   * tau0 (1, -1, -1, 1) push it straight sideways, as the classical
   * kinematics says: x, the heading and the yaw rate stay zero to
   * round-off (the car is symmetric), and y(2), v_y(2) and y(4) (braked)
   * agree with the reference's finitely many rollers (measured 0.77%,
   * 0.90%, 0.70%; by t = 4 the classical model's infinitely many have rolled
   * 1.4% farther). */
  drive_result car = compare_drive(root, "omni_vehicle_mecanum_car.yaml");
  CHECK(car.ok);
  print_drive("omni_vehicle_mecanum_car.yaml", &car);
  double straight = 0;
  for (int k = 0; k < 3; k++) {
    const vehicle_drive_point *a = &car.nsed.at[k];
    straight = fmax(straight, fmax(fabs(a->x), fmax(fabs(a->vx), fabs(a->w))));
  }
  const vehicle_drive_point *a = car.nsed.at, *b = car.ref.at;
  printf("mecanum car sideways: x, vx, yaw rate within %.2e; y(2) %.3f%%, vy(2) %.3f%%, y(4) %.3f%% "
         "off the reference\n",
         straight, 100 * fabs(a[0].y / b[0].y - 1), 100 * fabs(a[0].vy / b[0].vy - 1),
         100 * fabs(a[1].y / b[1].y - 1));
  CHECK(straight < 1e-9);
  CHECK(fabs(a[0].y - b[0].y) < 0.015 * fabs(b[0].y));
  CHECK(fabs(a[0].vy - b[0].vy) < 0.015 * fabs(b[0].vy));
  CHECK(fabs(a[1].y - b[1].y) < 0.015 * fabs(b[1].y));
  return TEST_DONE();
}
