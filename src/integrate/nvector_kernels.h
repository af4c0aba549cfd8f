#ifndef NSEDI_NVECTOR_KERNELS_H
#define NSEDI_NVECTOR_KERNELS_H

#include <nvector/nvector_serial.h>

/* Installs nsed's own kernels for the serial N_Vector operations the
 * integrators spend their time in (linear sums and combinations, scaling,
 * the error norm and weights). Debian's SUNDIALS 6.4.1 ships these
 * compiled without optimisation; these are the same operations on the same
 * operands in the same order, compiled with nsed's flags, so every result
 * is bit for bit SUNDIALS' own (docs/engine.md, "Vector kernels"). Clones
 * of v inherit them. */
void nsedi_nvector_use_own_kernels(N_Vector v);

#endif
