/* The Dormand-Prince 5(4) tableau (Hairer, Norsett & Wanner, table II.5.2)
 * that the test references' own integrators share (omni_nh.c,
 * omni_massive.c): nodes DP45_C, coefficients DP45_A (row 6 is the
 * 5th-order solution, first same as last), error weights DP45_E. */
#ifndef NSED_TESTS_DP45_TABLEAU_H
#define NSED_TESTS_DP45_TABLEAU_H

static const double DP45_C[7] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
static const double DP45_A[7][6] = {
    {0},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
static const double DP45_E[7] = {71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920,
                                 -17253.0 / 339200, 22.0 / 525, -1.0 / 40};

#endif
