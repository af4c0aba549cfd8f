/* Planes anywhere and boxes, against closed forms:
 *  - a box sliding down an incline on its face (four vertex contacts, the
 *    normal rows redundant) stops at t* = v0 / (g (mu cos th - sin th))
 *    after v0^2 / (2 g (mu cos th - sin th)), for several angles and
 *    coefficients and every exact friction form, then stays;
 *  - a box resting on its four corners stays at rest for 100 s, on the
 *    floor and on an incline, in every friction form, with no event;
 *  - a sphere in the corner of two walls under a tilted gravity: the three
 *    normal forces are the gravity's components;
 *  - a frictionless box dropped on a corner: the impact's impulse from the
 *    vertex's effective mass, Newton's e, the linear velocity and the world
 *    angular momentum after it;
 *  - a sphere bouncing off a wall at the closed-form time and speed. */
#include <math.h>

#include "engine_util.h"
#include "nsed_test.h"

static const double G = 9.81;

static void add_plane(nsed_model *m, const char *name, const double point[3], const double normal[3]) {
  nsed_error err;
  nsed_plane_def p;
  nsed_plane_def_default(&p);
  snprintf(p.name, sizeof p.name, "%s", name);
  for (int k = 0; k < 3; k++) p.point[k] = point[k], p.normal[k] = normal[k];
  must(nsed_model_add_plane(m, &p, &err), &err);
}

static void add_box(nsed_model *m, const double half[3], double mass, const double pos[3],
                    const double quat[4], const double vel[3]) {
  nsed_error err;
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "box");
  b.mass = mass;
  b.shape.type = NSED_SHAPE_BOX;
  for (int k = 0; k < 3; k++) {
    b.shape.half[k] = half[k];
    b.position[k] = pos[k];
    b.velocity[k] = vel[k];
  }
  for (int k = 0; k < 4; k++) b.quat[k] = quat[k];
  must(nsed_model_add_body(m, &b, &err), &err);
}

static void add_ball(nsed_model *m, double r, double mass, const double pos[3], const double vel[3]) {
  nsed_error err;
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.mass = mass;
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = r;
  for (int k = 0; k < 3; k++) b.position[k] = pos[k], b.velocity[k] = vel[k];
  must(nsed_model_add_body(m, &b, &err), &err);
}

/* Contact `name` of the ball with surface `with` ("" = floor). */
static void add_ball_contact(nsed_model *m, const char *name, const char *with, double mu, double e) {
  nsed_error err;
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "%s", name);
  snprintf(c.body, sizeof c.body, "ball");
  snprintf(c.other, sizeof c.other, "%s", with);
  c.mu = c.mu0 = mu;
  c.restitution = e;
  must(nsed_model_add_contact(m, &c, &err), &err);
}

/* The eight vertex contacts of the box with surface `with` ("" = floor),
 * exact Coulomb unless *law says otherwise. */
static void add_box_contacts_law(nsed_model *m, const char *with, double mu, double e,
                                 const nsed_contact_def *law) {
  nsed_error err;
  nsed_contact_def c, v;
  nsed_contact_def_default(&c);
  if (law) c = *law;
  snprintf(c.name, sizeof c.name, "base");
  snprintf(c.body, sizeof c.body, "box");
  snprintf(c.other, sizeof c.other, "%s", with);
  c.mu = c.mu0 = mu;
  c.restitution = e;
  for (int i = 0; i < 8; i++) {
    must(nsed_contact_feature(&c, NSED_SHAPE_BOX, i, &v, &err), &err);
    must(nsed_model_add_contact(m, &v, &err), &err);
  }
}

static void add_box_contacts(nsed_model *m, const char *with, double mu, double e) {
  add_box_contacts_law(m, with, mu, e, NULL);
}

static void finish(nsed_model *m, double t_end, nsed_friction_model form, const double gravity[3]) {
  nsed_error err;
  nsed_options o = *nsed_model_options(m);
  o.t_end = t_end;
  o.friction.model = form;
  if (gravity)
    for (int k = 0; k < 3; k++) o.gravity[k] = gravity[k];
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
}

