/* Rotors (nsed_rotor; docs/engine.md, "Rotors"): a body symmetric about an
 * axis, carried in a frame that does not spin with it, its turn about the
 * axis one more state. Against what does not depend on nsed:
 *
 *  1. the torque-free symmetric top, fast spin: the closed form
 *     R(t) = Rot(L, |L| t / A) R0 Rot(e3, w3 (A - C) t / A), in the
 *     material orientation and angular velocity the outputs report, for
 *     the rotor and for the same body carried in its body frame;
 *  2. the heavy symmetric top (Lagrange) on a spherical joint at a point of
 *     its axis, in steady precession: the tilt stays and the axis turns at
 *     the slow root Omega of A Omega^2 cos(th) - C w3 Omega + m g l = 0;
 *     energy, the vertical angular momentum and C w3 conserved;
 *  3. the same top hung from a point off its axis (the material point
 *     carried by the rotor's turn): energy and vertical angular momentum
 *     about the pivot conserved, and the motion the body frame's;
 *  4. the omni-wheel testbench with rotor rollers and with body-frame
 *     rollers (roller_frame: spinning): the same events at the same times,
 *     the same material orientations;
 *  5. a rotor whose moments across its axis differ is refused, naming it. */
#include "engine_util.h"
#include "math3.h"
#include "nsed/io.h"
#include "nsed_test.h"

/* Finalize m with gravity g (down z) to t_end at tolerances 1e-12 / 1e-14,
 * run it with the sample callback, free it; returns the steps taken. */
static long run_tight(nsed_model *m, double g, double t_end, void *ctx,
                      int (*sample)(void *, const nsed_model *, const nsed_data *,
                                    nsed_sample_reason)) {
  nsed_error err;
  nsed_options o = *nsed_model_options(m);
  nsedi_v3_set(o.gravity, 0, 0, -g);
  o.t_end = t_end;
  o.output_dt = 0.01;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  nsed_observer obs = {.ctx = ctx, .sample = sample};
  CHECK_MSG(nsed_simulate(m, d, &obs, &err) == NSED_OK, "%s", err.message);
  long steps = nsed_data_stats(d)->steps;
  nsed_data_free(&d);
  nsed_model_free(&m);
  return steps;
}

/* ---- 1. the torque-free symmetric top ---- */

typedef struct {
  double A, C;           /* moments across and about the axis */
  double R0[9], L[3];    /* initial orientation; angular momentum (world) */
  double Lhat[3], rate_L, rate_3; /* precession about L and the body's turn about e3 */
  double worst_R, worst_w;
} free_top;

static void rot_axis(const double u[3], double ang, double M[9]) {
  double q[4];
  nsedi_quat_axis_angle(q, u, ang);
  nsedi_quat_to_mat(M, q);
}

static void mat_mul(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      C[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) C[3 * i + j] += A[3 * i + k] * B[3 * k + j];
    }
}

static int free_top_sample(void *ctx, const nsed_model *m, const nsed_data *d,
                           nsed_sample_reason why) {
  (void)m, (void)why;
  free_top *f = ctx;
  double t = nsed_data_time(d), s[13], R[9], P[9], S[9], T[9], Rc[9];
  const double e3[3] = {0, 0, 1};
  nsed_data_body_state(d, 0, s);
  nsedi_quat_to_mat(R, s + 3);
  rot_axis(f->Lhat, f->rate_L * t, P);
  rot_axis(e3, f->rate_3 * t, S);
  mat_mul(P, f->R0, T);
  mat_mul(T, S, Rc);
  /* Closed-form angular velocity: rate_L Lhat + rate_3 Rc e3, in body axes. */
  double ww[3], wb[3];
  for (int i = 0; i < 3; i++) ww[i] = f->rate_L * f->Lhat[i] + f->rate_3 * Rc[3 * i + 2];
  nsedi_m3_mulTv(wb, Rc, ww);
  for (int k = 0; k < 9; k++) f->worst_R = fmax(f->worst_R, fabs(R[k] - Rc[k]));
  for (int k = 0; k < 3; k++) f->worst_w = fmax(f->worst_w, fabs(s[10 + k] - wb[k]));
  return 0;
}

