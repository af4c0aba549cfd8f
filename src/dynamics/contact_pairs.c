/* Contact geometry, one function per surface pair behind a dispatch table
 * (after MuJoCo's collision table): each fills the same frame, gap, rows
 * and spin row of nsedi_contact_geom. A contact's pair is chosen when it
 * is added to the model (model.c, resolve_pair). Derivations:
 * docs/engine.md ("Contacts") and docs/rollers.md. */
#include <math.h>
#include <string.h>

#include "attached.h"
#include "ellipsoid_point.h"
#include "math3.h"
#include "nsed/status.h"
#include "roller.h"
#include "row_parts.h"
#include "superellipsoid.h"
#include "tolerances.h"

/* Rows for a body point at world offset rho whose geometric contact point
 * moves with rho_dot relative to the body's centre, against a plane that
 * translates tangentially (a belt) and may turn about its normal through
 * its point (the floor as a turntable, constant rate). */
static void plane_rows(const nsedi_plane *pl, nsedi_contact_geom *g, int body, const nsedi_kin *k,
                       const double rho[3], const double rho_dot[3]) {
  const double *dirs[3] = {g->n, g->t1, g->t2};
  double vp[3], ap[3], wrd[3], arm[3], spin_v[3], pdot[3], spin_a[3];
  point_motion(k, rho, vp, ap);
  nsedi_v3_cross(wrd, k->ww, rho_dot);
  /* The surface under the contact point moves with vs = v_belt + W n x (p - c);
   * following the contact point p (pdot = v + rho_dot), the row sees it
   * change at dvs/dt = W n x pdot. */
  nsedi_v3_sub(arm, g->p, pl->point);
  nsedi_v3_cross(spin_v, g->n, arm);
  nsedi_v3_axpy(g->surface_v, pl->velocity, pl->spin, spin_v);
  nsedi_v3_add(pdot, k->v, rho_dot);
  nsedi_v3_cross(spin_a, g->n, pdot);
  nsedi_v3_scale(spin_a, spin_a, pl->spin);
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
  g->spin.vel = nsedi_v3_dot(g->n, k->ww) - pl->spin;
}

/* The plane pairs: the body's point nearest the plane, rho from its centre
 * (world) and rho_dot = d rho/dt: w x rho for a material point (a box's
 * vertex), the geometric point's own motion for a rolling surface (zero
 * for a sphere on a plane). */
typedef int (*support_fn)(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                          const nsedi_plane *pl, nsedi_contact_geom *g, double rho[3],
                          double rho_dot[3]);

static int sphere_support(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                          const nsedi_plane *pl, nsedi_contact_geom *g, double rho[3],
                          double rho_dot[3]) {
  (void)kin, (void)xtrack, (void)pl;
  nsedi_v3_scale(rho, g->n, -m->body[m->contact[c].body].def.shape.radius);
  nsedi_v3_set(rho_dot, 0, 0, 0);
  return NSED_OK;
}

static int point_support(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                         const nsedi_plane *pl, nsedi_contact_geom *g, double rho[3],
                         double rho_dot[3]) {
  (void)m, (void)c, (void)kin, (void)xtrack, (void)pl, (void)g;
  nsedi_v3_set(rho, 0, 0, 0);
  nsedi_v3_set(rho_dot, 0, 0, 0);
  return NSED_OK;
}

/* A box's vertex is a material point of the body: it turns with it. */
static int box_support(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                       const nsedi_plane *pl, nsedi_contact_geom *g, double rho[3],
                       double rho_dot[3]) {
  (void)xtrack, (void)pl, (void)g;
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  nsedi_kin_dir(k, C->feature_point, rho);
  nsedi_v3_cross(rho_dot, k->ww, rho);
  return NSED_OK;
}

/* A capsule's end cap: the sphere about a material point of the body. */
static int capsule_support(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                           const nsedi_plane *pl, nsedi_contact_geom *g, double rho[3],
                           double rho_dot[3]) {
  (void)xtrack, (void)pl;
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  double centre[3];
  nsedi_kin_dir(k, C->feature_point, centre);
  nsedi_v3_axpy(rho, centre, -m->body[C->body].def.shape.radius, g->n);
  nsedi_v3_cross(rho_dot, k->ww, centre);
  return NSED_OK;
}

