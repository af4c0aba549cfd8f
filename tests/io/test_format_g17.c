/* The result files' number format (src/io/format_g17.c) against glibc's
 * "%.17g", text for text:
 *  - random bit patterns (every exponent, subnormals, infinities, NaNs);
 *  - decimal-looking values m / 10^k, whose scaled digits often sit on or
 *    near a rounding boundary (exact ties included);
 *  - the neighbours of every power of ten and of every decade's end
 *    (9.99...e k), where the exponent estimate and the carry are decided;
 *  - values of physical size, sign and zero, as trajectories hold.
 * The fast path alone must decide most values of physical size (else the
 * comparison would test snprintf against itself), and everything it
 * decides must be snprintf's text; every finite text must read back as
 * the same double. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format_g17.h"
#include "nsed_test.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void) { return nsed_test_next(&rng); }

static double urand(void) { return nsed_test_urand(&rng); }

typedef struct {
  long values, fast, mismatches, roundtrip_failures;
} tally;

static void check(double v, tally *t) {
  char ours[NSEDI_G17_MAX], fast[NSEDI_G17_MAX], glibc[64];
  snprintf(glibc, sizeof glibc, "%.17g", v);
  int n = nsedi_format_g17(v, ours);
  t->values++;
  if (strcmp(ours, glibc) != 0 || n != (int)strlen(glibc)) {
    if (t->mismatches++ < 10) printf("  %a: ours '%s', glibc '%s'\n", v, ours, glibc);
  }
  int nf = nsedi_format_g17_fast(v, fast);
  if (nf > 0) {
    t->fast++;
    if (strcmp(fast, glibc) != 0 && t->mismatches++ < 10)
      printf("  %a: fast path '%s', glibc '%s'\n", v, fast, glibc);
  }
  if (isfinite(v)) {
    double back = strtod(ours, NULL);
    if (memcmp(&back, &v, sizeof v) != 0) t->roundtrip_failures++;
  }
}

static void report(const char *what, const tally *t) {
  printf("%-34s %9ld values, fast path %5.1f%%, %ld differ from glibc, %ld do not read back\n", what,
         t->values, 100.0 * (double)t->fast / (double)t->values, t->mismatches,
         t->roundtrip_failures);
  CHECK(t->mismatches == 0);
  CHECK(t->roundtrip_failures == 0);
}

int main(void) {
  tally bits = {0, 0, 0, 0};
  for (int i = 0; i < 1000000; i++) {
    uint64_t u = next();
    double v;
    memcpy(&v, &u, sizeof v);
    check(v, &bits);
  }
  report("random bit patterns", &bits);

  tally decimal = {0, 0, 0, 0};
  for (int i = 0; i < 500000; i++) {
    double m = (double)(next() % 100000000000000000ull); /* up to 17 digits, may round */
    int k = (int)(next() % 80) - 40;
    check((i & 1 ? -1 : 1) * m * pow(10.0, k), &decimal);
    check(m / pow(10.0, (double)(next() % 40)), &decimal);
    check((double)(next() % 1000000) / 1000.0 + 0.0005, &decimal); /* ...5 endings */
  }
  report("decimal-looking values", &decimal);

  tally edges = {0, 0, 0, 0};
  for (int k = -330; k <= 308; k++) {
    double p = pow(10.0, k), q = 9.999999999999999e0 * pow(10.0, k - 1);
    double around[] = {p, q, 99999999999999995.0 * pow(10.0, k - 17)};
    for (size_t a = 0; a < sizeof around / sizeof around[0]; a++) {
      double x = around[a];
      for (int s = 0; s < 40 && isfinite(x) && x > 0; s++) x = nextafter(x, 0);
      for (int s = 0; s < 80 && isfinite(x); s++) {
        check(x, &edges);
        x = nextafter(x, INFINITY);
      }
    }
  }
  const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, DBL_MIN, -DBL_MIN, DBL_MAX,
                            DBL_TRUE_MIN, 0.1, 0.5, 1.0, 1e-5, 1e-4, 1e16, 1e17, 123456789012345678.0};
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) check(special[i], &edges);
  report("powers of ten, decade ends, specials", &edges);

  tally physical = {0, 0, 0, 0};
  for (int i = 0; i < 1000000; i++) {
    double v = (urand() - 0.5) * pow(10.0, 30 * urand() - 15);
    check(v, &physical);
  }
  for (int i = -100000; i <= 100000; i++) check((double)i, &physical);
  report("physical sizes, integers", &physical);
  /* The bound decides all but values whose 18th digit onward is within
   * 0.03 of a half (about 6%), and integers up to 10^16 exactly. */
  volatile long double one = 1.0L, tiny = 0x1p-63L;
  if (one + tiny != one)
    CHECK((double)physical.fast > 0.9 * (double)physical.values);
  else
    printf("long double lacks a 64-bit significand here (valgrind?): every value took snprintf\n");
  return TEST_DONE();
}
