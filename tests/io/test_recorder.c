/* One source for a run's outputs: the CSV writer, the HDF5 writer and the
 * in-memory recorder keep the same rows (a sample repeating the last row at
 * the same instant is dropped, a velocity jump at the same instant is
 * kept); a recorded run holds exactly the values of the files that
 * nsed_run_problem writes; nsed_summary_json of that run is summary.json
 * but for the wall times. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef NSED_HAVE_HDF5
#include <hdf5.h>
#endif

#include "nsed/io.h"
#include "nsed_test.h"
#include "sim_impl.h"
#include "writer.h"

static const char ball[] =
    "bodies:\n"
    "  - name: ball\n"
    "    mass: 1\n"
    "    shape: {type: sphere, radius: 0.1}\n"
    "    position: [0, 0, 0.1]\n"
    "    velocity: [2, 0, 0]\n"
    "contacts:\n"
    "  - {name: c0, body: ball, mu: 0.3}\n"
    "solver: {t_end: 0.5}\n"
    "output: {dt: 0.05}\n";

static char *slurp(const char *dir, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  char *text = NULL;
  size_t n = 0;
  nsed_error err;
  if (nsed_problem_read_file(path, &text, &n, &err) != NSED_OK) return NULL;
  return text;
}

static int count_lines(const char *text) {
  int n = 0;
  for (; text && *text; text++) n += *text == '\n';
  return n;
}

/* Next line of *p into line (without the newline); 0 at the end. */
static int next_line(const char **p, char *line, size_t size) {
  if (!*p || !**p) return 0;
  const char *e = strchr(*p, '\n');
  size_t n = e ? (size_t)(e - *p) : strlen(*p);
  snprintf(line, size, "%.*s", (int)(n < size ? n : size - 1), *p);
  *p += n + (e ? 1 : 0);
  return 1;
}

/* Feed one observer the sample sequence of the rule: a row, the same row
 * as an output and as a pre-event sample (dropped), the row after an event
 * that changed the contact's mode (kept although the bodies' states are
 * equal), the next event's pre-event sample (dropped), its row with a
 * velocity jump at the same t (kept), that row again (dropped), a later
 * instant (kept): four rows. */
static void feed(int (*sample)(void *, const nsed_model *, const nsed_data *, nsed_sample_reason),
                 void *ctx, const nsed_model *m, nsed_data *d) {
  double t0 = d->t, vx0 = d->x[7];
  nsed_mode mode0 = d->ph.mode[0];
  CHECK(sample(ctx, m, d, NSED_SAMPLE_INITIAL) == 0);
  CHECK(sample(ctx, m, d, NSED_SAMPLE_OUTPUT) == 0);
  CHECK(sample(ctx, m, d, NSED_SAMPLE_PRE_EVENT) == 0);
  d->ph.mode[0] = mode0 == NSED_MODE_SLIP ? NSED_MODE_STICK : NSED_MODE_SLIP;
  CHECK(sample(ctx, m, d, NSED_SAMPLE_EVENT) == 0);
  CHECK(sample(ctx, m, d, NSED_SAMPLE_PRE_EVENT) == 0);
  d->x[7] += 1.0; /* ball.vx jumps: an impact's row at the same instant */
  CHECK(sample(ctx, m, d, NSED_SAMPLE_EVENT) == 0);
  CHECK(sample(ctx, m, d, NSED_SAMPLE_OUTPUT) == 0);
  d->t += 0.05;
  CHECK(sample(ctx, m, d, NSED_SAMPLE_FINAL) == 0);
  d->t = t0;
  d->x[7] = vx0;
  d->ph.mode[0] = mode0;
}

