/* nsed_assembly: the parts an assembly builder gives, and adding them to a
 * model. */
#include <stdlib.h>
#include <string.h>

#include "assembly_impl.h"

int nsedi_assembly_alloc(nsed_assembly *a, int nbody, int njoint, int nforce, int ncontact,
                         nsed_error *err) {
  a->bodies = calloc((size_t)(nbody > 0 ? nbody : 1), sizeof *a->bodies);
  a->joints = calloc((size_t)(njoint > 0 ? njoint : 1), sizeof *a->joints);
  a->forces = calloc((size_t)(nforce > 0 ? nforce : 1), sizeof *a->forces);
  a->contacts = calloc((size_t)(ncontact > 0 ? ncontact : 1), sizeof *a->contacts);
  if (!a->bodies || !a->joints || !a->forces || !a->contacts) {
    nsed_assembly_free(a);
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory for an assembly of %d bodies",
                          nbody);
  }
  a->nbody = nbody;
  a->njoint = njoint;
  a->nforce = nforce;
  a->ncontact = ncontact;
  return NSED_OK;
}

void nsed_assembly_free(nsed_assembly *a) {
  if (!a) return;
  free(a->bodies);
  free(a->joints);
  free(a->forces);
  free(a->contacts);
  memset(a, 0, sizeof *a);
}

void nsedi_assembly_drop_unnamed_joints(nsed_assembly *a) {
  int kept = 0;
  for (int i = 0; i < a->njoint; i++)
    if (a->joints[i].name[0]) a->joints[kept++] = a->joints[i];
  a->njoint = kept;
}

int nsed_assembly_add(nsed_model *m, const nsed_assembly *a, nsed_error *err) {
  for (int i = 0; i < a->nbody; i++) {
    int rc = nsed_model_add_body(m, &a->bodies[i], err);
    if (rc < 0) return rc;
  }
  for (int i = 0; i < a->njoint; i++) {
    int rc = nsed_model_add_joint(m, &a->joints[i], err);
    if (rc < 0) return rc;
  }
  for (int i = 0; i < a->nforce; i++) {
    int rc = nsed_model_add_force(m, &a->forces[i], err);
    if (rc < 0) return rc;
  }
  for (int i = 0; i < a->ncontact; i++) {
    int rc = nsed_model_add_contact(m, &a->contacts[i], err);
    if (rc < 0) return rc;
  }
  return NSED_OK;
}
