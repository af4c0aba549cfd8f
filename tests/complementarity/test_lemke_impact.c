/* nsed's Lemke alone (path nsed: no Siconos, no regularisation, no
 * enumeration) on 400 random impact problems in the vertex form
 * (Stewart-Trinkle; every other one posed in the face form, whose singular
 * G_TT sends it to the same polygon in vertex form): 2-10 stick
 * candidates, 8 or 16 edges, Delassus
 * matrices G = J M^-1 J^T of rank below 3 nc (more contact rows than the
 * bodies have freedoms, as for a car on two feet a wheel), pre-impact
 * velocities b = J y of random body velocities y. The vertex form's matrix
 * is copositive-plus for a positive semidefinite G, and an impact problem
 * of this form has a solution for any such velocity (Anitescu and Potra, "Formulating dynamic
 * multi-rigid-body contact problems with friction as solvable linear
 * complementarity problems", 1997), so Lemke's method must end at one: a
 * secondary ray here is a defect of the pivoting, not of the problem.
 * (These random ones were solved with the earlier scaling too; the one it
 * ended on a ray, the mecanum car's impact problem of eight contacts, is
 * cmp_cli_cp_car_impact: docs/complementarity.md, section 7.)
 *
 * Then 400 mirrored ones, as the car's wheels mirror each other: contacts
 * in pairs, the second the first reflected across its normal-t2 plane (its
 * t1 row negated, the same mu0), on fewer bodies' freedoms (nc to 3 nc / 2),
 * so the polygon's directions map onto each other and the ratio test's
 * ties are exact in real arithmetic but computed through different
 * columns. (The tie tolerance of before 2026-12-05 solved these too; the
 * car's own problems that it did not are cmp_cli_cp_car_impact_t81934,
 * _t81941 and _t82031.) */
#include <stdio.h>
#include <stdlib.h>

#include "cp_internal.h"
#include "cp_test_util.h"
#include "nsed_test.h"

#define NPROB 400
#define MAXC 10

/* Contact 2i + 1 the mirror of contact 2i: its rows of J those of 2i with
 * the t1 row negated (J column-major, rows = 3 nc). */
static void mirror_pairs(int nc, int k, double *J) {
  const int rows = 3 * nc;
  for (int i = 0; i + 1 < nc; i += 2)
    for (int d = 0; d < k; d++) {
      double *col = J + (size_t)d * rows;
      col[3 * (i + 1)] = col[3 * i];
      col[3 * (i + 1) + 1] = -col[3 * i + 1];
      col[3 * (i + 1) + 2] = col[3 * i + 2];
    }
}

/* The random problems (mirrored = 0) or the mirrored ones (1). */
static int run_family(int mirrored, cpt_rng *rng) {
  int solved = 0, rays = 0, other = 0, largest = 0;
  double worst = 0.0;
  for (int t = 0; t < NPROB; t++) {
    int nc = cpt_int(rng, 2, MAXC), sides = 8 * cpt_int(rng, 1, 2), n3 = 3 * nc;
    if (mirrored) nc += nc % 2, n3 = 3 * nc;
    int k = mirrored ? cpt_int(rng, nc, n3 / 2) : cpt_int(rng, n3 / 2, n3 - 1); /* rank <= k < 3 nc */
    double *J = malloc(sizeof(double) * (size_t)n3 * (size_t)k), *minv = malloc(sizeof(double) * (size_t)k);
    double *G = malloc(sizeof(double) * (size_t)n3 * (size_t)n3), *b = malloc(sizeof(double) * (size_t)n3);
    double *y = malloc(sizeof(double) * (size_t)k);
    cpt_random_system(rng, n3, k, J, minv, y);
    if (mirrored) mirror_pairs(nc, k, J);
    cpt_apply(n3, k, J, y, b); /* the contacts' velocities of the bodies' velocity y */
    cpt_delassus(n3, k, J, minv, G);
    nsed_complementarity_settings set;
    nsed_complementarity_default_settings(&set);
    set.model = t % 2 ? NSED_FRICTION_POLYGON_FACE : NSED_FRICTION_POLYGON_VERTEX;
    set.path = NSED_LCP_PATH_NSED_LEMKE;
    set.sides = sides;
    nsed_contact_solver *s = NULL;
    nsed_error err;
    CHECK(nsed_contact_solver_create(&set, nc, &s, &err) == NSED_OK);
    nsed_cp_contact c[MAXC];
    for (int i = 0; i < nc; i++)
      c[i] = (nsed_cp_contact){.kind = NSED_CP_STICK_CANDIDATE,
                               .mu0 = mirrored && i % 2 ? c[i - 1].mu0 : 0.1 + 0.9 * cpt_unif(rng)};
    nsed_contact_problem p = {.nc = nc, .G = G, .b = b, .contacts = c};
    cpt_sol S;
    cpt_sol_init(&S, nc);
    nsed_lcp_stats st;
    int rc = nsed_contact_solve_impact(s, &p, &S.sol, &st, &err);
    if (rc == NSED_OK) {
      solved++;
      worst = st.residual > worst ? st.residual : worst;
      largest = st.lcp_size > largest ? st.lcp_size : largest;
    } else if (rc == NSED_LCP_INFEASIBLE) {
      rays++;
      CHECK_MSG(0, "%s problem %d (%d contacts, %d edges, rank <= %d): a ray: %s", mirrored ? "mirrored" : "random",
                t, nc, sides, k, err.message);
    } else {
      other++;
      CHECK_MSG(0, "%s problem %d (%d contacts, %d edges, rank <= %d): %s", mirrored ? "mirrored" : "random", t,
                nc, sides, k, err.message);
    }
    cpt_sol_free(&S);
    nsed_contact_solver_free(&s);
    free(J);
    free(minv);
    free(G);
    free(b);
    free(y);
  }
  printf("nsed's Lemke on %d %s rank-deficient impact problems (vertex form, and the face form whose singular "
         "G_TT sends it to the same polygon in vertex form): %d solved (worst residual %.2g, largest LCP %d), "
         "%d ended on a ray, %d other failures\n",
         NPROB, mirrored ? "mirrored" : "random", solved, worst, largest, rays, other);
  return solved;
}

int main(void) {
  cpt_rng rng = {0x1e3d5eedull};
  CHECK(run_family(0, &rng) == NPROB);
  CHECK(run_family(1, &rng) == NPROB);
  return TEST_DONE();
}