/* The ellipsoid's point nearest the plane: with D = diag(semi-axes) and
 * the normal in body axes nb = R^T n, the support point in -nb is
 * p = -D^2 nb / s, s = sqrt(nb . D^2 nb) (its outward normal D^-2 p is
 * along -nb). It rolls over the body: with dnb/dt = -wb x nb (the plane's
 * normal is fixed in the world), dp/dt = -D^2 dnb / s - p (nb . D^2 dnb) / s^2,
 * and drho/dt = w x rho + R dp/dt. */
static int algebraic_support(const nsed_model *m, int c, const nsedi_kin *kin,
                             const double *xtrack, const nsedi_plane *pl, nsedi_contact_geom *g,
                             double rho[3], double rho_dot[3]);

static int ellipsoid_support(const nsed_model *m, int c, const nsedi_kin *kin,
                             const double *xtrack, const nsedi_plane *pl, nsedi_contact_geom *g,
                             double rho[3], double rho_dot[3]) {
  if (xtrack) return algebraic_support(m, c, kin, xtrack, pl, g, rho, rho_dot);
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  const double *ax = m->body[C->body].def.shape.half;
  double nb[3], wb[3], nbd[3], p[3], pd[3], d2[3], rpd[3];
  nsedi_m3_mulTv(nb, k->R, g->n);
  nsedi_m3_mulTv(wb, k->R, k->ww);
  nsedi_v3_cross(nbd, wb, nb);
  nsedi_v3_scale(nbd, nbd, -1.0);
  double s2 = 0, q = 0;
  for (int i = 0; i < 3; i++) {
    d2[i] = ax[i] * ax[i];
    s2 += d2[i] * nb[i] * nb[i];
  }
  double s = sqrt(s2);
  for (int i = 0; i < 3; i++) {
    p[i] = -d2[i] * nb[i] / s;
    q += nb[i] * d2[i] * nbd[i];
  }
  for (int i = 0; i < 3; i++) pd[i] = -d2[i] * nbd[i] / s - p[i] * q / s2;
  nsedi_v3_copy(g->track_point, p);
  nsedi_m3_mulv(rho, k->R, p);
  nsedi_m3_mulv(rpd, k->R, pd);
  nsedi_v3_cross(rho_dot, k->ww, rho);
  nsedi_v3_add(rho_dot, rho_dot, rpd);
  return NSED_OK;
}

/* An algebraic surface's point touching the plane (superellipsoid.c):
 * explicit, the support point in d = -nb; differential, the tracked point
 * y (xtrack, body axes) moving at the rate the closest-point equations
 * give it. The point rolls over the body: drho/dt = w x rho + R dy/dt. */
static int algebraic_support(const nsed_model *m, int c, const nsedi_kin *kin,
                             const double *xtrack, const nsedi_plane *pl, nsedi_contact_geom *g,
                             double rho[3], double rho_dot[3]) {
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  const nsed_shape *sh = &m->body[C->body].def.shape;
  double p = nsedi_sq_exponent(sh);
  double nb[3], wb[3], d[3], dd[3], y[3], yd[3], rpd[3];
  nsedi_m3_mulTv(nb, k->R, g->n);
  nsedi_m3_mulTv(wb, k->R, k->ww);
  /* d = -nb turns at -dnb/dt = wb x nb (the plane's normal is fixed). */
  nsedi_v3_scale(d, nb, -1.0);
  nsedi_v3_cross(dd, wb, nb);
  int rc;
  if (xtrack) {
    nsedi_v3_copy(y, xtrack);
    rc = nsedi_sq_support_rate(sh->half, p, y, d, dd, yd);
  } else {
    rc = nsedi_sq_support(sh->half, p, d, dd, y, yd);
  }
  nsedi_v3_copy(g->track_point, y);
  nsedi_m3_mulv(rho, k->R, y);
  if (rc) {
    /* The rate is unbounded; the point and the gap are still defined. */
    double off[3];
    nsedi_v3_add(g->p, k->r, rho);
    nsedi_v3_sub(off, g->p, pl->point);
    g->gap = nsedi_v3_dot(g->n, off);
    return NSED_ERR_EVENT;
  }
  if (xtrack) nsedi_v3_copy(g->track_rate, yd);
  nsedi_m3_mulv(rpd, k->R, yd);
  nsedi_v3_cross(rho_dot, k->ww, rho);
  nsedi_v3_add(rho_dot, rho_dot, rpd);
  return NSED_OK;
}

