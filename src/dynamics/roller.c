/* Roller/floor contact point by the three tracking algorithms. All three
 * find the same point on an exact configuration: the lowest point of the
 * surface of revolution lies in the vertical plane through the roller's
 * axis i, at the profile parameter q with sin(q) cos(psi) = -n.i (the
 * profile's slope there matches the axis tilt). They differ in what they
 * trust: the roller's own axis (explicit), the wheel's centre and axis
 * (implicit), or integrated surface coordinates (differential). */
#include "roller.h"

#include <math.h>

#include "math3.h"
#include "tolerances.h"

/* e = u / |u| and its rate from u's rate ud; returns |u|. */
static double unit_rate(const double u[3], const double ud[3], double e[3], double ed[3]) {
  double un = nsedi_v3_norm(u);
  nsedi_v3_scale(e, u, 1.0 / un);
  double eud = nsedi_v3_dot(e, ud);
  for (int k = 0; k < 3; k++) ed[k] = (ud[k] - e[k] * eud) / un;
  return un;
}

/* Unit vector e along -n across the axis i, and its rate, given c = n.i. */
static void across(const double n[3], const double i[3], const double id[3], double c, double cd,
                   double e[3], double ed[3]) {
  double u[3], ud[3];
  for (int k = 0; k < 3; k++) {
    u[k] = -n[k] + c * i[k];
    ud[k] = cd * i[k] + c * id[k];
  }
  unit_rate(u, ud, e, ed);
}

/* The lower tip, a material point of the roller. */
static void tip_point(const nsed_shape *s, const nsedi_kin *k, const double i[3], double c,
                      nsedi_roller_point *out) {
  double xt = (c > 0 ? -1.0 : 1.0) * nsedi_roller_half_length(s);
  nsedi_v3_scale(out->rho, i, xt);
  nsedi_v3_cross(out->rho_dot, k->ww, out->rho);
}

static void explicit_point(const nsed_shape *s, const double n[3], const double i[3],
                           const double id[3], double c, double cd, nsedi_roller_point *out) {
  double cp = cos(s->psi), q = asin(-c / cp), x, r, dx, dr, e[3], ed[3];
  double qd = -cd / (cp * cos(q));
  nsedi_roller_profile(s, q, &x, &r, &dx, &dr);
  across(n, i, id, c, cd, e, ed);
  for (int k = 0; k < 3; k++) {
    out->rho[k] = x * i[k] + r * e[k];
    out->rho_dot[k] = dx * qd * i[k] + x * id[k] + dr * qd * e[k] + r * ed[k];
  }
}

/* v turned about the unit axis i by the angle whose cosine and sine are
 * cp, sp (Rodrigues), and the rate of the turned vector from v's rate vd
 * and i's rate id at a fixed angle (the angle's own rate adds
 * phd (i x out)). */
static void turn(const double i[3], const double id[3], double cp, double sp, const double v[3],
                 const double vd[3], double out[3], double part[3]) {
  double iv = nsedi_v3_dot(i, v), ivd = nsedi_v3_dot(id, v) + nsedi_v3_dot(i, vd);
  double ixv[3], ixvd[3], idxv[3];
  nsedi_v3_cross(ixv, i, v);
  nsedi_v3_cross(ixvd, i, vd);
  nsedi_v3_cross(idxv, id, v);
  for (int k = 0; k < 3; k++) {
    out[k] = v[k] * cp + ixv[k] * sp + i[k] * iv * (1 - cp);
    part[k] = vd[k] * cp + (ixvd[k] + idxv[k]) * sp + (id[k] * iv + i[k] * ivd) * (1 - cp);
  }
}

/* The angle nearest zero that turns k1 about i into the floor's plane:
 * A cos phi + B sin phi = -(k1.i)(n.i), A = k1.n - (k1.i)(n.i),
 * B = (i x k1).n. Returns 0 if there is none. */
static int level_angle(const double i[3], const double k1[3], const double n[3], double *phi) {
  double s = nsedi_v3_dot(k1, i), c = nsedi_v3_dot(n, i), ixk[3];
  nsedi_v3_cross(ixk, i, k1);
  double A = nsedi_v3_dot(k1, n) - s * c, B = nsedi_v3_dot(ixk, n), r = hypot(A, B);
  if (!(r > 0) || fabs(s * c) > r) return 0;
  double beta = atan2(B, A), gamma = acos(-s * c / r);
  double p1 = remainder(beta + gamma, 2 * M_PI), p2 = remainder(beta - gamma, 2 * M_PI);
  *phi = fabs(p1) < fabs(p2) ? p1 : p2;
  return 1;
}

