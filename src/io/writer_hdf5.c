/* results.h5: the run in one HDF5 file, laid out for h5py (docs/cli.md,
 * "HDF5 output"):
 *
 *   /trajectory  float64 [rows, 1 + 13 * bodies], attribute `columns` with
 *                the names of trajectory.csv's header (t, BODY.x, ...)
 *   /contacts/   one 1-D dataset per column of contacts.csv (float64, or
 *                UTF-8 strings for contact and mode); attribute `columns`
 *   /events/     likewise for events.csv (lcp_size and pivots int32)
 *   /metadata    attributes: problem, problem_text, problem_sha256,
 *                overrides, status, nsed/sundials/siconos/hdf5 versions,
 *                summary_json (the text of summary.json)
 *
 * The trajectory is one matrix because it is homogeneous (a body's state is
 * a column slice); contacts and events mix numbers and names, and separate
 * columns read in h5py as plain numpy arrays, which a compound type with
 * variable-length strings does not. Rows are the CSV rows, the same doubles
 * bit for bit. Datasets are chunked and extended as the run streams in, so
 * memory stays bounded on long runs. Object timestamps are off, so equal
 * runs give equal files. */
#include <hdf5.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/version.h"
#include "nsed_config.h"
#include "writer.h"

/* Rows buffered before a dataset is extended (and the 1-D chunk size). */
#define H5_BUF_ROWS 4096
#define MAX_COLS 13

typedef enum { COL_F64, COL_I32, COL_STR } col_kind;

typedef struct {
  const char *name;
  col_kind kind;
} col_spec;

static const col_spec contact_cols[] = {
    {"t", COL_F64},        {"contact", COL_STR},   {"mode", COL_STR},
    {"gap", COL_F64},      {"lambda_n", COL_F64},  {"lambda_t1", COL_F64},
    {"lambda_t2", COL_F64}, {"slip_speed", COL_F64}, {"point_x", COL_F64},
    {"point_y", COL_F64},  {"point_z", COL_F64},     {"moment", COL_F64},
    {"spin", COL_STR}};
static const col_spec event_cols[] = {
    {"t", COL_F64},        {"kind", COL_STR},   {"contact", COL_STR},
    {"from", COL_STR},     {"to", COL_STR},     {"lcp_size", COL_I32},
    {"pivots", COL_I32},   {"residual", COL_F64}, {"path", COL_STR},
    {"impulse_n", COL_F64}, {"impulse_t1", COL_F64}, {"impulse_t2", COL_F64}};

/* A table (group) of 1-D column datasets with a row buffer per column.
 * Strings point to names that outlive the run (model and static strings). */
typedef struct {
  const col_spec *spec;
  int ncol;
  hid_t group, ds[MAX_COLS];
  double *f64[MAX_COLS];
  int *i32[MAX_COLS];
  const char **str[MAX_COLS];
  size_t nbuf;   /* buffered rows */
  hsize_t rows;  /* rows in the file */
} table;

struct nsedi_h5writer {
  hid_t file, traj, str_type;
  H5E_auto2_t old_func; /* HDF5's error printer, restored on close */
  void *old_data;
  int nbody, ncontact;
  size_t ncols;            /* of the trajectory */
  hsize_t traj_rows;
  double *tbuf;            /* H5_BUF_ROWS/...: traj_cap rows of ncols */
  size_t tbuf_rows, traj_cap;
  nsedi_rows kept;         /* which samples are rows (row_rule.h) */
  table contacts, events;
  const char *failed;      /* first failed operation (NULL: none) */
};

static void fail(nsedi_h5writer *w, const char *what) {
  if (!w->failed) w->failed = what;
}

/* A dataset property list: chunked (extendible), shuffle+deflate when the
 * library has it (trajectories compress several-fold), no timestamps. */
static hid_t chunked(int rank, const hsize_t *chunk) {
  hid_t p = H5Pcreate(H5P_DATASET_CREATE);
  if (p < 0) return p;
  if (H5Pset_chunk(p, rank, chunk) < 0 || H5Pset_obj_track_times(p, 0) < 0) {
    H5Pclose(p);
    return -1;
  }
  if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
    if (H5Pset_shuffle(p) < 0 || H5Pset_deflate(p, 4) < 0) {
      H5Pclose(p);
      return -1;
    }
  }
  return p;
}

