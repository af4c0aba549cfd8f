/* Attached rotors (docs/engine.md, "Attached rotors"): a rotor fixed to a
 * parent body in reduced coordinates, its turn and absolute rate about its
 * axis its only states. Against what does not depend on that formulation:
 *
 *  1. a free gyrostat (a carrier and a tilted ring of four spinning rotors,
 *     no gravity): its kinetic energy and its angular momentum about its
 *     centre (from the bodies' output states: sum m r x v + R J w) are
 *     invariants, and each rotor's absolute rate is one; and the same
 *     system with the rotors on revolute joints (maximal coordinates,
 *     Lagrange multipliers) gives the same motion; and tethered to a
 *     fixed point by a spring at a point of one rotor's rim (its force and
 *     moment reduced to the carrier and the rotor's rate): the energy with
 *     the spring's, and the same motion on revolute joints;
 *  2. the contact rows of an attached roller (the omni testbench at random
 *     states): the velocity is J u (u from the bodies' kinematics), and its
 *     rate along the motion, by central differences of the geometry, is
 *     J du + bias;
 *  3. Gerasimov and Zobova's coast (heavy rollers, a third of the wheel's
 *     mass, up to 380 rad/s) to 0.3 s with attached and axle-mounted rotor
 *     rollers: the same events at the same times;
 *  4. what the model refuses, each with a message naming the body;
 *  5. a rotor's material turn computed only where something reads more of
 *     it than its axis: Gerasimov and Zobova's coast to 0.3 s gives the same
 *     events and final states, bit for bit, with every roller's turned; a
 *     differentially tracked roller and a rotor holding a spring turn. */
#include "assembly_impl.h"
#include "engine_util.h"
#include "math3.h"
#include "nsed/io.h"
#include "nsed_test.h"
#include "sim_impl.h"

/* ---- 1. the free gyrostat ---- */

enum { NROT = 4 };

/* The carrier (mass 2, moments (0.7, 0.7, 1.1)) at the origin turned by q,
 * spinning at w (body axes); rotor k on a ring of radius 0.5 in its x-y
 * plane, its axis (body x) the ring's tangent tilted by psi towards the
 * carrier's z, at its own rate spin[k] relative to the carrier. attached:
 * reduced coordinates; else rotors (rotor: x) on revolute joints. */
