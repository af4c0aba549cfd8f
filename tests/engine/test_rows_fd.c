/* Finite-difference checks of the constraint rows (src/dynamics/rows.c) and
 * of the constrained acceleration solve (src/dynamics/accel.c).
 *
 * For random states (fixed seeds) of small models built with the public API:
 *
 *  1. rate:  d(phi)/dt along the state's own free motion (r += v t, q turned
 *            by the exact exp of the body-frame w, v and w constant) equals
 *            row.vel (holonomic rows: every joint row, a contact's normal row
 *            with phi = gap, a roller contact's region row with phi = its
 *            region indicator, nsedi_roller_region_row);
 *  2. jac:   vel(u + e_k delta) - vel(u) = J_k delta for every generalised
 *            velocity component of every body (zero for bodies the row does
 *            not touch), and J does not change with u;
 *     known: vel - J u is the known term (a servo's -theta'(t), a moving
 *            floor's -d . v_floor, else 0);
 *  3. bias:  d(vel)/dt along the motion with constant generalised
 *            accelerations du (v = v0 + a t, w = w0 + alpha t, body axes;
 *            r exact, q by RK4 substeps) equals J du + bias (for a contact's
 *            tangential rows: with the frame and the contact point moving).
 *
 * Cases: every joint type with body_a a body and the ground (align: the
 * ground only, as the model requires), a servo with a sine and with a
 * piecewise law; contacts sphere/floor, point/floor, tilted disk rim/floor,
 * sphere/sphere, sphere and disk on a moving floor (a tilted, offset floor
 * throughout), the spindle roller on its smooth surface and at a tip
 * (psi = 0 and 0.3), by explicit, implicit (mounted on a wheel, vertical or tilted,
 * also compared with the explicit point, rate and bias) and differential
 * tracking (its states' rates against d/dt of their exact values); an
 * ellipsoid and a superellipsoid (p = 4) on the floor and under a sphere,
 * explicit and differential (the tracked point's rate likewise). A
 * superellipsoid's cases difference over h / 4: its rounded edges' small
 * curvature radii make its rates' higher derivatives larger (at h the
 * truncation error reached 4.5e-9 in one state; at h / 4, 1.4e-11).
 *
 * Every case runs again with rotors (nsed_rotor; docs/engine.md, "Rotors")
 * where the shapes are symmetric about an axis: the bodies' state frames
 * do not turn with them about it and their turns are extra states. The
 * motions of checks 1 and 3 are then integrated in those terms (the frame
 * at w less its axial part, the turn at the axial rate), so the rows'
 * material geometry and the bias's term fa are checked against motions the
 * engine did not compute; the joint anchors lie off the rotors' axes.
 *
 * The servo angle row's rate (wB - wA) . a is d(phi)/dt only while B's axis
 * is aligned with A's (phi is the angle of pB1's projection): check 1 uses
 * aligned states for that row (every other sample of a servo case).
 *
 * The time derivatives are central differences with one Richardson step
 * (steps h and h/2, error O(h^4)): with h = 5e-4 the truncation and the
 * round-off are both ~1e-12 relative, so the tolerance 1e-9 is two
 * orders above the noise and nine below a wrong sign or a missing term of
 * order one (all lengths, speeds and rates here are O(1)). The relative
 * error is |fd - expected| / (|expected| + 1).
 *
 *  4. The constrained solve (nsedi_solve_constrained) on a chain of every
 *     joint type with Baumgarte targets and a random force: J du = target and
 *     M du = f + J^T lambda; redundant rows (two identical spherical joints,
 *     a weld plus a revolute on the same pair) take the least-squares path,
 *     still satisfy both equations, and share the multiplier equally (the
 *     minimum-norm solution); contradictory welds give NSED_ERR_SINGULAR. */
#include <stdint.h>

#include "accel.h"
#include "engine_util.h"
#include "kinematics.h"
#include "lapack.h"
#include "tolerances.h"
#include "math3.h"
#include "model_impl.h"
#include "nsed_test.h"
#include "roller.h"
#include "roller_shape.h"
#include "row_rule.h"
#include "track.h"

/* Allocations by the library's own code: this test is linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc (tests/engine/meson.build). */
static long nallocs;
void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) {
  nallocs++;
  return __real_malloc(n);
}
void *__wrap_calloc(size_t k, size_t n) {
  nallocs++;
  return __real_calloc(k, n);
}
void *__wrap_realloc(void *p, size_t n) {
  nallocs++;
  return __real_realloc(p, n);
}

#define MAXB 8
#define MAXR 64
#define MAXS (14 * MAXB + 4)

static const double FD_H = 5e-4;     /* time step of the differences (s) */
/* A superellipsoid's curvature radius at its rounded edges is a few
 * hundredths of its size: its rates' higher derivatives are that much
 * larger, so its cases difference over a quarter of the step. */
static const double FD_H_SUPERELLIPSOID = 1.25e-4;
static const double TOL_FD = 1e-9;   /* rate and bias checks, relative */
static const double TOL_LIN = 1e-13; /* Jacobian and known-term checks (round-off), relative */
static const int NSAMPLE = 10;       /* random states per case */

/* ---- random numbers: splitmix64, fixed seeds ------------------------------- */

static uint64_t rng_state;
static double urand(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-53;
}
static double srnd(double a) { return a * (2 * urand() - 1); }
static double gauss(void) {
  double u1 = urand(), u2 = urand();
  return sqrt(-2 * log(1 - u1)) * cos(2 * M_PI * u2);
}
static void rand_quat(double q[4]) {
  for (int i = 0; i < 4; i++) q[i] = gauss();
  nsedi_quat_normalize(q);
}

/* ---- bookkeeping ------------------------------------------------------------ */

enum { K_POINT, K_PERP, K_PLANE, K_ANGLE, K_NORMAL, K_TANGENT, K_SPIN, K_REGION, NKIND };
static const char *kind_name[NKIND] = {"point",       "perp",      "plane",       "servo angle",
                                       "contact n",   "contact t", "contact spin", "roller region"};
enum { C_RATE, C_JAC, C_KNOWN, C_BIAS, NCHECK };
static const char *check_name[NCHECK] = {"rate", "jac", "known", "bias"};
static double worst_kind[NKIND][NCHECK];
static double worst_track; /* DIFFERENTIAL tracking rates against d/dt of the exact states */

/* State generators: what the random states must respect. */
enum {
  GEN_FREE,        /* anything */
  GEN_SERVO,       /* every other state: B's axis aligned with A's (the angle row's rate) */
  GEN_DISK,        /* the disk not lying flat */
  GEN_ROLLER_BODY, /* the lowest point well inside the spindle's smooth surface */
  GEN_ROLLER_TIP,  /* well past it: a tip touches */
  GEN_SPHERES,     /* centres apart, away from the tangent rule's switch */
  GEN_ROLLER_WHEEL, /* roller 0 mounted on wheel 1 (vertical, or tilted in odd samples) in its
                       lower half, velocities consistent with the mount */
  GEN_SPHERE_CAPSULE, /* as GEN_SPHERES, and the sphere's centre away from where its nearest
                         point on the capsule's segment reaches an end (the region) */
  GEN_SPHERE_BOX,     /* the sphere's centre outside the box, each of its coordinates in the
                         box's axes away from the box's faces' planes (the region) */
  GEN_SPHERE_CYLINDER, /* the centre outside the cylinder (or disk), away from its side's and
                          faces' surfaces extended (the region) */
  GEN_SPHERE_ELLIPSOID, /* the centre outside the ellipsoid (or superellipsoid) */
  GEN_SUPERELLIPSOID,   /* the floor's normal in the body's axes away from its coordinate
                           planes, where the contact point's rate is unbounded */
  GEN_CAPSULES          /* two capsules apart, their axes not near parallel, each nearest
                           point away from where it reaches an end (the region) */
};

typedef struct {
  char name[48];
  nsed_model *m;
  int is_contact, idx;
  int gen;
  double qa0[4], qb0[4], axis_w[3]; /* GEN_SERVO: initial orientations, A's axis in world then */
  double worst[NCHECK];
} fd_case;

typedef struct {
  int n, rc;
  nsedi_row r[MAXR];
  nsedi_contact_geom g;
} rowset;

static void eval_rows(const fd_case *c, const double *x, double t, rowset *rs) {
  nsedi_kin kin[MAXB];
  const nsed_model *m = c->m;
  nsedi_kin_eval(m, x, kin);
  rs->rc = NSED_OK;
  if (!c->is_contact) {
    rs->n = nsedi_joint_rows(m, c->idx, kin, t, rs->r);
    return;
  }
  double xt[3];
  const double *xtp = NULL;
  if (m->contact[c->idx].tracking == NSED_TRACKING_DIFFERENTIAL) {
    /* Exactly integrated tracking states stay on the contact point. */
    CHECK(nsedi_track_init(m, c->idx, kin, xt) == NSED_OK);
    xtp = xt;
  }
  rs->rc = nsedi_contact_eval(m, c->idx, kin, xtp, 0, &rs->g);
  rs->n = 4;
  memcpy(rs->r, rs->g.row, sizeof rs->g.row);
  rs->r[3] = rs->g.spin; /* the relative spin about n: torsional friction's row */
  if (m->contact[c->idx].pair == NSEDI_PAIR_ROLLER_PLANE)
    nsedi_roller_region_row(m, c->idx, kin, &rs->r[rs->n++]); /* a sector edge's row */
}

