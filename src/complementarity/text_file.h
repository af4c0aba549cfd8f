/* Whitespace-separated text files of numbers, read whole with line numbers
 * for the messages (LCP files, contact-problem files), and written
 * atomically (a temporary sibling renamed into place). */
#ifndef NSED_CP_TEXT_FILE_H
#define NSED_CP_TEXT_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "nsed/status.h"

typedef struct {
  const char *path;
  char *buf;         /* the whole file, NUL-terminated */
  size_t pos, len;
  int line;          /* the line at pos (1-based) */
  int hash_comments; /* 1: '#' starts a comment to the end of its line */
} nsedi_text;

/* Read path whole into t (t->buf malloc'd; nsedi_text_free). NSED_OK,
 * NSED_ERR_IO (unreadable) or NSED_ERR_NOMEM, err naming the file. */
int nsedi_text_load(const char *path, int hash_comments, nsedi_text *t, nsed_error *err);
void nsedi_text_free(nsedi_text *t);

/* The next token into tok (cap bytes, truncated) and its line: 1, or 0 at
 * the end of the file. */
int nsedi_text_next(nsedi_text *t, char *tok, size_t cap, int *line);

/* 1 if tok is a whole number (decimal or C99 hex; finite or not) into *v. */
int nsedi_text_number(const char *tok, double *v);

/* The next token as an integer: NSED_OK, or NSED_ERR_INPUT naming file,
 * line and what was expected. */
int nsedi_text_int(nsedi_text *t, const char *what, long *out, nsed_error *err);

/* Open a temporary sibling of path for writing into *f (*tmp malloc'd, its
 * name): NSED_OK, or NSED_ERR_IO naming path. */
int nsedi_text_create(const char *path, FILE **f, char **tmp, nsed_error *err);

/* Close f and rename tmp to path if nothing failed (bad: a write failed);
 * else remove tmp. Frees tmp. NSED_OK or NSED_ERR_IO naming path. */
int nsedi_text_commit(FILE *f, char *tmp, const char *path, int bad, nsed_error *err);

#endif
