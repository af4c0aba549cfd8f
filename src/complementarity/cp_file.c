/* Contact-problem files: one event problem (nsed_contact_problem and its
 * level) as text, every double exact (C99 hex floats), so that a problem
 * a run could not solve can be solved again outside the run
 * (docs/complementarity.md, "Contact-problem files"):
 *
 *     # comments to the end of a line, anywhere
 *     nsed-contact-problem 1
 *     level accel | impact
 *     contacts NC
 *     spins NW
 *     G      (3NC+NW)^2 numbers, column-major
 *     b      3NC+NW numbers
 *     contact KIND MU MU0 SLIP_DIR_1 SLIP_DIR_2 RESTITUTION     (NC lines)
 *     spin CONTACT KIND MU SIGN                                  (NW lines)
 *
 * KIND: stick_candidate, slipping or frictionless. The reader checks what
 * nsed_contact_solve_* check (contact_solver.c: finite numbers, mu, mu0 >=
 * 0, a unit slip direction for a slipping contact, an impact's restitution
 * in [0, 1], a spin's contact in range and its sign +-1 when slipping; a
 * stick candidate's mu0 may be below mu, as the engine's shrunk mu0 at a
 * saturation is) and names file and line. */
#include "cp_internal.h"
#include "text_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CP_FILE_VERSION 1
/* G of (3 NC + NW)^2 entries: at most 1024 contacts keeps it within 134 MB;
 * the event problems of the shipped systems have at most a few dozen. */
#define CP_FILE_MAX_CONTACTS 1024

static const char *const kind_names[] = {"stick_candidate", "slipping", "frictionless"};

static int expect_word(nsedi_text *t, const char *word, nsed_error *err) {
  char tok[64];
  int line = t->line;
  if (!nsedi_text_next(t, tok, sizeof tok, &line))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: ended before '%s'", t->path, word);
  if (strcmp(tok, word) != 0)
    return nsed_error_set(err, NSED_ERR_INPUT, "%s:%d: expected '%s', found '%s'", t->path, line,
                          word, tok);
  return NSED_OK;
}

/* The next number, finite; what names it in the message. */
static int read_number(nsedi_text *t, const char *what, long index, double *v, nsed_error *err) {
  char tok[128];
  int line = t->line;
  if (!nsedi_text_next(t, tok, sizeof tok, &line))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: ended before %s %ld", t->path, what, index);
  if (!nsedi_text_number(tok, v))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s:%d: expected %s %ld (a number), found '%s'",
                          t->path, line, what, index, tok);
  if (!isfinite(*v))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s:%d: %s %ld is not finite (%s)", t->path, line,
                          what, index, tok);
  return NSED_OK;
}

static int read_kind(nsedi_text *t, const char *what, long index, nsed_cp_kind *kind, int *line,
                     nsed_error *err) {
  char tok[64];
  if (!nsedi_text_next(t, tok, sizeof tok, line))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: ended before the kind of %s %ld", t->path, what,
                          index);
  for (int k = 0; k < 3; k++)
    if (strcmp(tok, kind_names[k]) == 0) {
      *kind = (nsed_cp_kind)k;
      return NSED_OK;
    }
  return nsed_error_set(err, NSED_ERR_INPUT,
                        "%s:%d: %s %ld: kind '%s' (stick_candidate, slipping or frictionless)",
                        t->path, *line, what, index, tok);
}

static int read_contact(nsedi_text *t, long i, int impact, nsed_cp_contact *c, nsed_error *err) {
  int rc = expect_word(t, "contact", err);
  int line = t->line;
  if (!rc) rc = read_kind(t, "contact", i, &c->kind, &line, err);
  if (!rc) rc = read_number(t, "mu of contact", i, &c->mu, err);
  if (!rc) rc = read_number(t, "mu0 of contact", i, &c->mu0, err);
  if (!rc) rc = read_number(t, "slip_dir[0] of contact", i, &c->slip_dir[0], err);
  if (!rc) rc = read_number(t, "slip_dir[1] of contact", i, &c->slip_dir[1], err);
  if (!rc) rc = read_number(t, "restitution of contact", i, &c->restitution, err);
  if (rc) return rc;
  const char *bad = NULL;
  if (!(c->mu >= 0 && c->mu0 >= 0)) bad = "needs mu >= 0 and mu0 >= 0";
  else if (impact && !(c->restitution >= 0 && c->restitution <= 1)) bad = "needs a restitution in [0, 1]";
  else if (c->kind == NSED_CP_SLIPPING &&
           !(fabs(hypot(c->slip_dir[0], c->slip_dir[1]) - 1) <= NSEDI_CP_UNIT_TOL))
    bad = "is slipping but its slip direction is not a unit vector";
  if (bad)
    return nsed_error_set(err, NSED_ERR_INPUT, "%s:%d: contact %ld %s", t->path, line, i, bad);
  return NSED_OK;
}

