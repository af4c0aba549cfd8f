/* The linear-time constrained solve (src/dynamics/tree_solve.c) against the
 * equations it solves and against the dense Schur complement (accel.c with
 * nsedi_dyn_ws_dense_only), on random systems (fixed seeds):
 *
 *  - trees: each body joined to an earlier one by 1..6 random rows, some to
 *    the ground, with random masses over three decades and force columns
 *    that differ from the rows (kinetic friction makes C != J);
 *  - loops: a few extra groups between bodies already joined, and several
 *    groups to the ground (the secondary rows);
 *  - dependent rows (a group repeated): the tree path declines and the
 *    dense path solves by least squares, as before;
 *  - more loop-closing rows than NSEDI_TREE_MAX_SECONDARY: dense;
 *  - attached rotors: bodies whose rows reach them through one axial
 *    entry, always secondary rows (a group eliminated past such a body has
 *    a pivot of rank one at most): the tree path;
 *  - the path a run takes by default: the tree from NSEDI_TREE_MIN_ROWS
 *    rows plus NSEDI_TREE_ROWS_PER_LOOP_ROW per loop row, dense below.
 *
 * The equations are checked directly, M du = f + C^T lambda and
 * J du = target, each against its own terms (the largest of |f|, |M du|,
 * |C_k lambda_k| in a body's three force or torque equations; |target| and
 * |J_k| times the bodies' largest accelerations in a row): below 1e-11 on
 * the tree path (measured <= 3.1e-13 over three seeds, 2026-12-07) and
 * 1e-10 on the dense one and its least squares (measured 3.5e-11); against the largest applied
 * or inertial force alone they are looser (large multipliers; dense up to
 * 1.9e-9), bounded at 1e-8. Each kind is drawn from three seeds: a bound
 * fitted to one draw is not the method's (the tree kind's largest-force
 * residual was 7.1e-11 on the first seed, 7.6e-10 on another). A random
 * tree may hold a pivot block below NSEDI_SCHUR_PIVOT (2 of 285 here),
 * which the dense path then takes: at most 2% may. The two paths agree to
 * 1e-10 (measured 3.7e-11), and so do the event quantities nsedi_delassus
 * computes on each (G, b, P W^T; measured 1.2e-11). The tree path refines
 * its first pass where that pass's residual against each equation's own
 * terms is above NSEDI_TREE_REFINE_SHARE of rtol: both branches are taken
 * (159 of 284 free trees refine), and a pass kept
 * is within the criterion, checked here by an independent evaluation. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "accel.h"
#include "engine_util.h"
#include "model_impl.h"
#include "nsed_test.h"
#include "tolerances.h"

/* Each kind of system is drawn from NSEED seeds: its bounds hold for the
 * method, not for one draw. */
#define RNG_BASE 0x9E3779B97F4A7C15ull
enum { NSEED = 3 };
static unsigned long long rng_state = RNG_BASE;

static double urand(void) { return nsed_test_urand(&rng_state); }

static double srand1(void) { return 2 * urand() - 1; }

/* nb point bodies with random masses and inertias, the first three touching the floor. */
static nsed_model *bodies(int nb) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  for (int i = 0; i < nb; i++) {
    nsed_body_def b;
    nsed_body_def_default(&b);
    snprintf(b.name, sizeof b.name, "b%d", i);
    b.shape.type = NSED_SHAPE_POINT;
    b.mass = pow(10, 3 * urand() - 1.5);
    double r2 = b.mass * pow(10, 2 * urand() - 2); /* a box's: J_i = m (a_j^2 + a_k^2) / 3 */
    double a2[3] = {r2 * (0.2 + urand()), r2 * (0.2 + urand()), r2 * (0.2 + urand())};
    for (int k = 0; k < 3; k++) b.inertia[k] = (a2[(k + 1) % 3] + a2[(k + 2) % 3]) / 3;
    b.position[0] = i;
    must(nsed_model_add_body(m, &b, &err), &err);
  }
  for (int i = 0; i < 3; i++) { /* contacts size the workspaces for events' rows */
    nsed_contact_def c;
    nsed_contact_def_default(&c);
    snprintf(c.name, sizeof c.name, "c%d", i);
    snprintf(c.body, sizeof c.body, "b%d", i);
    must(nsed_model_add_contact(m, &c, &err), &err);
  }
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

