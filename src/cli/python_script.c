/* nsed's Python scripts run with Debian's python3. A script is looked up
 * next to the sources when this nsed runs from its build tree, and in
 * DATADIR/nsed when installed (python/meson.build installs it there). The
 * scripts import the package nsed: in the source tree it sits next to the
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

#include "nsed_paths.h"
#include "python_script.h"

/* The interpreter's side: check the imports first so that a missing
 * matplotlib gets nsed's one-sentence message (exit 97) instead of a
 * traceback, then run the script as __main__ with its own arguments.
 * argv[1] lists the modules to import, argv[2] is the directory of the
 * installed package ("" in the build tree). */
static const char launcher[] =
    "import importlib, os, runpy, sys\n"
    "try:\n"
    "    for name in sys.argv[1].split(','):\n"
    "        importlib.import_module(name.strip())\n"
    "except ImportError:\n"
    "    sys.exit(97)\n"
    "package_dir = sys.argv[2]\n"
    "sys.argv = sys.argv[3:]\n"
    "sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))\n"
    "if package_dir:\n"
    "    sys.path.insert(1, package_dir)\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n";

#define MISSING_MODULE 97

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

/* Find the script name into path (PATH_MAX bytes); *installed says whether
 * it is the installed one. The build tree wins only for the binary that
 * lives in it, so an installed nsed never picks up a source checkout that
 * happens to exist. */
static int find_script(const char *name, char *path, int *installed) {
  char dir[PATH_MAX], build[PATH_MAX];
  *installed = 1;
  if (exe_dir(dir) == 0) {
    if (realpath(NSED_BUILD_CLI_DIR, build) && !strcmp(dir, build)) {
      snprintf(path, PATH_MAX, "%s/%s", NSED_SOURCE_PYTHON_DIR, name);
      *installed = 0;
      return is_file(path) ? 0 : -1;
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
      int n = snprintf(path, PATH_MAX, "%s/%s%s/%s", dir, up, NSED_PLOT_DATADIR, name);
      if (n > 0 && n < PATH_MAX && is_file(path)) return 0;
    }
  }
  if (NSED_PLOT_DATADIR[0] == '/')
    snprintf(path, PATH_MAX, "%s/%s", NSED_PLOT_DATADIR, name);
  else
    snprintf(path, PATH_MAX, "%s/%s/%s", NSED_PREFIX, NSED_PLOT_DATADIR, name);
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

int nsedi_run_python_script(const char *cmd, const char *script, const char *imports,
                            const char *package, char *const args[], int quiet) {
  const char *python = getenv("NSED_PYTHON");
  if (!python || !*python) python = "/usr/bin/python3";
  if (access(python, X_OK) != 0) {
    fprintf(stderr, "%s: %s not found: install the Debian package python3.\n", cmd, python);
    return 2;
  }
  char path[PATH_MAX];
  int installed;
  if (find_script(script, path, &installed) != 0) {
    fprintf(stderr, "%s: the script %s is missing: `meson install` puts it in %s/%s.\n", cmd,
            script, NSED_PREFIX, NSED_PLOT_DATADIR);
    return 2;
  }
  char *argv[32];
  int n = 0;
  argv[n++] = (char *)python;
  argv[n++] = "-c";
  argv[n++] = (char *)launcher;
  argv[n++] = (char *)imports;
  argv[n++] = installed ? NSED_PYTHON_DIR : "";
  argv[n++] = path;
  for (int i = 0; args[i] && n < 31; i++) argv[n++] = args[i];
  argv[n] = NULL;
  int st = spawn_wait(argv, quiet);
  if (st == 0) return 0;
  if (st == MISSING_MODULE) {
    fprintf(stderr, "%s: %s cannot import %s: install the Debian package %s.\n", cmd, python,
            imports, package);
    return 2;
  }
  if (st == 127) {
    fprintf(stderr, "%s: cannot run %s: install the Debian package python3.\n", cmd, python);
    return 2;
  }
  if (st == 2) return 2; /* the script named the bad input already */
  fprintf(stderr, "%s: %s exited with %d\n", cmd, path, st);
  return 1;
}
