#!/usr/bin/env bash
# libnsed exports exactly the functions its public headers declare NSED_API:
# nothing internal (nsedi_, or Siconos-like generic names that could collide
# with a user's code, notes/dependencies.md P9), and nothing declared public
# is missing. ASan adds __odr_asan.<name> twins.
#   check_symbols.sh LIBNSED.so INCLUDE_DIR
set -euo pipefail
lib="$1"
inc="$2"
exported="$(nm -D --defined-only "$lib" | awk '{print $3}' |
            grep -v -E '^(__odr_asan[.]nsed|_init$|_fini$|_edata$|_end$|__bss_start$)' | sort -u)"
declared="$(cat "$inc"/nsed/*.h | tr '\n' ' ' | grep -o -E 'NSED_API [^(;]*[(]' |
            grep -o -E 'nsed_[a-z0-9_]+ *[(]$' | tr -d ' (' | sort -u)"
status=0
extra="$(comm -23 <(echo "$exported") <(echo "$declared"))"
missing="$(comm -13 <(echo "$exported") <(echo "$declared"))"
if [ -n "$extra" ]; then
  echo "libnsed exports symbols no public header declares NSED_API:" >&2
  echo "$extra" >&2
  status=1
fi
if [ -n "$missing" ]; then
  echo "public headers declare NSED_API functions libnsed does not export:" >&2
  echo "$missing" >&2
  status=1
fi
count="$(echo "$declared" | grep -c . || true)"
[ "$count" -gt 50 ] || { echo "only $count public functions declared?" >&2; status=1; }
if [ $status -ne 0 ]; then
  echo "0 passed, 1 failed"
  exit 1
fi
echo "$count public functions, exactly those exported"
echo "1 passed, 0 failed"
