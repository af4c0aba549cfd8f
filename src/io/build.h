/* Problem tree -> definition structs -> model. The tree is checked against
 * the schema of docs/problem-format.md; definitions are only handed to the
 * builder (nsed_model_add_*) when the whole file is free of problems, so one
 * pass reports everything that needs fixing. */
#ifndef NSEDI_BUILD_H
#define NSEDI_BUILD_H

#include "diag.h"
#include "nsed/model.h"
#include "ytree.h"

/* The path of key below path, into a char buffer. */
#define KP(buf, path, key) nsedi_path_key(buf, sizeof buf, path, key)

/* Read an optional key of map (at path) with a reader call, which sees the
 * node as v_ and its path as kp_; sets the caller's rc on failure. */
#define NSEDI_OPT(map, path, key, call)               \
  do {                                                \
    const nsedi_ynode *v_ = nsedi_ymap_get(map, key); \
    if (v_) {                                         \
      char kp_[300];                                  \
      KP(kp_, path, key);                             \
      if (call) rc = -1;                              \
    }                                                 \
  } while (0)

typedef struct {
  nsedi_diag *d;
  const nsedi_ynode *root;
  int nbody, njoint, nforce, ncontact, nplane;
  nsed_body_def *bodies;
  nsed_plane_def *planes;
  nsed_joint_def *joints;
  nsed_force_def *forces;
  nsed_contact_def *contacts;
  /* The list item each definition came from: builder errors point there. */
  const nsedi_ynode **body_at, **joint_at, **force_at, **contact_at, **plane_at;
  int *item_ok; /* per body: read without problems (checks that rely on it are skipped otherwise) */
  nsed_options opt;
} nsedi_problem_defs;

/* Read bodies, joints, forces, planes and contacts (lists of the root mapping) into
 * defs; -1 if anything was reported, -2 when out of memory. */
int nsedi_build_items(nsedi_problem_defs *p);

/* Read gravity, floor, friction, solver and output into p->opt (which holds
 * the defaults on entry); -1 if anything was reported. */
int nsedi_build_settings(nsedi_problem_defs *p);

void nsedi_problem_defs_free(nsedi_problem_defs *p);

/* Index of the body named name in p, or -1. */
int nsedi_defs_find_body(const nsedi_problem_defs *p, const char *name);

#endif