static nsed_model *gyrostat(int attached, const double q[4], const double w[3],
                            const double spin[NROT], int sprung) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def c;
  nsed_body_def_default(&c);
  snprintf(c.name, sizeof c.name, "carrier");
  c.mass = 2;
  nsedi_v3_set(c.inertia, 0.7, 0.7, 1.1);
  memcpy(c.quat, q, sizeof c.quat);
  memcpy(c.angular_velocity, w, sizeof c.angular_velocity);
  must(nsed_model_add_body(m, &c, &err), &err);
  double Rc[9], ww[3], psi = 0.3, r = 0.5;
  nsedi_quat_to_mat(Rc, q);
  nsedi_m3_mulv(ww, Rc, w);
  for (int k = 0; k < NROT; k++) {
    double th = 2 * M_PI * k / NROT, lp[3] = {r * cos(th), r * sin(th), 0};
    double t[3] = {-sin(th), cos(th), 0}, a[3], y[3] = {-cos(th), -sin(th), 0}, z[3];
    for (int i = 0; i < 3; i++) a[i] = cos(psi) * t[i];
    a[2] += sin(psi);
    nsedi_v3_cross(z, a, y);
    /* Body axes (a, y, z) in the carrier's frame, then in the world's. */
    double M[9] = {a[0], y[0], z[0], a[1], y[1], z[1], a[2], y[2], z[2]}, R[9], qr[4];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        R[3 * i + j] = Rc[3 * i] * M[j] + Rc[3 * i + 1] * M[3 + j] + Rc[3 * i + 2] * M[6 + j];
    nsedi_frame_quat(R, qr);
    nsed_body_def b;
    nsed_body_def_default(&b);
    snprintf(b.name, sizeof b.name, "rotor%d", k);
    b.mass = 0.1;
    nsedi_v3_set(b.inertia, 0.004, 0.003, 0.003);
    b.rotor = NSED_ROTOR_X;
    memcpy(b.quat, qr, sizeof b.quat);
    double d[3], v[3], wr[3], wrw[3];
    nsedi_m3_mulv(d, Rc, lp);
    memcpy(b.position, d, sizeof d);
    nsedi_v3_cross(v, ww, d);
    memcpy(b.velocity, v, sizeof v);
    /* The carrier's rate plus the rotor's own about its axis, in its axes. */
    double aw[3];
    nsedi_m3_mulv(aw, Rc, a);
    nsedi_v3_axpy(wrw, ww, spin[k], aw);
    for (int i = 0; i < 3; i++) wr[i] = R[i] * wrw[0] + R[3 + i] * wrw[1] + R[6 + i] * wrw[2];
    memcpy(b.angular_velocity, wr, sizeof wr);
    if (attached) snprintf(b.attached_to, sizeof b.attached_to, "carrier");
    must(nsed_model_add_body(m, &b, &err), &err);
    if (attached) continue;
    nsed_joint_def j;
    nsed_joint_def_default(&j);
    snprintf(j.name, sizeof j.name, "axle%d", k);
    j.type = NSED_JOINT_REVOLUTE;
    snprintf(j.body_a, sizeof j.body_a, "carrier");
    snprintf(j.body_b, sizeof j.body_b, "rotor%d", k);
    memcpy(j.anchor_a, lp, sizeof lp);
    memcpy(j.axis_a, a, sizeof a);
    nsedi_v3_set(j.axis_b, 1, 0, 0);
    must(nsed_model_add_joint(m, &j, &err), &err);
  }
  if (sprung) {
    /* A spring from a point on rotor 0's rim (off its axis: the material
     * turn carries it) to a fixed point: its force and moment reach the
     * carrier and the rotor's rate through the reduction. */
    nsed_force_def f;
    nsed_force_def_default(&f);
    snprintf(f.name, sizeof f.name, "tether");
    f.type = NSED_FORCE_SPRING;
    snprintf(f.body, sizeof f.body, "rotor0");
    nsedi_v3_set(f.point, 0, 0.04, 0.03);
    nsedi_v3_set(f.point_b, 0.8, -0.5, 0.6);
    f.k = 3;
    f.rest_length = 0.4;
    must(nsed_model_add_force(m, &f, &err), &err);
  }
  nsed_options o = *nsed_model_options(m);
  nsedi_v3_set(o.gravity, 0, 0, 0);
  o.t_end = 5;
  o.output_dt = 0.05;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

/* Angular momentum about the origin (world) from the output states. */
static void momentum(const nsed_model *m, const nsed_data *d, double L[3]) {
  nsedi_v3_set(L, 0, 0, 0);
  for (int b = 0; b < nsed_model_nbody(m); b++) {
    const nsed_body_def *def = nsed_model_body_def(m, b);
    double s[13], R[9], Jw[3], t[3];
    nsed_data_body_state(d, b, s);
    nsedi_quat_to_mat(R, s + 3);
    for (int k = 0; k < 3; k++) Jw[k] = def->inertia[k] * s[10 + k];
    nsedi_m3_mulv(t, R, Jw);
    nsedi_v3_add(L, L, t);
    nsedi_v3_cross(t, s, s + 7);
    nsedi_v3_axpy(L, L, def->mass, t);
  }
}

typedef struct {
  double E0, L0[3], worst_E, worst_L;
} invariants;

static int watch_invariants(void *ctx, const nsed_model *m, const nsed_data *d,
                            nsed_sample_reason why) {
  (void)why;
  invariants *iv = ctx;
  double L[3], E = nsed_data_energy(m, d);
  momentum(m, d, L);
  if (nsed_data_time(d) == 0) {
    iv->E0 = E;
    memcpy(iv->L0, L, sizeof L);
  }
  iv->worst_E = fmax(iv->worst_E, fabs(E - iv->E0));
  for (int k = 0; k < 3; k++) iv->worst_L = fmax(iv->worst_L, fabs(L[k] - iv->L0[k]));
  return 0;
}

