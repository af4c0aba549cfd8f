/* nsedi_sink: pick the result writer for a format. The CSV writer keeps its
 * own by-value API (tests use it directly); here it is adapted to the sink
 * interface, and HDF5 is compiled in only when the build found it. */
#include <stdlib.h>

#include "writer.h"

int nsed_format_available(nsed_output_format f) {
  if (f == NSED_FORMAT_CSV) return 1;
#ifdef NSED_HAVE_HDF5
  if (f == NSED_FORMAT_HDF5) return 1;
#endif
  return 0;
}

static int csv_sample(void *self, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  return nsedi_writer_sample(self, m, d, why);
}

static int csv_event(void *self, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  return nsedi_writer_event(self, m, d, ev);
}

/* CSV files are complete once flushed: summary.json holds the metadata. */
static int csv_close(void *self, const nsedi_meta *meta, nsed_error *err) {
  (void)meta;
  int rc = nsedi_writer_close(self, err);
  free(self);
  return rc;
}

int nsedi_sink_open(nsedi_sink *s, nsed_output_format f, const char *dir, const nsed_model *m,
                    nsed_error *err) {
  s->self = NULL;
  if (f == NSED_FORMAT_CSV) {
    nsedi_writer *w = malloc(sizeof *w);
    if (!w) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory");
    int rc = nsedi_writer_open(w, dir, m, err);
    if (rc != NSED_OK) {
      nsed_error ignored; /* the open error is the one worth reporting */
      nsedi_writer_close(w, &ignored);
      free(w);
      return rc;
    }
    s->self = w;
    s->sample = csv_sample;
    s->event = csv_event;
    s->close = csv_close;
    return NSED_OK;
  }
#ifdef NSED_HAVE_HDF5
  if (f == NSED_FORMAT_HDF5) {
    nsedi_h5writer *w = NULL;
    int rc = nsedi_h5writer_open(&w, dir, m, err);
    if (rc != NSED_OK) return rc;
    s->self = w;
    s->sample = nsedi_h5writer_sample;
    s->event = nsedi_h5writer_event;
    s->close = nsedi_h5writer_close;
    return NSED_OK;
  }
#endif
  if (f == NSED_FORMAT_HDF5)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "this nsed was built without HDF5, so it cannot write results.h5: "
                          "install the Debian package libhdf5-dev and reconfigure "
                          "(meson setup --reconfigure BUILD -Dhdf5=enabled), or use --format csv");
  return nsed_error_set(err, NSED_ERR_INPUT, "unknown output format %d", (int)f);
}
