/* The constrained solve's two paths, timed on the same systems in one run:
 * the block elimination along the body-row forest (tree_solve.c, with its
 * loop-closing rows on a small Schur complement) against the dense Schur
 * complement and LU (accel.c), in us per solve (nsedi_solve_constrained,
 * refinement decided as in a run at rtol 1e-11), and their ratio. Where
 * the ratio crosses 1 is what NSEDI_TREE_MIN_ROWS stands on
 * (src/core/tolerances.h; docs/engine.md, "The constrained solve").
 *
 * Three families of random rows (entries uniform in [-1, 1], masses over a
 * decade and a half; the costs do not depend on the values, only whether a
 * first pass is refined does):
 *  - chain: bodies joined one after the other by five rows (a revolute
 *    joint's count), free at both ends: a tree, no loop rows;
 *  - legs: a platform with k legs, each a strut (five rows to the
 *    platform) and a wheel (five rows to the strut) touching the ground by
 *    two rows (a rolling wheel's normal and lateral ones; three would
 *    leave a leg more rows than freedoms): the sprung vehicles' structure,
 *    k - 1 contacts closing loops through the ground;
 *  - legs, attached: the same with each wheel's contact on an attached
 *    rotor (its rows reach the rotor through one axial entry), as the omni
 *    vehicles' rollers are: all k contacts are loop rows.
 *   bench_constrained_solve [seconds per timing, default 0.05] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accel.h"
#include "model_impl.h"
#include "nsed/nsed.h"
#include "rows.h"
#include "tolerances.h"

enum { MAXB = 200, MAXR = 1200 };

static unsigned long long rng = 0x2545F4914F6CDD1Dull;
static double urand(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) * 0x1.0p-53;
}
static double srand1(void) { return 2 * urand() - 1; }

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static nsed_model *bodies(int nb) {
  nsed_error err;
  nsed_model *m = NULL;
  if (nsed_model_create(&m, &err) != NSED_OK) return NULL;
  for (int i = 0; i < nb; i++) {
    nsed_body_def b;
    nsed_body_def_default(&b);
    snprintf(b.name, sizeof b.name, "b%d", i);
    b.shape.type = NSED_SHAPE_POINT;
    b.mass = pow(10, 1.5 * urand() - 1);
    double r2 = b.mass * pow(10, urand() - 1); /* a box's: J_i = m (a_j^2 + a_k^2) / 3 */
    double a2[3] = {r2 * (0.2 + urand()), r2 * (0.2 + urand()), r2 * (0.2 + urand())};
    for (int k = 0; k < 3; k++) b.inertia[k] = (a2[(k + 1) % 3] + a2[(k + 2) % 3]) / 3;
    b.position[0] = i;
    if (nsed_model_add_body(m, &b, &err) < 0) {
      fprintf(stderr, "bench_constrained_solve: %s\n", err.message);
      nsed_model_free(&m);
      return NULL;
    }
  }
  int rc = nsed_model_finalize(m, &err);
  if (rc != NSED_OK) {
    fprintf(stderr, "bench_constrained_solve: finalize %d: %s\n", rc, err.message);
    nsed_model_free(&m);
  }
  return m;
}

/* n random rows between a and b (NSEDI_GROUND for the ground); on an
 * attached rotor (axial >= 0) only the rotor's axial entry. */
static int add_group(nsedi_row *rows, int nr, int n, int a, int b, int rotor, int axial) {
  for (int r = 0; r < n; r++) {
    nsedi_row *R = &rows[nr + r];
    memset(R, 0, sizeof *R);
    R->a = a;
    R->b = b;
    for (int k = 0; k < 6; k++) {
      R->ja[k] = a >= 0 && (a != rotor || k == 3 + axial) ? srand1() : 0;
      R->jb[k] = b >= 0 && (b != rotor || k == 3 + axial) ? srand1() : 0;
    }
  }
  return nr + n;
}

typedef enum { CHAIN, LEGS, LEGS_ATTACHED } family;
static const char *const family_name[] = {"chain", "legs", "legs, attached"};

/* Bodies a system of the family needs for size k (chain: k bodies; legs: k legs). */
static int nbodies(family f, int k) { return f == CHAIN ? k : f == LEGS ? 1 + 2 * k : 1 + 3 * k; }

static int build(family f, int k, nsed_model *m, nsedi_row *rows, int *nloop) {
  int nr = 0;
  *nloop = 0;
  if (f == CHAIN) {
    for (int i = 1; i < k; i++) nr = add_group(rows, nr, 5, i - 1, i, -1, -1);
    return nr;
  }
  int per = f == LEGS ? 2 : 3;
  for (int l = 0; l < k; l++) {
    int strut = 1 + per * l, wheel = strut + 1;
    nr = add_group(rows, nr, 5, 0, strut, -1, -1);
    nr = add_group(rows, nr, 5, strut, wheel, -1, -1);
  }
  for (int l = 0; l < k; l++) {
    int wheel = 2 + per * l;
    if (f == LEGS) {
      nr = add_group(rows, nr, 2, wheel, NSEDI_GROUND, -1, -1);
      if (l > 0) *nloop += 2;
    } else {
      int rotor = wheel + 1;
      m->body[rotor].parent = wheel; /* marks it attached for the workspaces */
      nr = add_group(rows, nr, 3, rotor, wheel, rotor, l % 3);
      *nloop += 3;
    }
  }
  return nr;
}