static void run_gyrostat(int attached, int sprung, invariants *iv, double out[1 + NROT][13],
                         long *steps) {
  const double ax[3] = {0.2, -0.5, 0.8}, w[3] = {0.9, -0.6, 1.3}, spin[NROT] = {40, -25, 60, 15};
  double q[4], u[3];
  nsedi_v3_scale(u, ax, 1 / nsedi_v3_norm(ax));
  nsedi_quat_axis_angle(q, u, 0.7);
  nsed_model *m = gyrostat(attached, q, w, spin, sprung);
  nsed_error err;
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  memset(iv, 0, sizeof *iv);
  nsed_observer obs = {.ctx = iv, .sample = watch_invariants};
  CHECK_MSG(nsed_simulate(m, d, &obs, &err) == NSED_OK, "%s", err.message);
  for (int b = 0; b <= NROT; b++) nsed_data_body_state(d, b, out[b]);
  *steps = nsed_data_stats(d)->steps;
  if (attached && !sprung)
    /* No torque about a rotor's axis: its absolute rate stays, exactly. */
    for (int b = 1; b <= NROT; b++)
      CHECK_MSG(d->x[m->body[b].xrate] == nsed_model_body_def(m, b)->angular_velocity[0],
                "rotor %d's rate %.17g, started at %.17g", b, d->x[m->body[b].xrate],
                nsed_model_body_def(m, b)->angular_velocity[0]);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* Free (sprung 0): energy and angular momentum about the centre are
 * invariants. Tethered (1): energy only (the spring's potential with it). */
static void test_gyrostat(int sprung) {
  invariants ia, ij;
  double sa[1 + NROT][13], sj[1 + NROT][13];
  long na, nj;
  run_gyrostat(1, sprung, &ia, sa, &na);
  run_gyrostat(0, sprung, &ij, sj, &nj);
  double worst_q = 0, worst_w = 0, worst_r = 0;
  for (int b = 0; b <= NROT; b++) {
    worst_q = fmax(worst_q, rotation_between(sa[b] + 3, sj[b] + 3));
    for (int k = 0; k < 3; k++) {
      worst_r = fmax(worst_r, fabs(sa[b][k] - sj[b][k]));
      worst_w = fmax(worst_w, fabs(sa[b][10 + k] - sj[b][10 + k]));
    }
  }
  printf("%s gyrostat, 5 s: attached: energy %.2e J of %.4g, angular momentum %.2e, %ld steps; "
         "on revolute joints: %.2e J, %.2e, %ld steps; apart: orientation %.2e rad, centre %.2e, "
         "angular velocity %.2e rad/s\n",
         sprung ? "tethered" : "free", ia.worst_E, ia.E0, ia.worst_L, na, ij.worst_E, ij.worst_L,
         nj, worst_q, worst_r, worst_w);
  CHECK(ia.E0 > 1 && fabs(ia.E0 - ij.E0) < 1e-12 * ia.E0);
  CHECK(ia.worst_E < 1e-10 * ia.E0);
  if (!sprung) CHECK(ia.worst_L < 1e-10 * nsedi_v3_norm(ia.L0));
  CHECK(worst_q < 1e-8 && worst_r < 1e-8 && worst_w < 1e-7);
}

/* ---- 2. an attached roller's contact rows ---- */

static double urand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffffff) / (double)0x1000000;
}

static double row_on_kin(const nsedi_row *r, const nsedi_kin *kin) {
  double s = 0;
  for (int side = 0; side < 2; side++) {
    int b = side ? r->b : r->a;
    const double *J = side ? r->jb : r->ja;
    if (b < 0) continue;
    for (int k = 0; k < 3; k++) s += J[k] * kin[b].v[k] + J[3 + k] * kin[b].wb[k];
  }
  return s;
}

