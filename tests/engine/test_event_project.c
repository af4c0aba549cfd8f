/* Projection at events (event_project.c; docs/engine.md, "Projection at
 * events"), below whole simulations, against answers known by
 * construction:
 *
 *  1. a displacement of the bodies (nsedi_add_displacement) equals the
 *     motion under that constant velocity for unit time, integrated here by
 *     RK4 in small steps, for a body in its principal axes and for a rotor
 *     (whose turn about its axis is a state of its own);
 *  2. a table on four welded feet (tests/reliability/problems/table.yaml)
 *     moved off its pose by a rigid motion (sunk and tilted about its mass
 *     centre, which the kinetic metric makes orthogonal to the motions the
 *     floor allows) is moved back onto that pose, the welds untouched, and
 *     the potential energy it gives back booked as contact work, exactly
 *     the weight times the height restored;
 *  3. the same table sunk by less than contact_tol is left as it is, to the
 *     bit;
 *  4. a resting ball sunk beyond contact_tol, through a whole event
 *     (nsedi_resolve at the start): on the floor afterwards, at rest, its
 *     normal force its weight;
 *  4b. a ball welded to the world where it is sunk: no displacement can
 *     close its gap, so nothing moves, and the evaluation the later stages
 *     read (forces, accelerations) is the state's own again;
 *  4c. a coin rolling on a circle (problems/rolling_coin.yaml, its steady
 *     motion, then spun otherwise) sunk beyond contact_tol while it
 *     sticks: the displacement
 *     turns the coin, so its contact is another rim point, which the spin
 *     moves; the velocities are changed so that the stick's rows keep the
 *     velocities they had (without that, tens of nm/s: beyond slip_tol),
 *     by a change M du in the span of the rows (the smallest in the kinetic
 *     metric), and the energy both steps change is the work booked;
 *  5. the event problem holds a closed contact as the smooth phase does
 *     (event_modes.c): with Baumgarte's stabilisation on, a ball sunk by
 *     less than contact_tol and sinking gets from the event problem the
 *     force the phase applies, m (g - xi^2 gap - 2 eta v_n). */
#include "engine_util.h"
#include "math3.h"
#include "nsed/io.h"
#include "nsed_test.h"
#include "sim_impl.h"
#include "tolerances.h"

