/* steps.csv: one row per step the integrator accepted (output.steps;
 * docs/problem-format.md, "Outputs"; docs/engine.md, "The step log"),
 * written beside either result format. */
#ifndef NSEDI_STEP_LOG_H
#define NSEDI_STEP_LOG_H

#include <stdio.h>

#include "nsed/simulate.h"

typedef struct {
  FILE *f;
  char **names;  /* the state vector's names, looked up once */
  int nnames;
  int io_errno;  /* first write error (0: none) */
} nsedi_step_log;

/* Create dir/steps.csv and write its header. */
int nsedi_step_log_open(nsedi_step_log *l, const char *dir, const nsed_model *m, nsed_error *err);

/* The observer's step callback (ctx is the log); non-zero after a write error. */
int nsedi_step_log_write(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_step_info *s);

/* Close and free; reports the first write error. Safe on a log never opened
 * (all zero). */
int nsedi_step_log_close(nsedi_step_log *l, nsed_error *err);

#endif