/* Seed 000 §5.1: from the wheel centre O_A straight down by R, then along
 * the wheel axis k1 by mu into the vertical plane of the roller's axis
 * (k2 its normal): r_P = r_B + R1 rho - R n + mu k1, mu = -R1 rho.k2 / k1.k2
 * (n.k2 = 0). That holds for an upright wheel (k1 in the floor's plane);
 * a roller is a surface of revolution about its axis i, so the wheel's
 * centre and axis are first turned about i until k1 is level, which moves
 * neither the roller's surface nor its lowest point. Without that turn a
 * wheel tilted by eps puts the point off the roller's lowest point by
 * O(eps R) along the floor where psi != 0 (docs/rollers.md, "Contact
 * tracking"). Valid for a roller in the lower half of its wheel. */
static int implicit_point(const nsed_model *m, const nsedi_contact *C, const nsedi_kin *kin,
                          const double n[3], const double i[3], const double id[3],
                          nsedi_roller_point *out) {
  const nsedi_kin *kr = &kin[C->body], *kw = &kin[C->wheel];
  const nsed_shape *s = &m->body[C->body].def.shape;
  double R = s->radius, R1 = R * cos(M_PI / s->rollers);
  double D[3], Dv[3], rho0[3], rhod0[3], k10[3], k1d0[3], phi;
  nsedi_v3_sub(D, kw->r, kr->r);
  nsedi_v3_sub(Dv, kw->v, kr->v);
  unit_rate(D, Dv, rho0, rhod0);
  nsedi_kin_dir(kw, C->wheel_axis, k10);
  nsedi_v3_cross(k1d0, kw->ww, k10);
  if (!level_angle(i, k10, n, &phi)) return 0;
  double cp = cos(phi), sp = sin(phi), rho[3], rhod[3], k1[3], k1d[3], ixk[3], ixr[3];
  turn(i, id, cp, sp, rho0, rhod0, rho, rhod);
  turn(i, id, cp, sp, k10, k1d0, k1, k1d);
  if (nsedi_v3_dot(rho, n) <= 0) return 0;
  /* k1 stays level: (k1d + phid (i x k1)).n = 0 */
  nsedi_v3_cross(ixk, i, k1);
  nsedi_v3_cross(ixr, i, rho);
  double phid = -nsedi_v3_dot(k1d, n) / nsedi_v3_dot(ixk, n);
  nsedi_v3_axpy(k1d, k1d, phid, ixk);
  nsedi_v3_axpy(rhod, rhod, phid, ixr);
  double w[3], wd[3], k2[3], k2d[3];
  nsedi_v3_cross(w, i, n);
  nsedi_v3_cross(wd, id, n);
  unit_rate(w, wd, k2, k2d);
  double a = nsedi_v3_dot(rho, k2), b = nsedi_v3_dot(k1, k2);
  double ad = nsedi_v3_dot(rhod, k2) + nsedi_v3_dot(rho, k2d);
  double bd = nsedi_v3_dot(k1d, k2) + nsedi_v3_dot(k1, k2d);
  double mu = -R1 * a / b, mud = -R1 * (ad * b - a * bd) / (b * b);
  for (int k = 0; k < 3; k++) {
    out->rho[k] = R1 * rho[k] - R * n[k] + mu * k1[k];
    out->rho_dot[k] = R1 * rhod[k] + mud * k1[k] + mu * k1d[k];
  }
  return 1;
}

/* Seed 000 eqs. 7-8 for a plane: the contact point's surface coordinates
 * (q, phi), p_b = (x(q), r(q) cos phi, r(q) sin phi) in roller axes, are
 * states whose rates keep the two tangency conditions sin(q) cos(psi) +
 * n_b.e_x = 0 and n_b.(0, -sin phi, cos phi) = 0 satisfied to first order;
 * nothing pulls them back if they drift. */
static void differential_point(const nsed_shape *s, const nsedi_kin *k, const double n[3],
                               const double *xt, nsedi_roller_point *out) {
  double q = xt[0], ph = xt[1], x, r, dx, dr, nb[3], nbd[3];
  nsedi_roller_profile(s, q, &x, &r, &dx, &dr);
  double wm[3]; /* angular velocity in the roller's material axes */
  nsedi_m3_mulTv(nb, k->R, n);
  nsedi_m3_mulTv(wm, k->R, k->ww);
  nsedi_v3_cross(nbd, nb, wm); /* d(R^T n)/dt = -wm x nb */
  double cph = cos(ph), sph = sin(ph);
  double qd = -nbd[0] / (cos(s->psi) * cos(q));
  double den = nb[1] * cph + nb[2] * sph;
  double phd = (-nbd[1] * sph + nbd[2] * cph) / den;
  double pb[3] = {x, r * cph, r * sph};
  double pbd[3] = {dx * qd, dr * qd * cph - r * sph * phd, dr * qd * sph + r * cph * phd};
  double wr[3], vr[3];
  nsedi_m3_mulv(out->rho, k->R, pb);
  nsedi_m3_mulv(vr, k->R, pbd);
  nsedi_v3_cross(wr, k->ww, out->rho);
  nsedi_v3_add(out->rho_dot, vr, wr);
  out->rate[0] = qd;
  out->rate[1] = phd;
}