/* n random rows between a and b (either may be the ground), in a random
 * order of the pair; their columns differ from the rows on slipping rows. */
static int add_group(nsedi_row *rows, nsedi_row *cols, int nr, int n, int a, int b) {
  int swap = urand() < 0.5;
  for (int r = 0; r < n; r++) {
    nsedi_row *R = &rows[nr + r], *C = &cols[nr + r];
    memset(R, 0, sizeof *R);
    R->a = swap ? b : a;
    R->b = swap ? a : b;
    for (int k = 0; k < 6; k++) {
      R->ja[k] = R->a >= 0 ? srand1() : 0;
      R->jb[k] = R->b >= 0 ? srand1() : 0;
    }
    *C = *R;
    if (urand() < 0.3) /* a slipping contact's normal column: n - mu s */
      for (int k = 0; k < 6; k++) {
        if (C->a >= 0) C->ja[k] += 0.3 * srand1();
        if (C->b >= 0) C->jb[k] += 0.3 * srand1();
      }
  }
  return nr + n;
}

/* |M du - f - C^T lambda| and |J du - target| relative to their scales. */
static double residual(const nsed_model *m, int nr, const nsedi_row *rows, const nsedi_row *cols,
                       const double *target, const double *f, const double *du, const double *lam) {
  int nv = m->nv;
  double force[6 * 64], worst = 0, fscale = 0, tscale = 0;
  for (int i = 0; i < m->nbody; i++)
    for (int k = 0; k < 6; k++) {
      double mk = k < 3 ? m->body[i].def.mass : m->body[i].def.inertia[k - 3];
      force[6 * i + k] = mk * du[6 * i + k] - f[6 * i + k];
      fscale = fmax(fscale, fabs(f[6 * i + k]) + fabs(mk * du[6 * i + k]));
    }
  for (int r = 0; r < nr; r++) {
    const nsedi_row *c = &cols[r];
    for (int k = 0; k < 6; k++) {
      if (c->a >= 0) force[6 * c->a + k] -= c->ja[k] * lam[r];
      if (c->b >= 0) force[6 * c->b + k] -= c->jb[k] * lam[r];
    }
    tscale = fmax(tscale, fabs(target[r]));
  }
  for (int q = 0; q < nv; q++) worst = fmax(worst, fabs(force[q]) / (1 + fscale));
  for (int r = 0; r < nr; r++) {
    double v = 0;
    for (int k = 0; k < 6; k++) {
      if (rows[r].a >= 0) v += rows[r].ja[k] * du[6 * rows[r].a + k];
      if (rows[r].b >= 0) v += rows[r].jb[k] * du[6 * rows[r].b + k];
    }
    worst = fmax(worst, fabs(v - target[r]) / (1 + tscale));
  }
  return worst;
}

/* The residual against each equation's own scale, as the refinement's
 * criterion judges it (NSEDI_TREE_REFINE_SHARE): a body's three force (or
 * torque) equations against the largest sum of their terms' magnitudes, a
 * row against |target| + sum |J_k| times its bodies' largest linear (or
 * angular) acceleration. */
