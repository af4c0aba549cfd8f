/* The model's private layout, shared by the engine's layers (model,
 * dynamics, simulate). Definitions are stored as given (normalised), with
 * names resolved to indices and derived constants precomputed at add time. */
#ifndef NSED_MODEL_IMPL_H
#define NSED_MODEL_IMPL_H

#include "nsed/model.h"

#define NSEDI_GROUND (-1) /* body index of the fixed world / the floor */

typedef struct {
  nsed_body_def def;  /* inertia filled in from the shape when it was 0 */
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
} nsedi_joint;

typedef struct {
  nsed_force_def def;
  int body, body_b;   /* body_b: NSEDI_GROUND for the world (SPRING) */
} nsedi_force;

typedef struct {
  nsed_contact_def def;
  int body;           /* the body whose shape touches */
  int other;          /* NSEDI_GROUND: the floor; else a body (sphere-sphere) */
  /* Roller contacts (resolved at finalize): */
  nsed_contact_tracking tracking; /* never INHERIT after finalize */
  int wheel;          /* IMPLICIT: the wheel body carrying the roller, else -1 */
  int carrier;        /* rollers: the wheel they hand contacts over on (-1: unknown/none) */
  double wheel_axis[3]; /* IMPLICIT: the wheel's axis k1, wheel body frame */
  int xtrack;         /* DIFFERENTIAL: index of its 2 tracking states in x, else -1 */
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
  int nrow;           /* bilateral rows (sum of the joints' nrow) */
  int nstate;         /* 13 * nbody + 2 per differentially tracked contact + 1 per
                         rotational joint drive */
  int nbstate;        /* 13 * nbody: the body states, first in x */
  int nv;             /* 6 * nbody generalised velocities */
  int nroot;          /* root functions: per contact and per law breakpoint */
};

/* A law's value and first and second time derivatives at t (a piecewise
 * law: its slope between breakpoints, 0 outside; second derivative 0). */
void nsedi_law_derivs(const nsed_law *law, double t, double out[3]);

/* Rows each joint type imposes. */
int nsedi_joint_nrows(nsed_joint_type type);

#endif