static hid_t group_create(hid_t loc, const char *name) {
  hid_t p = H5Pcreate(H5P_GROUP_CREATE);
  if (p < 0) return p;
  /* Creation order tracked: h5py lists the columns in the CSV's order. */
  hid_t g = H5Pset_obj_track_times(p, 0) < 0 ||
                    H5Pset_link_creation_order(p, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0
                ? -1
                : H5Gcreate2(loc, name, H5P_DEFAULT, p, H5P_DEFAULT);
  H5Pclose(p);
  return g;
}

/* Attribute `name` = n strings (n < 0: one scalar string). */
static int attr_strings(nsedi_h5writer *w, hid_t loc, const char *name, const char *const *s, int n) {
  hsize_t dim = n < 0 ? 1 : (hsize_t)n;
  hid_t sp = n < 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &dim, NULL);
  if (sp < 0) return -1;
  hid_t a = H5Acreate2(loc, name, w->str_type, sp, H5P_DEFAULT, H5P_DEFAULT);
  int rc = a < 0 ? -1 : 0;
  /* HDF5 rejects a NULL buffer even for zero elements. */
  const char *none = "";
  if (a >= 0 && H5Awrite(a, w->str_type, dim ? (const void *)s : (const void *)&none) < 0) rc = -1;
  if (a >= 0 && H5Aclose(a) < 0) rc = -1;
  H5Sclose(sp);
  return rc;
}

static int attr_string(nsedi_h5writer *w, hid_t loc, const char *name, const char *s) {
  return attr_strings(w, loc, name, &s, -1);
}

/* Append n rows from buf to the dataset ds (rank 1 or 2 with ncols), which
 * holds *rows rows so far. */
static int append(hid_t ds, hid_t memtype, const void *buf, hsize_t n, hsize_t ncols, int rank,
                  hsize_t *rows) {
  if (n == 0) return 0;
  hsize_t size[2] = {*rows + n, ncols}, start[2] = {*rows, 0}, count[2] = {n, ncols};
  if (H5Dset_extent(ds, size) < 0) return -1;
  hid_t fs = H5Dget_space(ds);
  if (fs < 0) return -1;
  hid_t ms = H5Screate_simple(rank, count, NULL);
  int rc = -1;
  if (ms >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
      H5Dwrite(ds, memtype, ms, fs, H5P_DEFAULT, buf) >= 0)
    rc = 0;
  if (ms >= 0) H5Sclose(ms);
  H5Sclose(fs);
  if (rc == 0) *rows += n;
  return rc;
}

static int table_open(nsedi_h5writer *w, table *t, const char *name, const col_spec *spec, int ncol) {
  memset(t, 0, sizeof *t);
  t->spec = spec;
  t->ncol = ncol;
  t->group = -1;
  for (int c = 0; c < ncol; c++) t->ds[c] = -1;
  if ((t->group = group_create(w->file, name)) < 0) return -1;
  const char *names[MAX_COLS];
  for (int c = 0; c < ncol; c++) names[c] = spec[c].name;
  if (attr_strings(w, t->group, "columns", names, ncol) < 0) return -1;
  hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = H5_BUF_ROWS;
  hid_t sp = H5Screate_simple(1, &zero, &unlimited);
  hid_t p = chunked(1, &chunk);
  int rc = sp < 0 || p < 0 ? -1 : 0;
  for (int c = 0; c < ncol && rc == 0; c++) {
    hid_t type = spec[c].kind == COL_F64   ? H5T_IEEE_F64LE
                 : spec[c].kind == COL_I32 ? H5T_STD_I32LE
                                           : w->str_type;
    t->ds[c] = H5Dcreate2(t->group, spec[c].name, type, sp, H5P_DEFAULT, p, H5P_DEFAULT);
    void *buf = spec[c].kind == COL_F64   ? (void *)(t->f64[c] = malloc(H5_BUF_ROWS * sizeof(double)))
                : spec[c].kind == COL_I32 ? (void *)(t->i32[c] = malloc(H5_BUF_ROWS * sizeof(int)))
                                          : (void *)(t->str[c] = malloc(H5_BUF_ROWS * sizeof(char *)));
    if (t->ds[c] < 0 || !buf) rc = -1;
  }
  if (p >= 0) H5Pclose(p);
  if (sp >= 0) H5Sclose(sp);
  return rc;
}