static void test_rows(void) {
  nsed_error err;
  nsed_model *m = NULL;
  const char text[] = "omni_wheel_testbench: {rollers: 5, psi: 0.4, contact: {mu: 0.5}}\n"
                      "gravity: [0, 0, -1]\n";
  must(nsed_problem_load_string(text, strlen(text), "rows.yaml", NULL, 0, &m, &err), &err);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  int n = m->nstate + NSEDI_NWORK;
  double *x0 = malloc(sizeof(double) * (size_t)n), *xd = malloc(sizeof(double) * (size_t)n);
  double *xs = malloc(sizeof(double) * (size_t)n);
  unsigned seed = 7;
  double worst_vel = 0, worst_acc = 0, scale_acc = 0;
  int checked = 0;
  for (int trial = 0; trial < 40; trial++) {
    memcpy(x0, d->x, sizeof(double) * (size_t)n);
    /* The hub: a random motion and tilt; the rollers: random turns and rates. */
    double *h = x0 + m->body[0].xbody;
    for (int k = 7; k < 13; k++) h[k] += 2 * urand(&seed) - 1;
    for (int k = 3; k < 7; k++) h[k] += 0.2 * (urand(&seed) - 0.5);
    nsedi_quat_normalize(h + 3);
    for (int b = 1; b < m->nbody; b++) {
      x0[m->body[b].xspin] = 6 * urand(&seed) - 3;
      x0[m->body[b].xrate] = 20 * urand(&seed) - 10;
    }
    for (int c = 0; c < m->ncontact; c++) d->ph.mode[c] = NSED_MODE_OPEN;
    if (nsedi_eval(m, d, 0, x0, xd, &err)) continue;
    double du[6 * 8];
    memcpy(du, d->cache.du, sizeof(double) * (size_t)m->nv);
    for (int c = 0; c < m->ncontact; c++) {
      nsedi_row rows[4], plus[4], minus[4];
      nsedi_contact_geom *g = &d->cache.geom[c];
      if (!d->cache.geom_ok[c]) continue;
      for (int k = 0; k < 3; k++) rows[k] = g->row[k];
      rows[3] = g->spin;
      for (int k = 0; k < 3; k++) {
        const nsedi_row *r = &rows[k];
        CHECK(r->a == c + 1 && r->b == 0); /* the roller's rate, the hub */
        for (int q = 0; q < 6; q++)
          if (q != 3) CHECK(r->ja[q] == 0);
        worst_vel = fmax(worst_vel, fabs(r->vel - row_on_kin(r, d->cache.kin)));
      }
      double eps = 1e-6;
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        for (int i = 0; i < n; i++) xs[i] = x0[i] + sgn * eps * xd[i];
        memcpy(d->x, xs, sizeof(double) * (size_t)n);
        nsedi_refresh_geometry(m, d);
        nsedi_row *out = sgn < 0 ? minus : plus;
        for (int k = 0; k < 3; k++) out[k] = d->cache.geom[c].row[k];
        out[3] = d->cache.geom[c].spin;
      }
      for (int k = 0; k < 4; k++) {
        double fd = (plus[k].vel - minus[k].vel) / (2 * eps), acc = nsedi_row_accel(&rows[k], du);
        worst_acc = fmax(worst_acc, fabs(fd - acc));
        scale_acc = fmax(scale_acc, fabs(acc));
        checked++;
      }
      memcpy(d->x, x0, sizeof(double) * (size_t)n);
      nsedi_eval(m, d, 0, x0, xd, &err);
    }
    memcpy(d->x, x0, sizeof(double) * (size_t)n);
  }
  printf("attached roller rows: %d checked, |vel - J u| <= %.2e, |d vel/dt - (J du + bias)| <= "
         "%.2e (rates up to %.3g)\n",
         checked, worst_vel, worst_acc, scale_acc);
  CHECK(checked >= 100);
  CHECK(worst_vel < 1e-13);
  CHECK(worst_acc < 1e-6 * (1 + scale_acc));
  free(x0);
  free(xd);
  free(xs);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* ---- 3. Gerasimov and Zobova's coast both ways ---- */

/* Gerasimov and Zobova's coast to 0.3 s with one override (set); force:
 * every attached rotor's material frame turned whatever the model decided
 * (test 5). Its events into r, its steps, and optionally every body's final
 * state (out, nbody x 13) and how many rotors turned; returns nbody. */
