#include "row_rule.h"

#include <stdlib.h>
#include <string.h>

int nsedi_rows_init(nsedi_rows *r, const nsed_model *m, nsed_error *err) {
  memset(r, 0, sizeof *r);
  r->nbody = nsed_model_nbody(m);
  r->width = 1 + 13 * (size_t)(r->nbody > 0 ? r->nbody : 0);
  r->row = calloc(r->width, sizeof *r->row);
  r->last = calloc(r->width, sizeof *r->last);
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

int nsedi_rows_take(nsedi_rows *r, const nsed_data *d) {
  double t = nsed_data_time(d);
  r->row[0] = t;
  for (int b = 0; b < r->nbody; b++) nsed_data_body_state(d, b, r->row + 1 + 13 * b);
  /* An output instant that coincides with an event (or the final sample
   * with the last output) would repeat the same row: keep one. A velocity
   * jump at the same t is a different row and is kept. The time compares
   * as a number, the states bit for bit. */
  if (r->have_last && t == r->last[0] &&
      !memcmp(r->row + 1, r->last + 1, (r->width - 1) * sizeof *r->row))
    return 0;
  memcpy(r->last, r->row, r->width * sizeof *r->row);
  r->have_last = 1;
  return 1;
}
