/* Which samples of a run become trajectory rows. The CSV writer, the HDF5
 * writer and the in-memory recorder all ask nsedi_rows_take, so that the
 * three keep the same rows, bit for bit. */
#ifndef NSEDI_ROW_RULE_H
#define NSEDI_ROW_RULE_H

#include <stddef.h>

#include "nsed/io.h"
#include "nsed/simulate.h"

typedef struct {
  int nbody, ncontact;
  size_t width;  /* 1 + 13 * nbody: t, then each body's nsed_data_body_state */
  double *row;   /* the sample just taken: width doubles, then per contact its
                    mode and its NSED_RECORDER_CONTACT_COLUMNS numbers */
  double *last;  /* the last kept row, likewise */
  int have_last;
} nsedi_rows;

/* Allocate the row buffers for the bodies of m (NSED_ERR_NOMEM). */
int nsedi_rows_init(nsedi_rows *r, const nsed_model *m, nsed_error *err);

/* Contact c of the sample just taken: its NSED_RECORDER_CONTACT_COLUMNS
 * numbers (gap, lambda, slip speed, point, moment), its mode into *mode and
 * its spin mode into *spin. */
const double *nsedi_rows_contact(const nsedi_rows *r, int c, nsed_mode *mode, nsed_mode *spin);

/* Release the buffers; safe on a zeroed or partly initialised r. */
void nsedi_rows_free(nsedi_rows *r);

/* Read d's time and body states into r->row (and the contacts' modes and
 * columns after them). Returns 1 if it is a new row, which then becomes the
 * last kept one; 0 if it repeats the last kept row at the same instant,
 * bodies and contacts alike (drop it): the row just before an event and
 * the row after it share t and, but for an impact, the body states; their
 * contacts differ. */
int nsedi_rows_take(nsedi_rows *r, const nsed_data *d);

#endif