/* The lowest point of a rim (a circle about the body z axis through the
 * body point centre: the disk's own centre, a cylinder's end): e = unit
 * part of -n perpendicular to the axis k, rho = centre + r e. */
static int rim_support(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                       const nsedi_plane *pl, nsedi_contact_geom *g, double rho[3],
                       double rho_dot[3]) {
  (void)xtrack;
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  double radius = m->body[C->body].def.shape.radius;
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
    /* Lying flat: every rim point is lowest, the rim contact is undefined.
     * The gap is the rim centre's height, so an open disk falling flat is
     * caught when it reaches the plane. */
    double d0[3], centre[3];
    nsedi_kin_dir(k, C->feature_point, centre);
    nsedi_v3_add(g->p, k->r, centre);
    nsedi_v3_sub(d0, g->p, pl->point);
    g->gap = nsedi_v3_dot(g->n, d0);
    return NSED_ERR_EVENT;
  }
  nsedi_v3_scale(e, u, 1.0 / un);
  double eud = nsedi_v3_dot(e, ud);
  for (int i = 0; i < 3; i++) ed[i] = (ud[i] - e[i] * eud) / un;
  double centre[3], centre_dot[3];
  nsedi_kin_dir(k, C->feature_point, centre);
  nsedi_v3_cross(centre_dot, k->ww, centre);
  for (int i = 0; i < 3; i++) {
    rho[i] = centre[i] + radius * e[i];
    rho_dot[i] = centre_dot[i] + radius * ed[i];
  }
  return NSED_OK;
}

static int roller_support(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                          const nsedi_plane *pl, nsedi_contact_geom *g, double rho[3],
                          double rho_dot[3]) {
  (void)pl;
  nsedi_roller_point rp;
  nsedi_roller_point_eval(m, c, kin, xtrack, g->side, g->n, &rp);
  nsedi_v3_copy(rho, rp.rho);
  nsedi_v3_copy(rho_dot, rp.rho_dot);
  g->region = rp.region;
  g->region_rate = rp.region_rate;
  g->leaving = rp.leaving;
  g->at_tip = rp.at_tip;
  g->track_rate[0] = rp.rate[0];
  g->track_rate[1] = rp.rate[1];
  return NSED_OK;
}

/* A body against a plane: the frame from the plane's normal, the support
 * point from the shape, the gap along the normal. */
static int against_plane(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                         nsedi_contact_geom *g, support_fn support) {
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  nsedi_plane pl;
  nsedi_contact_plane(m, c, &pl);
  nsedi_v3_copy(g->n, pl.normal);
  nsedi_v3_tangents(g->t1, g->t2, g->n);
  double rho[3], rho_dot[3], d[3];
  int rc = support(m, c, kin, xtrack, &pl, g, rho, rho_dot);
  if (rc) return rc;
  nsedi_v3_add(g->p, k->r, rho);
  nsedi_v3_sub(d, g->p, pl.point);
  g->gap = nsedi_v3_dot(g->n, d);
  plane_rows(&pl, g, C->body, k, rho, rho_dot);
  return NSED_OK;
}

#define PLANE_PAIR(fn, support)                                                                   \
  static int fn(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,          \
                nsedi_contact_geom *g) {                                                          \
    return against_plane(m, c, kin, xtrack, g, support);                                        \
  }
PLANE_PAIR(sphere_plane, sphere_support)
PLANE_PAIR(point_plane, point_support)
PLANE_PAIR(disk_plane, rim_support)
PLANE_PAIR(roller_plane, roller_support)
PLANE_PAIR(box_plane, box_support)
PLANE_PAIR(cylinder_plane, rim_support)
PLANE_PAIR(capsule_plane, capsule_support)
PLANE_PAIR(ellipsoid_plane, ellipsoid_support)
PLANE_PAIR(superellipsoid_plane, algebraic_support)

