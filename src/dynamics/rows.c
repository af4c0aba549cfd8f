/* Joint rows (the contacts' are in contact_pairs.c). Notation: for a body with angular velocity w
 * (world), a point at world offset rho from its centre moves with
 * v + w x rho; d.(w x rho) = w.(rho x d) = wb.(R^T (rho x d)), which gives
 * the Jacobian's angular part in body axes. Since dw/dt (world) = R dwb/dt,
 * every second-order term that is not multiplied by an acceleration goes to
 * the row's bias. */
#include <string.h>

#include "math3.h"
#include "nsed/status.h"
#include "row_parts.h"
#include "rows.h"
#include "tolerances.h"

static const nsedi_kin *kin_of(const nsedi_kin *kin, int i) { return i < 0 ? NULL : &kin[i]; }

static const double zero3[3] = {0, 0, 0};
static const double *omega(const nsedi_kin *k) { return k ? k->ww : zero3; }

/* Offset of a body-fixed point (body frame p) from the body's centre, world. */
static void offset(const nsedi_kin *k, const double p[3], double rho[3]) {
  if (k)
    nsedi_m3_mulv(rho, k->R, p);
  else
    nsedi_v3_copy(rho, p);
}
static void centre(const nsedi_kin *k, double c[3]) {
  if (k)
    nsedi_v3_copy(c, k->r);
  else
    nsedi_v3_set(c, 0, 0, 0);
}

/* The two anchor points of a joint: their offsets from the body centres,
 * positions, velocities and centripetal accelerations, computed once per
 * joint and shared by its point and plane rows. */
typedef struct {
  const nsedi_kin *ka, *kb;
  int a, b;
  double rhoa[3], rhob[3], ca[3], PB[3];
  double dP[3], dv[3], da[3]; /* PB - PA and its rates (no angular accelerations) */
} point_pair;

static void point_pair_eval(point_pair *pp, int a, const nsedi_kin *ka, const double pa[3], int b,
                            const nsedi_kin *kb, const double pb[3]) {
  double cb[3], PA[3], va[3], vb[3], aa[3], ab[3];
  pp->ka = ka;
  pp->kb = kb;
  pp->a = a;
  pp->b = b;
  offset(ka, pa, pp->rhoa);
  offset(kb, pb, pp->rhob);
  centre(ka, pp->ca);
  centre(kb, cb);
  nsedi_v3_add(PA, pp->ca, pp->rhoa);
  nsedi_v3_add(pp->PB, cb, pp->rhob);
  point_motion(ka, pp->rhoa, va, aa);
  point_motion(kb, pp->rhob, vb, ab);
  nsedi_v3_sub(pp->dP, pp->PB, PA);
  nsedi_v3_sub(pp->dv, vb, va);
  nsedi_v3_sub(pp->da, ab, aa);
}

/* phi = d . (PB - PA) for a constant world direction d. */
static void row_point(nsedi_row *r, const point_pair *pp, const double d[3]) {
  row_init(r, pp->a, pp->b);
  side_point(r->ja, pp->ka, pp->rhoa, d, -1);
  side_point(r->jb, pp->kb, pp->rhob, d, +1);
  r->pos = nsedi_v3_dot(d, pp->dP);
  r->vel = nsedi_v3_dot(d, pp->dv);
  r->bias = nsedi_v3_dot(d, pp->da);
}

/* phi = dA . dB for body-fixed directions (world values dA, dB).
 * dphi/dt = (wA - wB) . (dA x dB). */
static void row_perp(nsedi_row *r, int a, const nsedi_kin *ka, const double dA[3], int b,
                     const nsedi_kin *kb, const double dB[3]) {
  row_init(r, a, b);
  double c[3];
  nsedi_v3_cross(c, dA, dB);
  side_rot(r->ja, ka, c, +1);
  side_rot(r->jb, kb, c, -1);
  const double *wa = omega(ka), *wb = omega(kb);
  double dw[3], dAd[3], dBd[3], t1[3], t2[3], cd[3];
  nsedi_v3_sub(dw, wa, wb);
  nsedi_v3_cross(dAd, wa, dA);
  nsedi_v3_cross(dBd, wb, dB);
  nsedi_v3_cross(t1, dAd, dB);
  nsedi_v3_cross(t2, dA, dBd);
  nsedi_v3_add(cd, t1, t2);
  r->pos = nsedi_v3_dot(dA, dB);
  r->vel = nsedi_v3_dot(dw, c);
  r->bias = nsedi_v3_dot(dw, cd);
}

/* phi = n . (PB - PA) with n fixed in body A (world value n). */
static void row_plane(nsedi_row *r, const point_pair *pp, const double n[3]) {
  row_init(r, pp->a, pp->b);
  const nsedi_kin *ka = pp->ka;
  /* A: -n at its centre velocity, angular part n x (PB - cA). */
  if (ka) {
    double pbca[3], c[3];
    for (int i = 0; i < 3; i++) r->ja[i] -= n[i];
    nsedi_v3_sub(pbca, pp->PB, pp->ca);
    nsedi_v3_cross(c, n, pbca);
    side_rot(r->ja, ka, c, +1);
  }
  side_point(r->jb, pp->kb, pp->rhob, n, +1);
  const double *wa = omega(ka);
  double nd[3], ndd[3];
  nsedi_v3_cross(nd, wa, n);
  nsedi_v3_cross(ndd, wa, nd);
  r->pos = nsedi_v3_dot(n, pp->dP);
  r->vel = nsedi_v3_dot(n, pp->dv) + nsedi_v3_dot(nd, pp->dP);
  r->bias = nsedi_v3_dot(ndd, pp->dP) + 2 * nsedi_v3_dot(nd, pp->dv) + nsedi_v3_dot(n, pp->da);
}

