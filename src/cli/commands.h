/* Subcommands of the nsed program; each returns the process exit status
 * (0 success, 1 failed computation, 2 bad input or usage). argv[0] is the
 * subcommand's name. */
#ifndef NSED_CLI_COMMANDS_H
#define NSED_CLI_COMMANDS_H

/* nsed lcp FILE...: solve LCPs in Siconos' text format and report each. */
int nsedi_cmd_lcp(int argc, char **argv);

#endif
