/* The model's side of summary.json: each contact's law with the parameters
 * it uses and those it ignores, and the geometry a viewer needs to draw the
 * run (the floor, every body's shape). A result directory then says what
 * was simulated without the problem file. */
#include <stdio.h>

#include "json.h"
#include "writer.h"

static void number_field(FILE *f, const char *name, double v) {
  fputs(", ", f);
  nsedi_json_string(f, name);
  fputs(": ", f);
  nsedi_json_number(f, v);
}

static void vector(FILE *f, const double *v, int n) {
  fputc('[', f);
  for (int i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    nsedi_json_number(f, v[i]);
  }
  fputc(']', f);
}

/* The friction the event problem applies to an exact Coulomb contact: the
 * global polygon or cone setting. */
static void friction_of(FILE *f, const nsed_options *o, const nsed_contact_def *c) {
  if (c->law == NSED_CONTACT_COULOMB) {
    nsedi_json_string(f, nsed_friction_model_name(o->friction.model));
    if (o->friction.model != NSED_FRICTION_EXACT_CONE) fprintf(f, ", \"sides\": %d", o->friction.sides);
  } else {
    /* -mu N v_t / max(|v_t|, delta): docs/friction-models.md */
    nsedi_json_string(f, "regularized");
  }
}

void nsedi_summary_contact_laws(FILE *f, const nsed_model *m) {
  const nsed_options *o = nsed_model_options(m);
  fputc('[', f);
  for (int i = 0; i < nsed_model_ncontact(m); i++) {
    const nsed_contact_def *c = nsed_model_contact_def(m, i);
    fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
    nsedi_json_string(f, c->name);
    fputs(", \"body\": ", f);
    nsedi_json_string(f, c->body);
    fputs(", \"other\": ", f);
    nsedi_json_string(f, *c->other ? c->other : "floor");
    fputs(", \"law\": ", f);
    nsedi_json_string(f, nsed_contact_law_name(c->law));
    fputs(", \"friction\": ", f);
    friction_of(f, o, c);
    number_field(f, "mu", c->mu);
    if (c->law == NSED_CONTACT_COULOMB) number_field(f, "mu0", c->mu0);
    if (c->law != NSED_CONTACT_COMPLIANT) number_field(f, "restitution", c->restitution);
    if (c->law != NSED_CONTACT_COULOMB) number_field(f, "delta", c->delta);
    if (c->law == NSED_CONTACT_COMPLIANT) {
      number_field(f, "stiffness", c->stiffness);
      number_field(f, "damping", c->damping);
    }
    if (c->feature >= 0) fprintf(f, ", \"feature\": %d", c->feature);
    if (c->torsion > 0) number_field(f, "torsion", c->torsion);
    if (c->torsion > 0 && c->law != NSED_CONTACT_COULOMB) number_field(f, "torsion_rate", c->torsion_rate);
    int b = nsed_model_find_body(m, c->body), ob = nsed_model_find_body(m, c->other);
    nsed_shape_type bt = b >= 0 ? nsed_model_body_def(m, b)->shape.type : NSED_SHAPE_NONE;
    nsed_shape_type surf = ob >= 0 ? nsed_model_body_def(m, ob)->shape.type : bt;
    int surface = surf == NSED_SHAPE_ELLIPSOID || surf == NSED_SHAPE_SUPERELLIPSOID;
    if (bt == NSED_SHAPE_ROLLER || surface) {
      nsed_contact_tracking t = c->tracking == NSED_TRACKING_INHERIT ? o->contact_tracking : c->tracking;
      /* a surface has no implicit form (docs/problem-format.md) */
      if (surface && t == NSED_TRACKING_IMPLICIT) t = NSED_TRACKING_EXPLICIT;
      fputs(", \"tracking\": ", f);
      nsedi_json_string(f, nsed_contact_tracking_name(t));
    }
    char ignored[1024];
    int n = nsed_contact_ignored_parameters(m, i, ignored, sizeof ignored);
    fputs(", \"ignored\": ", f);
    if (n > 0) nsedi_json_string(f, ignored);
    else fputs("null", f);
    fputc('}', f);
  }
  fputs(nsed_model_ncontact(m) ? "\n  ]" : "]", f);
}

void nsedi_summary_geometry(FILE *f, const nsed_model *m) {
  const nsed_options *o = nsed_model_options(m);
  fputs("{\n    \"floor\": {\"point\": ", f);
  vector(f, o->floor_point, 3);
  fputs(", \"normal\": ", f);
  vector(f, o->floor_normal, 3);
  fputs(", \"velocity\": ", f);
  vector(f, o->floor_velocity, 3);
  fprintf(f, ", \"spin\": %.17g", o->floor_spin);
  fputs("},\n    \"planes\": [", f);
  for (int i = 0; i < nsed_model_nplane(m); i++) {
    const nsed_plane_def *p = nsed_model_plane_def(m, i);
    fputs(i ? ",\n      {\"name\": " : "\n      {\"name\": ", f);
    nsedi_json_string(f, p->name);
    fputs(", \"point\": ", f);
    vector(f, p->point, 3);
    fputs(", \"normal\": ", f);
    vector(f, p->normal, 3);
    fputs(", \"velocity\": ", f);
    vector(f, p->velocity, 3);
    fputc('}', f);
  }
  fputs(nsed_model_nplane(m) ? "\n    ],\n    \"bodies\": [" : "],\n    \"bodies\": [", f);
  for (int i = 0; i < nsed_model_nbody(m); i++) {
    const nsed_body_def *b = nsed_model_body_def(m, i);
    const nsed_shape *s = &b->shape;
    fputs(i ? ",\n      {\"name\": " : "\n      {\"name\": ", f);
    nsedi_json_string(f, b->name);
    fputs(", \"shape\": ", f);
    nsedi_json_string(f, nsed_shape_type_name(s->type));
    switch (s->type) {
      case NSED_SHAPE_SPHERE:
      case NSED_SHAPE_DISK: number_field(f, "radius", s->radius); break;
      case NSED_SHAPE_CYLINDER:
      case NSED_SHAPE_CAPSULE:
        number_field(f, "radius", s->radius);
        number_field(f, "length", s->length);
        break;
      case NSED_SHAPE_BOX:
      case NSED_SHAPE_ELLIPSOID:
      case NSED_SHAPE_SUPERELLIPSOID:
        fputs(", \"half\": ", f);
        vector(f, s->half, 3);
        if (s->type == NSED_SHAPE_SUPERELLIPSOID) number_field(f, "exponent", s->exponent);
        break;
      case NSED_SHAPE_ROLLER:
        number_field(f, "radius", s->radius);
        fprintf(f, ", \"rollers\": %d", s->rollers);
        number_field(f, "psi", s->psi);
        break;
      default: break;
    }
    number_field(f, "mass", b->mass);
    fputs(", \"inertia\": ", f);
    vector(f, b->inertia, 3);
    fputc('}', f);
  }
  fputs(nsed_model_nbody(m) ? "\n    ]\n  }" : "]\n  }", f);
}