/* Relative rotation angle of B about A's axis: phi = angle - target(t),
 * velocity (wB - wA) . axis. At acceleration level the servo's feedback
 * joins the bias, so J du + bias = 0 is seed 002's servo law. */
static void row_angle(nsedi_row *r, int a, const nsedi_kin *ka, const double axis[3],
                      const double pa1[3], int b, const nsedi_kin *kb, const double pb1[3],
                      const nsed_joint_def *d, double t) {
  const nsed_law *target = &d->servo_angle;
  row_init(r, a, b);
  side_rot(r->ja, ka, axis, -1);
  side_rot(r->jb, kb, axis, +1);
  double c[3], tgt[3];
  nsedi_v3_cross(c, pa1, pb1);
  double ang = atan2(nsedi_v3_dot(c, axis), nsedi_v3_dot(pa1, pb1));
  nsedi_law_derivs(target, t, tgt);
  double err = ang - tgt[0];
  err = remainder(err, 2 * M_PI); /* the servo's error is the shortest turn */
  const double *wa = omega(ka), *wb = omega(kb);
  double dw[3], ad[3];
  nsedi_v3_sub(dw, wb, wa);
  nsedi_v3_cross(ad, wa, axis);
  r->pos = err;
  r->vel = nsedi_v3_dot(dw, axis) - tgt[1];
  r->bias = nsedi_v3_dot(dw, ad) - tgt[2];
  if (d->servo_level == NSED_SERVO_ACCELERATION) {
    r->own_feedback = 1;
    r->bias += d->servo_kd * r->vel + d->servo_kp * r->pos;
  }
}

int nsedi_joint_rows(const nsed_model *m, int j, const nsedi_kin *kin, double t, nsedi_row *rows) {
  const nsedi_joint *J = &m->joint[j];
  const nsed_joint_def *d = &J->def;
  int a = J->a, b = J->b;
  const nsedi_kin *ka = kin_of(kin, a), *kb = kin_of(kin, b);
  static const double ex[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  /* Only the directions this joint's rows use are turned into the world
   * (a right-hand side builds every joint's rows). */
  nsed_joint_type ty = d->type;
  double axa[3], p1[3], p2[3], axb[3], q1[3], q2[3];
  if (ty == NSED_JOINT_UNIVERSAL || ty == NSED_JOINT_SERVO) nsedi_kin_dir(ka, d->axis_a, axa);
  if (ty == NSED_JOINT_REVOLUTE || ty == NSED_JOINT_CYLINDRICAL || ty == NSED_JOINT_PRISMATIC ||
      ty == NSED_JOINT_WELD || ty == NSED_JOINT_SERVO) {
    nsedi_kin_dir(ka, J->pa1, p1);
    nsedi_kin_dir(ka, J->pa2, p2);
  }
  if (ty != NSED_JOINT_SPHERICAL) nsedi_kin_dir(kb, d->axis_b, axb);
  if (ty == NSED_JOINT_SERVO) nsedi_kin_dir(kb, J->pb1, q1);
  if (ty == NSED_JOINT_PRISMATIC || ty == NSED_JOINT_WELD) nsedi_kin_dir(kb, J->pb2, q2);
  int n = 0;
  point_pair pp;
  switch (d->type) {
    case NSED_JOINT_SPHERICAL:
    case NSED_JOINT_REVOLUTE:
    case NSED_JOINT_UNIVERSAL:
    case NSED_JOINT_WELD:
    case NSED_JOINT_SERVO:
      point_pair_eval(&pp, a, ka, d->anchor_a, b, kb, d->anchor_b);
      for (int k = 0; k < 3; k++) row_point(&rows[n++], &pp, ex[k]);
      break;
    case NSED_JOINT_CYLINDRICAL:
    case NSED_JOINT_PRISMATIC:
      point_pair_eval(&pp, a, ka, d->anchor_a, b, kb, d->anchor_b);
      row_plane(&rows[n++], &pp, p1);
      row_plane(&rows[n++], &pp, p2);
      break;
    case NSED_JOINT_ALIGN:
      break;
  }
  switch (d->type) {
    case NSED_JOINT_REVOLUTE:
    case NSED_JOINT_CYLINDRICAL:
    case NSED_JOINT_SERVO:
      row_perp(&rows[n++], a, ka, p1, b, kb, axb);
      row_perp(&rows[n++], a, ka, p2, b, kb, axb);
      break;
    case NSED_JOINT_PRISMATIC:
    case NSED_JOINT_WELD:
      row_perp(&rows[n++], a, ka, p1, b, kb, axb);
      row_perp(&rows[n++], a, ka, p2, b, kb, axb);
      row_perp(&rows[n++], a, ka, p1, b, kb, q2);
      break;
    case NSED_JOINT_UNIVERSAL:
      row_perp(&rows[n++], a, ka, axa, b, kb, axb);
      break;
    case NSED_JOINT_ALIGN: {
      /* k . n_A = 0 with n_A the floor normal (fixed in the world). */
      row_perp(&rows[n++], NSEDI_GROUND, NULL, m->opt.floor_normal, b, kb, axb);
      break;
    }
    default:
      break;
  }
  if (d->type == NSED_JOINT_SERVO)
    row_angle(&rows[n++], a, ka, axa, p1, b, kb, q1, d, t);
  if (m->nrotor > 0)
    for (int k = 0; k < n; k++) row_rotor_bias(&rows[k], kin);
  return n;
}
