/* Subcommands of the nsed program; each returns the process exit status
 * (0 success, 1 failed computation, 2 bad input or usage, 3 the output
 * could not be written). argv[0] is the subcommand's name. */
#ifndef NSED_CLI_COMMANDS_H
#define NSED_CLI_COMMANDS_H

#include "nsed/complementarity.h"

/* The exit status for a library status code that ends a command:
 * NSED_ERR_INPUT 2, NSED_ERR_IO 3, any other failure 1, NSED_OK 0. */
int nsedi_exit_status(int status);

/* nsed lcp FILE...: solve LCPs in Siconos' text format and report each. */
int nsedi_cmd_lcp(int argc, char **argv);

/* The LCP path named auto, siconos, nsed or enum (the --path of nsed lcp
 * and nsed cp) into *path: 1, or 0 for another name. */
int nsedi_lcp_path_named(const char *name, nsed_lcp_path *path);

/* nsed cp FILE...: solve event problems in contact-problem files and report each. */
int nsedi_cmd_cp(int argc, char **argv);

/* nsed run PROBLEM.yaml [-o OUTDIR] [--set key=value ...] [--quiet]. */
int nsedi_cmd_run(int argc, char **argv);

/* nsed validate PROBLEM.yaml [--set key=value ...]: check and print the expanded model. */
int nsedi_cmd_validate(int argc, char **argv);

/* nsed sweep SWEEP.yaml -o DIR [--jobs N] [--shard K/N] [--quiet]: run a grid or
 * list of overrides, one result directory per point, a table (docs/sweeps.md). */
int nsedi_cmd_sweep(int argc, char **argv);

/* nsed plot RESULTDIR [--out DIR] [--format png|svg|pdf]: figures via python/nsed_plot.py. */
int nsedi_cmd_plot(int argc, char **argv);

/* nsed view RESULTDIR [--out FILE] [--follow BODY]: a 3D page via python/nsed_view.py. */
int nsedi_cmd_view(int argc, char **argv);

/* nsed info: version, linked library versions, build options. */
int nsedi_cmd_info(int argc, char **argv);

#endif
