/* nsed: event-driven nonsmooth multibody dynamics with complementarity.
 * Include this one header to use the library (link with `pkg-config nsed`). */
#ifndef NSED_NSED_H
#define NSED_NSED_H
#include "nsed/assemblies.h"
#include "nsed/complementarity.h"
#include "nsed/io.h"
#include "nsed/model.h"
#include "nsed/simulate.h"
#include "nsed/status.h"
#include "nsed/sweep.h"
#include "nsed/version.h"
#endif
