#include "yread.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* A key path longer than buf is cut short: it only names a place in a message. */
static void cut_short(char *buf, size_t size, int written) {
  if (written >= (int)size && size > 4) memcpy(buf + size - 4, "...", 4);
}

void nsedi_path_key(char *buf, size_t size, const char *path, const char *key) {
  int n = path && *path ? snprintf(buf, size, "%s.%s", path, key) : snprintf(buf, size, "%s", key);
  cut_short(buf, size, n);
}

void nsedi_path_index(char *buf, size_t size, const char *path, int i) {
  cut_short(buf, size, snprintf(buf, size, "%s[%d]", path, i));
}

int nsedi_check_map(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                    const char *const *allowed) {
  char got[96];
  if (!node || node->kind != NSEDI_Y_MAP) {
    nsedi_ydescribe(node, got, sizeof got);
    return nsedi_diag_add(d, node, path, "expected a mapping of keys, got %s", got);
  }
  int rc = 0;
  for (int i = 0; i < node->n; i++) {
    const char *k = node->keys[i]->text;
    int known = 0;
    for (const char *const *a = allowed; *a; a++)
      if (!strcmp(*a, k)) known = 1;
    if (known) continue;
    char kp[300];
    nsedi_path_key(kp, sizeof kp, path, k);
    const char *s = nsedi_suggest(k, allowed);
    if (s) {
      rc = nsedi_diag_add(d, node->keys[i], kp, "unknown key '%s' (did you mean '%s'?)", k, s);
    } else {
      char list[400];
      size_t used = 0;
      list[0] = '\0';
      for (const char *const *a = allowed; *a && used + 1 < sizeof list; a++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", a == allowed ? "" : ", ", *a);
        if (w < 0) break;
        used += (size_t)w;
      }
      rc = nsedi_diag_add(d, node->keys[i], kp, "unknown key '%s' (known keys: %s)", k, list);
    }
  }
  return rc;
}

int nsedi_require(nsedi_diag *d, const nsedi_ynode *map, const char *path, const char *key) {
  if (nsedi_ymap_get(map, key)) return 0;
  char kp[300];
  nsedi_path_key(kp, sizeof kp, path, key);
  return nsedi_diag_add(d, map, kp, "required key '%s' is missing", key);
}

static const char *range_text(nsedi_range r) {
  switch (r) {
    case NSEDI_POSITIVE: return "a positive number";
    case NSEDI_NONNEGATIVE: return "a number >= 0";
    case NSEDI_UNIT: return "a number in [0, 1]";
    default: return "a number";
  }
}

/* YAML 1.1/1.2 spellings of NaN and infinity, and C's. */
static int is_nonfinite_word(const char *t) {
  if (*t == '+' || *t == '-') t++;
  if (*t == '.') t++;
  return !strcasecmp(t, "nan") || !strcasecmp(t, "inf") || !strcasecmp(t, "infinity");
}

int nsedi_read_double(nsedi_diag *d, const nsedi_ynode *node, const char *path, nsedi_range r,
                      double *out) {
  char got[96];
  nsedi_ydescribe(node, got, sizeof got);
  if (!node || node->kind != NSEDI_Y_SCALAR || !node->plain || nsedi_yis_null(node))
    return nsedi_diag_add(d, node, path, "expected %s, got %s", range_text(r), got);
  if (is_nonfinite_word(node->text))
    return nsedi_diag_add(d, node, path, "expected %s, got %s (NaN and infinity are not allowed)",
                          range_text(r), got);
  const char *t = node->text;
  /* strtod also takes hex floats and "nan(...)"; a problem file means decimal. */
  int bad = strpbrk(t, "xXpP(") != NULL;
  char *end = NULL;
  errno = 0;
  double v = bad ? 0 : strtod(t, &end);
  if (bad || end == t || *end)
    return nsedi_diag_add(d, node, path, "expected %s, got %s", range_text(r), got);
  if (errno == ERANGE && !isfinite(v))
    return nsedi_diag_add(d, node, path, "%s is out of the range of a double", t);
  if (!isfinite(v))
    return nsedi_diag_add(d, node, path, "expected %s, got %s (NaN and infinity are not allowed)",
                          range_text(r), got);
  int ok = r == NSEDI_ANY || (r == NSEDI_POSITIVE && v > 0) || (r == NSEDI_NONNEGATIVE && v >= 0) ||
           (r == NSEDI_UNIT && v >= 0 && v <= 1);
  if (!ok) return nsedi_diag_add(d, node, path, "expected %s, got %s", range_text(r), got);
  *out = v;
  return 0;
}

