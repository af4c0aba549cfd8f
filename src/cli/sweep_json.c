/* Just enough JSON to take values out of summary.json (which nsed writes
 * itself: objects, arrays, strings, numbers, null) and to write the atomic
 * files of a sweep. A full JSON library would be a dependency for a dozen
 * lines of scanning. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep.h"

static const char *ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

/* End of the string starting at p (a '"'), just past the closing quote. */
static const char *skip_string(const char *p) {
  for (p++; *p; p++) {
    if (*p == '\\') {
      if (!*++p) return NULL;
    } else if (*p == '"') {
      return p + 1;
    }
  }
  return NULL;
}

/* End of the value starting at p, or NULL if malformed. Depth-limited so a
 * corrupt file cannot exhaust the stack. */
static const char *skip_value(const char *p, int depth) {
  p = ws(p);
  if (depth > 64) return NULL;
  if (*p == '"') return skip_string(p);
  if (*p == '{' || *p == '[') {
    char close = *p == '{' ? '}' : ']';
    p = ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
      if (close == '}') {
        if (*p != '"' || !(p = skip_string(p))) return NULL;
        p = ws(p);
        if (*p++ != ':') return NULL;
      }
      if (!(p = skip_value(p, depth + 1))) return NULL;
      p = ws(p);
      if (*p == ',') {
        p = ws(p + 1);
        continue;
      }
      return *p == close ? p + 1 : NULL;
    }
  }
  const char *s = p;
  while (*p && !strchr(",}] \t\r\n", *p)) p++;
  return p > s ? p : NULL;
}

/* Does the JSON string at p (a '"') equal the len bytes of key? Keys of
 * summary.json have no escapes, so an escaped key simply never matches. */
static int key_is(const char *p, const char *key, size_t len) {
  return !strncmp(p + 1, key, len) && p[1 + len] == '"';
}

int nsedi_json_find(const char *json, const char *path, const char **begin, const char **end) {
  const char *p = ws(json);
  while (*path) {
    const char *dot = strchr(path, '.');
    size_t len = dot ? (size_t)(dot - path) : strlen(path);
    if (*p != '{') return 0;
    p = ws(p + 1);
    int found = 0;
    while (*p != '}') {
      if (*p != '"') return -1;
      const char *k = p;
      if (!(p = skip_string(p))) return -1;
      p = ws(p);
      if (*p++ != ':') return -1;
      p = ws(p);
      if (key_is(k, path, len)) {
        found = 1;
        break;
      }
      if (!(p = skip_value(p, 0))) return -1;
      p = ws(p);
      if (*p == ',') p = ws(p + 1);
      else if (*p != '}') return -1;
    }
    if (!found) return 0;
    path += len + (dot ? 1 : 0);
  }
  const char *e = skip_value(p, 0);
  if (!e) return -1;
  *begin = p;
  *end = e;
  return 1;
}

char *nsedi_json_text(const char *begin, const char *end) {
  size_t n = (size_t)(end - begin);
  char *out = malloc(n + 1);
  if (!out) return NULL;
  if (*begin != '"') {
    memcpy(out, begin, n);
    out[n] = '\0';
    return out;
  }
  /* Unescape; \uXXXX only ever encodes control characters in summary.json. */
  char *o = out;
  for (const char *p = begin + 1; p < end - 1; p++) {
    if (*p != '\\') {
      *o++ = *p;
      continue;
    }
    p++;
    switch (*p) {
      case 'n': *o++ = '\n'; break;
      case 'r': *o++ = '\r'; break;
      case 't': *o++ = '\t'; break;
      case 'u':
        if (end - p > 4) {
          char hex[5] = {p[1], p[2], p[3], p[4], '\0'};
          *o++ = (char)strtol(hex, NULL, 16);
          p += 4;
        }
        break;
      default: *o++ = *p;
    }
  }
  *o = '\0';
  return out;
}

/* As summary.c's json_string, so the text compares equal to what it wrote. */
int nsedi_strbuf_add(nsedi_strbuf *b, const char *text) {
  size_t n = strlen(text);
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + n + 1) cap *= 2;
    char *p = realloc(b->buf, cap);
    if (!p) return -1;
    b->buf = p;
    b->cap = cap;
  }
  memcpy(b->buf + b->len, text, n + 1);
  b->len += n;
  return 0;
}

int nsedi_strbuf_add_csv(nsedi_strbuf *b, const char *cell) {
  if (!strpbrk(cell, ",\"\r\n")) return nsedi_strbuf_add(b, cell);
  if (nsedi_strbuf_add(b, "\"")) return -1;
  for (const char *p = cell; *p; p++) {
    char c[3] = {*p, *p == '"' ? '"' : '\0', '\0'};
    if (nsedi_strbuf_add(b, c)) return -1;
  }
  return nsedi_strbuf_add(b, "\"");
}


static int json_string(nsedi_strbuf *b, const char *s) {
  if (nsedi_strbuf_add(b, "\"")) return -1;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    char c[8];
    switch (*p) {
      case '"': snprintf(c, sizeof c, "\\\""); break;
      case '\\': snprintf(c, sizeof c, "\\\\"); break;
      case '\n': snprintf(c, sizeof c, "\\n"); break;
      case '\r': snprintf(c, sizeof c, "\\r"); break;
      case '\t': snprintf(c, sizeof c, "\\t"); break;
      default:
        if (*p < 0x20) snprintf(c, sizeof c, "\\u%04x", *p);
        else snprintf(c, sizeof c, "%c", *p);
    }
    if (nsedi_strbuf_add(b, c)) return -1;
  }
  return nsedi_strbuf_add(b, "\"");
}

char *nsedi_sweep_overrides_json(const nsed_sweep_point *p) {
  nsedi_strbuf b = {0};
  int bad = nsedi_strbuf_add(&b, "[");
  for (int i = 0; i < p->noverrides && !bad; i++)
    bad = (i && nsedi_strbuf_add(&b, ", ")) || json_string(&b, p->overrides[i]);
  if (bad || nsedi_strbuf_add(&b, "]")) {
    free(b.buf);
    return NULL;
  }
  return b.buf;
}

int nsedi_write_atomic(const char *path, const char *text, size_t len, nsed_error *err) {
  size_t n = strlen(path) + 16;
  char *tmp = malloc(n);
  if (!tmp) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  snprintf(tmp, n, "%s.tmp-XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return nsed_error_set(err, NSED_ERR_IO, "cannot create a file next to %s: %s", path,
                          strerror(e));
  }
  /* mkstemp makes the file 0600; a table gets the mode of any file the user
   * creates (0666 less the umask). The CLI is single-threaded, so reading
   * the umask by setting it back is safe here. */
  mode_t mask = umask(0);
  umask(mask);
  int e = fchmod(fd, 0666 & ~mask) != 0 ? errno : 0;
  size_t done = 0;
  while (done < len) {
    ssize_t w = write(fd, text + done, len - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      e = errno;
      break;
    }
    done += (size_t)w;
  }
  if (close(fd) != 0 && !e) e = errno;
  if (!e && rename(tmp, path) != 0) e = errno;
  if (e) {
    unlink(tmp);
    free(tmp);
    return nsed_error_set(err, NSED_ERR_IO, "writing %s failed: %s", path, strerror(e));
  }
  free(tmp);
  return NSED_OK;
}
