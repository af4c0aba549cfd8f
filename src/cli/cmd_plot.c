/* nsed plot: figures of a result directory (CSV or HDF5), drawn by
 * python/nsed_plot.py with Debian's python3 (numpy, matplotlib). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "plot.h"
#include "python_script.h"

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

int nsedi_plot_results(const char *result_dir, const char *out_dir, const char *format,
                       const char *dpi, int quiet) {
  char *args[10];
  int n = 0;
  args[n++] = (char *)result_dir;
  if (out_dir) {
    args[n++] = "--out";
    args[n++] = (char *)out_dir;
  }
  if (format) {
    args[n++] = "--format";
    args[n++] = (char *)format;
  }
  if (dpi) {
    args[n++] = "--dpi";
    args[n++] = (char *)dpi;
  }
  args[n] = NULL;
  return nsedi_run_python_script("nsed plot", "nsed_plot.py", "numpy, matplotlib",
                                 "python3-matplotlib", args, quiet);
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
