#include "forces.h"

#include "attached.h"
#include "drive.h"
#include "math3.h"

static const nsedi_kin *kin_of(const nsedi_kin *kin, int i) { return i < 0 ? NULL : &kin[i]; }

/* Add a world force F at world offset rho to body i's generalised force. */
static void add_force(double *f, const nsedi_kin *k, int i, const double F[3], const double rho[3]) {
  if (i < 0) return;
  double tau[3], tb[3];
  nsedi_v3_cross(tau, rho, F);
  nsedi_m3_mulTv(tb, k->Rv, tau);
  for (int j = 0; j < 3; j++) {
    f[6 * i + j] += F[j];
    f[6 * i + 3 + j] += tb[j];
  }
}

static void add_torque(double *f, const nsedi_kin *k, int i, const double tau[3]) {
  if (i < 0) return;
  double tb[3];
  nsedi_m3_mulTv(tb, k->Rv, tau);
  for (int j = 0; j < 3; j++) f[6 * i + 3 + j] += tb[j];
}

/* Spring between two body points: length, unit direction A->B, rate. */
static void spring_geometry(const nsedi_kin *ka, const double pa[3], const nsedi_kin *kb,
                            const double pb[3], double rhoa[3], double rhob[3], double e[3],
                            double *len, double *rate) {
  double PA[3], PB[3], va[3] = {0, 0, 0}, vb[3] = {0, 0, 0}, t[3];
  nsedi_kin_point(ka, pa, PA);
  nsedi_kin_point(kb, pb, PB);
  if (ka) {
    nsedi_v3_sub(rhoa, PA, ka->r);
    nsedi_v3_cross(t, ka->ww, rhoa);
    nsedi_v3_add(va, ka->v, t);
  }
  if (kb) {
    nsedi_v3_sub(rhob, PB, kb->r);
    nsedi_v3_cross(t, kb->ww, rhob);
    nsedi_v3_add(vb, kb->v, t);
  }
  nsedi_v3_sub(e, PB, PA);
  *len = nsedi_v3_normalize(e);
  double dv[3];
  nsedi_v3_sub(dv, vb, va);
  *rate = nsedi_v3_dot(e, dv);
}

void nsedi_applied_forces(const nsed_model *m, const nsedi_kin *kin, const double *x, double t,
                          double *f) {
  const nsed_options *o = &m->opt;
  for (int i = 0; i < m->nbody; i++) {
    const nsed_body_def *b = &m->body[i].def;
    const nsedi_kin *k = &kin[i];
    double Jw[3], g[3];
    for (int j = 0; j < 3; j++) Jw[j] = b->inertia[j] * k->wb[j];
    /* Euler's equations in the state's frame, which turns at wv:
     * J dwb/dt + wv x (J wb) = torque (for a rotor J is constant in its
     * frame because the body is symmetric about the axis it spins on). */
    nsedi_v3_cross(g, k->wv, Jw);
    for (int j = 0; j < 3; j++) {
      f[6 * i + j] = b->mass * o->gravity[j];
      f[6 * i + 3 + j] = -g[j];
    }
  }
  for (int i = 0; i < m->nforce; i++) {
    const nsedi_force *F = &m->force[i];
    const nsed_force_def *d = &F->def;
    const nsedi_kin *k = &kin[F->body];
    double dir[3], vec[3];
    switch (d->type) {
      case NSED_FORCE_BODY_FORCE: {
        if (d->direction_in_body) nsedi_m3_mulv(dir, k->R, d->direction);
        else nsedi_v3_copy(dir, d->direction);
        nsedi_v3_scale(vec, dir, nsed_law_eval(&d->magnitude, t));
        double rho[3];
        nsedi_m3_mulv(rho, k->R, d->point);
        add_force(f, k, F->body, vec, rho);
        break;
      }
      case NSED_FORCE_BODY_TORQUE:
        if (d->direction_in_body) nsedi_m3_mulv(dir, k->R, d->direction);
        else nsedi_v3_copy(dir, d->direction);
        nsedi_v3_scale(vec, dir, nsed_law_eval(&d->magnitude, t));
        add_torque(f, k, F->body, vec);
        break;
      case NSED_FORCE_SPRING: {
        double rhoa[3] = {0, 0, 0}, rhob[3] = {0, 0, 0}, e[3], len, rate;
        const nsedi_kin *kb = kin_of(kin, F->body_b);
        spring_geometry(k, d->point, kb, d->point_b, rhoa, rhob, e, &len, &rate);
        double tension = d->k * (len - d->rest_length) + d->c * rate;
        double Fa[3], Fb[3];
        nsedi_v3_scale(Fa, e, tension);  /* pulls A towards B when stretched */
        nsedi_v3_scale(Fb, e, -tension);
        add_force(f, k, F->body, Fa, rhoa);
        add_force(f, kb, F->body_b, Fb, rhob);
        break;
      }
    }
  }
  for (int j = 0; j < m->njoint; j++) {
    const nsedi_joint *J = &m->joint[j];
    const nsed_joint_def *d = &J->def;
    const nsedi_kin *ka = kin_of(kin, J->a), *kb = &kin[J->b];
    if (d->spring_k > 0 || d->spring_c > 0 || d->axial_drive.type != NSED_DRIVE_NONE) {
      double axis[3], rhoa[3] = {0, 0, 0}, rhob[3], s, sd;
      nsedi_joint_axial(m, j, kin, axis, rhoa, rhob, &s, &sd);
      double fa = -d->spring_k * (s - d->rest_length) - d->spring_c * sd +
                  nsedi_drive_force(&d->axial_drive, t, s, sd);
      /* Generalised force of a force fa along the coordinate s: fa * ds/du.
       * ds/du on B: axis at anchor_b; on A: -axis at the point PB seen from
       * A's centre (the axis turns with A). */
      double Fb[3], Fa[3];
      nsedi_v3_scale(Fb, axis, fa);
      nsedi_v3_scale(Fa, axis, -fa);
      add_force(f, kb, J->b, Fb, rhob);
      if (ka) {
        double PB[3], rho[3];
        nsedi_kin_point(kb, d->anchor_b, PB);
        nsedi_v3_sub(rho, PB, ka->r);
        add_force(f, ka, J->a, Fa, rho);
      }
    }
    if (d->has_torque || d->drive.type != NSED_DRIVE_NONE) {
      double axis[3], tau[3], mtau[3], q = 0, qd = 0;
      if (d->drive.type != NSED_DRIVE_NONE) nsedi_joint_angle(m, j, kin, x, &q, &qd);
      double torque = (d->has_torque ? nsed_law_eval(&d->torque, t) : 0.0) +
                      nsedi_drive_force(&d->drive, t, q, qd);
      nsedi_kin_dir(ka, d->axis_a, axis);
      nsedi_v3_scale(tau, axis, torque);
      nsedi_v3_scale(mtau, tau, -1);
      add_torque(f, kb, J->b, tau);
      if (ka) add_torque(f, ka, J->a, mtau);
    }
  }
  nsedi_attached_forces(m, kin, f);
}