static int kind_of(const fd_case *c, int i) {
  if (c->is_contact) return i == 0 ? K_NORMAL : i < 3 ? K_TANGENT : i == 3 ? K_SPIN : K_REGION;
  switch (c->m->joint[c->idx].def.type) {
    case NSED_JOINT_CYLINDRICAL:
    case NSED_JOINT_PRISMATIC:
      return i < 2 ? K_PLANE : K_PERP;
    case NSED_JOINT_SERVO:
      return i < 3 ? K_POINT : i < 5 ? K_PERP : K_ANGLE;
    case NSED_JOINT_ALIGN:
      return K_PERP;
    default:
      return i < 3 ? K_POINT : K_PERP;
  }
}

/* The known term of row i: vel - J u. */
static double known_of(const fd_case *c, const rowset *rs, int i, double t) {
  const nsed_model *m = c->m;
  if (c->is_contact) {
    if (m->contact[c->idx].other != NSEDI_GROUND || i == 4) return 0; /* a roller's region row: none */
    const double *d = i == 0 ? rs->g.n : i == 1 ? rs->g.t1 : rs->g.t2;
    nsedi_plane pl;
    nsedi_contact_plane(m, c->idx, &pl);
    if (i == 3) return -pl.spin; /* the spin relative to a turning floor's */
    return -nsedi_v3_dot(d, pl.velocity);
  }
  const nsed_joint_def *d = &m->joint[c->idx].def;
  if (kind_of(c, i) != K_ANGLE) return 0;
  const nsed_law *L = &d->servo_angle;
  if (L->type == NSED_LAW_PIECEWISE) {
    for (int k = 0; k + 1 < L->npoints; k++)
      if (L->times[k] < t && t < L->times[k + 1])
        return -(L->values[k + 1] - L->values[k]) / (L->times[k + 1] - L->times[k]);
    return 0;
  }
  return -L->amplitude * L->omega * cos(L->omega * t + L->phase);
}

static void note(fd_case *c, int kind, int check, double err) {
  if (err > c->worst[check]) c->worst[check] = err;
  if (err > worst_kind[kind][check]) worst_kind[kind][check] = err;
}

/* J u for a row, u taken from the state x. */
static double row_Ju(const nsedi_row *r, const double *x) {
  double s = 0;
  for (int side = 0; side < 2; side++) {
    int b = side ? r->b : r->a;
    const double *j = side ? r->jb : r->ja;
    if (b < 0) continue;
    for (int k = 0; k < 6; k++) s += j[k] * x[13 * b + 7 + k];
  }
  return s;
}

/* J du for a row, du dense (6 per body). */
static double row_Jdu(const nsedi_row *r, const double *du) {
  double s = 0;
  for (int side = 0; side < 2; side++) {
    int b = side ? r->b : r->a;
    const double *j = side ? r->jb : r->ja;
    if (b < 0) continue;
    for (int k = 0; k < 6; k++) s += j[k] * du[6 * b + k];
  }
  return s;
}

/* Coefficient of generalised velocity component k (6 per body) in row r. */
static double row_coef(const nsedi_row *r, int k) {
  int b = k / 6, c = k % 6;
  double s = 0;
  if (r->a == b) s += r->ja[c];
  if (r->b == b) s += r->jb[c];
  return s;
}

/* ---- motions ---------------------------------------------------------------- */

/* The angular velocity of a body's state frame in its own axes: w, less
 * a rotor's axial part. */
static void frame_rate(const nsed_model *m, int i, const double w[3], double wf[3]) {
  nsedi_v3_copy(wf, w);
  if (m->body[i].rotor_axis >= 0) wf[m->body[i].rotor_axis] = 0;
}

/* Free motion over time h: r += v h, q <- q * exp((0, wf) h / 2) (wf
 * constant with w), a rotor's turn += w_axis h. */
static void free_motion(const nsed_model *m, const double *x0, double h, double *x) {
  memcpy(x, x0, sizeof(double) * (size_t)m->nstate);
  for (int i = 0; i < m->nbody; i++) {
    const double *s = x0 + 13 * i;
    double *o = x + 13 * i, wf[3];
    for (int k = 0; k < 3; k++) o[k] = s[k] + s[7 + k] * h;
    frame_rate(m, i, s + 10, wf);
    double wn = nsedi_v3_norm(wf), e[4] = {1, 0, 0, 0};
    if (wn > 0) {
      double sh = sin(0.5 * wn * h) / wn;
      e[0] = cos(0.5 * wn * h);
      for (int k = 0; k < 3; k++) e[1 + k] = wf[k] * sh;
    }
    nsedi_quat_mul(o + 3, s + 3, e);
    int a = m->body[i].rotor_axis;
    if (a >= 0) x[m->body[i].xspin] = x0[m->body[i].xspin] + s[10 + a] * h;
  }
}

/* Motion with constant generalised accelerations du over time h:
 * v = v0 + a t, w = w0 + alpha t (the state frame's axes), r exact, q by
 * RK4 at the frame's rate, a rotor's turn exact. */
static void accel_motion(const nsed_model *m, const double *x0, const double *du, double h,
                         double *x) {
  enum { NSUB = 8 };
  memcpy(x, x0, sizeof(double) * (size_t)m->nstate);
  for (int i = 0; i < m->nbody; i++) {
    const double *s = x0 + 13 * i, *a = du + 6 * i, *al = du + 6 * i + 3;
    double *o = x + 13 * i;
    for (int k = 0; k < 3; k++) {
      o[k] = s[k] + s[7 + k] * h + 0.5 * a[k] * h * h;
      o[7 + k] = s[7 + k] + a[k] * h;
      o[10 + k] = s[10 + k] + al[k] * h;
    }
    double q[4] = {s[3], s[4], s[5], s[6]}, dt = h / NSUB;
    for (int n = 0; n < NSUB; n++) {
      double t0 = n * dt, w[3][3], k1[4], k2[4], k3[4], k4[4], qt[4];
      for (int k = 0; k < 3; k++) {
        w[0][k] = s[10 + k] + al[k] * t0;
        w[1][k] = s[10 + k] + al[k] * (t0 + 0.5 * dt);
        w[2][k] = s[10 + k] + al[k] * (t0 + dt);
      }
      for (int r = 0; r < 3; r++) frame_rate(m, i, w[r], w[r]);
      nsedi_quat_deriv(k1, q, w[0]);
      for (int k = 0; k < 4; k++) qt[k] = q[k] + 0.5 * dt * k1[k];
      nsedi_quat_deriv(k2, qt, w[1]);
      for (int k = 0; k < 4; k++) qt[k] = q[k] + 0.5 * dt * k2[k];
      nsedi_quat_deriv(k3, qt, w[1]);
      for (int k = 0; k < 4; k++) qt[k] = q[k] + dt * k3[k];
      nsedi_quat_deriv(k4, qt, w[2]);
      for (int k = 0; k < 4; k++) q[k] += dt / 6 * (k1[k] + 2 * k2[k] + 2 * k3[k] + k4[k]);
    }
    for (int k = 0; k < 4; k++) o[3 + k] = q[k];
    int ax = m->body[i].rotor_axis;
    if (ax >= 0)
      x[m->body[i].xspin] = x0[m->body[i].xspin] + s[10 + ax] * h + 0.5 * al[ax] * h * h;
  }
}

/* ---- random states ------------------------------------------------------------ */

static double roller_limit(const nsed_shape *s) { return cos(s->psi) * sin(M_PI / s->rollers); }

