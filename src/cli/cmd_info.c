/* nsed info: what this build is and what it links. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "nsed/io.h"

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
  nsed_build_info b;
  nsed_get_build_info(&b);
  printf("nsed %s\n", b.version);
  printf("  SUNDIALS         %s (ARKODE ERKStep, CVODE)\n", b.sundials);
  printf("  Siconos Numerics %s (Lemke, enumeration, fc3d)\n", b.siconos);
  printf("  OpenBLAS         %s\n", b.openblas);
  if (b.hdf5[0]) printf("  HDF5             %s (nsed run --format hdf5)\n", b.hdf5);
  else printf("  HDF5             not built (nsed run --format hdf5 unavailable)\n");
  if (b.glpk) printf("  GLPK             %s (the LCP's mixed-integer search)\n", b.glpk);
  else printf("  GLPK             not built (the LCP's mixed-integer search unavailable)\n");
  printf("  build type       %s\n", b.buildtype);
  printf("  sanitizers       %s\n", b.sanitize);
  return 0;
}
