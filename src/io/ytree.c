#include "ytree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Deeper nesting than this is no scene: refusing it bounds the recursion of
 * nsedi_yfree and the validators. */
#define YTREE_MAX_DEPTH 64

nsedi_ynode *nsedi_ynew(nsedi_ykind kind, const char *src, int line, int col) {
  nsedi_ynode *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  n->kind = kind;
  n->src = src;
  n->line = line;
  n->col = col;
  return n;
}

nsedi_ynode *nsedi_yscalar(const char *text, int plain, const char *src, int line, int col) {
  nsedi_ynode *n = nsedi_ynew(NSEDI_Y_SCALAR, src, line, col);
  if (!n) return NULL;
  n->text = strdup(text);
  if (!n->text) {
    free(n);
    return NULL;
  }
  n->plain = plain;
  return n;
}

void nsedi_yfree(nsedi_ynode *node) {
  if (!node) return;
  for (int i = 0; i < node->n; i++) {
    nsedi_yfree(node->items[i]);
    if (node->keys) nsedi_yfree(node->keys[i]);
  }
  free(node->items);
  free(node->keys);
  free(node->text);
  free(node);
}

static int ygrow(nsedi_ynode *node) {
  if (node->n < node->cap) return 0;
  int cap = node->cap ? 2 * node->cap : 4;
  nsedi_ynode **items = realloc(node->items, (size_t)cap * sizeof *items);
  if (!items) return -1;
  node->items = items;
  if (node->kind == NSEDI_Y_MAP) {
    nsedi_ynode **keys = realloc(node->keys, (size_t)cap * sizeof *keys);
    if (!keys) return -1;
    node->keys = keys;
  }
  node->cap = cap;
  return 0;
}

int nsedi_ymap_append(nsedi_ynode *map, nsedi_ynode *key, nsedi_ynode *value) {
  if (ygrow(map)) return -1;
  map->keys[map->n] = key;
  map->items[map->n++] = value;
  return 0;
}

static int yseq_append(nsedi_ynode *seq, nsedi_ynode *item) {
  if (ygrow(seq)) return -1;
  seq->items[seq->n++] = item;
  return 0;
}

nsedi_ynode *nsedi_ymap_get(const nsedi_ynode *map, const char *key) {
  if (!map || map->kind != NSEDI_Y_MAP) return NULL;
  for (int i = 0; i < map->n; i++)
    if (!strcmp(map->keys[i]->text, key)) return map->items[i];
  return NULL;
}

int nsedi_yis_null(const nsedi_ynode *node) {
  if (!node || node->kind != NSEDI_Y_SCALAR || !node->plain) return 0;
  const char *t = node->text;
  return !*t || !strcmp(t, "~") || !strcmp(t, "null") || !strcmp(t, "Null") || !strcmp(t, "NULL");
}

void nsedi_ydescribe(const nsedi_ynode *node, char *buf, size_t size) {
  if (!node) {
    snprintf(buf, size, "nothing");
  } else if (node->kind == NSEDI_Y_SEQ) {
    snprintf(buf, size, "a list of %d item%s", node->n, node->n == 1 ? "" : "s");
  } else if (node->kind == NSEDI_Y_MAP) {
    snprintf(buf, size, "a mapping");
  } else if (nsedi_yis_null(node)) {
    snprintf(buf, size, "an empty value");
  } else {
    size_t len = strlen(node->text);
    int cut = len > 40;
    snprintf(buf, size, "%s%.40s%s%s", node->plain ? "" : "the string \"", node->text,
             cut ? "..." : "", node->plain ? "" : "\"");
  }
}

/* ---- the parser: libyaml events onto a stack of open collections ---- */

typedef struct {
  nsedi_ynode *stack[YTREE_MAX_DEPTH + 1];
  nsedi_ynode *pending_key[YTREE_MAX_DEPTH + 1]; /* MAP: key waiting for its value */
  int depth;
  nsedi_ynode *root;
  int ndocs;
} ybuild;

/* Attach a finished node to the open collection (or make it the root).
 * Returns 0, -1 on a structural problem (reported), -2 on no memory. */