static int state_ok(const fd_case *c, const double *x) {
  const nsed_model *m = c->m;
  const double *n = m->opt.floor_normal;
  nsedi_kin kin[MAXB];
  nsedi_kin_eval(m, x, kin);
  double ez[3] = {0, 0, 1}, ex[3] = {1, 0, 0}, d[3];
  switch (c->gen) {
    case GEN_DISK: {
      nsedi_kin_dir(&kin[0], ez, d);
      return fabs(nsedi_v3_dot(d, n)) < 0.9;
    }
    case GEN_ROLLER_BODY:
    case GEN_ROLLER_WHEEL:
    case GEN_ROLLER_TIP: {
      nsedi_kin_dir(&kin[0], ex, d);
      double ci = fabs(nsedi_v3_dot(d, n)), lim = roller_limit(&m->body[0].def.shape);
      return c->gen == GEN_ROLLER_TIP ? ci > lim + 0.1 : ci < 0.75 * lim;
    }
    case GEN_SPHERES:
    case GEN_SPHERE_CAPSULE:
    case GEN_SPHERE_CYLINDER:
    case GEN_SPHERE_ELLIPSOID:
    case GEN_SPHERE_BOX: {
      nsedi_v3_sub(d, kin[0].r, kin[1].r);
      double L = nsedi_v3_norm(d), u[3];
      nsedi_kin_dir(&kin[1], ez, u);
      double h = 0.5 * m->body[1].def.shape.length;
      if (c->gen == GEN_SPHERE_CAPSULE && fabs(fabs(nsedi_v3_dot(d, u)) - h) < 0.1) return 0;
      if (c->gen == GEN_SPHERE_BOX) {
        double loc[3];
        const double *hb = m->body[1].def.shape.half;
        nsedi_m3_mulTv(loc, kin[1].R, d);
        int inside = 1;
        for (int i = 0; i < 3; i++) {
          if (fabs(fabs(loc[i]) - hb[i]) < 0.1) return 0;
          inside &= fabs(loc[i]) < hb[i];
        }
        if (inside) return 0;
      }
      if (c->gen == GEN_SPHERE_CYLINDER) {
        const nsed_shape *sh = &m->body[1].def.shape;
        double loc[3], hc = sh->type == NSED_SHAPE_CYLINDER ? 0.5 * sh->length : 0.0;
        nsedi_m3_mulTv(loc, kin[1].R, d);
        double along = fabs(loc[2]) - hc, across = hypot(loc[0], loc[1]) - sh->radius;
        if ((hc > 0 && fabs(along) < 0.1) || fabs(across) < 0.1 || (along < 0 && across < 0))
          return 0;
      }
      if (c->gen == GEN_SPHERE_ELLIPSOID) {
        const nsed_shape *sh = &m->body[1].def.shape;
        double loc[3], f = 0, e = sh->type == NSED_SHAPE_SUPERELLIPSOID ? sh->exponent : 2;
        nsedi_m3_mulTv(loc, kin[1].R, d);
        for (int i = 0; i < 3; i++) f += pow(fabs(loc[i]) / sh->half[i], e);
        if (f < 1.5) return 0;
      }
      return L > 0.9 && fabs(fabs(d[0] / L) - 0.7) > 0.02;
    }
    case GEN_CAPSULES: {
      double u[3], w[3];
      nsedi_kin_dir(&kin[0], ez, u);
      nsedi_kin_dir(&kin[1], ez, w);
      nsedi_v3_sub(d, kin[0].r, kin[1].r);
      double b = nsedi_v3_dot(u, w), e = nsedi_v3_dot(u, d), f = nsedi_v3_dot(w, d);
      double ha = 0.5 * m->body[0].def.shape.length, hb = 0.5 * m->body[1].def.shape.length;
      if (1 - b * b < 0.05) return 0;
      /* the nearest points as the engine finds them (Ericson's clamping) */
      double s = fmax(-ha, fmin(ha, (b * f - e) / (1 - b * b))), tf = f + b * s;
      double t = fmax(-hb, fmin(hb, tf)), sf = t != tf ? b * t - e : (b * f - e) / (1 - b * b);
      if (t != tf) s = fmax(-ha, fmin(ha, sf));
      tf = f + b * s;
      if (fabs(fabs(sf) - ha) < 0.1 || fabs(fabs(tf) - hb) < 0.1) return 0;
      double D[3];
      for (int i = 0; i < 3; i++) D[i] = d[i] + s * u[i] - t * w[i];
      double L = nsedi_v3_norm(D);
      return L > 0.6 && fabs(fabs(D[0] / L) - 0.7) > 0.02;
    }
    case GEN_SUPERELLIPSOID: {
      double nb[3];
      nsedi_m3_mulTv(nb, kin[0].R, n);
      return fabs(nb[0]) > 0.15 && fabs(nb[1]) > 0.15 && fabs(nb[2]) > 0.15;
    }
    default:
      return 1;
  }
}

/* Quaternion of B aligned with A about the joint axis, turned by th:
 * q_B = q_A * conj(q_A0) * rot(axis0, th) * q_B0 (axis0: A's axis in world
 * at the initial configuration, where B's axis matched it). */
static void servo_aligned(const fd_case *c, const double qa[4], double th, double qb[4]) {
  double ca[4] = {c->qa0[0], -c->qa0[1], -c->qa0[2], -c->qa0[3]}, rt[4], t1[4], t2[4];
  nsedi_quat_axis_angle(rt, c->axis_w, th);
  nsedi_quat_mul(t1, qa, ca);
  nsedi_quat_mul(t2, t1, rt);
  nsedi_quat_mul(qb, t2, c->qb0);
}

/* Quaternion of the rotation with columns c0, c1, c2 (Shepperd). */
static void quat_from_cols(double q[4], const double c0[3], const double c1[3],
                           const double c2[3]) {
  double R[3][3];
  for (int i = 0; i < 3; i++) R[i][0] = c0[i], R[i][1] = c1[i], R[i][2] = c2[i];
  double tr = R[0][0] + R[1][1] + R[2][2], s;
  if (tr > 0) {
    s = 2 * sqrt(tr + 1);
    q[0] = s / 4, q[1] = (R[2][1] - R[1][2]) / s, q[2] = (R[0][2] - R[2][0]) / s,
    q[3] = (R[1][0] - R[0][1]) / s;
  } else if (R[0][0] > R[1][1] && R[0][0] > R[2][2]) {
    s = 2 * sqrt(1 + R[0][0] - R[1][1] - R[2][2]);
    q[0] = (R[2][1] - R[1][2]) / s, q[1] = s / 4, q[2] = (R[0][1] + R[1][0]) / s,
    q[3] = (R[0][2] + R[2][0]) / s;
  } else if (R[1][1] > R[2][2]) {
    s = 2 * sqrt(1 + R[1][1] - R[0][0] - R[2][2]);
    q[0] = (R[0][2] - R[2][0]) / s, q[1] = (R[0][1] + R[1][0]) / s, q[2] = s / 4,
    q[3] = (R[1][2] + R[2][1]) / s;
  } else {
    s = 2 * sqrt(1 + R[2][2] - R[0][0] - R[1][1]);
    q[0] = (R[1][0] - R[0][1]) / s, q[1] = (R[0][2] + R[2][0]) / s, q[2] = (R[1][2] + R[2][1]) / s,
    q[3] = s / 4;
  }
  double M[9];
  nsedi_quat_to_mat(M, q);
  for (int i = 0; i < 3; i++)
    CHECK(fabs(M[3 * i] - c0[i]) + fabs(M[3 * i + 1] - c1[i]) + fabs(M[3 * i + 2] - c2[i]) < 1e-14);
}

/* GEN_ROLLER_WHEEL: the wheel (body 1, axis = body z = k1) with a random
 * heading and spin, vertical in even samples and tilted by up to 0.2 rad
 * in odd ones (a sprung vehicle's wheels tilt; the implicit point must
 * still be the roller's lowest point), the roller (body 0, axis = body x)
 * at angle q from the bottom of the wheel (|q| < 0.6 alpha: its smooth
 * surface touches), centre R1 from the wheel's, axis across the radius,
 * inclined by psi to the wheel plane (towards k1), spun about its axis.
 * Velocities: the wheel translates freely and turns about k1 and the floor
 * normal, the roller is carried by it and spins on its axle. */
static void roller_on_wheel(const fd_case *c, int sample, double *x) {
  const nsed_model *m = c->m;
  const nsed_shape *sh = &m->body[0].def.shape;
  const double *n = m->opt.floor_normal;
  double al = M_PI / sh->rollers, R1 = sh->radius * cos(al);
  double h1[3], h2[3], k1[3], e2[3], up[3], a[3], b[3], d[3], tg[3], ax[3], y2[3], j[3], k[3];
  nsedi_v3_tangents(h1, h2, n);
  double th = srnd(M_PI), sg = srnd(M_PI), q = srnd(0.6 * al), ph = srnd(M_PI);
  double tilt = sample % 2 ? srnd(0.2) : 0.0;
  for (int i = 0; i < 3; i++) k1[i] = cos(tilt) * (cos(th) * h1[i] + sin(th) * h2[i]) + sin(tilt) * n[i];
  nsedi_v3_cross(e2, n, k1);
  nsedi_v3_normalize(e2);
  nsedi_v3_cross(up, k1, e2); /* (e2, up, k1) right-handed, up the wheel plane's highest direction */
  for (int i = 0; i < 3; i++) {
    a[i] = cos(sg) * e2[i] + sin(sg) * up[i];
    b[i] = -sin(sg) * e2[i] + cos(sg) * up[i];
    d[i] = cos(q) * up[i] + sin(q) * e2[i]; /* roller centre -> wheel centre */
  }
  double *W = x + 13, *Rl = x;
  quat_from_cols(W + 3, a, b, k1);
  nsedi_v3_cross(tg, d, k1); /* (tg, d, k1) right-handed */
  for (int i = 0; i < 3; i++) ax[i] = cos(sh->psi) * tg[i] + sin(sh->psi) * k1[i];
  nsedi_v3_cross(y2, ax, d); /* (ax, d, y2) right-handed */
  for (int i = 0; i < 3; i++) j[i] = cos(ph) * d[i] + sin(ph) * y2[i];
  nsedi_v3_cross(k, ax, j);
  quat_from_cols(Rl + 3, ax, j, k);
  for (int i = 0; i < 3; i++) Rl[i] = W[i] - R1 * d[i];
  double ww[3], wr[3], off[3], vr[3], RW[9], RR[9];
  double s1 = srnd(2.0), s2 = srnd(2.0), spin = srnd(3.0);
  for (int i = 0; i < 3; i++) {
    ww[i] = s1 * k1[i] + s2 * n[i];
    wr[i] = ww[i] + spin * ax[i];
  }
  nsedi_v3_sub(off, Rl, W);
  nsedi_v3_cross(vr, ww, off);
  nsedi_v3_add(Rl + 7, W + 7, vr);
  nsedi_quat_to_mat(RW, W + 3);
  nsedi_quat_to_mat(RR, Rl + 3);
  nsedi_m3_mulTv(W + 10, RW, ww);
  nsedi_m3_mulTv(Rl + 10, RR, wr);
}