double nsedi_potential_energy(const nsed_model *m, const nsedi_kin *kin) {
  double V = 0;
  for (int i = 0; i < m->nbody; i++) V -= m->body[i].def.mass * nsedi_v3_dot(m->opt.gravity, kin[i].r);
  for (int i = 0; i < m->nforce; i++) {
    const nsedi_force *F = &m->force[i];
    if (F->def.type != NSED_FORCE_SPRING) continue;
    double rhoa[3], rhob[3], e[3], len, rate;
    spring_geometry(&kin[F->body], F->def.point, kin_of(kin, F->body_b), F->def.point_b, rhoa, rhob,
                    e, &len, &rate);
    V += 0.5 * F->def.k * (len - F->def.rest_length) * (len - F->def.rest_length);
  }
  for (int j = 0; j < m->njoint; j++) {
    const nsedi_joint *J = &m->joint[j];
    if (J->def.spring_k <= 0) continue;
    double axis[3], rhoa[3], rhob[3], s, sd;
    nsedi_joint_axial(m, j, kin, axis, rhoa, rhob, &s, &sd);
    V += 0.5 * J->def.spring_k * (s - J->def.rest_length) * (s - J->def.rest_length);
  }
  return V;
}

double nsedi_kinetic_energy(const nsed_model *m, const nsedi_kin *kin) {
  double T = 0;
  for (int i = 0; i < m->nbody; i++) {
    const nsed_body_def *b = &m->body[i].def;
    const nsedi_kin *k = &kin[i];
    T += 0.5 * b->mass * nsedi_v3_dot(k->v, k->v);
    for (int j = 0; j < 3; j++) T += 0.5 * b->inertia[j] * k->wb[j] * k->wb[j];
  }
  return T;
}

double nsedi_external_power(const nsed_model *m, const nsedi_kin *kin, const double *x, double t) {
  double P = 0;
  for (int i = 0; i < m->nforce; i++) {
    const nsedi_force *F = &m->force[i];
    const nsed_force_def *d = &F->def;
    const nsedi_kin *k = &kin[F->body];
    double dir[3];
    if (d->type == NSED_FORCE_SPRING) {
      double rhoa[3] = {0, 0, 0}, rhob[3] = {0, 0, 0}, e[3], len, rate;
      spring_geometry(k, d->point, kin_of(kin, F->body_b), d->point_b, rhoa, rhob, e, &len, &rate);
      P -= d->c * rate * rate;
      continue;
    }
    if (d->direction_in_body) nsedi_m3_mulv(dir, k->R, d->direction);
    else nsedi_v3_copy(dir, d->direction);
    double mag = nsed_law_eval(&d->magnitude, t);
    if (d->type == NSED_FORCE_BODY_TORQUE) {
      P += mag * nsedi_v3_dot(dir, k->ww);
    } else {
      double rho[3], w[3], vp[3];
      nsedi_m3_mulv(rho, k->R, d->point);
      nsedi_v3_cross(w, k->ww, rho);
      nsedi_v3_add(vp, k->v, w);
      P += mag * nsedi_v3_dot(dir, vp);
    }
  }
  for (int j = 0; j < m->njoint; j++) {
    const nsed_joint_def *d = &m->joint[j].def;
    if (d->spring_c > 0 || d->axial_drive.type != NSED_DRIVE_NONE) {
      double axis[3], rhoa[3] = {0, 0, 0}, rhob[3], s, sd;
      nsedi_joint_axial(m, j, kin, axis, rhoa, rhob, &s, &sd);
      P += (nsedi_drive_force(&d->axial_drive, t, s, sd) - d->spring_c * sd) * sd;
    }
    if (d->has_torque || d->drive.type != NSED_DRIVE_NONE) {
      double q, qd;
      nsedi_joint_angle(m, j, kin, x, &q, &qd);
      double torque = (d->has_torque ? nsed_law_eval(&d->torque, t) : 0.0) +
                      nsedi_drive_force(&d->drive, t, q, qd);
      P += torque * qd;
    }
  }
  return P;
}
