#include "outdir.h"

#include "files.h"
#include "nsed/io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
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

/* The entries an nsed result directory holds: what nsed_run_problem writes,
 * the page `nsed view` writes, and the figures directory that
 * `nsed run --plot` / `nsed plot` fill. */
static const char *const result_files[] = {"summary.json", "trajectory.csv", "contacts.csv",
                                           "events.csv", "steps.csv", "results.h5", "view.html",
                                           NSED_FAILED_PROBLEM_FILE};
static const char *const figures_dir = "plots";
static const char *const figure_suffixes[] = {".png", ".pdf", ".svg"};

static int has_suffix(const char *name, const char *suffix) {
  size_t n = strlen(name), k = strlen(suffix);
  return n > k && !strcmp(name + n - k, suffix);
}

/* 1 if every entry of the figures directory is a regular file with a figure
 * suffix; *foreign receives the first that is not. */
static int figures_only(const char *dir, char *foreign, size_t size) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int ok = 1;
  struct dirent *e;
  while (ok && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    int figure = 0;
    for (size_t i = 0; i < sizeof figure_suffixes / sizeof *figure_suffixes; i++)
      figure = figure || has_suffix(e->d_name, figure_suffixes[i]);
    size_t l = strlen(dir) + strlen(e->d_name) + 2;
    char *path = malloc(l);
    struct stat st;
    if (path) snprintf(path, l, "%s/%s", dir, e->d_name);
    if (!figure || !path || lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
      snprintf(foreign, size, "%s/%s", figures_dir, e->d_name);
      ok = 0;
    }
    free(path);
  }
  closedir(d);
  return ok;
}

/* 1 if dir may be replaced: empty, or an nsed result (summary.json) holding
 * nothing nsed did not write. Otherwise 0, with *foreign naming the first
 * entry that is not nsed's, left "" when the directory has no summary.json. */
static int scan(const char *dir, char *foreign, size_t size, int *entries_out, int *summary_out) {
  foreign[0] = '\0';
  DIR *d = opendir(dir);
  if (!d) return -1;
  int entries = 0, summary = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    entries++;
    if (!strcmp(e->d_name, "summary.json")) summary = 1;
    if (foreign[0]) continue; /* the first foreign entry is named; look on for summary.json */
    int known = 0;
    for (size_t i = 0; i < sizeof result_files / sizeof *result_files; i++)
      known = known || !strcmp(e->d_name, result_files[i]);
    if (!known && !strcmp(e->d_name, figures_dir)) {
      size_t l = strlen(dir) + strlen(figures_dir) + 2;
      char *plots = malloc(l);
      known = plots != NULL;
      if (plots) {
        snprintf(plots, l, "%s/%s", dir, figures_dir);
        known = figures_only(plots, foreign, size);
        free(plots);
      }
      if (!known && !foreign[0]) snprintf(foreign, size, "%s", figures_dir);
      continue;
    }
    if (!known) snprintf(foreign, size, "%s", e->d_name);
  }
  closedir(d);
  *entries_out = entries;
  *summary_out = summary;
  return 0;
}

static int replaceable(const char *dir, char *foreign, size_t size) {
  int entries, summary;
  if (scan(dir, foreign, size, &entries, &summary) != 0) return 0;
  if (!summary) foreign[0] = '\0';
  return entries == 0 || (summary && !foreign[0]);
}

/* A run holds an exclusive flock on its temporary directory until it ends
 * (the kernel drops it when the process dies, also by SIGKILL), so a
 * sibling OUTDIR.tmp-XXXXXX that nobody holds is what a killed run left. */
