/* nsed_get_build_info: the versions meson recorded in nsed_config.h and
 * those the linked libraries report about themselves. */
#include <string.h>

#include "nsed/io.h"
#include "nsed/version.h"
#include "nsed_config.h"
#include "writer.h"

/* OpenBLAS declares it in its cblas.h, which nsed does not otherwise use. */
extern char *openblas_get_config(void);

void nsed_get_build_info(nsed_build_info *info) {
  memset(info, 0, sizeof *info);
  info->version = NSED_VERSION_STRING;
  info->sundials = NSED_SUNDIALS_VERSION;
  info->siconos = NSED_SICONOS_VERSION;
  info->openblas = openblas_get_config();
#ifdef NSED_HAVE_HDF5
  nsedi_hdf5_version(info->hdf5, sizeof info->hdf5);
#endif
  info->buildtype = NSED_BUILDTYPE;
  info->sanitize = NSED_SANITIZE;
#ifdef NSED_GLPK_VERSION
  info->glpk = NSED_GLPK_VERSION;
#endif
}
