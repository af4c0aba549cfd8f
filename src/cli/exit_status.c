#include "commands.h"
#include "nsed/status.h"

int nsedi_exit_status(int status) {
  switch (status) {
  case NSED_OK:
    return 0;
  case NSED_ERR_INPUT:
    return 2;
  case NSED_ERR_IO:
    return 3;
  default:
    return 1;
  }
}
