/* Writing JSON values: the one place that escapes strings and spells
 * non-finite numbers. */
#ifndef NSEDI_JSON_H
#define NSEDI_JSON_H

#include <stdio.h>

/* A quoted string with JSON's escapes (NULL writes ""). */
void nsedi_json_string(FILE *f, const char *s);

/* A number with 17 significant digits, or null for NaN and infinities,
 * which JSON lacks. */
void nsedi_json_number(FILE *f, double v);

#endif