static int run_gz_with(const char *root, const char *set, int force, recorder *r, long *steps,
                       double *out, int *nturned) {
  const char *const sets[] = {set, "solver.t_end=0.3"};
  nsed_model *m = load_shipped(root, "omni_vehicle_coast_gz.yaml", sets, 2);
  int turned = 0;
  for (int i = 0; i < m->nbody; i++) {
    if (force && m->body[i].parent >= 0) m->body[i].material_turn = 1;
    turned += m->body[i].material_turn;
  }
  if (nturned) *nturned = turned;
  nsed_data *d = NULL;
  nsed_error err;
  must(nsed_data_create(m, &d, &err), &err);
  memset(r, 0, sizeof *r);
  nsed_observer obs = {.ctx = r, .event = rec_event};
  CHECK_MSG(nsed_simulate(m, d, &obs, &err) == NSED_OK, "%s: %s", set, err.message);
  if (steps) *steps = nsed_data_stats(d)->steps;
  int nb = m->nbody;
  if (out)
    for (int i = 0; i < nb; i++) nsed_data_body_state(d, i, out + 13 * i);
  nsed_data_free(&d);
  nsed_model_free(&m);
  return nb;
}

static void run_gz(const char *root, const char *frame, recorder *r, long *steps) {
  char set[64];
  snprintf(set, sizeof set, "omni_vehicle.roller_frame=%s", frame);
  (void)run_gz_with(root, set, 0, r, steps, NULL, NULL);
}

static recorder ga, gr;

static void test_gz(const char *root) {
  long sa, sr;
  run_gz(root, "attached", &ga, &sa);
  run_gz(root, "rotor", &gr, &sr);
  double worst = 0;
  int same = ga.nev == gr.nev;
  for (int i = 0; same && i < ga.nev; i++) {
    same = ga.ev[i].kind == gr.ev[i].kind && ga.ev[i].contact == gr.ev[i].contact;
    worst = fmax(worst, fabs(ga.ev[i].t - gr.ev[i].t));
  }
  printf("Gerasimov and Zobova's coast to 0.3 s: %d events attached (%ld steps), %d on axles (%ld "
         "steps), the same kinds %s, times within %.2e s\n",
         ga.nev, sa, gr.nev, sr, same ? "yes" : "no", worst);
  CHECK(ga.nev >= 10 && same);
  CHECK(worst < 1e-9);
}

/* ---- 5. the material turn, only where it is read ---- */

static int run_gz_turn(const char *root, const char *tracking, int force, recorder *r, double *out,
                       int *nturned) {
  char set[64];
  snprintf(set, sizeof set, "contact_tracking=%s", tracking);
  return run_gz_with(root, set, force, r, NULL, out, nturned);
}

static recorder ta, tb;
static double sa_[64 * 13], sb_[64 * 13];

static void test_material_turn(const char *root) {
  int na, nb, ta_n, tb_n;
  na = run_gz_turn(root, "explicit", 0, &ta, sa_, &ta_n);
  nb = run_gz_turn(root, "explicit", 1, &tb, sb_, &tb_n);
  int same = na == nb && ta.nev == tb.nev && ta.nev > 0;
  for (int i = 0; same && i < ta.nev; i++)
    same = ta.ev[i].t == tb.ev[i].t && ta.ev[i].kind == tb.ev[i].kind && ta.ev[i].contact == tb.ev[i].contact;
  same = same && memcmp(sa_, sb_, sizeof(double) * 13 * (size_t)na) == 0;
  printf("material turn: %d of the attached rollers turned by the model (explicit tracking), all %d "
         "forced: %d events and every final state the same bits: %s\n",
         ta_n, tb_n, ta.nev, same ? "yes" : "no");
  CHECK(ta_n == 0 && tb_n == 15 && same);
  /* A differentially tracked point keeps coordinates in the material axes. */
  int dn;
  (void)run_gz_turn(root, "differential", 0, &ta, sa_, &dn);
  CHECK_MSG(dn == 15, "differential tracking: %d rollers turned", dn);
  /* A spring on a rotor reads its rim point; the other rotors need no turn. */
  double q[4] = {1, 0, 0, 0}, w[3] = {0.3, -0.2, 0.5}, spin[NROT] = {40, -25, 60, 10};
  nsed_model *m = gyrostat(1, q, w, spin, 1);
  int turned = 0;
  for (int i = 0; i < m->nbody; i++) turned += m->body[i].material_turn;
  CHECK_MSG(turned == 1 && m->body[m->force[0].body].material_turn, "sprung gyrostat: %d rotors turned",
            turned);
  nsed_model_free(&m);
}

