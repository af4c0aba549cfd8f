/* nsed: the command-line door to the library. Dispatches to one file per
 * subcommand (src/cli/cmd_*.c). Exit status: 0 success, 1 a computation
 * failed, 2 bad input or usage, 3 the output could not be written. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nsed/version.h"

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} nsed_command;

static const nsed_command commands[] = {
    {"run", nsedi_cmd_run, "simulate a problem file, write trajectory, contacts, events, summary"},
    {"validate", nsedi_cmd_validate, "check a problem file and print the expanded model"},
    {"lcp", nsedi_cmd_lcp, "solve LCP files (Siconos text format) and report each solve"},
    {"cp", nsedi_cmd_cp, "solve event problems in contact-problem files (a failed run's)"},
    {"sweep", nsedi_cmd_sweep, "run a grid or list of overrides of a problem, tabulate metrics"},
    {"plot", nsedi_cmd_plot, "draw the figures of a result directory (python3, matplotlib)"},
    {"view", nsedi_cmd_view, "write a 3D page that animates a result directory (three.js)"},
    {"info", nsedi_cmd_info, "version, linked libraries and build options"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: nsed COMMAND [ARGS]   (nsed COMMAND --help for details)\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
}

extern void openblas_set_num_threads(int n);
/* OpenBLAS's pthread build starts its workers when it loads, before main;
 * idle, each spins on sched_yield for about 2^28 cycles before it sleeps:
 * 0.1 s of the other core and 0.1 s of system time per run (measured on
 * the 100-body vehicle, 0.5 units). Weak: another BLAS need not have it. */
extern int blas_thread_shutdown_(void) __attribute__((weak));

int main(int argc, char **argv) {
  /* nsed's dense systems are small: OpenBLAS threads make them slower
   * (notes/dependencies.md §5) and change the rounding, hence the results'
   * last bits. One thread unless the user asks otherwise. */
  if (!getenv("OPENBLAS_NUM_THREADS")) {
    openblas_set_num_threads(1);
    if (blas_thread_shutdown_) blas_thread_shutdown_();
  }
  /* A file-size limit (ulimit -f) must end in a write error that nsed
   * reports and cleans up after, not in a kill by SIGXFSZ. */
  signal(SIGXFSZ, SIG_IGN);
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("nsed %s\n", nsed_version());
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "nsed: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
