/* Classical nonholonomic model of the omni vehicle (massless rollers, roller
 * axes in the wheel plane; Zobova & Tatarinov 2009, Borisov, Kilin & Mamaev
 * 2011): an independent reference for nsed's multibody vehicle (platform +
 * wheels + physical rollers). Uses libc/libm only, no nsed code. Derivation,
 * first integrals and the closed-form free motion: docs/omni-vehicle.md,
 * "The nonholonomic reference model (tests/reference/omni_nh.c)".
 *
 * Convention (the same as nsed's vehicle builder): world z up, floor z = 0.
 * Platform centre (x, y) (it is also the platform's mass centre), heading
 * theta about z. In the platform frame wheel i (0-based) has its centre at
 * d (cos beta_i, sin beta_i), its axle along e_i = (cos beta_i, sin beta_i),
 * rolling direction t_i = z x e_i = (-sin beta_i, cos beta_i), radius R,
 * contact point R below the centre. phi_i is the wheel's rotation about +e_i
 * relative to the platform. With body-frame platform velocity (u, v) and yaw
 * rate omega the rollers forbid slip along t_i only:
 *   (u, v) . t_i + omega d + R phidot_i = 0.
 * The drive torque tau_i(t) acts on wheel i about +e_i and -tau_i on the
 * platform (power tau_i phidot_i). Gravity does no work and is absent.
 *
 * Inclined rollers (mecanum, psi != 0; docs/omni-vehicle.md, "Inclined
 * rollers"): the roller in contact has its axis cos(psi) tau + sin(psi) e_i,
 * tau the wheel-plane tangent at the roller, and forbids slip across it:
 *   (u, v) . (t_i + kappa e_i) + omega (d + s) + R phidot_i = 0,
 * with kappa = tan(psi) and s = 0 in the limit of infinitely many rollers
 * (rollers = 0), and for n rollers, the touching one turned by
 * q = phi_i - 2 alpha k (alpha = pi / n, |q| <= alpha) from the bottom,
 * kappa = tan(psi) / cos(q) and s = -R cos(alpha) tan(q) tan(psi) (the
 * contact point's offset along the axle). Where a wheel hands over to the
 * next roller s jumps by 2 R sin(alpha) tan(psi): the model applies the
 * plastic (perfectly inelastic) impulse that enforces the new roller's
 * constraint, the limit of infinite friction.
 *
 * A general layout (layout = 1): wheel i at p_i with its axle along e_i
 * (any direction in the plane, not the radius) and its own psi_i; the row
 * becomes (t_i + kappa_i e_i, (z x p_i) . (t_i + kappa_i e_i) + s_i), which
 * is the one above for p_i = d e_i. */
#ifndef NSED_TESTS_OMNI_NH_H
#define NSED_TESTS_OMNI_NH_H

#define OMNI_NH_MAX_WHEELS 16

enum {
  OMNI_NH_OK = 0,
  OMNI_NH_EPARAM = -1,    /* parameter out of range (nwheels, R, d, masses, NaN) */
  OMNI_NH_ESINGULAR = -2, /* constrained mass matrix not positive definite */
  OMNI_NH_EARG = -3,      /* bad argument (NULL, tol <= 0, non-finite state or time) */
  OMNI_NH_ESTEP = -4,     /* integrator: step size underflow or too many steps */
  OMNI_NH_ENOTSYM = -5,   /* closed form asked for a vehicle that is not balanced, is driven or
                             has finitely many inclined rollers */
  OMNI_NH_EHANDOVER = -6  /* a handover's impulse turns the wheel back onto the roller it left */
};

typedef double (*omni_nh_torque_fn)(int i, double t, void *ctx);

