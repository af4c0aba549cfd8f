/* Unique sibling files and directories for atomic writes: PATH.TAG-XXXXXX,
 * created with the mode a plain open()/mkdir() would give (0666 / 0777 less
 * the umask), where mkstemp()/mkdtemp() would force 0600 / 0700. */
#ifndef NSED_CORE_FILES_H
#define NSED_CORE_FILES_H

/* Create the directory PATH.TAG-XXXXXX (six random [A-Za-z0-9]); *out
 * (malloc'd) receives its name. Returns 0, or -1 with errno set. */
int nsedi_make_unique_dir(const char *path, const char *tag, char **out);

/* Create and open for writing the file PATH.TAG-XXXXXX; *out (malloc'd)
 * receives its name. Returns the file descriptor, or -1 with errno set. */
int nsedi_make_unique_file(const char *path, const char *tag, char **out);

#endif
