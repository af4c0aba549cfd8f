/* Cylinders and capsules on planes, against closed forms:
 *  - a solid cylinder on its side (both rims touching) down an incline:
 *    rolling, the centre accelerates at a = g sin(th) / (1 + I/(m r^2))
 *    = 2/3 g sin(th); with mu < tan(th)/3 it slides, a = g (sin th - mu cos th)
 *    and its spin grows at 2 mu g cos(th) / r; every friction form;
 *  - a capsule rod leaning on one end cap, sliding outwards (Painleve):
 *    the event problem's normal force g / G with G = 1/m + (x^2 - mu x z) / I
 *    (x, z the contact point from the centre of mass, along the slide and
 *    up; I the transverse moment), and no solution at all where G < 0
 *    (mu = 2 at tan(th) = 2, where the free tip falls at g): a clear error,
 *    not a run;
 *  - a capsule lying on its side, both end caps touching, at rest 10 s;
 *  - a frictionless ball sliding along the top of a fixed horizontal capsule
 *    (or box, or cylinder) at v0: it reaches the end of the segment (the
 *    box's edge, the cylinder's rim) at (L/2) / v0, goes on over the end
 *    cap (a sphere of radius R = r_ball + r_capsule about the segment's
 *    end; about the box's edge or the rim, R = r_ball) and leaves it where
 *    cos(phi) = (v0^2 / (g R) + 2) / 3, at the time the energy integral
 *    gives (Simpson's rule on dt = R dphi / sqrt(v0^2 + 2 g R (1 - cos phi)));
 *  - a frictionless ball sliding from the top of a fixed ellipsoid along
 *    the section y = 0: its centre follows the ellipse's offset curve, and
 *    it leaves where g n_z = v^2 kappa_C (the normal force's zero: kappa_C
 *    the offset curve's curvature, v from the energy integral), at the
 *    time of the same quadrature along the curve;
 *  - an ellipsoid rolling without slip for 100 s: its energy stays (a
 *    sticking contact does no work) and its contact stays closed. */
#include <math.h>

#include "engine_util.h"
#include "nsed_test.h"

static const double G = 9.81;
static recorder rec;

/* Options (end time, friction model) and finalize. */
static void finish(nsed_model *m, double t_end, nsed_friction_model form) {
  nsed_error err;
  nsed_options o = *nsed_model_options(m);
  o.t_end = t_end;
  o.friction.model = form;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
}

/* A capsule body (radius r, segment L, mass) at pos, turned by q. */
static void add_capsule(nsed_model *m, const char *name, double r, double L, double mass,
                        const double q[4], const double pos[3], const double vel[3]) {
  nsed_error err;
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "%s", name);
  b.mass = mass;
  b.shape.type = NSED_SHAPE_CAPSULE;
  b.shape.radius = r;
  b.shape.length = L;
  for (int i = 0; i < 4; i++) b.quat[i] = q[i];
  for (int i = 0; i < 3; i++) b.position[i] = pos[i], b.velocity[i] = vel[i];
  must(nsed_model_add_body(m, &b, &err), &err);
}

/* A solid cylinder (radius r, length L, mass m) with its axis along world y,
 * resting on both rims on an incline of angle th, mu = mu0 = mu. */
static nsed_model *cylinder_on_incline(double th, double mu, nsed_friction_model form, double t_end) {
  const double r = 0.1, L = 0.3, mass = 2.0;
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "drum");
  b.mass = mass;
  b.shape.type = NSED_SHAPE_CYLINDER;
  b.shape.radius = r;
  b.shape.length = L;
  /* body z onto world y: -90 degrees about x */
  b.quat[0] = cos(-M_PI / 4);
  b.quat[1] = sin(-M_PI / 4);
  const double n[3] = {-sin(th), 0, cos(th)};
  for (int k = 0; k < 3; k++) b.position[k] = r * n[k];
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_plane_def p;
  nsed_plane_def_default(&p);
  snprintf(p.name, sizeof p.name, "slope");
  for (int k = 0; k < 3; k++) p.normal[k] = n[k];
  must(nsed_model_add_plane(m, &p, &err), &err);
  nsed_contact_def c, f;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "drum_slope");
  snprintf(c.body, sizeof c.body, "drum");
  snprintf(c.other, sizeof c.other, "slope");
  c.mu = c.mu0 = mu;
  for (int i = 0; i < 2; i++) {
    must(nsed_contact_feature(&c, NSED_SHAPE_CYLINDER, i, &f, &err), &err);
    must(nsed_model_add_contact(m, &f, &err), &err);
  }
  finish(m, t_end, form);
  return m;
}

