#ifndef NSEDI_FORMAT_G17_H
#define NSEDI_FORMAT_G17_H

#include <stdio.h>

/* Room for any "%.17g" text and its terminator. */
#define NSEDI_G17_MAX 32

/* Writes v into out exactly as printf's "%.17g" does (the text round-trips
 * to v); returns its length. Most values take a fast path in extended
 * precision whose rounding is proved by an error bound; the rest, and
 * every value the bound cannot decide, go to snprintf. */
int nsedi_format_g17(double v, char out[NSEDI_G17_MAX]);

/* The fast path alone: the same text and its length, or 0 where it cannot
 * decide the rounding (non-finite values, magnitudes beyond 10^+-38, and
 * values within the error bound of a rounding boundary). */
int nsedi_format_g17_fast(double v, char out[NSEDI_G17_MAX]);

/* fputs of nsedi_format_g17's text; returns fputs' result. */
int nsedi_put_g17(FILE *f, double v);

#endif
