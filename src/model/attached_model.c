/* Attached rotors at model build: the parent, the fixed pose in its frame,
 * what the parent must satisfy to carry them, and the solve's masses
 * (docs/engine.md, "Attached rotors"). */
#include <math.h>
#include <string.h>

#include "math3.h"
#include "model_impl.h"
#include "nsed/status.h"
#include "tolerances.h"

static const char *const axis_name[3] = {"x", "y", "z"};

int nsedi_model_attach(const nsed_model *m, int p, nsedi_body *b, nsed_error *err) {
  const nsed_body_def *d = &b->def;
  b->parent = -1;
  b->xrate = -1;
  if (!d->attached_to[0]) return NSED_OK;
  if (p < 0)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': attached_to '%s' is not a body added before it", d->name,
                          d->attached_to);
  if (b->rotor_axis < 0)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': attached_to needs a rotor axis (rotor: x, y or z): an "
                          "attached body turns only about its axis",
                          d->name);
  const nsedi_body *pb = &m->body[p];
  if (pb->parent >= 0 || pb->rotor_axis >= 0)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': its parent '%s' is %s; a parent must be an ordinary body",
                          d->name, pb->def.name,
                          pb->parent >= 0 ? "attached itself" : "a rotor");
  b->parent = p;
  /* The pose relative to the parent, fixed from the initial one; the
   * rotor's turn starts at zero, so its state's frame is its material one. */
  double Rp[9], dr[3], conj[4] = {pb->def.quat[0], -pb->def.quat[1], -pb->def.quat[2],
                                  -pb->def.quat[3]};
  nsedi_quat_to_mat(Rp, pb->def.quat);
  nsedi_v3_sub(dr, d->position, pb->def.position);
  nsedi_m3_mulTv(b->rho, Rp, dr);
  nsedi_quat_mul(b->q0, conj, d->quat);
  nsedi_quat_normalize(b->q0);
  nsedi_quat_to_mat(b->R0, b->q0);
  return NSED_OK;
}

int nsedi_model_attached_joint(const nsed_model *m, int a, int b, const char *owner,
                               nsed_error *err) {
  int ends[2] = {a, b};
  for (int k = 0; k < 2; k++)
    if (ends[k] >= 0 && m->body[ends[k]].parent >= 0)
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "%s: body '%s' is attached to '%s' (reduced coordinates: it turns "
                            "only about its axis): it carries no joint",
                            owner, m->body[ends[k]].def.name,
                            m->body[m->body[ends[k]].parent].def.name);
  return NSED_OK;
}

int nsedi_model_attached_contact(const nsed_model *m, int body, int other, const char *owner,
                                 nsed_error *err) {
  if (other >= 0 && m->body[other].parent >= 0)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: body '%s' is attached to '%s': its contacts must be with the floor "
                          "or a plane",
                          owner, m->body[other].def.name,
                          m->body[m->body[other].parent].def.name);
  if (m->body[body].parent >= 0 && other >= 0)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%s: body '%s' is attached to '%s': its contacts must be with the floor "
                          "or a plane, not body '%s'",
                          owner, m->body[body].def.name, m->body[m->body[body].parent].def.name,
                          m->body[other].def.name);
  return NSED_OK;
}

/* The inertia (parent axes, row-major) rotor b adds about the parent's
 * centre: its moments across its axis (its axial one acts on its rate
 * only) and its mass at rho. */
static void added_inertia(const nsedi_body *b, double J[9]) {
  int a = b->rotor_axis;
  const double A = b->def.inertia[(a + 1) % 3], m = b->def.mass, *r = b->rho;
  double ax[3] = {b->R0[a], b->R0[3 + a], b->R0[6 + a]}, rr = nsedi_v3_dot(r, r);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      J[3 * i + j] = A * ((i == j) - ax[i] * ax[j]) + m * (rr * (i == j) - r[i] * r[j]);
}

/* A parent's solve mass and moments with its rotors', and the balance that
 * lets the solve keep them diagonal about its centre. */
static int parent_masses(nsed_model *m, int p, nsed_error *err) {
  nsedi_body *pb = &m->body[p];
  double mass = pb->def.mass, mr[3] = {0, 0, 0}, mscale = 0, J[9] = {0};
  for (int k = 0; k < 3; k++) J[4 * k] = pb->def.inertia[k];
  int n = 0;
  for (int i = 0; i < m->nbody; i++) {
    const nsedi_body *b = &m->body[i];
    if (b->parent != p) continue;
    double Ji[9];
    added_inertia(b, Ji);
    for (int k = 0; k < 9; k++) J[k] += Ji[k];
    mass += b->def.mass;
    nsedi_v3_axpy(mr, mr, b->def.mass, b->rho);
    mscale += b->def.mass * nsedi_v3_norm(b->rho);
    n++;
  }
  pb->solve_mass = mass;
  for (int k = 0; k < 3; k++) pb->solve_inertia[k] = J[4 * k];
  if (n == 0) return NSED_OK;
  if (nsedi_v3_norm(mr) > NSEDI_MODEL_ATTACHED_BALANCE * mscale)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': its attached rotors' centres are not balanced about its "
                          "centre (mass moment (%.3g, %.3g, %.3g) in its axes, against %.3g): "
                          "the solve keeps a parent's centre of mass at its own",
                          pb->def.name, mr[0], mr[1], mr[2], mscale);
  double trace = J[0] + J[4] + J[8], off = fmax(fabs(J[1]), fmax(fabs(J[2]), fabs(J[5])));
  if (off > NSEDI_MODEL_ATTACHED_BALANCE * trace)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': with its attached rotors its inertia is not diagonal in its "
                          "axes (largest product of inertia %.3g against a trace of %.3g): the "
                          "solve keeps a parent's principal axes its own",
                          pb->def.name, off, trace);
  return NSED_OK;
}

