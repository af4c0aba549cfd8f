/* Kosenko's wheelset (problems/wheelset.yaml): two discs on compliant
 * cylindrical joints along a rod, rolling on exact Coulomb contacts,
 * against the ideal rigid no-slip wheelset. Coasting, the ideal wheelset
 * keeps its speed v and yaw rate W, so the rod's centre runs on the circle
 * of radius v/W = 2 m about (0, 2) and its yaw rate stays 0.5 rad/s. The
 * compliant model departs from it by the axial springs' deflections, so its
 * distance from the ideal circle must shrink as 1/c when the stiffness c
 * and damping d grow together (the relaxation time d/c fixed), its yaw
 * rate's as 1/c^2, and the part left at c -> infinity (Richardson) must
 * vanish: the ideal model is the limit, as the seed reports for c = 1000,
 * d = 5000. Both wheels roll (stick) throughout. argv[1]: the source root. */
#include "engine_util.h"
#include "nsed_test.h"

typedef struct {
  double worst_radius, worst_yaw;
  int slips;
  /* driven: the ideal path integrated alongside (Simpson in time) */
  int driven;
  double t_ref, x_ref, y_ref, worst_path;
} ideal_gap;

/* The driven ideal wheelset: torques +TAU on the right disc and -TAU on the
 * left (about the axle; the rod feels none in sum) do work TAU (phi_r -
 * phi_l)' = TAU (w/R) W, so v stays 1 m/s and I_eff W' = TAU w / R, with
 * I_eff from the kinetic energy
 *   T = 1/2 (m + 2 Js/R^2) v^2 + 1/2 (Iz + Js w^2 / (2 R^2)) W^2,
 * Iz = the rod's transverse moment + 2 (Jt + m_d (w/2)^2), Js = m_d R^2/2,
 * Jt = m_d R^2/4 (thin discs), the rod a cylinder of radius 0.02 m, length
 * w = 1 m. Heading psi = W0 t + 1/2 W' t^2. */
static const double TAU = 0.2, RW = 0.3, TRACK = 1.0, MD = 1.0;

static double driven_heading(double t) {
  double rod = (3 * 0.02 * 0.02 + TRACK * TRACK) / 12.0, js = MD * RW * RW / 2, jt = MD * RW * RW / 4;
  double iz = rod + 2 * (jt + MD * TRACK * TRACK / 4), ieff = iz + js * TRACK * TRACK / (2 * RW * RW);
  return 0.5 * t + 0.5 * TAU * TRACK / (RW * ieff) * t * t;
}

static void advance_reference(ideal_gap *g, double t) {
  int n = (int)ceil((t - g->t_ref) / 1e-4);
  if (n < 1) return;
  double h = (t - g->t_ref) / n;
  for (int i = 0; i < n; i++) {
    double a = g->t_ref + i * h, b = a + h, c = a + h / 2;
    g->x_ref += h / 6 * (cos(driven_heading(a)) + 4 * cos(driven_heading(c)) + cos(driven_heading(b)));
    g->y_ref += h / 6 * (sin(driven_heading(a)) + 4 * sin(driven_heading(c)) + sin(driven_heading(b)));
  }
  g->t_ref = t;
}

static int compare(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m, (void)why;
  ideal_gap *g = ctx;
  double s[13];
  nsed_data_body_state(d, 0, s); /* the rod */
  if (g->driven) {
    advance_reference(g, nsed_data_time(d));
    g->worst_path = fmax(g->worst_path, hypot(s[0] - g->x_ref, s[1] - g->y_ref));
    return 0;
  }
  g->worst_radius = fmax(g->worst_radius, fabs(hypot(s[0], s[1] - 2.0) - 2.0));
  g->worst_yaw = fmax(g->worst_yaw, fabs(world_spin_z(s) - 0.5));
  for (int c = 0; c < nsed_model_ncontact(m); c++) {
    nsed_contact_info ci;
    nsed_data_contact(d, c, &ci);
    if (ci.mode != NSED_MODE_STICK) g->slips++;
  }
  return 0;
}

static ideal_gap run(const char *root, double c, int driven) {
  char path[4096], left[200], right[200], tl[100], tr[100];
  snprintf(path, sizeof path, "%s/problems/wheelset.yaml", root);
  snprintf(left, sizeof left, "joints.left_axle.spring={k: %.17g, c: %.17g}", c, 5 * c);
  snprintf(right, sizeof right, "joints.right_axle.spring={k: %.17g, c: %.17g}", c, 5 * c);
  snprintf(tl, sizeof tl, "joints.left_axle.torque=%.17g", -TAU);
  snprintf(tr, sizeof tr, "joints.right_axle.torque=%.17g", TAU);
  const char *ov[5] = {left, right, tl, tr, "solver.t_end=5"};
  ideal_gap g = {0};
  g.driven = driven;
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  int rc = nsed_problem_load(path, ov, driven ? 5 : 2, &m, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  if (rc) return g;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  nsed_observer obs = {.ctx = &g, .sample = compare};
  rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "c = %g: %s", c, err.message);
  const nsed_stats *s = nsed_data_stats(d);
  CHECK(s->events == 0);
  CHECK_MSG(g.slips == 0, "a wheel left rolling %d times", g.slips);
  CHECK_NEAR(nsed_data_energy(m, d) - s->energy_initial,
             s->work_external + s->work_contacts + s->work_joints, 1e-10, 1e-8);
  if (driven)
    printf("driven, c = %g N/m: off the ideal path %.6g m\n", c, g.worst_path);
  else
    printf("c = %g N/m, d = %g N s/m: off the ideal circle %.6g m, yaw rate off %.6g rad/s\n", c,
           5 * c, g.worst_radius, g.worst_yaw);
  nsed_data_free(&d);
  nsed_model_free(&m);
  return g;
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  ideal_gap a = run(root, 1e3, 0), b = run(root, 1e4, 0);
  double ratio_r = a.worst_radius / b.worst_radius, ratio_w = a.worst_yaw / b.worst_yaw;
  /* The rod's offset from the wheels' midpoint is first order in 1/c; it
   * changes the yaw inertia by its square, so the yaw rate departs as 1/c^2. */
  double limit_r = b.worst_radius - a.worst_radius / 10, limit_w = b.worst_yaw - a.worst_yaw / 100;
  printf("ratios %.6f (radius), %.6f (yaw); extrapolated to rigid: %.3g m, %.3g rad/s\n", ratio_r,
         ratio_w, limit_r, limit_w);
  CHECK_MSG(a.worst_radius > 1e-5, "the compliance must show at c = 1000 (%g)", a.worst_radius);
  CHECK_NEAR(ratio_r, 10.0, 0.01, 0);
  CHECK_NEAR(ratio_w, 100.0, 1.0, 0);
  CHECK_NEAR(limit_r, 0.0, 1e-8, 0);
  CHECK_NEAR(limit_w, 0.0, 1e-11, 0);
  /* Driven by opposite torques on the discs for 5 s (the yaw rate grows
   * from 0.5 to 4.3 rad/s): the path converges to the ideal model's. */
  ideal_gap p = run(root, 1e3, 1), q = run(root, 1e4, 1);
  double ratio_p = p.worst_path / q.worst_path, limit_p = q.worst_path - p.worst_path / 10;
  printf("driven: ratio %.6f, extrapolated to rigid %.3g m\n", ratio_p, limit_p);
  CHECK_NEAR(ratio_p, 10.0, 0.05, 0);
  CHECK_NEAR(limit_p, 0.0, 2e-7, 0);
  return TEST_DONE();
}
