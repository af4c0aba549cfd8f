#!/usr/bin/env bash
# Every symbol libnsed exports carries the nsed_ (public) or nsedi_
# (internal) prefix (ASan adds __odr_asan.<name> twins), so it cannot collide with Siconos' generic globals
# (cond, pinv, do_pivot, ... : notes/dependencies.md P9) or a user's code.
set -euo pipefail
lib="$1"
bad="$(nm -D --defined-only "$lib" | awk '{print $3}' |
       grep -v -E '^(nsed_|nsedi_|__odr_asan[.]nsed|_init$|_fini$|_edata$|_end$|__bss_start$)' || true)"
count="$(nm -D --defined-only "$lib" | grep -c ' T nsed_' || true)"
if [ -n "$bad" ]; then
  echo "libnsed exports symbols without the nsed_/nsedi_ prefix:" >&2
  echo "$bad" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
[ "$count" -gt 20 ] || { echo "only $count public nsed_ functions exported?" >&2; exit 1; }
echo "$count public functions, all symbols prefixed"
echo "1 passed, 0 failed"
