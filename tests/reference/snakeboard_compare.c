/* nsed's snakeboard (problems/snakeboard_*.yaml) against the ideal model of
 * Lewis et al. (snakeboard_ideal.c) with the same masses and inertias read
 * off the model: the board's centre and heading over the run. The ideal
 * model leaves out the discs' spin about their axles and the compliance of
 * their axles (Kosenko's SpringIdealJoints), which nsed has; both vanish
 * with the discs' mass, so the difference must shrink with it.
 *
 *   reference_snakeboard ROOT                 the test: the three gaits, and
 *                                             the drive at three disc masses
 *   reference_snakeboard ROOT table [T]       the table of docs/engine.md
 *
 * docs/engine.md, "The snakeboard against the ideal model". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/nsed.h"
#include "nsed_test.h"
#include "snakeboard_ideal.h"

enum { MAXS = 4096 };

typedef struct {
  int back;  /* the back half's body */
  double r;  /* half the board: the back half's centre is r / 2 behind the board's */
  int n;
  double t[MAXS], x[MAXS], y[MAXS], th[MAXS];
} samples;

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m;
  samples *s = ctx;
  if (why == NSED_SAMPLE_PRE_EVENT || why == NSED_SAMPLE_EVENT || s->n >= MAXS) return 0;
  double st[13];
  nsed_data_body_state(d, s->back, st);
  double q0 = st[3], q1 = st[4], q2 = st[5], q3 = st[6];
  double r00 = q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3, r10 = 2 * (q1 * q2 + q0 * q3);
  double th = atan2(r10, r00), c = cos(th), sn = sin(th);
  s->t[s->n] = nsed_data_time(d);
  s->x[s->n] = st[0] + 0.5 * s->r * c;
  s->y[s->n] = st[1] + 0.5 * s->r * sn;
  s->th[s->n] = th;
  s->n++;
  return 0;
}

static const nsed_body_def *body(const nsed_model *m, const char *name) {
  int i = nsed_model_find_body(m, name);
  return i >= 0 ? nsed_model_body_def(m, i) : NULL;
}

static sb_libration libration_of(const nsed_model *m, const char *joint) {
  for (int j = 0; j < nsed_model_njoint(m); j++)
    if (!strcmp(nsed_model_joint_name(m, j), joint)) {
      const nsed_law *l = &nsed_model_joint_def(m, j)->servo_angle;
      return (sb_libration){l->amplitude, l->omega, l->phase};
    }
  return (sb_libration){0, 0, 0};
}

/* The ideal model's parameters from nsed's bodies: everything translates
 * with the board (M); the halves, rods and discs turn with it (J, their
 * distances from its centre); each wheelset's rod and discs turn with
 * phi about the vertical (J1: the rod's moment, the discs' diametral ones
 * and their distance from the rod's axis); the discs' spin is left out. */
static sb_params ideal_of(const nsed_model *m, double *r_out) {
  sb_params p = {0};
  const nsed_body_def *halves[2] = {body(m, "back_half"), body(m, "front_half")};
  const nsed_body_def *rod = body(m, "front_rod"), *rotor = body(m, "rotor");
  const nsed_body_def *disc = body(m, "front_left");
  double r = rod->position[0], w = disc->position[1];
  for (int i = 0; i < nsed_model_nbody(m); i++) p.M += nsed_model_body_def(m, i)->mass;
  for (int k = 0; k < 2; k++) p.J += halves[k]->inertia[2] + halves[k]->mass * 0.25 * r * r;
  p.J += 2 * rod->mass * r * r + 4 * disc->mass * r * r;
  p.J0 = rotor->inertia[2];
  p.J1 = rod->inertia[2] + 2 * (disc->inertia[1] + disc->mass * w * w);
  p.r = r;
  p.psi = libration_of(m, "torso");
  p.phi_f = libration_of(m, "front_steer");
  p.phi_b = libration_of(m, "back_steer");
  *r_out = r;
  return p;
}

typedef struct {
  double pos, heading; /* worst differences over the run */
  double x_end, y_end, th_end, ref_x, ref_y, ref_th;
  double wall;
  int ok;
} result;

/* problems/FILE with the overrides, against the ideal model. */
static result compare(const char *root, const char *file, const char *const *over, int nover) {
  result res = {0};
  char path[4096];
  snprintf(path, sizeof path, "%s/problems/%s", root, file);
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  if (nsed_problem_load(path, over, nover, &m, &err) || nsed_data_create(m, &d, &err)) {
    fprintf(stderr, "%s: %s\n", file, err.message);
    nsed_model_free(&m);
    return res;
  }
  static samples s;
  s.n = 0;
  s.back = nsed_model_find_body(m, "back_half");
  sb_params p = ideal_of(m, &s.r);
  nsed_observer obs = {.ctx = &s, .sample = on_sample};
  int rc = nsed_simulate(m, d, &obs, &err);
  if (rc) fprintf(stderr, "%s: %s\n", file, err.message);
  res.wall = nsed_data_stats(d)->wall_seconds;
  sb_state ref = {0};
  for (int k = 0; k < s.n && rc == NSED_OK; k++) {
    if (s.t[k] > ref.t) sb_advance(&p, &ref, s.t[k], (int)ceil((s.t[k] - ref.t) / 5e-4));
    res.pos = fmax(res.pos, hypot(s.x[k] - ref.x, s.y[k] - ref.y));
    res.heading = fmax(res.heading, fabs(remainder(s.th[k] - ref.theta, 2 * M_PI)));
  }
  if (s.n > 0) {
    res.x_end = s.x[s.n - 1];
    res.y_end = s.y[s.n - 1];
    res.th_end = s.th[s.n - 1];
  }
  res.ref_x = ref.x;
  res.ref_y = ref.y;
  res.ref_th = ref.theta;
  res.ok = rc == NSED_OK && s.n > 1;
  nsed_data_free(&d);
  nsed_model_free(&m);
  return res;
}