/* Given initial velocities of an attached rotor must be its parent's
 * motion at its centre (all but the rate about its axis). */
static int check_motion(const nsed_model *m, const nsedi_body *b, nsed_error *err) {
  const nsedi_body *pb = &m->body[b->parent];
  double Rp[9], Rb[9], wp[3], d[3], v[3], t[3], wb[3];
  nsedi_quat_to_mat(Rp, pb->def.quat);
  nsedi_quat_to_mat(Rb, b->def.quat);
  nsedi_m3_mulv(wp, Rp, pb->def.angular_velocity);
  nsedi_m3_mulv(d, Rp, b->rho);
  nsedi_v3_cross(t, wp, d);
  nsedi_v3_add(v, pb->def.velocity, t);
  nsedi_v3_sub(t, b->def.velocity, v);
  double scale = nsedi_v3_norm(pb->def.velocity) + nsedi_v3_norm(wp) * nsedi_v3_norm(d);
  double tol = NSEDI_MODEL_ATTACHED_MOTION * (1 + scale);
  if (nsedi_v3_norm(t) > tol)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': attached to '%s', its initial velocity (%.9g, %.9g, %.9g) "
                          "must be the parent's at its centre, (%.9g, %.9g, %.9g)",
                          b->def.name, pb->def.name, b->def.velocity[0], b->def.velocity[1],
                          b->def.velocity[2], v[0], v[1], v[2]);
  /* The parent's angular velocity in the rotor's axes, across its axis. */
  nsedi_m3_mulTv(wb, Rb, wp);
  int a = b->rotor_axis;
  double err_across = 0;
  for (int k = 0; k < 3; k++)
    if (k != a) err_across = fmax(err_across, fabs(b->def.angular_velocity[k] - wb[k]));
  if (err_across > NSEDI_MODEL_ATTACHED_MOTION * (1 + nsedi_v3_norm(wp)))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "body '%s': attached to '%s', its initial angular velocity across its "
                          "axis (body %s) must be the parent's, (%.9g, %.9g, %.9g) in its axes "
                          "(the rate about its axis is its own)",
                          b->def.name, pb->def.name, axis_name[a], wb[0], wb[1], wb[2]);
  return NSED_OK;
}

/* Whether anything the right-hand side evaluates on attached rotor i reads
 * its material frame beyond its axis, which the turn about the axis does
 * not move: a force element's body point or direction, or a contact other
 * than a roller's explicit or implicit point against a plane (those read
 * the axis, the centre and the motion; a differentially tracked point
 * keeps its coordinates in the material axes). Called after the contacts'
 * tracking is resolved. */
static int reads_material_frame(const nsed_model *m, int i) {
  for (int f = 0; f < m->nforce; f++)
    if (m->force[f].body == i || m->force[f].body_b == i) return 1;
  for (int c = 0; c < m->ncontact; c++) {
    const nsedi_contact *C = &m->contact[c];
    if (C->body != i && C->other != i) continue;
    /* a roller's axis is body x: the rotor's axis must be that one */
    if (C->body != i || C->pair != NSEDI_PAIR_ROLLER_PLANE ||
        C->tracking == NSED_TRACKING_DIFFERENTIAL || m->body[i].rotor_axis != 0)
      return 1;
  }
  return 0;
}

void nsedi_model_attached_frames(nsed_model *m) {
  for (int i = 0; i < m->nbody; i++)
    m->body[i].material_turn = m->body[i].parent >= 0 && reads_material_frame(m, i);
}

int nsedi_model_attached_finalize(nsed_model *m, nsed_error *err) {
  m->nattached = 0;
  for (int i = 0; i < m->nbody; i++) {
    nsedi_body *b = &m->body[i];
    b->solve_mass = b->def.mass;
    for (int k = 0; k < 3; k++) b->solve_inertia[k] = b->def.inertia[k];
    m->nattached += b->parent >= 0;
  }
  for (int i = 0; i < m->nbody; i++) {
    const nsedi_body *b = &m->body[i];
    if (b->parent < 0) continue;
    int rc = check_motion(m, b, err);
    if (rc) return rc;
  }
  for (int i = 0; i < m->nbody; i++) {
    int rc = parent_masses(m, i, err);
    if (rc) return rc;
  }
  return NSED_OK;
}

int nsedi_state_body(const nsed_model *m, int i) {
  for (int b = 0; b < m->nbody; b++)
    if (m->body[b].xbody >= 0 && i >= m->body[b].xbody && i < m->body[b].xbody + 13) return b;
  return -1;
}
