/* nsed plot: figures of a result directory, drawn by python/nsed_plot.py
 * with Debian's python3 (numpy, matplotlib). The script is looked up next
 * to the sources when this nsed runs from its build tree, and in
 * DATADIR/nsed when installed (python/meson.build installs it there). The
 * script imports the package nsed: in the source tree it sits next to the
 * script; installed, it is in python3's site directory for this prefix,
 * which a python3 only searches when the prefix is its own, so the
 * launcher adds it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "nsed_paths.h"
#include "plot.h"

static const char usage[] =
    "usage: nsed plot RESULTDIR [--out DIR] [--format png|svg|pdf] [--dpi N] [--quiet]\n"
    "\n"
    "Draw the figures of a result directory written by `nsed run` (trajectory,\n"
    "contact forces with stick/slip/open shading, slip speed, event timeline,\n"
    "velocities; docs/plotting.md) with python/nsed_plot.py and list them.\n"
    "\n"
    "  --out DIR            where the figures go (default RESULTDIR/plots)\n"
    "  --format FMT         png (default), svg or pdf\n"
    "  --dpi N              resolution of png figures (default 120)\n"
    "  -q, --quiet          do not list the written files\n"
    "  -h, --help           this help\n"
    "\n"
    "Needs /usr/bin/python3 with matplotlib (Debian package python3-matplotlib);\n"
    "the environment variable NSED_PYTHON names another interpreter.\n"
    "Exit status: 0 plotted, 1 the plotting failed, 2 bad input or usage,\n"
    "or python3 / matplotlib missing.\n";

/* The interpreter's side: check the imports first so that a missing
 * matplotlib gets nsed's one-sentence message (exit 97) instead of a
 * traceback, then run the script as __main__ with its own arguments.
 * argv[1] is the directory of the installed package ("" in the build tree). */
static const char launcher[] =
    "import os, runpy, sys\n"
    "try:\n"
    "    import numpy, matplotlib\n"
    "except ImportError:\n"
    "    sys.exit(97)\n"
    "package_dir = sys.argv[1]\n"
    "sys.argv = sys.argv[2:]\n"
    "sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))\n"
    "if package_dir:\n"
    "    sys.path.insert(1, package_dir)\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n";

#define MISSING_MATPLOTLIB 97

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Directory of this executable, resolved (so that a symlink in PATH still
 * finds the real tree). */
static int exe_dir(char dir[PATH_MAX]) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return -1;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash) return -1;
  *slash = '\0';
  return realpath(exe, dir) ? 0 : -1;
}

/* Find nsed_plot.py into path (PATH_MAX bytes); *installed says whether
 * it is the installed one. The build tree wins only for the binary that
 * lives in it, so an installed nsed never picks up a source checkout that
 * happens to exist. */
static int find_script(char *path, int *installed) {
  char dir[PATH_MAX], build[PATH_MAX];
  *installed = 1;
  if (exe_dir(dir) == 0) {
    if (realpath(NSED_BUILD_CLI_DIR, build) && !strcmp(dir, build) &&
        is_file(NSED_SOURCE_PLOT_SCRIPT)) {
      snprintf(path, PATH_MAX, "%s", NSED_SOURCE_PLOT_SCRIPT);
      *installed = 0;
      return 0;
    }
    /* Installed: BINDIR/../DATADIR/nsed relative to the executable, so a
     * moved prefix still works; bindir and datadir are relative to the
     * prefix unless configured as absolute paths. */
    const char *bindir = NSED_BINDIR;
    if (bindir[0] != '/' && NSED_PLOT_DATADIR[0] != '/') {
      char up[256] = "";
      size_t len = 0;
      for (const char *p = bindir; *p; p++)
        if ((p == bindir || p[-1] == '/') && *p != '/' && len + 4 < sizeof up) {
          memcpy(up + len, "../", 4);
          len += 3;
        }
      int n = snprintf(path, PATH_MAX, "%s/%s%s/nsed_plot.py", dir, up, NSED_PLOT_DATADIR);
      if (n > 0 && n < PATH_MAX && is_file(path)) return 0;
    }
  }
  if (NSED_PLOT_DATADIR[0] == '/')
    snprintf(path, PATH_MAX, "%s/nsed_plot.py", NSED_PLOT_DATADIR);
  else
    snprintf(path, PATH_MAX, "%s/%s/nsed_plot.py", NSED_PREFIX, NSED_PLOT_DATADIR);
  return is_file(path) ? 0 : -1;
}

/* Run argv[0] with argv; the child's stdout goes to /dev/null if quiet.
 * Returns its exit status, or -1 if it could not be started or died. */
