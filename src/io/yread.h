/* Typed readers of tree nodes for the problem schema. Each reader checks
 * the node's type and value, reports a problem as
 *   SRC:LINE:COL: PATH: expected ..., got ...
 * and returns 0 on success or -1 (reported). Numbers must be plain (unquoted)
 * finite literals: NaN and infinities are refused by name. */
#ifndef NSEDI_YREAD_H
#define NSEDI_YREAD_H

#include <stddef.h>

#include "diag.h"
#include "nsed/model.h"
#include "ytree.h"

/* PATH.key into buf (the key path of messages). */
void nsedi_path_key(char *buf, size_t size, const char *path, const char *key);
/* PATH[i] into buf. */
void nsedi_path_index(char *buf, size_t size, const char *path, int i);

/* Node must be a mapping; unknown keys are reported with a did-you-mean
 * suggestion from allowed (NULL-terminated). */
int nsedi_check_map(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                    const char *const *allowed);

/* A required key is present (reported at the mapping if not). */
int nsedi_require(nsedi_diag *d, const nsedi_ynode *map, const char *path, const char *key);

/* Number constraints for nsedi_read_double. */
typedef enum {
  NSEDI_ANY = 0,
  NSEDI_POSITIVE = 1,    /* > 0 */
  NSEDI_NONNEGATIVE = 2, /* >= 0 */
  NSEDI_UNIT = 3         /* in [0, 1] */
} nsedi_range;

int nsedi_read_double(nsedi_diag *d, const nsedi_ynode *node, const char *path, nsedi_range r,
                      double *out);
/* An integer in [lo, hi]. */
int nsedi_read_int(nsedi_diag *d, const nsedi_ynode *node, const char *path, long lo, long hi,
                   long *out);
/* A list of exactly n finite numbers. */
int nsedi_read_vec(nsedi_diag *d, const nsedi_ynode *node, const char *path, int n, double *out);
/* As nsedi_read_vec, and not all zero (a direction or an axis). */
int nsedi_read_dir(nsedi_diag *d, const nsedi_ynode *node, const char *path, double out[3]);
/* A name: a non-empty string shorter than NSED_NAME_MAX. */
int nsedi_read_name(nsedi_diag *d, const nsedi_ynode *node, const char *path, char out[NSED_NAME_MAX]);
/* One of the words in names (NULL-terminated); *out is its index. */
int nsedi_read_enum(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                    const char *const *names, int *out);
/* The points of a piecewise linear function from the mapping's keys xkey
 * (strictly increasing) and "values" (as many), into out (PIECEWISE). */
int nsedi_read_points(nsedi_diag *d, const nsedi_ynode *node, const char *path, const char *xkey,
                      nsed_law *out);
/* A time law: a number (constant) or {type: constant|sine|piecewise, ...}. */
int nsedi_read_law(nsedi_diag *d, const nsedi_ynode *node, const char *path, nsed_law *out);
/* An orientation: [q0,q1,q2,q3] or {axis: [3], angle_deg|angle_rad: x}. */
int nsedi_read_orientation(nsedi_diag *d, const nsedi_ynode *node, const char *path, double q[4]);

#endif
