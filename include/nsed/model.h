/* The static model: what the user described. Built once from definition
 * structs (each with a default function, after Box2D's b2DefaultBodyDef),
 * validated by nsed_model_finalize, and never written by the simulation, so
 * one model serves any number of nsed_data objects (threads, sweeps).
 *
 * Units are SI. Frames: "world" is right-handed, z up unless the floor normal
 * says otherwise; "body" is the body's principal central axes. Quaternions
 * are scalar first (q0, q1, q2, q3) and need not be normalised on input
 * (they are normalised by nsed_model_add_body). */
#ifndef NSED_MODEL_H
#define NSED_MODEL_H

#include "nsed/complementarity.h"
#include "nsed/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NSED_NAME_MAX 64

/* ---- time laws: scalar functions of time used by forces, torques, servos ---- */

typedef enum {
  NSED_LAW_CONSTANT = 0,  /* value */
  NSED_LAW_SINE = 1,      /* offset + amplitude * sin(omega * t + phase)  (omega rad/s, phase rad) */
  NSED_LAW_PIECEWISE = 2  /* piecewise linear through (times[i], values[i]); constant outside */
} nsed_law_type;

#define NSED_LAW_MAX_POINTS 64

typedef struct {
  nsed_law_type type;
  double value;                         /* CONSTANT */
  double offset, amplitude, omega, phase; /* SINE */
  int npoints;                          /* PIECEWISE: 2..NSED_LAW_MAX_POINTS, times strictly increasing */
  double times[NSED_LAW_MAX_POINTS];
  double values[NSED_LAW_MAX_POINTS];
} nsed_law;

/* A constant law of the given value. */
NSED_API nsed_law nsed_law_constant(double value);

/* Evaluate a law at time t. */
NSED_API double nsed_law_eval(const nsed_law *law, double t);

/* ---- bodies ---- */

typedef enum {
  NSED_SHAPE_NONE = 0,     /* no geometry (inertia must be given) */
  NSED_SHAPE_SPHERE = 1,   /* radius */
  NSED_SHAPE_DISK = 2,     /* thin disk: radius; axis = body z; contacts on its rim (a circle) */
  NSED_SHAPE_CYLINDER = 3, /* solid cylinder: radius, length along body z; contacts on its two
                              rims (the circles at z = -+length/2) */
  NSED_SHAPE_BOX = 4,      /* half extents along body x, y, z; contacts at its 8 vertices */
  NSED_SHAPE_POINT = 5,    /* a contact point at the centre of mass (a sliding block, a particle);
                              inertia must be given */
  NSED_SHAPE_ROLLER = 6,   /* omni-wheel spindle roller (seed 001 eq. 1), axis = body x:
                              x^2 + (sqrt(y^2 + z^2) + R1)^2 = R^2, R = radius (the wheel's),
                              R1 = R cos(alpha), alpha = pi/rollers, tips at x = +-R sin(alpha);
                              inclined rollers (psi != 0): the profile of docs/rollers.md,
                              tips at x = +-R sin(alpha) / cos(psi) */
  NSED_SHAPE_CAPSULE = 7,  /* a segment of length along body z swept by a sphere of radius;
                              contacts on its two end caps (the spheres at z = -+length/2) */
  NSED_SHAPE_ELLIPSOID = 8, /* semi-axes half[0..2] along body x, y, z; contacts at its point
                              nearest the other surface (a rolling point) */
  NSED_SHAPE_SUPERELLIPSOID = 9 /* |x/a|^p + |y/b|^p + |z/c|^p <= 1: semi-axes half[0..2],
                                   exponent p >= 2 (2: the ellipsoid; large p: a rounded box);
                                   contacts like the ellipsoid's */
} nsed_shape_type;

typedef struct {
  nsed_shape_type type;
  double radius;
  double length;   /* CYLINDER, CAPSULE */
  double half[3];  /* BOX: half extents; ELLIPSOID, SUPERELLIPSOID: semi-axes */
  int rollers;     /* ROLLER: rollers per wheel n >= 3 (alpha = pi/n) */
  double psi;      /* ROLLER: inclination of the roller axis to the wheel plane (rad), |psi| < pi/2 */
  double exponent; /* SUPERELLIPSOID: p, 2 <= p <= NSED_SUPERELLIPSOID_MAX_EXPONENT */
} nsed_shape;

/* The largest superellipsoid exponent, the largest the closest-point tests
 * cover: at it the surface's corners are within 1.1% (1 - 3^(-1/p)) of a
 * box's, so a box serves beyond. */