static recorder rec;

/* The box slides down the incline plane on its face and stops. */
static void slide_and_stop(double th_deg, double mu, nsed_friction_model form) {
  const double th = th_deg * M_PI / 180, v0 = 1.0, half[3] = {0.2, 0.1, 0.05};
  const double n[3] = {-sin(th), 0, cos(th)}, s[3] = {-cos(th), 0, -sin(th)}, o3[3] = {0, 0, 0};
  const double a = G * (mu * cos(th) - sin(th)), t_stop = v0 / a, dist = v0 * v0 / (2 * a);
  double pos[3], vel[3], quat[4] = {cos(th / 2), 0, -sin(th / 2), 0};
  for (int k = 0; k < 3; k++) pos[k] = half[2] * n[k], vel[k] = v0 * s[k];
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  add_box(m, half, 2.0, pos, quat, vel);
  add_plane(m, "slope", o3, n);
  add_box_contacts(m, "slope", mu, 0);
  finish(m, t_stop + 0.5, form, NULL);
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  int rc = run_model(m, &d, &rec);
  CHECK_MSG(rc == NSED_OK, "theta %g mu %g %s: %s", th_deg, mu, nsed_friction_model_name(form),
            nsed_status_name(rc));
  int sticks = 0;
  double t_err = 0;
  for (int i = 0; i < rec.nev; i++)
    if (rec.ev[i].kind == NSED_EVENT_STICK) sticks++, t_err = fmax(t_err, fabs(rec.ev[i].t - t_stop));
  double st[13], along = 0, speed = 0;
  nsed_data_body_state(d, 0, st);
  for (int k = 0; k < 3; k++) along += (st[k] - pos[k]) * s[k], speed += st[7 + k] * st[7 + k];
  printf("theta %4.1f mu %.2f %-15s: %d events (%d sticks), stop time error %.2e s, distance error "
         "%.2e m, final speed %.1e m/s\n",
         th_deg, mu, nsed_friction_model_name(form), rec.nev, sticks, t_err, along - dist, sqrt(speed));
  CHECK_MSG(rec.nev == 4 && sticks == 4, "%d events, %d sticks: the four face vertices stop together",
            rec.nev, sticks);
  CHECK_NEAR(t_err, 0, 1e-9, 0);
  CHECK_NEAR(along, dist, 1e-9, 0);
  CHECK_NEAR(sqrt(speed), 0, 1e-12, 0);
  for (int c = 0; c < 8; c++) {
    nsed_contact_info ci;
    nsed_data_contact(d, c, &ci);
    CHECK_MSG(ci.mode == (c < 4 ? NSED_MODE_STICK : NSED_MODE_OPEN), "contact %d ends %s", c,
              nsed_mode_name(ci.mode));
  }
  const nsed_stats *stt = nsed_data_stats(d);
  CHECK(monitor_clean(stt));
  double de = nsed_data_energy(m, d) - stt->energy_initial;
  CHECK_NEAR(de, stt->work_external + stt->work_contacts + stt->work_joints, 1e-10, 1e-9);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* The same slide under the regularised and the compliant laws (both with
 * regularised friction, delta = 1e-4 m/s): while |v| >> delta the friction
 * is mu lambda_n, so the speed is v0 - a t; at rest on the slope the box
 * creeps at the speed whose friction balances the slope, delta tan(th) /
 * mu. The compliant box starts at its static penetration m g cos(th) /
 * (4 k). */
typedef struct {
  double t_probe, v_probe, sdir[3];
  int done;
} speed_probe;

static int probe_speed(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m, (void)why;
  speed_probe *p = ctx;
  double st[13];
  if (p->done || nsed_data_time(d) < p->t_probe) return 0;
  nsed_data_body_state(d, 0, st);
  p->v_probe = st[7] * p->sdir[0] + st[8] * p->sdir[1] + st[9] * p->sdir[2];
  p->t_probe = nsed_data_time(d);
  p->done = 1;
  return 0;
}

static void slide_law(nsed_contact_law law) {
  const double th = 20 * M_PI / 180, v0 = 1.0, mu = 0.5, mass = 2.0, delta = 1e-4, k = 1e6;
  const double half[3] = {0.2, 0.1, 0.05}, o3[3] = {0, 0, 0};
  const double n[3] = {-sin(th), 0, cos(th)}, s[3] = {-cos(th), 0, -sin(th)};
  const double a = G * (mu * cos(th) - sin(th)), t_stop = v0 / a;
  double sink = law == NSED_CONTACT_COMPLIANT ? mass * G * cos(th) / (4 * k) : 0.0;
  double pos[3], vel[3], quat[4] = {cos(th / 2), 0, -sin(th / 2), 0};
  for (int i = 0; i < 3; i++) pos[i] = (half[2] - sink) * n[i], vel[i] = v0 * s[i];
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  add_box(m, half, mass, pos, quat, vel);
  add_plane(m, "slope", o3, n);
  nsed_contact_def lc;
  nsed_contact_def_default(&lc);
  lc.law = law;
  lc.delta = delta;
  lc.stiffness = k;
  lc.damping = 1500; /* about critical for a quarter of the mass on one vertex */
  add_box_contacts_law(m, "slope", mu, 0, &lc);
  finish(m, t_stop + 1.0, NSED_FRICTION_POLYGON_FACE, NULL);
  nsed_data *d;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  static speed_probe sp;
  memset(&sp, 0, sizeof sp);
  sp.t_probe = 0.5 * t_stop;
  for (int i = 0; i < 3; i++) sp.sdir[i] = s[i];
  nsed_observer obs = {.ctx = &sp, .sample = probe_speed};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s: %s", nsed_contact_law_name(law), err.message);
  double st[13], creep = 0;
  nsed_data_body_state(d, 0, st);
  for (int i = 0; i < 3; i++) creep += st[7 + i] * s[i];
  double v_mid = v0 - a * sp.t_probe, v_creep = delta * tan(th) / mu;
  printf("%-11s slide: speed at %.3f s %.12f (closed form %.12f, error %.1e), creep %.6e m/s "
         "(delta tan th / mu %.6e)\n",
         nsed_contact_law_name(law), sp.t_probe, sp.v_probe, v_mid, sp.v_probe - v_mid, creep, v_creep);
  /* compliant: the springs start at the static penetration, where their
   * total force is m g cos(th); the friction's moment pitches the box by a
   * negligible amount (measured 4e-15 m/s) */
  CHECK_NEAR(sp.v_probe, v_mid, 1e-9, 0);
  CHECK_NEAR(creep, v_creep, 0, 1e-6);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* A box on its face at rest for 100 s on a plane tilted by th (0: the floor). */
static void rest(double th_deg, nsed_friction_model form) {
  const double th = th_deg * M_PI / 180, half[3] = {0.3, 0.2, 0.1}, o3[3] = {0, 0, 0};
  const double n[3] = {-sin(th), 0, cos(th)};
  double pos[3], quat[4] = {cos(th / 2), 0, -sin(th / 2), 0};
  for (int k = 0; k < 3; k++) pos[k] = half[2] * n[k];
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  add_box(m, half, 5.0, pos, quat, o3);
  if (th_deg != 0) add_plane(m, "slope", o3, n);
  add_box_contacts(m, th_deg != 0 ? "slope" : "", 0.5, 0);
  finish(m, 100.0, form, NULL);
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  double st[13], drift = 0, speed = 0;
  nsed_data_body_state(d, 0, st);
  for (int k = 0; k < 3; k++) drift = fmax(drift, fabs(st[k] - pos[k])), speed = fmax(speed, fabs(st[7 + k]));
  double nsum = 0, tsum = 0;
  for (int c = 0; c < 4; c++) {
    nsed_contact_info ci;
    nsed_data_contact(d, c, &ci);
    CHECK(ci.mode == NSED_MODE_STICK);
    nsum += ci.lambda[0];
    tsum += hypot(ci.lambda[1], ci.lambda[2]);
  }
  printf("at rest on %4.1f deg, %-15s: %d events, drift %.1e m, speed %.1e m/s, normal %.12g N "
         "(m g cos th %.12g)\n",
         th_deg, nsed_friction_model_name(form), rec.nev, drift, speed, nsum, 5 * G * cos(th));
  CHECK_MSG(rec.nev == 0, "%d events (chatter)", rec.nev);
  /* Held at acceleration level with no stabilisation, the box drifts only
   * by the round-off of its accelerations (~1e-15 m/s^2: 5e-12 m in 100 s). */
  CHECK_NEAR(drift, 0, 1e-10, 0);
  CHECK_NEAR(speed, 0, 1e-12, 0);
  CHECK_NEAR(nsum, 5 * G * cos(th), 0, 1e-12);
  CHECK(monitor_clean(nsed_data_stats(d)));
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* A sphere at rest in the corner of two walls on the floor, gravity tilted
 * into the corner. With friction the three contacts share the load in many
 * ways (the forces are redundant): whichever nsed reports must be in
 * equilibrium with the weight and inside every friction set, and the
 * sphere must stay. */
static void corner(void) {
  const double r = 0.1, mass = 2.0, g[3] = {-1.0, -2.0, -G}, o3[3] = {0, 0, 0};
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  const double pos[3] = {r, r, r}, nx[3] = {1, 0, 0}, ny[3] = {0, 1, 0};
  add_ball(m, r, mass, pos, o3);
  add_plane(m, "wall_x", o3, nx);
  add_plane(m, "wall_y", o3, ny);
  add_ball_contact(m, "ball_floor", "", 0.3, 0);
  add_ball_contact(m, "ball_wall_x", "wall_x", 0.3, 0);
  add_ball_contact(m, "ball_wall_y", "wall_y", 0.3, 0);
  finish(m, 10.0, NSED_FRICTION_POLYGON_FACE, g);
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  /* the contact frames (n, t1, t2) of nsedi_v3_tangents for these normals */
  static const double frame[3][3][3] = {{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},
                                        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                                        {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}}};
  double total[3] = {0, 0, 0}, st[13];
  for (int c = 0; c < 3; c++) {
    nsed_contact_info ci;
    nsed_data_contact(d, c, &ci);
    CHECK(ci.mode == NSED_MODE_STICK);
    CHECK(ci.lambda[0] > 0 && hypot(ci.lambda[1], ci.lambda[2]) <= 0.3 * ci.lambda[0] / cos(M_PI / 8));
    for (int k = 0; k < 3; k++)
      for (int i = 0; i < 3; i++) total[i] += ci.lambda[k] * frame[c][k][i];
  }
  double worst = 0;
  for (int i = 0; i < 3; i++) worst = fmax(worst, fabs(total[i] + mass * g[i]));
  nsed_data_body_state(d, 0, st);
  double drift = fmax(fabs(st[0] - r), fmax(fabs(st[1] - r), fabs(st[2] - r)));
  printf("sphere in a corner: %d events, resultant + m g = %.1e N, drift %.1e m after 10 s\n", rec.nev,
         worst, drift);
  CHECK(rec.nev == 0);
  CHECK_NEAR(worst, 0, 1e-12, 1e-12);
  CHECK_NEAR(drift, 0, 1e-12, 0);
  CHECK(monitor_clean(nsed_data_stats(d)));
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* A frictionless box dropped on its lowest corner (restitution e): the
 * impulse P = -(1 + e) v_n / (1/m + (r x n) . I_w^-1 (r x n)) at the
 * vertex r; after it the box flies freely, so at t_end its vertical
 * velocity is v_n + P/m - g (t_end - t_i) and its world angular momentum
 * r x n P (it had none). */
static void corner_drop(double e) {
  const double half[3] = {0.15, 0.1, 0.05}, mass = 3.0, h = 0.2, o3[3] = {0, 0, 0};
  /* orientation: 30 deg about x, then 20 deg about y (one lowest vertex) */
  const double ax = 30 * M_PI / 180, ay = 20 * M_PI / 180;
  const double qx[4] = {cos(ax / 2), sin(ax / 2), 0, 0}, qy[4] = {cos(ay / 2), 0, sin(ay / 2), 0};
  double q[4] = {qy[0] * qx[0] - qy[2] * qx[2] - qy[1] * qx[1] - qy[3] * qx[3],
                 qy[0] * qx[1] + qy[1] * qx[0] + qy[2] * qx[3] - qy[3] * qx[2],
                 qy[0] * qx[2] - qy[1] * qx[3] + qy[2] * qx[0] + qy[3] * qx[1],
                 qy[0] * qx[3] + qy[1] * qx[2] - qy[2] * qx[1] + qy[3] * qx[0]};
  /* rotation matrix of q */
  double R[9] = {1 - 2 * (q[2] * q[2] + q[3] * q[3]), 2 * (q[1] * q[2] - q[0] * q[3]),
                 2 * (q[1] * q[3] + q[0] * q[2]),     2 * (q[1] * q[2] + q[0] * q[3]),
                 1 - 2 * (q[1] * q[1] + q[3] * q[3]), 2 * (q[2] * q[3] - q[0] * q[1]),
                 2 * (q[1] * q[3] - q[0] * q[2]),     2 * (q[2] * q[3] + q[0] * q[1]),
                 1 - 2 * (q[1] * q[1] + q[2] * q[2])};
  double low = INFINITY, r[3] = {0, 0, 0};
  for (int v = 0; v < 8; v++) {
    double p[3], w[3];
    for (int k = 0; k < 3; k++) p[k] = (v >> k & 1 ? 1 : -1) * half[k];
    for (int i = 0; i < 3; i++) w[i] = R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2];
    if (w[2] < low) low = w[2], r[0] = w[0], r[1] = w[1], r[2] = w[2];
  }
  double pos[3] = {0, 0, h - low};
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  add_box(m, half, mass, pos, q, o3);
  add_box_contacts(m, "", 0.0, e);
  const double t_i = sqrt(2 * h / G), t_end = t_i + 0.02;
  finish(m, t_end, NSED_FRICTION_POLYGON_FACE, NULL);
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  /* the closed form: body inertia of the box, I_w = R I R^T */
  double I[3] = {mass * (half[1] * half[1] + half[2] * half[2]) / 3,
                 mass * (half[0] * half[0] + half[2] * half[2]) / 3,
                 mass * (half[0] * half[0] + half[1] * half[1]) / 3};
  double rn[3] = {r[1], -r[0], 0}; /* r x (0, 0, 1) */
  double rb[3], k = 1 / mass;
  for (int i = 0; i < 3; i++) rb[i] = R[i] * rn[0] + R[3 + i] * rn[1] + R[6 + i] * rn[2];
  for (int i = 0; i < 3; i++) k += rb[i] * rb[i] / I[i];
  double vn = -G * t_i, P = -(1 + e) * vn / k;
  double st[13];
  nsed_data_body_state(d, 0, st);
  double vz = vn + P / mass - G * (t_end - t_i);
  /* world angular momentum R (I wb) */
  double Lb[3] = {I[0] * st[10], I[1] * st[11], I[2] * st[12]}, L[3], Rt[9];
  double *qq = st + 3;
  Rt[0] = 1 - 2 * (qq[2] * qq[2] + qq[3] * qq[3]), Rt[1] = 2 * (qq[1] * qq[2] - qq[0] * qq[3]);
  Rt[2] = 2 * (qq[1] * qq[3] + qq[0] * qq[2]), Rt[3] = 2 * (qq[1] * qq[2] + qq[0] * qq[3]);
  Rt[4] = 1 - 2 * (qq[1] * qq[1] + qq[3] * qq[3]), Rt[5] = 2 * (qq[2] * qq[3] - qq[0] * qq[1]);
  Rt[6] = 2 * (qq[1] * qq[3] - qq[0] * qq[2]), Rt[7] = 2 * (qq[2] * qq[3] + qq[0] * qq[1]);
  Rt[8] = 1 - 2 * (qq[1] * qq[1] + qq[2] * qq[2]);
  double Lerr = 0;
  for (int i = 0; i < 3; i++) {
    L[i] = Rt[3 * i] * Lb[0] + Rt[3 * i + 1] * Lb[1] + Rt[3 * i + 2] * Lb[2];
    Lerr = fmax(Lerr, fabs(L[i] - rn[i] * P));
  }
  int impacts = 0;
  double t_imp = 0;
  for (int i = 0; i < rec.nev; i++)
    if (rec.ev[i].kind == NSED_EVENT_IMPACT) impacts++, t_imp = rec.ev[i].t;
  const nsed_stats *s = nsed_data_stats(d);
  double de = nsed_data_energy(m, d) - s->energy_initial;
  double loss = -0.5 * (1 - e * e) * vn * vn / k; /* kinetic energy an impact of e takes */
  printf("corner drop e = %.2f: %d events (%d impacts) at %.15f (closed form %.15f), v_z error %.1e "
         "m/s, angular momentum error %.1e, impact work %.12g J (closed form %.12g)\n",
         e, rec.nev, impacts, t_imp, t_i, st[9] - vz, Lerr, s->work_contacts, loss);
  CHECK(impacts == 1);
  CHECK_NEAR(t_imp, t_i, 1e-10, 0);
  CHECK_NEAR(st[9], vz, 1e-9, 0);
  CHECK_NEAR(st[7], 0, 1e-12, 0);
  CHECK_NEAR(st[8], 0, 1e-12, 0);
  CHECK_NEAR(Lerr, 0, 1e-9, 0);
  CHECK_NEAR(s->work_contacts, loss, 1e-9, 1e-9);
  CHECK_NEAR(de, s->work_external + s->work_contacts + s->work_joints, 1e-9, 1e-9);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* A frictionless sphere sliding on the floor into a wall at x = L:
 * impact at (L - r - x0) / v, leaving at -e v. */
static void wall_bounce(void) {
  const double r = 0.1, x0 = 0.0, L = 1.0, v = 2.0, e = 0.6;
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  const double pos[3] = {x0, 0, r}, vel[3] = {v, 0, 0};
  add_ball(m, r, 1.0, pos, vel);
  const double wp[3] = {L, 0, 0}, wn[3] = {-2, 0, 0}; /* any length: normalised */
  add_plane(m, "wall", wp, wn);
  add_ball_contact(m, "c0", "", 0, 0);
  add_ball_contact(m, "c1", "wall", 0, e);
  const double t_hit = (L - r - x0) / v, t_end = t_hit + 0.25;
  finish(m, t_end, NSED_FRICTION_POLYGON_FACE, NULL);
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  double st[13], t_imp = -1;
  for (int i = 0; i < rec.nev; i++)
    if (rec.ev[i].kind == NSED_EVENT_IMPACT) t_imp = rec.ev[i].t;
  nsed_data_body_state(d, 0, st);
  printf("wall bounce: impact at %.15f (closed form %.15f), v after %.15f (closed form %.15f), x "
         "error %.1e m\n",
         t_imp, t_hit, st[7], -e * v, st[0] - (L - r - e * v * (t_end - t_hit)));
  CHECK_NEAR(t_imp, t_hit, 1e-12, 0);
  CHECK_NEAR(st[7], -e * v, 1e-12, 0);
  CHECK_NEAR(st[0], L - r - e * v * (t_end - t_hit), 1e-11, 0);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(void) {
  const nsed_friction_model forms[3] = {NSED_FRICTION_POLYGON_FACE, NSED_FRICTION_POLYGON_VERTEX,
                                        NSED_FRICTION_EXACT_CONE};
  const double th[3] = {10, 20, 30}, mu[3] = {0.3, 0.5, 0.8};
  for (int f = 0; f < 3; f++)
    for (int i = 0; i < 3; i++) slide_and_stop(th[i], mu[i], forms[f]);
  slide_law(NSED_CONTACT_REGULARIZED);
  slide_law(NSED_CONTACT_COMPLIANT);
  for (int f = 0; f < 3; f++) {
    rest(0, forms[f]);
    rest(15, forms[f]);
  }
  corner();
  corner_drop(0.0);
  corner_drop(0.5);
  wall_bounce();
  return TEST_DONE();
}
