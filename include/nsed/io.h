/* Problem files in, results out (docs/problem-format.md, docs/cli.md).
 *
 * A problem file is YAML; loading it parses it, applies `key=value`
 * overrides, validates every key (messages carry file:line:column and the key
 * path, e.g. "ball.yaml:7:11: bodies[2].mass: expected a positive number, got
 * -1") and builds a finalized nsed_model. Running writes trajectory.csv,
 * contacts.csv, events.csv (or results.h5) and summary.json into a directory
 * that appears atomically, complete or not at all; or records the same rows
 * in memory (nsed_recorder) and gives summary.json's text
 * (nsed_summary_json), so that a binding needs no files.
 *
 * Plain C types only (no FILE*, no varargs) so that a cffi binding can call
 * every function here directly. */
#ifndef NSED_IO_H
#define NSED_IO_H

#include <signal.h>
#include <stddef.h>

#include "nsed/model.h"
#include "nsed/simulate.h"
#include "nsed/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest problem file accepted (bytes): anything bigger is a mistake, not a scene. */
#define NSED_PROBLEM_MAX_BYTES (16L * 1024 * 1024)

/* The file of a result directory that holds the event problem a failed run
 * could not solve (a contact-problem file, docs/complementarity.md). */
#define NSED_FAILED_PROBLEM_FILE "failed_event_problem.txt"

/* Read the problem file at path, apply the overrides ("bodies.ball.mass=2",
 * values parsed as YAML flow), validate and build a finalized model into
 * *out (free it with nsed_model_free). On error returns NSED_ERR_INPUT (or
 * NSED_ERR_IO if the file cannot be read) with every problem found listed
 * in err->message, one per line, and *out untouched. */
NSED_API int nsed_problem_load(const char *path, const char *const *overrides, int noverrides,
                      nsed_model **out, nsed_error *err);

/* As nsed_problem_load from len bytes of text; name is used in messages
 * (the file name, or e.g. "<string>"). */
NSED_API int nsed_problem_load_string(const char *text, size_t len, const char *name,
                             const char *const *overrides, int noverrides,
                             nsed_model **out, nsed_error *err);

/* Read a whole problem file into a NUL-terminated buffer *text (free() it)
 * of *len bytes; refuses files above NSED_PROBLEM_MAX_BYTES. */
NSED_API int nsed_problem_read_file(const char *path, char **text, size_t *len, nsed_error *err);

/* Progress report during a run (simulated time, target, events, wall time). */
typedef void (*nsed_progress_fn)(void *ctx, double t, double t_end, long events,
                                 double wall_seconds);

/* Result file formats (docs/cli.md, "Outputs"). */
typedef enum {
  NSED_FORMAT_CSV = 0,  /* trajectory.csv, contacts.csv, events.csv */
  NSED_FORMAT_HDF5 = 1  /* results.h5 (only if built with HDF5: nsed_format_available).
                         * Debian's serial HDF5 is not thread-safe: run at most one
                         * HDF5 run at a time in a process. */
} nsed_output_format;

/* 1 if this build can write format f (HDF5 is an optional dependency). */
NSED_API int nsed_format_available(nsed_output_format f);

/* How nsed_run_problem runs and what it records in summary.json. */
typedef struct {
  const char *problem_path;   /* recorded as "problem" (may be NULL) */
  const char *problem_text;   /* hashed into "problem_sha256"; NULL: hash the file at problem_path */
  size_t problem_len;         /* bytes of problem_text */
  const char *const *overrides; /* recorded as "overrides" */
  int noverrides;
  nsed_progress_fn progress;  /* may be NULL */
  void *progress_ctx;
  volatile sig_atomic_t *interrupt; /* set non-zero (e.g. from a signal handler) to stop the run */
  nsed_output_format format;  /* default NSED_FORMAT_CSV; summary.json is written either way */
} nsed_run_options;

/* Fill o with: no problem path or text, no overrides, no progress, no interrupt flag, CSV. */
NSED_API void nsed_run_options_default(nsed_run_options *o);