#define NSED_SUPERELLIPSOID_MAX_EXPONENT 100

/* How a body's rotation is carried in the state (docs/engine.md, "Rotors").
 * A rotor is a body whose central inertia is symmetric about one of its
 * principal axes (the other two moments equal): its state's frame turns with
 * the body except about that axis, and the turn about it is one more state,
 * so a fast spin does not make the body-axis components of the angular
 * velocity and the quaternion oscillate at the spin rate. The motion is the
 * same; every body-fixed point, direction and output is the material one. */
typedef enum {
  NSED_ROTOR_NONE = 0, /* the state's frame is the body's principal axes (default) */
  NSED_ROTOR_X = 1,    /* a rotor about body x: J2 = J3 */
  NSED_ROTOR_Y = 2,    /* about body y: J1 = J3 */
  NSED_ROTOR_Z = 3     /* about body z: J1 = J2 */
} nsed_rotor;

typedef struct {
  char name[NSED_NAME_MAX];
  double mass;                /* kg, > 0 */
  double inertia[3];          /* principal central moments J1 J2 J3 (kg m^2); all 0: computed from shape */
  nsed_shape shape;
  double position[3];         /* centre of mass, world (m) */
  double quat[4];             /* orientation, scalar first */
  double velocity[3];         /* centre-of-mass velocity, world (m/s) */
  double angular_velocity[3]; /* body axes (rad/s) */
  nsed_rotor rotor;           /* the state's frame (default NSED_ROTOR_NONE) */
  char attached_to[NSED_NAME_MAX]; /* "" (default), or the body this rotor is fixed to: it then
                                      moves with that body and turns only about its axis, in
                                      reduced coordinates (its turn and rate are its only states;
                                      docs/engine.md, "Attached rotors") */
} nsed_body_def;

/* Defaults: unnamed, mass 1, inertia from shape (none), at the origin,
 * identity orientation, at rest, not a rotor, attached to nothing.
 *
 * An attached rotor (rotor set, attached_to naming a body added before it)
 * keeps its position and axis in its parent's frame. The parent must be
 * neither a rotor nor attached, and its rotors must leave it balanced: their
 * centres' mass moment about the parent's centre zero and the inertia they
 * add across their axes diagonal in the parent's axes (a wheel's ring of
 * rollers; checked at nsed_model_finalize). An attached rotor carries no
 * joint, and its contacts are with the floor or a plane only; its initial
 * velocity and its angular velocity across its axis must be the parent's
 * motion there. */
NSED_API void nsed_body_def_default(nsed_body_def *def);

/* ---- joints (bilateral constraints, imposed at acceleration level with
 * Baumgarte stabilisation; see docs/engine.md for each type's equations) ---- */

typedef enum {
  NSED_JOINT_SPHERICAL = 0,   /* anchors coincide (3 rows) */
  NSED_JOINT_REVOLUTE = 1,    /* anchors coincide, axes aligned (5 rows) */
  NSED_JOINT_CYLINDRICAL = 2, /* anchor_b on A's axis line, axes aligned (4 rows): slides and turns */
  NSED_JOINT_PRISMATIC = 3,   /* as cylindrical and no relative rotation about the axis (5 rows) */
  NSED_JOINT_UNIVERSAL = 4,   /* anchors coincide, axis_a (on A) perpendicular to axis_b (on B) (4 rows) */
  NSED_JOINT_WELD = 5,        /* no relative motion (6 rows) */
  NSED_JOINT_SERVO = 6,       /* revolute with prescribed relative angle servo_angle(t) (6 rows) */
  NSED_JOINT_ALIGN = 7        /* servo-constraint: body B's axis_b perpendicular to the floor normal
                                 (seed 000 §4.2; 1 row; body A unused): its multiplier is the balancing torque */
} nsed_joint_type;

/* A joint drive (seed 002's FixedControlledJoint, M = f(t, phi, dphi/dt)):
 * a generalised force along one joint coordinate q, applied equal and
 * opposite to A and B. q is the relative angle about the axis (rad; counted
 * from the initial configuration, continuous over any number of turns) or
 * the axial coordinate s of anchor_b along axis_a from anchor_a (m). */