/* A sphere of radius ra about the point p = c_A + poff of the contact's
 * body A against a sphere of radius rb about the point q = c_B + qoff of
 * body B, where the offsets (world) move with poff_dot and qoff_dot (zero
 * for a centre; along a capsule's axis for its closest point): n from q to
 * p. */
static int spheres_about(const nsed_model *m, int c, const nsedi_kin *kin, double ra,
                         const double poff[3], const double poff_dot[3], double rb,
                         const double qoff[3], const double qoff_dot[3], nsedi_contact_geom *g) {
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body], *kb = &kin[C->other];
  double D[3], Dv[3];
  for (int i = 0; i < 3; i++) {
    D[i] = k->r[i] + poff[i] - kb->r[i] - qoff[i];
    Dv[i] = k->v[i] + poff_dot[i] - kb->v[i] - qoff_dot[i];
  }
  double L = nsedi_v3_norm(D);
  if (L < NSEDI_SPHERE_COINCIDENT) {
    g->past_event = 1;
    return NSED_ERR_EVENT;
  }
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
  nsedi_v3_axpy(rhoa, poff, -ra, g->n);
  nsedi_v3_axpy(rhob, qoff, rb, g->n);
  nsedi_v3_axpy(rhoad, poff_dot, -ra, nd);
  nsedi_v3_axpy(rhobd, qoff_dot, rb, nd);
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
  double wrel[3];
  nsedi_v3_sub(wrel, k->ww, kb->ww);
  g->spin.vel = nsedi_v3_dot(g->n, wrel);
  /* d/dt (n . w_rel) = n . dw_rel + dn/dt . w_rel: the turning normal's part. */
  g->spin.bias = nsedi_v3_dot(nd, wrel);
  return NSED_OK;
}

/* Sphere A (the contact's body) about its centre against a sphere of
 * radius rb about the point c_B + qoff of body B. */
static int sphere_about(const nsed_model *m, int c, const nsedi_kin *kin, double rb,
                        const double qoff[3], const double qoff_dot[3], nsedi_contact_geom *g) {
  const double zero[3] = {0, 0, 0};
  return spheres_about(m, c, kin, m->body[m->contact[c].body].def.shape.radius, zero, zero, rb, qoff,
                       qoff_dot, g);
}

static int sphere_sphere(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                         nsedi_contact_geom *g) {
  (void)xtrack;
  const double zero[3] = {0, 0, 0};
  return sphere_about(m, c, kin, m->body[m->contact[c].other].def.shape.radius, zero, zero, g);
}

/* Sphere A against capsule B: the sphere about the point of B's segment
 * nearest A's centre, s u from B's centre (u = B's axis, |s| <= L/2).
 * Inside the segment it slides along the axis with
 * ds/dt = (v_A - v_B) . u + (c_A - c_B) . (w_B x u); clamped at an end it
 * is a material point. Crossing between the two is a region root. */
static int sphere_capsule(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                          nsedi_contact_geom *g) {
  (void)xtrack;
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body], *kb = &kin[C->other];
  const nsed_shape *sb = &m->body[C->other].def.shape;
  double ez[3] = {0, 0, 1}, u[3], wu[3], d[3], dv[3], qoff[3], qoff_dot[3];
  nsedi_kin_dir(kb, ez, u);
  nsedi_v3_cross(wu, kb->ww, u);
  nsedi_v3_sub(d, k->r, kb->r);
  nsedi_v3_sub(dv, k->v, kb->v);
  double h = 0.5 * sb->length, proj = nsedi_v3_dot(d, u);
  int inside = fabs(proj) < h;
  double s = inside ? proj : copysign(h, proj);
  double sd = inside ? nsedi_v3_dot(dv, u) + nsedi_v3_dot(d, wu) : 0.0;
  for (int i = 0; i < 3; i++) {
    qoff[i] = s * u[i];
    qoff_dot[i] = sd * u[i] + s * wu[i];
  }
  int rc = sphere_about(m, c, kin, sb->radius, qoff, qoff_dot, g);
  g->region = h - fabs(proj);
  return rc;
}

