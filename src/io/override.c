#include "override.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_index(const char *s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (!isdigit((unsigned char)*s)) return 0;
  return 1;
}

/* The item of seq whose name equals the segments seg[0..k-1] joined by
 * dots, trying the longest join first (names may contain dots). */
static int find_named(const nsedi_ynode *seq, char **seg, int nseg, int *used) {
  char joined[256];
  for (int k = nseg; k >= 1; k--) {
    joined[0] = '\0';
    size_t len = 0;
    int fits = 1;
    for (int j = 0; j < k && fits; j++) {
      size_t l = strlen(seg[j]);
      if (len + l + 2 > sizeof joined) fits = 0;
      else {
        if (j) joined[len++] = '.';
        memcpy(joined + len, seg[j], l + 1);
        len += l;
      }
    }
    if (!fits) continue;
    for (int i = 0; i < seq->n; i++) {
      const nsedi_ynode *name = nsedi_ymap_get(seq->items[i], "name");
      if (name && name->kind == NSEDI_Y_SCALAR && !strcmp(name->text, joined)) {
        *used = k;
        return i;
      }
    }
  }
  return -1;
}

static int seq_item_error(const nsedi_ynode *seq, const char *seg, const char *where, const char *src,
                          nsedi_diag *d) {
  const char *names[65];
  int nn = 0;
  for (int i = 0; i < seq->n && nn < 64; i++) {
    const nsedi_ynode *name = nsedi_ymap_get(seq->items[i], "name");
    if (name && name->kind == NSEDI_Y_SCALAR) names[nn++] = name->text;
  }
  names[nn] = NULL;
  const char *s = nsedi_suggest(seg, names);
  if (s)
    return nsedi_diag_add_at(d, src, 0, 0, NULL, "%s has no item named '%s' (did you mean '%s'?)",
                             where, seg, s);
  return nsedi_diag_add_at(d, src, 0, 0, NULL, "%s has no item named '%s' (%d item%s)", where, seg,
                           seq->n, seq->n == 1 ? "" : "s");
}

int nsedi_override_apply(nsedi_ynode *root, const char *override, const char *src, nsedi_diag *d) {
  const char *eq = strchr(override, '=');
  if (!eq || eq == override)
    return nsedi_diag_add_at(d, src, 0, 0, NULL, "an override is KEY=VALUE (e.g. solver.rtol=1e-8)");
  if (!root || root->kind != NSEDI_Y_MAP)
    return nsedi_diag_add_at(d, src, 0, 0, NULL, "cannot apply an override: the problem is not a mapping");

  /* Split the key into segments; "a[2]" is the same as "a.2". */
  size_t klen = (size_t)(eq - override);
  char *key = malloc(2 * klen + 1);
  char **seg = malloc((klen + 1) * sizeof *seg);
  nsedi_ynode *value = NULL;
  int rc = 0;
  if (!key || !seg) {
    rc = -2;
    goto out;
  }
  size_t w = 0;
  for (size_t i = 0; i < klen; i++) {
    char c = override[i];
    if (c == '[') c = '.';
    else if (c == ']') continue;
    key[w++] = c;
  }
  key[w] = '\0';
  int nseg = 0;
  for (char *p = key;;) {
    char *dot = strchr(p, '.');
    if (dot) *dot = '\0';
    if (!*p) {
      rc = nsedi_diag_add_at(d, src, 0, 0, NULL, "empty component in the key '%.*s'", (int)klen,
                             override);
      goto out;
    }
    seg[nseg++] = p;
    if (!dot) break;
    p = dot + 1;
  }

  rc = nsedi_yparse(eq + 1, strlen(eq + 1), src, 0, &value, d);
  if (rc) goto out;
  if (!value) value = nsedi_yscalar("", 1, src, 0, 0);
  if (!value) {
    rc = -2;
    goto out;
  }

  char where[300];
  snprintf(where, sizeof where, "the problem");
  nsedi_ynode *cur = root;
  for (int i = 0; i < nseg; i++) {
    int last = i == nseg - 1;
    if (cur->kind == NSEDI_Y_MAP) {
      int slot = -1;
      for (int j = 0; j < cur->n; j++)
        if (!strcmp(cur->keys[j]->text, seg[i])) slot = j;
      if (last) {
        if (slot >= 0) {
          nsedi_yfree(cur->items[slot]);
          cur->items[slot] = value;
        } else {
          nsedi_ynode *k = nsedi_yscalar(seg[i], 1, src, 0, 0);
          if (!k || nsedi_ymap_append(cur, k, value)) {
            nsedi_yfree(k);
            rc = -2;
            goto out;
          }
        }
        value = NULL;
        break;
      }
      if (slot < 0) {
        /* Unknown keys are caught by validation with a suggestion. */
        nsedi_ynode *k = nsedi_yscalar(seg[i], 1, src, 0, 0);
        nsedi_ynode *m = nsedi_ynew(NSEDI_Y_MAP, src, 0, 0);
        if (!k || !m || nsedi_ymap_append(cur, k, m)) {
          nsedi_yfree(k);
          nsedi_yfree(m);
          rc = -2;
          goto out;
        }
        slot = cur->n - 1;
      }
      cur = cur->items[slot];
      snprintf(where, sizeof where, "'%s'", seg[i]);
    } else if (cur->kind == NSEDI_Y_SEQ) {
      int idx, used = 1;
      if (is_index(seg[i])) {
        /* strtol, not atoi: a huge index must be out of range, not wrap
         * to a negative one (fuzz/: bodies.9999999999999999999999.mass=1). */
        errno = 0;
        long li = strtol(seg[i], NULL, 10);
        idx = errno == ERANGE || li >= cur->n ? cur->n : (int)li;
        if (idx >= cur->n) {
          rc = nsedi_diag_add_at(d, src, 0, 0, NULL, "index %s is out of range: %s has %d item%s",
                                 seg[i], where, cur->n, cur->n == 1 ? "" : "s");
          goto out;
        }
      } else {
        idx = find_named(cur, seg + i, nseg - i, &used);
        if (idx < 0) {
          rc = seq_item_error(cur, seg[i], where, src, d);
          goto out;
        }
      }
      i += used - 1;
      if (i == nseg - 1) {
        nsedi_yfree(cur->items[idx]);
        cur->items[idx] = value;
        value = NULL;
        break;
      }
      cur = cur->items[idx];
      snprintf(where, sizeof where, "item '%s'", seg[i]);
    } else {
      rc = nsedi_diag_add_at(d, src, 0, 0, NULL, "%s is a single value, it has no '%s'", where,
                             seg[i]);
      goto out;
    }
  }
out:
  nsedi_yfree(value);
  free(key);
  free(seg);
  if (rc == -2) nsedi_diag_add_at(d, src, 0, 0, NULL, "out of memory");
  return rc;
}
