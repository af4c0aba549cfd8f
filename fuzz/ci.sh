#!/usr/bin/env bash
# CI-sized fuzzing: build the libFuzzer targets with clang (ASan + UBSan) in
# a temporary directory and run each for SECONDS (default 30) from the seed
# corpus. Exit 0: no crash; 1: a target crashed, leaked, hung or broke the
# loader's contract (the crash inputs are copied to a directory that
# survives, printed below, and shown as hex); 2: cannot build (no clang).
#   fuzz/ci.sh [SECONDS]
# Needs the Debian packages clang and libclang-rt-14-dev
# (scripts/install-deps.sh installs them).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-30}"
if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz/ci.sh: clang not found: install the Debian packages clang and libclang-rt-14-dev" >&2
  exit 2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
build="$tmp/build-fuzz"
if ! CC=clang meson setup "$build" "$root" -Dfuzz=true -Db_sanitize=address,undefined \
     -Db_lundef=false -Dwerror=true >"$tmp/setup.log" 2>&1; then
  cat "$tmp/setup.log" >&2
  echo "fuzz/ci.sh: meson setup failed (is libclang-rt-14-dev installed?)" >&2
  exit 2
fi
if ! ninja -C "$build" fuzz/fuzz_problem fuzz/fuzz_lcp_file fuzz/fuzz_cp_file >"$tmp/build.log" 2>&1; then
  tail -40 "$tmp/build.log" >&2
  echo "fuzz/ci.sh: building the fuzz targets failed" >&2
  exit 2
fi
bash "$root/fuzz/run.sh" "$secs" "$build"
status=$?
if [ $status -ne 0 ]; then
  keep="$(mktemp -d "${TMPDIR:-/tmp}/nsed-fuzz-crashes-XXXXXX")"
  cp -r "$build/fuzz-artifacts" "$build"/fuzz-*.log "$keep/" 2>/dev/null
  echo "fuzz/ci.sh: crash inputs and logs kept in $keep; add each to tests/reliability/regressions/ once fixed" >&2
  for f in "$build"/fuzz-artifacts/*/*; do
    [ -f "$f" ] || continue
    echo "--- $(basename "$f") ($(wc -c <"$f") bytes):" >&2
    od -A d -c "$f" | head -40 >&2
  done
fi
exit $status
