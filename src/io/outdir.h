/* Atomic output directories: results are written into a temporary sibling
 * "OUTDIR.tmp-XXXXXX" and renamed to OUTDIR only when complete, so a reader
 * never sees half a result and a crash leaves the previous result intact. */
#ifndef NSEDI_OUTDIR_H
#define NSEDI_OUTDIR_H

#include "nsed/status.h"

/* Check that outdir can be (re)placed, create its parent directories and the
 * temporary directory (mode 0777 less the umask); *tmpdir (malloc'd)
 * receives its path. An existing outdir is only ever replaced if it is empty
 * or an nsed result holding nothing else (summary.json, the files a run
 * writes, a plots/ directory of figures), so a rerun never deletes a file
 * the user put there and `-o ~` cannot wipe a home directory. */
int nsedi_outdir_begin(const char *outdir, char **tmpdir, int *lock, nsed_error *err);

/* Release the lock nsedi_outdir_begin took on the temporary directory (after
 * the commit or the removal). Siblings OUTDIR.tmp-XXXXXX that no run holds,
 * older than a minute and holding only nsed's files, are the leftovers of
 * killed runs: nsedi_outdir_begin removes them. */
void nsedi_outdir_release(int lock);

/* Rename tmpdir to outdir; an existing outdir is moved aside first and
 * removed only after the new one is in place. */
int nsedi_outdir_commit(const char *outdir, const char *tmpdir, nsed_error *err);

/* Remove a directory tree (the temporary directory of a failed write). */
void nsedi_remove_tree(const char *path);

#endif
