/* The model's private layout, shared by the engine's layers (model,
 * dynamics, simulate). Definitions are stored as given (normalised), with
 * names resolved to indices and derived constants precomputed at add time. */
#ifndef NSED_MODEL_IMPL_H
#define NSED_MODEL_IMPL_H

#include "nsed/model.h"

#define NSEDI_GROUND (-1) /* body index of the fixed world / the floor */

typedef struct {
  nsed_body_def def;  /* inertia filled in from the shape when it was 0 */
  int rotor_axis;     /* a rotor (def.rotor): its symmetry axis 0, 1, 2 (body x, y, z); else -1 */
  int xspin;          /* a rotor: index in x of its turn about that axis relative to the
                         state's frame (rad); else -1 */
  int xbody;          /* index in x of its 13 states r q v w; -1 for an attached rotor */
  /* An attached rotor (def.attached_to): the body it is fixed to, else -1;
   * its absolute rate about its axis is the state xrate (rad/s). Its
   * state's frame is the parent's turned by R0 (q0), its centre at rho in
   * the parent's axes, all fixed at add time from the initial poses. */
  int parent, xrate;
  double rho[3], R0[9], q0[4];
  /* What the constrained solve sees: a parent's mass and central moments
   * with its attached rotors' (their mass, and their moments across their
   * axes about its centre); an attached rotor's own (only its axial moment
   * acts, on its rate); every other body's own. */
  double solve_mass, solve_inertia[3];
  double bound_radius; /* every point of its shape within this distance of its origin
                          (nsedi_shape_bound_radius, at finalize; INFINITY: no shape
                          bounds it) */
  int material_turn;   /* an attached rotor: the right-hand side turns kin.R from its
                          state's frame by its turn, because a force element acts on it or
                          a contact's geometry reads more of it than its axis; else kin.R
                          is the state's frame, whose axis is the same (set at finalize) */
} nsedi_body;

typedef struct {
  nsed_joint_def def; /* axes normalised */
  int a, b;           /* body indices, NSEDI_GROUND for the world */
  int row0, nrow;     /* its rows among the bilateral constraint rows */
  /* Unit vectors perpendicular to the axes, fixed in each body's frame:
   * (axis, p1, p2) is a right-handed orthonormal frame. */
  double pa1[3], pa2[3], pb1[3], pb2[3];
  int xangle;         /* index in x of the state that counts the turns of its angle (a
                         rotational drive), else -1 */
  int kink[2];        /* its drive about the axis (0) and along it (1) given by a table of the
                         coordinate or rate: that table's index among the model's nkink (its
                         knots are events), else -1 */
} nsedi_joint;

typedef struct {
  nsed_force_def def;
  int body, body_b;   /* body_b: NSEDI_GROUND for the world (SPRING) */
} nsedi_force;

/* The surface pairs a contact can be (one geometry function each, in the
 * dispatch table of dynamics/contact_pairs.c): the body's shape first, the
 * other surface second. */
typedef enum {
  NSEDI_PAIR_SPHERE_PLANE = 0,
  NSEDI_PAIR_POINT_PLANE,
  NSEDI_PAIR_DISK_PLANE,     /* the disk's rim */
  NSEDI_PAIR_ROLLER_PLANE,   /* the floor only: the tracking algorithms assume it */
  NSEDI_PAIR_BOX_PLANE,      /* one vertex of the box */
  NSEDI_PAIR_CYLINDER_PLANE, /* one rim of the cylinder */
  NSEDI_PAIR_CAPSULE_PLANE,  /* one end cap of the capsule */
  NSEDI_PAIR_ELLIPSOID_PLANE,
  NSEDI_PAIR_SPHERE_SPHERE,
  NSEDI_PAIR_SPHERE_CAPSULE, /* the capsule is the other body; its nearest point is a region */
  NSEDI_PAIR_SPHERE_BOX,     /* the box is the other body; its face, edge or vertex a region */
  NSEDI_PAIR_SPHERE_CYLINDER, /* a cylinder or a disk the other body; side, face or edge a region */
  NSEDI_PAIR_SPHERE_ELLIPSOID, /* the ellipsoid the other body */
  NSEDI_PAIR_CAPSULE_CAPSULE,  /* the segments' nearest points; an end reached is a region */
  NSEDI_PAIR_SUPERELLIPSOID_PLANE,
  NSEDI_PAIR_SPHERE_SUPERELLIPSOID, /* the superellipsoid the other body */
  NSEDI_PAIR_COUNT
} nsedi_pair;