/* The top spinning at w0 (body axes) from orientation q0, carried as a
 * rotor about z or in its body frame; its errors against the closed form
 * over t_end, and the steps taken. */
static void run_free_top(nsed_rotor rotor, const double w0[3], const double q0[4], double t_end,
                         free_top *f, long *steps) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "top");
  f->A = 0.5;
  f->C = 0.8;
  nsedi_v3_set(b.inertia, f->A, f->A, f->C);
  memcpy(b.angular_velocity, w0, sizeof b.angular_velocity);
  memcpy(b.quat, q0, sizeof b.quat);
  b.rotor = rotor;
  must(nsed_model_add_body(m, &b, &err), &err);
  double Lb[3] = {f->A * w0[0], f->A * w0[1], f->C * w0[2]};
  nsedi_quat_to_mat(f->R0, q0);
  nsedi_m3_mulv(f->L, f->R0, Lb);
  double Ln = nsedi_v3_norm(f->L);
  nsedi_v3_scale(f->Lhat, f->L, 1 / Ln);
  f->rate_L = Ln / f->A;
  f->rate_3 = w0[2] * (f->A - f->C) / f->A;
  f->worst_R = f->worst_w = 0;
  *steps = run_tight(m, 0.0, t_end, f, free_top_sample);
}

static void test_free_top(void) {
  const double w0[3] = {0.3, -0.2, 150.0}, ax[3] = {0.6, 0.3, -0.2};
  double q0[4], n = nsedi_v3_norm(ax), u[3];
  nsedi_v3_scale(u, ax, 1 / n);
  nsedi_quat_axis_angle(q0, u, 0.9);
  free_top fr, fb;
  long sr, sb;
  run_free_top(NSED_ROTOR_Z, w0, q0, 4.0, &fr, &sr);
  run_free_top(NSED_ROTOR_NONE, w0, q0, 4.0, &fb, &sb);
  printf("1 free symmetric top, spin 150 rad/s, t = 0..4 against the closed form:\n"
         "  rotor: orientation %.2e, angular velocity %.2e rad/s, %ld steps;\n"
         "  body frame: orientation %.2e, angular velocity %.2e rad/s, %ld steps\n",
         fr.worst_R, fr.worst_w, sr, fb.worst_R, fb.worst_w, sb);
  /* A free top nutates at |L| / A: its axis is not guided, so the rotor's
   * frame turns that fast too, and the rotor takes more steps than the
   * body frame (whose components turn at (C - A) w3 / A): rotors pay where
   * something else holds the axis (docs/engine.md, "Rotors"). */
  CHECK_MSG(fr.worst_R < 2e-9 && fr.worst_w < 1e-9, "rotor %.3g %.3g", fr.worst_R, fr.worst_w);
  CHECK_MSG(fb.worst_R < 2e-9 && fb.worst_w < 1e-9, "body frame %.3g %.3g", fb.worst_R,
            fb.worst_w);
}

/* ---- 2, 3. the heavy symmetric top on a spherical joint ---- */

enum { NTOP = 2048 };
typedef struct {
  double m, A, C, l, g;  /* mass, central moments, pivot offset along the axis, gravity */
  double pivot_b[3];     /* the pivot in body coordinates (from the centre) */
  double E0, Lz0, L30;
  double worst_E, worst_Lz, worst_L3, worst_tilt, worst_azimuth;
  double th, Omega, az0;
  int n;
  double t[NTOP], qm[NTOP][4], r[NTOP][3];
} heavy_top;

/* Energy, the vertical angular momentum about the pivot (the world origin)
 * and the body's angular momentum about its axis, from the outputs. */
