/* Kosenko's omni vehicle (seed 001 §4): a platform on N_w omni wheels,
 * optionally each on a sprung strut, expanded into ordinary bodies, joints
 * and contacts (geometry in include/nsed/assemblies.h and
 * docs/omni-vehicle.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "assembly_impl.h"
#include "math3.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void nsed_omni_vehicle_def_default(nsed_omni_vehicle_def *v) {
  memset(v, 0, sizeof *v);
  v->wheels = 3;
  nsed_omni_wheel_def_default(&v->wheel);
  v->wheel_distance = 2.0;
  /* Kosenko's non-dimensional set: platform 3.3, wheel 1, rollers 0.1 of
   * the wheel in all over 4 rollers. */
  v->platform_mass = 3.3;
  v->gravity = 9.81;
  v->suspension_damping = -1;
  for (int i = 0; i < NSED_OMNI_VEHICLE_MAX_WHEELS; i++) v->drive[i] = nsed_law_constant(0);
}

/* The wheel directions beta_i (rad). */
static void wheel_angles(const nsed_omni_vehicle_def *v, double beta[NSED_OMNI_VEHICLE_MAX_WHEELS]) {
  for (int i = 0; i < v->wheels; i++)
    beta[i] = v->angles_given ? v->wheel_angles[i] : 2 * M_PI * i / v->wheels;
}

/* No two wheels in the same direction. */
static int check_angles(const nsed_omni_vehicle_def *v, nsed_error *err) {
  if (!v->angles_given) return NSED_OK;
  for (int j = 0; j < v->wheels; j++) {
    if (!isfinite(v->wheel_angles[j]))
      return nsed_error_set(err, NSED_ERR_INPUT, "wheel_angles[%d]: expected a finite angle", j);
    for (int i = 0; i < j; i++) {
      double deg_i = v->wheel_angles[i] * 180.0 / M_PI, deg_j = v->wheel_angles[j] * 180.0 / M_PI;
      double diff = fmod(fabs(deg_j - deg_i), 360.0);
      if (fmin(diff, 360.0 - diff) < 1e-9)
        return nsed_error_set(err, NSED_ERR_INPUT,
                              "wheel_angles[%d]: %.15g degrees is the direction of "
                              "wheel_angles[%d] = %.15g: two wheels cannot share a place",
                              j, deg_j, i, deg_i);
    }
  }
  return NSED_OK;
}

/* Wheel i's rollers' inclination. */
static double wheel_psi(const nsed_omni_vehicle_def *v, int i) {
  return v->psi_given ? v->wheel_psi[i] : v->wheel.psi;
}

/* A wheel's reach: the distance of its roller tips (R sin(alpha) / cos(psi)
 * along an axis across the radius R1 = R cos(alpha), alpha = pi/n) from its
 * centre, rho = R sqrt(cos^2(alpha) + sin^2(alpha) / cos^2(psi)) (for
 * psi = 0 the spindles lie inside the ball of radius rho = R). */
static double wheel_reach(const nsed_omni_vehicle_def *v, int i) {
  const nsed_omni_wheel_def *w = &v->wheel;
  double a = M_PI / w->rollers, c = cos(a), s = sin(a) / cos(wheel_psi(v, i));
  return w->radius * sqrt(c * c + s * s);
}

/* Wheels at given positions must not touch: centres more than the sum of
 * their reaches apart. */
static int check_positions(const nsed_omni_vehicle_def *v, nsed_error *err) {
  for (int j = 0; j < v->wheels; j++) {
    const double *pj = v->wheel_positions[j];
    if (!isfinite(pj[0]) || !isfinite(pj[1]))
      return nsed_error_set(err, NSED_ERR_INPUT, "wheel_positions[%d]: expected finite numbers", j);
    if (!v->axles_given && hypot(pj[0], pj[1]) == 0)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "wheel_positions[%d]: a wheel at the platform centre has no radial "
                            "direction for its axle; give axle_angles", j);
    for (int i = 0; i < j; i++) {
      const double *pi_ = v->wheel_positions[i];
      double dist = hypot(pj[0] - pi_[0], pj[1] - pi_[1]), need = wheel_reach(v, i) + wheel_reach(v, j);
      if (!(dist > need))
        return nsed_error_set(err, NSED_ERR_INPUT,
                              "wheel_positions[%d]: wheels %d and %d overlap: their centres are "
                              "%.6g apart, not more than their reaches R sqrt(cos^2(pi/n) + "
                              "sin^2(pi/n) / cos^2(psi)) together, %.6g",
                              j, i, j, dist, need);
    }
  }
  return NSED_OK;
}

