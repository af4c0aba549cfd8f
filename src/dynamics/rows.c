/* Joint and contact rows. Notation: for a body with angular velocity w
 * (world), a point at world offset rho from its centre moves with
 * v + w x rho; d.(w x rho) = w.(rho x d) = wb.(R^T (rho x d)), which gives
 * the Jacobian's angular part in body axes. Since dw/dt (world) = R dwb/dt,
 * every second-order term that is not multiplied by an acceleration goes to
 * the row's bias. */
#include <string.h>

#include "math3.h"
#include "nsed/status.h"
#include "roller.h"
#include "rows.h"
#include "tolerances.h"

static const nsedi_kin *kin_of(const nsedi_kin *kin, int i) { return i < 0 ? NULL : &kin[i]; }

static void row_init(nsedi_row *r, int a, int b) {
  memset(r, 0, sizeof *r);
  r->a = a;
  r->b = b;
}

/* j += sign * d(d . v_point)/du for the point at world offset rho. */
static void side_point(double j[6], const nsedi_kin *k, const double rho[3], const double d[3],
                       double sign) {
  if (!k) return;
  double c[3], cb[3];
  nsedi_v3_cross(c, rho, d);
  nsedi_m3_mulTv(cb, k->R, c);
  for (int i = 0; i < 3; i++) {
    j[i] += sign * d[i];
    j[3 + i] += sign * cb[i];
  }
}

/* j += sign * d(c . w_world)/du. */
static void side_rot(double j[6], const nsedi_kin *k, const double c[3], double sign) {
  if (!k) return;
  double cb[3];
  nsedi_m3_mulTv(cb, k->R, c);
  for (int i = 0; i < 3; i++) j[3 + i] += sign * cb[i];
}

/* Velocity of a material point at world offset rho, and its acceleration
 * bias w x (w x rho). Ground: zero. */
static void point_motion(const nsedi_kin *k, const double rho[3], double vel[3], double acc[3]) {
  if (!k) {
    nsedi_v3_set(vel, 0, 0, 0);
    nsedi_v3_set(acc, 0, 0, 0);
    return;
  }
  double wr[3];
  nsedi_v3_cross(wr, k->ww, rho);
  nsedi_v3_add(vel, k->v, wr);
  nsedi_v3_cross(acc, k->ww, wr);
}

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
  double axa[3], p1[3], p2[3], axb[3], q1[3], q2[3];
  nsedi_kin_dir(ka, d->axis_a, axa);
  nsedi_kin_dir(ka, J->pa1, p1);
  nsedi_kin_dir(ka, J->pa2, p2);
  nsedi_kin_dir(kb, d->axis_b, axb);
  nsedi_kin_dir(kb, J->pb1, q1);
  nsedi_kin_dir(kb, J->pb2, q2);
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
  return n;
}

/* Contact rows for a body point at world offset rho whose geometric contact
 * point moves with rho_dot relative to the body's centre, against the floor:
 * a plane that translates tangentially (a belt) and may turn about its
 * normal through floor_point (a turntable, constant rate). */
