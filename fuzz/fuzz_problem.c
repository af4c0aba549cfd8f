/* libFuzzer target: the problem loader with command-line overrides (input
 * format in fuzz_problem_input.h). Beyond the sanitizers' memory and UB
 * checks it enforces the loader's contract: a model exactly on success, a
 * message on failure. */
#include "fuzz_problem_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  nsed_model *m = NULL;
  nsed_error err;
  int rc = nsed_fuzz_problem_load(data, size, &m, &err);
  if (rc == -1000) return 0; /* the harness's own malloc failed: not a finding */
  if (rc == NSED_OK && !m) abort();
  if (rc != NSED_OK && (m || !err.message[0])) abort();
  nsed_model_free(&m);
  return 0;
}