/* Wheels on the circle of radius d: at beta_i, beta_j their centres are
 * 2 d sin(|beta_i - beta_j| / 2) apart, which must exceed twice the reach.
 * Some pair of N_w >= 3 wheels is at most 120 degrees apart, so this also
 * gives d > 2 rho / sqrt(3) > rho: no wheel reaches over the platform
 * centre. */
static int check_spacing(const nsed_omni_vehicle_def *v, nsed_error *err) {
  if (v->positions_given) return check_positions(v, err);
  double beta[NSED_OMNI_VEHICLE_MAX_WHEELS], rho = 0;
  wheel_angles(v, beta);
  for (int i = 0; i < v->wheels; i++) rho = fmax(rho, wheel_reach(v, i));
  double worst = 2.0;
  int wi = 0, wj = 1;
  for (int j = 1; j < v->wheels; j++)
    for (int i = 0; i < j; i++) {
      double f = sin(0.5 * fabs(remainder(beta[j] - beta[i], 2 * M_PI)));
      if (f < worst) {
        worst = f;
        wi = i;
        wj = j;
      }
    }
  if (v->wheel_distance * worst > rho) return NSED_OK;
  return nsed_error_set(err, NSED_ERR_INPUT,
                        "wheel_distance: wheels %d and %d overlap: their centres are 2 d sin(%.6g "
                        "deg) = %.6g apart, not more than twice a wheel's reach rho = R "
                        "sqrt(cos^2(pi/n) + sin^2(pi/n) / cos^2(psi)) = %.6g; wheel_distance must "
                        "exceed %.6g (or the wheels must be smaller or further apart in angle)",
                        wi, wj, asin(worst) * 180.0 / M_PI, 2 * v->wheel_distance * worst, rho,
                        rho / worst);
}

static int positive(double x) { return x > 0 && isfinite(x); }

static int finite_n(const double *x, int n) {
  for (int k = 0; k < n; k++)
    if (!isfinite(x[k])) return 0;
  return 1;
}

/* Ranges and finiteness of everything but the wheel (nsed_omni_wheel_check). */
/* The general layout's per-wheel numbers. */
static int check_layout(const nsed_omni_vehicle_def *v, nsed_error *err) {
  for (int i = 0; i < v->wheels; i++) {
    if (v->axles_given && !isfinite(v->axle_angles[i]))
      return nsed_error_set(err, NSED_ERR_INPUT, "axle_angles[%d]: expected a finite angle", i);
    if (v->psi_given && !(fabs(v->wheel_psi[i]) < M_PI / 2))
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "psi[%d]: the roller inclination psi must lie in (-pi/2, pi/2) rad, "
                            "got %.15g", i, v->wheel_psi[i]);
  }
  if (v->positions_given && v->angles_given)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "wheel_angles: the wheels' places are given by wheel_positions; "
                          "wheel_angles would be unused");
  return NSED_OK;
}

static int check_values(const nsed_omni_vehicle_def *v, nsed_error *err) {
  if (v->wheels < 3 || v->wheels > NSED_OMNI_VEHICLE_MAX_WHEELS)
    return nsed_error_set(err, NSED_ERR_INPUT, "wheels: expected an integer in [3, %d], got %d",
                          NSED_OMNI_VEHICLE_MAX_WHEELS, v->wheels);
  if (!positive(v->wheel_distance))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "wheel_distance: expected a positive number, got %.15g",
                          v->wheel_distance);
  if (!positive(v->platform_mass))
    return nsed_error_set(err, NSED_ERR_INPUT, "platform_mass: expected a positive number, got %.15g",
                          v->platform_mass);
  if (!finite_n(v->platform_inertia, 3) || !finite_n(v->position, 2) || !isfinite(v->heading) ||
      !finite_n(v->velocity, 2) || !isfinite(v->spin) || !finite_n(v->floor_velocity, 3) ||
      !isfinite(v->gravity))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "platform_inertia, position, heading, velocity, spin, floor_velocity and "
                          "gravity must be finite");
  if (v->suspended) {
    if (!positive(v->suspension_stiffness))
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "suspension_stiffness: a suspension needs a positive stiffness (force "
                            "per length, per wheel), got %.15g", v->suspension_stiffness);
    if (!isfinite(v->suspension_damping) || !(v->strut_mass >= 0) || !isfinite(v->strut_mass))
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "suspension_damping must be finite and strut_mass finite and >= 0");
  }
  return NSED_OK;
}

