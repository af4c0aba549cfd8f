/* nsed's serial N_Vector kernels (src/integrate/nvector_kernels.c) against
 * SUNDIALS' own on the same operands, bit for bit: linear sums over
 * coefficient pairs that take each of SUNDIALS' special cases (unit, equal,
 * opposite, zero) with the result in place of either operand or apart,
 * linear combinations of 1 to 8 vectors with z among them, scaling,
 * absolute values, inverses and the weighted norms. A kernel that forms a
 * sum in another order (say a x + a y where SUNDIALS forms a (x + y))
 * differs in the last bit on most elements. */
#include <math.h>
#include <string.h>

#include "nsed_test.h"
#include "nvector_kernels.h"

enum { N = 263, NV = 9 }; /* odd: the vector loops' remainders are reached */

static unsigned long long rng = 0x2545F4914F6CDD1Dull;

static double urand(void) { return nsed_test_urand(&rng); }

/* Values over twelve decades, both signs. */
static void fill(N_Vector v) {
  for (int i = 0; i < N; i++) NV_Ith_S(v, i) = (urand() - 0.5) * pow(10.0, 12 * urand() - 6);
}

static int same(N_Vector a, N_Vector b) {
  return memcmp(NV_DATA_S(a), NV_DATA_S(b), sizeof(double) * N) == 0;
}

/* Two sets of NV vectors with equal contents: ref with SUNDIALS' ops, own with nsed's. */
typedef struct {
  N_Vector ref[NV], own[NV];
} pair_set;

static void refill(pair_set *s) {
  for (int k = 0; k < NV; k++) {
    fill(s->ref[k]);
    memcpy(NV_DATA_S(s->own[k]), NV_DATA_S(s->ref[k]), sizeof(double) * N);
  }
}

static int all_same(const pair_set *s) {
  for (int k = 0; k < NV; k++)
    if (!same(s->ref[k], s->own[k])) return 0;
  return 1;
}

static void linear_sums(pair_set *s) {
  const double coef[] = {1.0, -1.0, 0.0, 0.3, -0.3, 0.7, 2.5};
  int n = (int)(sizeof coef / sizeof coef[0]), cases = 0, bad = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int target = 0; target < 3; target++) { /* z apart, z = x, z = y */
        refill(s);
        int zi = target == 0 ? 2 : target == 1 ? 0 : 1;
        N_VLinearSum(coef[i], s->ref[0], coef[j], s->ref[1], s->ref[zi]);
        N_VLinearSum(coef[i], s->own[0], coef[j], s->own[1], s->own[zi]);
        cases++;
        if (!all_same(s)) {
          bad++;
          printf("linear sum a = %g, b = %g, z = %s differs\n", coef[i], coef[j],
                 target == 0 ? "apart" : target == 1 ? "x" : "y");
        }
      }
  printf("linear sums: %d cases, %d differ\n", cases, bad);
  CHECK(bad == 0);
}

static void linear_combinations(pair_set *s) {
  int cases = 0, bad = 0;
  for (int nvec = 1; nvec <= NV - 1; nvec++)
    for (int alias = -1; alias < nvec; alias++) { /* z apart, or z = X[alias] */
      double c[NV];
      for (int k = 0; k < nvec; k++) c[k] = k % 4 == 1 ? 1.0 : k % 4 == 3 ? -1.0 : urand() - 0.5;
      refill(s);
      N_Vector xr[NV], xo[NV];
      for (int k = 0; k < nvec; k++) {
        xr[k] = s->ref[k];
        xo[k] = s->own[k];
      }
      int zi = alias < 0 ? NV - 1 : alias;
      int fr = N_VLinearCombination(nvec, c, xr, s->ref[zi]);
      int fo = N_VLinearCombination(nvec, c, xo, s->own[zi]);
      cases++;
      if (fr != fo || !all_same(s)) {
        bad++;
        printf("linear combination of %d, z = %d differs\n", nvec, alias);
      }
    }
  printf("linear combinations: %d cases, %d differ\n", cases, bad);
  CHECK(bad == 0);
}

static void elementwise_and_norms(pair_set *s) {
  const double coef[] = {1.0, -1.0, 0.0, 0.3, -2.5};
  for (size_t i = 0; i < sizeof coef / sizeof coef[0]; i++)
    for (int in_place = 0; in_place < 2; in_place++) {
      refill(s);
      N_VScale(coef[i], s->ref[0], s->ref[in_place ? 0 : 1]);
      N_VScale(coef[i], s->own[0], s->own[in_place ? 0 : 1]);
      CHECK_MSG(all_same(s), "scale by %g (in place %d) differs", coef[i], in_place);
    }
  refill(s);
  N_VAbs(s->ref[0], s->ref[1]);
  N_VAbs(s->own[0], s->own[1]);
  N_VInv(s->ref[2], s->ref[3]);
  N_VInv(s->own[2], s->own[3]);
  CHECK_MSG(all_same(s), "abs or inv differs");
  double wr = N_VWrmsNorm(s->ref[4], s->ref[5]), wo = N_VWrmsNorm(s->own[4], s->own[5]);
  double qr = N_VWSqrSumLocal(s->ref[4], s->ref[5]), qo = N_VWSqrSumLocal(s->own[4], s->own[5]);
  printf("weighted rms norm %.17g / %.17g, square sum %.17g / %.17g\n", wr, wo, qr, qo);
  CHECK(memcmp(&wr, &wo, sizeof wr) == 0 && memcmp(&qr, &qo, sizeof qr) == 0 && wr > 0);
}

int main(void) {
  SUNContext ctx;
  CHECK(SUNContext_Create(NULL, &ctx) == 0);
  pair_set s;
  N_Vector own_proto = N_VNew_Serial(N, ctx);
  nsedi_nvector_use_own_kernels(own_proto);
  for (int k = 0; k < NV; k++) {
    s.ref[k] = N_VNew_Serial(N, ctx);
    s.own[k] = N_VClone(own_proto); /* clones carry the kernels, as the solvers' do */
  }
  CHECK(s.own[0]->ops->nvlinearsum != s.ref[0]->ops->nvlinearsum);
  linear_sums(&s);
  linear_combinations(&s);
  elementwise_and_norms(&s);
  for (int k = 0; k < NV; k++) {
    N_VDestroy(s.ref[k]);
    N_VDestroy(s.own[k]);
  }
  N_VDestroy(own_proto);
  SUNContext_Free(&ctx);
  return TEST_DONE();
}
