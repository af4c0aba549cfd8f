#include "text_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"

int nsedi_text_load(const char *path, int hash_comments, nsedi_text *t, nsed_error *err) {
  memset(t, 0, sizeof *t);
  t->path = path;
  t->line = 1;
  t->hash_comments = hash_comments;
  FILE *f = fopen(path, "rb");
  if (!f) return nsed_error_set(err, NSED_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  size_t cap = 0;
  for (;;) {
    if (t->len + 4096 + 1 > cap) {
      size_t nc = cap ? 2 * cap : 65536;
      char *nb = realloc(t->buf, nc);
      if (!nb) {
        nsedi_text_free(t);
        fclose(f);
        return nsed_error_set(err, NSED_ERR_NOMEM, "%s: out of memory reading the file", path);
      }
      t->buf = nb;
      cap = nc;
    }
    size_t got = fread(t->buf + t->len, 1, cap - t->len - 1, f);
    t->len += got;
    if (got == 0) break;
  }
  t->buf[t->len] = '\0';
  int rerr = ferror(f);
  fclose(f);
  if (rerr) {
    nsedi_text_free(t);
    return nsed_error_set(err, NSED_ERR_IO, "%s: read error", path);
  }
  return NSED_OK;
}

void nsedi_text_free(nsedi_text *t) {
  free(t->buf);
  t->buf = NULL;
  t->len = t->pos = 0;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

int nsedi_text_next(nsedi_text *t, char *tok, size_t cap, int *line) {
  for (;;) {
    while (t->pos < t->len && is_space(t->buf[t->pos])) {
      if (t->buf[t->pos] == '\n') t->line++;
      t->pos++;
    }
    if (t->hash_comments && t->pos < t->len && t->buf[t->pos] == '#') {
      while (t->pos < t->len && t->buf[t->pos] != '\n') t->pos++;
      continue;
    }
    break;
  }
  if (t->pos >= t->len) return 0;
  size_t k = 0;
  *line = t->line;
  while (t->pos < t->len && !is_space(t->buf[t->pos])) {
    if (k + 1 < cap) tok[k++] = t->buf[t->pos];
    t->pos++;
  }
  tok[k] = '\0';
  return 1;
}

int nsedi_text_number(const char *tok, double *v) {
  char *end = NULL;
  errno = 0;
  *v = strtod(tok, &end);
  return end != tok && *end == '\0';
}

int nsedi_text_int(nsedi_text *t, const char *what, long *out, nsed_error *err) {
  char tok[64];
  int line = t->line;
  if (!nsedi_text_next(t, tok, sizeof tok, &line))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: ended before the %s", t->path, what);
  char *end = NULL;
  errno = 0;
  long v = strtol(tok, &end, 10);
  if (end == tok || *end != '\0' || errno)
    return nsed_error_set(err, NSED_ERR_INPUT, "%s:%d: expected the %s (an integer), found '%s'",
                          t->path, line, what, tok);
  *out = v;
  return NSED_OK;
}

int nsedi_text_create(const char *path, FILE **f, char **tmp, nsed_error *err) {
  *tmp = NULL;
  int fd = nsedi_make_unique_file(path, "tmp", tmp);
  *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (*f) return NSED_OK;
  int rc = nsed_error_set(err, NSED_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
  if (fd >= 0) {
    close(fd);
    unlink(*tmp);
  }
  free(*tmp);
  *tmp = NULL;
  return rc;
}

int nsedi_text_commit(FILE *f, char *tmp, const char *path, int bad, nsed_error *err) {
  int saved = errno;
  if (fclose(f) != 0 && !bad) {
    bad = 1;
    saved = errno;
  }
  if (bad || rename(tmp, path) != 0) {
    if (!bad) saved = errno;
    unlink(tmp);
    free(tmp);
    return nsed_error_set(err, NSED_ERR_IO, "%s: write error: %s", path, strerror(saved));
  }
  free(tmp);
  return NSED_OK;
}
