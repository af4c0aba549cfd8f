/* The omni vehicle with massive rollers on infinite friction: an independent
 * reference for nsed's multibody vehicle where its rollers stick (libc/libm
 * only, no nsed code). Derivation: docs/omni-vehicle.md, "Against a
 * massive-roller model".
 *
 * Each wheel is a hub plus n spindle rollers (psi = 0) whose profile is the
 * rim circle of radius R turned about the chord at R cos(alpha), alpha =
 * pi / n. The roller in contact keeps its inertia and its spin s about its
 * own axis and does not slip in either direction:
 *   along the rolling direction t_i:  v . t_i + Omega d + R phidot_i = 0,
 *   along the axle e_i:               v . e_i - r(q_i) (s_i - Omega sin q_i) = 0,
 * with q_i = phi_i - 2 alpha k_i the touching roller's turn from the
 * downward vertical and r(q) = R (cos q - cos alpha) the contact point's
 * distance from its axis, zero at the tips. The rollers off the floor turn
 * freely: their spin about their own axes is constant, and their angular
 * momentum acts on the wheel and the platform as a gyroscope's. A wheel's
 * lateral velocity v . e_i is therefore zero at every handover (q = +-alpha),
 * and the handover is free of impulse: the outgoing roller leaves with its
 * spin, the incoming one touches with its own.
 *
 * Conventions as omni_nh.h: world z up; platform centre (x, y), its mass
 * centre, heading theta; wheel i's centre at d e_i, e_i = (cos beta_i,
 * sin beta_i) + theta in the world, beta_i = 2 pi i / N; t_i = z x e_i;
 * phi_i the wheel's turn about +e_i. Roller k of wheel i has its centre at
 * R cos(alpha) (-cos q z + sin q t_i) from the wheel centre and its axis
 * a = cos q t_i + sin q z, q = phi_i - 2 alpha k. */
#ifndef NSED_TESTS_OMNI_MASSIVE_H
#define NSED_TESTS_OMNI_MASSIVE_H

#define OMNI_MASSIVE_MAX_WHEELS 8
#define OMNI_MASSIVE_MAX_ROLLERS 32

enum {
  OMNI_MASSIVE_OK = 0,
  OMNI_MASSIVE_EPARAM = -1, /* parameter out of range or not finite */
  OMNI_MASSIVE_EARG = -2,   /* NULL, tol <= 0, a state not finite or off its sector */
  OMNI_MASSIVE_ESTEP = -3,  /* step size underflow or too many steps */
  OMNI_MASSIVE_ESINGULAR = -4 /* the rows' Gram matrix is not positive definite */
};

typedef double (*omni_massive_torque_fn)(int i, double t, void *ctx);

typedef struct {
  int nwheels;               /* 3..OMNI_MASSIVE_MAX_WHEELS, equally spaced */
  int rollers;               /* n, 3..OMNI_MASSIVE_MAX_ROLLERS */
  double d, R;               /* platform centre to wheel centre, wheel radius (m) */
  double m_platform, I_platform; /* platform mass and central moment about z */
  double m_hub, J_hub_axial, J_hub_diam; /* hub mass, moments about its axle and a diameter */
  double m_roller;           /* each roller's mass */
  double J_roller_axial;     /* each roller's moment about its own axis (> 0) */
  double J_roller_trans;     /* and about a transverse axis through its centre */
  omni_massive_torque_fn torque; /* drive torque on wheel i about +e_i; NULL: none */
  void *ctx;
} omni_massive_params;

typedef struct {
  double t;
  double x, y, theta, vx, vy, omega; /* platform (world velocity) */
  double phi[OMNI_MASSIVE_MAX_WHEELS], phidot[OMNI_MASSIVE_MAX_WHEELS];
  int sector[OMNI_MASSIVE_MAX_WHEELS]; /* k_i, the touching roller: |phi_i - 2 alpha k_i| <= alpha */
  /* Every roller's spin about its own axis (absolute angular velocity . a), the
   * touching one's included. */
  double spin[OMNI_MASSIVE_MAX_WHEELS][OMNI_MASSIVE_MAX_ROLLERS];
  long handovers;
  double h;                  /* the integrator's next step (0: choose one) */
} omni_massive_state;

/* A state from the platform's pose and velocity, the wheels' turns and every
 * roller's spin: phidot and the touching rollers' spins follow from the
 * rows (a touching roller exactly at a tip keeps the spin given). Returns
 * OMNI_MASSIVE_OK, _EPARAM or _EARG; s is written only on success. */
int omni_massive_init(const omni_massive_params *p, double x, double y, double theta, double vx,
                      double vy, double omega, const double *phi,
                      const double spin[][OMNI_MASSIVE_MAX_ROLLERS], omni_massive_state *s);

/* Integrate from s->t to t1 > s->t with Dormand-Prince 5(4), error per step
 * <= tol (1 + |y|), handovers located to round-off. On error s is left at
 * the last state reached. */
int omni_massive_advance(const omni_massive_params *p, omni_massive_state *s, double t1, double tol);

/* Kinetic energy: the whole (conserved when coasting) and the part that
 * excludes the free rollers' spins (what the platform, hubs and touching
 * rollers carry). */
double omni_massive_energy(const omni_massive_params *p, const omni_massive_state *s, int whole);

/* The largest residual of the rows at s (m/s). */
double omni_massive_residual(const omni_massive_params *p, const omni_massive_state *s);

#endif
