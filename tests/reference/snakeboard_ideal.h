/* The ideal snakeboard of Lewis, Ostrowski, Murray and Burdick,
 * "Nonholonomic mechanics and locomotion: the snakeboard example" (1994):
 * an independent reference for nsed's snakeboard (problems/snakeboard_*.yaml).
 * Uses libc/libm only, no nsed code. Derivation: docs/engine.md, "The
 * snakeboard against the ideal model".
 *
 * A board (the coupler) with its centre at (x, y) and heading theta; the
 * back and front wheelsets at -r and +r along it, turned by phi_b, phi_f
 * about the vertical relative to the board, each rolling without slipping
 * sideways (its wheels' translation along their axle is forbidden); a
 * rotor at the centre turned by psi relative to the board. The three
 * shape angles are prescribed, psi = a_psi sin(w_psi t + b_psi) and the
 * same for phi_f, phi_b (the rider's servos); the board's x, y, theta
 * follow. Kinetic energy
 *   T = M/2 (x'^2 + y'^2) + J/2 theta'^2 + J0/2 (theta' + psi')^2
 *     + J1/2 ((theta' + phi_f')^2 + (theta' + phi_b')^2),
 * the wheels' own spin and the wheelsets' translation left out, as the
 * paper does. */
#ifndef NSED_TESTS_SNAKEBOARD_IDEAL_H
#define NSED_TESTS_SNAKEBOARD_IDEAL_H

typedef struct {
  double a, w, b; /* amplitude (rad), angular frequency (rad/s), phase (rad): a sin(w t + b) */
} sb_libration;

typedef struct {
  double M;     /* mass translating with the board (kg), > 0 */
  double J;     /* the board's moment about the vertical through its centre (kg m^2), > 0 */
  double J0;    /* the rotor's about its vertical axis (>= 0) */
  double J1;    /* each wheelset's about its vertical axis (>= 0) */
  double r;     /* half the distance between the wheelsets (m), > 0 */
  sb_libration psi, phi_f, phi_b; /* the prescribed shape */
} sb_params;

typedef struct {
  double t, x, y, theta, vx, vy, omega;
} sb_state;

enum {
  SB_OK = 0,
  SB_EPARAM = -1,   /* a parameter out of range or not finite */
  SB_ESINGULAR = -2 /* the wheelsets parallel to each other and to the board's normal: the two
                       no-slip rows dependent (phi_f = phi_b = +-pi/2), no motion defined */
};

/* The shape angle a sin(w t + b) and its first two derivatives. */
void sb_shape(const sb_libration *l, double t, double out[3]);

/* d/dt (x, y, theta, vx, vy, omega) at state s (s->t the time). */
int sb_rhs(const sb_params *p, const sb_state *s, double out[6]);

/* Advance s to t1 by classical RK4 with n steps. */
int sb_advance(const sb_params *p, sb_state *s, double t1, int n);

/* The no-slip residual of both wheelsets at s (m/s): zero on the motion. */
double sb_slip(const sb_params *p, const sb_state *s);

/* The kinetic energy at s (J), the shape's rates included. */
double sb_energy(const sb_params *p, const sb_state *s);

/* The power the three servos put in at s (W): each shape angle's
 * generalised force times its rate, the forces being what holds the shape
 * on its law (from the momentum balance of each rotating part). */
double sb_servo_power(const sb_params *p, const sb_state *s);

#endif
