/* The alternative contact laws on closed forms (DESIGN.md §9):
 * - regularised Coulomb (Kosenko) on an incline below the friction angle:
 *   no sticking, a creep at the speed where mu N v/delta balances the
 *   slope, v = delta tan(alpha) / mu (the exact law sticks: v = 0);
 * - regularised and compliant laws on the sliding sphere: rolling at 5/7 v0
 *   is reached (no stick event exists for them);
 * - compliant contact at rest: penetration m g / stiffness. */
#include "engine_util.h"
#include "nsed_test.h"

static nsed_model *sphere(nsed_contact_law law, double delta, double k, double c,
                          nsed_integrator integ) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = 0.1;
  b.position[2] = 0.1;
  b.velocity[0] = 2.0;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def cd;
  nsed_contact_def_default(&cd);
  snprintf(cd.name, sizeof cd.name, "ball_floor");
  snprintf(cd.body, sizeof cd.body, "ball");
  cd.law = law;
  cd.delta = delta;
  cd.stiffness = k;
  cd.damping = c;
  must(nsed_model_add_contact(m, &cd, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = 1.0;
  o.integrator = integ;
  if (integ == NSED_INTEGRATOR_CVODE_BDF) {
    o.rtol = 1e-8;
    o.atol = 1e-10;
  }
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

int main(void) {
  /* Incline, regularised law: creep at delta tan(alpha) / mu. */
  {
    const double alpha = 0.2, mu = 0.4, delta = 1e-4;
    nsed_error err;
    nsed_model *m;
    must(nsed_model_create(&m, &err), &err);
    nsed_body_def b;
    nsed_body_def_default(&b);
    snprintf(b.name, sizeof b.name, "block");
    b.shape.type = NSED_SHAPE_POINT;
    b.inertia[0] = b.inertia[1] = b.inertia[2] = 0.1;
    must(nsed_model_add_body(m, &b, &err), &err);
    nsed_contact_def cd;
    nsed_contact_def_default(&cd);
    snprintf(cd.name, sizeof cd.name, "block_incline");
    snprintf(cd.body, sizeof cd.body, "block");
    cd.mu = cd.mu0 = mu;
    cd.law = NSED_CONTACT_REGULARIZED;
    cd.delta = delta;
    must(nsed_model_add_contact(m, &cd, &err), &err);
    nsed_options o = *nsed_model_options(m);
    o.floor_normal[0] = -sin(alpha);
    o.floor_normal[2] = cos(alpha);
    o.t_end = 2.0;
    must(nsed_model_set_options(m, &o, &err), &err);
    must(nsed_model_finalize(m, &err), &err);
    static recorder rec;
    nsed_data *d;
    CHECK(run_model(m, &d, &rec) == NSED_OK);
    nsed_contact_info ci;
    nsed_data_contact(d, 0, &ci);
    double creep = delta * tan(alpha) / mu;
    printf("regularised incline: creep %.9e m/s (closed form %.9e), mode %s\n", ci.slip_speed, creep,
           nsed_mode_name(ci.mode));
    CHECK_NEAR(ci.slip_speed, creep, 0, 1e-6);
    CHECK(ci.mode == NSED_MODE_SLIP);
    CHECK(rec.nev == 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  /* Sliding sphere: both laws end rolling at 5/7 v0, without events. */
  {
    nsed_model *m = sphere(NSED_CONTACT_REGULARIZED, 1e-4, 0, 0, NSED_INTEGRATOR_ARKODE_DP5);
    static recorder rec;
    nsed_data *d;
    CHECK(run_model(m, &d, &rec) == NSED_OK);
    double s[13];
    nsed_data_body_state(d, 0, s);
    const nsed_stats *st = nsed_data_stats(d);
    printf("regularised sphere: final speed %.12f, %ld rhs evaluations\n", s[7], st->rhs_evals);
    CHECK_NEAR(s[7], 5.0 / 7.0 * 2.0, 1e-9, 0);
    CHECK(rec.nev == 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  {
    const double k = 1e6;
    nsed_model *m = sphere(NSED_CONTACT_COMPLIANT, 1e-4, k, 2000, NSED_INTEGRATOR_CVODE_BDF);
    static recorder rec;
    nsed_data *d;
    CHECK(run_model(m, &d, &rec) == NSED_OK);
    double s[13];
    nsed_data_body_state(d, 0, s);
    nsed_contact_info ci;
    nsed_data_contact(d, 0, &ci);
    const nsed_stats *st = nsed_data_stats(d);
    double bal = nsed_data_energy(m, d) - st->energy_initial - st->work_external -
                 st->work_contacts - st->work_joints;
    printf("compliant sphere: final speed %.12f, penetration %.6e (m g/k = %.6e), energy balance "
           "%.2e\n",
           s[7], -ci.gap, 9.81 / k, bal);
    CHECK_NEAR(s[7], 5.0 / 7.0 * 2.0, 1e-6, 0);
    CHECK_NEAR(-ci.gap, 9.81 / k, 0, 1e-6);
    CHECK_NEAR(ci.lambda[0], 9.81, 0, 1e-6);
    CHECK(fabs(bal) < 1e-6 * st->energy_initial);
    CHECK(rec.nev == 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  return TEST_DONE();
}
