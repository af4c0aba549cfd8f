#include "outdir.h"

#include "nsed/io.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void nsedi_remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    DIR *dir = opendir(path);
    if (dir) {
      struct dirent *e;
      while ((e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        size_t l = strlen(path) + strlen(e->d_name) + 2;
        char *child = malloc(l);
        if (!child) continue;
        snprintf(child, l, "%s/%s", path, e->d_name);
        nsedi_remove_tree(child);
        free(child);
      }
      closedir(dir);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

/* mkdir -p of every directory above path. */
static int make_parents(const char *path, nsed_error *err) {
  char *p = strdup(path);
  if (!p) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  int rc = NSED_OK;
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      rc = nsed_error_set(err, NSED_ERR_IO, "cannot create directory %s: %s", p, strerror(errno));
      break;
    }
    *s = '/';
  }
  free(p);
  return rc;
}

/* 1 if dir is empty or holds summary.json (an nsed result), else 0. */
static int replaceable(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int entries = 0, summary = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    entries++;
    if (!strcmp(e->d_name, "summary.json")) summary = 1;
  }
  closedir(d);
  return entries == 0 || summary;
}

int nsedi_outdir_begin(const char *outdir, char **tmpdir, nsed_error *err) {
  *tmpdir = NULL;
  if (!outdir || !*outdir) return nsed_error_set(err, NSED_ERR_INPUT, "no output directory given");
  struct stat st;
  if (stat(outdir, &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      return nsed_error_set(err, NSED_ERR_INPUT, "%s exists and is not a directory", outdir);
    if (!replaceable(outdir))
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "%s exists and is not an nsed result directory (no summary.json): "
                            "refusing to replace it; remove it or choose another -o", outdir);
  }
  int rc = make_parents(outdir, err);
  if (rc) return rc;
  size_t l = strlen(outdir) + 16;
  char *t = malloc(l);
  if (!t) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  snprintf(t, l, "%s.tmp-XXXXXX", outdir);
  if (!mkdtemp(t)) {
    rc = nsed_error_set(err, NSED_ERR_IO, "cannot create %s: %s", t, strerror(errno));
    free(t);
    return rc;
  }
  *tmpdir = t;
  return NSED_OK;
}

int nsedi_outdir_commit(const char *outdir, const char *tmpdir, nsed_error *err) {
  struct stat st;
  char *old = NULL;
  if (stat(outdir, &st) == 0) {
    size_t l = strlen(outdir) + 16;
    old = malloc(l);
    if (!old) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
    /* mkdtemp reserves a unique name; rename() then replaces that empty
     * directory with the old result in one step. */
    snprintf(old, l, "%s.old-XXXXXX", outdir);
    if (!mkdtemp(old)) {
      int rc = nsed_error_set(err, NSED_ERR_IO, "cannot create %s: %s", old, strerror(errno));
      free(old);
      return rc;
    }
    if (rename(outdir, old) != 0) {
      int rc = nsed_error_set(err, NSED_ERR_IO, "cannot move the old %s aside: %s", outdir,
                              strerror(errno));
      rmdir(old);
      free(old);
      return rc;
    }
  }
  if (rename(tmpdir, outdir) != 0) {
    int rc = nsed_error_set(err, NSED_ERR_IO, "cannot rename %s to %s: %s", tmpdir, outdir,
                            strerror(errno));
    if (old) rename(old, outdir); /* put the old result back rather than lose it */
    free(old);
    return rc;
  }
  if (old) {
    nsedi_remove_tree(old);
    free(old);
  }
  return NSED_OK;
}

/* 1 if the last component of path is NAME.tmp-XXXXXX or NAME.old-XXXXXX
 * (mkdtemp's six characters) with a non-empty NAME. */
static int leftover_name(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  if (n < 1 + 5 + 6) return 0;
  const char *tag = base + n - 11;
  return !strncmp(tag, ".tmp-", 5) || !strncmp(tag, ".old-", 5);
}

int nsed_outdir_remove_leftover(const char *path, nsed_error *err) {
  if (!path || !leftover_name(path))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s is not a leftover of an nsed run (OUTDIR.tmp-XXXXXX or "
                          "OUTDIR.old-XXXXXX): not removed", path ? path : "(null)");
  struct stat st;
  if (lstat(path, &st) != 0)
    return errno == ENOENT ? NSED_OK
                           : nsed_error_set(err, NSED_ERR_IO, "%s: %s", path, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s is not a directory: not removed", path);
  nsedi_remove_tree(path);
  if (lstat(path, &st) == 0)
    return nsed_error_set(err, NSED_ERR_IO, "%s could not be removed completely", path);
  return NSED_OK;
}