static void top_integrals(const heavy_top *h, const double s[13], double *E, double *Lz,
                          double *L3) {
  double R[9], Lb[3] = {h->A * s[10], h->A * s[11], h->C * s[12]}, Lw[3], rv[3];
  nsedi_quat_to_mat(R, s + 3);
  nsedi_m3_mulv(Lw, R, Lb);
  nsedi_v3_cross(rv, s, s + 7);
  *E = 0.5 * h->m * nsedi_v3_dot(s + 7, s + 7) +
       0.5 * (h->A * (s[10] * s[10] + s[11] * s[11]) + h->C * s[12] * s[12]) + h->m * h->g * s[2];
  *Lz = Lw[2] + h->m * rv[2];
  *L3 = Lb[2];
}

static int heavy_sample(void *ctx, const nsed_model *m, const nsed_data *d,
                        nsed_sample_reason why) {
  (void)m;
  heavy_top *h = ctx;
  double s[13], E, Lz, L3, R[9];
  nsed_data_body_state(d, 0, s);
  top_integrals(h, s, &E, &Lz, &L3);
  if (why == NSED_SAMPLE_INITIAL) {
    h->E0 = E;
    h->Lz0 = Lz;
    h->L30 = L3;
  }
  h->worst_E = fmax(h->worst_E, fabs(E - h->E0));
  h->worst_Lz = fmax(h->worst_Lz, fabs(Lz - h->Lz0));
  h->worst_L3 = fmax(h->worst_L3, fabs(L3 - h->L30));
  /* The axis: its tilt from the vertical and its azimuth. */
  nsedi_quat_to_mat(R, s + 3);
  double a[3] = {R[2], R[5], R[8]}, t = nsed_data_time(d);
  h->worst_tilt = fmax(h->worst_tilt, fabs(acos(a[2]) - h->th));
  double az = remainder(atan2(a[1], a[0]) - h->az0 - h->Omega * t, 2 * M_PI);
  h->worst_azimuth = fmax(h->worst_azimuth, fabs(az));
  if (h->n < NTOP && why != NSED_SAMPLE_EVENT && why != NSED_SAMPLE_PRE_EVENT) {
    h->t[h->n] = t;
    memcpy(h->qm[h->n], s + 3, sizeof h->qm[0]);
    memcpy(h->r[h->n], s, sizeof h->r[0]);
    h->n++;
  }
  return 0;
}

/* The top with its axis tilted by th about world y, spinning at w3 about
 * its axis and precessing at Omega about the vertical; pivot_b its pivot
 * (body coordinates), held by a spherical joint at the world origin. */
static void run_heavy_top(heavy_top *h, nsed_rotor rotor, double w3, double t_end) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "top");
  b.mass = h->m;
  nsedi_v3_set(b.inertia, h->A, h->A, h->C);
  b.rotor = rotor;
  const double ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1};
  nsedi_quat_axis_angle(b.quat, ey, h->th);
  double R0[9], a[3], piv_w[3], ww[3], wb[3];
  nsedi_quat_to_mat(R0, b.quat);
  nsedi_m3_mulv(a, R0, ez);
  nsedi_m3_mulv(piv_w, R0, h->pivot_b);
  nsedi_v3_scale(b.position, piv_w, -1.0); /* the pivot at the origin */
  double psid = w3 - h->Omega * a[2];
  for (int i = 0; i < 3; i++) ww[i] = h->Omega * ez[i] + psid * a[i];
  nsedi_m3_mulTv(wb, R0, ww);
  memcpy(b.angular_velocity, wb, sizeof wb);
  nsedi_v3_cross(b.velocity, ww, b.position);
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_joint_def j;
  nsed_joint_def_default(&j);
  snprintf(j.name, sizeof j.name, "pivot");
  j.type = NSED_JOINT_SPHERICAL;
  snprintf(j.body_b, sizeof j.body_b, "top");
  memcpy(j.anchor_b, h->pivot_b, sizeof j.anchor_b);
  must(nsed_model_add_joint(m, &j, &err), &err);
  h->az0 = atan2(a[1], a[0]);
  h->n = 0;
  h->worst_E = h->worst_Lz = h->worst_L3 = h->worst_tilt = h->worst_azimuth = 0;
  run_tight(m, h->g, t_end, h, heavy_sample);
}

