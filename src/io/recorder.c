/* nsed_recorder: a run's trajectory rows, contact rows and events in
 * memory, as the result writers would write them (row_rule.h decides which
 * samples are rows). The buffers are contiguous so that a binding copies
 * each table in one go; they grow by doubling in the sample and event
 * callbacks, never inside the simulation's right-hand side. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/io.h"
#include "row_rule.h"

/* The first buffers hold about one run's output instants, within bounds:
 * doubling takes over for longer runs, and a huge t_end / output_dt must
 * not reserve gigabytes up front. */
#define FIRST_ROWS_MIN 64L
#define FIRST_ROWS_MAX 65536L
#define FIRST_EVENTS 64L

struct nsed_recorder {
  int ncontact;
  long first_rows;    /* capacity of the first allocation */
  nsedi_rows kept;
  double *traj;       /* cap rows of kept.width */
  double *contact;    /* cap rows of ncontact * NSED_RECORDER_CONTACT_COLUMNS */
  int *mode;          /* cap rows of ncontact */
  int *spin;          /* cap rows of ncontact: the spin modes */
  long nrow, cap;
  nsed_event *events;
  long nevent, event_cap;
  nsed_progress_fn progress;
  void *progress_ctx;
  nsed_observer obs;
  int failed;         /* a buffer could not grow: the run was stopped */
  double failed_t;    /* at this time */
};

/* realloc to n elements of size bytes, refusing sizes that overflow. */
static void *grow(void *p, long n, size_t size) {
  if (n <= 0 || (size_t)n > SIZE_MAX / size) return NULL;
  return realloc(p, (size_t)n * size);
}

static int fail(nsed_recorder *r, const nsed_data *d) {
  if (!r->failed) {
    r->failed = 1;
    r->failed_t = nsed_data_time(d);
  }
  return NSED_ERR_NOMEM;
}

/* Room for one more trajectory row and its contact rows. A failed step
 * leaves every buffer at least cap rows long, so nothing recorded is lost. */
static int reserve_row(nsed_recorder *r) {
  if (r->nrow < r->cap) return 0;
  if (r->cap > LONG_MAX / 2) return -1;
  long cap = r->cap ? 2 * r->cap : r->first_rows;
  double *traj = grow(r->traj, cap, r->kept.width * sizeof *r->traj);
  if (!traj) return -1;
  r->traj = traj;
  if (r->ncontact > 0) {
    if (cap > LONG_MAX / ((long)r->ncontact * NSED_RECORDER_CONTACT_COLUMNS)) return -1;
    double *contact = grow(r->contact, cap * r->ncontact * NSED_RECORDER_CONTACT_COLUMNS,
                           sizeof *r->contact);
    if (!contact) return -1;
    r->contact = contact;
    int *mode = grow(r->mode, cap * r->ncontact, sizeof *r->mode);
    if (!mode) return -1;
    r->mode = mode;
    int *spin = grow(r->spin, cap * r->ncontact, sizeof *r->spin);
    if (!spin) return -1;
    r->spin = spin;
  }
  r->cap = cap;
  return 0;
}

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  nsed_recorder *r = ctx;
  (void)why;
  (void)m;
  if (!nsedi_rows_take(&r->kept, d)) return 0;
  if (reserve_row(r)) return fail(r, d);
  memcpy(r->traj + (size_t)r->nrow * r->kept.width, r->kept.row,
         r->kept.width * sizeof *r->traj);
  size_t base = (size_t)r->nrow * (size_t)r->ncontact;
  for (int c = 0; c < r->ncontact; c++) {
    nsed_mode mode, spin;
    const double *k = nsedi_rows_contact(&r->kept, c, &mode, &spin);
    memcpy(r->contact + (base + (size_t)c) * NSED_RECORDER_CONTACT_COLUMNS, k,
           NSED_RECORDER_CONTACT_COLUMNS * sizeof *k);
    r->mode[base + (size_t)c] = (int)mode;
    r->spin[base + (size_t)c] = (int)spin;
  }
  r->nrow++;
  return 0;
}

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  nsed_recorder *r = ctx;
  (void)m;
  if (r->nevent == r->event_cap) {
    if (r->event_cap > LONG_MAX / 2) return fail(r, d);
    long cap = r->event_cap ? 2 * r->event_cap : FIRST_EVENTS;
    nsed_event *events = grow(r->events, cap, sizeof *r->events);
    if (!events) return fail(r, d);
    r->events = events;
    r->event_cap = cap;
  }
  r->events[r->nevent++] = *ev;
  return 0;
}