static int table_flush(nsedi_h5writer *w, table *t) {
  int rc = 0;
  for (int c = 0; c < t->ncol && rc == 0; c++) {
    hsize_t rows = t->rows;
    const void *buf = t->spec[c].kind == COL_F64   ? (const void *)t->f64[c]
                      : t->spec[c].kind == COL_I32 ? (const void *)t->i32[c]
                                                   : (const void *)t->str[c];
    hid_t mt = t->spec[c].kind == COL_F64   ? H5T_NATIVE_DOUBLE
               : t->spec[c].kind == COL_I32 ? H5T_NATIVE_INT
                                            : w->str_type;
    rc = append(t->ds[c], mt, buf, t->nbuf, 1, 1, &rows);
  }
  if (rc == 0) t->rows += t->nbuf;
  t->nbuf = 0;
  return rc;
}

static void table_close(table *t) {
  for (int c = 0; c < t->ncol; c++) {
    if (t->ds[c] >= 0) H5Dclose(t->ds[c]);
    free(t->f64[c]);
    free(t->i32[c]);
    free(t->str[c]);
  }
  if (t->group >= 0) H5Gclose(t->group);
  t->ncol = 0;
  t->group = -1;
}

const char *nsedi_hdf5_version(char *buf, size_t size) {
  unsigned maj = 0, min = 0, rel = 0;
  H5get_libversion(&maj, &min, &rel);
  snprintf(buf, size, "%u.%u.%u", maj, min, rel);
  return buf;
}

static int traj_flush(nsedi_h5writer *w) {
  int rc = append(w->traj, H5T_NATIVE_DOUBLE, w->tbuf, w->tbuf_rows, w->ncols, 2, &w->traj_rows);
  w->tbuf_rows = 0;
  return rc;
}

static void release(nsedi_h5writer *w) {
  table_close(&w->contacts);
  table_close(&w->events);
  if (w->traj >= 0) H5Dclose(w->traj);
  if (w->str_type >= 0) H5Tclose(w->str_type);
  w->traj = w->str_type = -1;
  free(w->tbuf);
  nsedi_rows_free(&w->kept);
}