/* A random state for sample number s; returns 1 if aligned (GEN_SERVO). */
static int random_state(const fd_case *c, int s, double *x) {
  const nsed_model *m = c->m;
  for (int tries = 0; tries < 10000; tries++) {
    memset(x, 0, sizeof(double) * (size_t)m->nstate);
    for (int i = 0; i < m->nbody; i++) {
      double *o = x + 13 * i;
      for (int k = 0; k < 3; k++) {
        o[k] = srnd(1.0);
        o[7 + k] = srnd(1.0);
        o[10 + k] = srnd(2.0);
      }
      rand_quat(o + 3);
    }
    int aligned = 0;
    if (c->gen == GEN_SERVO && s % 2 == 1) {
      const nsedi_joint *J = &m->joint[c->idx];
      double one[4] = {1, 0, 0, 0};
      const double *qa = J->a < 0 ? one : x + 13 * J->a + 3;
      servo_aligned(c, qa, srnd(2.5), x + 13 * J->b + 3);
      aligned = 1;
    }
    if (c->gen == GEN_ROLLER_WHEEL) roller_on_wheel(c, s, x);
    /* Rotors' turns: any, except where the generator set the material
     * orientations (turn 0: the state frame is the body's). */
    if (!aligned && c->gen != GEN_ROLLER_WHEEL)
      for (int i = 0; i < m->nbody; i++)
        if (m->body[i].xspin >= 0) x[m->body[i].xspin] = srnd(M_PI);
    /* Quaternions need not be unit (T(q) is a rotation for any q != 0). */
    for (int i = 0; i < m->nbody; i++)
      for (int k = 0; k < 4; k++) x[13 * i + 3 + k] *= (i % 2 ? 1.3 : 0.8);
    if (state_ok(c, x)) return aligned;
  }
  fprintf(stderr, "%s: no admissible random state\n", c->name);
  exit(2);
}

/* ---- the three checks ------------------------------------------------------------ */

/* Richardson-extrapolated central difference from f(-h), f(-h/2), f(h/2), f(h). */
static double richardson(const double f[4], double h) {
  double d1 = (f[3] - f[0]) / (2 * h), d2 = (f[2] - f[1]) / h;
  return (4 * d2 - d1) / 3;
}
static const double FD_STEPS[4] = {-1.0, -0.5, 0.5, 1.0};

/* A servo's piecewise law has kinks: keep the differences off them. */
static int near_kink(const fd_case *c, double t) {
  if (c->is_contact) return 0;
  const nsed_law *L = &c->m->joint[c->idx].def.servo_angle;
  if (c->m->joint[c->idx].def.type != NSED_JOINT_SERVO || L->type != NSED_LAW_PIECEWISE) return 0;
  for (int k = 0; k < L->npoints; k++)
    if (fabs(t - L->times[k]) < 4 * FD_H) return 1;
  return 0;
}

static void check_case(fd_case *c) {
  const nsed_model *m = c->m;
  int nv = 6 * m->nbody;
  int superq = 0;
  for (int i = 0; i < m->nbody; i++) superq |= m->body[i].def.shape.type == NSED_SHAPE_SUPERELLIPSOID;
  const double FD_h = superq ? FD_H_SUPERELLIPSOID : FD_H;
  for (int s = 0; s < NSAMPLE; s++) {
    double x[MAXS], xs[MAXS], du[6 * MAXB], t = 2 * urand();
    while (near_kink(c, t)) t = 2 * urand();
    int aligned = random_state(c, s, x);
    for (int k = 0; k < nv; k++) du[k] = srnd(k % 6 < 3 ? 1.0 : 2.0);
    rowset base, rs[4];
    eval_rows(c, x, t, &base);
    CHECK_MSG(base.rc == NSED_OK, "%s: contact evaluation failed (%d)", c->name, base.rc);
    int n = base.n;
    if (c->gen == GEN_ROLLER_WHEEL) {
      /* The implicit point (from the wheel) is the explicit one (contact 1,
       * from the roller's own axis) on a mounted roller of a vertical or tilted wheel,
       * and so is its rate along a motion that keeps the mount. */
      fd_case cx = *c;
      rowset bx;
      cx.idx = 1;
      eval_rows(&cx, x, t, &bx);
      double dp = 0;
      for (int k = 0; k < 3; k++) dp = fmax(dp, fabs(bx.g.p[k] - base.g.p[k]));
      CHECK_MSG(dp <= 1e-12, "%s state %d: implicit point %.3g from the explicit one", c->name, s,
                dp);
      for (int i = 0; i < 3; i++) {
        double ev = fabs(bx.r[i].vel - base.r[i].vel), eb = fabs(bx.r[i].bias - base.r[i].bias);
        CHECK_MSG(ev <= 1e-12 * (1 + fabs(bx.r[i].vel)) && eb <= 1e-10 * (1 + fabs(bx.r[i].bias)),
                  "%s state %d row %d: implicit vel %.15g bias %.15g, explicit %.15g %.15g",
                  c->name, s, i, base.r[i].vel, base.r[i].bias, bx.r[i].vel, bx.r[i].bias);
      }
    }

    /* 1. rate of phi along the free motion */
    for (int p = 0; p < 4; p++) {
      free_motion(m, x, FD_STEPS[p] * FD_h, xs);
      eval_rows(c, xs, t + FD_STEPS[p] * FD_h, &rs[p]);
      CHECK(rs[p].rc == NSED_OK && rs[p].n == n);
      if (c->gen >= GEN_ROLLER_BODY && c->gen != GEN_SPHERES)
        CHECK_MSG(rs[p].g.region * base.g.region > 0, "%s: the contact left its region", c->name);
    }
    for (int i = 0; i < n; i++) {
      int kind = kind_of(c, i);
      if (kind == K_TANGENT || kind == K_SPIN) continue; /* velocity-level rows: no phi */
      if (kind == K_ANGLE && !aligned) continue; /* its rate is (wB - wA).a only when aligned */
      double f[4];
      for (int p = 0; p < 4; p++) f[p] = rs[p].r[i].pos - base.r[i].pos;
      if (kind == K_ANGLE) /* the shortest-turn error may wrap */
        for (int p = 0; p < 4; p++) f[p] = remainder(f[p], 2 * M_PI);
      double fd = richardson(f, FD_h), e = fabs(fd - base.r[i].vel) / (fabs(base.r[i].vel) + 1);
      note(c, kind, C_RATE, e);
      CHECK_MSG(e <= TOL_FD, "%s state %d row %d (%s): d(phi)/dt %.15g, vel %.15g (rel %.3g)",
                c->name, s, i, kind_name[kind], fd, base.r[i].vel, e);
    }

    /* The rates of a DIFFERENTIAL contact's tracking states (q, phi): the
     * time derivative of their exact values along the same motion. */
    if (c->is_contact && m->contact[c->idx].tracking == NSED_TRACKING_DIFFERENTIAL) {
      int nt = m->contact[c->idx].ntrack;
      double f[3][4];
      for (int p = 0; p < 4; p++) {
        nsedi_kin kin[MAXB];
        double xt0[3], xt[3];
        free_motion(m, x, FD_STEPS[p] * FD_h, xs);
        nsedi_kin_eval(m, x, kin);
        CHECK(nsedi_track_init(m, c->idx, kin, xt0) == NSED_OK);
        nsedi_kin_eval(m, xs, kin);
        CHECK(nsedi_track_init(m, c->idx, kin, xt) == NSED_OK);
        for (int k = 0; k < nt; k++) f[k][p] = remainder(xt[k] - xt0[k], 2 * M_PI);
      }
      for (int k = 0; k < nt; k++) {
        double fd = richardson(f[k], FD_h), r = base.g.track_rate[k];
        double e = fabs(fd - r) / (fabs(r) + 1);
        worst_track = fmax(worst_track, e);
        CHECK_MSG(e <= TOL_FD, "%s state %d: tracking rate %d %.15g, d/dt %.15g", c->name, s, k, r,
                  fd);
      }
    }

    /* 2. the Jacobian: vel linear in u, J independent of u; the known term */
    for (int i = 0; i < n; i++) {
      int kind = kind_of(c, i);
      double kn = base.r[i].vel - row_Ju(&base.r[i], x), kx = known_of(c, &base, i, t);
      double e = fabs(kn - kx) / (fabs(base.r[i].vel) + 1);
      note(c, kind, C_KNOWN, e);
      CHECK_MSG(e <= TOL_LIN, "%s state %d row %d (%s): vel - J u = %.17g, expected %.17g", c->name,
                s, i, kind_name[kind], kn, kx);
    }
    for (int k = 0; k < nv; k++) {
      const double delta = 0.75;
      memcpy(xs, x, sizeof(double) * (size_t)m->nstate);
      xs[13 * (k / 6) + 7 + k % 6] += delta;
      rowset pr;
      eval_rows(c, xs, t, &pr);
      for (int i = 0; i < n; i++) {
        int kind = kind_of(c, i);
        double dv = pr.r[i].vel - base.r[i].vel, ex = row_coef(&base.r[i], k) * delta;
        double e = fabs(dv - ex) / (fabs(base.r[i].vel) + fabs(pr.r[i].vel) + 1);
        double ej = 0;
        for (int q = 0; q < 6; q++)
          ej = fmax(ej, fmax(fabs(pr.r[i].ja[q] - base.r[i].ja[q]),
                             fabs(pr.r[i].jb[q] - base.r[i].jb[q])));
        note(c, kind, C_JAC, fmax(e, ej));
        CHECK_MSG(e <= TOL_LIN, "%s state %d row %d (%s) u[%d]: dvel %.17g, J delta %.17g", c->name,
                  s, i, kind_name[kind], k, dv, ex);
        CHECK_MSG(ej <= TOL_LIN, "%s state %d row %d (%s): J changes with u[%d] by %.3g", c->name,
                  s, i, kind_name[kind], k, ej);
        CHECK(pr.r[i].a == base.r[i].a && pr.r[i].b == base.r[i].b);
      }
    }

    /* 3. the bias: d(vel)/dt along constant accelerations = J du + bias */
    for (int p = 0; p < 4; p++) {
      accel_motion(m, x, du, FD_STEPS[p] * FD_h, xs);
      eval_rows(c, xs, t + FD_STEPS[p] * FD_h, &rs[p]);
      CHECK(rs[p].rc == NSED_OK && rs[p].n == n);
      if (c->gen >= GEN_ROLLER_BODY && c->gen != GEN_SPHERES)
        CHECK_MSG(rs[p].g.region * base.g.region > 0, "%s: the contact left its region", c->name);
    }
    for (int i = 0; i < n; i++) {
      int kind = kind_of(c, i);
      double f[4];
      for (int p = 0; p < 4; p++) f[p] = rs[p].r[i].vel - base.r[i].vel;
      double fd = richardson(f, FD_h), ex = row_Jdu(&base.r[i], du) + base.r[i].bias;
      double e = fabs(fd - ex) / (fabs(ex) + 1);
      note(c, kind, C_BIAS, e);
      CHECK_MSG(
          e <= TOL_FD,
          "%s state %d row %d (%s): d(vel)/dt %.15g, J du + bias %.15g (bias %.15g, rel %.3g)",
          c->name, s, i, kind_name[kind], fd, ex, base.r[i].bias, e);
    }
  }
}