static void cylinder_down_incline(double mu, nsed_friction_model form) {
  const double th = 20 * M_PI / 180, r = 0.1, t_end = 1.0;
  const double s[3] = {-cos(th), 0, -sin(th)}, n[3] = {-sin(th), 0, cos(th)};
  nsed_model *m = cylinder_on_incline(th, mu, form, t_end);
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  int rc = run_model(m, &d, &rec);
  CHECK_MSG(rc == NSED_OK, "cylinder mu %g %s: %s", mu, nsed_friction_model_name(form),
            nsed_status_name(rc));
  int rolls = mu > tan(th) / 3;
  double a = rolls ? 2.0 / 3.0 * G * sin(th) : G * (sin(th) - mu * cos(th));
  double spin_rate = rolls ? a / r : 2 * mu * G * cos(th) / r;
  double st[13], along = 0, w = 0;
  nsed_data_body_state(d, 0, st);
  for (int k = 0; k < 3; k++) along += (st[k] - r * n[k]) * s[k];
  /* the spin about the axis (body z), rolling down the slope: |w| */
  w = fabs(st[12]);
  double dist = 0.5 * a * t_end * t_end, omega = spin_rate * t_end;
  int modes_ok = 1;
  for (int c = 0; c < 2; c++) {
    nsed_contact_info ci;
    nsed_data_contact(d, c, &ci);
    modes_ok &= ci.mode == (rolls ? NSED_MODE_STICK : NSED_MODE_SLIP);
  }
  printf("cylinder %s mu %.2f %-15s: %d events, distance error %.1e m, spin error %.1e rad/s\n",
         rolls ? "rolling" : "sliding", mu, nsed_friction_model_name(form), rec.nev, along - dist,
         w - omega);
  CHECK_MSG(rec.nev == 0, "%d events", rec.nev);
  CHECK(modes_ok);
  CHECK_NEAR(along, dist, 1e-9, 0);
  CHECK_NEAR(w, omega, 1e-8, 0);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* A capsule rod (radius rc, segment length 2l) at angle th to the floor,
 * its lower end cap touching, sliding outwards at v. */
static nsed_model *leaning_rod(double th, double mu, double v, double *x_c, double *z_c,
                               double *I_y, double *mass) {
  const double rc = 0.01, l = 0.5;
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  /* body z along (cos th, 0, sin th): z turned by (pi/2 - th) about y; the
   * lower cap's centre at (-l cos th, 0, -l sin th) from the centre of mass */
  double ang = M_PI / 2 - th;
  const double q[4] = {cos(ang / 2), 0, sin(ang / 2), 0}, pos[3] = {0, 0, l * sin(th) + rc},
               vel[3] = {-v, 0, 0};
  add_capsule(m, "rod", rc, 2 * l, 1.0, q, pos, vel);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "tip");
  snprintf(c.body, sizeof c.body, "rod");
  c.mu = c.mu0 = mu;
  c.feature = 0;
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = 1e-3;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  *x_c = -l * cos(th);
  *z_c = -(l * sin(th) + rc);
  *I_y = nsed_model_body_def(m, 0)->inertia[0]; /* transverse moment (x = y for a capsule) */
  *mass = 1.0;
  return m;
}

typedef struct {
  double ln;
  int got;
} first_force;

static int first_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m, (void)why;
  first_force *f = ctx;
  if (f->got) return 0;
  nsed_contact_info ci;
  nsed_data_contact(d, 0, &ci);
  f->ln = ci.lambda[0];
  f->got = 1;
  return 0;
}

