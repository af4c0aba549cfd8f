/* nsed_run_problem: the result directory appears whole, replaces an older
 * result, refuses to replace anything else, is byte-reproducible, and keeps
 * complete files with the right status when the run fails or is interrupted. */
#include <signal.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsed/io.h"
#include "nsed_test.h"

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

static char *slurp(const char *dir, const char *name, size_t *len) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  char *text = NULL;
  size_t n = 0;
  nsed_error err;
  if (nsed_problem_read_file(path, &text, &n, &err) != NSED_OK) return NULL;
  if (len) *len = n;
  return text;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static int count_lines(const char *text) {
  int n = 0;
  for (; text && *text; text++) n += *text == '\n';
  return n;
}

/* The rows of contacts.csv whose contact point (point_x, point_y, point_z)
 * is the ball's lowest point (x, y, z - radius) of the trajectory row of the
 * same index: a sphere on the floor z = 0 touches it there. */
static int contact_points_touch_floor(const char *traj, const char *contacts, double radius) {
  const char *a = traj ? strchr(traj, '\n') : NULL, *b = contacts ? strchr(contacts, '\n') : NULL;
  int good = 0;
  while (a && b && a[1] && b[1]) {
    double t, x, y, z, tc, p[3];
    const char *numbers = b + 1;
    for (int comma = 0; comma < 3 && numbers; comma++) numbers = strchr(numbers + 1, ',');
    if (sscanf(a + 1, "%lf,%lf,%lf,%lf", &t, &x, &y, &z) != 4 || sscanf(b + 1, "%lf", &tc) != 1 ||
        !numbers ||
        sscanf(numbers, ",%*f,%*f,%*f,%*f,%*f,%lf,%lf,%lf", &p[0], &p[1], &p[2]) != 3)
      break;
    good += tc == t && fabs(p[0] - x) <= 1e-12 && fabs(p[1] - y) <= 1e-12 &&
            fabs(p[2] - (z - radius)) <= 1e-12;
    a = strchr(a + 1, '\n');
    b = strchr(b + 1, '\n');
  }
  return good;
}

static nsed_model *load(const char *text, const char *const *ov, int nov) {
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_problem_load_string(text, strlen(text), "ball.yaml", ov, nov, &m, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  return m;
}

/* Nothing but the named entries may be left in dir (no *.tmp-* or *.old-*). */
static int only_entries(const char *dir, int n) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq %d", dir, n);
  return system(cmd) == 0;
}