/* ---- models ------------------------------------------------------------------------ */

/* Build the models with rotors where a body's shape (or given inertia) is
 * symmetric about an axis (the second pass of main). */
static int rotor_variant;

/* The rotor axis a body of this shape gets in the rotor pass. */
static nsed_rotor rotor_for(nsed_shape_type type) {
  if (!rotor_variant) return NSED_ROTOR_NONE;
  switch (type) {
    case NSED_SHAPE_NONE:
    case NSED_SHAPE_POINT:
    case NSED_SHAPE_ROLLER:
      return NSED_ROTOR_X;
    case NSED_SHAPE_SPHERE:
      return NSED_ROTOR_Y;
    case NSED_SHAPE_DISK:
    case NSED_SHAPE_CYLINDER:
    case NSED_SHAPE_CAPSULE:
      return NSED_ROTOR_Z;
    default:
      return NSED_ROTOR_NONE;
  }
}

static void add_body(nsed_model *m, const char *name, nsed_shape_type type, double radius,
                     const double q0[4]) {
  nsed_error err;
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "%s", name);
  b.mass = 1.7;
  b.shape.type = type;
  b.shape.radius = radius;
  if (type == NSED_SHAPE_NONE || type == NSED_SHAPE_POINT) {
    b.inertia[0] = 0.3;
    b.inertia[1] = 0.45;
    b.inertia[2] = rotor_variant ? 0.45 : 0.6;
  }
  b.rotor = rotor_for(type);
  if (q0) memcpy(b.quat, q0, sizeof b.quat);
  must(nsed_model_add_body(m, &b, &err), &err);
}

static int must_idx(int rc, const nsed_error *err) {
  must(rc, err);
  return rc;
}

static void unit3(double v[3], double x, double y, double z) {
  nsedi_v3_set(v, x, y, z);
  nsedi_v3_normalize(v);
}

/* Two bodies A, B (non-trivial initial orientations) and one joint of the
 * given type from A (or the ground) to B. */
static void joint_case(fd_case *c, nsed_joint_type type, int ground, int piecewise) {
  static const char *tn[] = {"spherical", "revolute", "cylindrical", "prismatic",
                             "universal", "weld",     "servo",       "align"};
  nsed_error err;
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "%s%s (%s)%s", tn[type], piecewise ? " piecewise" : "",
           ground ? "ground-B" : "A-B", rotor_variant ? " rotors" : "");
  double ax[3], ay[3];
  unit3(ax, 1, 1, 0);
  unit3(ay, 0, 1, 2);
  nsedi_quat_axis_angle(c->qa0, ax, 0.4);
  nsedi_quat_axis_angle(c->qb0, ay, -0.7);
  if (ground) nsedi_v3_set(c->qa0 + 1, 0, 0, 0), c->qa0[0] = 1;
  must(nsed_model_create(&c->m, &err), &err);
  add_body(c->m, "A", NSED_SHAPE_NONE, 0, ground ? NULL : c->qa0);
  add_body(c->m, "B", NSED_SHAPE_NONE, 0, c->qb0);
  nsed_joint_def j;
  nsed_joint_def_default(&j);
  snprintf(j.name, sizeof j.name, "j");
  j.type = type;
  if (!ground) snprintf(j.body_a, sizeof j.body_a, "A");
  snprintf(j.body_b, sizeof j.body_b, "B");
  nsedi_v3_set(j.anchor_a, 0.2, -0.1, 0.3);
  nsedi_v3_set(j.anchor_b, -0.3, 0.15, 0.1);
  unit3(j.axis_a, 0.3, -0.5, 0.8);
  /* axis_b: A's axis carried into B's frame at the initial configuration
   * (universal: a perpendicular one; align: any B-fixed axis). */
  double RA[9], RB[9], aw[3], bw[3];
  nsedi_quat_to_mat(RA, c->qa0);
  nsedi_quat_to_mat(RB, c->qb0);
  nsedi_m3_mulv(aw, RA, j.axis_a);
  nsedi_v3_copy(c->axis_w, aw);
  nsedi_v3_copy(bw, aw);
  if (type == NSED_JOINT_UNIVERSAL) {
    double t2[3];
    nsedi_v3_tangents(bw, t2, aw);
  }
  nsedi_m3_mulTv(j.axis_b, RB, bw);
  if (type == NSED_JOINT_ALIGN) unit3(j.axis_b, 0.6, 0.2, -0.5);
  if (type == NSED_JOINT_SERVO) {
    j.servo_angle.type = NSED_LAW_SINE;
    j.servo_angle.offset = 0.2;
    j.servo_angle.amplitude = 0.7;
    j.servo_angle.omega = 3.0;
    j.servo_angle.phase = 0.4;
  }
  if (piecewise) { /* kinks inside the sampled times [0, 2] and before them */
    static const double tk[] = {-0.5, 0.3, 0.9, 1.6, 2.4}, vk[] = {0.1, -0.4, 0.8, 0.5, 2.0};
    j.servo_angle.type = NSED_LAW_PIECEWISE;
    j.servo_angle.npoints = 5;
    memcpy(j.servo_angle.times, tk, sizeof tk);
    memcpy(j.servo_angle.values, vk, sizeof vk);
  }
  c->idx = must_idx(nsed_model_add_joint(c->m, &j, &err), &err);
  nsed_options o = *nsed_model_options(c->m);
  unit3(o.floor_normal, 0.15, -0.25, 1.0);
  must(nsed_model_set_options(c->m, &o, &err), &err);
  must(nsed_model_finalize(c->m, &err), &err);
  c->gen = type == NSED_JOINT_SERVO ? GEN_SERVO : GEN_FREE;
}

/* One contact of the given shape with the floor (tilted, offset, optionally
 * moving) or with a second body (on_sphere: 1 sphere, 2 capsule, 3 box, 4 cylinder, 5 disk,
 * 6 ellipsoid, 8 superellipsoid); a spare body checks the zero columns. */
