/* GLPK's error hook and terminal hook around a call (glpk_guard.h). */
#include "glpk_guard.h"

#ifdef NSED_HAVE_GLPK

#include <glpk.h>
#include <setjmp.h>

/* GLPK stops on a failed internal assertion (its primal simplex on a big-M
 * form, bound 1e4, measured): the hook returns control to the guard
 * instead of letting it abort the process. */
static void on_glpk_error(void *jump) { longjmp(*(jmp_buf *)jump, 1); }

/* GLPK's terminal output (its messages, an assertion's report) is not
 * nsed's to print: outcomes reach callers in their reports. */
static int swallow_output(void *info, const char *s) {
  (void)info;
  (void)s;
  return 1;
}

int nsedi_glpk_guarded(int (*fn)(void *ctx), void *ctx, int failed) {
  jmp_buf jump;
  glp_term_hook(swallow_output, NULL);
  glp_error_hook(on_glpk_error, &jump);
  int out;
  if (setjmp(jump) == 0) {
    out = fn(ctx);
  } else {
    /* After an error GLPK's environment is unusable until freed; freeing
     * it releases every object the call had made. */
    glp_free_env();
    out = failed;
  }
  glp_error_hook(NULL, NULL);
  glp_term_hook(NULL, NULL);
  return out;
}

#endif