/* The largest difference of the two runs' material orientations (as
 * rotations) and centres at their common output instants. */
static void compare_tops(const heavy_top *a, const heavy_top *b, double *dq, double *dr) {
  *dq = *dr = 0;
  for (int i = 0, k = 0; i < a->n; i++) {
    while (k < b->n && b->t[k] < a->t[i] - 1e-12) k++;
    if (k >= b->n || fabs(b->t[k] - a->t[i]) > 1e-12) continue;
    *dq = fmax(*dq, rotation_between(a->qm[i], b->qm[k]));
    for (int j = 0; j < 3; j++) *dr = fmax(*dr, fabs(a->r[i][j] - b->r[k][j]));
  }
}

static void test_heavy_top(void) {
  static heavy_top rot, body;
  heavy_top *h[2] = {&rot, &body};
  for (int k = 0; k < 2; k++) {
    heavy_top *t = h[k];
    t->m = 2.0;
    t->A = 0.03;
    t->C = 0.05;
    t->l = 0.1;
    t->g = 9.81;
    nsedi_v3_set(t->pivot_b, 0, 0, -t->l);
    t->th = 0.5;
  }
  /* The slow root of A* Omega^2 cos(th) - C w3 Omega + m g l = 0, A* the
   * moment across the axis about the pivot. */
  double w3 = 120.0, As = rot.A + rot.m * rot.l * rot.l, c = cos(rot.th);
  double disc = rot.C * rot.C * w3 * w3 - 4 * As * c * rot.m * rot.g * rot.l;
  double Omega = (rot.C * w3 - sqrt(disc)) / (2 * As * c);
  rot.Omega = body.Omega = Omega;
  run_heavy_top(&rot, NSED_ROTOR_Z, w3, 5.0);
  run_heavy_top(&body, NSED_ROTOR_NONE, w3, 5.0);
  double dq, dr;
  compare_tops(&rot, &body, &dq, &dr);
  printf("2 heavy top, steady precession (tilt 0.5, spin 120, Omega %.6f): rotor: tilt %.2e, "
         "azimuth %.2e rad; energy %.2e J, Lz %.2e, C w3 %.2e; body frame: tilt %.2e, azimuth "
         "%.2e; rotor vs body frame: rotation %.2e rad, centre %.2e m\n",
         Omega, rot.worst_tilt, rot.worst_azimuth, rot.worst_E, rot.worst_Lz, rot.worst_L3,
         body.worst_tilt, body.worst_azimuth, dq, dr);
  CHECK(rot.worst_tilt < 1e-11 && rot.worst_azimuth < 1e-11);
  CHECK(body.worst_tilt < 1e-11 && body.worst_azimuth < 1e-11);
  CHECK(rot.worst_E < 1e-10 && rot.worst_Lz < 1e-12 && rot.worst_L3 < 1e-12);
  CHECK(dq < 2e-9 && dr < 1e-11);

  /* Hung from a point off its axis: no steady precession to compare with,
   * but energy and the vertical angular momentum about the pivot hold, and
   * the rotor's material point is the body frame's. */
  for (int k = 0; k < 2; k++) {
    nsedi_v3_set(h[k]->pivot_b, 0.03, -0.02, -h[k]->l);
    h[k]->Omega = 0;
  }
  run_heavy_top(&rot, NSED_ROTOR_Z, w3, 3.0);
  run_heavy_top(&body, NSED_ROTOR_NONE, w3, 3.0);
  compare_tops(&rot, &body, &dq, &dr);
  printf("3 heavy top hung off its axis: rotor: energy %.2e J, Lz %.2e; body frame: energy %.2e, "
         "Lz %.2e; rotor vs body frame: rotation %.2e rad, centre %.2e m (%d samples)\n",
         rot.worst_E, rot.worst_Lz, body.worst_E, body.worst_Lz, dq, dr, rot.n);
  CHECK(rot.worst_E < 4e-9 && rot.worst_Lz < 1e-9);
  CHECK(rot.n > 250 && dq < 1e-9 && dr < 2e-10);
}