static void painleve(double mu) {
  const double th = atan(2.0);
  double x, z, I, mass;
  nsed_model *m = leaning_rod(th, mu, 1.0, &x, &z, &I, &mass);
  /* tip normal acceleration -g + Geff lambda_n; friction mu lambda_n along +x
   * (the tip slides towards -x) */
  double Geff = 1 / mass + (x * x - mu * x * z) / I;
  nsed_error err;
  nsed_data *d;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  static first_force ff;
  memset(&ff, 0, sizeof ff);
  nsed_observer obs = {.ctx = &ff, .sample = first_sample};
  int rc = nsed_simulate(m, d, &obs, &err);
  if (Geff > 0) {
    double ln = G / Geff;
    printf("Painleve rod mu %.2f: G_eff %.4f 1/kg, lambda_n %.12f N (closed form %.12f)\n", mu, Geff,
           ff.ln, ln);
    CHECK_MSG(rc == NSED_OK, "mu %g: %s", mu, err.message);
    CHECK(ff.got);
    CHECK_NEAR(ff.ln, ln, 1e-10, 1e-10);
  } else {
    printf("Painleve rod mu %.2f: G_eff %.4f 1/kg: %s: %s\n", mu, Geff, nsed_status_name(rc),
           err.message);
    CHECK_MSG(rc == NSED_ERR_LCP, "mu %g: status %s", mu, nsed_status_name(rc));
    CHECK(strstr(err.message, "no solution") != NULL);
    CHECK(strstr(err.message, "tip") != NULL);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* A capsule lying on its side on the floor (both end caps touching): rests. */
static void capsule_at_rest(nsed_friction_model form) {
  const double rc = 0.05, L = 0.4;
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  const double q[4] = {cos(M_PI / 4), 0, sin(M_PI / 4), 0}, pos[3] = {0, 0, rc}, o3[3] = {0, 0, 0};
  add_capsule(m, "pill", rc, L, 0.5, q, pos, o3); /* body z onto world x */
  nsed_contact_def c, f;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "pill_floor");
  snprintf(c.body, sizeof c.body, "pill");
  for (int i = 0; i < 2; i++) {
    must(nsed_contact_feature(&c, NSED_SHAPE_CAPSULE, i, &f, &err), &err);
    must(nsed_model_add_contact(m, &f, &err), &err);
  }
  finish(m, 10, form);
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  double st[13], sum = 0;
  nsed_data_body_state(d, 0, st);
  for (int i = 0; i < 2; i++) {
    nsed_contact_info ci;
    nsed_data_contact(d, i, &ci);
    CHECK(ci.mode == NSED_MODE_STICK);
    sum += ci.lambda[0];
  }
  printf("capsule at rest %-15s: %d events, height error %.1e m, normal forces %.12g N (m g %.12g)\n",
         nsed_friction_model_name(form), rec.nev, st[2] - rc, sum, 0.5 * G);
  CHECK(rec.nev == 0);
  CHECK_NEAR(st[2], rc, 1e-12, 0);
  CHECK_NEAR(sum, 0.5 * G, 0, 1e-12);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* The ball slides along the top of a fixed body along world x at height
 * z0 (a capsule of radius rc and segment L, a box of half height rc and
 * half length L/2, or a cylinder of radius rc and length L), then over its
 * end: a cap of radius R = rb + rc, or the box's edge or the cylinder's
 * rim with R = rb. */
static void ball_over_end(nsed_shape_type bar) {
  const double rb = 0.05, rc = 0.1, L = 1.0, v0 = 0.5, z0 = 0.5;
  const double R = bar == NSED_SHAPE_CAPSULE ? rb + rc : rb;
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "bar");
  b.mass = 5;
  b.shape.type = bar;
  b.shape.radius = rc;
  b.shape.length = L;
  /* the box's body x is the world's -z after the quarter turn below */
  b.shape.half[0] = rc, b.shape.half[1] = 0.2, b.shape.half[2] = 0.5 * L;
  b.quat[0] = cos(M_PI / 4); /* body z onto world x */
  b.quat[2] = sin(M_PI / 4);
  b.position[2] = z0;
  must(nsed_model_add_body(m, &b, &err), &err);
  const double up[3] = {-1, 0, 0}; /* the bar's -x is the world's z */
  int opens;
  double t_open = ball_leaves(&rec, m, "bar", z0, up, rb, z0 + rc + rb, v0, &opens);
  double t_leave = 0.5 * L / v0 + time_over_cap(R, v0, G);
  printf("ball over a %s's end: leaves at %.12f s (closed form %.12f), %d events\n",
         nsed_shape_type_name(bar), t_open, t_leave, rec.nev);
  CHECK(opens == 1);
  CHECK_NEAR(t_open, t_leave, 1e-8, 0);
  nsed_model_free(&m);
}

/* The ball's centre on the ellipse (a sin th, c cos th) of the section
 * y = 0 offset by rb along its normal: height, curvature of the offset
 * curve and its arc length per dth. */
typedef struct {
  double a, c, rb, z0, v0;
} ellipse_path;

static void path_at(const ellipse_path *e, double th, double *z, double *kappa_c, double *nz,
                    double *ds) {
  double N = sqrt(e->c * e->c * sin(th) * sin(th) + e->a * e->a * cos(th) * cos(th));
  double kappa = e->a * e->c / (N * N * N);
  *nz = e->a * cos(th) / N;
  *z = e->z0 + e->c * cos(th) + e->rb * *nz;
  *kappa_c = kappa / (1 + e->rb * kappa);
  *ds = (1 + e->rb * kappa) * N;
}

/* Speed squared from the energy integral, and the normal force per unit
 * mass g n_z - v^2 kappa_C. */
static double normal_force(const ellipse_path *e, double th, double *v2) {
  double z, zt, k, nz, ds;
  path_at(e, 0, &zt, &k, &nz, &ds);
  path_at(e, th, &z, &k, &nz, &ds);
  *v2 = e->v0 * e->v0 + 2 * G * (zt - z);
  return G * nz - *v2 * k;
}

static void ball_off_ellipsoid(void) {
  const ellipse_path e = {.a = 0.4, .c = 0.2, .rb = 0.05, .z0 = 0.5, .v0 = 0.5};
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "egg");
  b.mass = 5;
  b.shape.type = NSED_SHAPE_ELLIPSOID;
  b.shape.half[0] = e.a, b.shape.half[1] = 0.25, b.shape.half[2] = e.c;
  b.position[2] = e.z0;
  must(nsed_model_add_body(m, &b, &err), &err);
  const double up[3] = {0, 0, 1};
  int opens;
  double t_open = ball_leaves(&rec, m, "egg", e.z0, up, e.rb, e.z0 + e.c + e.rb, e.v0, &opens);
  /* the normal force's first zero, bracketed on a scan, then bisected */
  double v2, lo = 0, hi = 0;
  while (normal_force(&e, hi, &v2) > 0) lo = hi, hi += 1e-3;
  for (int it = 0; it < 200; it++) {
    double mid = 0.5 * (lo + hi);
    if (normal_force(&e, mid, &v2) > 0) lo = mid;
    else hi = mid;
  }
  double th_leave = 0.5 * (lo + hi), T = 0;
  int nsimp = 200000;
  double hs = th_leave / nsimp;
  for (int i = 0; i <= nsimp; i++) {
    double z, k, nz, ds;
    path_at(&e, i * hs, &z, &k, &nz, &ds);
    normal_force(&e, i * hs, &v2);
    T += ds / sqrt(v2) * (i == 0 || i == nsimp ? 1 : i % 2 ? 4 : 2);
  }
  T *= hs / 3;
  printf("ball off an ellipsoid: leaves at %.12f s (quadrature %.12f, at %.6f rad), %d events\n",
         t_open, T, th_leave, rec.nev);
  CHECK(opens == 1);
  CHECK_NEAR(t_open, T, 1e-8, 0);
  nsed_model_free(&m);
}