/* The discs' masses scaled by f (their inertias follow from their shape). */
static result compare_scaled(const char *root, const char *file, double f, double t_end) {
  static const char *discs[4] = {"front_left", "front_right", "back_left", "back_right"};
  char ov[5][96];
  const char *ovp[5];
  for (int k = 0; k < 4; k++) {
    snprintf(ov[k], sizeof ov[k], "bodies.%s.mass=%.17g", discs[k], 0.1 * f);
    ovp[k] = ov[k];
  }
  snprintf(ov[4], sizeof ov[4], "solver.t_end=%.17g", t_end);
  ovp[4] = ov[4];
  return compare(root, file, ovp, 5);
}

static const char *const gaits[3] = {"snakeboard_drive.yaml", "snakeboard_rotate.yaml",
                                     "snakeboard_parking.yaml"};

static void table(const char *root, double t_end) {
  static const double scales[] = {1, 0.1, 0.01, 0.001};
  printf("| gait | disc mass (kg) | centre: largest distance (m) | heading (rad) | end: nsed (x, y, "
         "heading) | ideal | wall s |\n|---|---|---|---|---|---|---|\n");
  for (int g = 0; g < 3; g++)
    for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
      result r = compare_scaled(root, gaits[g], scales[k], t_end);
      if (!r.ok) {
        printf("| %s | %g | failed | | | | |\n", gaits[g], 0.1 * scales[k]);
        continue;
      }
      printf("| %s | %g | %.2e | %.2e | (%.5f, %.5f, %.5f) | (%.5f, %.5f, %.5f) | %.1f |\n", gaits[g],
             0.1 * scales[k], r.pos, r.heading, r.x_end, r.y_end, r.th_end, r.ref_x, r.ref_y,
             r.ref_th, r.wall);
      fflush(stdout);
    }
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  if (argc > 2 && !strcmp(argv[2], "table")) {
    table(root, argc > 3 ? atof(argv[3]) : 10.0);
    return 0;
  }
  /* The shipped files (discs of 0.1 kg, Kosenko's axles c = 1000 N/m):
   * within the few percent the discs' spin makes (measured 6.3e-2 m of
   * 2.1 m for the drive, 2.2e-3 and 5.5e-3 m for the others), and each
   * gait doing what it is named for. */
  result r[3];
  for (int g = 0; g < 3; g++) {
    r[g] = compare(root, gaits[g], NULL, 0);
    CHECK(r[g].ok);
    printf("%s: centre within %.2e m, heading within %.2e rad of the ideal model; end (%.5f, "
           "%.5f, %.5f), ideal (%.5f, %.5f, %.5f), %.1f s\n",
           gaits[g], r[g].pos, r[g].heading, r[g].x_end, r[g].y_end, r[g].th_end, r[g].ref_x,
           r[g].ref_y, r[g].ref_th, r[g].wall);
    CHECK(r[g].pos < 0.04 * hypot(r[g].ref_x, r[g].ref_y) + 0.01 && r[g].heading < 0.03);
  }
  CHECK(r[0].ref_x > 2 && fabs(r[0].ref_y) < 0.1);                           /* drive: along */
  CHECK(fabs(r[1].ref_th) > 0.4 && hypot(r[1].ref_x, r[1].ref_y) < 0.03);    /* rotate: on the spot */
  CHECK(fabs(r[2].ref_th) < 0.01 && hypot(r[2].ref_x, r[2].ref_y) > 0.15);   /* parking: no turn */
  /* The difference is the discs' spin: it falls with their mass (linearly,
   * measured 6.34e-2, 7.46e-3, 9.18e-4 m for 0.1, 0.01, 0.001 kg) down to
   * the axles' compliance (2.6e-4 m at c = 1000 N/m, 7.6e-5 at 1e5). */
  result a = compare_scaled(root, gaits[0], 0.1, 10), b = compare_scaled(root, gaits[0], 0.01, 10);
  printf("drive gait, discs of 0.01 and 0.001 kg: centre within %.2e and %.2e m (%.1f times "
         "closer)\n", a.pos, b.pos, a.pos / b.pos);
  CHECK(a.ok && b.ok);
  CHECK(r[0].pos / a.pos > 6 && a.pos / b.pos > 6);
  return TEST_DONE();
}