static double own_scale_residual(const nsed_model *m, int nr, const nsedi_row *rows,
                                 const nsedi_row *cols, const double *target, const double *f,
                                 const double *du, const double *lam) {
  double res[6 * 64], mag[6 * 64], amax[2 * 64], worst = 0;
  for (int i = 0; i < m->nbody; i++)
    for (int k = 0; k < 6; k++) {
      double mk = k < 3 ? m->body[i].def.mass : m->body[i].def.inertia[k - 3];
      res[6 * i + k] = f[6 * i + k] - mk * du[6 * i + k];
      mag[6 * i + k] = fabs(f[6 * i + k]) + fabs(mk * du[6 * i + k]);
    }
  for (int r = 0; r < nr; r++)
    for (int k = 0; k < 6; k++) {
      const nsedi_row *c = &cols[r];
      if (c->a >= 0) res[6 * c->a + k] += c->ja[k] * lam[r], mag[6 * c->a + k] += fabs(c->ja[k] * lam[r]);
      if (c->b >= 0) res[6 * c->b + k] += c->jb[k] * lam[r], mag[6 * c->b + k] += fabs(c->jb[k] * lam[r]);
    }
  for (int h = 0; h < 2 * m->nbody; h++) {
    double r = 0, s = 0, a = 0;
    for (int k = 3 * h; k < 3 * h + 3; k++) {
      r = fmax(r, fabs(res[k]));
      s = fmax(s, mag[k]);
      a = fmax(a, fabs(du[k]));
    }
    worst = fmax(worst, r / s);
    amax[h] = a;
  }
  for (int r = 0; r < nr; r++) {
    double v = 0, s = fabs(target[r]);
    for (int k = 0; k < 6; k++) {
      if (rows[r].a >= 0) v += rows[r].ja[k] * du[6 * rows[r].a + k], s += fabs(rows[r].ja[k]) * amax[2 * rows[r].a + k / 3];
      if (rows[r].b >= 0) v += rows[r].jb[k] * du[6 * rows[r].b + k], s += fabs(rows[r].jb[k]) * amax[2 * rows[r].b + k / 3];
    }
    worst = fmax(worst, fabs(v - target[r]) / s);
  }
  return worst;
}

static double max_diff(int n, const double *x, const double *y) {
  double d = 0, s = 0;
  for (int i = 0; i < n; i++) {
    d = fmax(d, fabs(x[i] - y[i]));
    s = fmax(s, fabs(y[i]));
  }
  return d / (1 + s);
}

enum { MAXR = 400 };

typedef struct {
  int loops;      /* extra groups between joined bodies */
  int grounds;    /* groups to the ground */
  int dependent;  /* repeat a group (2: scaled by 0.7, so its rows differ by rounding) */
  int many_loops; /* more loop rows than the tree path takes */
  int rotors;     /* attached rotors: the last nb / 4 bodies (at most 6), each held by
                     1..3 rows to an earlier body that reach it only through one axial entry */
} shape;

/* One random system of nb bodies; returns 1 if the tree path took it (the
 * solve and the event quantities).
 * Row counts stay generic: a body's groups leave it free enough that the
 * rows are independent, except where s.dependent repeats a group. */
typedef struct {
  long solves, refined; /* right-hand-side solves on the tree path, and those refined */
  double kept_res;      /* the worst own-scale residual of a first pass kept */
} refine_tally;

typedef struct {
  double own, dense_own; /* the own-scale residual: tree path's answer, dense path's */
  double res, dense_res; /* the residual against the largest applied and inertial force */
  double diff, event_diff;
} worst_of;

