/* Reduced-coordinate reference model of the disk on a shaft (Xu, Wang & Wang
 * 2017, section 5): an independent formulation of problems/disk_on_shaft_case*.yaml
 * that shares no code with nsed (its own equations, integrator, root finding
 * and event rules). Derivation: docs/disk-on-shaft.md, "Reduced-coordinate
 * reference".
 *
 * While the rim touches the ground the shaft is horizontal (pitch 0, the
 * cardan O at height r), so the coordinates are
 *   psi  yaw of the shaft about z (the disk centre is at s (cos psi, sin psi)),
 *   s    L_OC1, distance of the disk centre from O along the shaft,
 *   phi  spin of the disk about the shaft axis e (omega_disk . e = phi').
 * The normal force comes from the pitch equation at pitch 0, the friction
 * from Coulomb's law with the same 32-face polygon (stick) and the isotropic
 * kinetic law (slip) as the problem files. */
#ifndef NSED_TESTS_DOS_REDUCED_H
#define NSED_TESTS_DOS_REDUCED_H

typedef struct {
  double r, m_d;             /* disk radius (m), mass (kg) */
  double l_A, m_A, d_A;      /* shaft length (m), mass (kg), diameter (m) */
  double k, l_S;             /* spring stiffness (N/m), rest length (m) */
  double mu, mu0;            /* kinetic, static friction */
  double g;                  /* gravity (m/s^2) */
  double M, omega;           /* torque M sin(omega t) about z (N m, rad/s) */
  double t_end;              /* s */
  double s0;                 /* initial L_OC1 (m); start at rest, psi = phi = 0, sticking */
  int sides;                 /* friction polygon faces (face normals at 2 pi j / sides, world x-y) */
  double slip_stop_speed;    /* m/s: below it a slip's friction is held on its direction
                                (docs/engine.md, "Slip direction") */
  double rtol, atol;         /* Dormand-Prince 5(4) tolerances */
  double t_tol;              /* event time tolerance (s) */
  double sample_dt;          /* > 0: also sample at k sample_dt (k >= 1) */
} dos_params;

enum { DOS_STICK = 0, DOS_SLIP = 1 };            /* modes */
enum { DOS_EV_STICK = 0, DOS_EV_SLIP = 1 };      /* slip -> stick, stick -> slip (nsed's numbering) */

typedef struct {
  double t;
  int kind;                  /* DOS_EV_* */
  double s_dir[2];           /* slip: onset direction (world x, y); stick: the residual slip removed */
  double margin;             /* friction margin of the stick force at the event (N) */
} dos_event;

typedef struct {
  double t;
  int mode;                  /* DOS_STICK / DOS_SLIP */
  int is_event;              /* 0 grid or start, 1 after an event, 2 final, 3 after a root that was no event */
  double psi, s, phi, psid, sd, phid;
  double N;                  /* normal force (N) */
  double F[2];               /* friction force on the disk, world x, y (N) */
  double v[2];               /* slip velocity of the disk's material point at K, world x, y (m/s) */
  double x, y;               /* disk centre, world (m) */
} dos_sample;

typedef struct {
  dos_event *ev;
  int nev, evcap;
  dos_sample *smp;
  int nsmp, smpcap;
  long steps, rejected, rhs_evals;
  double min_N;              /* smallest normal force seen (must stay > 0) */
  double min_stick_margin;   /* smallest friction margin at the ends of stick steps */
  int vertex_onsets;         /* onsets decided at a polygon vertex */
  int refused_stops;         /* slip-stop roots where sticking was inconsistent (slip continued) */
  char error[256];
} dos_result;

/* Parameters of problems/disk_on_shaft_case<n>.yaml (n = 1, 2, 3) and the
 * reference's numerical settings (rtol 1e-12, event time tolerance 1e-13 s). */
void dos_params_case(dos_params *p, int case_no);

/* Run from rest to t_end. Returns 0, or -1 with res->error set. Samples are
 * recorded at the start, after each event (positions are continuous; the
 * velocities are the post-event ones), on the sample_dt grid, and at t_end. */
int dos_run(const dos_params *p, dos_result *res);

void dos_result_free(dos_result *res);

#endif