static void check_row_rule(const nsed_model *m, const char *base) {
  nsed_data *d = NULL;
  nsed_error err;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  if (!d) return;

  nsed_recorder *r = NULL;
  CHECK(nsed_recorder_create(m, &r, &err) == NSED_OK);
  const nsed_observer *obs = nsed_recorder_observer(r);
  feed(obs->sample, obs->ctx, m, d);
  CHECK_MSG(nsed_recorder_rows(r) == 4, "recorder kept %ld rows", nsed_recorder_rows(r));
  const double *traj = nsed_recorder_trajectory(r);
  CHECK(traj && traj[0] == traj[14] && traj[8] == traj[14 + 8] && traj[0] == traj[28] &&
        traj[8] + 1.0 == traj[28 + 8] && traj[42] > traj[0]);
  nsed_recorder_free(&r);
  CHECK(r == NULL);

  for (int f = 0; f < 2; f++) {
    if (!nsed_format_available((nsed_output_format)f)) continue;
    char dir[400];
    snprintf(dir, sizeof dir, "%s/rows%d", base, f);
    char cmd[500];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    CHECK(system(cmd) == 0);
    nsedi_sink s;
    CHECK(nsedi_sink_open(&s, (nsed_output_format)f, dir, m, &err) == NSED_OK);
    feed(s.sample, s.self, m, d);
    nsedi_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.summary_json = "{}";
    CHECK_MSG(s.close(s.self, &meta, &err) == NSED_OK, "%s", err.message);
    if (f == NSED_FORMAT_CSV) {
      char *text = slurp(dir, "trajectory.csv");
      CHECK_MSG(count_lines(text) == 5, "trajectory.csv: %d lines", count_lines(text));
      free(text);
      text = slurp(dir, "contacts.csv");
      CHECK_MSG(count_lines(text) == 5, "contacts.csv: %d lines", count_lines(text));
      free(text);
    }
#ifdef NSED_HAVE_HDF5
    if (f == NSED_FORMAT_HDF5) {
      char path[500];
      snprintf(path, sizeof path, "%s/results.h5", dir);
      hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
      hid_t ds = file >= 0 ? H5Dopen2(file, "trajectory", H5P_DEFAULT) : -1;
      hid_t sp = ds >= 0 ? H5Dget_space(ds) : -1;
      hsize_t dims[2] = {0, 0};
      if (sp >= 0) H5Sget_simple_extent_dims(sp, dims, NULL);
      CHECK_MSG(dims[0] == 4 && dims[1] == 14, "results.h5 trajectory %llu x %llu",
                (unsigned long long)dims[0], (unsigned long long)dims[1]);
      if (sp >= 0) H5Sclose(sp);
      if (ds >= 0) H5Dclose(ds);
      if (file >= 0) H5Fclose(file);
    }
#endif
  }
  nsed_data_free(&d);
}

/* The lines of a CSV file against the recorder, formatted as the writer does. */
static void check_against_files(const nsed_model *m, const nsed_recorder *r, const char *dir) {
  char line[2048], want[2048];
  char *traj = slurp(dir, "trajectory.csv"), *contacts = slurp(dir, "contacts.csv"),
       *events = slurp(dir, "events.csv");
  CHECK(traj && contacts && events);
  long rows = nsed_recorder_rows(r), nev = nsed_recorder_nevent(r);
  CHECK_MSG(rows > 10 && count_lines(traj) == rows + 1, "%ld rows, %d lines", rows,
            count_lines(traj));
  CHECK(count_lines(contacts) == rows + 1 && count_lines(events) == nev + 1 && nev >= 1);

  const char *p = traj;
  next_line(&p, line, sizeof line);
  const double *x = nsed_recorder_trajectory(r);
  int bad = 0;
  for (long k = 0; k < rows && !bad; k++) {
    int n = snprintf(want, sizeof want, "%.17g", x[14 * k]);
    for (int c = 1; c < 14; c++) n += snprintf(want + n, sizeof want - (size_t)n, ",%.17g", x[14 * k + c]);
    bad = !next_line(&p, line, sizeof line) || strcmp(line, want);
    CHECK_MSG(!bad, "trajectory row %ld: '%s' vs '%s'", k, line, want);
  }

  p = contacts;
  next_line(&p, line, sizeof line);
  const double *c = nsed_recorder_contacts(r);
  const int *mode = nsed_recorder_contact_modes(r);
  for (long k = 0; k < rows && !bad; k++) {
    const double *v = c + NSED_RECORDER_CONTACT_COLUMNS * k;
    /* The CSV's last column, the spin mode, is not a recorded number. */
    snprintf(want, sizeof want, "%.17g,c0,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,open",
             x[14 * k], nsed_mode_name((nsed_mode)mode[k]), v[0], v[1], v[2], v[3], v[4], v[5],
             v[6], v[7], v[8]);
    bad = !next_line(&p, line, sizeof line) || strcmp(line, want);
    CHECK_MSG(!bad, "contact row %ld: '%s' vs '%s'", k, line, want);
  }

  p = events;
  next_line(&p, line, sizeof line);
  const nsed_event *ev = nsed_recorder_events(r);
  for (long k = 0; k < nev && !bad; k++) {
    const nsed_event *e = &ev[k];
    int has = e->contact >= 0;
    snprintf(want, sizeof want, "%.17g,%s,%s,%s,%s,%d,%d,%.17g,%s,%.17g,%.17g,%.17g", e->t,
             nsed_event_kind_name(e->kind), has ? nsed_model_contact_name(m, e->contact) : "",
             has ? nsed_mode_name(e->from) : "", has ? nsed_mode_name(e->to) : "", e->lcp_size,
             e->pivots, e->residual, e->path ? e->path : "", e->impulse[0], e->impulse[1],
             e->impulse[2]);
    bad = !next_line(&p, line, sizeof line) || strcmp(line, want);
    CHECK_MSG(!bad, "event %ld: '%s' vs '%s'", k, line, want);
  }
  free(traj);
  free(contacts);
  free(events);
}

