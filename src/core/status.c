#include "nsed/status.h"

#include <stdarg.h>
#include <stdio.h>

const char *nsed_status_name(int status) {
  switch (status) {
#define NSED_X_NAME(name, value, text) \
  case value:                          \
    return #name;
    NSED_STATUS_LIST(NSED_X_NAME)
#undef NSED_X_NAME
  }
  return "NSED_UNKNOWN_STATUS";
}

const char *nsed_status_text(int status) {
  switch (status) {
#define NSED_X_TEXT(name, value, text) \
  case value:                          \
    return text;
    NSED_STATUS_LIST(NSED_X_TEXT)
#undef NSED_X_TEXT
  }
  return "unknown status";
}

int nsed_error_set(nsed_error *err, int status, const char *fmt, ...) {
  if (err) {
    err->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return status;
}

void nsed_error_clear(nsed_error *err) {
  if (err) {
    err->status = NSED_OK;
    err->message[0] = '\0';
  }
}
