/* The observer that streams a run into trajectory.csv, contacts.csv and
 * events.csv (formats in docs/problem-format.md, "Outputs"). Doubles are
 * printed with %.17g so that equal runs give byte-identical files. */
#ifndef NSEDI_WRITER_H
#define NSEDI_WRITER_H

#include <stdio.h>

#include "nsed/simulate.h"

typedef struct {
  FILE *traj, *contacts, *events;
  int nbody, ncontact;
  double *row, *last_row; /* 13 * nbody: the current and the last written state */
  double last_t;
  int have_last;
  long rows;
  int io_errno;           /* first write error (0: none) */
  const char *io_file;    /* the file it happened in */
} nsedi_writer;

/* Create the three CSV files in dir and write their headers. */
int nsedi_writer_open(nsedi_writer *w, const char *dir, const nsed_model *m, nsed_error *err);

/* Observer callbacks (ctx is the writer). */
int nsedi_writer_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why);
int nsedi_writer_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev);

/* Flush and close everything; reports the first write error, if any. Safe
 * to call on a partially opened writer. */
int nsedi_writer_close(nsedi_writer *w, nsed_error *err);

/* Write summary.json (see nsed_run_problem for the fields). */
typedef struct {
  const char *problem_path;
  const char *sha256;           /* hex, or NULL */
  const char *const *overrides;
  int noverrides;
  int status;                   /* the simulation's status */
  const char *message;          /* its error message ("" on success) */
  double t_reached;
  double energy_initial, energy_final;
  const nsed_stats *stats;      /* may be NULL (no data object) */
} nsedi_summary;

int nsedi_summary_write(const char *dir, const nsed_model *m, const nsedi_summary *s,
                        nsed_error *err);

#endif