static void contact_case(fd_case *c, const char *name, nsed_shape_type type, double radius,
                         int rollers, double psi, int on_sphere, int moving,
                         nsed_contact_tracking tracking, int gen) {
  nsed_error err;
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "%s%s", name, rotor_variant ? " rotors" : "");
  must(nsed_model_create(&c->m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "body");
  b.mass = 1.3;
  b.shape.type = type;
  b.shape.radius = radius;
  b.shape.rollers = rollers;
  b.shape.psi = psi;
  if (gen == GEN_ROLLER_WHEEL) { /* below the wheel's centre, axis x turned by psi towards z */
    double ey[3] = {0, 1, 0};
    b.position[1] = -radius * cos(M_PI / rollers);
    nsedi_quat_axis_angle(b.quat, ey, -psi);
  }
  if (type == NSED_SHAPE_POINT) b.inertia[0] = b.inertia[1] = b.inertia[2] = 0.2;
  if (type == NSED_SHAPE_BOX) nsedi_v3_set(b.shape.half, 0.3, 0.2, 0.1);
  if (type == NSED_SHAPE_ELLIPSOID || type == NSED_SHAPE_SUPERELLIPSOID)
    nsedi_v3_set(b.shape.half, 0.5, 0.3, 0.2);
  b.shape.exponent = 4;
  if (type == NSED_SHAPE_CYLINDER || type == NSED_SHAPE_CAPSULE) b.shape.length = 0.5;
  b.rotor = rotor_for(type);
  must(nsed_model_add_body(c->m, &b, &err), &err);
  if ((on_sphere >= 4 && on_sphere <= 6) || on_sphere == 8) {
    nsed_body_def o;
    nsed_body_def_default(&o);
    snprintf(o.name, sizeof o.name, "other");
    o.mass = 1.7;
    o.shape.type = on_sphere == 4   ? NSED_SHAPE_CYLINDER
                   : on_sphere == 5 ? NSED_SHAPE_DISK
                   : on_sphere == 6 ? NSED_SHAPE_ELLIPSOID
                                    : NSED_SHAPE_SUPERELLIPSOID;
    o.shape.exponent = 4; /* even: analytic, as the differences need */
    o.shape.radius = 0.3;
    o.shape.length = 0.6;
    nsedi_v3_set(o.shape.half, 0.45, 0.3, 0.2);
    o.rotor = rotor_for(o.shape.type);
    must(nsed_model_add_body(c->m, &o, &err), &err);
  } else if (on_sphere == 3) {
    nsed_body_def o;
    nsed_body_def_default(&o);
    snprintf(o.name, sizeof o.name, "other");
    o.mass = 1.7;
    o.shape.type = NSED_SHAPE_BOX;
    nsedi_v3_set(o.shape.half, 0.4, 0.3, 0.2);
    must(nsed_model_add_body(c->m, &o, &err), &err);
  } else if (on_sphere == 2 || on_sphere == 7) { /* a capsule, touched by a sphere or a capsule */
    nsed_body_def o;
    nsed_body_def_default(&o);
    snprintf(o.name, sizeof o.name, "other");
    o.mass = 1.7;
    o.shape.type = NSED_SHAPE_CAPSULE;
    o.shape.radius = on_sphere == 2 ? 0.2 : 0.15;
    o.shape.length = on_sphere == 2 ? 0.8 : 0.9;
    o.rotor = rotor_for(o.shape.type);
    must(nsed_model_add_body(c->m, &o, &err), &err);
  } else if (on_sphere)
    add_body(c->m, "other", NSED_SHAPE_SPHERE, 0.5, NULL);
  else if (gen == GEN_ROLLER_WHEEL) {
    /* The wheel (axis z) at the origin, the roller below it at R1. */
    nsed_body_def w;
    nsed_body_def_default(&w);
    snprintf(w.name, sizeof w.name, "wheel");
    w.mass = 2.0;
    w.shape.type = NSED_SHAPE_DISK;
    w.shape.radius = radius;
    w.rotor = rotor_for(w.shape.type);
    must(nsed_model_add_body(c->m, &w, &err), &err);
  } else
    add_body(c->m, "spare", NSED_SHAPE_NONE, 0, NULL);
  nsed_contact_def cd;
  nsed_contact_def_default(&cd);
  snprintf(cd.name, sizeof cd.name, "c");
  snprintf(cd.body, sizeof cd.body, "body");
  if (on_sphere) snprintf(cd.other, sizeof cd.other, "other");
  if (type == NSED_SHAPE_BOX) {
    /* a vertex against a plane of the model (tilted, moving like a belt) */
    nsed_plane_def pd;
    nsed_plane_def_default(&pd);
    snprintf(pd.name, sizeof pd.name, "slope");
    unit3(pd.normal, -0.3, 0.2, 1.0);
    nsedi_v3_set(pd.point, -0.1, 0.3, 0.02);
    if (moving) {
      double t1[3], t2[3];
      nsedi_v3_tangents(t1, t2, pd.normal);
      for (int k = 0; k < 3; k++) pd.velocity[k] = -0.8 * t1[k] + 1.1 * t2[k];
    }
    must(nsed_model_add_plane(c->m, &pd, &err), &err);
    snprintf(cd.other, sizeof cd.other, "slope");
    cd.feature = 5;
  }
  if ((type == NSED_SHAPE_CYLINDER || type == NSED_SHAPE_CAPSULE) && !on_sphere) cd.feature = 1;
  cd.tracking = tracking;
  if (gen == GEN_ROLLER_WHEEL) snprintf(cd.wheel, sizeof cd.wheel, "wheel");
  c->idx = must_idx(nsed_model_add_contact(c->m, &cd, &err), &err);
  if (gen == GEN_ROLLER_WHEEL) { /* the same roller, explicit, for comparison */
    snprintf(cd.name, sizeof cd.name, "cx");
    cd.tracking = NSED_TRACKING_EXPLICIT;
    cd.wheel[0] = 0;
    must(nsed_model_add_contact(c->m, &cd, &err), &err);
  }
  c->is_contact = 1;
  nsed_options o = *nsed_model_options(c->m);
  unit3(o.floor_normal, 0.15, -0.25, 1.0);
  nsedi_v3_set(o.floor_point, 0.1, -0.2, 0.05);
  if (moving) {
    double t1[3], t2[3];
    nsedi_v3_tangents(t1, t2, o.floor_normal);
    for (int k = 0; k < 3; k++) o.floor_velocity[k] = 1.5 * t1[k] - 0.7 * t2[k];
  }
  must(nsed_model_set_options(c->m, &o, &err), &err);
  must(nsed_model_finalize(c->m, &err), &err);
  c->gen = gen;
}

/* ---- 4. the constrained solve --------------------------------------------------------- */

typedef struct {
  const char *a, *b;
  nsed_joint_type type;
  double anchor_a[3];
} jspec;

static nsed_model *solve_model(int nbody, const jspec *js, int nj) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  for (int i = 0; i < nbody; i++) {
    nsed_body_def b;
    nsed_body_def_default(&b);
    snprintf(b.name, sizeof b.name, "B%d", i + 1);
    b.mass = 1.0 + 0.5 * i;
    nsedi_v3_set(b.inertia, 0.2 + 0.05 * i, 0.3, 0.45 - 0.03 * i);
    must(nsed_model_add_body(m, &b, &err), &err);
  }
  for (int k = 0; k < nj; k++) {
    nsed_joint_def j;
    nsed_joint_def_default(&j);
    snprintf(j.name, sizeof j.name, "j%d", k);
    j.type = js[k].type;
    snprintf(j.body_a, sizeof j.body_a, "%s", js[k].a);
    snprintf(j.body_b, sizeof j.body_b, "%s", js[k].b);
    nsedi_v3_copy(j.anchor_a, js[k].anchor_a);
    nsedi_v3_set(j.anchor_b, -0.2, 0.1, -0.15);
    if (j.type == NSED_JOINT_UNIVERSAL) nsedi_v3_set(j.axis_b, 1, 0, 0);
    if (j.type == NSED_JOINT_SERVO) {
      j.servo_angle.type = NSED_LAW_SINE;
      j.servo_angle.amplitude = 0.5;
      j.servo_angle.omega = 2.0;
    }
    must(nsed_model_add_joint(m, &j, &err), &err);
  }
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

/* Rows of every joint at a random state, Baumgarte targets, a random force,
 * the solve; checks both equations. Returns the status; *deficient set by
 * the solve; worst residuals accumulated in res[2]; lam out (nr). */
static int solve_once(const nsed_model *m, double eta, double xi, const double *anchor,
                      int *nr_out, double *lam, nsedi_row *rows, int *deficient, double res[2]) {
  double x[MAXS], f[6 * MAXB], du[6 * MAXB], target[MAXR];
  nsedi_kin kin[MAXB];
  memset(x, 0, sizeof x);
  for (int i = 0; i < m->nbody; i++) {
    double *o = x + 13 * i;
    for (int k = 0; k < 3; k++) {
      o[k] = srnd(1.0);
      o[7 + k] = srnd(1.0);
      o[10 + k] = srnd(2.0);
    }
    rand_quat(o + 3);
  }
  nsedi_kin_eval(m, x, kin);
  double t = 2 * urand();
  int nr = 0;
  for (int j = 0; j < m->njoint; j++) nr += nsedi_joint_rows(m, j, kin, t, rows + nr);
  CHECK(nr == m->nrow);
  for (int i = 0; i < nr; i++)
    target[i] = -(rows[i].bias + 2 * eta * rows[i].vel + xi * xi * rows[i].pos);
  for (int k = 0; k < m->nv; k++) f[k] = srnd(5.0);
  nsedi_dyn_ws *ws = nsedi_dyn_ws_create(m, nr);
  CHECK(ws != NULL);
  /* The solve runs inside the RHS: it allocates nothing, also when the
   * rows are redundant and it takes the least-squares path. */
  long allocs = nallocs;
  int rc = nsedi_solve_constrained(m, ws, nr, rows, rows, target, f, anchor, du, lam, deficient);
  CHECK_MSG(nallocs == allocs, "the constrained solve allocated %ld times (rank deficient %d)",
            nallocs - allocs, *deficient);
  nsedi_dyn_ws_free(&ws);
  *nr_out = nr;
  if (rc != NSED_OK) return rc;
  /* J du = target. J du - target = (J M^-1 J^T) lambda - (target - J M^-1 f),
   * so the scale of its round-off is sum_j |(J M^-1 J^T)_ij lambda_j| +
   * |J M^-1 f|_i + |target_i| (random states off the constraint manifold
   * can make the Schur complement ill-conditioned and lambda large). */
  double minv[6 * MAXB];
  for (int k = 0; k < m->nv; k++) {
    const nsed_body_def *b = &m->body[k / 6].def;
    minv[k] = 1.0 / (k % 6 < 3 ? b->mass : b->inertia[k % 6 - 3]);
  }
  for (int i = 0; i < nr; i++) {
    double jdu = row_Jdu(&rows[i], du), sc = 1 + fabs(target[i]);
    for (int k = 0; k < m->nv; k++) {
      double cik = row_coef(&rows[i], k);
      sc += fabs(cik * minv[k] * f[k]);
      for (int j = 0; j < nr; j++) sc += fabs(cik * minv[k] * row_coef(&rows[j], k) * lam[j]);
    }
    double e = fabs(jdu - target[i]) / sc;
    res[0] = fmax(res[0], e);
    CHECK_MSG(e <= 1e-12, "row %d: J du = %.15g, target %.15g", i, jdu, target[i]);
  }
  /* M du = f + J^T lambda, M = diag(m, m, m, J1, J2, J3) per body */
  for (int k = 0; k < m->nv; k++) {
    const nsed_body_def *b = &m->body[k / 6].def;
    double mk = k % 6 < 3 ? b->mass : b->inertia[k % 6 - 3];
    double rhs = f[k], sc = 1 + fabs(f[k]);
    for (int i = 0; i < nr; i++) {
      rhs += row_coef(&rows[i], k) * lam[i];
      sc += fabs(row_coef(&rows[i], k) * lam[i]);
    }
    double e = fabs(mk * du[k] - rhs) / sc;
    res[1] = fmax(res[1], e);
    CHECK_MSG(e <= 1e-12, "component %d: M du = %.15g, f + J^T lambda = %.15g", k, mk * du[k], rhs);
  }
  return rc;
}

