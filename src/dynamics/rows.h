/* Constraint rows: the one representation shared by joints and contacts.
 *
 * A row is a scalar relative velocity  vel = J u  (plus known terms) between
 * at most two bodies, with  d(vel)/dt = J du + bias.  Joints are built from
 * three holonomic primitives (point along a world direction, perpendicular
 * body axes, point on a body-fixed plane) and the servo angle row; contacts
 * give three rows (normal, t1, t2). Derivations: docs/engine.md. */
#ifndef NSED_DYNAMICS_ROWS_H
#define NSED_DYNAMICS_ROWS_H

#include "kinematics.h"

typedef struct {
  int a, b;            /* bodies, NSEDI_GROUND for none */
  double ja[6], jb[6]; /* d vel / d u_a and d u_b, u = (v world, w body) */
  double vel;          /* row velocity */
  double bias;         /* d vel/dt = J du + bias */
  double pos;          /* position error phi (holonomic rows; 0 for velocity rows) */
  int own_feedback;    /* 1: bias carries the row's own feedback on pos and vel (an
                          acceleration-level servo): no Baumgarte terms, no velocity
                          projection, no drift check */
} nsedi_row;

/* Geometry and rows of one contact at the current state. */
typedef struct {
  double gap;     /* signed distance (m) */
  double p[3];    /* contact point on the body (world) */
  double n[3], t1[3], t2[3]; /* frame: n points from the other surface into the body */
  double surface_v[3]; /* velocity of the floor's material point under p (belt, turntable) */
  nsedi_row row[3]; /* (n, t1, t2): relative velocity of the body's material point
                       with respect to the other surface */
  nsedi_row spin;   /* relative angular velocity about n (the body's less the other
                       surface's: a turning floor's spin, the other sphere's) */
  double region;  /* > 0 while the contact point stays on the same smooth piece of
                     the surface (a roller's body vs its tips); its zero is an event */
  double region_rate; /* d region / dt (1/s): a roller's; 0 for the other pairs */
  double track_rate[3]; /* rates of the contact's DIFFERENTIAL tracking states (ntrack) */
  double track_point[3]; /* an algebraic surface's contact point in its body's axes (the
                            ellipsoid's, the superellipsoid's): its DIFFERENTIAL states */
  int leaving;    /* a roller's tip turning away from the floor (see nsedi_roller_point) */
  int at_tip;     /* a roller's point is its tip (see nsedi_roller_point): its DIFFERENTIAL
                     states are not live */
  int side;       /* input of nsedi_contact_eval (its side argument): a roller's side */
  int past_event; /* the geometry failed where a closed contact cannot go (a sphere's
                     centre inside the body it touches, coincident sphere centres):
                     only a trial step reaching past an event gets there */
  int gap_bound;  /* gap is only a lower bound, every other field unset: an open contact
                     far above its plane at a step's end (simulate/eval.c,
                     nsedi_eval_complete); never from nsedi_contact_eval */
} nsedi_contact_geom;

/* Rows of joint j (m->joint[j].nrow of them) at time t. */
int nsedi_joint_rows(const nsed_model *m, int j, const nsedi_kin *kin, double t, nsedi_row *rows);

/* Geometry and rows of contact c (xtrack: its live DIFFERENTIAL tracking
 * states, or NULL; side: a roller's side, see nsedi_roller_point_eval, 0
 * for every other pair); returns NSED_OK or NSED_ERR_EVENT when the
 * geometry is degenerate (a disk lying flat, coincident sphere centres). */
int nsedi_contact_eval(const nsed_model *m, int c, const nsedi_kin *kin, const double *xtrack, int side,
                       nsedi_contact_geom *g);

/* The row of roller contact c's region indicator r = cos(psi) sin(pi/n) -
 * |n.i| (i the roller's axis, n the floor's normal): vel = dr/dt, bias,
 * pos = r. Held at zero it keeps the wheel on the edge between this
 * roller's sector and its neighbour's (docs/rollers.md, "The sector edge's
 * sliding mode"). */
void nsedi_roller_region_row(const nsed_model *m, int c, const nsedi_kin *kin, nsedi_row *r);

/* For a superellipsoid (p > 2) against a plane: the smallest component of
 * the plane's normal in the body's axes that is changing, how close the
 * contact point is to crossing a flat direction, where its rate is
 * unbounded (see superellipsoid.h); INFINITY for every other pair. */
double nsedi_contact_flatness(const nsed_model *m, int c, const nsedi_kin *kin);

#endif
