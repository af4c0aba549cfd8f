/* Assemblies: composite systems built from ordinary bodies, joints, forces
 * and contacts, so the engine sees nothing new (docs/architecture.md).
 * Each has a definition struct with a default function; building one
 * checks the definition and gives the parts as an nsed_assembly, which
 * nsed_assembly_add puts into a model. The problem files' blocks
 * (omni_vehicle, omni_wheel_testbench, disk_on_shaft;
 * docs/problem-format.md) are read into the same structs.
 *
 *   nsed_omni_vehicle_def v;
 *   nsed_omni_vehicle_def_default(&v);
 *   v.wheel.rollers = 6;
 *   nsed_omni_vehicle_add(model, &v, &err);   (or _build + nsed_assembly_add)
 *
 * Messages of the checks start with the offending field's name as the
 * problem files spell it ("wheel_distance: wheels 0 and 1 overlap ..."). */
#ifndef NSED_ASSEMBLIES_H
#define NSED_ASSEMBLIES_H

#include "nsed/model.h"
#include "nsed/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The parts of an assembly, in the order they are added to a model (bodies
 * first, so the joints, forces and contacts can name them). */
typedef struct {
  int nbody, njoint, nforce, ncontact;
  nsed_body_def *bodies;
  nsed_joint_def *joints;
  nsed_force_def *forces;
  nsed_contact_def *contacts;
} nsed_assembly;

/* Add every part of a to the model (not finalized). On error the model
 * holds the parts added before the failing one and err names it. */
NSED_API int nsed_assembly_add(nsed_model *m, const nsed_assembly *a, nsed_error *err);

/* Release the parts and clear *a (safe on a cleared or partly built one). */
NSED_API void nsed_assembly_free(nsed_assembly *a);

/* ---- the omni wheel (Kosenko et al.; docs/rollers.md) ---- */

#define NSED_OMNI_MAX_ROLLERS 100

/* A hub carrying n spindle rollers on revolute axles, the rollers' surfaces
 * forming the circle of radius R about the hub's axis (body z). Roller k's
 * centre is at R1 = R cos(pi/n) from the hub centre at the angle
 * 90 deg + 360 k / n in the hub's x-y plane, its axis (body x) the circle's
 * tangent turned about the radius by psi; its body y points at the hub
 * centre. */
typedef struct {
  int rollers;            /* n, 3 .. NSED_OMNI_MAX_ROLLERS */
  double psi;             /* roller inclination to the wheel plane (rad), |psi| < pi/2 */
  double radius;          /* R (m), > 0 */
  double hub_mass;        /* kg, > 0 */
  double hub_inertia[3];  /* principal moments; all 0: a thin disk of radius R/2 */
  double roller_mass;     /* each roller's (kg), > 0 */
  int roller_rotors;      /* 1 (default): each roller a rotor about its axis (NSED_ROTOR_X: the
                             same motion, its fast spin kept out of its state's frame); 0: the
                             rollers' frames spin with them; 2: each roller a rotor attached to
                             the hub (reduced coordinates: no axle joint, its turn and rate its
                             only states) */
  nsed_contact_def contact; /* every roller's contact with the floor: its force law (the
                               builder sets name, body, other and wheel) */
} nsed_omni_wheel_def;

/* Kosenko's non-dimensional wheel: 4 rollers, psi 0, R 1, hub mass 1, the
 * rollers 0.1 of the hub in all (0.025 each), the contact law's defaults. */
NSED_API void nsed_omni_wheel_def_default(nsed_omni_wheel_def *w);

/* Check a wheel definition; NSED_ERR_INPUT naming the field. */
NSED_API int nsed_omni_wheel_check(const nsed_omni_wheel_def *w, nsed_error *err);

/* The omni-wheel testbench (seed 000 §4): one wheel rolling along world x on
 * the floor z = 0, its axle along world y, held upright by an align
 * servo-constraint (joint "vertical", its multiplier the balancing torque)
 * and pressed down by a force at its centre standing in for a vehicle.
 * Parts: body "hub", bodies "roller<k>", joints "axle<k>" and "vertical",
 * force "load", contacts "roller<k>_floor". */
