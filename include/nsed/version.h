/* nsed's version, and the library's own (to catch a header/library mismatch).
 * meson.build checks that these numbers are its project version. */
#ifndef NSED_VERSION_H
#define NSED_VERSION_H

#include "nsed/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NSED_VERSION_MAJOR 0
#define NSED_VERSION_MINOR 4
#define NSED_VERSION_PATCH 0
#define NSED_VERSION_STRING "0.4.0"
/* One comparable number: 10000 major + 100 minor + patch. */
#define NSED_VERSION_NUMBER (10000 * NSED_VERSION_MAJOR + 100 * NSED_VERSION_MINOR + NSED_VERSION_PATCH)

/* The version of the library linked at run time ("0.1.0"). */
NSED_API const char *nsed_version(void);

#ifdef __cplusplus
}
#endif
#endif