/* ---- 4. the omni-wheel testbench ---- */

static nsed_model *load_text(const char *text) {
  char path[] = "/tmp/nsed_rotorsXXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load(path, NULL, 0, &m, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  remove(path);
  return m;
}

static void test_testbench(void) {
  static const char fmt[] =
      "gravity: [0, 0, -1]\n"
      "omni_wheel_testbench: {rollers: 5, psi: 0.4, roller_frame: %s, contact: {mu: 0.5}}\n"
      "friction: {model: polygon, form: face, sides: 8}\n"
      "solver: {t_end: 4, baumgarte: {eta: 25, xi: 50, gamma: 25}}\n"
      "output: {dt: 0.01}\n";
  char text[512];
  static recorder r[2];
  double s[2][5][13];
  int nrotor[2];
  for (int k = 0; k < 2; k++) {
    snprintf(text, sizeof text, fmt, k ? "spinning" : "rotor");
    nsed_model *m = load_text(text);
    if (!m) return;
    int rollers = 0;
    for (int i = 0; i < nsed_model_nbody(m); i++)
      rollers += nsed_model_body_def(m, i)->rotor == NSED_ROTOR_X;
    nrotor[k] = rollers;
    nsed_data *d = NULL;
    CHECK(run_model(m, &d, &r[k]) == NSED_OK);
    for (int i = 0; i < 5; i++) nsed_data_body_state(d, 1 + i, s[k][i]);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  CHECK(nrotor[0] == 5 && nrotor[1] == 0);
  CHECK_MSG(r[0].nev == r[1].nev && r[0].nev >= 6, "%d vs %d events", r[0].nev, r[1].nev);
  double dt = 0, dq = 0;
  for (int e = 0; e < r[0].nev && e < r[1].nev; e++) {
    CHECK(r[0].ev[e].kind == r[1].ev[e].kind && r[0].ev[e].contact == r[1].ev[e].contact);
    dt = fmax(dt, fabs(r[0].ev[e].t - r[1].ev[e].t));
  }
  for (int i = 0; i < 5; i++) dq = fmax(dq, rotation_between(s[0][i] + 3, s[1][i] + 3));
  printf("4 testbench n = 5, psi = 0.4, t = 0..4: %d events in both, event times within %.2e s, "
         "rollers' material orientations within %.2e rad at the end\n",
         r[0].nev, dt, dq);
  CHECK(dt < 1e-11);
  CHECK(dq < 1e-9);
}

/* ---- 5. a rotor the inertia does not allow ---- */

static void test_refused(void) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "lopsided");
  nsedi_v3_set(b.inertia, 0.2, 0.3, 0.4);
  b.rotor = NSED_ROTOR_Y;
  CHECK(nsed_model_add_body(m, &b, &err) == NSED_ERR_INPUT);
  CHECK_MSG(strstr(err.message, "'lopsided'") && strstr(err.message, "about body y") &&
                strstr(err.message, "0.4") && strstr(err.message, "0.2"),
            "%s", err.message);
  b.rotor = (nsed_rotor)7;
  CHECK(nsed_model_add_body(m, &b, &err) == NSED_ERR_INPUT);
  b.rotor = NSED_ROTOR_X; /* J2 = 0.3, J3 = 0.4: refused too; equal ones pass */
  CHECK(nsed_model_add_body(m, &b, &err) == NSED_ERR_INPUT);
  nsedi_v3_set(b.inertia, 0.2, 0.3, 0.3);
  CHECK(nsed_model_add_body(m, &b, &err) == 0);
  nsed_model_free(&m);
}

int main(void) {
  test_free_top();
  test_heavy_top();
  test_testbench();
  test_refused();
  return TEST_DONE();
}