int nsedi_read_int(nsedi_diag *d, const nsedi_ynode *node, const char *path, long lo, long hi,
                   long *out) {
  double v;
  char got[96];
  nsedi_ydescribe(node, got, sizeof got);
  nsedi_diag probe;
  nsedi_diag_init(&probe);
  if (nsedi_read_double(&probe, node, path, NSEDI_ANY, &v) || v != floor(v) || v < (double)lo ||
      v > (double)hi)
    return nsedi_diag_add(d, node, path, "expected an integer in [%ld, %ld], got %s", lo, hi, got);
  *out = (long)v;
  return 0;
}

int nsedi_read_vec(nsedi_diag *d, const nsedi_ynode *node, const char *path, int n, double *out) {
  char got[96];
  if (!node || node->kind != NSEDI_Y_SEQ || node->n != n) {
    nsedi_ydescribe(node, got, sizeof got);
    return nsedi_diag_add(d, node, path, "expected a list of %d numbers, got %s", n, got);
  }
  int rc = 0;
  for (int i = 0; i < n; i++) {
    char ip[300];
    nsedi_path_index(ip, sizeof ip, path, i);
    if (nsedi_read_double(d, node->items[i], ip, NSEDI_ANY, &out[i])) rc = -1;
  }
  return rc;
}

int nsedi_read_dir(nsedi_diag *d, const nsedi_ynode *node, const char *path, double out[3]) {
  if (nsedi_read_vec(d, node, path, 3, out)) return -1;
  if (out[0] == 0 && out[1] == 0 && out[2] == 0)
    return nsedi_diag_add(d, node, path, "expected a non-zero direction, got [0, 0, 0]");
  return 0;
}

int nsedi_read_name(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                    char out[NSED_NAME_MAX]) {
  char got[96];
  nsedi_ydescribe(node, got, sizeof got);
  if (!node || node->kind != NSEDI_Y_SCALAR || nsedi_yis_null(node))
    return nsedi_diag_add(d, node, path, "expected a name, got %s", got);
  size_t len = strlen(node->text);
  if (len >= NSED_NAME_MAX)
    return nsedi_diag_add(d, node, path, "names are at most %d characters; this one has %zu",
                          NSED_NAME_MAX - 1, len);
  for (const char *c = node->text; *c; c++)
    if ((unsigned char)*c < 0x20 || *c == ',' || *c == '"')
      return nsedi_diag_add(d, node, path,
                            "names may not contain commas, quotes or control characters "
                            "(they become CSV column headers)");
  memcpy(out, node->text, len + 1);
  return 0;
}

int nsedi_read_enum(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                    const char *const *names, int *out) {
  char got[96], list[300];
  size_t used = 0;
  list[0] = '\0';
  for (const char *const *a = names; *a && used + 1 < sizeof list; a++) {
    int w = snprintf(list + used, sizeof list - used, "%s%s", a == names ? "" : ", ", *a);
    if (w < 0) break;
    used += (size_t)w;
  }
  nsedi_ydescribe(node, got, sizeof got);
  if (!node || node->kind != NSEDI_Y_SCALAR || nsedi_yis_null(node))
    return nsedi_diag_add(d, node, path, "expected one of %s, got %s", list, got);
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], node->text)) {
      *out = i;
      return 0;
    }
  const char *s = nsedi_suggest(node->text, names);
  if (s) return nsedi_diag_add(d, node, path, "unknown value '%s' (did you mean '%s'?)", node->text, s);
  return nsedi_diag_add(d, node, path, "expected one of %s, got %s", list, got);
}

