/* Differential tracking states: the roller's in roller.c, an algebraic
 * surface's here (its point y in its body's axes). */
#include "track.h"

#include "math3.h"
#include "nsed/status.h"
#include "roller.h"
#include "rows.h"
#include "superellipsoid.h"

int nsedi_track_init(const nsed_model *m, int c, const nsedi_kin *kin, double *xtrack) {
  const nsedi_contact *C = &m->contact[c];
  if (C->pair == NSEDI_PAIR_ROLLER_PLANE) {
    nsedi_roller_track_init(m, c, kin, xtrack);
    return NSED_OK;
  }
  nsedi_contact_geom g;
  int rc = nsedi_contact_eval(m, c, kin, NULL, 0, &g);
  if (rc) return rc;
  nsedi_v3_copy(xtrack, g.track_point);
  return NSED_OK;
}

double nsedi_track_residual(const nsed_model *m, int c, const nsedi_kin *kin,
                            const double *xtrack) {
  const nsedi_contact *C = &m->contact[c];
  if (C->pair == NSEDI_PAIR_ROLLER_PLANE) return nsedi_roller_track_residual(m, c, kin, xtrack);
  int against_plane = C->other == NSEDI_GROUND;
  const nsed_shape *s = &m->body[against_plane ? C->body : C->other].def.shape;
  double p = nsedi_sq_exponent(s);
  if (against_plane) {
    nsedi_plane pl;
    double d[3];
    nsedi_contact_plane(m, c, &pl);
    nsedi_m3_mulTv(d, kin[C->body].R, pl.normal);
    nsedi_v3_scale(d, d, -1.0);
    return nsedi_sq_support_residual(s->half, p, xtrack, d);
  }
  double off[3], loc[3];
  nsedi_v3_sub(off, kin[C->body].r, kin[C->other].r);
  nsedi_m3_mulTv(loc, kin[C->other].R, off);
  return nsedi_sq_nearest_residual(s->half, p, xtrack, loc);
}
