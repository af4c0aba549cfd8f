/* nsed view: one self-contained HTML page that animates a result in 3D,
 * written by python/nsed_view.py (three.js from Debian's libjs-three
 * embedded in the page; docs/viewer.md). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "python_script.h"

static const char usage[] =
    "usage: nsed view RESULTDIR [--out FILE.html] [--follow BODY] [--quiet]\n"
    "\n"
    "Write one HTML file that shows the run of a result directory (CSV or HDF5)\n"
    "in 3D: every body with its shape, the floor, contact points coloured by mode,\n"
    "normal forces, a time slider, play/pause and speed, the events on a timeline\n"
    "(docs/viewer.md). The file works offline: open it in any browser.\n"
    "\n"
    "  --out FILE.html      where the page goes (default RESULTDIR/view.html)\n"
    "  --follow BODY        the camera follows BODY at first (default: fixed)\n"
    "  -q, --quiet          do not print the path written\n"
    "  -h, --help           this help\n"
    "\n"
    "Needs /usr/bin/python3 with numpy and three.js (Debian packages python3-numpy\n"
    "and libjs-three); NSED_PYTHON names another interpreter.\n"
    "Exit status: 0 written, 1 writing failed, 2 bad input or usage, or a\n"
    "package missing.\n";

static int need_value(int i, int argc, char **argv) {
  if (i + 1 < argc) return 0;
  fprintf(stderr, "nsed view: %s needs a value\n(nsed view --help for details)\n", argv[i]);
  return 2;
}

int nsedi_cmd_view(int argc, char **argv) {
  const char *dir = NULL, *out = NULL, *follow = NULL;
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
    } else if (!strcmp(s, "--follow")) {
      if (need_value(i, argc, argv)) return 2;
      follow = argv[++i];
    } else if (!strncmp(s, "--follow=", 9)) {
      follow = s + 9;
    } else if (s[0] == '-' && s[1]) {
      fprintf(stderr, "nsed view: unknown option '%s'\n(nsed view --help for details)\n", s);
      return 2;
    } else if (!dir) {
      dir = s;
    } else {
      fprintf(stderr, "nsed view: one result directory at a time ('%s' and '%s')\n", dir, s);
      return 2;
    }
  }
  if (!dir) {
    fprintf(stderr, "nsed view: no result directory given\n(nsed view --help for details)\n");
    return 2;
  }
  char *args[8];
  int n = 0;
  args[n++] = (char *)dir;
  if (out) {
    args[n++] = "--out";
    args[n++] = (char *)out;
  }
  if (follow) {
    args[n++] = "--follow";
    args[n++] = (char *)follow;
  }
  args[n] = NULL;
  return nsedi_run_python_script("nsed view", "nsed_view.py", "numpy", "python3-numpy", args,
                                 quiet);
}
