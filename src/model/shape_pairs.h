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

/* Every supported pair, in words, for error messages; the body-body ones
 * alone. */
extern const char nsedi_supported_pairs[];
extern const char nsedi_body_pairs[];

#endif
