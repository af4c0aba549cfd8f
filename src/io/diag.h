/* Diagnostics collected while reading a problem: every problem found is kept
 * (up to a limit), each as "SRC:LINE:COL: PATH: message", so one run of
 * `nsed validate` lists all the fixes a file needs, not just the first. */
#ifndef NSEDI_DIAG_H
#define NSEDI_DIAG_H

#include <stddef.h>

#include "nsed/status.h"

struct nsedi_ynode;

typedef struct {
  char text[1024 - 64]; /* newline-separated messages (fits in nsed_error with a trailer) */
  size_t used;
  int count;   /* problems reported */
  int dropped; /* problems that did not fit in text */
} nsedi_diag;

void nsedi_diag_init(nsedi_diag *d);

/* Report a problem at node (may be NULL: no position), under key path (may be
 * NULL or ""). Always returns -1 so that `return nsedi_diag_add(...)` reads as
 * a failure. */
int nsedi_diag_add(nsedi_diag *d, const struct nsedi_ynode *at, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* As nsedi_diag_add with an explicit position (line 0: none). */
int nsedi_diag_add_at(nsedi_diag *d, const char *src, int line, int col, const char *path,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Move the collected problems into err with the given status (returns it). */
int nsedi_diag_to_error(const nsedi_diag *d, int status, nsed_error *err);

/* Levenshtein distance between two strings (short ones: keys and names). */
int nsedi_edit_distance(const char *a, const char *b);

/* The candidate closest to word if it is close enough to be a likely typo
 * (distance <= max(1, len/3)), else NULL. candidates ends with NULL. */
const char *nsedi_suggest(const char *word, const char *const *candidates);

#endif