typedef enum {
  NSED_DRIVE_NONE = 0,
  NSED_DRIVE_FEEDBACK = 1, /* f = feedforward(t) - k (q - reference(t)) - c (dq/dt - reference'(t)):
                              a PD controller, or a spring-damper with offset (constant reference) */
  NSED_DRIVE_TABLE = 2     /* f = table(q) or table(dq/dt), piecewise linear, constant outside */
} nsed_drive_type;

typedef enum {
  NSED_DRIVE_OF_COORDINATE = 0, /* TABLE: f = table(q) */
  NSED_DRIVE_OF_RATE = 1        /* TABLE: f = table(dq/dt) */
} nsed_drive_input;

typedef struct {
  nsed_drive_type type;
  double k;                /* FEEDBACK: stiffness / proportional gain (N m/rad or N/m), finite */
  double c;                /* FEEDBACK: damping / derivative gain (N m s/rad or N s/m), finite */
  nsed_law reference;      /* FEEDBACK: q_ref(t) (rad or m); its rate is the law's derivative */
  nsed_law feedforward;    /* FEEDBACK: f_ff(t) (N m or N) */
  nsed_drive_input input;  /* TABLE: what the table is a function of */
  nsed_law table;          /* TABLE: a PIECEWISE law whose times are the values of q or dq/dt */
} nsed_joint_drive;

/* How a servo joint holds its prescribed angle. */
typedef enum {
  NSED_SERVO_POSITION = 0,    /* phi = servo_angle(t): a holonomic row (Baumgarte as every row) */
  NSED_SERVO_ACCELERATION = 1 /* seed 002's FixedServoJoint: d2phi/dt2 = a''(t) - servo_kd (dphi/dt
                                 - a'(t)) - servo_kp (phi - a(t)); the initial angle and rate are
                                 the bodies' own, the error decays by the feedback */
} nsed_servo_level;

typedef struct {
  char name[NSED_NAME_MAX];
  nsed_joint_type type;
  char body_a[NSED_NAME_MAX]; /* "" or "ground": the fixed world */
  char body_b[NSED_NAME_MAX];
  double anchor_a[3];         /* joint point in A's frame (world if ground) */
  double anchor_b[3];         /* joint point in B's frame */
  double axis_a[3];           /* joint axis in A's frame (unit after normalisation) */
  double axis_b[3];           /* joint axis in B's frame; UNIVERSAL: B's cross axis */
  /* Force laws along / about the joint axis (applied equal and opposite to
   * A and B). Translational spring-damper along the axis (cylindrical,
   * prismatic): f = -k (s - rest_length) - c ds/dt, s the coordinate of
   * anchor_b along axis_a from anchor_a. */
  double spring_k, spring_c, rest_length;
  int has_torque;             /* a torque law tau(t) about the axis acting on B (and -tau on A) */
  nsed_law torque;
  nsed_law servo_angle;       /* SERVO: prescribed relative angle (rad) */
  nsed_servo_level servo_level; /* SERVO: default NSED_SERVO_POSITION */
  double servo_kp, servo_kd;  /* SERVO at acceleration level: feedback gains (1/s^2, 1/s), >= 0 */
  nsed_joint_drive drive;     /* about the axis: revolute, cylindrical (added to torque) */
  nsed_joint_drive axial_drive; /* along the axis: cylindrical, prismatic (added to spring) */
} nsed_joint_def;

/* Defaults: revolute, ground to "", anchors at origins, axes along z, no
 * laws, no drives, position-level servo. */
NSED_API void nsed_joint_def_default(nsed_joint_def *def);

/* ---- forces ---- */

typedef enum {
  NSED_FORCE_BODY_FORCE = 0,   /* force magnitude(t) * direction, at a point of the body */
  NSED_FORCE_BODY_TORQUE = 1,  /* torque magnitude(t) * direction */
  NSED_FORCE_SPRING = 2        /* spring-damper between point_a on body and point_b on body_b (or ground) */
} nsed_force_type;

typedef struct {
  char name[NSED_NAME_MAX];
  nsed_force_type type;
  char body[NSED_NAME_MAX];
  char body_b[NSED_NAME_MAX]; /* SPRING: second body, "" or "ground" for the world */
  double direction[3];        /* BODY_FORCE / BODY_TORQUE: unit after normalisation */
  int direction_in_body;      /* 1: direction is in body axes; 0: world (default) */
  double point[3];            /* BODY_FORCE: application point, body frame; SPRING: point on body */
  double point_b[3];          /* SPRING: point on body_b (world if ground) */
  nsed_law magnitude;         /* BODY_FORCE / BODY_TORQUE (N or N m) */
  double k, c, rest_length;   /* SPRING */
} nsed_force_def;

