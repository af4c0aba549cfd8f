/* The max-min of affine margins (maxmin_lp.c), on programs whose answer is
 * known in closed form: the smallest margin raised as far as it goes; rows
 * held at zero; the cap t_max; a symmetric polygon whose deepest point is
 * its centre; margins that cannot all be positive. Each answer is checked
 * by its margins, computed here. */
#include <math.h>
#include <stdio.h>

#include "maxmin_lp.h"
#include "nsed_test.h"

enum { MAXM = 16, MAXY = 4 };

typedef struct {
  int nm, ny;
  double A[MAXY * MAXM], c[MAXM];
  char eq[MAXM];
} program;

/* Row k: c + a . y (a of length ny), held at zero where eq. */
static void row(program *p, double c, const double *a, char eq) {
  int k = p->nm++;
  p->c[k] = c;
  p->eq[k] = eq;
  for (int j = 0; j < p->ny; j++) p->A[j * MAXM + k] = a[j];
}

/* The program's rows are laid out with leading dimension MAXM: repack. */
static int solve(const program *p, double t_max, double *y) {
  double A[MAXY * MAXM];
  for (int j = 0; j < p->ny; j++)
    for (int k = 0; k < p->nm; k++) A[j * p->nm + k] = p->A[j * MAXM + k];
  return nsedi_maxmin_lp(p->nm, p->ny, A, p->c, p->eq, t_max, y);
}

static double margin(const program *p, int k, const double *y) {
  double v = p->c[k];
  for (int j = 0; j < p->ny; j++) v += p->A[j * MAXM + k] * y[j];
  return v;
}

int main(void) {
  /* One unknown: y, 2 - y, 10 + y. The first two bound the smallest at 1
   * (y = 1) and hold it there; the third cannot move y. */
  {
    program p = {.ny = 1};
    row(&p, 0, (double[]){1}, 0);
    row(&p, 2, (double[]){-1}, 0);
    row(&p, 10, (double[]){1}, 0);
    double y[1];
    CHECK(solve(&p, 100, y) == 0);
    CHECK_NEAR(y[0], 1.0, 1e-12, 0);
  }
  /* Two unknowns: y1 and 1 - y1 bound the smallest margin at 1/2 (y1 =
   * 1/2, whatever y2); y2 and 3 - y1 - y2 at least that too. */
  {
    program p = {.ny = 2};
    row(&p, 0, (double[]){1, 0}, 0);
    row(&p, 1, (double[]){-1, 0}, 0);
    row(&p, 0, (double[]){0, 1}, 0);
    row(&p, 3, (double[]){-1, -1}, 0);
    double y[2];
    CHECK(solve(&p, 100, y) == 0);
    CHECK_NEAR(y[0], 0.5, 1e-12, 0);
    for (int k = 0; k < p.nm; k++) CHECK(margin(&p, k, y) >= 0.5 - 1e-12);
  }
  /* A row held at zero: y1 = y2, then y1 and 4 - y1 - y2 balance at 4/3. */
  {
    program p = {.ny = 2};
    row(&p, 0, (double[]){1, -1}, 1);
    row(&p, 0, (double[]){1, 0}, 0);
    row(&p, 4, (double[]){-1, -1}, 0);
    double y[2];
    CHECK(solve(&p, 100, y) == 0);
    CHECK_NEAR(y[0], 4.0 / 3, 1e-12, 0);
    CHECK_NEAR(y[1], 4.0 / 3, 1e-12, 0);
  }
  /* The cap: y and 5 - y can both exceed t_max = 1; every margin ends at
   * 1 or more (the answer is not unique). */
  {
    program p = {.ny = 1};
    row(&p, 0, (double[]){1}, 0);
    row(&p, 5, (double[]){-1}, 0);
    double y[1];
    CHECK(solve(&p, 1.0, y) == 0);
    CHECK(margin(&p, 0, y) >= 1 - 1e-12 && margin(&p, 1, y) >= 1 - 1e-12);
  }
  /* A regular octagon's face margins 1 + n_k . y, as a friction polygon's
   * about zero friction: the deepest point is its centre, every face 1. */
  {
    program p = {.ny = 2};
    for (int k = 0; k < 8; k++) row(&p, 1, (double[]){cos(M_PI * k / 4), sin(M_PI * k / 4)}, 0);
    double y[2];
    CHECK(solve(&p, 100, y) == 0);
    CHECK_NEAR(hypot(y[0], y[1]), 0, 1e-12, 0);
  }
  /* Margins that cannot all be positive (y - 1 and -y - 1): the program
   * still has its max-min, t = -1 at y = 0. */
  {
    program p = {.ny = 1};
    row(&p, -1, (double[]){1}, 0);
    row(&p, -1, (double[]){-1}, 0);
    double y[1];
    CHECK(solve(&p, 100, y) == 0);
    CHECK_NEAR(y[0], 0, 1e-12, 0);
  }
  return TEST_DONE();
}
