/* Result writers: the observer that streams a run into trajectory.csv,
 * contacts.csv and events.csv (formats in docs/problem-format.md,
 * "Outputs"), and its HDF5 twin results.h5 (writer_hdf5.c, docs/cli.md).
 * Doubles are printed with %.17g so that equal runs give byte-identical
 * files, and HDF5 stores the same doubles bit for bit. */
#ifndef NSEDI_WRITER_H
#define NSEDI_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include "nsed/io.h"
#include "nsed/simulate.h"
#include "row_rule.h"

/* The 13 per-body columns (BODY.x ... BODY.wz), in the order of
 * nsed_data_body_state: the CSV header and the HDF5 `columns` attribute
 * must name them identically. */
extern const char *const nsedi_body_fields[13];

/* What a run records besides its samples and events. CSV keeps this in
 * summary.json only; HDF5 also stores it in results.h5's /metadata. */
typedef struct {
  const char *problem_path;   /* may be NULL */
  const char *problem_text;   /* may be NULL */
  size_t problem_len;
  const char *sha256;         /* hex, or NULL */
  const char *const *overrides;
  int noverrides;
  int status;                 /* the simulation's status */
  const char *summary_json;   /* the text of summary.json */
} nsedi_meta;

/* One interface for every result format, so that run.c never knows which
 * one it is writing: the observer callbacks plus close. */
typedef struct {
  void *self;
  int (*sample)(void *self, const nsed_model *m, const nsed_data *d, nsed_sample_reason why);
  int (*event)(void *self, const nsed_model *m, const nsed_data *d, const nsed_event *ev);
  /* Complete the files (meta NULL: the run is abandoned, only release),
   * free self and report the first write error, if any. */
  int (*close)(void *self, const nsedi_meta *meta, nsed_error *err);
} nsedi_sink;

/* Create the files of format f in dir (NSED_ERR_INPUT if this build cannot
 * write f). On failure nothing is left open. */
int nsedi_sink_open(nsedi_sink *s, nsed_output_format f, const char *dir, const nsed_model *m,
                    nsed_error *err);

#ifdef NSED_HAVE_HDF5
/* results.h5 (writer_hdf5.c), with the nsedi_sink callbacks' signatures. */
typedef struct nsedi_h5writer nsedi_h5writer;
int nsedi_h5writer_open(nsedi_h5writer **w, const char *dir, const nsed_model *m, nsed_error *err);
int nsedi_h5writer_sample(void *w, const nsed_model *m, const nsed_data *d, nsed_sample_reason why);
int nsedi_h5writer_event(void *w, const nsed_model *m, const nsed_data *d, const nsed_event *ev);
int nsedi_h5writer_close(void *w, const nsedi_meta *meta, nsed_error *err);
/* The linked HDF5 library's version, "1.10.8". */
const char *nsedi_hdf5_version(char *buf, size_t size);
#endif

typedef struct {
  FILE *traj, *contacts, *events;
  int nbody, ncontact;
  nsedi_rows kept;        /* which samples are rows (row_rule.h) */
  long rows;
  int io_errno;           /* first write error (0: none) */
  const char *io_file;    /* the file it happened in */
} nsedi_writer;

/* Create the three CSV files in dir and write their headers. */
int nsedi_writer_open(nsedi_writer *w, const char *dir, const nsed_model *m, nsed_error *err);

/* Observer callbacks (ctx is the writer). */
int nsedi_writer_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why);
int nsedi_writer_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev);

/* Flush and close everything; reports the first write error, if any. Safe
 * to call on a partially opened writer. */
int nsedi_writer_close(nsedi_writer *w, nsed_error *err);

/* summary.json's top-level keys in the order nsed_summary_json writes
 * them, NULL-terminated (sweep files tabulate them; tests/io/test_recorder.c
 * checks the two agree). */
extern const char *const nsedi_summary_keys[];

/* summary.json's "contact_laws" (each contact's law, parameters and the
 * parameters it ignores) and "geometry" (the floor and each body's shape,
 * what `nsed view` draws) values of m. */
void nsedi_summary_contact_laws(FILE *f, const nsed_model *m);
void nsedi_summary_geometry(FILE *f, const nsed_model *m);

/* Write text (nsed_summary_json's) as dir/summary.json. */
int nsedi_summary_write(const char *dir, const char *text, nsed_error *err);

#endif