/* What a run reached (for messages; summary.json has it all). */
typedef struct {
  int status;          /* the simulation's status (NSED_OK, NSED_ERR_INTERRUPTED, ...) */
  double t_reached;    /* simulated time at the end (s) */
  long events;         /* events handled */
  double wall_seconds; /* wall time of the simulation */
  int written;         /* 1 if outdir now holds the complete result files */
  int failed_problem;  /* 1 if outdir holds failed_event_problem.txt: the event problem the
                          run could not solve (nsed_contact_problem_read reads it) */
} nsed_run_result;

/* Simulate m from its initial state to t_end and write the result files into
 * outdir, which is built as a sibling temporary directory and renamed into
 * place at the end (an existing outdir is replaced only then). If the
 * simulation fails or is interrupted the files up to that instant are still
 * completed, summary.json says "failed" or "interrupted" with the message,
 * and the simulation's status is returned. NSED_ERR_IO if the outputs cannot
 * be written (then no outdir is left behind); NSED_ERR_INPUT if outdir
 * exists and is neither empty nor an nsed result (it holds no summary.json),
 * or if opt->format is not available in this build (checked before anything
 * is created). opt and result may be NULL. */
NSED_API int nsed_run_problem(const nsed_model *m, const char *outdir, const nsed_run_options *opt,
                     nsed_run_result *result, nsed_error *err);

/* What this build of libnsed is and what it links (`nsed info`). */
typedef struct {
  const char *version;    /* nsed's, "0.1.0" (NSED_VERSION_STRING of the library) */
  const char *sundials;   /* SUNDIALS the library was built against, "6.4.1" */
  const char *siconos;    /* Siconos Numerics, "4.4" */
  const char *openblas;   /* OpenBLAS' configuration string, as the linked library reports it */
  char hdf5[32];          /* the linked HDF5's version, "" if built without HDF5 */
  const char *buildtype;  /* meson's buildtype, "debugoptimized" */
  const char *sanitize;   /* meson's b_sanitize, "none" or "address,undefined" */
  const char *glpk;       /* GLPK the library was built against (the LCP's mixed-integer search), "5.0"; NULL if built without */
} nsed_build_info;

/* Fill info with this build's versions and options. */
NSED_API void nsed_get_build_info(nsed_build_info *info);

/* Remove what a killed run left beside its result directory OUTDIR: path
 * must name a directory OUTDIR.tmp-XXXXXX or OUTDIR.old-XXXXXX (six
 * characters after the dash; nsed_run_problem's temporary and set-aside
 * directories). Anything else is left alone and NSED_ERR_INPUT returned. */
NSED_API int nsed_outdir_remove_leftover(const char *path, nsed_error *err);

/* The lower-case hexadecimal SHA-256 of len bytes into hex (65 bytes with the NUL). */
NSED_API void nsed_sha256_hex(const void *data, size_t len, char hex[65]);

/* ---- The summary of a run (summary.json) ---- */

/* What summary.json records about a run besides the model and the data. */
typedef struct {
  const char *problem_path;     /* "problem" (NULL: null) */
  const char *problem_sha256;   /* "problem_sha256", hex (NULL: null) */
  const char *const *overrides; /* "overrides", as given to nsed_problem_load */
  int noverrides;
  int status;                   /* the status nsed_simulate returned: "status", "status_code" */
  const char *message;          /* its error message: "message" unless status is NSED_OK */
  const char *failed_problem;   /* "failed_event_problem": the file holding the event problem
                                   the run could not solve (NULL: null) */
} nsed_summary_info;

/* The exact text of summary.json for a run of m whose data d is at the end
 * of the run, into *text (free it with nsed_free); info NULL records no
 * problem, no overrides and status NSED_OK. nsed_run_problem writes this
 * text, so an in-memory run and a run written to a directory summarise
 * alike. NSED_ERR_INPUT if m or d is NULL, NSED_ERR_NOMEM. */