static int read_spin(nsedi_text *t, long k, long nc, nsed_cp_spin *w, nsed_error *err) {
  int rc = expect_word(t, "spin", err);
  int line = t->line;
  long contact = -1;
  if (!rc) rc = nsedi_text_int(t, "contact of a spin", &contact, err);
  if (!rc) rc = read_kind(t, "spin", k, &w->kind, &line, err);
  if (!rc) rc = read_number(t, "mu of spin", k, &w->mu, err);
  if (!rc) rc = read_number(t, "sign of spin", k, &w->sign, err);
  if (rc) return rc;
  w->contact = (int)contact;
  const char *bad = NULL;
  if (contact < 0 || contact >= nc) bad = "names a contact out of range";
  else if (!(w->mu >= 0)) bad = "needs mu >= 0";
  else if (w->kind == NSED_CP_SLIPPING && w->sign != 1 && w->sign != -1) bad = "is slipping but its sign is not +1 or -1";
  if (bad) return nsed_error_set(err, NSED_ERR_INPUT, "%s:%d: spin %ld %s", t->path, line, k, bad);
  return NSED_OK;
}

static int read_header(nsedi_text *t, int *impact, long *nc, long *nw, nsed_error *err) {
  long version = 0;
  char tok[64];
  int line = t->line;
  int rc = expect_word(t, "nsed-contact-problem", err);
  if (!rc) rc = nsedi_text_int(t, "file version", &version, err);
  if (!rc && version != CP_FILE_VERSION)
    rc = nsed_error_set(err, NSED_ERR_INPUT, "%s: contact-problem file version %ld (this nsed reads %d)",
                        t->path, version, CP_FILE_VERSION);
  if (!rc) rc = expect_word(t, "level", err);
  if (!rc && !nsedi_text_next(t, tok, sizeof tok, &line))
    rc = nsed_error_set(err, NSED_ERR_INPUT, "%s: ended before the level", t->path);
  if (!rc && strcmp(tok, "accel") != 0 && strcmp(tok, "impact") != 0)
    rc = nsed_error_set(err, NSED_ERR_INPUT, "%s:%d: level '%s' (accel or impact)", t->path, line, tok);
  if (rc) return rc;
  *impact = strcmp(tok, "impact") == 0;
  rc = expect_word(t, "contacts", err);
  if (!rc) rc = nsedi_text_int(t, "number of contacts", nc, err);
  if (!rc && (*nc < 1 || *nc > CP_FILE_MAX_CONTACTS))
    rc = nsed_error_set(err, NSED_ERR_INPUT, "%s: %ld contacts, out of range [1, %d]", t->path, *nc,
                        CP_FILE_MAX_CONTACTS);
  if (!rc) rc = expect_word(t, "spins", err);
  if (!rc) rc = nsedi_text_int(t, "number of spins", nw, err);
  if (!rc && (*nw < 0 || *nw > *nc))
    rc = nsed_error_set(err, NSED_ERR_INPUT, "%s: %ld spins, out of range [0, %ld] (one per contact at most)",
                        t->path, *nw, *nc);
  return rc;
}

void nsed_contact_problem_file_free(nsed_contact_problem_file *f) {
  if (!f) return;
  free(f->G);
  free(f->b);
  free(f->contacts);
  free(f->spins);
  memset(f, 0, sizeof *f);
}