/* ---- 4. refused ---- */

static void refused(const char *yaml, const char *want) {
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load_string(yaml, strlen(yaml), "bad.yaml", NULL, 0, &m, &err);
  CHECK_MSG(rc != NSED_OK && strstr(err.message, want), "want '%s', got: %s", want,
            rc ? err.message : "accepted");
  nsed_model_free(&m);
}

static void test_refused(void) {
  static const char head[] = "bodies:\n"
                             "  - {name: c, mass: 1, inertia: [1, 1, 2]}\n";
  char y[2048];
  snprintf(y, sizeof y, "%s  - {name: r, mass: 0.1, inertia: [0.02, 0.01, 0.01], rotor: x, "
           "attached_to: nobody}\n", head);
  refused(y, "attached_to 'nobody' is not a body added before it");
  snprintf(y, sizeof y, "%s  - {name: r, mass: 0.1, inertia: [0.02, 0.01, 0.01], attached_to: c}\n", head);
  refused(y, "attached_to needs a rotor axis");
  snprintf(y, sizeof y, "%s  - {name: r, mass: 0.1, inertia: [0.02, 0.01, 0.01], rotor: x, "
           "attached_to: c, position: [0.5, 0, 0]}\n", head);
  refused(y, "not balanced");
  snprintf(y, sizeof y, "%s  - {name: r, mass: 0.1, inertia: [0.02, 0.01, 0.01], rotor: x, "
           "attached_to: c, velocity: [1, 0, 0]}\n", head);
  refused(y, "must be the parent's at its centre");
  snprintf(y, sizeof y, "%s  - {name: r, mass: 0.1, inertia: [0.02, 0.01, 0.01], rotor: x, "
           "attached_to: c, angular_velocity: [3, 1, 0]}\n", head);
  refused(y, "across its axis");
  snprintf(y, sizeof y, "%s  - {name: r, mass: 0.1, inertia: [0.02, 0.01, 0.01], rotor: x, "
           "attached_to: c}\n  - {name: s, mass: 0.1, inertia: [0.02, 0.01, 0.01], rotor: x, "
           "attached_to: r}\n", head);
  refused(y, "attached itself");
  snprintf(y, sizeof y, "%s  - {name: r, mass: 0.1, inertia: [0.02, 0.01, 0.01], rotor: x, "
           "attached_to: c}\njoints:\n  - {name: j, type: spherical, body_a: c, body_b: r}\n", head);
  refused(y, "carries no joint");
  snprintf(y, sizeof y, "%s  - {name: r, mass: 0.1, inertia: [0.02, 0.01, 0.01], rotor: x, "
           "attached_to: c, shape: {type: sphere, radius: 0.1}}\n"
           "  - {name: b, mass: 1, shape: {type: sphere, radius: 0.1}, position: [0, 0, 1]}\n"
           "contacts:\n  - {name: k, body: b, with: r}\n", head);
  refused(y, "its contacts must be with the floor or a plane");
  /* The inertia across the axis, off the parent's principal axes. */
  snprintf(y, sizeof y, "%s  - {name: r, mass: 0.1, inertia: [0.02, 0.01, 0.01], rotor: x, "
           "attached_to: c, orientation: {axis: [0, 0, 1], angle_rad: 0.5}}\n", head);
  refused(y, "not diagonal");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    CHECK_MSG(0, "usage: %s SOURCE_ROOT", argv[0]);
    return TEST_DONE();
  }
  test_gyrostat(0);
  test_gyrostat(1);
  test_rows();
  test_gz(argv[1]);
  test_material_turn(argv[1]);
  test_refused();
  return TEST_DONE();
}