NSED_API int nsed_summary_json(const nsed_model *m, const nsed_data *d, const nsed_summary_info *info,
                      char **text, nsed_error *err);

/* Free memory that nsed allocated for the caller (nsed_summary_json's text);
 * NULL is ignored. */
NSED_API void nsed_free(void *p);

/* ---- Recording a run in memory ---- */

/* Records a run's trajectory rows, contact rows and events in memory, the
 * rows the result writers keep (an output instant that repeats the row of
 * an event at the same time is recorded once), so that a caller gets the
 * arrays of trajectory.csv, contacts.csv and events.csv without files. One
 * recorder records one run; it belongs to the thread running it. */
typedef struct nsed_recorder nsed_recorder;

/* Columns of a recorded contact row, in the order of contacts.csv's numbers:
 * gap, lambda_n, lambda_t1, lambda_t2, slip_speed, point_x, point_y, point_z
 * (the contact point on the body, world), moment (the torsional moment about
 * the normal, N m). */
#define NSED_RECORDER_CONTACT_COLUMNS 9

/* Create a recorder for runs of m into *out (free it with
 * nsed_recorder_free). NSED_ERR_INPUT if m is NULL, NSED_ERR_NOMEM. */
NSED_API int nsed_recorder_create(const nsed_model *m, nsed_recorder **out, nsed_error *err);

/* Free a recorder and everything it recorded (set *r to NULL). */
NSED_API void nsed_recorder_free(nsed_recorder **r);

/* Pass the run's progress reports on to progress(ctx, ...) and stop the run
 * when *interrupt becomes non-zero; either may be NULL (the default). */
NSED_API void nsed_recorder_chain(nsed_recorder *r, nsed_progress_fn progress, void *ctx,
                         volatile sig_atomic_t *interrupt);

/* The observer to give nsed_simulate; it lives as long as r. When growing
 * its buffers fails the observer stops the run (nsed_simulate returns
 * NSED_ERR_IO) and nsed_recorder_status says NSED_ERR_NOMEM. */
NSED_API const nsed_observer *nsed_recorder_observer(const nsed_recorder *r);

/* NSED_OK, or NSED_ERR_NOMEM (with err's message) if recording failed. */
NSED_API int nsed_recorder_status(const nsed_recorder *r, nsed_error *err);

/* Trajectory rows recorded so far. */
NSED_API long nsed_recorder_rows(const nsed_recorder *r);

/* The trajectory: rows x (1 + 13 * nsed_model_nbody) doubles, row-major,
 * each row t then every body's nsed_data_body_state (trajectory.csv's
 * columns). NULL while there is no row; valid until r records more or is freed. */
NSED_API const double *nsed_recorder_trajectory(const nsed_recorder *r);

/* The contact rows: rows x nsed_model_ncontact x NSED_RECORDER_CONTACT_COLUMNS
 * doubles, contact c of trajectory row k at (k * ncontact + c) *
 * NSED_RECORDER_CONTACT_COLUMNS (their t is the trajectory row's). NULL while
 * there is none; valid as nsed_recorder_trajectory. */
NSED_API const double *nsed_recorder_contacts(const nsed_recorder *r);

/* The contacts' modes (nsed_mode values), rows x ncontact ints, indexed as
 * nsed_recorder_contacts without its columns. */
NSED_API const int *nsed_recorder_contact_modes(const nsed_recorder *r);

/* The contacts' spin modes (exact torsional friction: nsed_mode values,
 * OPEN without it), indexed as nsed_recorder_contact_modes. */
NSED_API const int *nsed_recorder_contact_spins(const nsed_recorder *r);

/* Events recorded so far (events.csv's rows, the failure row included). */
NSED_API long nsed_recorder_nevent(const nsed_recorder *r);

/* The events as the observer received them (path points to a static
 * string). NULL while there is none; valid as nsed_recorder_trajectory. */
NSED_API const nsed_event *nsed_recorder_events(const nsed_recorder *r);

#ifdef __cplusplus
}
#endif
#endif