int nsed_contact_problem_read(const char *path, nsed_contact_problem_file *out, nsed_error *err) {
  memset(out, 0, sizeof *out);
  nsedi_text t;
  int rc = nsedi_text_load(path, 1, &t, err);
  if (rc) return rc;
  long nc = 0, nw = 0;
  rc = read_header(&t, &out->impact, &nc, &nw, err);
  size_t n = rc ? 0 : (size_t)(3 * nc + nw); /* nc and nw in range only when read */
  /* every entry of G takes two bytes at least: refuse a short file before
   * allocating what its header claims */
  if (!rc && 2 * n * n > t.len)
    rc = nsed_error_set(err, NSED_ERR_INPUT, "%s: %ld contacts and %ld spins need a G of %zu x %zu: the file is too short",
                        path, nc, nw, n, n);
  if (!rc) {
    out->G = malloc(sizeof(double) * n * n);
    out->b = malloc(sizeof(double) * n);
    out->contacts = calloc((size_t)nc, sizeof *out->contacts);
    out->spins = nw ? calloc((size_t)nw, sizeof *out->spins) : NULL;
    if (!out->G || !out->b || !out->contacts || (nw && !out->spins))
      rc = nsed_error_set(err, NSED_ERR_NOMEM, "%s: out of memory for %ld contacts", path, nc);
  }
  if (!rc) rc = expect_word(&t, "G", err);
  for (size_t k = 0; !rc && k < n * n; k++) rc = read_number(&t, "entry of G (column-major)", (long)k, &out->G[k], err);
  if (!rc) rc = expect_word(&t, "b", err);
  for (size_t k = 0; !rc && k < n; k++) rc = read_number(&t, "entry of b", (long)k, &out->b[k], err);
  for (long i = 0; !rc && i < nc; i++) rc = read_contact(&t, i, out->impact, &out->contacts[i], err);
  for (long k = 0; !rc && k < nw; k++) rc = read_spin(&t, k, nc, &out->spins[k], err);
  if (!rc) {
    char tok[64];
    int line = 0;
    if (nsedi_text_next(&t, tok, sizeof tok, &line))
      rc = nsed_error_set(err, NSED_ERR_INPUT, "%s:%d: '%s' after the last %s", path, line, tok,
                          nw ? "spin" : "contact");
  }
  nsedi_text_free(&t);
  if (rc) {
    nsed_contact_problem_file_free(out);
    return rc;
  }
  out->problem = (nsed_contact_problem){.nc = (int)nc, .G = out->G, .b = out->b,
                                        .contacts = out->contacts, .nw = (int)nw, .spins = out->spins};
  return NSED_OK;
}

int nsed_contact_problem_write(const char *path, const nsed_contact_problem *p, int impact,
                               const char *comment, nsed_error *err) {
  if (!p || p->nc < 1 || p->nw < 0 || (p->nw > 0 && !p->spins) || !p->G || !p->b || !p->contacts)
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: no contact problem to write", path);
  FILE *f = NULL;
  char *tmp = NULL;
  int rc = nsedi_text_create(path, &f, &tmp, err);
  if (rc) return rc;
  size_t n = (size_t)(3 * p->nc + p->nw);
  int bad = 0;
  /* each line of the comment as a comment line */
  for (const char *c = comment; c && *c && !bad;) {
    size_t len = strcspn(c, "\n");
    bad = fprintf(f, "# %.*s\n", (int)len, c) < 0;
    c += len + (c[len] == '\n');
  }
  bad = bad || fprintf(f, "nsed-contact-problem %d\nlevel %s\ncontacts %d\nspins %d\nG\n",
                       CP_FILE_VERSION, impact ? "impact" : "accel", p->nc, p->nw) < 0;
  for (size_t j = 0; j < n && !bad; j++) {
    for (size_t i = 0; i < n && !bad; i++) bad = fprintf(f, i ? " %a" : "%a", p->G[j * n + i]) < 0;
    bad = bad || fputc('\n', f) == EOF;
  }
  bad = bad || fputs("b\n", f) == EOF;
  for (size_t i = 0; i < n && !bad; i++) bad = fprintf(f, i ? " %a" : "%a", p->b[i]) < 0;
  bad = bad || fputc('\n', f) == EOF;
  for (int i = 0; i < p->nc && !bad; i++) {
    const nsed_cp_contact *c = &p->contacts[i];
    int k = c->kind >= 0 && c->kind < 3 ? (int)c->kind : 0;
    bad = fprintf(f, "contact %s %a %a %a %a %a\n", kind_names[k], c->mu, c->mu0, c->slip_dir[0],
                  c->slip_dir[1], c->restitution) < 0;
  }
  for (int k = 0; k < p->nw && !bad; k++) {
    const nsed_cp_spin *w = &p->spins[k];
    int kk = w->kind >= 0 && w->kind < 3 ? (int)w->kind : 0;
    bad = fprintf(f, "spin %d %s %a %a\n", w->contact, kind_names[kk], w->mu, w->sign) < 0;
  }
  return nsedi_text_commit(f, tmp, path, bad, err);
}