/* A rigid platform on four or more wheels is statically indeterminate:
 * rigid-body mechanics does not decide how the weight, and so the friction,
 * is shared among the wheels, and the event problem's answer is one
 * arbitrary vertex of a family (docs/omni-vehicle.md, "More than three
 * wheels"). A sprung strut per wheel decides it, as it does on a real
 * vehicle. */
static int check_determinate(const nsed_omni_vehicle_def *v, nsed_error *err) {
  if (v->wheels <= 3 || v->suspended) return NSED_OK;
  return nsed_error_set(err, NSED_ERR_INPUT,
                        "wheels: a rigid platform on %d wheels is statically indeterminate: "
                        "rigid-body mechanics does not decide how its weight, and so the friction, "
                        "is shared among the wheels; give each wheel a sprung strut with "
                        "omni_vehicle.suspension: {stiffness: K} (docs/omni-vehicle.md)",
                        v->wheels);
}

int nsed_omni_vehicle_check(const nsed_omni_vehicle_def *v, nsed_error *err) {
  int rc = check_values(v, err);
  if (!rc) rc = nsed_omni_wheel_check(&v->wheel, err);
  if (!rc) rc = check_layout(v, err);
  if (!rc) rc = check_determinate(v, err);
  if (!rc) rc = check_angles(v, err);
  if (!rc) rc = check_spacing(v, err);
  return rc;
}

/* ---- geometry and initial motion ---- */

/* The values the definition leaves to defaults, filled in. */
typedef struct {
  nsed_omni_wheel_def wheel[NSED_OMNI_VEHICLE_MAX_WHEELS]; /* each wheel's (its own psi) */
  double place[NSED_OMNI_VEHICLE_MAX_WHEELS][3]; /* wheel centres, platform frame */
  double axle[NSED_OMNI_VEHICLE_MAX_WHEELS][3];  /* axle directions, platform frame */
  double J_platform[3];
  double c_susp, m_strut;
} resolved;

static void resolve(const nsed_omni_vehicle_def *v, resolved *r) {
  double beta[NSED_OMNI_VEHICLE_MAX_WHEELS], reach = 0;
  wheel_angles(v, beta);
  for (int i = 0; i < v->wheels; i++) {
    r->wheel[i] = v->wheel;
    r->wheel[i].psi = wheel_psi(v, i);
    if (v->positions_given)
      nsedi_v3_set(r->place[i], v->wheel_positions[i][0], v->wheel_positions[i][1], 0);
    else
      nsedi_v3_set(r->place[i], v->wheel_distance * cos(beta[i]), v->wheel_distance * sin(beta[i]),
                   0);
    double ang = v->axles_given ? v->axle_angles[i] : atan2(r->place[i][1], r->place[i][0]);
    nsedi_v3_set(r->axle[i], cos(ang), sin(ang), 0);
    reach = fmax(reach, hypot(r->place[i][0], r->place[i][1]));
  }
  /* Strut: a tenth of the hub by default; damping: half the critical
   * damping of the platform's share of mass on one spring. */
  r->m_strut = v->strut_mass > 0 ? v->strut_mass : 0.1 * v->wheel.hub_mass;
  r->c_susp = v->suspension_damping >= 0
                  ? v->suspension_damping
                  : 2 * 0.5 * sqrt(v->suspension_stiffness * v->platform_mass / v->wheels);
  /* A uniform thin disk of radius d (the farthest wheel's distance) about
   * the vertical (body z). */
  nsedi_v3_copy(r->J_platform, v->platform_inertia);
  if (r->J_platform[0] == 0 && r->J_platform[1] == 0 && r->J_platform[2] == 0) {
    double q = 0.25 * v->platform_mass * reach * reach;
    r->J_platform[0] = r->J_platform[1] = q;
    r->J_platform[2] = 2 * q;
  }
}