static int spawn_wait(char *const argv[], int quiet) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (quiet) {
      int fd = open("/dev/null", O_WRONLY);
      if (fd >= 0) {
        if (dup2(fd, STDOUT_FILENO) < 0) _exit(126);
        close(fd);
      }
    }
    execv(argv[0], argv);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int nsedi_plot_results(const char *result_dir, const char *out_dir, const char *format,
                       const char *dpi, int quiet) {
  const char *python = getenv("NSED_PYTHON");
  if (!python || !*python) python = "/usr/bin/python3";
  if (access(python, X_OK) != 0) {
    fprintf(stderr, "nsed plot: %s not found: install the Debian package python3.\n", python);
    return 2;
  }
  char script[PATH_MAX];
  int installed;
  if (find_script(script, &installed) != 0) {
    fprintf(stderr, "nsed plot: the plotting script nsed_plot.py is missing: `meson install` "
                    "puts it in %s/%s.\n",
            NSED_PREFIX, NSED_PLOT_DATADIR);
    return 2;
  }
  /* An HDF5 result has no CSV files, which is what the script reads. */
  char csv[PATH_MAX + 32], h5[PATH_MAX + 32];
  snprintf(csv, sizeof csv, "%s/trajectory.csv", result_dir);
  snprintf(h5, sizeof h5, "%s/results.h5", result_dir);
  if (!is_file(csv) && is_file(h5)) {
    fprintf(stderr, "nsed plot: %s holds results.h5 but no CSV files, and the plots are drawn "
                    "from the CSV files: run again with --format csv.\n",
            result_dir);
    return 2;
  }
  char *argv[16];
  int n = 0;
  argv[n++] = (char *)python;
  argv[n++] = "-c";
  argv[n++] = (char *)launcher;
  argv[n++] = installed ? NSED_PYTHON_DIR : "";
  argv[n++] = script;
  argv[n++] = (char *)result_dir;
  if (out_dir) {
    argv[n++] = "--out";
    argv[n++] = (char *)out_dir;
  }
  if (format) {
    argv[n++] = "--format";
    argv[n++] = (char *)format;
  }
  if (dpi) {
    argv[n++] = "--dpi";
    argv[n++] = (char *)dpi;
  }
  argv[n] = NULL;
  int st = spawn_wait(argv, quiet);
  if (st == 0) return 0;
  if (st == MISSING_MATPLOTLIB) {
    fprintf(stderr, "nsed plot: %s cannot import matplotlib and numpy: install the Debian "
                    "package python3-matplotlib.\n",
            python);
    return 2;
  }
  if (st == 127) {
    fprintf(stderr, "nsed plot: cannot run %s: install the Debian package python3.\n", python);
    return 2;
  }
  if (st == 2) return 2; /* the script named the bad input already */
  fprintf(stderr, "nsed plot: plotting %s failed (%s exited with %d)\n", result_dir, script, st);
  return 1;
}

static int need_value(int i, int argc, char **argv) {
  if (i + 1 < argc) return 0;
  fprintf(stderr, "nsed plot: %s needs a value\n(nsed plot --help for details)\n", argv[i]);
  return 2;
}

int nsedi_cmd_plot(int argc, char **argv) {
  const char *dir = NULL, *out = NULL, *format = NULL, *dpi = NULL;
  int quiet = 0;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      fputs(usage, stdout);
      return 0;
    } else if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) {
      quiet = 1;
    } else if (!strcmp(s, "--out") || !strcmp(s, "-o")) {
      if (need_value(i, argc, argv)) return 2;
      out = argv[++i];
    } else if (!strncmp(s, "--out=", 6)) {
      out = s + 6;
    } else if (!strcmp(s, "--format")) {
      if (need_value(i, argc, argv)) return 2;
      format = argv[++i];
    } else if (!strncmp(s, "--format=", 9)) {
      format = s + 9;
    } else if (!strcmp(s, "--dpi")) {
      if (need_value(i, argc, argv)) return 2;
      dpi = argv[++i];
    } else if (!strncmp(s, "--dpi=", 6)) {
      dpi = s + 6;
    } else if (s[0] == '-' && s[1]) {
      fprintf(stderr, "nsed plot: unknown option '%s'\n(nsed plot --help for details)\n", s);
      return 2;
    } else if (!dir) {
      dir = s;
    } else {
      fprintf(stderr, "nsed plot: one result directory at a time ('%s' and '%s')\n", dir, s);
      return 2;
    }
  }
  if (!dir) {
    fprintf(stderr, "nsed plot: no result directory given\n(nsed plot --help for details)\n");
    return 2;
  }
  if (format && strcmp(format, "png") && strcmp(format, "svg") && strcmp(format, "pdf")) {
    fprintf(stderr, "nsed plot: --format expects png, svg or pdf, got '%s'\n", format);
    return 2;
  }
  if (dpi) {
    char *end;
    long v = strtol(dpi, &end, 10);
    if (*end || end == dpi || v <= 0 || v > 10000) {
      fprintf(stderr, "nsed plot: --dpi expects a positive integer, got '%s'\n", dpi);
      return 2;
    }
  }
  return nsedi_plot_results(dir, out, format, dpi, quiet);
}
