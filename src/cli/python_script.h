/* Running one of nsed's Python scripts (python/nsed_plot.py,
 * python/nsed_view.py) with Debian's python3, shared by `nsed plot`,
 * `nsed run --plot` and `nsed view`. */
#ifndef NSED_CLI_PYTHON_SCRIPT_H
#define NSED_CLI_PYTHON_SCRIPT_H

/* Run script (a file name in python/, e.g. "nsed_view.py") with args
 * (NULL-terminated, not counting the script) under /usr/bin/python3 (or
 * $NSED_PYTHON). imports: the modules the script needs, comma-separated
 * ("numpy, matplotlib"), checked first so that a missing one gets one
 * sentence naming package (the Debian package) instead of a traceback.
 * cmd ("nsed plot") prefixes the messages. quiet: the script's stdout goes
 * to /dev/null. Returns the exit status: 0, 1 the script failed, 2 bad
 * input (said by the script) or python3 / a module / the script missing. */
int nsedi_run_python_script(const char *cmd, const char *script, const char *imports,
                            const char *package, char *const args[], int quiet);

#endif