NSED_API void nsed_force_def_default(nsed_force_def *def);

/* ---- contacts ---- */

/* The force law of a contact (DESIGN.md §9): the same problem, other laws,
 * for benchmarking friction models. */
typedef enum {
  NSED_CONTACT_COULOMB = 0,     /* exact Coulomb, event-driven: stick/slip decided by the
                                   event problem (the default) */
  NSED_CONTACT_REGULARIZED = 1, /* unilateral normal (event-driven) with Kosenko's regularised
                                   friction -mu N v_t / max(|v_t|, delta): no stick mode */
  NSED_CONTACT_COMPLIANT = 2    /* seed 004: a spring-damper normal force
                                   max(0, -stiffness gap - damping v_n) while penetrating,
                                   friction -mu f_n v_t / max(|v_t|, delta): no events */
} nsed_contact_law;

/* How a roller/floor contact finds its contact point (seed 000 §5; the same
 * point on an exact configuration, different arithmetic; docs/rollers.md). */
typedef enum {
  NSED_TRACKING_INHERIT = -1,    /* contact def only: use nsed_options.contact_tracking */
  NSED_TRACKING_EXPLICIT = 0,    /* closed form from the roller's own axis (default) */
  NSED_TRACKING_IMPLICIT = 1,    /* from the wheel's centre and axis (seed 000 §5.1) */
  NSED_TRACKING_DIFFERENTIAL = 2 /* the contact point's surface coordinates are extra states,
                                    integrated from consistent initial values (seed 000 eqs. 7-8) */
} nsed_contact_tracking;

typedef struct {
  char name[NSED_NAME_MAX];
  char body[NSED_NAME_MAX];   /* its shape touches (a sphere, disk rim, point, roller, or a
                                 feature of a box, cylinder or capsule) */
  char other[NSED_NAME_MAX];  /* "" or "floor": the floor plane; a plane added by
                                 nsed_model_add_plane; else a sphere body */
  double mu;                  /* kinetic friction coefficient >= 0 */
  double mu0;                 /* static friction coefficient >= mu */
  double restitution;         /* Newton's e_N in [0, 1] */
  nsed_contact_law law;       /* default NSED_CONTACT_COULOMB */
  double delta;               /* m/s: regularisation speed (REGULARIZED, COMPLIANT), default 1e-6 */
  double stiffness, damping;  /* COMPLIANT: N/m > 0 and N s/m >= 0 */
  nsed_contact_tracking tracking; /* roller contacts; default NSED_TRACKING_INHERIT */
  char wheel[NSED_NAME_MAX];  /* IMPLICIT tracking: the wheel body carrying the roller; "" = the
                                 body joined to the roller by a revolute joint */
  double torsion;             /* m, >= 0: torsional friction of a contact patch (seed 004): a
                                 moment -torsion lambda_n sat(w_n / torsion_rate) about n, w_n the
                                 relative spin; REGULARIZED and COMPLIANT laws only (default 0) */
  double torsion_rate;        /* rad/s > 0: the spin below which that moment is linear (default 1e-6) */
  int feature;                /* which part of a shape with several touches: a box's vertex 0..7
                                 (bit k set = +half[k] along body axis k), a cylinder's rim or a
                                 capsule's end cap 0 (at z = -length/2) or 1 (+length/2);
                                 -1 (default) for the other shapes (nsed_contact_feature) */
} nsed_contact_def;

/* Defaults: floor contact, mu = mu0 = 0.3, restitution 0, tracking inherited. */
NSED_API void nsed_contact_def_default(nsed_contact_def *def);

/* The number of contact features of a shape: 8 vertices of a box, 2 rims
 * of a cylinder, 2 end caps of a capsule; 0 for shapes that touch as one. */
NSED_API int nsed_shape_features(nsed_shape_type shape);

/* The contact of one feature of a shape: *c with feature set and its name
 * suffixed ".v<i>" (box vertex), ".rim<i>" (cylinder) or ".end<i>"
 * (capsule). A contact on such a shape is the set of its features'
 * contacts. NSED_ERR_INPUT if the name does not fit or feature is out of
 * range. */
NSED_API int nsed_contact_feature(const nsed_contact_def *c, nsed_shape_type shape, int feature,
                                  nsed_contact_def *out, nsed_error *err);

/* ---- planes ---- */

