#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Names tried before giving up: with 62^6 names a collision is already
 * unlikely on the first try; many in a row mean something else is wrong. */
#define UNIQUE_TRIES 100

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

/* Fill name with PATH.TAG- and six characters drawn from seed. */
static void unique_name(char *name, size_t size, const char *path, const char *tag, uint64_t seed) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  char suffix[7];
  for (int i = 0; i < 6; i++) {
    suffix[i] = alphabet[seed % 62];
    seed /= 62;
  }
  suffix[6] = '\0';
  snprintf(name, size, "%s.%s-%s", path, tag, suffix);
}

/* A seed that differs between processes, calls and tries; not secret (the
 * O_EXCL / mkdir creation is what makes the name safe to use). */
static uint64_t seed_for(const void *where, int attempt) {
  struct timespec ts = {0};
  clock_gettime(CLOCK_REALTIME, &ts);
  return mix((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 16) ^
             (uint64_t)(uintptr_t)where ^ (uint64_t)attempt * 0x9e3779b97f4a7c15ULL);
}

/* Try creating PATH.TAG-XXXXXX until one is new: a directory (dir != 0) or
 * a file opened for writing. Returns the descriptor (0 for a directory). */
static int make_unique(const char *path, const char *tag, int dir, char **out) {
  size_t size = strlen(path) + strlen(tag) + 16;
  char *name = malloc(size);
  if (!name) {
    errno = ENOMEM;
    return -1;
  }
  for (int attempt = 0; attempt < UNIQUE_TRIES; attempt++) {
    unique_name(name, size, path, tag, seed_for(name, attempt));
    int rc = dir ? mkdir(name, 0777) : open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (rc >= 0) {
      *out = name;
      return rc;
    }
    if (errno != EEXIST) break;
  }
  int e = errno;
  free(name);
  errno = e;
  return -1;
}

int nsedi_make_unique_dir(const char *path, const char *tag, char **out) {
  *out = NULL;
  return make_unique(path, tag, 1, out) < 0 ? -1 : 0;
}

int nsedi_make_unique_file(const char *path, const char *tag, char **out) {
  *out = NULL;
  return make_unique(path, tag, 0, out);
}