static int one_system(int nb, shape s, worst_of *w, refine_tally *tally) {
  nsed_model *m = bodies(nb);
  static nsedi_row rows[MAXR], cols[MAXR];
  int nr = 0, first = 0;
  int tree_rows = s.loops || s.grounds || s.many_loops ? 3 : 6;
  int nrot = s.rotors ? (nb / 4 < 6 ? nb / 4 : 6) : 0, nfree = nb - nrot;
  for (int i = 1; i < nfree; i++) {
    nr = add_group(rows, cols, nr, 1 + (int)(tree_rows * urand()), (int)(i * urand()), i);
    if (i == 1) first = nr;
  }
  for (int g = 0; g < s.grounds; g++) nr = add_group(rows, cols, nr, 1 + (int)(2 * urand()), g * nb / s.grounds, NSEDI_GROUND);
  for (int g = 0; g < s.loops; g++) nr = add_group(rows, cols, nr, 1, g * nb / s.loops, (g * nb / s.loops + nb / 2) % nb);
  for (int g = 0; g < s.many_loops; g++) nr = add_group(rows, cols, nr, 1, g % nb, NSEDI_GROUND);
  for (int i = nfree; i < nb; i++) {
    int p = (int)(nfree * urand()), a = i % 3, r0 = nr;
    m->body[i].parent = p;
    nr = add_group(rows, cols, nr, 1 + (int)(3 * urand()), p, i);
    for (int r = r0; r < nr; r++)
      for (int k = 0; k < 6; k++) {
        if (k == 3 + a) continue;
        if (rows[r].a == i) rows[r].ja[k] = cols[r].ja[k] = 0;
        if (rows[r].b == i) rows[r].jb[k] = cols[r].jb[k] = 0;
      }
  }
  int dup = nr;
  if (s.dependent) { /* the first group again, with symmetric columns */
    for (int r = 0; r < first; r++) cols[r] = rows[r];
    for (int r = 0; r < first; r++) rows[nr + r] = rows[r], cols[nr + r] = rows[r];
    if (s.dependent == 2)
      for (int r = nr; r < nr + first; r++)
        for (int k = 0; k < 6; k++) {
          rows[r].ja[k] *= 0.7, rows[r].jb[k] *= 0.7;
          cols[r] = rows[r];
        }
    nr += first;
  }
  double f[6 * 64], target[MAXR], du[6 * 64], lam[MAXR], du2[6 * 64], lam2[MAXR];
  for (int q = 0; q < m->nv; q++) f[q] = 10 * srand1();
  for (int i = nfree; i < nb; i++) /* an attached rotor's force is its axial moment alone */
    for (int k = 0; k < 6; k++)
      if (k != 3 + i % 3) f[6 * i + k] = 0;
  for (int r = 0; r < nr; r++) /* consistent */
    target[r] = r < dup ? srand1() : (s.dependent == 2 ? 0.7 : 1.0) * target[r - dup];
  nsedi_dyn_ws *tree = nsedi_dyn_ws_create(m, nr), *dense = nsedi_dyn_ws_create(m, nr);
  nsedi_dyn_ws_dense_only(dense, 1);
  nsedi_dyn_ws_tree_min_rows(tree, 0); /* small systems too */
  int def1 = 0, def2 = 0;
  int rc1 = nsedi_solve_constrained(m, tree, nr, rows, cols, target, f, NULL, du, lam, &def1);
  int rc2 = nsedi_solve_constrained(m, dense, nr, rows, cols, target, f, NULL, du2, lam2, &def2);
  CHECK_MSG(rc1 == NSED_OK && rc2 == NSED_OK, "%d bodies, %d rows: rc %d %d", nb, nr, rc1, rc2);
  long nt, nd, solves, refined;
  nsedi_dyn_ws_paths(tree, &nt, &nd);
  nsedi_dyn_ws_refinements(tree, &solves, &refined);
  tally->solves += solves;
  tally->refined += refined;
  if (solves == 1 && refined == 0)
    tally->kept_res = fmax(tally->kept_res, own_scale_residual(m, nr, rows, cols, target, f, du, lam));
  w->own = fmax(w->own, own_scale_residual(m, nr, rows, cols, target, f, du, lam));
  w->dense_own = fmax(w->dense_own, own_scale_residual(m, nr, rows, cols, target, f, du2, lam2));
  w->res = fmax(w->res, residual(m, nr, rows, cols, target, f, du, lam));
  w->dense_res = fmax(w->dense_res, residual(m, nr, rows, cols, target, f, du2, lam2));
  w->diff = fmax(w->diff, max_diff(m->nv, du, du2));
  if (!def1 && !def2) /* dependent rows leave the multipliers open, not the motion */
    w->diff = fmax(w->diff, max_diff(nr, lam, lam2));
  /* The event quantities both ways (G = W P W^T, b, P W^T) for three
   * contacts of random bodies with the ground, the rows as their own
   * columns (ideal constraints, as at events). */
  enum { NW = 9 };
  static nsedi_row W[NW], Wcols[NW];
  for (int c = 0; c < NW; c += 3) add_group(W, Wcols, c, 3, (int)(nb * urand()), NSEDI_GROUND);
  static double G1[NW * NW], G2[NW * NW], b1[NW], b2[NW], P1[6 * 64 * NW], P2[6 * 64 * NW];
  int e1 = nsedi_delassus(m, tree, nr, rows, target, f, NW, W, G1, b1, P1);
  int e2 = nsedi_delassus(m, dense, nr, rows, target, f, NW, W, G2, b2, P2);
  CHECK_MSG(e1 == NSED_OK && e2 == NSED_OK, "%d bodies, %d rows: delassus rc %d %d", nb, nr, e1, e2);
  w->event_diff = fmax(w->event_diff, max_diff(NW * NW, G1, G2));
  w->event_diff = fmax(w->event_diff, max_diff(NW, b1, b2));
  w->event_diff = fmax(w->event_diff, max_diff(m->nv * NW, P1, P2));
  long nt2, nd2;
  nsedi_dyn_ws_paths(tree, &nt2, &nd2);
  /* The forest is kept while the rows join the same bodies: a solve of
   * other rows in between, then the first ones again, gives the same bits. */
  if (nr > 1) {
    double du3[6 * 64], lam3[MAXR];
    int d3 = 0;
    (void)nsedi_solve_constrained(m, tree, nr - 1, rows, cols, target, f, NULL, du3, lam3, &d3);
    int rc3 = nsedi_solve_constrained(m, tree, nr, rows, cols, target, f, NULL, du3, lam3, &d3);
    CHECK(rc3 == NSED_OK && memcmp(du3, du, sizeof(double) * (size_t)m->nv) == 0 &&
          memcmp(lam3, lam, sizeof(double) * (size_t)nr) == 0);
  }
  nsedi_dyn_ws_free(&tree);
  nsedi_dyn_ws_free(&dense);
  nsed_model_free(&m);
  return nt == 1 && nd == 0 && nt2 == 2 && nd2 == 0; /* the solve and the event data */
}