/* A fixed plane bodies can touch (a wall, an incline, a step's faces),
 * besides the floor of nsed_options. Contacts name it in 'other'. */
typedef struct {
  char name[NSED_NAME_MAX];
  double point[3];    /* a point of the plane, world (m) */
  double normal[3];   /* the side the bodies are on; any length > 0, normalised when added */
  double velocity[3]; /* tangential velocity of its surface (a belt; perpendicular to normal) */
} nsed_plane_def;

/* Defaults: unnamed, through the origin, normal +z, still. */
NSED_API void nsed_plane_def_default(nsed_plane_def *def);

/* ---- settings ---- */

typedef enum {
  NSED_INTEGRATOR_ARKODE_DP5 = 0, /* ARKODE ERKStep, Dormand-Prince 5(4) (default) */
  NSED_INTEGRATOR_ARKODE_VERNER = 1, /* ARKODE ERKStep, Verner 6(5), 8 stages */
  NSED_INTEGRATOR_CVODE_ADAMS = 2, /* CVODE Adams-Moulton, fixed-point iteration */
  NSED_INTEGRATOR_CVODE_BDF = 3    /* CVODE BDF, dense Newton (stiff settings) */
} nsed_integrator;

/* How ARKODE's explicit integrators choose their next step (docs/engine.md,
 * "Step-size controller"); the CVODE integrators keep their own. */
typedef enum {
  NSED_STEP_CONTROLLER_PI_GUSTAFSSON = 0, /* the smaller of ARKODE's PI estimate and the implicit
                                             Gustafsson estimate (default) */
  NSED_STEP_CONTROLLER_PI = 1             /* ARKODE's PI controller alone */
} nsed_step_controller;

/* How the contact modes are decided at events. */
typedef enum {
  NSED_RESOLVER_LCP = 0,  /* the complementarity problem (default) */
  NSED_RESOLVER_TRIAL = 1 /* the paper's trial-and-error: first consistent mode combination */
} nsed_event_resolver;

typedef struct {
  double gravity[3];          /* m/s^2, default (0, 0, -9.81) */
  double floor_normal[3];     /* unit normal of the floor plane, default (0, 0, 1) */
  double floor_point[3];      /* a point of the floor, default origin */
  double floor_velocity[3];   /* tangential velocity of the floor surface (a belt), default 0 */
  nsed_complementarity_settings friction; /* friction model, polygon sides, LCP path */
  nsed_integrator integrator;
  double t_end;               /* s, > 0 (default 1) */
  double rtol, atol;          /* integrator tolerances (default 1e-11, 1e-13) */
  double max_step;            /* s, 0 = no limit */
  double output_dt;           /* s, interval of trajectory samples (default 0.01) */
  double baumgarte_eta, baumgarte_xi, baumgarte_gamma; /* DESIGN.md §4 (default 0, 0, 0) */
  double contact_tol;         /* m: a gap below it counts as touching (default 1e-9) */
  double slip_tol;            /* m/s: slip speed below it counts as rolling/sticking (default 1e-9) */
  double slip_stop_speed;     /* m/s: a 2D slip turning as it stops is declared stopped about here (default 1e-6) */
  int zeno_events;            /* Zeno guard: this many events ... (default 50) */
  double zeno_window;         /* ... on one contact within this time (s) (default 1e-3) */
  double zeno_velocity;       /* close/stick when relative speed is below this (m/s) (default 1e-3) */
  int max_events;             /* stop with an error past this many events (default 1000000) */
  nsed_event_resolver event_resolver; /* default NSED_RESOLVER_LCP */
  nsed_contact_tracking contact_tracking; /* roller contacts that inherit (default EXPLICIT) */
  double drift_tol;           /* largest |phi| of a joint row (m or rad) or |gap| of a closed
                                 contact (m) the law monitor accepts (default 1e-6) */
  double floor_spin;          /* rad/s: the floor turns about the line through floor_point along
                                 floor_normal (a turntable); its surface moves with
                                 floor_velocity + floor_spin n x (p - floor_point) (default 0) */
  nsed_step_controller step_controller; /* ARKODE integrators (default PI_GUSTAFSSON) */
  int output_steps;           /* nsed_run_problem writes steps.csv, one row per accepted step
                                 (ARKODE integrators; default 0: docs/engine.md "The step log") */
} nsed_options;

/* Fill o with the defaults documented above. */
NSED_API void nsed_options_default(nsed_options *o);

/* ---- the model ---- */