/* q' = q (0, w) / 2 with w constant, over [0, 1] by RK4 in n steps. */
static void rk4_turn(double q[4], const double w[3], int n) {
  double h = 1.0 / n;
  for (int s = 0; s < n; s++) {
    double k[4][4], y[4];
    nsedi_quat_deriv(k[0], q, w);
    for (int i = 0; i < 4; i++) y[i] = q[i] + 0.5 * h * k[0][i];
    nsedi_quat_deriv(k[1], y, w);
    for (int i = 0; i < 4; i++) y[i] = q[i] + 0.5 * h * k[1][i];
    nsedi_quat_deriv(k[2], y, w);
    for (int i = 0; i < 4; i++) y[i] = q[i] + h * k[2][i];
    nsedi_quat_deriv(k[3], y, w);
    for (int i = 0; i < 4; i++) q[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
  }
}

static void displacement(void) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  for (int r = 0; r < 2; r++) {
    nsed_body_def b;
    nsed_body_def_default(&b);
    snprintf(b.name, sizeof b.name, r ? "rotor" : "body");
    b.mass = 1.0;
    b.inertia[0] = b.inertia[1] = 0.2;
    b.inertia[2] = 0.3;
    b.rotor = r ? NSED_ROTOR_Z : NSED_ROTOR_NONE;
    must(nsed_model_add_body(m, &b, &err), &err);
  }
  must(nsed_model_finalize(m, &err), &err);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  double q0[4] = {0.9, 0.2, -0.3, 0.25}, dq[12], worst_q = 0, worst_r = 0;
  nsedi_quat_normalize(q0);
  const double w[3] = {0.7, -0.4, 1.3}, v[3] = {0.1, -0.2, 0.05};
  for (int b = 0; b < 2; b++) {
    memcpy(d->x + 13 * b + 3, q0, sizeof q0);
    for (int k = 0; k < 3; k++) dq[6 * b + k] = v[k], dq[6 * b + 3 + k] = w[k];
  }
  int xs = m->body[1].xspin;
  CHECK(xs >= 0);
  d->x[xs] = 0.4;
  double r0[6], q_ref[2][4];
  memcpy(r0, d->x, 3 * sizeof(double));
  memcpy(r0 + 3, d->x + 13, 3 * sizeof(double));
  /* The references: the body turns at w; the rotor's frame at w less its
   * axial component, its turn at that component. */
  memcpy(q_ref[0], q0, sizeof q0);
  rk4_turn(q_ref[0], w, 2000);
  double wv[3] = {w[0], w[1], 0.0};
  memcpy(q_ref[1], q0, sizeof q0);
  rk4_turn(q_ref[1], wv, 2000);
  nsedi_add_displacement(m, d->x, dq);
  for (int b = 0; b < 2; b++) {
    for (int k = 0; k < 4; k++) worst_q = fmax(worst_q, fabs(d->x[13 * b + 3 + k] - q_ref[b][k]));
    for (int k = 0; k < 3; k++) worst_r = fmax(worst_r, fabs(d->x[13 * b + k] - (r0[3 * b + k] + v[k])));
  }
  CHECK_NEAR(d->x[xs], 0.4 + w[2], 1e-15, 0);
  /* RK4's error at h = 5e-4 with |w| ~ 1.5 is ~1e-15. */
  CHECK_MSG(worst_q < 1e-13, "displacement: quaternion %.3g from the integrated turn", worst_q);
  CHECK(worst_r < 1e-15);
  printf("displacement: quaternions within %.1e of RK4 (body and rotor), translation %.1e, rotor turn %.1e\n",
         worst_q, worst_r, fabs(d->x[xs] - 0.4 - w[2]));
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void load_table(const char *root, nsed_model **m, nsed_data **d) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/reliability/problems/table.yaml", root);
  nsed_error err;
  must(nsed_problem_load(path, NULL, 0, m, &err), &err);
  must(nsed_data_create(*m, d, &err), &err);
  for (int b = 0; b < (*m)->nbody; b++)
    for (int k = 7; k < 13; k++) (*d)->x[13 * b + k] = 0.0; /* at rest */
  for (int c = 0; c < (*m)->ncontact; c++) (*d)->ph.mode[c] = NSED_MODE_STICK;
}

/* Every body of the table turned by alpha about x through the mass centre
 * and lowered by sink. */
static void move_rigidly(const nsed_model *m, double *x, double alpha, double sink) {
  double mass = 0, c[3] = {0, 0, 0};
  for (int b = 0; b < m->nbody; b++) {
    mass += m->body[b].def.mass;
    for (int k = 0; k < 3; k++) c[k] += m->body[b].def.mass * x[13 * b + k];
  }
  for (int k = 0; k < 3; k++) c[k] /= mass;
  double turn[4] = {cos(0.5 * alpha), sin(0.5 * alpha), 0, 0}, R[9];
  nsedi_quat_to_mat(R, turn);
  for (int b = 0; b < m->nbody; b++) {
    double *s = x + 13 * b, p[3], rp[3];
    nsedi_v3_sub(p, s, c);
    nsedi_m3_mulv(rp, R, p);
    for (int k = 0; k < 3; k++) s[k] = c[k] + rp[k];
    s[2] -= sink;
    nsedi_quat_mul(s + 3, turn, s + 3);
  }
}

static double table_mass(const nsed_model *m) {
  double mass = 0;
  for (int b = 0; b < m->nbody; b++) mass += m->body[b].def.mass;
  return mass;
}

