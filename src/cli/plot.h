/* Plotting a result directory with python/nsed_plot.py, shared by
 * `nsed plot` and `nsed run --plot`. */
#ifndef NSED_CLI_PLOT_H
#define NSED_CLI_PLOT_H

/* Run the plotting script on result_dir (figures into out_dir, NULL:
 * result_dir/plots, in format "png", "svg" or "pdf", NULL: png; dpi NULL:
 * the script's default). quiet: do not list the written files. Returns the
 * exit status: 0 plotted, 1 the script failed, 2 bad input or python3 /
 * matplotlib missing (said in one sentence naming the Debian package). */
int nsedi_plot_results(const char *result_dir, const char *out_dir, const char *format,
                       const char *dpi, int quiet);

#endif
