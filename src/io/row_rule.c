#include "row_rule.h"

#include <stdlib.h>
#include <string.h>

/* Numbers compared per contact: the mode, the spin mode, then the recorded
 * columns. */
#define CONTACT_KEY (2 + NSED_RECORDER_CONTACT_COLUMNS)

int nsedi_rows_init(nsedi_rows *r, const nsed_model *m, nsed_error *err) {
  memset(r, 0, sizeof *r);
  r->nbody = nsed_model_nbody(m);
  r->ncontact = nsed_model_ncontact(m);
  r->width = 1 + 13 * (size_t)(r->nbody > 0 ? r->nbody : 0);
  size_t cw = CONTACT_KEY * (size_t)(r->ncontact > 0 ? r->ncontact : 0) + 1;
  r->row = calloc(r->width + cw, sizeof *r->row);
  r->last = calloc(r->width + cw, sizeof *r->last);
  if (!r->row || !r->last) {
    nsedi_rows_free(r);
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  }
  return NSED_OK;
}

void nsedi_rows_free(nsedi_rows *r) {
  free(r->row);
  free(r->last);
  r->row = r->last = NULL;
  r->have_last = 0;
}

const double *nsedi_rows_contact(const nsedi_rows *r, int c, nsed_mode *mode, nsed_mode *spin) {
  const double *k = r->row + r->width + CONTACT_KEY * (size_t)c;
  *mode = (nsed_mode)k[0];
  *spin = (nsed_mode)k[1];
  return k + 2;
}

int nsedi_rows_take(nsedi_rows *r, const nsed_data *d) {
  double t = nsed_data_time(d);
  r->row[0] = t;
  for (int b = 0; b < r->nbody; b++) nsed_data_body_state(d, b, r->row + 1 + 13 * b);
  double *key = r->row + r->width;
  for (int c = 0; c < r->ncontact; c++) {
    nsed_contact_info ci;
    nsed_data_contact(d, c, &ci);
    double *k = key + CONTACT_KEY * c;
    k[0] = (double)ci.mode;
    k[1] = (double)ci.spin;
    k[2] = ci.gap;
    k[3] = ci.lambda[0];
    k[4] = ci.lambda[1];
    k[5] = ci.lambda[2];
    k[6] = ci.slip_speed;
    k[7] = ci.point[0];
    k[8] = ci.point[1];
    k[9] = ci.point[2];
    k[10] = ci.moment;
  }
  size_t n = r->width + CONTACT_KEY * (size_t)r->ncontact;
  /* A row that repeats the last kept one at the same instant, bodies and
   * contacts alike, says nothing new: an output instant on an event, the
   * final sample on the last output, the pre-event row of an event that
   * follows another at the same instant, the row after an event that
   * changed nothing written (a breakpoint of a continuous law). A velocity
   * jump, or a change of a contact's mode or force, at the same t is a new
   * row. The time compares as a number, the rest bit for bit. */
  if (r->have_last && t == r->last[0] && !memcmp(r->row + 1, r->last + 1, (n - 1) * sizeof *r->row))
    return 0;
  memcpy(r->last, r->row, n * sizeof *r->row);
  r->have_last = 1;
  return 1;
}
