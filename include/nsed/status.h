/* nsed status codes: one list, names generated from it.
 *
 * Convention (after SUNDIALS): 0 is success, positive values are outcomes a
 * caller may act on, negative values are failures. The library never exits the
 * process; every failure comes back as one of these codes together with a
 * human-readable message in an nsed_error. */
#ifndef NSED_STATUS_H
#define NSED_STATUS_H

#include <stddef.h>

#include "nsed/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NSED_STATUS_LIST(X)                                                           \
  X(NSED_OK, 0, "success")                                                            \
  X(NSED_LCP_INFEASIBLE, 1, "the LCP has no solution (ray termination verified)")    \
  X(NSED_ERR_INPUT, -1, "invalid input")                                              \
  X(NSED_ERR_NOMEM, -2, "out of memory")                                              \
  X(NSED_ERR_IO, -3, "file input/output failed")                                      \
  X(NSED_ERR_LCP, -4, "the complementarity problem could not be solved")              \
  X(NSED_ERR_INTEGRATOR, -5, "the ODE integrator failed")                             \
  X(NSED_ERR_NONFINITE, -6, "a non-finite value appeared")                            \
  X(NSED_ERR_SINGULAR, -7, "a linear system is singular")                             \
  X(NSED_ERR_EVENT, -8, "an event could not be resolved")                             \
  X(NSED_ERR_INTERRUPTED, -9, "interrupted")                                          \
  X(NSED_ERR_INTERNAL, -10, "internal error (a bug in nsed: please report it)")          \
  X(NSED_ERR_LAW, -11, "a contact law or a constraint was violated (law monitor)")

typedef enum {
#define NSED_X_ENUM(name, value, text) name = value,
  NSED_STATUS_LIST(NSED_X_ENUM)
#undef NSED_X_ENUM
} nsed_status;

/* Short identifier of a status ("NSED_ERR_LCP"); never NULL. */
NSED_API const char *nsed_status_name(int status);

/* One-line description of a status ("the ODE integrator failed"); never NULL. */
NSED_API const char *nsed_status_text(int status);

/* Error details: the status and a message that says what went wrong and where
 * (file:line:column and key for input errors, time and contact for runtime). */
typedef struct {
  int status;
  char message[1024];
} nsed_error;

/* Set err (if not NULL) to status and a printf-style message; returns status,
 * so `return nsed_error_set(err, NSED_ERR_INPUT, "...")` reads naturally. */
NSED_API int nsed_error_set(nsed_error *err, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clear err to NSED_OK with an empty message. */
NSED_API void nsed_error_clear(nsed_error *err);

#ifdef __cplusplus
}
#endif
#endif
