#!/usr/bin/env bash
# The test command of the README: installs what is missing, builds and runs
# the whole test suite. Usage: scripts/test.sh [BUILD_DIR] [extra meson setup options]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shift || true
bash "$root/scripts/install-deps.sh"
export OPENBLAS_NUM_THREADS=1   # small dense solves: threads only cost (notes/dependencies.md §5)
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$root" "$@" >/dev/null
elif [ $# -gt 0 ]; then
  meson configure "$build" "$@" >/dev/null
fi
ninja -C "$build"
meson test -C "$build" --print-errorlogs --num-processes 2