/* Capsule A against capsule B: spheres about the nearest points of their
 * segments, c_A + s u and c_B + t w (u, w the axes, |s| <= h_A, |t| <=
 * h_B). With d = c_A - c_B, b = u . w, e = u . d, f = w . d the free
 * minimiser solves e + s - b t = 0, f + b s - t = 0; an end clamps its
 * parameter and the other is the projection (t = f + b s, s = b t - e).
 * The parameters' rates follow from the same equations differentiated
 * (u' = w_A x u, w' = w_B x w). The region is m_s m_t, each the distance
 * of the parameter's free value (given the other) from its end: it
 * changes sign where either point reaches or leaves an end. Parallel axes
 * whose segments overlap touch along a line: no nearest point. */
static int capsule_capsule(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                           nsedi_contact_geom *g) {
  (void)xtrack;
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *ka = &kin[C->body], *kb = &kin[C->other];
  const nsed_shape *sa = &m->body[C->body].def.shape, *sb = &m->body[C->other].def.shape;
  double ez[3] = {0, 0, 1}, u[3], w[3], ud[3], wd[3], d[3], dv[3];
  nsedi_kin_dir(ka, ez, u);
  nsedi_kin_dir(kb, ez, w);
  nsedi_v3_cross(ud, ka->ww, u);
  nsedi_v3_cross(wd, kb->ww, w);
  nsedi_v3_sub(d, ka->r, kb->r);
  nsedi_v3_sub(dv, ka->v, kb->v);
  double ha = 0.5 * sa->length, hb = 0.5 * sb->length;
  double b = nsedi_v3_dot(u, w), e = nsedi_v3_dot(u, d), f = nsedi_v3_dot(w, d);
  double bd = nsedi_v3_dot(ud, w) + nsedi_v3_dot(u, wd);
  double ed = nsedi_v3_dot(ud, d) + nsedi_v3_dot(u, dv), fd = nsedi_v3_dot(wd, d) + nsedi_v3_dot(w, dv);
  double den = 1 - b * b, s, t;
  if (den > NSEDI_CAPSULE_PARALLEL) {
    s = fmax(-ha, fmin(ha, (b * f - e) / den));
  } else {
    /* Parallel: an overlap is a line contact (no point, but a gap: the
     * axes' distance, so that an open contact still closes); apart, A's
     * end nearest B. */
    if (fabs(e) < ha + hb) {
      double perp[3];
      nsedi_v3_axpy(perp, d, -e, u);
      g->gap = nsedi_v3_norm(perp) - sa->radius - sb->radius;
      return NSED_ERR_EVENT;
    }
    s = e > 0 ? -ha : ha;
  }
  double tfree = f + b * s;
  t = fmax(-hb, fmin(hb, tfree));
  double sfree = b * t - e;
  if (t != tfree) s = fmax(-ha, fmin(ha, sfree));
  else if (den > NSEDI_CAPSULE_PARALLEL) sfree = (b * f - e) / den;
  tfree = f + b * s;
  int s_in = fabs(sfree) < ha, t_in = fabs(tfree) < hb;
  double sd = 0, td = 0;
  if (s_in && t_in) {
    double r1 = bd * t - ed, r2 = -fd - bd * s;
    sd = (r1 - b * r2) / den;
    td = (b * r1 - r2) / den;
  } else if (t_in) {
    td = fd + bd * s;
  } else if (s_in) {
    sd = bd * t - ed;
  }
  double poff[3], poff_dot[3], qoff[3], qoff_dot[3];
  for (int i = 0; i < 3; i++) {
    poff[i] = s * u[i];
    poff_dot[i] = sd * u[i] + s * ud[i];
    qoff[i] = t * w[i];
    qoff_dot[i] = td * w[i] + t * wd[i];
  }
  int rc = spheres_about(m, c, kin, sa->radius, poff, poff_dot, sb->radius, qoff, qoff_dot, g);
  g->region = (ha - fabs(sfree)) * (hb - fabs(tfree));
  return rc;
}

