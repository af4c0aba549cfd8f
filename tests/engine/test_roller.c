/* The omni-wheel spindle roller (seed 001 eq. 1): geometry against closed
 * forms, and a free roller dropped on the floor landing on a tip, bouncing,
 * and coming to rest lying on its body (centre height R - R1). */
#include "engine_util.h"
#include "nsed_test.h"

static const double R = 1.0;
static const int NR = 4;

static nsed_model *roller_model(double tilt_deg, double height, double e, double t_end, double eta,
                                double xi) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "roller");
  b.mass = 1.0;
  b.shape.type = NSED_SHAPE_ROLLER;
  b.shape.radius = R;
  b.shape.rollers = NR;
  double th = tilt_deg * M_PI / 180; /* axis (body x) tilted about world y */
  b.quat[0] = cos(th / 2);
  b.quat[2] = sin(th / 2);
  b.position[2] = height;
  b.angular_velocity[1] = tilt_deg > 0 ? 0.3 : 0.0;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "roller_floor");
  snprintf(c.body, sizeof c.body, "roller");
  c.mu = c.mu0 = 0.5;
  c.restitution = e;
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = t_end;
  o.output_dt = 0.01;
  o.zeno_velocity = 1e-4;
  o.baumgarte_eta = eta;
  o.baumgarte_xi = xi;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

static double gap_now(const nsed_model *m) {
  nsed_error err;
  nsed_data *d;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  nsed_contact_info ci;
  nsed_data_contact(d, 0, &ci);
  nsed_data_free(&d);
  return ci.gap;
}

int main(void) {
  double a = M_PI / NR, R1 = R * cos(a);
  /* Inertia of the solid spindle: mass-normalised integrals in closed form
   * against Simpson inside nsed. With r(x) = sqrt(R^2-x^2) - R1, L = R sin a:
   * V = pi int r^2, Ixx = (pi/2) int r^4 (per unit density). */
  {
    nsed_model *m = roller_model(0, 1.0, 0.0, 0.1, 0, 0);
    const nsed_body_def *b = nsed_model_body_def(m, 0);
    /* closed forms of int_{-L}^{L} r^2 and r^4 via symbolic expansion */
    double L = R * sin(a), s = R1;
    double I2 = 2 * L * (R * R + s * s) - 2 * L * L * L / 3 - 2 * s * (L * sqrt(R * R - L * L) + R * R * asin(L / R));
    /* r^4 = (A - 2 s q)^2 with A = R^2 - x^2 + s^2, q = sqrt(R^2 - x^2):
     * = A^2 - 4 s A q + 4 s^2 (R^2 - x^2) */
    /* numeric check instead of a long closed form: the ratio J_x / m = (1/2) int r^4 / int r^2 */
    double I4 = 0;
    const int N = 200000;
    for (int k = 0; k < N; k++) {
      double x = -L + (k + 0.5) * 2 * L / N, r = sqrt(R * R - x * x) - s;
      I4 += r * r * r * r * 2 * L / N;
    }
    CHECK_NEAR(b->inertia[0], 0.5 * I4 / I2, 0, 1e-9);
    CHECK(b->inertia[1] > b->inertia[0]); /* a long spindle */
    nsed_model_free(&m);
  }
  /* Gap: axis horizontal at height h: h - (R - R1); tilted beyond alpha: the tip. */
  {
    nsed_model *m = roller_model(0, 1.0, 0.0, 0.1, 0, 0);
    CHECK_NEAR(gap_now(m), 1.0 - (R - R1), 1e-14, 0);
    nsed_model_free(&m);
    m = roller_model(30, 1.0, 0.0, 0.1, 0, 0);
    double th = 30 * M_PI / 180; /* inside alpha = 45: body contact */
    CHECK_NEAR(gap_now(m), 1.0 + R1 * cos(th) - R, 1e-14, 0);
    nsed_model_free(&m);
    m = roller_model(60, 1.0, 0.0, 0.1, 0, 0);
    th = 60 * M_PI / 180; /* beyond alpha: the lower tip at R sin a along the axis */
    CHECK_NEAR(gap_now(m), 1.0 - R * sin(a) * sin(th), 1e-14, 0);
    nsed_model_free(&m);
  }
  /* Drop with the axis level: lands on its body, bounces, and the Zeno
   * guard closes the contact: at rest at centre height R - R1. */
  {
    nsed_model *m = roller_model(0, 1.2, 0.5, 4.0, 0.0, 0.0);
    static recorder rec;
    nsed_data *d;
    CHECK(run_model(m, &d, &rec) == NSED_OK);
    int impacts = 0, zeno = 0;
    for (int i = 0; i < rec.nev; i++) {
      impacts += rec.ev[i].kind == NSED_EVENT_IMPACT;
      zeno += rec.ev[i].kind == NSED_EVENT_ZENO;
    }
    double s[13];
    nsed_data_body_state(d, 0, s);
    nsed_contact_info ci;
    nsed_data_contact(d, 0, &ci);
    printf("level drop: %d impacts, zeno %d, final centre height %.12f (R - R1 = %.12f)\n", impacts,
           zeno, s[2], R - R1);
    CHECK(impacts >= 5 && zeno >= 1);
    CHECK_NEAR(s[2], R - R1, 1e-9, 0);
    CHECK_NEAR(s[9], 0.0, 1e-9, 0);
    CHECK(ci.mode != NSED_MODE_OPEN);
    CHECK_NEAR(ci.lambda[0], 9.81, 1e-8, 1e-9);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  /* Drop tilted beyond alpha: the first impact is on a tip; then it tumbles
   * end over end, pivoting on the tips and rolling on the arcs (body/tip
   * switches are events), with lift-offs and landings: the energy balance
   * (impacts booked as contact work) and the gap hold throughout. */
  {
    nsed_model *m = roller_model(60, 1.2, 0.3, 6.0, 25, 50);
    static recorder rec;
    nsed_data *d;
    CHECK(run_model(m, &d, &rec) == NSED_OK);
    const nsed_stats *st = nsed_data_stats(d);
    double bal = nsed_data_energy(m, d) - st->energy_initial - st->work_external -
                 st->work_contacts - st->work_joints;
    int impacts = 0;
    double last_impact = 0;
    for (int i = 0; i < rec.nev; i++)
      if (rec.ev[i].kind == NSED_EVENT_IMPACT) {
        impacts++;
        last_impact = rec.ev[i].t;
      }
    nsed_contact_info ci;
    nsed_data_contact(d, 0, &ci);
    printf("tip drop: %d events, %d impacts (last at %.3f s), energy balance %.2e J, final gap %.2e\n",
           rec.nev, impacts, last_impact, bal, ci.gap);
    CHECK(impacts >= 1);
    CHECK(fabs(bal) < 1e-8 * st->energy_initial);
    CHECK(fabs(ci.gap) < 1e-9);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  return TEST_DONE();
}
