/* A slipping contact's tangential acceleration as a function of its
 * friction direction, the others' fixed (docs/engine.md, "Slip
 * direction"). With its friction -mu lambda_n s the contact's normal
 * multiplier enters the constrained equations through a column that is
 * linear in s, so at a fixed state and fixed modes
 *
 *     lambda_n(s) = n + lambda_n(s) (q . s),    a_t(s) = a_r + lambda_n(s) P s,
 *
 * with n, q (2), a_r (2) and P (2 x 2) independent of s: lambda_n is
 * n / (1 - q . s) and a_t follows. Three evaluations at distinct
 * directions determine the nine numbers; the model then stands in for
 * evaluations in the direction's search, and every answer it gives is
 * checked against an evaluation. */
#ifndef NSEDI_SLIP_RESPONSE_H
#define NSEDI_SLIP_RESPONSE_H

typedef struct {
  double n, q[2];   /* lambda_n = n / (1 - q . s) */
  double a_r[2], P[4]; /* a_t = a_r + lambda_n P s, P row-major */
} nsedi_slip_response;

/* Fit from three evaluations: direction angles th[k], the contact's normal
 * multiplier lam[k] and tangential acceleration a[2k], a[2k+1] there.
 * Returns 0, or -1 where the three do not determine the model (their
 * matrix [1, lam s] singular to round-off). */
int nsedi_slip_response_fit(const double th[3], const double lam[3], const double a[6],
                            nsedi_slip_response *r);

/* The model at angle th: s x a_t and s . a_t, and |a_t|. Returns -1 where
 * 1 - q . s is not positive (lambda_n has no finite value there). */
int nsedi_slip_response_at(const nsedi_slip_response *r, double th, double *cross, double *dot,
                           double *mag);

#endif
