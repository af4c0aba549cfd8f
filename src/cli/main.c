#include <stdio.h>
#include "nsed_config.h"
int main(void) { printf("nsed %s\n", NSED_VERSION); return 0; }
