/* The knots of the joint drives' tables as events. A drive given by a
 * table of its coordinate or rate (drive.c) is piecewise linear in it: its
 * force is continuous but its derivative jumps at each knot, which a step
 * across it resolves only by shrinking (docs/engine.md, "Joint drives").
 * Each table has two root functions, the distances of its input from the
 * two knots around it, positive inside, so the integrator stops at the
 * knot and restarts there. */
#include <math.h>

#include "drive.h"
#include "sim_impl.h"
#include "tolerances.h"

/* Joint j's drive about (k = 0) or along (k = 1) its axis. */
static const nsed_joint_drive *drive_of(const nsed_model *m, int j, int k) {
  const nsed_joint_def *jd = &m->joint[j].def;
  return k ? &jd->axial_drive : &jd->drive;
}

/* The table's input at the cached kinematics (x: the state, for the turn
 * count of an angle), and its rate when the input is the coordinate (NAN
 * for a table of the rate). */
static double table_input(const nsed_model *m, const nsed_data *d, const double *x, int j, int k,
                          double *rate) {
  double q, qd, axis[3], rhoa[3], rhob[3];
  if (k)
    nsedi_joint_axial(m, j, d->cache.kin, axis, rhoa, rhob, &q, &qd);
  else
    nsedi_joint_angle(m, j, d->cache.kin, x, &q, &qd);
  int of_rate = drive_of(m, j, k)->input == NSED_DRIVE_OF_RATE;
  *rate = of_rate ? NAN : qd;
  return of_rate ? qd : q;
}

int nsedi_kink_root(const nsed_model *m, int k) {
  return NSEDI_ROOTS_PER_CONTACT * m->ncontact + 1 + 2 * k;
}

void nsedi_kink_indicators(const nsed_model *m, const nsed_data *d, const double *x, double *g) {
  for (int j = 0; j < m->njoint; j++)
    for (int k = 0; k < 2; k++) {
      int t = m->joint[j].kink[k];
      if (t < 0) continue;
      const nsed_law *tab = &drive_of(m, j, k)->table;
      double rate, in = table_input(m, d, x, j, k, &rate);
      int s = d->ph.kink_seg[t];
      g[2 * t] = s > 0 ? in - tab->times[s - 1] : 1.0;
      g[2 * t + 1] = s < tab->npoints ? tab->times[s] - in : 1.0;
    }
}

/* The segment input lies in (knots strictly below it), and whether it
 * lies on a knot to round-off (then that knot's index in *knot). */
static int segment_of(const nsed_law *tab, double in, int *knot) {
  int s = 0;
  *knot = -1;
  for (int i = 0; i < tab->npoints; i++) {
    double tol = NSEDI_KINK_ON_KNOT * (fabs(tab->times[i]) + fabs(in) + 1e-300);
    if (fabs(in - tab->times[i]) <= tol) *knot = i;
    if (tab->times[i] < in) s = i + 1;
  }
  return s;
}

int nsedi_kinks_pose(const nsed_model *m, nsed_data *d, const int *fired,
                     const nsed_observer *obs) {
  for (int j = 0; j < m->njoint; j++)
    for (int k = 0; k < 2; k++) {
      int t = m->joint[j].kink[k];
      if (t < 0) continue;
      const nsed_law *tab = &drive_of(m, j, k)->table;
      double rate, in = table_input(m, d, d->x, j, k, &rate);
      int r0 = nsedi_kink_root(m, t), up = fired && fired[r0 + 1], down = fired && fired[r0];
      int knot, s = segment_of(tab, in, &knot), old = d->ph.kink_seg[t];
      /* On a knot the side is the motion's: past it the way the root fired,
       * else the side the phase was on, else (the start) the way the
       * coordinate moves; a jump of the input (an impulse on a table of the
       * rate) lands strictly inside a segment and takes it. */
      if (knot >= 0) {
        if (up || down)
          s = up ? knot + 1 : knot;
        else if (fired && (old == knot || old == knot + 1))
          s = old;
        else
          s = rate < 0 ? knot : knot + 1;
      }
      d->ph.kink_seg[t] = s;
      if ((up || down) && nsedi_kink_event(m, d, obs, j)) return NSED_ERR_IO;
    }
  return NSED_OK;
}
