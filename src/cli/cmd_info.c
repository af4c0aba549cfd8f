/* nsed info: what this build is and what it links. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "nsed_config.h"
#ifdef NSED_HAVE_HDF5
#include "writer.h"
#endif

extern char *openblas_get_config(void);

int nsedi_cmd_info(int argc, char **argv) {
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    printf("usage: nsed info\n\nPrints nsed's version, the versions of the linked libraries and "
           "the build options.\n");
    return 0;
  }
  if (argc > 1) {
    fprintf(stderr, "nsed info: unexpected argument '%s'\n", argv[1]);
    return 2;
  }
  printf("nsed %s\n", NSED_VERSION);
  printf("  SUNDIALS         %s (ARKODE ERKStep, CVODE)\n", NSED_SUNDIALS_VERSION);
  printf("  Siconos Numerics %s (Lemke, enumeration, fc3d)\n", NSED_SICONOS_VERSION);
  printf("  OpenBLAS         %s\n", openblas_get_config());
#ifdef NSED_HAVE_HDF5
  char h5[64];
  nsedi_hdf5_version(h5, sizeof h5);
  printf("  HDF5             %s (nsed run --format hdf5)\n", h5);
#else
  printf("  HDF5             not built (nsed run --format hdf5 unavailable)\n");
#endif
  printf("  build type       %s\n", NSED_BUILDTYPE);
  printf("  sanitizers       %s\n", NSED_SANITIZE);
  return 0;
}