static int open_datasets(nsedi_h5writer *w, const char *dir, const nsed_model *m) {
  char path[4096];
  snprintf(path, sizeof path, "%s/results.h5", dir);
  hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
  if (fcpl < 0) return -1;
  if (H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0) {
    H5Pclose(fcpl);
    return -1;
  }
  w->file = H5Fcreate(path, H5F_ACC_EXCL, fcpl, H5P_DEFAULT);
  H5Pclose(fcpl);
  if (w->file < 0) return -1;
  /* Variable-length UTF-8 strings: h5py returns them as str. */
  if ((w->str_type = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(w->str_type, H5T_VARIABLE) < 0 ||
      H5Tset_cset(w->str_type, H5T_CSET_UTF8) < 0)
    return -1;
  if (attr_string(w, w->file, "format", "nsed results 1") < 0) return -1;

  /* Trajectory: chunks of about 256 KiB, whole rows. */
  hsize_t zero[2] = {0, w->ncols}, maxd[2] = {H5S_UNLIMITED, w->ncols};
  hsize_t chunk[2] = {(32768 / w->ncols) + 1, w->ncols};
  w->traj_cap = (size_t)chunk[0];
  hid_t sp = H5Screate_simple(2, zero, maxd);
  hid_t p = chunked(2, chunk);
  if (sp >= 0 && p >= 0)
    w->traj = H5Dcreate2(w->file, "trajectory", H5T_IEEE_F64LE, sp, H5P_DEFAULT, p, H5P_DEFAULT);
  if (p >= 0) H5Pclose(p);
  if (sp >= 0) H5Sclose(sp);
  if (w->traj < 0) return -1;
  char **names = calloc(w->ncols, sizeof *names);
  int rc = names ? 0 : -1;
  if (names) names[0] = strdup("t");
  for (int b = 0; b < w->nbody && rc == 0; b++)
    for (int k = 0; k < 13; k++) {
      const char *body = nsed_model_body_name(m, b);
      size_t len = strlen(body) + strlen(nsedi_body_fields[k]) + 2;
      char *s = names[1 + 13 * b + k] = malloc(len);
      if (s) snprintf(s, len, "%s.%s", body, nsedi_body_fields[k]);
    }
  for (size_t c = 0; names && c < w->ncols; c++)
    if (!names[c]) rc = -1;
  if (rc == 0) rc = attr_strings(w, w->traj, "columns", (const char *const *)names, (int)w->ncols);
  for (size_t c = 0; names && c < w->ncols; c++) free(names[c]);
  free(names);
  if (rc < 0) return -1;
  w->tbuf = malloc(w->traj_cap * w->ncols * sizeof *w->tbuf);
  if (!w->tbuf) return -1;
  if (table_open(w, &w->contacts, "contacts", contact_cols,
                 (int)(sizeof contact_cols / sizeof contact_cols[0])) < 0)
    return -1;
  if (table_open(w, &w->events, "events", event_cols, (int)(sizeof event_cols / sizeof event_cols[0])) < 0)
    return -1;
  return 0;
}

int nsedi_h5writer_open(nsedi_h5writer **out, const char *dir, const nsed_model *m, nsed_error *err) {
  *out = NULL;
  nsedi_h5writer *w = calloc(1, sizeof *w);
  if (!w) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
  w->file = w->traj = w->str_type = -1;
  w->contacts.group = w->events.group = -1;
  /* HDF5 prints its error stack to stderr by default; nsed reports errors
   * itself. The printer is restored when the writer is closed. */
  H5Eget_auto2(H5E_DEFAULT, &w->old_func, &w->old_data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  w->nbody = nsed_model_nbody(m);
  w->ncontact = nsed_model_ncontact(m);
  w->ncols = 1 + 13 * (size_t)w->nbody;
  int rc = nsedi_rows_init(&w->kept, m, err);
  if (rc == NSED_OK && open_datasets(w, dir, m) < 0)
    rc = nsed_error_set(err, NSED_ERR_IO, "cannot create %s/results.h5 (HDF5 error)", dir);
  if (rc != NSED_OK) {
    release(w);
    if (w->file >= 0) H5Fclose(w->file);
    H5Eset_auto2(H5E_DEFAULT, w->old_func, w->old_data);
    free(w);
    return rc;
  }
  *out = w;
  return NSED_OK;
}

int nsedi_h5writer_sample(void *self, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  nsedi_h5writer *w = self;
  (void)why;
  if (!nsedi_rows_take(&w->kept, d)) return 0;
  double t = w->kept.row[0];
  memcpy(w->tbuf + w->tbuf_rows * w->ncols, w->kept.row, w->ncols * sizeof *w->tbuf);
  if (++w->tbuf_rows == w->traj_cap && traj_flush(w) < 0) fail(w, "appending to /trajectory");
  table *c = &w->contacts;
  for (int k = 0; k < w->ncontact; k++) {
    nsed_contact_info ci;
    nsed_data_contact(d, k, &ci);
    size_t i = c->nbuf;
    c->f64[0][i] = t;
    c->str[1][i] = nsed_model_contact_name(m, k);
    c->str[2][i] = nsed_mode_name(ci.mode);
    c->f64[3][i] = ci.gap;
    c->f64[4][i] = ci.lambda[0];
    c->f64[5][i] = ci.lambda[1];
    c->f64[6][i] = ci.lambda[2];
    c->f64[7][i] = ci.slip_speed;
    c->f64[8][i] = ci.point[0];
    c->f64[9][i] = ci.point[1];
    c->f64[10][i] = ci.point[2];
    c->f64[11][i] = ci.moment;
    c->str[12][i] = nsed_mode_name(ci.spin);
    if (++c->nbuf == H5_BUF_ROWS && table_flush(w, c) < 0) fail(w, "appending to /contacts");
  }
  return w->failed ? 1 : 0;
}

int nsedi_h5writer_event(void *self, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  nsedi_h5writer *w = self;
  (void)d;
  table *e = &w->events;
  size_t i = e->nbuf;
  int has = ev->contact >= 0;
  e->f64[0][i] = ev->t;
  e->str[1][i] = nsed_event_kind_name(ev->kind);
  e->str[2][i] = has ? nsed_model_contact_name(m, ev->contact) : "";
  e->str[3][i] = has ? nsed_mode_name(ev->from) : "";
  e->str[4][i] = has ? nsed_mode_name(ev->to) : "";
  e->i32[5][i] = ev->lcp_size;
  e->i32[6][i] = ev->pivots;
  e->f64[7][i] = ev->residual;
  e->str[8][i] = ev->path ? ev->path : "";
  for (int k = 0; k < 3; k++) e->f64[9 + k][i] = ev->impulse[k];
  if (++e->nbuf == H5_BUF_ROWS && table_flush(w, e) < 0) fail(w, "appending to /events");
  return w->failed ? 1 : 0;
}

static int write_metadata(nsedi_h5writer *w, const nsedi_meta *meta) {
  hid_t g = group_create(w->file, "metadata");
  if (g < 0) return -1;
  char hdf5[32];
  /* The problem text may hold NULs only if it is not YAML, which the loader
   * refused already; bound it by problem_len all the same. */
  char *text = NULL;
  if (meta->problem_text) {
    text = malloc(meta->problem_len + 1);
    if (text) {
      memcpy(text, meta->problem_text, meta->problem_len);
      text[meta->problem_len] = '\0';
    }
  }
  static const char *const status_words[] = {"ok", "interrupted", "failed"};
  const char *status = meta->status == NSED_OK                 ? status_words[0]
                       : meta->status == NSED_ERR_INTERRUPTED ? status_words[1]
                                                              : status_words[2];
  int rc = 0;
  rc |= attr_string(w, g, "problem", meta->problem_path ? meta->problem_path : "");
  rc |= attr_string(w, g, "problem_text", text ? text : "");
  rc |= attr_string(w, g, "problem_sha256", meta->sha256 ? meta->sha256 : "");
  rc |= attr_strings(w, g, "overrides", meta->overrides, meta->noverrides);
  rc |= attr_string(w, g, "status", status);
  rc |= attr_string(w, g, "nsed_version", NSED_VERSION_STRING);
  rc |= attr_string(w, g, "sundials_version", NSED_SUNDIALS_VERSION);
  rc |= attr_string(w, g, "siconos_version", NSED_SICONOS_VERSION);
  rc |= attr_string(w, g, "hdf5_version", nsedi_hdf5_version(hdf5, sizeof hdf5));
  rc |= attr_string(w, g, "summary_json", meta->summary_json ? meta->summary_json : "");
  free(text);
  if (H5Gclose(g) < 0) rc = -1;
  return rc ? -1 : 0;
}

int nsedi_h5writer_close(void *self, const nsedi_meta *meta, nsed_error *err) {
  nsedi_h5writer *w = self;
  if (meta) {
    if (traj_flush(w) < 0) fail(w, "appending to /trajectory");
    if (table_flush(w, &w->contacts) < 0) fail(w, "appending to /contacts");
    if (table_flush(w, &w->events) < 0) fail(w, "appending to /events");
    if (!w->failed && write_metadata(w, meta) < 0) fail(w, "writing /metadata");
  }
  release(w);
  if (w->file >= 0 && H5Fclose(w->file) < 0) fail(w, "closing the file");
  H5Eset_auto2(H5E_DEFAULT, w->old_func, w->old_data);
  const char *failed = w->failed;
  free(w);
  if (failed && meta)
    return nsed_error_set(err, NSED_ERR_IO, "writing results.h5 failed: %s (HDF5 error; disk full?)",
                          failed);
  return NSED_OK;
}
