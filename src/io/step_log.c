#include "step_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format_g17.h"

#define STEP_LOG_BUFSIZE (1 << 20)

static void free_names(nsedi_step_log *l) {
  for (int i = 0; i < l->nnames; i++) free(l->names[i]);
  free(l->names);
  l->names = NULL;
  l->nnames = 0;
}

int nsedi_step_log_open(nsedi_step_log *l, const char *dir, const nsed_model *m, nsed_error *err) {
  memset(l, 0, sizeof *l);
  int n = nsed_model_nstate(m) + 3; /* and the three work integrals */
  l->names = calloc((size_t)n, sizeof *l->names);
  if (!l->names) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (step log)");
  l->nnames = n;
  for (int i = 0; i < n; i++) {
    char name[2 * NSED_NAME_MAX + 16];
    nsed_state_name(m, i, name, sizeof name);
    if (!(l->names[i] = strdup(name))) {
      free_names(l);
      return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (step log)");
    }
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/steps.csv", dir);
  if (!(l->f = fopen(path, "w"))) {
    free_names(l);
    return nsed_error_set(err, NSED_ERR_IO, "cannot create %s: %s", path, strerror(errno));
  }
  setvbuf(l->f, NULL, _IOFBF, STEP_LOG_BUFSIZE);
  if (fputs("t,h,rejected,rhs,error,limit,limit_share,events,first\n", l->f) < 0) l->io_errno = errno ? errno : EIO;
  return NSED_OK;
}

int nsedi_step_log_write(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_step_info *s) {
  (void)m, (void)d;
  nsedi_step_log *l = ctx;
  if (l->io_errno) return 1;
  const char *limit = s->limit >= 0 && s->limit < l->nnames ? l->names[s->limit] : "";
  int bad = nsedi_put_g17(l->f, s->t) < 0 || fputc(',', l->f) < 0 || nsedi_put_g17(l->f, s->h) < 0 ||
            fprintf(l->f, ",%ld,%ld,", s->rejected, s->rhs) < 0 || nsedi_put_g17(l->f, s->error) < 0 ||
            fprintf(l->f, ",%s,", limit) < 0 || nsedi_put_g17(l->f, s->limit_share) < 0 ||
            fprintf(l->f, ",%ld,%d\n", s->events, s->first) < 0;
  if (bad) l->io_errno = errno ? errno : EIO;
  return bad;
}

int nsedi_step_log_close(nsedi_step_log *l, nsed_error *err) {
  int rc = NSED_OK;
  if (l->f) {
    if (fclose(l->f) != 0 && !l->io_errno) l->io_errno = errno ? errno : EIO;
    l->f = NULL;
    if (l->io_errno)
      rc = nsed_error_set(err, NSED_ERR_IO, "writing steps.csv failed: %s", strerror(l->io_errno));
  }
  free_names(l);
  return rc;
}