/* summary.json and the in-memory summary text, line by line but for the wall times. */
static void check_summary(const char *file, const char *text) {
  const char *p = file, *q = text;
  char a[2048], b[2048];
  int lines = 0, differ = 0;
  for (;;) {
    int more_a = next_line(&p, a, sizeof a), more_b = next_line(&q, b, sizeof b);
    if (!more_a || !more_b) {
      CHECK(more_a == more_b);
      break;
    }
    lines++;
    if (!strncmp(a, "  \"wall_seconds\": ", 18) && !strncmp(b, "  \"wall_seconds\": ", 18)) continue;
    if (!strncmp(a, "  \"monitor_seconds\": ", 21) && !strncmp(b, "  \"monitor_seconds\": ", 21))
      continue;
    if (strcmp(a, b)) differ++;
    CHECK_MSG(!strcmp(a, b), "summary line %d: '%s' vs '%s'", lines, a, b);
  }
  CHECK(lines > 30 && !differ);
}

/* The top-level keys of summary.json's text, in order, are the list the
 * sweep files check metrics against (nsedi_summary_keys). */
static void check_summary_keys(const char *text) {
  int depth = 0, k = 0, in_string = 0;
  const char *start = NULL;
  for (const char *p = text; *p; p++) {
    if (in_string) {
      if (*p == '\\') p++;
      else if (*p == '"') {
        in_string = 0;
        const char *q = p + 1;
        while (*q == ' ') q++;
        if (depth == 1 && *q == ':') {
          size_t n = (size_t)(p - start);
          const char *want = nsedi_summary_keys[k];
          CHECK_MSG(want && strlen(want) == n && !strncmp(start, want, n),
                    "summary key %d: '%.*s', nsedi_summary_keys says '%s'", k, (int)n, start,
                    want ? want : "(end)");
          if (want) k++;
        }
      }
      continue;
    }
    if (*p == '"') {
      in_string = 1;
      start = p + 1;
    } else if (*p == '{' || *p == '[') {
      depth++;
    } else if (*p == '}' || *p == ']') {
      depth--;
    }
  }
  CHECK_MSG(nsedi_summary_keys[k] == NULL, "summary.json lacks '%s'", nsedi_summary_keys[k]);
}

static void progress(void *ctx, double t, double t_end, long events, double wall) {
  (void)t;
  (void)t_end;
  (void)events;
  (void)wall;
  ++*(int *)ctx;
}

int main(void) {
  char base[] = "/tmp/nsed-recorder-test-XXXXXX";
  if (!mkdtemp(base)) return 1;
  nsed_model *m = NULL;
  nsed_error err;
  const char *ov[] = {"solver.t_end=0.5"};
  int rc = nsed_problem_load_string(ball, strlen(ball), "ball.yaml", ov, 1, &m, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  if (!m) return TEST_DONE();

  check_row_rule(m, base);

  /* The same run written to a directory and recorded in memory. */
  char out[400];
  snprintf(out, sizeof out, "%s/out", base);
  char hex[65];
  nsed_sha256_hex(ball, strlen(ball), hex);
  nsed_run_options opt;
  nsed_run_options_default(&opt);
  opt.problem_path = "ball.yaml";
  opt.problem_text = ball;
  opt.problem_len = strlen(ball);
  opt.overrides = ov;
  opt.noverrides = 1;
  rc = nsed_run_problem(m, out, &opt, NULL, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);

  nsed_recorder *r = NULL;
  nsed_data *d = NULL;
  CHECK(nsed_recorder_create(m, &r, &err) == NSED_OK);
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  int reports = 0;
  volatile sig_atomic_t stop = 0;
  nsed_recorder_chain(r, progress, &reports, &stop);
  rc = nsed_simulate(m, d, nsed_recorder_observer(r), &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  CHECK(nsed_recorder_status(r, &err) == NSED_OK);
  check_against_files(m, r, out);

  nsed_summary_info info;
  memset(&info, 0, sizeof info);
  info.problem_path = "ball.yaml";
  info.problem_sha256 = hex;
  info.overrides = ov;
  info.noverrides = 1;
  info.status = rc;
  info.message = err.message;
  char *text = NULL;
  CHECK(nsed_summary_json(m, d, &info, &text, &err) == NSED_OK);
  char *file = slurp(out, "summary.json");
  CHECK(text && file);
  if (text && file) check_summary(file, text);
  if (text) check_summary_keys(text);
  nsed_free(text);
  free(file);
  CHECK(nsed_summary_json(m, NULL, &info, &text, &err) == NSED_ERR_INPUT && text == NULL);
  nsed_data_free(&d);
  nsed_recorder_free(&r);

  /* An interrupted recording: the run stops, the rows so far are kept. */
  CHECK(nsed_recorder_create(m, &r, &err) == NSED_OK);
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  stop = 1;
  nsed_recorder_chain(r, NULL, NULL, &stop);
  rc = nsed_simulate(m, d, nsed_recorder_observer(r), &err);
  CHECK(rc == NSED_ERR_INTERRUPTED && nsed_recorder_rows(r) >= 1);
  nsed_data_free(&d);
  nsed_recorder_free(&r);
  nsed_recorder_free(&r); /* a second free is harmless */

  nsed_model_free(&m);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", base);
  return TEST_DONE();
}