static void platform_motion(const nsed_omni_vehicle_def *v, nsedi_motion *m) {
  double ch = cos(v->heading), sh = sin(v->heading);
  double x[3] = {ch, sh, 0}, y[3] = {-sh, ch, 0}, z[3] = {0, 0, 1};
  nsedi_v3_set(m->r, v->position[0], v->position[1], v->wheel.radius);
  nsedi_frame_columns(m->R, x, y, z);
  nsedi_v3_set(m->v, v->velocity[0], v->velocity[1], 0);
  nsedi_v3_set(m->w, 0, 0, v->spin);
}

/* Roller 0 touches the floor at the envelope's lowest point Q = C - R z,
 * directly below the hub centre C (the rollers' envelope is the circle of
 * radius R). Rolling without slip: the velocity of roller 0's material
 * point at Q,
 *   v_Q = v_C + w_p x (Q - C) + phidot E x (Q - C) + sigma a0 x (Q - G0),
 * equals the floor's (0, or a belt's velocity): two tangential equations
 * (along the rolling direction z x E and along the axle E) in the hub's
 * spin phidot about E and roller 0's spin sigma about its axis a0 (the
 * normal one holds by construction). For psi = 0 on a floor at rest they
 * decouple: sigma = v_C.E / (R - R1), phidot = -v_C.t / R. h holds the hub's
 * pose and centre velocity. */
static void rolling_spins(const nsed_omni_vehicle_def *v, const nsed_omni_wheel_def *w,
                          const nsedi_motion *pf, const nsedi_motion *h, const double E[3],
                          double *phidot, double *sigma) {
  double z[3] = {0, 0, 1}, l[3], M[9], a0[3], G0[3];
  nsedi_roller_frame(w, 0, l, M);
  double Mx[3] = {M[0], M[3], M[6]};
  nsedi_m3_mulv(a0, h->R, Mx);
  nsedi_m3_mulv(G0, h->R, l);
  nsedi_v3_add(G0, G0, h->r);
  double Q[3], CQ[3], GQ[3], b[3], u1[3], u2[3], t[3];
  nsedi_v3_axpy(Q, h->r, -w->radius, z);
  nsedi_v3_sub(CQ, Q, h->r);
  nsedi_v3_sub(GQ, Q, G0);
  nsedi_v3_cross(b, pf->w, CQ);
  nsedi_v3_add(b, b, h->v);
  nsedi_v3_sub(b, b, v->floor_velocity);
  nsedi_v3_cross(u1, E, CQ);
  nsedi_v3_cross(u2, a0, GQ);
  nsedi_v3_cross(t, z, E);
  double a11 = nsedi_v3_dot(u1, t), a12 = nsedi_v3_dot(u2, t);
  double a21 = nsedi_v3_dot(u1, E), a22 = nsedi_v3_dot(u2, E);
  double r1 = -nsedi_v3_dot(b, t), r2 = -nsedi_v3_dot(b, E);
  double det = a11 * a22 - a12 * a21; /* -R (R - R1) cos(psi): never 0 */
  *phidot = (r1 * a22 - a12 * r2) / det;
  *sigma = (a11 * r2 - a21 * r1) / det;
}

/* Hub i's pose and its spin about the axle, with roller 0's spin sigma
 * about its own axis, for rolling without slip (rolling_spins). */
static void hub_motion(const nsed_omni_vehicle_def *v, const resolved *r, const nsedi_motion *pf,
                       int i, nsedi_motion *h, double *sigma) {
  double z[3] = {0, 0, 1}, E[3], x[3], y[3], off[3];
  nsedi_m3_mulv(E, pf->R, r->axle[i]);
  nsedi_m3_mulv(off, pf->R, r->place[i]);
  nsedi_v3_cross(x, E, z);
  nsedi_v3_scale(y, z, -1.0);
  nsedi_v3_add(h->r, pf->r, off);
  nsedi_frame_columns(h->R, x, y, E);
  nsedi_v3_cross(h->v, pf->w, off);
  nsedi_v3_add(h->v, h->v, pf->v);
  double phidot;
  rolling_spins(v, &r->wheel[i], pf, h, E, &phidot, sigma);
  nsedi_v3_axpy(h->w, pf->w, phidot, E);
}