static void contact_rows_floor(const nsed_options *o, nsedi_contact_geom *g, int body,
                               const nsedi_kin *k, const double rho[3], const double rho_dot[3]) {
  const double *dirs[3] = {g->n, g->t1, g->t2};
  double vp[3], ap[3], wrd[3], arm[3], spin_v[3], pdot[3], spin_a[3];
  point_motion(k, rho, vp, ap);
  nsedi_v3_cross(wrd, k->ww, rho_dot);
  /* The surface under the contact point moves with vs = v_belt + W n x (p - c);
   * following the contact point p (pdot = v + rho_dot), the row sees it
   * change at dvs/dt = W n x pdot. */
  nsedi_v3_sub(arm, g->p, o->floor_point);
  nsedi_v3_cross(spin_v, g->n, arm);
  nsedi_v3_axpy(g->surface_v, o->floor_velocity, o->floor_spin, spin_v);
  nsedi_v3_add(pdot, k->v, rho_dot);
  nsedi_v3_cross(spin_a, g->n, pdot);
  nsedi_v3_scale(spin_a, spin_a, o->floor_spin);
  for (int i = 0; i < 3; i++) {
    nsedi_row *r = &g->row[i];
    row_init(r, body, NSEDI_GROUND);
    side_point(r->ja, k, rho, dirs[i], +1);
    double rel[3];
    nsedi_v3_sub(rel, vp, g->surface_v);
    r->vel = nsedi_v3_dot(dirs[i], rel);
    /* d/dt (v + w x rho(t)) = dv + dw x rho + w x rho_dot: the contact
     * point slides over the body surface (rolling), hence rho_dot, not w x rho. */
    r->bias = nsedi_v3_dot(dirs[i], wrd) - nsedi_v3_dot(dirs[i], spin_a);
  }
  g->row[0].pos = g->gap;
  row_init(&g->spin, body, NSEDI_GROUND);
  side_rot(g->spin.ja, k, g->n, +1);
  g->spin.vel = nsedi_v3_dot(g->n, k->ww) - o->floor_spin;
}