typedef struct {
  nsed_omni_wheel_def wheel;
  double load;            /* downward force on the hub centre (N), >= 0 */
  double velocity;        /* initial velocity of the hub centre along x (m/s) */
  double spin;            /* initial angular velocity about the axle (rad/s, about +y) */
} nsed_omni_testbench_def;

/* Kosenko's set: the default wheel with roller masses 0.1/n, load 1,
 * velocity 1, spin 1 (rolling without slip for R = 1). */
NSED_API void nsed_omni_testbench_def_default(nsed_omni_testbench_def *t);

/* Check and build the testbench's parts into *out (free with
 * nsed_assembly_free). */
NSED_API int nsed_omni_testbench_build(const nsed_omni_testbench_def *t, nsed_assembly *out,
                                       nsed_error *err);

/* ---- the omni vehicle (Kosenko et al., seed 001 §4; docs/omni-vehicle.md) ---- */

#define NSED_OMNI_VEHICLE_MAX_WHEELS 16

/* A platform on N_w omni wheels, standing on the floor z = 0 (z up). The
 * platform centre P is at height R, heading h about z; wheel i sits at
 * P + d E_i, E_i = Rz(h) (cos beta_i, sin beta_i, 0), its axle along E_i,
 * or (positions_given) at P + Rz(h) p_i with its axle along Rz(h) of the
 * direction axle_angles[i] (axles_given) or of p_i (a mecanum car: wheels
 * at the corners of a rectangle, parallel axles, wheel_psi alternating).
 * Every wheel starts rolling without slip (roller 0 at the bottom, the only
 * one turning on its axle). Parts: body "platform"; per wheel i: body
 * "wheel<i>" (the hub), its joint "wheel<i>_axle", bodies "wheel<i>_roller<k>"
 * with joints "wheel<i>_roller<k>_axle" and contacts
 * "wheel<i>_roller<k>_floor"; suspended: body "wheel<i>_strut" and joint
 * "wheel<i>_suspension" (prismatic along the platform's z, sprung). */
typedef struct {
  int wheels;             /* N_w, 3 .. NSED_OMNI_VEHICLE_MAX_WHEELS; more than 3 need the suspension */
  nsed_omni_wheel_def wheel; /* every wheel's (the hub's inertia default: a disk of radius R/2) */
  double wheel_distance;  /* d (m), > 0; wheels must not overlap (docs/omni-vehicle.md) */
  int angles_given;       /* 0: the wheels equally spaced, beta_i = 2 pi i / N_w */
  double wheel_angles[NSED_OMNI_VEHICLE_MAX_WHEELS]; /* beta_i (rad), no two the same direction */
  int positions_given;    /* 1: wheel i's centre at wheel_positions[i] (then wheel_distance and
                             wheel_angles are unused) */
  double wheel_positions[NSED_OMNI_VEHICLE_MAX_WHEELS][2]; /* platform frame (m); wheels apart */
  int axles_given;        /* 1: wheel i's axle along axle_angles[i]; 0: along the platform
                             centre's direction to the wheel */
  double axle_angles[NSED_OMNI_VEHICLE_MAX_WHEELS]; /* axle directions, platform frame (rad) */
  int psi_given;          /* 1: wheel i's rollers inclined at wheel_psi[i]; 0: every wheel's at
                             wheel.psi */
  double wheel_psi[NSED_OMNI_VEHICLE_MAX_WHEELS]; /* rad, |psi| < pi/2 */
  double platform_mass;   /* kg, > 0 */
  double platform_inertia[3]; /* all 0: a thin disk of radius d (positions given: of the
                                 farthest wheel's distance) */
  double position[2];     /* P's x, y (m) */
  double heading;         /* h (rad) */
  double velocity[2];     /* P's initial velocity (m/s) */
  double spin;            /* initial angular velocity about z (rad/s) */
  double floor_velocity[3]; /* the floor's (a belt's) velocity, as in nsed_options */
  double gravity;         /* g (m/s^2): minus gravity's z; the suspension's preload carries the
                             platform's weight */
  int suspended;          /* each hub on a sprung strut */
  double suspension_stiffness; /* k per wheel (N/m), > 0 when suspended */
  double suspension_damping;   /* c per wheel (N s/m); < 0: half the critical damping of the
                                  platform's share of mass on one spring */
  double strut_mass;      /* kg; 0: a tenth of the hub's mass */
  int driven;             /* a torque law about each axle */
  nsed_law drive[NSED_OMNI_VEHICLE_MAX_WHEELS];
} nsed_omni_vehicle_def;