/* The condition number of the retained part of the Schur complement J M^-1
 * J^T of rows (its largest singular value over its smallest above the
 * solve's rank cut, NSEDI_SCHUR_RANK_CUT). */
static double retained_condition(const nsed_model *m, int nr, const nsedi_row *rows) {
  static double G[MAXR * MAXR], B[MAXR];
  for (int i = 0; i < nr; i++) {
    B[i] = 0;
    for (int j = 0; j < nr; j++) {
      double g = 0;
      for (int k = 0; k < m->nv; k++) {
        const nsed_body_def *b = &m->body[k / 6].def;
        double mk = k % 6 < 3 ? b->mass : b->inertia[k % 6 - 3];
        g += row_coef(&rows[i], k) * row_coef(&rows[j], k) / mk;
      }
      G[(size_t)j * nr + i] = g;
    }
  }
  nsedi_lstsq_ws ws;
  CHECK(nsedi_lstsq_ws_init(&ws, nr, 1) == 0);
  int rank = 0;
  CHECK(nsedi_lstsq_square(&ws, nr, G, 1, B, NSEDI_SCHUR_RANK_CUT, &rank) == 0);
  double kappa = rank > 0 ? ws.s[0] / ws.s[rank - 1] : INFINITY;
  nsedi_lstsq_ws_free(&ws);
  return kappa;
}

static void check_solve(void) {
  double res[2] = {0, 0}, resr[2] = {0, 0}, lamdiff = 0, anchordiff = 0;
  nsedi_row rows[MAXR];
  double lam[MAXR];
  int nr, def;
  /* A chain through every joint type (and a loop closed by a spherical
   * joint to the ground): 34 independent rows on 36 velocities. */
  {
    const jspec js[] = {
        {"ground", "B1", NSED_JOINT_REVOLUTE, {0.1, 0.2, 0.3}},
        {"B1", "B2", NSED_JOINT_SERVO, {0.3, -0.1, 0.2}},
        {"B2", "B3", NSED_JOINT_CYLINDRICAL, {-0.2, 0.1, 0.25}},
        {"B3", "B4", NSED_JOINT_UNIVERSAL, {0.15, 0.2, -0.1}},
        {"B4", "B5", NSED_JOINT_PRISMATIC, {0.2, 0.2, 0.1}},
        {"B5", "B6", NSED_JOINT_WELD, {-0.1, 0.3, 0.2}},
        {"ground", "B3", NSED_JOINT_ALIGN, {0, 0, 0}},
        {"ground", "B6", NSED_JOINT_SPHERICAL, {1.0, -0.5, 0.2}},
    };
    nsed_model *m = solve_model(6, js, 8);
    for (int s = 0; s < NSAMPLE; s++) {
      int rc = solve_once(m, 2.0, 3.0, NULL, &nr, lam, rows, &def, res);
      CHECK_MSG(rc == NSED_OK && !def, "chain sample %d: rc %d, rank deficient %d", s, rc, def);
    }
    nsed_model_free(&m);
  }
  /* Redundant: two identical spherical joints; a weld and a revolute on the
   * same pair. Least squares; identical rows share the multiplier. */
  {
    const jspec js1[] = {
        {"ground", "B1", NSED_JOINT_REVOLUTE, {0.1, 0.2, 0.3}},
        {"B1", "B2", NSED_JOINT_SPHERICAL, {0.3, -0.1, 0.2}},
        {"B1", "B2", NSED_JOINT_SPHERICAL, {0.3, -0.1, 0.2}},
    };
    const jspec js2[] = {
        {"ground", "B1", NSED_JOINT_SPHERICAL, {0.1, 0.2, 0.3}},
        {"B1", "B2", NSED_JOINT_WELD, {0.3, -0.1, 0.2}},
        {"B1", "B2", NSED_JOINT_REVOLUTE, {0.3, -0.1, 0.2}},
    };
    /* Identical rows share the multiplier in exact arithmetic; in floating
     * point the split is the least squares' forward error, which grows with
     * the condition of the retained part. A random state near a singular
     * configuration (a retained singular value of 2.6e-9 of the largest,
     * sample 3 of the first model) split its pair 3.4e-4 apart under
     * OpenBLAS's Haswell kernels on an AMD EPYC, below 1e-8 elsewhere: such
     * draws (retained condition above NEAR_SINGULAR) are solved and checked
     * as every sample, their split not asserted, and at most a few may
     * occur. */
    const double NEAR_SINGULAR = 1e6;
    int near_singular = 0;
    for (int v = 0; v < 2; v++) {
      nsed_model *m = solve_model(2, v ? js2 : js1, 3);
      int r0 = m->joint[1].row0, r1 = m->joint[2].row0, nsh = v ? 5 : 3;
      for (int s = 0; s < NSAMPLE; s++) {
        int rc = solve_once(m, 2.0, 3.0, NULL, &nr, lam, rows, &def, resr);
        CHECK_MSG(rc == NSED_OK && def, "redundant %d sample %d: rc %d, rank deficient %d", v, s,
                  rc, def);
        if (retained_condition(m, nr, rows) > NEAR_SINGULAR) {
          near_singular++;
          continue;
        }
        double lmax = 0;
        for (int i = 0; i < nr; i++) lmax = fmax(lmax, fabs(lam[i]));
        for (int i = 0; i < nsh; i++) {
          double e = fabs(lam[r0 + i] - lam[r1 + i]) / (1 + lmax);
          lamdiff = fmax(lamdiff, e);
          CHECK_MSG(e <= 1e-8, "redundant %d sample %d row %d: multipliers %.15g and %.15g", v, s,
                    i, lam[r0 + i], lam[r1 + i]);
        }
      }
      nsed_model_free(&m);
    }
    printf("solve: redundant, %d of %d draws near a singular configuration (retained condition "
           "above %.0e; split not asserted)\n", near_singular, 2 * NSAMPLE, NEAR_SINGULAR);
    CHECK_MSG(near_singular <= 2, "%d of %d redundant draws near a singular configuration",
              near_singular, 2 * NSAMPLE);
    /* With an anchor a the multipliers are the solution nearest it: the two
     * identical joints share the correction from a equally. */
    nsed_model *m = solve_model(2, js1, 3);
    int r0 = m->joint[1].row0, r1 = m->joint[2].row0;
    double anchor[MAXR];
    for (int s = 0; s < NSAMPLE; s++) {
      for (int i = 0; i < MAXR; i++) anchor[i] = srnd(10.0);
      int rc = solve_once(m, 2.0, 3.0, anchor, &nr, lam, rows, &def, resr);
      CHECK_MSG(rc == NSED_OK && def, "anchored sample %d: rc %d, deficient %d", s, rc, def);
      double lmax = 0;
      for (int i = 0; i < nr; i++) lmax = fmax(lmax, fabs(lam[i]) + fabs(anchor[i]));
      for (int i = 0; i < 3; i++) {
        double e = fabs((lam[r0 + i] - anchor[r0 + i]) - (lam[r1 + i] - anchor[r1 + i])) / (1 + lmax);
        anchordiff = fmax(anchordiff, e);
        CHECK_MSG(e <= 1e-8, "anchored sample %d row %d: corrections %.15g and %.15g", s, i,
                  lam[r0 + i] - anchor[r0 + i], lam[r1 + i] - anchor[r1 + i]);
      }
    }
    nsed_model_free(&m);
  }
  /* Contradictory: two welds of B1 to the ground at anchors 0.3 apart. With
   * position stabilisation their targets cannot both hold; without it
   * (eta = xi = 0) the identical rows have identical targets and hold. */
  {
    const jspec js[] = {
        {"ground", "B1", NSED_JOINT_WELD, {0.2, -0.1, 0.3}},
        {"ground", "B1", NSED_JOINT_WELD, {0.5, -0.1, 0.3}},
    };
    nsed_model *m = solve_model(1, js, 2);
    double junk[2] = {0, 0};
    for (int s = 0; s < NSAMPLE; s++) {
      int rc = solve_once(m, 2.0, 3.0, NULL, &nr, lam, rows, &def, junk);
      CHECK_MSG(rc == NSED_ERR_SINGULAR, "contradictory welds sample %d: rc %d (%s)", s, rc,
                nsed_status_name(rc));
      rc = solve_once(m, 0.0, 0.0, NULL, &nr, lam, rows, &def, resr);
      CHECK_MSG(rc == NSED_OK && def, "unstabilised double weld sample %d: rc %d, deficient %d", s,
                rc, def);
    }
    nsed_model_free(&m);
  }
  printf("solve: chain |J du - target| %.2e, |M du - f - J^T lam| %.2e (relative)\n", res[0],
         res[1]);
  printf("solve: anchored duplicates' corrections differ by %.2e\n", anchordiff);
  printf("solve: redundant %.2e, %.2e; duplicate multipliers differ by %.2e\n", resr[0], resr[1],
         lamdiff);
}

