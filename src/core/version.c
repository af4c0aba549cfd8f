#include "nsed/version.h"

const char *nsed_version(void) { return NSED_VERSION_STRING; }
