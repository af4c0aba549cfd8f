#include "writer.h"

#include "format_g17.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const nsedi_body_fields[13] = {"x",  "y",  "z",  "q0", "q1", "q2", "q3",
                                           "vx", "vy", "vz", "wx", "wy", "wz"};

/* Large buffers: a long run writes millions of rows. */
#define WRITER_BUFSIZE (1 << 20)

static FILE *open_in(const char *dir, const char *name, nsed_error *err) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    nsed_error_set(err, NSED_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    return NULL;
  }
  setvbuf(f, NULL, _IOFBF, WRITER_BUFSIZE);
  return f;
}

static void note(nsedi_writer *w, int bad, const char *file) {
  if (bad && !w->io_errno) {
    w->io_errno = errno ? errno : EIO;
    w->io_file = file;
  }
}

int nsedi_writer_open(nsedi_writer *w, const char *dir, const nsed_model *m, nsed_error *err) {
  memset(w, 0, sizeof *w);
  w->nbody = nsed_model_nbody(m);
  w->ncontact = nsed_model_ncontact(m);
  int rc = nsedi_rows_init(&w->kept, m, err);
  if (rc != NSED_OK) return rc;
  if (!(w->traj = open_in(dir, "trajectory.csv", err))) return err ? err->status : NSED_ERR_IO;
  if (!(w->contacts = open_in(dir, "contacts.csv", err))) return err ? err->status : NSED_ERR_IO;
  if (!(w->events = open_in(dir, "events.csv", err))) return err ? err->status : NSED_ERR_IO;
  int bad = fputs("t", w->traj) < 0;
  for (int b = 0; b < w->nbody; b++)
    for (int k = 0; k < 13; k++)
      bad |= fprintf(w->traj, ",%s.%s", nsed_model_body_name(m, b), nsedi_body_fields[k]) < 0;
  bad |= fputc('\n', w->traj) < 0;
  note(w, bad, "trajectory.csv");
  note(w, fputs("t,contact,mode,gap,lambda_n,lambda_t1,lambda_t2,slip_speed,point_x,point_y,point_z,"
                "moment,spin\n", w->contacts) < 0,
       "contacts.csv");
  note(w, fputs("t,kind,contact,from,to,lcp_size,pivots,residual,path,impulse_n,impulse_t1,"
                "impulse_t2\n", w->events) < 0,
       "events.csv");
  return NSED_OK;
}

int nsedi_writer_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  nsedi_writer *w = ctx;
  (void)why;
  if (!nsedi_rows_take(&w->kept, d)) return 0;
  const double *row = w->kept.row;
  double t = row[0];
  int bad = nsedi_put_g17(w->traj, t) < 0;
  for (size_t k = 1; k < w->kept.width; k++)
    bad |= fputc(',', w->traj) < 0 || nsedi_put_g17(w->traj, row[k]) < 0;
  bad |= fputc('\n', w->traj) < 0;
  note(w, bad, "trajectory.csv");
  bad = 0;
  for (int c = 0; c < w->ncontact; c++) {
    nsed_contact_info ci;
    nsed_data_contact(d, c, &ci);
    const double values[] = {ci.gap,        ci.lambda[0], ci.lambda[1], ci.lambda[2], ci.slip_speed,
                             ci.point[0], ci.point[1],   ci.point[2],   ci.moment};
    bad |= nsedi_put_g17(w->contacts, t) < 0 ||
           fprintf(w->contacts, ",%s,%s", nsed_model_contact_name(m, c), nsed_mode_name(ci.mode)) < 0;
    for (size_t k = 0; k < sizeof values / sizeof values[0]; k++)
      bad |= fputc(',', w->contacts) < 0 || nsedi_put_g17(w->contacts, values[k]) < 0;
    bad |= fprintf(w->contacts, ",%s\n", nsed_mode_name(ci.spin)) < 0;
  }
  note(w, bad, "contacts.csv");
  w->rows++;
  return w->io_errno ? 1 : 0;
}

int nsedi_writer_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  nsedi_writer *w = ctx;
  (void)d;
  const char *contact = ev->contact >= 0 ? nsed_model_contact_name(m, ev->contact) : "";
  const char *from = ev->contact >= 0 ? nsed_mode_name(ev->from) : "";
  const char *to = ev->contact >= 0 ? nsed_mode_name(ev->to) : "";
  note(w,
       fprintf(w->events, "%.17g,%s,%s,%s,%s,%d,%d,%.17g,%s,%.17g,%.17g,%.17g\n", ev->t,
               nsed_event_kind_name(ev->kind), contact, from, to, ev->lcp_size, ev->pivots,
               ev->residual, ev->path ? ev->path : "", ev->impulse[0], ev->impulse[1],
               ev->impulse[2]) < 0,
       "events.csv");
  return w->io_errno ? 1 : 0;
}

static void close_one(nsedi_writer *w, FILE **f, const char *name) {
  if (!*f) return;
  note(w, fflush(*f) != 0 || ferror(*f), name);
  note(w, fclose(*f) != 0, name);
  *f = NULL;
}

int nsedi_writer_close(nsedi_writer *w, nsed_error *err) {
  close_one(w, &w->traj, "trajectory.csv");
  close_one(w, &w->contacts, "contacts.csv");
  close_one(w, &w->events, "events.csv");
  nsedi_rows_free(&w->kept);
  if (w->io_errno)
    return nsed_error_set(err, NSED_ERR_IO, "writing %s failed: %s", w->io_file,
                          strerror(w->io_errno));
  return NSED_OK;
}