/* A's centre in B's axes, loc = R_B^T (c_A - c_B), and its rate as B's
 * axes see it, R_B^T (v_A - v_B) - w_B x loc (w_B in B's axes). */
static void centre_in_axes(const nsedi_kin *k, const nsedi_kin *kb, double loc[3],
                           double locd[3]) {
  double d[3], dv[3], wb[3], wl[3];
  nsedi_v3_sub(d, k->r, kb->r);
  nsedi_v3_sub(dv, k->v, kb->v);
  nsedi_m3_mulTv(loc, kb->R, d);
  nsedi_m3_mulTv(locd, kb->R, dv);
  nsedi_m3_mulTv(wb, kb->R, kb->ww);
  nsedi_v3_cross(wl, wb, loc);
  nsedi_v3_sub(locd, locd, wl);
}

/* Sphere A against the point q of B's surface (B's axes) that moves over
 * it at qd: the sphere about it with radius 0, q's world offset turning
 * with B, w_B x R q + R qd. */
static int sphere_about_surface_point(const nsed_model *m, int c, const nsedi_kin *kin,
                                      const double q[3], const double qd[3],
                                      nsedi_contact_geom *g) {
  const nsedi_kin *kb = &kin[m->contact[c].other];
  double qoff[3], qoff_dot[3], rq[3];
  nsedi_m3_mulv(qoff, kb->R, q);
  nsedi_m3_mulv(rq, kb->R, qd);
  nsedi_v3_cross(qoff_dot, kb->ww, qoff);
  nsedi_v3_add(qoff_dot, qoff_dot, rq);
  return sphere_about(m, c, kin, 0.0, qoff, qoff_dot, g);
}

/* A sphere whose centre is inside the body it touches has no nearest
 * surface point: no geometry, and a gap of at least its radius in. */
static int centre_inside(const nsed_model *m, int c, nsedi_contact_geom *g) {
  g->gap = -m->body[m->contact[c].body].def.shape.radius;
  g->past_event = 1;
  return NSED_ERR_EVENT;
}

/* Sphere A against box B: the point of B's surface nearest A's centre,
 * the centre's offset in B's axes clamped to the half extents (the
 * projection onto a product of intervals). Along an axis where it is not
 * clamped the point slides with the centre's motion in B's axes; where
 * clamped it is fixed on B. The point's piece of the surface (a face, an
 * edge, a vertex) changes when one axis switches, where the product of
 * (|offset_i| - half_i) changes sign: the region root. A centre inside the
 * box is no contact geometry. */
static int sphere_box(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                      nsedi_contact_geom *g) {
  (void)xtrack;
  const nsedi_contact *C = &m->contact[c];
  const double *h = m->body[C->other].def.shape.half;
  double loc[3], locd[3], q[3], qd[3];
  centre_in_axes(&kin[C->body], &kin[C->other], loc, locd);
  double region = 1.0;
  int inside = 1;
  for (int i = 0; i < 3; i++) {
    int free_axis = fabs(loc[i]) < h[i];
    inside &= free_axis;
    q[i] = free_axis ? loc[i] : copysign(h[i], loc[i]);
    qd[i] = free_axis ? locd[i] : 0.0;
    region *= fabs(loc[i]) - h[i];
  }
  if (inside) return centre_inside(m, c, g);
  int rc = sphere_about_surface_point(m, c, kin, q, qd, g);
  g->region = region;
  return rc;
}

/* Sphere A against a solid cylinder B (a disk: length 0) about B's z
 * axis: the projection of A's centre onto a product of a disk of radius
 * r (across the axis) and an interval (along it), each clamped on its
 * own. Clamped across, the point is on the side at r e, e the unit radial
 * direction, moving at r de/dt; clamped along, it is on an end face. The
 * pieces (the side, an end face, a rim's edge) change where
 * (|z| - L/2) (rho - r) changes sign (rho - r alone for a disk): the
 * region root. A centre inside the cylinder is no contact geometry. */