static void make_platform(const nsed_omni_vehicle_def *v, const resolved *r,
                          const nsedi_motion *pf, nsed_body_def *b) {
  nsed_body_def_default(b);
  snprintf(b->name, sizeof b->name, "platform");
  b->mass = v->platform_mass;
  nsedi_v3_copy(b->inertia, r->J_platform);
  b->shape.type = NSED_SHAPE_NONE;
  nsedi_body_state(b, pf);
}

/* Hub i's axle: on its strut (whose axes are the platform's) if suspended,
 * else on the platform. */
static void make_axle(const nsed_omni_vehicle_def *v, const resolved *r, int i,
                      nsed_joint_def *j) {
  nsed_joint_def_default(j);
  snprintf(j->name, sizeof j->name, "wheel%d_axle", i);
  j->type = NSED_JOINT_REVOLUTE;
  if (v->suspended) {
    snprintf(j->body_a, sizeof j->body_a, "wheel%d_strut", i);
    nsedi_v3_set(j->anchor_a, 0, 0, 0);
  } else {
    snprintf(j->body_a, sizeof j->body_a, "platform");
    nsedi_v3_copy(j->anchor_a, r->place[i]);
  }
  snprintf(j->body_b, sizeof j->body_b, "wheel%d", i);
  nsedi_v3_copy(j->axis_a, r->axle[i]);
  nsedi_v3_set(j->anchor_b, 0, 0, 0);
  nsedi_v3_set(j->axis_b, 0, 0, 1);
  if (v->driven) {
    j->has_torque = 1;
    j->torque = v->drive[i];
  }
}

/* Wheel i's strut: it carries the hub's axle and slides along the
 * platform's z on a spring whose preload holds the platform's share of
 * weight m_platform g / N_w at the initial height (equal shares: exact for
 * wheels whose centroid is the platform's centre, as equally spaced ones or
 * a rectangle's corners). Axes and rotation are
 * the platform's; its centre is the hub's. */
static void make_strut(const nsed_omni_vehicle_def *v, const resolved *r, const nsedi_motion *pf,
                       int i, const nsedi_motion *h, nsed_body_def *b, nsed_joint_def *j) {
  nsed_body_def_default(b);
  snprintf(b->name, sizeof b->name, "wheel%d_strut", i);
  b->mass = r->m_strut;
  /* A solid ball of radius R/4: the strut is small and does not turn. */
  double R = v->wheel.radius;
  double js = 0.4 * r->m_strut * (0.25 * R) * (0.25 * R);
  nsedi_v3_set(b->inertia, js, js, js);
  b->shape.type = NSED_SHAPE_NONE;
  nsedi_motion s = *pf;
  nsedi_v3_copy(s.r, h->r);
  nsedi_v3_copy(s.v, h->v);
  nsedi_body_state(b, &s);

  nsed_joint_def_default(j);
  snprintf(j->name, sizeof j->name, "wheel%d_suspension", i);
  j->type = NSED_JOINT_PRISMATIC;
  snprintf(j->body_a, sizeof j->body_a, "platform");
  snprintf(j->body_b, sizeof j->body_b, "wheel%d_strut", i);
  nsedi_v3_copy(j->anchor_a, r->place[i]);
  nsedi_v3_set(j->axis_a, 0, 0, 1);
  nsedi_v3_set(j->anchor_b, 0, 0, 0);
  nsedi_v3_set(j->axis_b, 0, 0, 1);
  /* f = -k (s - rest) on the strut: at s = 0 it pushes the strut down (and
   * the platform up) with the platform's share of weight. */
  j->spring_k = v->suspension_stiffness;
  j->spring_c = r->c_susp;
  j->rest_length = -v->platform_mass * v->gravity / (v->wheels * v->suspension_stiffness);
}

/* Bodies (and joints) per wheel: the strut if suspended, the hub, the rollers. */
static int wheel_bodies(const nsed_omni_vehicle_def *v) {
  return v->wheel.rollers + 1 + (v->suspended ? 1 : 0);
}

