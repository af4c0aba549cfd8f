#!/usr/bin/env bash
# Paper figures of the disk on a shaft (Xu, Wang & Wang 2017, Figs. 10-22):
# builds nsed in ./build if needed, runs cases 1, 2, 3 and case 3 without
# stabilisation into results/disk_on_shaft/<case>/, plots each run into
# results/disk_on_shaft/<case>/plots/ and, without an OUTDIR argument only,
# copies case 2's figures and the case-3 drift figure into docs/img/ for the
# README (with an OUTDIR, everything stays under it).
#
# Usage: scripts/disk_on_shaft_figures.sh [OUTDIR]   (default results/disk_on_shaft)
# NSED=/path/to/nsed uses that binary instead of building ./build.
# A run that fails (nsed exit 1) is still plotted (its titles say "failed"),
# but nothing is copied to docs/img and the script exits 1.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
out="${1:-$root/results/disk_on_shaft}"
update_docs=$([ $# -eq 0 ] && echo 1 || echo 0)
py=/usr/bin/python3
export OPENBLAS_NUM_THREADS=1

if [ -n "${NSED:-}" ]; then
    nsed="$NSED"
else
    [ -f "$build/build.ninja" ] || meson setup "$build" "$root" >/dev/null
    ninja -C "$build" >/dev/null
    nsed="$build/src/cli/nsed"
fi

cd "$root"   # summary.json names the problem relative to here (mu0 lookup)
failed=()
for case in case1 case2 case3 case3_nostab; do
    echo "nsed: running disk_on_shaft_$case"
    status=0
    "$nsed" run "problems/disk_on_shaft_$case.yaml" -o "$out/$case" --quiet || status=$?
    case $status in
        0) ;;
        1) failed+=("$case") ;;    # partial results were written: still plot them
        *) echo "nsed: disk_on_shaft_$case: nsed exit status $status" >&2; exit "$status" ;;
    esac
done

figs="$root/python/disk_on_shaft_figures.py"
"$py" "$figs" "$out/case1" --out "$out/case1/plots"
"$py" "$figs" "$out/case2" --out "$out/case2/plots"
"$py" "$figs" "$out/case3" --out "$out/case3/plots" --nostab "$out/case3_nostab"
"$py" "$figs" "$out/case3_nostab" --out "$out/case3_nostab/plots"

if [ ${#failed[@]} -gt 0 ]; then
    echo "nsed: simulation failed for: ${failed[*]} (see $out/<case>/summary.json);" \
         "docs/img left unchanged" >&2
    exit 1
fi

if [ "$update_docs" = 0 ]; then
    echo "figures in $out/<case>/plots (docs/img left unchanged: an OUTDIR was given)"
    exit 0
fi

# README figures: case 2 (the main job) and the case-3 drift comparison.
# Copied to a temporary name, then renamed: no reader sees a half-copied image.
mkdir -p "$root/docs/img"
install_img() {
    local tmp
    tmp="$(mktemp "$root/docs/img/.$(basename "$2").XXXXXX")"
    cp "$1" "$tmp" && chmod 644 "$tmp" && mv -f "$tmp" "$2"
    echo "$2"
}
for name in c1_trajectory L_OC1 slip_speed friction phase; do
    install_img "$out/case2/plots/$name.png" "$root/docs/img/disk_on_shaft_case2_$name.png"
done
install_img "$out/case3/plots/drift.png" "$root/docs/img/disk_on_shaft_drift.png"
install_img "$out/case3/plots/c1_trajectory.png" "$root/docs/img/disk_on_shaft_case3_c1_trajectory.png"