static int lock_dir(const char *path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -1;
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/* Remove the OUTDIR.tmp-XXXXXX siblings of outdir that killed runs left:
 * not locked by a live run, older than NSEDI_STALE_TMP_SECONDS (a run that
 * has created its directory but not yet locked it is younger), and holding
 * only files nsed writes, so nothing of the user's goes. */
#define NSEDI_STALE_TMP_SECONDS 60
static void remove_stale_tmpdirs(const char *outdir) {
  char *copy = strdup(outdir);
  if (!copy) return;
  char *slash = strrchr(copy, '/');
  const char *parent = slash ? (slash == copy ? "/" : copy) : ".";
  const char *base = slash ? slash + 1 : copy;
  if (slash) *slash = '\0';
  size_t blen = strlen(base);
  DIR *d = blen ? opendir(parent) : NULL;
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (strlen(e->d_name) != blen + 11 || strncmp(e->d_name, base, blen) ||
        strncmp(e->d_name + blen, ".tmp-", 5))
      continue;
    size_t l = strlen(parent) + strlen(e->d_name) + 2;
    char *path = malloc(l);
    if (!path) break;
    snprintf(path, l, "%s/%s", parent, e->d_name);
    struct stat st;
    int fd = -1;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
        time(NULL) - st.st_mtime > NSEDI_STALE_TMP_SECONDS && (fd = lock_dir(path)) >= 0) {
      char foreign[512];
      int entries, summary;
      if (scan(path, foreign, sizeof foreign, &entries, &summary) == 0 && !foreign[0])
        nsedi_remove_tree(path);
      close(fd);
    }
    free(path);
  }
  if (d) closedir(d);
  free(copy);
}

int nsedi_outdir_begin(const char *outdir, char **tmpdir, int *lock, nsed_error *err) {
  *tmpdir = NULL;
  *lock = -1;
  if (!outdir || !*outdir) return nsed_error_set(err, NSED_ERR_INPUT, "no output directory given");
  struct stat st;
  if (stat(outdir, &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      return nsed_error_set(err, NSED_ERR_INPUT, "%s exists and is not a directory", outdir);
    char foreign[512];
    if (!replaceable(outdir, foreign, sizeof foreign)) {
      if (foreign[0])
        return nsed_error_set(err, NSED_ERR_INPUT,
                              "%s holds %s, which nsed did not write: refusing to replace the "
                              "directory (a rerun replaces a result only when it holds nothing "
                              "else); move your files out or choose another -o",
                              outdir, foreign);
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "%s exists and is not an nsed result directory (no summary.json): "
                            "refusing to replace it; remove it or choose another -o", outdir);
    }
  }
  int rc = make_parents(outdir, err);
  if (rc) return rc;
  char *t = NULL;
  if (nsedi_make_unique_dir(outdir, "tmp", &t) != 0)
    return nsed_error_set(err, errno == ENOMEM ? NSED_ERR_NOMEM : NSED_ERR_IO,
                          "cannot create %s.tmp-XXXXXX: %s", outdir, strerror(errno));
  *tmpdir = t;
  /* -1 where the file system has no flock: then no run can lock it either,
   * and no run removes it. */
  *lock = lock_dir(t);
  remove_stale_tmpdirs(outdir);
  return NSED_OK;
}

void nsedi_outdir_release(int lock) {
  if (lock >= 0) close(lock);
}

int nsedi_outdir_commit(const char *outdir, const char *tmpdir, nsed_error *err) {
  struct stat st;
  char *old = NULL;
  if (stat(outdir, &st) == 0) {
    /* The check of nsedi_outdir_begin again: a file put there during the
     * run would be deleted with the old result. */
    char foreign[512];
    if (!replaceable(outdir, foreign, sizeof foreign))
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "%s changed during the run and holds %s, which nsed did not write: "
                            "the new result was not put in its place; move your files out and "
                            "run again", outdir, foreign[0] ? foreign : "files but no summary.json");
    /* A new empty directory reserves a unique name; rename() then replaces
     * it with the old result in one step. */
    if (nsedi_make_unique_dir(outdir, "old", &old) != 0)
      return nsed_error_set(err, errno == ENOMEM ? NSED_ERR_NOMEM : NSED_ERR_IO,
                            "cannot create %s.old-XXXXXX: %s", outdir, strerror(errno));
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
 * (six random characters) with a non-empty NAME. */
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