/* The path a run takes (default workspace): the tree from NSEDI_TREE_MIN_ROWS
 * rows plus NSEDI_TREE_ROWS_PER_LOOP_ROW per loop-closing row, dense below
 * (bench_constrained_solve measures where each is cheaper). A free chain of
 * five-row groups, then two ground groups (the first joins the forest to
 * the world, the second closes a loop), then single loop rows. */
static int takes_tree(int nb, int loop_groups, int extra_loop_rows, int *nr_out, int *nloop) {
  nsed_model *m = bodies(nb);
  static nsedi_row rows[MAXR], cols[MAXR];
  int nr = 0;
  for (int i = 1; i < nb; i++) nr = add_group(rows, cols, nr, 5, i - 1, i);
  *nloop = 0;
  for (int g = 0; g < loop_groups; g++) {
    nr = add_group(rows, cols, nr, 3, g, NSEDI_GROUND);
    if (g > 0) *nloop += 3;
  }
  for (int k = 0; k < extra_loop_rows; k++, (*nloop)++) nr = add_group(rows, cols, nr, 1, nb - 1 - k, NSEDI_GROUND);
  double f[6 * 64], target[MAXR], du[6 * 64], lam[MAXR];
  for (int q = 0; q < m->nv; q++) f[q] = srand1();
  for (int r = 0; r < nr; r++) target[r] = srand1();
  nsedi_dyn_ws *w = nsedi_dyn_ws_create(m, nr);
  int def = 0;
  CHECK(nsedi_solve_constrained(m, w, nr, rows, cols, target, f, NULL, du, lam, &def) == NSED_OK);
  long nt, nd;
  nsedi_dyn_ws_paths(w, &nt, &nd);
  nsedi_dyn_ws_free(&w);
  nsed_model_free(&m);
  *nr_out = nr;
  return nt == 1 && nd == 0;
}