void nsedi_roller_point_eval(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                             int side, const double n[3], nsedi_roller_point *out) {
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  const nsed_shape *s = &m->body[C->body].def.shape;
  double ex[3] = {1, 0, 0}, i[3], id[3];
  nsedi_kin_dir(k, ex, i);
  nsedi_v3_cross(id, k->ww, i);
  double c0 = nsedi_v3_dot(n, i), cd = nsedi_v3_dot(n, id);
  out->rate[0] = out->rate[1] = 0;
  out->region_rate = 0;
  out->leaving = out->at_tip = 0;
  /* Condition 4 of seed 001 (with the inclination): the lowest point is on
   * the smooth surface while the axis tilts by at most asin(cos psi sin alpha). */
  out->region = cos(s->psi) * sin(M_PI / s->rollers) - fabs(c0);
  /* On the boundary the tip and the surface share the point but not its
   * motion; an event located there (a handover: the outgoing roller
   * reaches its tip exactly as the next one arrives tip first) must see
   * each roller on the side it is moving to, or the two contacts look
   * identical to the event problem. A roller moving onto its surface takes
   * that side from twice the band below the boundary: the outgoing roller,
   * whose indicator is the mirror image, takes its tip side on entering
   * the band, where its normal force may turn negative and fire an event
   * before its region root; the incoming roller is on its surface there
   * already (docs/rollers.md, "Handovers are events"). */
  /* A smooth phase names the side (its phase's, continued past the
   * boundary up to the region root that ends the phase); an event does not. */
  double rate = c0 > 0 ? -cd : cd, band = NSEDI_ROLLER_REGION_BAND;
  int tip = side ? side < 0
                 : rate > 0 ? out->region < -2 * band : rate < 0 ? out->region <= band : out->region < 0;
  out->region_rate = rate;
  out->leaving = tip && rate < 0;
  out->at_tip = tip;
  if (tip) {
    /* Live tracking states reach the tip side only inside the band before
     * their region root (the event there ends them) and in trial steps
     * past it: they keep following the surface's lowest point, continued
     * analytically, so that they are consistent wherever the band is left
     * and the step's dense output is smooth up to the root (docs/rollers.md,
     * "Tracking across the band"). */
    if (C->tracking == NSED_TRACKING_DIFFERENTIAL && xtrack) differential_point(s, k, n, xtrack, out);
    tip_point(s, k, i, c0, out);
    return;
  }
  switch (C->tracking) {
    case NSED_TRACKING_IMPLICIT:
      if (implicit_point(m, C, kin, n, i, id, out)) return;
      break; /* the upper half of the wheel: far from the floor, explicit */
    case NSED_TRACKING_DIFFERENTIAL:
      if (!xtrack) break;
      differential_point(s, k, n, xtrack, out);
      return;
    default:
      break;
  }
  explicit_point(s, n, i, id, c0, cd, out);
}

double nsedi_roller_track_residual(const nsed_model *m, int c, const nsedi_kin *kin,
                                   const double xtrack[2]) {
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  const nsed_shape *s = &m->body[C->body].def.shape;
  double q = xtrack[0], ph = xtrack[1], nb[3];
  /* The region indicator in q's terms (where the tangency holds, cos psi
   * sin q = -n.i): the states follow the surface across the band. */
  double past = cos(s->psi) * (fabs(sin(q)) - sin(M_PI / s->rollers));
  if (!(past <= 2 * NSEDI_ROLLER_REGION_BAND + NSEDI_ROLLER_PROFILE_MARGIN)) return INFINITY;
  nsedi_m3_mulTv(nb, k->R, m->opt.floor_normal);
  double r1 = sin(q) * cos(s->psi) + nb[0], r2 = -nb[1] * sin(ph) + nb[2] * cos(ph);
  return fmax(fabs(r1), fabs(r2));
}

void nsedi_roller_track_init(const nsed_model *m, int c, const nsedi_kin *kin, double xtrack[2]) {
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  const nsed_shape *s = &m->body[C->body].def.shape;
  const double *n = m->opt.floor_normal;
  double ex[3] = {1, 0, 0}, i[3], zero[3] = {0, 0, 0}, e[3], ed[3], eb[3];
  nsedi_kin_dir(k, ex, i);
  /* Not clamped to the profile's end: a roller closing inside the region
   * band starts past it by up to 2 band, on the surface's analytic
   * continuation (as explicit_point evaluates it), so that the tangency
   * residual starts at round-off. */
  double c0 = nsedi_v3_dot(n, i);
  double sq = fmax(-1.0, fmin(1.0, -c0 / cos(s->psi)));
  xtrack[0] = asin(sq);
  xtrack[1] = 0;
  if (fabs(c0) < 1 - NSEDI_ROLLER_AXIS_PARALLEL) {
    across(n, i, zero, c0, 0, e, ed);
    nsedi_m3_mulTv(eb, k->R, e);
    xtrack[1] = atan2(eb[2], eb[1]);
  }
}
