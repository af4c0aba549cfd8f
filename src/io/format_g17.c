#include "format_g17.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

/* Why: glibc forms each "%.17g" by exact multi-precision arithmetic, about
 * 1.5 us a value; result files hold hundreds of values a sample, and that
 * was 3-6% of a run (docs/problem-format.md, "Outputs"). The text must stay
 * the same, so this is the same conversion, done faster where it is safe.
 *
 * Seventeen significant digits of a = |v| are D = round(a 10^(16 - k)),
 * k = floor(log10 a), 10^16 <= D < 10^17. With a 64-bit significand the
 * scaled value y = a 10^n is formed with at most two roundings (10^n for
 * |n| <= 27 is exact in it, larger |n| in two exact factors), so |y - a
 * 10^n| < 2 * 2^-64 * 10^17 < 0.011: wherever y's fraction is more than
 * ROUND_GUARD from one half (and y is that far from the decade's ends),
 * round(y) is D. Exact ties and values within the guard go to snprintf. */
#define ROUND_GUARD 0.03L
#define FAST_PATH (LDBL_MANT_DIG >= 64)

static const long double pow10_exact[28] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};

/* Whether long double arithmetic carries the 64-bit significand the bound
 * needs: not under valgrind, which emulates x87 arithmetic in double
 * precision (the fast path is then left to snprintf). */
static int extended_precision(void) {
  volatile long double one = 1.0L, tiny = 0x1p-63L;
  return one + tiny != one;
}

/* a 10^n in extended precision, or a negative value if |n| > 54. */
static long double scaled(double a, int n) {
  long double y = a;
  if (n > 54 || n < -54) return -1.0L;
  if (n > 27) return y * pow10_exact[27] * pow10_exact[n - 27];
  if (n >= 0) return y * pow10_exact[n];
  if (n >= -27) return y / pow10_exact[-n];
  return y / pow10_exact[27] / pow10_exact[-n - 27];
}

/* The 17 digits D and the decimal exponent X of a > 0 rounded to them, or
 * 0 where the error bound cannot decide. */
static int seventeen_digits(double a, uint64_t *digits, int *exponent) {
  int k = (int)floor(log10(a));
  for (int attempt = 0; attempt < 2; attempt++) {
    long double y = scaled(a, 16 - k);
    if (y < 0) return 0;
    if (y < 1e16L - ROUND_GUARD) {
      k--;
      continue;
    }
    if (y >= 1e17L + ROUND_GUARD) {
      k++;
      continue;
    }
    if (y < 1e16L + ROUND_GUARD || y > 1e17L - ROUND_GUARD) return 0; /* a decade's end */
    long double whole = floorl(y), frac = y - whole;
    if (fabsl(frac - 0.5L) < ROUND_GUARD) return 0;
    uint64_t d = (uint64_t)whole + (frac > 0.5L ? 1u : 0u);
    if (d == 100000000000000000ull) { /* rounded up into the next decade */
      d = 10000000000000000ull;
      k++;
    }
    *digits = d;
    *exponent = k;
    return 1;
  }
  return 0;
}

/* %g's layout for precision 17: fixed notation for -4 <= X < 17, else
 * scientific; trailing zeros of the fraction and a bare point dropped. */
static int layout(int negative, uint64_t digits, int x, char *out) {
  char s[17];
  for (int i = 16; i >= 0; i--) {
    s[i] = (char)('0' + digits % 10);
    digits /= 10;
  }
  int last = 16; /* the last significant digit kept */
  while (last > 0 && s[last] == '0') last--;
  char *p = out;
  if (negative) *p++ = '-';
  if (x < -4 || x >= 17) {
    *p++ = s[0];
    if (last > 0) {
      *p++ = '.';
      for (int i = 1; i <= last; i++) *p++ = s[i];
    }
    *p++ = 'e';
    *p++ = x < 0 ? '-' : '+';
    int e = x < 0 ? -x : x;
    char ebuf[4];
    int ne = 0;
    do {
      ebuf[ne++] = (char)('0' + e % 10);
      e /= 10;
    } while (e > 0);
    if (ne < 2) ebuf[ne++] = '0';
    while (ne > 0) *p++ = ebuf[--ne];
  } else if (x >= 0) {
    for (int i = 0; i <= x; i++) *p++ = s[i];
    if (last > x) {
      *p++ = '.';
      for (int i = x + 1; i <= last; i++) *p++ = s[i];
    }
  } else {
    *p++ = '0';
    *p++ = '.';
    for (int i = 0; i < -x - 1; i++) *p++ = '0';
    for (int i = 0; i <= last; i++) *p++ = s[i];
  }
  *p = '\0';
  return (int)(p - out);
}

int nsedi_format_g17_fast(double v, char out[NSEDI_G17_MAX]) {
  if (v == 0) {
    char *p = out;
    if (signbit(v)) *p++ = '-';
    *p++ = '0';
    *p = '\0';
    return (int)(p - out);
  }
  uint64_t digits;
  int exponent;
  if (FAST_PATH && isfinite(v) && extended_precision() && seventeen_digits(fabs(v), &digits, &exponent))
    return layout(signbit(v) != 0, digits, exponent, out);
  return 0;
}

int nsedi_format_g17(double v, char out[NSEDI_G17_MAX]) {
  int n = nsedi_format_g17_fast(v, out);
  return n > 0 ? n : snprintf(out, NSEDI_G17_MAX, "%.17g", v);
}

int nsedi_put_g17(FILE *f, double v) {
  char buf[NSEDI_G17_MAX];
  nsedi_format_g17(v, buf);
  return fputs(buf, f);
}