static int sphere_cylinder(const nsed_model *m, int c, const nsedi_kin *kin,
                           const double *xtrack, nsedi_contact_geom *g) {
  (void)xtrack;
  const nsedi_contact *C = &m->contact[c];
  const nsed_shape *sb = &m->body[C->other].def.shape;
  double h = sb->type == NSED_SHAPE_CYLINDER ? 0.5 * sb->length : 0.0, r = sb->radius;
  double loc[3], locd[3], q[3], qd[3];
  centre_in_axes(&kin[C->body], &kin[C->other], loc, locd);
  int along_free = fabs(loc[2]) < h;
  q[2] = along_free ? loc[2] : copysign(h, loc[2]);
  qd[2] = along_free ? locd[2] : 0.0;
  double rho = hypot(loc[0], loc[1]);
  int across_free = rho < r;
  if (along_free && across_free) return centre_inside(m, c, g);
  if (across_free) {
    q[0] = loc[0], q[1] = loc[1];
    qd[0] = locd[0], qd[1] = locd[1];
  } else {
    double e0 = loc[0] / rho, e1 = loc[1] / rho, ed = e0 * locd[0] + e1 * locd[1];
    q[0] = r * e0, q[1] = r * e1;
    qd[0] = r * (locd[0] - e0 * ed) / rho;
    qd[1] = r * (locd[1] - e1 * ed) / rho;
  }
  int rc = sphere_about_surface_point(m, c, kin, q, qd, g);
  g->region = h > 0 ? (fabs(loc[2]) - h) * (rho - r) : rho - r;
  return rc;
}

/* Sphere A against an algebraic surface B (an ellipsoid, a
 * superellipsoid): explicit, B's point nearest A's centre; differential,
 * the tracked point (xtrack, B's axes) at the rate of the closest-point
 * equations. */
static int sphere_algebraic(const nsed_model *m, int c, const nsedi_kin *kin,
                            const double *xtrack, nsedi_contact_geom *g) {
  const nsedi_contact *C = &m->contact[c];
  const nsed_shape *sb = &m->body[C->other].def.shape;
  double p = nsedi_sq_exponent(sb), loc[3], locd[3], q[3], qd[3];
  centre_in_axes(&kin[C->body], &kin[C->other], loc, locd);
  if (xtrack) {
    nsedi_v3_copy(q, xtrack);
    nsedi_sq_nearest_rate(sb->half, p, q, loc, locd, qd);
  } else if (nsedi_sq_nearest(sb->half, p, loc, locd, q, qd)) {
    return centre_inside(m, c, g);
  }
  nsedi_v3_copy(g->track_point, q);
  if (xtrack) nsedi_v3_copy(g->track_rate, qd);
  return sphere_about_surface_point(m, c, kin, q, qd, g);
}

/* Sphere A against ellipsoid B: the point of B's surface nearest A's
 * centre, from the closest-point equations (ellipsoid_point.c). The
 * surface is smooth: no regions. A centre inside is no contact geometry. */
static int sphere_ellipsoid(const nsed_model *m, int c, const nsedi_kin *kin,
                            const double *xtrack, nsedi_contact_geom *g) {
  if (xtrack) return sphere_algebraic(m, c, kin, xtrack, g);
  const nsedi_contact *C = &m->contact[c];
  double loc[3], locd[3], q[3], qd[3];
  centre_in_axes(&kin[C->body], &kin[C->other], loc, locd);
  if (nsedi_ellipsoid_nearest(m->body[C->other].def.shape.half, loc, locd, q, qd))
    return centre_inside(m, c, g);
  nsedi_v3_copy(g->track_point, q);
  return sphere_about_surface_point(m, c, kin, q, qd, g);
}

typedef int (*pair_fn)(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack,
                       nsedi_contact_geom *g);