int nsedi_read_points(nsedi_diag *d, const nsedi_ynode *node, const char *path, const char *xkey,
                      nsed_law *out) {
  int rc = nsedi_require(d, node, path, xkey);
  rc |= nsedi_require(d, node, path, "values");
  out->type = NSED_LAW_PIECEWISE;
  const nsedi_ynode *t = nsedi_ymap_get(node, xkey), *y = nsedi_ymap_get(node, "values");
  if (rc || !t || !y) return -1;
  char tp[300], yp[300];
  nsedi_path_key(tp, sizeof tp, path, xkey);
  nsedi_path_key(yp, sizeof yp, path, "values");
  if (t->kind != NSEDI_Y_SEQ || t->n < 2 || t->n > NSED_LAW_MAX_POINTS) {
    char got[96];
    nsedi_ydescribe(t, got, sizeof got);
    return nsedi_diag_add(d, t, tp, "expected a list of 2 to %d numbers, got %s",
                          NSED_LAW_MAX_POINTS, got);
  }
  if (y->kind != NSEDI_Y_SEQ || y->n != t->n) {
    char got[96];
    nsedi_ydescribe(y, got, sizeof got);
    return nsedi_diag_add(d, y, yp, "expected a list of %d values (one per entry of %s), got %s",
                          t->n, xkey, got);
  }
  out->npoints = t->n;
  if (nsedi_read_vec(d, t, tp, t->n, out->times) | nsedi_read_vec(d, y, yp, y->n, out->values))
    return -1;
  for (int i = 1; i < t->n; i++)
    if (!(out->times[i] > out->times[i - 1])) {
      char ip[300];
      nsedi_path_index(ip, sizeof ip, tp, i);
      return nsedi_diag_add(d, t->items[i], ip, "%s must increase strictly: %.15g does not follow %.15g",
                            xkey, out->times[i], out->times[i - 1]);
    }
  return 0;
}

static const char *const law_types[] = {"constant", "sine", "piecewise", NULL};

int nsedi_read_law(nsedi_diag *d, const nsedi_ynode *node, const char *path, nsed_law *out) {
  memset(out, 0, sizeof *out);
  if (node && node->kind == NSEDI_Y_SCALAR) {
    double v;
    if (nsedi_read_double(d, node, path, NSEDI_ANY, &v)) return -1;
    *out = nsed_law_constant(v);
    return 0;
  }
  if (!node || node->kind != NSEDI_Y_MAP) {
    char got[96];
    nsedi_ydescribe(node, got, sizeof got);
    return nsedi_diag_add(d, node, path,
                          "expected a number or a law {type: constant|sine|piecewise, ...}, got %s",
                          got);
  }
  char kp[300];
  nsedi_path_key(kp, sizeof kp, path, "type");
  int type;
  if (nsedi_require(d, node, path, "type") ||
      nsedi_read_enum(d, nsedi_ymap_get(node, "type"), kp, law_types, &type))
    return -1;
  int rc = 0;
  const nsedi_ynode *v;
  if (type == NSED_LAW_CONSTANT) {
    static const char *const keys[] = {"type", "value", NULL};
    rc |= nsedi_check_map(d, node, path, keys);
    rc |= nsedi_require(d, node, path, "value");
    nsedi_path_key(kp, sizeof kp, path, "value");
    if ((v = nsedi_ymap_get(node, "value"))) rc |= nsedi_read_double(d, v, kp, NSEDI_ANY, &out->value);
    out->type = NSED_LAW_CONSTANT;
  } else if (type == NSED_LAW_SINE) {
    static const char *const keys[] = {"type", "amplitude", "omega", "phase_rad", "phase_deg",
                                       "offset", NULL};
    rc |= nsedi_check_map(d, node, path, keys);
    rc |= nsedi_require(d, node, path, "amplitude");
    rc |= nsedi_require(d, node, path, "omega");
    out->type = NSED_LAW_SINE;
    struct { const char *key; double *dst; } f[] = {{"amplitude", &out->amplitude},
                                                    {"omega", &out->omega},
                                                    {"offset", &out->offset},
                                                    {"phase_rad", &out->phase}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
      nsedi_path_key(kp, sizeof kp, path, f[i].key);
      if ((v = nsedi_ymap_get(node, f[i].key))) rc |= nsedi_read_double(d, v, kp, NSEDI_ANY, f[i].dst);
    }
    if ((v = nsedi_ymap_get(node, "phase_deg"))) {
      nsedi_path_key(kp, sizeof kp, path, "phase_deg");
      if (nsedi_ymap_get(node, "phase_rad"))
        rc |= nsedi_diag_add(d, v, kp, "give either phase_rad or phase_deg, not both");
      double deg;
      if (!nsedi_read_double(d, v, kp, NSEDI_ANY, &deg)) out->phase = deg * M_PI / 180.0;
      else rc = -1;
    }
  } else {
    static const char *const keys[] = {"type", "times", "values", NULL};
    rc |= nsedi_check_map(d, node, path, keys);
    if (nsedi_read_points(d, node, path, "times", out)) rc = -1;
  }
  return rc ? -1 : 0;
}