static int yattach(ybuild *b, nsedi_ynode *node, nsedi_diag *d) {
  if (b->depth == 0) {
    b->root = node;
    return 0;
  }
  nsedi_ynode *top = b->stack[b->depth - 1];
  if (top->kind == NSEDI_Y_SEQ) {
    if (!yseq_append(top, node)) return 0;
    nsedi_yfree(node);
    return -2;
  }
  nsedi_ynode *key = b->pending_key[b->depth - 1];
  if (!key) {
    if (node->kind != NSEDI_Y_SCALAR) {
      nsedi_diag_add(d, node, NULL, "mapping keys must be plain words, not %s",
                     node->kind == NSEDI_Y_SEQ ? "lists" : "mappings");
      nsedi_yfree(node);
      return -1;
    }
    if (nsedi_ymap_get(top, node->text)) {
      const nsedi_ynode *first = NULL;
      for (int i = 0; i < top->n; i++)
        if (!strcmp(top->keys[i]->text, node->text)) first = top->keys[i];
      nsedi_diag_add(d, node, NULL, "duplicate key '%s' (first given at line %d)", node->text,
                     first ? first->line : 0);
      nsedi_yfree(node);
      return -1;
    }
    b->pending_key[b->depth - 1] = node;
    return 0;
  }
  b->pending_key[b->depth - 1] = NULL;
  if (nsedi_ymap_append(top, key, node)) {
    nsedi_yfree(key);
    nsedi_yfree(node);
    return -2;
  }
  return 0;
}

static void ybuild_free(ybuild *b) {
  /* Open collections are attached to their parents only when they end, so
   * each stack level owns its node and pending key. */
  for (int i = 0; i < b->depth; i++) {
    nsedi_yfree(b->stack[i]);
    nsedi_yfree(b->pending_key[i]);
  }
  nsedi_yfree(b->root);
}

int nsedi_yparse(const char *text, size_t len, const char *src, int positions, nsedi_ynode **root,
                 nsedi_diag *d) {
  *root = NULL;
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) return -2;
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  ybuild b;
  memset(&b, 0, sizeof b);
  int rc = 0, done = 0;
  while (!done && rc == 0) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) {
      if (parser.error == YAML_MEMORY_ERROR) {
        rc = -2;
        break;
      }
      const char *problem = parser.problem ? parser.problem : "malformed YAML";
      const char *hint = strstr(problem, "UTF-8") || strstr(problem, "control characters")
                             ? " (a problem file is UTF-8 text; this looks like binary data)"
                             : "";
      yaml_mark_t mark = parser.problem_mark;
      int pl = positions ? (int)mark.line + 1 : 0, pc = positions ? (int)mark.column + 1 : 0;
      if (parser.context)
        nsedi_diag_add_at(d, src, pl, pc, NULL,
                          "YAML syntax error: %s %s%s", problem, parser.context, hint);
      else
        nsedi_diag_add_at(d, src, pl, pc, NULL,
                          "YAML syntax error: %s%s", problem, hint);
      rc = -1;
      break;
    }
    int line = positions ? (int)ev.start_mark.line + 1 : 0;
    int col = positions ? (int)ev.start_mark.column + 1 : 0;
    nsedi_ynode *node = NULL;
    switch (ev.type) {
      case YAML_STREAM_END_EVENT:
        done = 1;
        break;
      case YAML_DOCUMENT_START_EVENT:
        if (++b.ndocs > 1) {
          nsedi_diag_add_at(d, src, line, col, NULL,
                            "a problem file holds one YAML document; found a second one ('---')");
          rc = -1;
        }
        break;
      case YAML_ALIAS_EVENT:
        nsedi_diag_add_at(d, src, line, col, NULL,
                          "YAML aliases (*%s) are not supported: write the values out",
                          (const char *)ev.data.alias.anchor);
        rc = -1;
        break;
      case YAML_SCALAR_EVENT: {
        int plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        /* A NUL inside a scalar would silently cut it: refuse it. */
        if (memchr(ev.data.scalar.value, '\0', ev.data.scalar.length)) {
          nsedi_diag_add_at(d, src, line, col, NULL, "a value contains a NUL character");
          rc = -1;
          break;
        }
        node = nsedi_yscalar((const char *)ev.data.scalar.value, plain, src, line, col);
        if (!node) rc = -2;
        else rc = yattach(&b, node, d);
        break;
      }
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT:
        if (b.depth >= YTREE_MAX_DEPTH) {
          nsedi_diag_add_at(d, src, line, col, NULL, "nesting deeper than %d levels",
                            YTREE_MAX_DEPTH);
          rc = -1;
          break;
        }
        node = nsedi_ynew(ev.type == YAML_SEQUENCE_START_EVENT ? NSEDI_Y_SEQ : NSEDI_Y_MAP, src,
                          line, col);
        if (!node) {
          rc = -2;
          break;
        }
        b.pending_key[b.depth] = NULL;
        b.stack[b.depth++] = node;
        break;
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        node = b.stack[--b.depth];
        /* libyaml guarantees a value for every key (null if absent). */
        rc = yattach(&b, node, d);
        break;
      default:
        break;
    }
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&parser);
  if (rc != 0) {
    ybuild_free(&b);
    if (rc == -2) nsedi_diag_add_at(d, src, 0, 0, NULL, "out of memory while reading");
    return rc;
  }
  *root = b.root;
  return 0;
}