int main(void) {
  char base[] = "/tmp/nsed-io-test-XXXXXX";
  if (!mkdtemp(base)) return 1;
  char out[300], out2[300], foreign[300];
  snprintf(out, sizeof out, "%s/deep/er/out", base);
  snprintf(out2, sizeof out2, "%s/out2", base);
  snprintf(foreign, sizeof foreign, "%s/mine", base);

  nsed_model *m = load(ball, NULL, 0);
  if (!m) return TEST_DONE();
  nsed_run_options opt;
  nsed_run_options_default(&opt);
  opt.problem_path = "ball.yaml";
  opt.problem_text = ball;
  opt.problem_len = strlen(ball);
  const char *ov[] = {"solver.t_end=0.5"};
  opt.overrides = ov;
  opt.noverrides = 1;
  nsed_run_result res;
  nsed_error err;

  /* A fresh result, parents created. */
  int rc = nsed_run_problem(m, out, &opt, &res, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  CHECK(res.written == 1 && res.t_reached == 0.5 && res.events >= 1);
  size_t n1 = 0, n2 = 0;
  char *traj1 = slurp(out, "trajectory.csv", &n1);
  char *summary = slurp(out, "summary.json", NULL);
  char *events = slurp(out, "events.csv", NULL);
  char *contacts = slurp(out, "contacts.csv", NULL);
  CHECK(traj1 && summary && events && contacts);
  CHECK(traj1 && !strncmp(traj1, "t,ball.x,ball.y,ball.z,ball.q0,ball.q1,ball.q2,ball.q3,ball.vx,", 62));
  CHECK(count_lines(traj1) >= 12); /* header, 11 output instants, the event */
  CHECK(events && !strncmp(events,
                           "t,kind,contact,from,to,lcp_size,pivots,residual,path,impulse_n,"
                           "impulse_t1,impulse_t2\n",
                           85));
  CHECK(events && strstr(events, ",stick,c0,slip,stick,"));
  CHECK(contacts && !strncmp(contacts,
                             "t,contact,mode,gap,lambda_n,lambda_t1,lambda_t2,slip_speed,"
                             "point_x,point_y,point_z,moment,spin\n",
                             95));
  CHECK(count_lines(contacts) == count_lines(traj1));
  CHECK(contact_points_touch_floor(traj1, contacts, 0.1) == count_lines(traj1) - 1);
  char hex[65], want[100];
  nsed_sha256_hex(ball, strlen(ball), hex);
  snprintf(want, sizeof want, "\"problem_sha256\": \"%s\"", hex);
  CHECK(summary && strstr(summary, want));
  CHECK(summary && strstr(summary, "\"status\": \"ok\""));
  CHECK(summary && strstr(summary, "\"overrides\": [\"solver.t_end=0.5\"]"));
  CHECK(summary && strstr(summary, "\"t_reached\": 0.5"));
  CHECK(summary && strstr(summary, "\"states\": 13"));
  CHECK(summary && strstr(summary, "\"sundials_version\""));
  free(summary);
  free(events);
  free(contacts);

  /* Again into the same place: replaced, and byte-identical. */
  rc = nsed_run_problem(m, out, &opt, &res, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  char *traj2 = slurp(out, "trajectory.csv", &n2);
  CHECK(traj1 && traj2 && n1 == n2 && !memcmp(traj1, traj2, n1));
  free(traj1);
  free(traj2);
  char parent[300];
  snprintf(parent, sizeof parent, "%s/deep/er", base);
  CHECK(only_entries(parent, 1));

  /* A directory that is not an nsed result is never replaced. */
  CHECK(mkdir(foreign, 0777) == 0);
  char precious[400];
  snprintf(precious, sizeof precious, "%s/thesis.tex", foreign);
  FILE *f = fopen(precious, "w");
  if (f) fclose(f);
  rc = nsed_run_problem(m, foreign, &opt, &res, &err);
  CHECK(rc == NSED_ERR_INPUT && res.written == 0);
  CHECK(strstr(err.message, "not an nsed result"));
  CHECK(exists(precious));
  nsed_model_free(&m);

  /* Interrupted before it starts: complete files, status "interrupted". */
  m = load(ball, NULL, 0);
  volatile sig_atomic_t flag = 1;
  opt.interrupt = &flag;
  rc = nsed_run_problem(m, out2, &opt, &res, &err);
  CHECK_MSG(rc == NSED_ERR_INTERRUPTED, "rc %d: %s", rc, err.message);
  CHECK(res.written == 1);
  summary = slurp(out2, "summary.json", NULL);
  CHECK(summary && strstr(summary, "\"status\": \"interrupted\""));
  free(summary);
  traj1 = slurp(out2, "trajectory.csv", NULL);
  CHECK(traj1 && count_lines(traj1) >= 1 && traj1[strlen(traj1) - 1] == '\n');
  free(traj1);
  opt.interrupt = NULL;
  nsed_model_free(&m);

  /* A run that fails midway (event budget exhausted by a bouncing ball):
   * the files up to there, status "failed" with the message. */
  const char *bounce[] = {"bodies.ball.velocity=[0,0,-1]", "bodies.ball.position=[0,0,0.5]",
                          "contacts.c0.restitution=0.8", "solver.max_events=2", "solver.t_end=3"};
  m = load(ball, bounce, 5);
  if (m) {
    rc = nsed_run_problem(m, out2, &opt, &res, &err);
    CHECK_MSG(rc < 0 && rc != NSED_ERR_IO && rc != NSED_ERR_INPUT, "rc %d: %s", rc, err.message);
    CHECK(res.written == 1 && res.t_reached < 3);
    summary = slurp(out2, "summary.json", NULL);
    CHECK(summary && strstr(summary, "\"status\": \"failed\""));
    free(summary);
    nsed_model_free(&m);
  }
  CHECK(only_entries(base, 3)); /* deep, mine, out2: no temporaries left */

  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", base);
  return TEST_DONE();
}
