/* Calls into GLPK with its terminal output dropped and its internal errors
 * caught (docs/complementarity.md, "The mixed-integer search"). Only in
 * builds with GLPK (NSED_HAVE_GLPK). */
#ifndef NSED_COMPLEMENTARITY_GLPK_GUARD_H
#define NSED_COMPLEMENTARITY_GLPK_GUARD_H

/* fn(ctx)'s value; `failed` where GLPK stopped on an internal error inside
 * it (its environment, with every object fn made through GLPK, is then
 * freed). GLPK's hooks are nsed's during the call and its defaults after. */
int nsedi_glpk_guarded(int (*fn)(void *ctx), void *ctx, int failed);

#endif