/* An ellipsoid on its shortest axis set rolling (and turning) without
 * slip: no work is done at a sticking contact, so its energy stays; its
 * contact stays closed; over 100 s. */
static void ellipsoid_rolling(nsed_friction_model form) {
  const double ax[3] = {0.3, 0.2, 0.1}, w[3] = {0.3, 1.5, 0.5}, mass = 1.0;
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "egg");
  b.mass = mass;
  b.shape.type = NSED_SHAPE_ELLIPSOID;
  for (int i = 0; i < 3; i++) b.shape.half[i] = ax[i];
  b.position[2] = ax[2];
  /* rolling at the contact point rho = (0, 0, -c): v = -w x rho */
  b.velocity[0] = ax[2] * w[1];
  b.velocity[1] = -ax[2] * w[0];
  for (int i = 0; i < 3; i++) b.angular_velocity[i] = w[i];
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "egg_floor");
  snprintf(c.body, sizeof c.body, "egg");
  c.mu = c.mu0 = 1.0;
  must(nsed_model_add_contact(m, &c, &err), &err);
  finish(m, 100, form);
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  const nsed_stats *st = nsed_data_stats(d);
  double e = nsed_data_energy(m, d), gap = st->law[NSED_LAW_CLOSED_GAP].worst;
  nsed_contact_info ci;
  nsed_data_contact(d, 0, &ci);
  printf("ellipsoid rolling %-15s: %d events, energy change %.1e J of %.4f, contact work %.1e J, "
         "worst closed gap %.1e m, mode %s\n",
         nsed_friction_model_name(form), rec.nev, e - st->energy_initial, st->energy_initial,
         st->work_contacts, -gap, nsed_mode_name(ci.mode));
  CHECK(rec.nev == 0 && ci.mode == NSED_MODE_STICK);
  CHECK_NEAR(e, st->energy_initial, 1e-8, 0);
  CHECK_NEAR(gap, 0, 1e-8, 0);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(void) {
  const nsed_friction_model forms[3] = {NSED_FRICTION_POLYGON_FACE, NSED_FRICTION_POLYGON_VERTEX,
                                        NSED_FRICTION_EXACT_CONE};
  for (int f = 0; f < 3; f++) {
    cylinder_down_incline(0.5, forms[f]);
    cylinder_down_incline(0.05, forms[f]);
    capsule_at_rest(forms[f]);
  }
  painleve(0.3);
  painleve(1.0);
  painleve(2.0);
  ball_over_end(NSED_SHAPE_CAPSULE);
  ball_over_end(NSED_SHAPE_BOX);
  ball_over_end(NSED_SHAPE_CYLINDER);
  ball_off_ellipsoid();
  ellipsoid_rolling(NSED_FRICTION_POLYGON_FACE);
  ellipsoid_rolling(NSED_FRICTION_EXACT_CONE);
  return TEST_DONE();
}