typedef struct {
  int nwheels;                   /* 3..OMNI_NH_MAX_WHEELS */
  double d;                      /* platform centre to wheel centre (m), > 0 */
  double R;                      /* wheel radius (m), > 0 */
  double beta[OMNI_NH_MAX_WHEELS]; /* wheel directions in the platform frame (rad) */
  double m_platform, I_platform; /* platform mass (> 0) and central moment about z (> 0) */
  double m_wheel;                /* each wheel's mass (> 0), rollers lumped in */
  double J_axial;                /* each wheel's moment about its axle (>= 0) */
  double J_diam;                 /* each wheel's moment about an in-plane axis through its centre (>= 0) */
  double psi;                    /* roller axes' inclination to the wheel plane (rad), |psi| < pi/2 */
  int rollers;                   /* rollers per wheel, 3..100; 0: infinitely many (the classical model) */
  /* A general layout (a mecanum car: wheels at the corners of a rectangle,
   * parallel axles, the rollers' inclination alternating): */
  int layout;                    /* 0: wheel i at d (cos beta_i, sin beta_i), its axle along that
                                    radius, every wheel's rollers at psi; 1: as below */
  double pos[OMNI_NH_MAX_WHEELS][2]; /* layout 1: wheel centres in the platform frame (m) */
  double axle[OMNI_NH_MAX_WHEELS];   /* layout 1: axle directions in the platform frame (rad) */
  double psi_of[OMNI_NH_MAX_WHEELS]; /* layout 1: each wheel's roller inclination (rad) */
  omni_nh_torque_fn torque;      /* drive torque tau_i(t) on wheel i (N m), NULL: none */
  void *ctx;                     /* passed to torque */
} omni_nh_params;

typedef struct {
  double t;
  double x, y, theta;            /* platform centre (world) and heading */
  double vx, vy, omega;          /* platform centre velocity (world) and yaw rate */
  double phi[OMNI_NH_MAX_WHEELS], phidot[OMNI_NH_MAX_WHEELS]; /* wheel spins (phidot from the constraints) */
  int sector[OMNI_NH_MAX_WHEELS]; /* roller k_i touching: |phi_i - 2 alpha k_i| <= alpha (rollers > 0) */
  long handovers;                /* handovers with a velocity jump (finitely many inclined rollers) */
  double handover_loss;          /* kinetic energy the handovers' impulses took, summed */
  double h;                      /* integrator's next step size hint (0: choose one) */
} omni_nh_state;

/* Equally spaced wheels beta_i = 2 pi i / nwheels, no torque, psi = 0,
 * infinitely many rollers. Does not
 * validate (omni_nh_init and omni_nh_advance do). */
void omni_nh_params_symmetric(omni_nh_params *p, int nwheels, double d, double R,
                              double m_platform, double I_platform, double m_wheel,
                              double J_axial, double J_diam);

/* OMNI_NH_OK, or OMNI_NH_EPARAM / OMNI_NH_ESINGULAR. */
int omni_nh_check(const omni_nh_params *p);

/* The 3x3 constrained mass matrix K in body quasi-velocities (u, v, omega):
 * kinetic energy = 1/2 w^T K w with the wheel spins eliminated (at phi = 0
 * for finitely many inclined rollers, where K depends on phi). For a
 * balanced vehicle K = diag(M*, M*, I*) (docs). Returns omni_nh_check's code;
 * K is written only on success. */
int omni_nh_mass_matrix(const omni_nh_params *p, double K[3][3]);

/* State at time 0 with phi = 0 (roller 0 of every wheel at the bottom),
 * phidot from the constraints and h = 0. Returns
 * omni_nh_check's code or OMNI_NH_EARG; s is written only on success. */
int omni_nh_init(const omni_nh_params *p, double x, double y, double theta, double vx,
                 double vy, double omega, omni_nh_state *s);

/* Integrate from s->t to t1 (either direction) with Dormand-Prince 5(4),
 * error per step <= tol (1 + |y|) componentwise, the last step landing
 * exactly on t1, handovers located to round-off and resolved by the plastic
 * impulse. The velocities of s are taken as (vx, vy, omega); s->phidot is
 * recomputed from the constraints. OMNI_NH_EARG if a phi_i lies outside its
 * sector. On error s is unchanged. */
int omni_nh_advance(const omni_nh_params *p, omni_nh_state *s, double t1, double tol);

/* Kinetic energy of the state (platform + wheels), using s->phidot. */
double omni_nh_energy(const omni_nh_params *p, const omni_nh_state *s);

/* Closed-form free motion of a balanced vehicle (layout 0, sum e_i = 0 and
 * sum e_i e_i^T = N/2 I, e.g. equally spaced wheels; no torque; psi = 0 or
 * infinitely many rollers): the state at
 * time t from s0 (which must satisfy the constraints; use omni_nh_init or a
 * state from omni_nh_advance). Returns OMNI_NH_ENOTSYM for an unbalanced or
 * driven vehicle; out is written only on success. */
int omni_nh_free_motion(const omni_nh_params *p, const omni_nh_state *s0, double t,
                        omni_nh_state *out);

#endif
