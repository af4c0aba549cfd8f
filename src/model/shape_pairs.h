/* Which shapes can touch what: the one table that the model (resolving a
 * contact's geometry function) and the problem reader (naming the key in
 * its error) share. */
#ifndef NSED_MODEL_SHAPE_PAIRS_H
#define NSED_MODEL_SHAPE_PAIRS_H

#include "nsed/model.h"

/* The pair (an nsedi_pair) a body of shape a makes with a plane, or -1. */
int nsedi_plane_pair(nsed_shape_type a);

/* The pair a body of shape a (the contact's body) makes with a body of
 * shape b, or -1. */
int nsedi_body_pair(nsed_shape_type a, nsed_shape_type b);

/* The features a contact on a body of shape a touches with (a box's
 * vertices, a cylinder's rims, a capsule's end caps; 0: the shape as a
 * whole): against a plane, nsed_shape_features(a); against a body, 0 (a
 * capsule's nearest point runs over its whole surface). */
int nsedi_contact_features(nsed_shape_type a, int with_body);

/* 1 if the pair's contact point may be tracked differentially as a point
 * of an algebraic surface (an ellipsoid's or a superellipsoid's, against
 * a plane or a sphere). */
int nsedi_pair_tracked_surface(int pair);

/* Why a contact of the pair has no geometry (its function failed), in
 * words for the error message. */
const char *nsedi_pair_degenerate(int pair);

/* Every supported pair, in words, for error messages; the body-body ones
 * alone. */
extern const char nsedi_supported_pairs[];
extern const char nsedi_body_pairs[];

#endif
