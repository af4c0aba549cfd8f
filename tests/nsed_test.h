/* Minimal test macros (after Box2D's test_macros.h and qdldl's minunit).
 *
 * Plain C with no test framework: each test program counts its checks, prints
 * every failure with file:line and the numbers involved, and exits non-zero
 * if any check failed, which is all meson's test() needs. Tolerances are
 * absolute + relative pairs (MuJoCo's MjNear) so a check means something at
 * any scale. */
#ifndef NSED_TEST_H
#define NSED_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int nsed_test_checks = 0;
static int nsed_test_failures = 0;

/* Marsaglia's xorshift64 from *state (non-zero): its next 64 bits, the
 * same sequence on every machine. */
static inline unsigned long long nsed_test_next(unsigned long long *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* The same generator as a uniform double in [0, 1). */
static inline double nsed_test_urand(unsigned long long *state) {
  return (double)(nsed_test_next(state) >> 11) * 0x1.0p-53;
}

#define CHECK(cond)                                                               \
  do {                                                                            \
    nsed_test_checks++;                                                           \
    if (!(cond)) {                                                                \
      nsed_test_failures++;                                                       \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);    \
    }                                                                             \
  } while (0)

#define CHECK_MSG(cond, ...)                                                      \
  do {                                                                            \
    nsed_test_checks++;                                                           \
    if (!(cond)) {                                                                \
      nsed_test_failures++;                                                       \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);    \
      fprintf(stderr, __VA_ARGS__);                                               \
      fputc('\n', stderr);                                                        \
    }                                                                             \
  } while (0)

/* |a - b| <= atol + rtol*|b|, NaN never passes. */
#define CHECK_NEAR(a, b, atol, rtol)                                              \
  do {                                                                            \
    double nsed_a_ = (a), nsed_b_ = (b);                                          \
    nsed_test_checks++;                                                           \
    if (!(fabs(nsed_a_ - nsed_b_) <= (atol) + (rtol)*fabs(nsed_b_))) {            \
      nsed_test_failures++;                                                       \
      fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g, "        \
              "diff %.3g > %.3g + %.3g*|b|\n", __FILE__, __LINE__, #a, nsed_a_,   \
              #b, nsed_b_, fabs(nsed_a_ - nsed_b_), (double)(atol),               \
              (double)(rtol));                                                    \
    }                                                                             \
  } while (0)

/* Print the count line and return the exit status for main(). */
#define TEST_DONE()                                                               \
  (printf("%d checks, %d failed\n", nsed_test_checks, nsed_test_failures),        \
   nsed_test_failures ? EXIT_FAILURE : EXIT_SUCCESS)

#endif