static const pair_fn pair_table[NSEDI_PAIR_COUNT] = {
    [NSEDI_PAIR_SPHERE_PLANE] = sphere_plane, [NSEDI_PAIR_POINT_PLANE] = point_plane,
    [NSEDI_PAIR_DISK_PLANE] = disk_plane,     [NSEDI_PAIR_ROLLER_PLANE] = roller_plane,
    [NSEDI_PAIR_BOX_PLANE] = box_plane,       [NSEDI_PAIR_CYLINDER_PLANE] = cylinder_plane,
    [NSEDI_PAIR_CAPSULE_PLANE] = capsule_plane, [NSEDI_PAIR_ELLIPSOID_PLANE] = ellipsoid_plane,
    [NSEDI_PAIR_SPHERE_SPHERE] = sphere_sphere,
    [NSEDI_PAIR_SPHERE_CAPSULE] = sphere_capsule, [NSEDI_PAIR_SPHERE_BOX] = sphere_box,
    [NSEDI_PAIR_SPHERE_CYLINDER] = sphere_cylinder, [NSEDI_PAIR_SPHERE_ELLIPSOID] = sphere_ellipsoid,
    [NSEDI_PAIR_CAPSULE_CAPSULE] = capsule_capsule,
    [NSEDI_PAIR_SUPERELLIPSOID_PLANE] = superellipsoid_plane,
    [NSEDI_PAIR_SPHERE_SUPERELLIPSOID] = sphere_algebraic};

double nsedi_contact_flatness(const nsed_model *m, int c, const nsedi_kin *kin) {
  const nsedi_contact *C = &m->contact[c];
  if (C->pair != NSEDI_PAIR_SUPERELLIPSOID_PLANE || !(m->body[C->body].def.shape.exponent > 2))
    return INFINITY;
  nsedi_plane pl;
  double nb[3], wb[3], dd[3], flat = INFINITY;
  nsedi_contact_plane(m, c, &pl);
  nsedi_m3_mulTv(nb, kin[C->body].R, pl.normal);
  nsedi_m3_mulTv(wb, kin[C->body].R, kin[C->body].ww);
  nsedi_v3_cross(dd, wb, nb);
  /* a component held at zero (a motion in a symmetry plane) crosses nothing */
  for (int i = 0; i < 3; i++)
    if (dd[i] != 0) flat = fmin(flat, fabs(nb[i]));
  return flat;
}

void nsedi_roller_region_row(const nsed_model *m, int c, const nsedi_kin *kin, nsedi_row *r) {
  const nsedi_contact *C = &m->contact[c];
  const nsedi_kin *k = &kin[C->body];
  const nsed_shape *s = &m->body[C->body].def.shape;
  nsedi_plane pl;
  nsedi_contact_plane(m, c, &pl);
  const double *n = pl.normal;
  /* r = cos(psi) sin(pi/n) - |n.i| with the floor's normal fixed: dr/dt =
   * -sg n.(w x i) = -sg (i x n).w, d2r/dt2 = -sg ((i x n).dw/dt + n.(w x (w x i))). */
  double ex[3] = {1, 0, 0}, i[3], ixn[3], wi[3], wwi[3];
  nsedi_kin_dir(k, ex, i);
  double c0 = nsedi_v3_dot(n, i), sg = c0 >= 0 ? 1.0 : -1.0;
  nsedi_v3_cross(ixn, i, n);
  nsedi_v3_scale(ixn, ixn, -sg);
  row_init(r, C->body, NSEDI_GROUND);
  side_rot(r->ja, k, ixn, +1);
  r->vel = nsedi_v3_dot(ixn, k->ww);
  nsedi_v3_cross(wi, k->ww, i);
  nsedi_v3_cross(wwi, k->ww, wi);
  r->bias = -sg * nsedi_v3_dot(n, wwi);
  r->pos = cos(s->psi) * sin(M_PI / s->rollers) - fabs(c0);
  if (m->nrotor > 0) row_rotor_bias(r, kin);
  if (m->nattached > 0) nsedi_attached_row(m, kin, r);
}

int nsedi_contact_eval(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack, int side,
                       nsedi_contact_geom *g) {
  memset(g, 0, sizeof *g);
  g->region = 1.0;
  g->side = side;
  int rc = pair_table[m->contact[c].pair](m, c, kin, xtrack, g);
  if (m->nrotor > 0) {
    for (int k = 0; k < 3; k++) row_rotor_bias(&g->row[k], kin);
    row_rotor_bias(&g->spin, kin);
  }
  if (m->nattached > 0) {
    for (int k = 0; k < 3; k++) nsedi_attached_row(m, kin, &g->row[k]);
    nsedi_attached_row(m, kin, &g->spin);
  }
  return rc;
}