/* us per solve on one path, repeated for at least `span` seconds. */
static double time_path(const nsed_model *m, nsedi_dyn_ws *w, int nr, const nsedi_row *rows,
                        const double *target, const double *f, double *du, double *lam, double span) {
  int def = 0;
  long n = 0;
  double t0 = now(), t;
  do {
    for (int r = 0; r < 16; r++)
      if (nsedi_solve_constrained(m, w, nr, rows, rows, target, f, NULL, du, lam, &def) != NSED_OK) return NAN;
    n += 16;
    t = now() - t0;
  } while (t < span);
  return 1e6 * t / (double)n;
}

int main(int argc, char **argv) {
  double span = argc > 1 ? atof(argv[1]) : 0.05;
  if (!(span > 0)) span = 0.05;
  static const int sizes[3][9] = {
      {4, 6, 8, 10, 12, 14, 17, 21, 31}, {2, 3, 4, 6, 8, 10, 12, 0, 0}, {2, 3, 4, 5, 6, 7, 8, 0, 0}};
  static nsedi_row rows[MAXR];
  static double f[6 * MAXB], target[MAXR], du[6 * MAXB], lam[MAXR];
  printf("# constrained solve: tree path against dense, us per solve (best of 3 timings of %g s)\n\n",
         span);
  printf("| family | bodies | rows | loop rows | tree us | dense us | dense / tree | the rule picks |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (int fam = 0; fam < 3; fam++) {
    int cross = -1;
    for (int s = 0; s < 9 && sizes[fam][s] > 0; s++) {
      int k = sizes[fam][s], nb = nbodies((family)fam, k), nloop = 0;
      nsed_model *m = bodies(nb);
      if (!m) {
        fprintf(stderr, "bench_constrained_solve: model of %d bodies not built\n", nb);
        return 1;
      }
      int nr = build((family)fam, k, m, rows, &nloop);
      for (int q = 0; q < m->nv; q++) f[q] = 10 * srand1();
      for (int r = 0; r < nr; r++) target[r] = srand1();
      nsedi_dyn_ws *tree = nsedi_dyn_ws_create(m, nr), *dense = nsedi_dyn_ws_create(m, nr);
      if (!tree || !dense) {
        fprintf(stderr, "bench_constrained_solve: out of memory\n");
        return 1;
      }
      nsedi_dyn_ws_tree_min_rows(tree, 0);
      nsedi_dyn_ws_dense_only(dense, 1);
      double tt = INFINITY, td = INFINITY;
      for (int rep = 0; rep < 3; rep++) {
        tt = fmin(tt, time_path(m, tree, nr, rows, target, f, du, lam, span));
        td = fmin(td, time_path(m, dense, nr, rows, target, f, du, lam, span));
      }
      long nt, nd;
      nsedi_dyn_ws_paths(tree, &nt, &nd);
      if (nd != 0) {
        fprintf(stderr, "bench_constrained_solve: the tree path declined %s of %d rows\n",
                family_name[fam], nr);
        return 1;
      }
      /* what a run does (NSEDI_TREE_MIN_ROWS, NSEDI_TREE_ROWS_PER_LOOP_ROW) */
      int rule_tree = nr >= NSEDI_TREE_MIN_ROWS + NSEDI_TREE_ROWS_PER_LOOP_ROW * nloop;
      printf("| %s | %d | %d | %d | %.2f | %.2f | %.2f | %s (%s) |\n", family_name[fam], nb, nr, nloop,
             tt, td, td / tt, rule_tree ? "tree" : "dense",
             (rule_tree ? tt <= td : td <= tt) ? "the faster" : "the slower");
      if (td <= tt) cross = -1; /* the tree path is faster from the next size on, if ever */
      else if (cross < 0) cross = nr;
      nsedi_dyn_ws_free(&tree);
      nsedi_dyn_ws_free(&dense);
      nsed_model_free(&m);
    }
    if (cross > 0)
      printf("| %s: the tree path faster from %d rows on | | | | | | | |\n", family_name[fam], cross);
    else
      printf("| %s: the tree path not faster at the largest size | | | | | | | |\n", family_name[fam]);
  }
  printf("\nthe rule: the tree path from NSEDI_TREE_MIN_ROWS = %d rows plus NSEDI_TREE_ROWS_PER_LOOP_ROW = %d "
         "per loop row\n",
         NSEDI_TREE_MIN_ROWS, NSEDI_TREE_ROWS_PER_LOOP_ROW);
  return 0;
}