/* Wheel i: its strut (if suspended), hub and rollers into
 * b[0..wheel_bodies), their joints in the same order into j, its contacts
 * into c[0..n-1]. */
static void make_wheel(const nsed_omni_vehicle_def *v, const resolved *r, const nsedi_motion *pf,
                       int i, nsed_body_def *b, nsed_joint_def *j, nsed_contact_def *c) {
  nsedi_motion h;
  double sigma;
  hub_motion(v, r, pf, i, &h, &sigma);
  if (v->suspended) make_strut(v, r, pf, i, &h, b++, j++);
  char hub[NSED_NAME_MAX];
  snprintf(hub, sizeof hub, "wheel%d", i);
  nsedi_omni_hub(&r->wheel[i], &h, hub, &b[0]);
  make_axle(v, r, i, &j[0]);
  /* Only the touching roller turns on its axle; the others move with the hub. */
  for (int k = 0; k < r->wheel[i].rollers; k++) {
    char roller[NSED_NAME_MAX], axle[NSED_NAME_MAX], contact[NSED_NAME_MAX];
    snprintf(roller, sizeof roller, "wheel%d_roller%d", i, k);
    snprintf(axle, sizeof axle, "wheel%d_roller%d_axle", i, k);
    snprintf(contact, sizeof contact, "wheel%d_roller%d_floor", i, k);
    nsedi_omni_roller(&r->wheel[i], k, &h, k == 0 ? sigma : 0.0, hub, roller, axle, contact,
                      &b[1 + k], &j[1 + k], &c[k]);
  }
}

int nsed_omni_vehicle_build(const nsed_omni_vehicle_def *v, nsed_assembly *out, nsed_error *err) {
  memset(out, 0, sizeof *out);
  int rc = nsed_omni_vehicle_check(v, err);
  if (rc) return rc;
  int per = wheel_bodies(v), nw = v->wheels;
  rc = nsedi_assembly_alloc(out, 1 + nw * per, nw * per, 0, nw * v->wheel.rollers, err);
  if (rc) return rc;
  resolved r;
  resolve(v, &r);
  nsedi_motion pf;
  platform_motion(v, &pf);
  make_platform(v, &r, &pf, &out->bodies[0]);
  for (int i = 0; i < nw; i++)
    make_wheel(v, &r, &pf, i, out->bodies + 1 + i * per, out->joints + i * per,
               out->contacts + i * v->wheel.rollers);
  nsedi_assembly_drop_unnamed_joints(out);
  return NSED_OK;
}

int nsed_omni_vehicle_check_options(const nsed_omni_vehicle_def *v, const nsed_options *o,
                                    nsed_error *err) {
  const double *n = o->floor_normal;
  if (!(n[0] == 0 && n[1] == 0 && n[2] > 0))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "floor.normal: the omni vehicle stands on the floor z = 0 with z up: the "
                          "normal must be [0, 0, 1], got [%.15g, %.15g, %.15g]", n[0], n[1], n[2]);
  if (o->floor_point[2] != 0)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "floor.point: the omni vehicle stands on the floor z = 0: the point's z "
                          "must be 0, got %.15g", o->floor_point[2]);
  for (int k = 0; k < 3; k++)
    if (o->floor_velocity[k] != v->floor_velocity[k])
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "floor.velocity: the options' floor velocity is not the definition's "
                            "floor_velocity (the wheels would not start rolling on it)");
  if (o->floor_spin != 0)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "floor.spin: the omni vehicle block starts its wheels rolling on a floor "
                          "that does not turn; got spin %.15g rad/s", o->floor_spin);
  if (o->gravity[2] != -v->gravity)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "gravity: its z component %.15g is not minus the definition's g = %.15g "
                          "(the suspension would not carry the platform)",
                          o->gravity[2], v->gravity);
  return NSED_OK;
}

int nsed_omni_vehicle_add(nsed_model *m, const nsed_omni_vehicle_def *v, nsed_error *err) {
  int rc = nsed_omni_vehicle_check_options(v, nsed_model_options(m), err);
  if (rc) return rc;
  nsed_assembly a;
  rc = nsed_omni_vehicle_build(v, &a, err);
  if (!rc) rc = nsed_assembly_add(m, &a, err);
  nsed_assembly_free(&a);
  return rc;
}
