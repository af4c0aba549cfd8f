/* nsed_problem_load*: text -> tree -> overrides -> schema check -> model. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "blocks.h"
#include "build.h"
#include "nsed/io.h"
#include "nsed/simulate.h"
#include "override.h"
#include "yread.h"

static const char *const top_keys[] = {"name", "description", "gravity", "floor", "bodies",
                                       "joints", "forces", "planes", "contacts", "friction", "solver",
                                       "output", "contact_tracking", "omni_vehicle",
                                       "omni_wheel_testbench", "disk_on_shaft", NULL};

int nsed_problem_read_file(const char *path, char **text, size_t *len, nsed_error *err) {
  *text = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return nsed_error_set(err, NSED_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    return nsed_error_set(err, NSED_ERR_IO, "%s: is a directory, not a problem file", path);
  }
  /* Read in chunks rather than trusting st_size: pipes and /proc files have none. */
  size_t cap = 0, n = 0;
  char *buf = NULL;
  int rc = NSED_OK;
  for (;;) {
    if (n + 65536 + 1 > cap) {
      size_t ncap = cap ? 2 * cap : 65536 + 1;
      char *nb = realloc(buf, ncap);
      if (!nb) {
        rc = nsed_error_set(err, NSED_ERR_NOMEM, "%s: out of memory reading the file", path);
        break;
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if ((long)n > NSED_PROBLEM_MAX_BYTES) {
      rc = nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: the file is larger than %ld bytes: this is not a problem file", path,
                          NSED_PROBLEM_MAX_BYTES);
      break;
    }
    if (got == 0) {
      if (ferror(f)) rc = nsed_error_set(err, NSED_ERR_IO, "%s: read error: %s", path, strerror(errno));
      break;
    }
  }
  fclose(f);
  if (rc) {
    free(buf);
    return rc;
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return NSED_OK;
}

/* The key path of a definition for builder messages: the list item it was
 * read from, or the assembly block that generated it. */
static void def_path(const nsedi_problem_defs *p, const char *list, const nsedi_ynode *at,
                     char *buf, size_t size) {
  const nsedi_ynode *l = nsedi_ymap_get(p->root, list);
  for (int k = 0; l && l->kind == NSEDI_Y_SEQ && k < l->n; k++)
    if (l->items[k] == at) {
      nsedi_path_index(buf, size, list, k);
      return;
    }
  const char *block = nsedi_block_of(p, at);
  snprintf(buf, size, "%s", block ? block : list);
}

/* Bodies that start interpenetrating: reported at the position of the
 * contact's body (or at the contact, for generated bodies). */
static void check_initial_state(nsedi_problem_defs *p, const nsed_model *m, nsed_error *e) {
  nsed_data *d = NULL;
  int c = -1;
  if (nsed_data_create(m, &d, e) == NSED_OK && nsed_data_check_initial_state(m, d, &c, e) != NSED_OK &&
      c >= 0) {
    char ip[96];
    int b = nsedi_defs_find_body(p, p->contacts[c].body);
    const nsedi_ynode *pos = b >= 0 && p->body_at[b] ? nsedi_ymap_get(p->body_at[b], "position") : NULL;
    if (pos) {
      def_path(p, "bodies", p->body_at[b], ip, sizeof ip);
      strncat(ip, ".position", sizeof ip - strlen(ip) - 1);
      nsedi_diag_add(p->d, pos, ip, "%s", e->message);
    } else {
      def_path(p, "contacts", p->contact_at[c], ip, sizeof ip);
      nsedi_diag_add(p->d, p->contact_at[c] ? p->contact_at[c] : p->root, ip, "%s", e->message);
    }
  }
  nsed_data_free(&d);
}

/* Hand the definitions to the builder; its messages get the item's location. */
static int build_model(nsedi_problem_defs *p, nsed_model **out, nsed_error *err) {
  nsed_model *m = NULL;
  int rc = nsed_model_create(&m, err);
  if (rc) return rc;
  nsed_error e;
  nsed_error_clear(&e);
  char ip[64];
  for (int i = 0; i < p->nbody; i++)
    if (nsed_model_add_body(m, &p->bodies[i], &e) < 0) {
      def_path(p, "bodies", p->body_at[i], ip, sizeof ip);
      /* A rotor the body's inertia does not allow: at its rotor key. */
      const nsedi_ynode *at = p->body_at[i], *rotor = at ? nsedi_ymap_get(at, "rotor") : NULL;
      if (rotor && strstr(e.message, "a rotor about")) {
        at = rotor;
        strncat(ip, ".rotor", sizeof ip - strlen(ip) - 1);
      }
      nsedi_diag_add(p->d, at, ip, "%s", e.message);
    }
  if (!p->d->count)
    for (int i = 0; i < p->njoint; i++)
      if (nsed_model_add_joint(m, &p->joints[i], &e) < 0) {
        def_path(p, "joints", p->joint_at[i], ip, sizeof ip);
        nsedi_diag_add(p->d, p->joint_at[i], ip, "%s", e.message);
      }
  if (!p->d->count)
    for (int i = 0; i < p->nforce; i++)
      if (nsed_model_add_force(m, &p->forces[i], &e) < 0) {
        def_path(p, "forces", p->force_at[i], ip, sizeof ip);
        nsedi_diag_add(p->d, p->force_at[i], ip, "%s", e.message);
      }
  if (!p->d->count)
    for (int i = 0; i < p->nplane; i++)
      if (nsed_model_add_plane(m, &p->planes[i], &e) < 0) {
        def_path(p, "planes", p->plane_at[i], ip, sizeof ip);
        nsedi_diag_add(p->d, p->plane_at[i], ip, "%s", e.message);
      }
  if (!p->d->count)
    for (int i = 0; i < p->ncontact; i++)
      if (nsed_model_add_contact(m, &p->contacts[i], &e) < 0) {
        def_path(p, "contacts", p->contact_at[i], ip, sizeof ip);
        nsedi_diag_add(p->d, p->contact_at[i], ip, "%s", e.message);
      }
  if (!p->d->count) {
    if (nsed_model_set_options(m, &p->opt, &e) != NSED_OK || nsed_model_finalize(m, &e) != NSED_OK)
      nsedi_diag_add(p->d, p->root, NULL, "%s", e.message);
  }
  if (!p->d->count) check_initial_state(p, m, &e);
  if (p->d->count) {
    nsed_model_free(&m);
    /* Builder failures other than bad input (no memory) keep their status. */
    int st = e.status < 0 && e.status != NSED_ERR_INPUT ? e.status : NSED_ERR_INPUT;
    return nsedi_diag_to_error(p->d, st, err);
  }
  *out = m;
  return NSED_OK;
}

int nsed_problem_load_string(const char *text, size_t len, const char *name,
                             const char *const *overrides, int noverrides, nsed_model **out,
                             nsed_error *err) {
  if (!out || (!text && len) || noverrides < 0 || (noverrides > 0 && !overrides))
    return nsed_error_set(err, NSED_ERR_INPUT, "nsed_problem_load_string: invalid arguments");
  if (!name) name = "<string>";
  nsed_error_clear(err);
  nsedi_diag d;
  nsedi_diag_init(&d);
  nsedi_ynode *root = NULL;
  char **srcs = NULL;
  int rc = NSED_OK;
  if ((long)len > NSED_PROBLEM_MAX_BYTES) {
    nsedi_diag_add_at(&d, name, 0, 0, NULL, "larger than %ld bytes: this is not a problem file",
                      NSED_PROBLEM_MAX_BYTES);
    return nsedi_diag_to_error(&d, NSED_ERR_INPUT, err);
  }
  int prc = nsedi_yparse(text ? text : "", len, name, 1, &root, &d);
  if (prc == -2) return nsed_error_set(err, NSED_ERR_NOMEM, "%s: out of memory", name);
  if (prc) return nsedi_diag_to_error(&d, NSED_ERR_INPUT, err);
  if (!root || nsedi_yis_null(root)) {
    nsedi_yfree(root);
    nsedi_diag_add_at(&d, name, 1, 1, NULL,
                      "the file is empty: expected a mapping with at least 'bodies' (see "
                      "docs/problem-format.md)");
    return nsedi_diag_to_error(&d, NSED_ERR_INPUT, err);
  }
  if (root->kind != NSEDI_Y_MAP) {
    char got[96];
    nsedi_ydescribe(root, got, sizeof got);
    nsedi_diag_add(&d, root, NULL, "expected a mapping of top-level keys (bodies, contacts, solver, ...), got %s", got);
    nsedi_yfree(root);
    return nsedi_diag_to_error(&d, NSED_ERR_INPUT, err);
  }

  /* Override nodes name their origin ("--set KEY=VALUE"); the strings must
   * outlive the tree. */
  if (noverrides > 0) {
    srcs = calloc((size_t)noverrides, sizeof *srcs);
    if (!srcs) rc = NSED_ERR_NOMEM;
  }
  for (int i = 0; rc == NSED_OK && i < noverrides; i++) {
    size_t l = strlen(overrides[i]) + 7;
    srcs[i] = malloc(l);
    if (!srcs[i]) {
      rc = NSED_ERR_NOMEM;
      break;
    }
    snprintf(srcs[i], l, "--set %s", overrides[i]);
    if (nsedi_override_apply(root, overrides[i], srcs[i], &d) == -2) rc = NSED_ERR_NOMEM;
  }

  nsedi_problem_defs p;
  memset(&p, 0, sizeof p);
  p.d = &d;
  p.root = root;
  nsed_options_default(&p.opt);
  /* Validate even after a failed override: one pass lists every problem. */
  if (rc == NSED_OK) {
    nsedi_check_map(&d, root, "", top_keys);
    /* An assembly block brings its own bodies. */
    int blocks = 0;
    for (int k = 0; nsedi_block_keys[k]; k++)
      blocks |= nsedi_ymap_get(root, nsedi_block_keys[k]) != NULL;
    if (!blocks) nsedi_require(&d, root, "", "bodies");
    /* Settings first: the blocks build under the problem's gravity and floor. */
    nsedi_build_settings(&p);
    if (nsedi_build_items(&p) == -2) rc = NSED_ERR_NOMEM;
  }
  if (rc == NSED_OK && d.count == 0) rc = build_model(&p, out, err);
  else if (rc == NSED_OK) rc = nsedi_diag_to_error(&d, NSED_ERR_INPUT, err);
  else nsed_error_set(err, rc, "%s: out of memory", name);

  nsedi_problem_defs_free(&p);
  nsedi_yfree(root);
  for (int i = 0; srcs && i < noverrides; i++) free(srcs[i]);
  free(srcs);
  return rc;
}

int nsed_problem_load(const char *path, const char *const *overrides, int noverrides,
                      nsed_model **out, nsed_error *err) {
  if (!path) return nsed_error_set(err, NSED_ERR_INPUT, "nsed_problem_load: no path");
  char *text = NULL;
  size_t len = 0;
  int rc = nsed_problem_read_file(path, &text, &len, err);
  if (rc) return rc;
  rc = nsed_problem_load_string(text, len, path, overrides, noverrides, out, err);
  free(text);
  return rc;
}