int nsedi_contact_eval(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                       nsedi_contact_geom *g) {
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  const nsed_shape *s = &m->body[C->body].def.shape;
  const nsed_options *o = &m->opt;
  memset(g, 0, sizeof *g);
  g->region = 1.0;
  if (C->other == NSEDI_GROUND) {
    nsedi_v3_copy(g->n, o->floor_normal);
    nsedi_v3_tangents(g->t1, g->t2, g->n);
    double rho[3], rho_dot[3] = {0, 0, 0};
    g->region = 1.0;
    if (s->type == NSED_SHAPE_ROLLER) {
      nsedi_roller_point rp;
      nsedi_roller_point_eval(m, c, kin, xtrack, g->n, &rp);
      nsedi_v3_copy(rho, rp.rho);
      nsedi_v3_copy(rho_dot, rp.rho_dot);
      g->region = rp.region;
      g->leaving = rp.leaving;
      g->track_rate[0] = rp.rate[0];
      g->track_rate[1] = rp.rate[1];
    } else if (s->type == NSED_SHAPE_DISK) {
      /* Lowest rim point: e = unit part of -n perpendicular to the axis k. */
      double kz[3] = {0, 0, 1}, kw[3], kd[3], u[3], ud[3], e[3], ed[3];
      nsedi_kin_dir(k, kz, kw);
      nsedi_v3_cross(kd, k->ww, kw);
      double nk = nsedi_v3_dot(g->n, kw), nkd = nsedi_v3_dot(g->n, kd);
      for (int i = 0; i < 3; i++) {
        u[i] = -g->n[i] + nk * kw[i];
        ud[i] = nkd * kw[i] + nk * kd[i];
      }
      double un = nsedi_v3_norm(u);
      if (un < NSEDI_DISK_FLAT) {
        /* Lying flat: every rim point is lowest, the rim contact is
         * undefined. The gap is still the rim's height, so an open disk
         * falling flat is caught when it reaches the floor. */
        double d0[3];
        nsedi_v3_copy(g->p, k->r);
        nsedi_v3_sub(d0, k->r, o->floor_point);
        g->gap = nsedi_v3_dot(g->n, d0);
        return NSED_ERR_EVENT;
      }
      nsedi_v3_scale(e, u, 1.0 / un);
      double eud = nsedi_v3_dot(e, ud);
      for (int i = 0; i < 3; i++) ed[i] = (ud[i] - e[i] * eud) / un;
      nsedi_v3_scale(rho, e, s->radius);
      nsedi_v3_scale(rho_dot, ed, s->radius);
    } else {
      double r = s->type == NSED_SHAPE_SPHERE ? s->radius : 0.0;
      nsedi_v3_scale(rho, g->n, -r);
    }
    nsedi_v3_add(g->p, k->r, rho);
    double d[3];
    nsedi_v3_sub(d, g->p, o->floor_point);
    g->gap = nsedi_v3_dot(g->n, d);
    contact_rows_floor(o, g, C->body, k, rho, rho_dot);
    return NSED_OK;
  }
  /* Sphere A (the contact's body) against sphere B: n from B's centre to A's. */
  const nsedi_kin *kb = &kin[C->other];
  double ra = s->radius, rb = m->body[C->other].def.shape.radius;
  double D[3], Dv[3];
  nsedi_v3_sub(D, k->r, kb->r);
  nsedi_v3_sub(Dv, k->v, kb->v);
  double L = nsedi_v3_norm(D);
  if (L < NSEDI_SPHERE_COINCIDENT) return NSED_ERR_EVENT;
  nsedi_v3_scale(g->n, D, 1.0 / L);
  g->gap = L - ra - rb;
  nsedi_v3_tangents(g->t1, g->t2, g->n);
  double nd[3];
  nsedi_v3_axpy(nd, Dv, -nsedi_v3_dot(g->n, Dv), g->n);
  nsedi_v3_scale(nd, nd, 1.0 / L);
  /* Derivatives of the tangents follow the deterministic rule of
   * nsedi_v3_tangents: t1 = unit(a - (a.n) n), t2 = n x t1. */
  double a[3] = {1, 0, 0};
  if (fabs(g->n[0]) > NSEDI_TANGENT_SWITCH) nsedi_v3_set(a, 0, 1, 0);
  double an = nsedi_v3_dot(a, g->n), and_ = nsedi_v3_dot(a, nd), p[3], pd[3];
  for (int i = 0; i < 3; i++) {
    p[i] = a[i] - an * g->n[i];
    pd[i] = -and_ * g->n[i] - an * nd[i];
  }
  double pn = nsedi_v3_norm(p), t1d[3], t2d[3], x1[3], x2[3];
  double tp = nsedi_v3_dot(g->t1, pd);
  for (int i = 0; i < 3; i++) t1d[i] = (pd[i] - g->t1[i] * tp) / pn;
  nsedi_v3_cross(x1, nd, g->t1);
  nsedi_v3_cross(x2, g->n, t1d);
  nsedi_v3_add(t2d, x1, x2);
  double rhoa[3], rhob[3], rhoad[3], rhobd[3];
  nsedi_v3_scale(rhoa, g->n, -ra);
  nsedi_v3_scale(rhob, g->n, rb);
  nsedi_v3_scale(rhoad, nd, -ra);
  nsedi_v3_scale(rhobd, nd, rb);
  nsedi_v3_add(g->p, k->r, rhoa);
  double va[3], vb[3], aa[3], ab[3], rel[3], wa[3], wb[3], relb[3];
  point_motion(k, rhoa, va, aa);
  point_motion(kb, rhob, vb, ab);
  nsedi_v3_sub(rel, va, vb);
  nsedi_v3_cross(wa, k->ww, rhoad);
  nsedi_v3_cross(wb, kb->ww, rhobd);
  nsedi_v3_sub(relb, wa, wb);
  const double *dirs[3] = {g->n, g->t1, g->t2};
  const double *ddirs[3] = {nd, t1d, t2d};
  for (int i = 0; i < 3; i++) {
    nsedi_row *r = &g->row[i];
    row_init(r, C->body, C->other);
    side_point(r->ja, k, rhoa, dirs[i], +1);
    side_point(r->jb, kb, rhob, dirs[i], -1);
    r->vel = nsedi_v3_dot(dirs[i], rel);
    r->bias = nsedi_v3_dot(ddirs[i], rel) + nsedi_v3_dot(dirs[i], relb);
  }
  g->row[0].pos = g->gap;
  row_init(&g->spin, C->body, C->other);
  side_rot(g->spin.ja, k, g->n, +1);
  side_rot(g->spin.jb, kb, g->n, -1);
  g->spin.vel = nsedi_v3_dot(g->n, k->ww) - nsedi_v3_dot(g->n, kb->ww);
  return NSED_OK;
}