static void table_projected(const char *root, double alpha, double sink) {
  nsed_model *m;
  nsed_data *d;
  nsed_error err;
  load_table(root, &m, &d);
  size_t n = (size_t)(m->nstate + NSEDI_NWORK);
  double *x0 = malloc(sizeof(double) * n);
  memcpy(x0, d->x, sizeof(double) * n);
  move_rigidly(m, d->x, alpha, sink);
  must(nsedi_eval(m, d, 0.0, d->x, NULL, &err), &err);
  double deepest = 0;
  for (int c = 0; c < m->ncontact; c++) deepest = fmax(deepest, fabs(d->cache.geom[c].gap));
  double work0 = d->x[m->nstate + 1];
  must(nsedi_event_project(m, d, &err), &err);
  double worst_r = 0, worst_q = 0, worst_gap = 0, worst_phi = 0;
  for (int b = 0; b < m->nbody; b++)
    for (int k = 0; k < 4; k++) {
      if (k < 3) worst_r = fmax(worst_r, fabs(d->x[13 * b + k] - x0[13 * b + k]));
      worst_q = fmax(worst_q, fabs(d->x[13 * b + 3 + k] - x0[13 * b + 3 + k]));
    }
  for (int c = 0; c < m->ncontact; c++) worst_gap = fmax(worst_gap, fabs(d->cache.geom[c].gap));
  nsedi_row rows[64];
  for (int j = 0, r = 0; j < m->njoint; j++) {
    int k = nsedi_joint_rows(m, j, d->cache.kin, d->t, rows + r);
    for (int i = 0; i < k; i++) worst_phi = fmax(worst_phi, fabs(rows[r + i].pos));
    r += k;
  }
  double booked = d->x[m->nstate + 1] - work0, weight_height = table_mass(m) * 9.81 * sink;
  printf("table sunk %.1e and tilted %.1e (deepest foot %.2e m): %ld projection, pose %.1e (position) "
         "%.1e (quaternion) from the original, feet %.1e m off the floor, welds %.1e, "
         "work booked %.10g J against m g h %.10g J\n",
         sink, alpha, deepest, d->stats.projections, worst_r, worst_q, worst_gap, worst_phi, booked,
         weight_height);
  CHECK(deepest > m->opt.contact_tol);
  CHECK(d->stats.projections == 1);
  CHECK_NEAR(d->stats.max_projected_gap, deepest, 1e-20, 0);
  /* Second order in the motion (~1e-9): 1e-17 and below. */
  CHECK(worst_r < 1e-15 && worst_q < 1e-15);
  CHECK(worst_gap < 1e-15);
  CHECK(worst_phi < 1e-15);
  /* The potential energy at 0.2 m and 4.4 kg is ~8.6 J: its round-off
   * (1e-15 J) is 1e-8 of what is booked. */
  CHECK_NEAR(booked, weight_height, 0, 1e-6);
  CHECK_MSG(booked > 0, "the projection raised the table: its work must be positive");
  free(x0);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void table_within_tol(const char *root) {
  nsed_model *m;
  nsed_data *d;
  nsed_error err;
  load_table(root, &m, &d);
  move_rigidly(m, d->x, 1e-10, 5e-10);
  size_t n = sizeof(double) * (size_t)(m->nstate + NSEDI_NWORK);
  double *x1 = malloc(n);
  memcpy(x1, d->x, n);
  must(nsedi_eval(m, d, 0.0, d->x, NULL, &err), &err);
  must(nsedi_event_project(m, d, &err), &err);
  CHECK(memcmp(x1, d->x, n) == 0);
  CHECK(d->stats.projections == 0);
  printf("table sunk 5e-10 (< contact_tol %g): left to the bit, %ld projections\n", m->opt.contact_tol,
         d->stats.projections);
  free(x1);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* A ball (mass 2, radius 0.1) on the floor, mu 0.3, with Baumgarte's
 * stabilisation eta, xi (0: off); weld_z > 0: welded to the world with its
 * centre at that height (where it starts). */
static nsed_model *floor_ball(double eta, double xi, double weld_z) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.mass = 2.0;
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = 0.1;
  if (weld_z > 0) b.position[2] = weld_z;
  must(nsed_model_add_body(m, &b, &err), &err);
  if (weld_z > 0) {
    nsed_joint_def j;
    nsed_joint_def_default(&j);
    snprintf(j.name, sizeof j.name, "weld");
    j.type = NSED_JOINT_WELD;
    snprintf(j.body_b, sizeof j.body_b, "ball");
    j.anchor_a[2] = weld_z;
    must(nsed_model_add_joint(m, &j, &err), &err);
  }
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "floor");
  snprintf(c.body, sizeof c.body, "ball");
  c.mu = 0.3;
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.baumgarte_eta = eta, o.baumgarte_xi = xi;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

static void ball_event(void) {
  nsed_error err;
  nsed_model *m = floor_ball(0.0, 0.0, 0.0);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  d->x[2] = 0.1 - 4e-8;
  d->ph.mode[0] = NSED_MODE_STICK;
  d->t = 1.0;
  int rc = nsedi_resolve(m, d, NULL, NULL, &err);
  CHECK_MSG(rc == NSED_OK, "ball: %s", err.message);
  double booked = d->x[m->nstate + 1];
  printf("ball sunk 4e-8 m, one event: z - r = %.2e m, v = (%g, %g, %g), mode %s, lambda_n %.15g N, "
         "work booked %.6e J (m g h %.6e)\n",
         d->x[2] - 0.1, d->x[7], d->x[8], d->x[9], nsed_mode_name(d->ph.mode[0]), d->cache.lambda_c[0],
         booked, 2.0 * 9.81 * 4e-8);
  CHECK(fabs(d->x[2] - 0.1) < 1e-16);
  CHECK(d->x[7] == 0 && d->x[8] == 0 && d->x[9] == 0);
  CHECK(d->ph.mode[0] == NSED_MODE_STICK);
  CHECK_NEAR(d->cache.lambda_c[0], 2.0 * 9.81, 1e-12, 0);
  CHECK_NEAR(booked, 2.0 * 9.81 * 4e-8, 0, 1e-6);
  CHECK(d->stats.projections == 1);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void welded_sunk(void) {
  nsed_error err;
  nsed_model *m = floor_ball(0.0, 0.0, 0.1 - 4e-8);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  d->ph.mode[0] = NSED_MODE_STICK;
  size_t n = sizeof(double) * (size_t)(m->nstate + NSEDI_NWORK);
  double *x1 = malloc(n);
  memcpy(x1, d->x, n);
  must(nsedi_eval(m, d, 0.0, d->x, NULL, &err), &err);
  double fz = d->cache.f[2];
  must(nsedi_event_project(m, d, &err), &err);
  printf("welded ball sunk 4e-8 m: %ld projections, state %s, applied force %.15g N after (%.15g before)\n",
         d->stats.projections, memcmp(x1, d->x, n) == 0 ? "unchanged" : "CHANGED", d->cache.f[2], fz);
  CHECK(memcmp(x1, d->x, n) == 0);
  CHECK(d->stats.projections == 0);
  CHECK_NEAR(fz, -2.0 * 9.81, 1e-12, 0);
  CHECK(d->cache.f[2] == fz);
  free(x1);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void coin_projected(const char *root) {
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/rolling_coin.yaml", root);
  nsed_error err;
  nsed_model *m;
  nsed_data *d;
  must(nsed_problem_load(path, NULL, 0, &m, &err), &err);
  must(nsed_data_create(m, &d, &err), &err);
  CHECK(m->nbody == 1 && m->ncontact == 1);
  d->ph.mode[0] = NSED_MODE_STICK;
  /* Off the steady motion (there the velocity lies along the axis the
   * displacement turns about, and turning it changes nothing): another
   * spin, and the centre's velocity that keeps the rim point at rest. */
  d->x[10] += 3.0, d->x[11] -= 2.0;
  must(nsedi_eval(m, d, 0.0, d->x, NULL, &err), &err);
  const nsedi_contact_geom *g0 = &d->cache.geom[0];
  const double *dirs[3] = {g0->n, g0->t1, g0->t2};
  double vp[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) nsedi_v3_axpy(vp, vp, g0->row[k].vel, dirs[k]);
  for (int k = 0; k < 3; k++) d->x[7 + k] -= vp[k];
  d->x[2] -= 2e-8;
  must(nsedi_eval(m, d, 0.0, d->x, NULL, &err), &err);
  double before[3], gap0 = d->cache.geom[0].gap, u0[6], e0 = nsed_data_energy(m, d);
  for (int k = 0; k < 3; k++) before[k] = d->cache.geom[0].row[k].vel;
  memcpy(u0, d->x + 7, sizeof u0);
  double work0 = d->x[m->nstate + 1];
  size_t n = sizeof(double) * (size_t)(m->nstate + NSEDI_NWORK);
  double *x1 = malloc(n);
  memcpy(x1, d->x, n);
  must(nsedi_event_project(m, d, &err), &err);
  double after[3], kept = 0, moved_only = 0;
  for (int k = 0; k < 3; k++) {
    after[k] = d->cache.geom[0].row[k].vel;
    kept = fmax(kept, fabs(after[k] - before[k]));
  }
  /* The positions moved, the velocities as before: the rows' velocities
   * the projection would leave without its velocity step. */
  memcpy(x1, d->x, 7 * sizeof(double));
  must(nsedi_eval(m, d, 0.0, x1, NULL, &err), &err);
  for (int k = 1; k < 3; k++) moved_only = fmax(moved_only, fabs(d->cache.geom[0].row[k].vel - before[k]));
  must(nsedi_eval(m, d, 0.0, d->x, NULL, &err), &err);
  /* M du = J^T lambda: lambda by the normal equations of the three rows,
   * then the part of M du outside their span. */
  const nsed_body_def *b = &m->body[0].def;
  double Mdu[6], JJ[9], rhs[3], lam[3];
  for (int k = 0; k < 3; k++) {
    Mdu[k] = b->mass * (d->x[7 + k] - u0[k]);
    Mdu[3 + k] = b->inertia[k] * (d->x[10 + k] - u0[3 + k]);
  }
  const nsedi_row *r = d->cache.geom[0].row;
  for (int i = 0; i < 3; i++) {
    rhs[i] = 0;
    for (int q = 0; q < 6; q++) rhs[i] += r[i].ja[q] * Mdu[q];
    for (int j = 0; j < 3; j++) {
      JJ[3 * i + j] = 0;
      for (int q = 0; q < 6; q++) JJ[3 * i + j] += r[i].ja[q] * r[j].ja[q];
    }
  }
  CHECK(solve3_cramer(JJ, rhs, lam) == 0);
  double outside = 0, size = 0;
  for (int q = 0; q < 6; q++) {
    double jl = 0;
    for (int i = 0; i < 3; i++) jl += r[i].ja[q] * lam[i];
    outside = fmax(outside, fabs(Mdu[q] - jl));
    size = fmax(size, fabs(Mdu[q]));
  }
  double booked = d->x[m->nstate + 1] - work0, change = nsed_data_energy(m, d) - e0;
  printf("coin sunk %.2e m while rolling: %ld projection, gap %.1e after; the stick's row velocities "
         "moved by %.1e m/s (%.1e with the positions alone); M du %.1e, %.1e of it outside the rows' "
         "span; energy change %.6e J, work booked %.6e J\n",
         -gap0, d->stats.projections, d->cache.geom[0].gap, kept, moved_only, size, outside / size,
         change, booked);
  CHECK(d->stats.projections == 1);
  CHECK(fabs(d->cache.geom[0].gap) < NSEDI_PROJECT_REL * m->opt.contact_tol);
  CHECK_MSG(moved_only > 10 * m->opt.slip_tol, "the case must move the stick beyond slip_tol (%.3g)",
            moved_only);
  CHECK_MSG(kept < 1e-15, "the stick's rows moved by %.3g m/s", kept);
  /* du is a difference of velocities near 10 (round-off 2e-15) */
  CHECK(size > 0 && outside < 1e-6 * size);
  CHECK_NEAR(booked, change, 1e-15, 0);
  free(x1);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void stabilised_problem(void) {
  const double mass = 2.0, g = 9.81, eta = 25.0, xi = 50.0, gap = -5e-10, vn = -1e-9;
  nsed_error err;
  nsed_model *m = floor_ball(eta, xi, 0.0);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  d->x[2] = 0.1 + gap;
  d->x[9] = vn;
  d->ph.mode[0] = NSED_MODE_STICK;
  d->t = 1.0;
  int rc = nsedi_resolve(m, d, NULL, NULL, &err);
  CHECK_MSG(rc == NSED_OK, "stabilised: %s", err.message);
  double expect = mass * (g - xi * xi * gap - 2 * eta * vn);
  printf("stabilised (eta %g, xi %g), gap %g m, v_n %g m/s: event problem lambda_n %.15g N, smooth phase "
         "%.15g N, m (g - xi^2 gap - 2 eta v_n) %.15g N (the weight alone %.15g); %ld projections\n",
         eta, xi, gap, vn, d->ev.cl[0], d->cache.lambda_c[0], expect, mass * g, d->stats.projections);
  CHECK(d->ph.mode[0] == NSED_MODE_STICK);
  CHECK(d->stats.projections == 0);
  CHECK_NEAR(d->ev.cl[0], expect, 0, 1e-14);
  CHECK_NEAR(d->cache.lambda_c[0], expect, 0, 1e-14);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  displacement();
  table_projected(root, 2e-9, 3e-9);
  table_projected(root, -6e-9, 1e-9);
  table_within_tol(root);
  ball_event();
  welded_sunk();
  coin_projected(root);
  stabilised_problem();
  return TEST_DONE();
}