int nsedi_read_orientation(nsedi_diag *d, const nsedi_ynode *node, const char *path, double q[4]) {
  if (node && node->kind == NSEDI_Y_SEQ) {
    if (node->n != 4) {
      char got[96];
      nsedi_ydescribe(node, got, sizeof got);
      return nsedi_diag_add(d, node, path,
                            "expected a quaternion [q0, q1, q2, q3] (scalar first), got %s", got);
    }
    if (nsedi_read_vec(d, node, path, 4, q)) return -1;
    if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
      return nsedi_diag_add(d, node, path, "the zero quaternion is not a rotation");
    return 0;
  }
  static const char *const keys[] = {"axis", "angle_deg", "angle_rad", NULL};
  if (!node || node->kind != NSEDI_Y_MAP) {
    char got[96];
    nsedi_ydescribe(node, got, sizeof got);
    return nsedi_diag_add(d, node, path,
                          "expected a quaternion [q0, q1, q2, q3] or {axis: [x, y, z], angle_deg: a}, "
                          "got %s", got);
  }
  int rc = nsedi_check_map(d, node, path, keys);
  rc |= nsedi_require(d, node, path, "axis");
  const nsedi_ynode *deg = nsedi_ymap_get(node, "angle_deg"), *rad = nsedi_ymap_get(node, "angle_rad");
  if (!deg && !rad) rc = nsedi_diag_add(d, node, path, "give the angle as angle_deg or angle_rad");
  if (deg && rad) rc = nsedi_diag_add(d, rad, path, "give either angle_deg or angle_rad, not both");
  if (rc) return -1;
  char kp[300];
  double axis[3], angle;
  nsedi_path_key(kp, sizeof kp, path, "axis");
  if (nsedi_read_dir(d, nsedi_ymap_get(node, "axis"), kp, axis)) return -1;
  nsedi_path_key(kp, sizeof kp, path, deg ? "angle_deg" : "angle_rad");
  if (nsedi_read_double(d, deg ? deg : rad, kp, NSEDI_ANY, &angle)) return -1;
  if (deg) angle *= M_PI / 180.0;
  double norm = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  double s = sin(0.5 * angle) / norm;
  q[0] = cos(0.5 * angle);
  q[1] = s * axis[0];
  q[2] = s * axis[1];
  q[3] = s * axis[2];
  return 0;
}
