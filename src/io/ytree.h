/* A YAML node tree that remembers where every node came from (source name,
 * line, column), so that validation can point at the offending text. Built
 * from libyaml's event stream; anchors/aliases and multiple documents are
 * refused because a scene file has no use for them and they would make
 * locations ambiguous. */
#ifndef NSEDI_YTREE_H
#define NSEDI_YTREE_H

#include <stddef.h>

#include "diag.h"

typedef enum { NSEDI_Y_SCALAR = 0, NSEDI_Y_SEQ = 1, NSEDI_Y_MAP = 2 } nsedi_ykind;

typedef struct nsedi_ynode {
  nsedi_ykind kind;
  const char *src; /* source name, owned by whoever made the tree (outlives it) */
  int line, col;   /* 1-based; line 0: a command-line override (no position) */
  char *text;      /* SCALAR: the value, NUL-terminated */
  int plain;       /* SCALAR: unquoted (so it may be a number or null) */
  int n, cap;
  struct nsedi_ynode **items; /* SEQ: the items; MAP: the values */
  struct nsedi_ynode **keys;  /* MAP: the keys (scalars), parallel to items */
} nsedi_ynode;

/* Parse len bytes of YAML text (one document). On success *root is the
 * document's root node (NULL for an empty document) and 0 is returned; on a
 * syntax error the diagnostic is added and -1 returned (no memory: -2).
 * src must outlive the tree. positions = 0 gives every node and message line
 * 0 (text from the command line, where a line number means nothing). */
int nsedi_yparse(const char *text, size_t len, const char *src, int positions, nsedi_ynode **root,
                 nsedi_diag *d);

/* Free a tree (NULL is fine). */
void nsedi_yfree(nsedi_ynode *node);

/* The value of key in a mapping, or NULL. */
nsedi_ynode *nsedi_ymap_get(const nsedi_ynode *map, const char *key);

/* Append key: value to a mapping (taking ownership of both); 0 or -1 on no memory. */
int nsedi_ymap_append(nsedi_ynode *map, nsedi_ynode *key, nsedi_ynode *value);

/* A new empty node of a kind at a position; NULL when out of memory. */
nsedi_ynode *nsedi_ynew(nsedi_ykind kind, const char *src, int line, int col);

/* A new scalar node holding a copy of text. */
nsedi_ynode *nsedi_yscalar(const char *text, int plain, const char *src, int line, int col);

/* Short description of a node for messages: the scalar's text (quoted if it
 * was quoted, cut at 40 characters), "a list" or "a mapping". */
void nsedi_ydescribe(const nsedi_ynode *node, char *buf, size_t size);

/* Is the scalar a YAML null (plain ~, null, Null, NULL or empty)? */
int nsedi_yis_null(const nsedi_ynode *node);

#endif
