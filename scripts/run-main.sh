#!/usr/bin/env bash
# The main job of the README: installs what is missing, builds, runs the
# default stick-slip case and plots it. Usage: scripts/run-main.sh [OUTDIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
problem="$root/problems/disk_on_shaft_case2.yaml"
out="${1:-$root/results/disk_on_shaft_case2}"
bash "$root/scripts/install-deps.sh"
export OPENBLAS_NUM_THREADS=1
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" >/dev/null
ninja -C "$build" >/dev/null
"$build/src/cli/nsed" run "$problem" -o "$out"
/usr/bin/python3 "$root/python/nsed_plot.py" "$out" --out "$out/plots" >/dev/null
# The paper's figures (Xu, Wang & Wang 2017, Figs. 14-19) of this run.
/usr/bin/python3 "$root/python/disk_on_shaft_figures.py" "$out" --out "$out/plots" >/dev/null
echo "nsed: trajectory: $out/trajectory.csv"
echo "nsed: event log:  $out/events.csv"
echo "nsed: plots:      $out/plots/"