/* A plane's geometry as the contact pairs see it: the floor (from the
 * options) or a plane of the model. */
typedef struct {
  double point[3], normal[3]; /* normal: unit */
  double velocity[3];         /* tangential surface velocity (m/s) */
  double spin;                /* rate of turning about normal through point (rad/s; floor only) */
} nsedi_plane;

typedef struct {
  nsed_contact_def def;
  int body;           /* the body whose shape touches */
  int other;          /* NSEDI_GROUND: a plane (the floor or plane); else a body (sphere-sphere) */
  int plane;          /* other == NSEDI_GROUND: -1 the floor, else an index into the model's planes */
  nsedi_pair pair;    /* which geometry function computes it */
  double feature_point[3]; /* body frame: a box's vertex; a cylinder rim's or a capsule end
                              cap's centre */
  /* Tracking (rollers, algebraic surfaces), resolved at finalize: */
  nsed_contact_tracking tracking; /* never INHERIT after finalize */
  int wheel;          /* IMPLICIT: the wheel body carrying the roller, else -1 */
  int carrier;        /* rollers: the wheel they hand contacts over on (-1: unknown/none) */
  double wheel_axis[3]; /* IMPLICIT: the wheel's axis k1, wheel body frame */
  int xtrack;         /* DIFFERENTIAL: index of its tracking states in x, else -1 */
  int ntrack;         /* DIFFERENTIAL: how many (a roller's q, phi; a surface's point), else 0 */
} nsedi_contact;

struct nsed_model {
  int finalized;
  nsed_options opt;
  int nbody, njoint, nforce, ncontact;
  int cap_body, cap_joint, cap_force, cap_contact;
  nsedi_body *body;
  nsedi_joint *joint;
  nsedi_force *force;
  nsedi_contact *contact;
  int nplane, cap_plane;
  nsed_plane_def *plane; /* the planes besides the floor, normal unit */
  int nrow;           /* bilateral rows (sum of the joints' nrow) */
  int nstate;         /* nbstate + 2 or 3 per differentially tracked contact + 1 per
                         rotational joint drive + 1 per rotor + 1 per attached rotor */
  int nrotor;         /* bodies whose state's frame does not spin with them (rotors) */
  int nkink;          /* joint drives given by a table (two root functions each) */
  int nbstate;        /* 13 per body that is not an attached rotor: the body states,
                         first in x, in body order */
  int nattached;      /* attached rotors (reduced coordinates: their turn and rate only) */
  int nv;             /* 6 * nbody generalised velocities */
  int nroot;          /* root functions: per contact and per law breakpoint */
};

/* A law's value and first and second time derivatives at t (a piecewise
 * law: its slope between breakpoints, 0 outside; second derivative 0). */
void nsedi_law_derivs(const nsed_law *law, double t, double out[3]);

/* The plane contact c touches (other == NSEDI_GROUND): the floor's from
 * the options, or one of the model's planes. */
void nsedi_contact_plane(const nsed_model *m, int c, nsedi_plane *out);

/* The radius of a sphere about a body's origin that holds its whole shape
 * (src/model/shape_bound.c); INFINITY for a shape it does not cover. */
double nsedi_shape_bound_radius(const nsed_shape *s);

/* The body whose 13 states hold state i < nbstate. */
int nsedi_state_body(const nsed_model *m, int i);

/* Attached rotors (src/model/attached_model.c): body b's parent (the body
 * its attached_to names, -1 if none does) checked and its pose in the
 * parent's frame fixed (at add time); a joint on an
 * attached body, or a contact of one with anything but the floor or a
 * plane, refused; at finalize the initial motions checked and every body's
 * solve_mass and solve_inertia set, a parent's with its rotors'. */
int nsedi_model_attach(const nsed_model *m, int parent, nsedi_body *b, nsed_error *err);
int nsedi_model_attached_joint(const nsed_model *m, int a, int b, const char *owner, nsed_error *err);
int nsedi_model_attached_contact(const nsed_model *m, int body, int other, const char *owner,
                                 nsed_error *err);
int nsedi_model_attached_finalize(nsed_model *m, nsed_error *err);

/* Sets each attached rotor's material_turn; after the contacts' tracking
 * is resolved. */
void nsedi_model_attached_frames(nsed_model *m);

/* Rows each joint type imposes. */
int nsedi_joint_nrows(nsed_joint_type type);

#endif