typedef struct nsed_model nsed_model;

/* Create an empty model with default options. */
NSED_API int nsed_model_create(nsed_model **out, nsed_error *err);

/* Free a model (and set *m to NULL). Data objects must be freed first. */
NSED_API void nsed_model_free(nsed_model **m);

/* Add a body / joint / force / contact. Each returns its index (>= 0) or a
 * negative status with err naming the offending field. Names must be unique
 * within their kind; references are resolved by name at add time, so bodies
 * come first. Not allowed after nsed_model_finalize. */
NSED_API int nsed_model_add_body(nsed_model *m, const nsed_body_def *def, nsed_error *err);
NSED_API int nsed_model_add_joint(nsed_model *m, const nsed_joint_def *def, nsed_error *err);
NSED_API int nsed_model_add_force(nsed_model *m, const nsed_force_def *def, nsed_error *err);
NSED_API int nsed_model_add_contact(nsed_model *m, const nsed_contact_def *def, nsed_error *err);
/* Add a plane (before the contacts that name it). Its name must differ from
 * every body's, every other plane's and "floor". */
NSED_API int nsed_model_add_plane(nsed_model *m, const nsed_plane_def *def, nsed_error *err);

/* The model's options (defaults until set). */
NSED_API const nsed_options *nsed_model_options(const nsed_model *m);

/* Replace the options with *o (checked by nsed_model_finalize); only before
 * the model is finalized: NSED_ERR_INPUT after. */
NSED_API int nsed_model_set_options(nsed_model *m, const nsed_options *o, nsed_error *err);

/* Validate everything (options included) and freeze the model. */
NSED_API int nsed_model_finalize(nsed_model *m, nsed_error *err);

/* Sizes and names. */
NSED_API int nsed_model_nbody(const nsed_model *m);
NSED_API int nsed_model_njoint(const nsed_model *m);
NSED_API int nsed_model_ncontact(const nsed_model *m);
NSED_API int nsed_model_nforce(const nsed_model *m);
NSED_API int nsed_model_nplane(const nsed_model *m);        /* planes besides the floor */
NSED_API int nsed_model_nstate(const nsed_model *m);        /* 13 per body not attached + extra
                                                               states (contact tracking, drive
                                                               angles, rotors' turns, attached
                                                               rotors' rates), counted at finalize */
NSED_API int nsed_model_nconstraint_rows(const nsed_model *m); /* bilateral rows */
NSED_API const char *nsed_model_body_name(const nsed_model *m, int i);
NSED_API const char *nsed_model_joint_name(const nsed_model *m, int i);
NSED_API const char *nsed_model_contact_name(const nsed_model *m, int i);
/* Index of a body by name, or -1. */
NSED_API int nsed_model_find_body(const nsed_model *m, const char *name);
/* Definitions as stored (normalised), for printing the expanded model. */
NSED_API const nsed_body_def *nsed_model_body_def(const nsed_model *m, int i);
NSED_API const nsed_joint_def *nsed_model_joint_def(const nsed_model *m, int i);
NSED_API const nsed_contact_def *nsed_model_contact_def(const nsed_model *m, int i);
NSED_API const nsed_force_def *nsed_model_force_def(const nsed_model *m, int i);
NSED_API const nsed_plane_def *nsed_model_plane_def(const nsed_model *m, int i);

/* Names of enum values as used in problem files ("revolute", "face", ...). */
NSED_API const char *nsed_joint_type_name(nsed_joint_type t);
NSED_API const char *nsed_integrator_name(nsed_integrator i);
/* "pi_gustafsson" or "pi" ("unknown" otherwise). */
NSED_API const char *nsed_step_controller_name(nsed_step_controller c);
NSED_API const char *nsed_friction_model_name(nsed_friction_model f);
NSED_API const char *nsed_contact_tracking_name(nsed_contact_tracking t);
NSED_API const char *nsed_shape_type_name(nsed_shape_type t);
NSED_API const char *nsed_contact_law_name(nsed_contact_law law); /* coulomb, regularized, compliant */

/* The parameters contact i sets that its law does not use (mu0 of a
 * regularized contact, stiffness of an exact Coulomb one, ...): returns
 * their number (-1 for a bad index) and writes one sentence each,
 * separated by "; ", into text (size bytes, truncated; may be NULL). */
NSED_API int nsed_contact_ignored_parameters(const nsed_model *m, int i, char *text, size_t size);

#ifdef __cplusplus
}
#endif
#endif