/* Every case of one pass (rotor_variant set by the caller); returns the
 * new count. */
static int add_cases(fd_case *cases, int nc) {
  for (int g = 0; g < 2; g++)
    for (int t = NSED_JOINT_SPHERICAL; t <= NSED_JOINT_SERVO; t++)
      joint_case(&cases[nc++], t, g, 0);
  joint_case(&cases[nc++], NSED_JOINT_SERVO, 0, 1);
  joint_case(&cases[nc++], NSED_JOINT_ALIGN, 1, 0); /* body_a must be the ground */
  const nsed_contact_tracking INH = NSED_TRACKING_INHERIT;
  contact_case(&cases[nc++], "sphere/floor", NSED_SHAPE_SPHERE, 0.35, 0, 0, 0, 0, INH, GEN_FREE);
  contact_case(&cases[nc++], "point/floor", NSED_SHAPE_POINT, 0, 0, 0, 0, 0, INH, GEN_FREE);
  contact_case(&cases[nc++], "disk rim/floor", NSED_SHAPE_DISK, 0.4, 0, 0, 0, 0, INH, GEN_DISK);
  contact_case(&cases[nc++], "sphere/sphere", NSED_SHAPE_SPHERE, 0.3, 0, 0, 1, 0, INH, GEN_SPHERES);
  contact_case(&cases[nc++], "sphere/capsule", NSED_SHAPE_SPHERE, 0.3, 0, 0, 2, 0, INH,
               GEN_SPHERE_CAPSULE);
  contact_case(&cases[nc++], "sphere/box", NSED_SHAPE_SPHERE, 0.3, 0, 0, 3, 0, INH, GEN_SPHERE_BOX);
  contact_case(&cases[nc++], "sphere/cylinder", NSED_SHAPE_SPHERE, 0.3, 0, 0, 4, 0, INH,
               GEN_SPHERE_CYLINDER);
  contact_case(&cases[nc++], "sphere/disk", NSED_SHAPE_SPHERE, 0.3, 0, 0, 5, 0, INH,
               GEN_SPHERE_CYLINDER);
  contact_case(&cases[nc++], "sphere/ellipsoid", NSED_SHAPE_SPHERE, 0.3, 0, 0, 6, 0, INH,
               GEN_SPHERE_ELLIPSOID);
  contact_case(&cases[nc++], "capsule/capsule", NSED_SHAPE_CAPSULE, 0.2, 0, 0, 7, 0, INH,
               GEN_CAPSULES);
  contact_case(&cases[nc++], "sphere/moving floor", NSED_SHAPE_SPHERE, 0.35, 0, 0, 0, 1, INH,
               GEN_FREE);
  contact_case(&cases[nc++], "disk rim/moving floor", NSED_SHAPE_DISK, 0.4, 0, 0, 0, 1, INH,
               GEN_DISK);
  contact_case(&cases[nc++], "box vertex/plane", NSED_SHAPE_BOX, 0, 0, 0, 0, 0, INH, GEN_FREE);
  contact_case(&cases[nc++], "cylinder rim/floor", NSED_SHAPE_CYLINDER, 0.4, 0, 0, 0, 0, INH,
               GEN_DISK);
  contact_case(&cases[nc++], "ellipsoid/floor", NSED_SHAPE_ELLIPSOID, 0, 0, 0, 0, 0, INH, GEN_FREE);
  contact_case(&cases[nc++], "ellipsoid/moving floor", NSED_SHAPE_ELLIPSOID, 0, 0, 0, 0, 1, INH,
               GEN_FREE);
  contact_case(&cases[nc++], "capsule end/moving floor", NSED_SHAPE_CAPSULE, 0.2, 0, 0, 0, 1, INH,
               GEN_FREE);
  contact_case(&cases[nc++], "box vertex/moving plane", NSED_SHAPE_BOX, 0, 0, 0, 0, 1, INH,
               GEN_FREE);
  contact_case(&cases[nc++], "roller body n4", NSED_SHAPE_ROLLER, 0.7, 4, 0, 0, 0, INH,
               GEN_ROLLER_BODY);
  contact_case(&cases[nc++], "roller body n5 psi.3", NSED_SHAPE_ROLLER, 0.7, 5, 0.3, 0, 0, INH,
               GEN_ROLLER_BODY);
  contact_case(&cases[nc++], "roller tip n4", NSED_SHAPE_ROLLER, 0.7, 4, 0, 0, 0, INH,
               GEN_ROLLER_TIP);
  contact_case(&cases[nc++], "roller tip n5 psi.3", NSED_SHAPE_ROLLER, 0.7, 5, 0.3, 0, 0, INH,
               GEN_ROLLER_TIP);
  contact_case(&cases[nc++], "roller implicit (wheel)", NSED_SHAPE_ROLLER, 0.7, 4, 0, 0, 0,
               NSED_TRACKING_IMPLICIT, GEN_ROLLER_WHEEL);
  contact_case(&cases[nc++], "roller implicit psi.3", NSED_SHAPE_ROLLER, 0.7, 5, 0.3, 0, 0,
               NSED_TRACKING_IMPLICIT, GEN_ROLLER_WHEEL);
  contact_case(&cases[nc++], "roller differential", NSED_SHAPE_ROLLER, 0.7, 5, 0.3, 0, 0,
               NSED_TRACKING_DIFFERENTIAL, GEN_ROLLER_BODY);
  contact_case(&cases[nc++], "superellipsoid/floor", NSED_SHAPE_SUPERELLIPSOID, 0, 0, 0, 0, 0,
               INH, GEN_SUPERELLIPSOID);
  contact_case(&cases[nc++], "superellipsoid/moving floor diff", NSED_SHAPE_SUPERELLIPSOID, 0, 0,
               0, 0, 1, NSED_TRACKING_DIFFERENTIAL, GEN_SUPERELLIPSOID);
  contact_case(&cases[nc++], "ellipsoid/floor differential", NSED_SHAPE_ELLIPSOID, 0, 0, 0, 0, 0,
               NSED_TRACKING_DIFFERENTIAL, GEN_FREE);
  contact_case(&cases[nc++], "sphere/superellipsoid", NSED_SHAPE_SPHERE, 0.3, 0, 0, 8, 0, INH,
               GEN_SPHERE_ELLIPSOID);
  contact_case(&cases[nc++], "sphere/superellipsoid diff", NSED_SHAPE_SPHERE, 0.3, 0, 0, 8, 0,
               NSED_TRACKING_DIFFERENTIAL, GEN_SPHERE_ELLIPSOID);
  contact_case(&cases[nc++], "sphere/ellipsoid differential", NSED_SHAPE_SPHERE, 0.3, 0, 0, 6, 0,
               NSED_TRACKING_DIFFERENTIAL, GEN_SPHERE_ELLIPSOID);
  return nc;
}

int main(void) {
  enum { MAXCASE = 96 };
  static fd_case cases[MAXCASE];
  rng_state = 20240611;
  int nc = add_cases(cases, 0), nplain = nc;
  rotor_variant = 1;
  nc = add_cases(cases, nc);
  rotor_variant = 0;
  CHECK(nc <= MAXCASE);
  int nrotor_cases = 0;
  for (int i = nplain; i < nc; i++) nrotor_cases += cases[i].m->nrotor > 0;
  printf("%d cases, %d of them with rotors\n", nc, nrotor_cases);
  CHECK(nrotor_cases >= 30);

  printf("%-24s %10s %10s %10s %10s\n", "case (worst rel. error)", "rate", "jac", "known", "bias");
  for (int i = 0; i < nc; i++) {
    check_case(&cases[i]);
    printf("%-24s %10.2e %10.2e %10.2e %10.2e\n", cases[i].name, cases[i].worst[C_RATE],
           cases[i].worst[C_JAC], cases[i].worst[C_KNOWN], cases[i].worst[C_BIAS]);
  }
  printf("%-24s %10s %10s %10s %10s\n", "row kind", check_name[0], check_name[1], check_name[2],
         check_name[3]);
  for (int k = 0; k < NKIND; k++)
    printf("%-24s %10.2e %10.2e %10.2e %10.2e\n", kind_name[k], worst_kind[k][C_RATE],
           worst_kind[k][C_JAC], worst_kind[k][C_KNOWN], worst_kind[k][C_BIAS]);
  printf("DIFFERENTIAL tracking rates (a roller's q, phi; a surface's point) %.2e\n", worst_track);
  check_solve();
  for (int i = 0; i < nc; i++) nsed_model_free(&cases[i].m);
  return TEST_DONE();
}