/* Kosenko's non-dimensional vehicle: 3 wheels of the default wheel,
 * d = 2, platform mass 3.3, at rest at the origin heading 0, g = 9.81,
 * floor at rest, no suspension, no drive. */
NSED_API void nsed_omni_vehicle_def_default(nsed_omni_vehicle_def *v);

/* Check a vehicle definition: ranges, distinct wheel directions, wheels not
 * overlapping, a suspension for more than three wheels. NSED_ERR_INPUT
 * naming the field (wheel_angles[i] for a repeated direction). */
NSED_API int nsed_omni_vehicle_check(const nsed_omni_vehicle_def *v, nsed_error *err);

/* Check and build the vehicle's parts into *out (free with
 * nsed_assembly_free). */
NSED_API int nsed_omni_vehicle_build(const nsed_omni_vehicle_def *v, nsed_assembly *out,
                                     nsed_error *err);

/* Check that options fit the vehicle: the floor z = 0 with normal +z,
 * gravity's z -g and the definition's floor velocity (NSED_ERR_INPUT naming
 * floor.normal, floor.point, floor.velocity or gravity). */
NSED_API int nsed_omni_vehicle_check_options(const nsed_omni_vehicle_def *v, const nsed_options *o,
                                             nsed_error *err);

/* Build the vehicle and add it to m, whose options must fit it
 * (nsed_omni_vehicle_check_options). */
NSED_API int nsed_omni_vehicle_add(nsed_model *m, const nsed_omni_vehicle_def *v, nsed_error *err);

/* ---- the disk on a shaft (Xu, Wang & Wang 2017; docs/disk-on-shaft.md) ---- */

/* A homogeneous disk (radius r) on a massless tube that slides along and
 * turns about a homogeneous shaft OA; a spring along the shaft between O
 * and the tube; the shaft hangs on a pillar by a cardan joint at O, at
 * height r above the floor; a torque about the vertical drives the shaft;
 * the rim touches the floor. Starts at rest with the shaft along world x.
 * Parts: bodies "shaft" and "disk", joints "cardan" (universal) and "tube"
 * (cylindrical, sprung), force "drive", contact "disk_floor". The disk is a
 * rotor about its axis (NSED_ROTOR_Z; it spins on the shaft). */
typedef struct {
  double disk_radius;     /* r (m), > 0: also the height of O */
  double disk_mass;       /* m_d (kg), > 0 */
  double shaft_length;    /* l_A (m), > 0 */
  double shaft_mass;      /* m_A (kg), > 0 */
  double shaft_diameter;  /* d_A (m), > 0 */
  double spring_k;        /* k (N/m), >= 0 */
  double spring_c;        /* damping of the spring (N s/m), >= 0 */
  double spring_rest;     /* l_S (m), >= 0 */
  double disk_position;   /* s0 = L_OC1 at the start (m), in (0, l_A] */
  nsed_law torque;        /* M(t) about the vertical (N m) */
  nsed_contact_def contact; /* the rim's force law (mu, mu0, ...) */
} nsed_disk_on_shaft_def;

/* The reconstructed parameter set (docs/disk-on-shaft.md): r 0.4, m_d 0.9,
 * l_A 2.2, m_A 1.2, d_A 0.05, k 230, c 0, l_S 1.51, s0 1.5, mu 0.18,
 * mu0 0.33, torque 25 sin(t) (case 2). */
NSED_API void nsed_disk_on_shaft_def_default(nsed_disk_on_shaft_def *s);

/* Check and build the parts into *out (free with nsed_assembly_free). */
NSED_API int nsed_disk_on_shaft_build(const nsed_disk_on_shaft_def *s, nsed_assembly *out,
                                      nsed_error *err);

#ifdef __cplusplus
}
#endif
#endif