static void on_progress(void *ctx, double t, double t_end, long events, double wall) {
  const nsed_recorder *r = ctx;
  if (r->progress) r->progress(r->progress_ctx, t, t_end, events, wall);
}

int nsed_recorder_create(const nsed_model *m, nsed_recorder **out, nsed_error *err) {
  if (!m || !out) return nsed_error_set(err, NSED_ERR_INPUT, "nsed_recorder_create: no model");
  nsed_recorder *r = calloc(1, sizeof *r);
  if (!r) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  int rc = nsedi_rows_init(&r->kept, m, err);
  if (rc != NSED_OK) {
    free(r);
    return rc;
  }
  r->ncontact = nsed_model_ncontact(m);
  const nsed_options *o = nsed_model_options(m);
  double instants = o->output_dt > 0 ? o->t_end / o->output_dt : 0.0;
  r->first_rows = FIRST_ROWS_MAX;
  if (isfinite(instants) && instants < (double)(FIRST_ROWS_MAX - FIRST_ROWS_MIN))
    r->first_rows = (long)instants + FIRST_ROWS_MIN;
  r->obs.ctx = r;
  r->obs.sample = on_sample;
  r->obs.event = on_event;
  *out = r;
  return NSED_OK;
}

void nsed_recorder_free(nsed_recorder **r) {
  if (!r || !*r) return;
  nsedi_rows_free(&(*r)->kept);
  free((*r)->traj);
  free((*r)->contact);
  free((*r)->mode);
  free((*r)->spin);
  free((*r)->events);
  free(*r);
  *r = NULL;
}

void nsed_recorder_chain(nsed_recorder *r, nsed_progress_fn progress, void *ctx,
                         volatile sig_atomic_t *interrupt) {
  r->progress = progress;
  r->progress_ctx = ctx;
  /* Without a callback to pass reports on to, the loop need not time them. */
  r->obs.progress = progress ? on_progress : NULL;
  r->obs.interrupt = interrupt;
}

const nsed_observer *nsed_recorder_observer(const nsed_recorder *r) { return &r->obs; }

int nsed_recorder_status(const nsed_recorder *r, nsed_error *err) {
  if (r->failed)
    return nsed_error_set(err, NSED_ERR_NOMEM,
                          "out of memory recording the run at t = %.17g (%ld rows, %ld events)",
                          r->failed_t, r->nrow, r->nevent);
  nsed_error_clear(err);
  return NSED_OK;
}

long nsed_recorder_rows(const nsed_recorder *r) { return r->nrow; }

const double *nsed_recorder_trajectory(const nsed_recorder *r) { return r->nrow ? r->traj : NULL; }

const double *nsed_recorder_contacts(const nsed_recorder *r) {
  return r->nrow && r->ncontact ? r->contact : NULL;
}

const int *nsed_recorder_contact_modes(const nsed_recorder *r) {
  return r->nrow && r->ncontact ? r->mode : NULL;
}

const int *nsed_recorder_contact_spins(const nsed_recorder *r) {
  return r->nrow && r->ncontact ? r->spin : NULL;
}

long nsed_recorder_nevent(const nsed_recorder *r) { return r->nevent; }

const nsed_event *nsed_recorder_events(const nsed_recorder *r) {
  return r->nevent ? r->events : NULL;
}