static void check_path_rule(void) {
  struct {
    int nb, loop_groups, extra, tree;
  } cases[] = {
      {8, 0, 0, 0},  /* 35 rows */
      {9, 0, 0, 1},  /* 40 rows: NSEDI_TREE_MIN_ROWS */
      {9, 2, 0, 1},  /* 46 rows, 3 loop rows: 40 + 2 * 3 */
      {9, 2, 1, 0},  /* 47 rows, 4 loop rows: below 48 */
      {9, 2, 2, 0},  /* 48 rows, 5 loop rows: below 50 */
      {10, 2, 2, 1}, /* 53 rows, 5 loop rows */
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    int nr = 0, nloop = 0;
    int tree = takes_tree(cases[k].nb, cases[k].loop_groups, cases[k].extra, &nr, &nloop);
    printf("path rule: %d rows, %d loop rows: %s\n", nr, nloop, tree ? "tree" : "dense");
    CHECK_MSG(tree == cases[k].tree, "%d rows, %d loop rows: %s", nr, nloop, tree ? "tree" : "dense");
    CHECK(tree == (nr >= NSEDI_TREE_MIN_ROWS + NSEDI_TREE_ROWS_PER_LOOP_ROW * nloop));
  }
}

int main(void) {
  struct {
    const char *name;
    shape s;
    int tree_expected;
  } kinds[] = {
      {"tree", {0, 0, 0, 0, 0}, 1},
      {"tree held by the ground", {0, 1, 0, 0, 0}, 1},
      {"loops and grounds", {2, 3, 0, 0, 0}, 1},
      {"dependent rows", {0, 1, 1, 0, 0}, 0},
      {"dependent rows, scaled", {0, 1, 2, 0, 0}, 0},
      {"too many loop rows", {0, 0, 0, NSEDI_TREE_MAX_SECONDARY + 2, 0}, 0},
      {"attached rotors", {0, 1, 0, 0, 1}, 1},
  };
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    worst_of w = {0, 0, 0, 0, 0, 0};
    int took = 0, n = 0;
    refine_tally tally = {0, 0, 0};
    for (unsigned long long seed = 0; seed < NSEED; seed++) {
      rng_state = RNG_BASE ^ seed;
      for (int nb = kinds[k].s.many_loops ? 30 : 4; nb <= 40; nb += 2)
        for (int rep = 0; rep < 5; rep++, n++) took += one_system(nb, kinds[k].s, &w, &tally);
    }
    printf("%-24s: %d of %d systems on the tree path, residual against each equation's terms %.2e "
           "(dense %.2e), against the largest force %.2e (dense %.2e), tree vs dense %.2e, events "
           "%.2e; refined %ld of %ld first passes, the worst kept %.2e\n",
           kinds[k].name, took, n, w.own, w.dense_own, w.res, w.dense_res, w.diff, w.event_diff,
           tally.refined, tally.solves, tally.kept_res);
    /* A random tree may hold a pivot block below NSEDI_SCHUR_PIVOT (masses
     * over three decades): the dense path takes it, as designed. */
    if (kinds[k].tree_expected)
      CHECK(n - took <= n / 50);
    else
      CHECK(took == 0);
    /* Both branches of the refinement are taken, and a first pass stands
     * only within the criterion (the model's rtol is the default). */
    if (kinds[k].tree_expected) CHECK(tally.refined > 0 && tally.refined < tally.solves);
    CHECK(tally.kept_res <= NSEDI_TREE_REFINE_SHARE * fmin(1e-11, NSEDI_LAW_NORMAL_TOL));
    /* Against each equation's own terms (the refinement's measure): the
     * tree path refines to its criterion, the dense LU is not refined. */
    CHECK(w.own < (kinds[k].tree_expected ? 1e-11 : 1e-10) && w.dense_own < 1e-10);
    /* Against the largest applied or inertial force only: large multipliers
     * make it loose (the dense path's reaches 1.9e-9 on these draws). */
    CHECK(w.res < 1e-8 && w.dense_res < 1e-8);
    CHECK(w.diff < 1e-10);
    CHECK(w.event_diff < 1e-10);
  }
  check_path_rule(); /* last: the systems above keep their random draws */
  return TEST_DONE();
}
