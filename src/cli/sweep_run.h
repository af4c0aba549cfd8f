/* The state of a running sweep shared by cmd_sweep.c (threads, ranks) and
 * sweep_table.c (points' results, sweep.csv). */
#ifndef NSED_CLI_SWEEP_RUN_H
#define NSED_CLI_SWEEP_RUN_H

#include <pthread.h>
#include <signal.h>

#include "sweep.h"

/* Where a point stands, as shown in sweep.csv's status column until its
 * summary.json gives the final word (ok, failed). */
typedef enum {
  NSEDI_PT_PENDING = 0,
  NSEDI_PT_RUNNING = 1,
  NSEDI_PT_DONE = 2,        /* summary.json read: row[] holds status and metrics */
  NSEDI_PT_INTERRUPTED = 3, /* summary.json says interrupted: to be redone */
  NSEDI_PT_ERROR = 4        /* no result could be written (I/O) */
} nsedi_point_state;

typedef struct {
  nsed_sweep_spec spec;
  const char *outdir;
  char *problem_text; /* the problem file's bytes, loaded once */
  size_t problem_len;
  char sha256[65];
  int rank, size;     /* this process takes points i with i % size == rank */
  int write_table;    /* this process writes sweep.csv */
  int quiet;
  int *mine;          /* indices of the points this process still has to run */
  int nmine, next;
  int ran, failed;    /* points run here, of which failed */
  nsedi_point_state *state;
  char **row;         /* DONE: "status,metric,..." CSV text */
  double last_table;  /* monotonic time of the last table update */
  volatile sig_atomic_t *interrupt;
  pthread_mutex_t lock; /* guards next, ran, failed, state, row, last_table, stdout */
} nsedi_sweep_run;

/* DIR/points/<i> (malloc'd). */
char *nsed_sweep_point_dir(const nsedi_sweep_run *r, int i);

/* Look at point i's summary.json and update state[i] and row[i]. Returns
 * NSED_OK, or NSED_ERR_INPUT if the result there was made from different
 * overrides or another problem file (err says which). */
int nsedi_sweep_refresh(nsedi_sweep_run *r, int i, nsed_error *err);

/* Write DIR/sweep.csv atomically from what is known (refreshing points not
 * yet done first when rescan is set). */
int nsedi_sweep_table(nsedi_sweep_run *r, int rescan, nsed_error *err);

/* Monotonic seconds. */
double nsedi_sweep_now(void);

#endif
