#!/usr/bin/env bash
# Soak runs (closes: contacts closing, each roller handover one; impacts):
# disk on a shaft, case 2 (periodic stick-slip), the omni-wheel
# testbench (roller handovers), Kosenko's omni vehicle coasting
# (omni_vehicle_coast) and driven by sine torques (omni_vehicle_wander), each
# for 10, 100 and 1000 simulated seconds (time units for the vehicle). For each horizon: status (must be "ok"), events,
# peak RSS (/usr/bin/time -v), wall time, energy balance error and maximum
# constraint violation (summary.json); the balance error also relative to the
# energy that flowed (|E0| + |work of loads| + |work of friction|). Memory must stay flat: the 1000 s RSS
# within 10% (+1 MB) of the 10 s one. Exits 1 on any failure.
#   bench/soak.sh [BUILD_DIR] [HORIZONS...]     defaults: build, 10 100 1000
#   SOAK_PROBLEMS="omni_vehicle_coast omni_vehicle_wander" bench/soak.sh   a subset
# Not in CI (about 15 s for the disk, 30 s for the testbench, 80 s and 25 s
# for the two vehicles on this project's 2-core machine, 2026-12-07); the
# last results are in docs/reliability.md.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shift || true
horizons=("$@")
[ ${#horizons[@]} -gt 0 ] || horizons=(10 100 1000)
nsed="$build/src/cli/nsed"
[ -x "$nsed" ] || { echo "soak.sh: $nsed not found (build first: meson setup $build && ninja -C $build)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "soak.sh: /usr/bin/time missing (Debian package 'time')" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export OPENBLAS_NUM_THREADS=1

status=0
read -r -a problems <<<"${SOAK_PROBLEMS:-disk_on_shaft_case2 omni_wheel_testbench omni_vehicle_coast omni_vehicle_wander}"
for P in "${problems[@]}"; do
echo "== $P"
first_rss=""
printf '%-8s %-7s %-8s %-8s %-8s %-10s %-9s %-22s %-22s\n' t_end status events closes impacts peak_RSS_kB wall_s 'energy_bal_err(rel)' max_constraint_viol
for T in "${horizons[@]}"; do
  out="$work/${P}_$T"
  /usr/bin/time -v -o "$work/time_$T" "$nsed" run "$root/problems/$P.yaml" \
    --set solver.t_end="$T" -o "$out" --quiet 2>"$work/err_$T"
  rc=$?
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time_$T")
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time_$T")
  line=$(/usr/bin/python3 - "$out/summary.json" <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except OSError:
    print("missing - - - - -")
    sys.exit()
# The balance error relative to the energy that flowed: |E0| + |work of loads| + |work of contacts|.
scale = abs(s["energy_initial"]) + abs(s["work_external"]) + abs(s["work_contacts"])
k = s.get("events_by_kind", {})
print(s["status"], s["events"], k.get("close", 0), k.get("impact", 0), "%.3e(%.1e)" % (s["energy_balance_error"], s["energy_balance_error"] / scale),
      "%.3e" % s["max_constraint_violation"])
PY
)
  read -r st ev cl im eb cv <<<"$line"
  printf '%-8s %-7s %-8s %-8s %-8s %-10s %-9s %-22s %-22s\n' "$T" "$st" "$ev" "$cl" "$im" "$rss" "$wall" "$eb" "$cv"
  if [ $rc -ne 0 ] || [ "$st" != ok ]; then
    status=1
    echo "soak.sh: $P t_end=$T failed (exit $rc):" >&2
    cat "$work/err_$T" >&2
  fi
  [ -n "$first_rss" ] || first_rss=$rss
  last_rss=$rss
done
# Flat memory: nsed streams its outputs, so RSS must not grow with the horizon.
if [ -n "$first_rss" ] && [ "$last_rss" -gt $((first_rss + first_rss / 10 + 1024)) ]; then
  echo "soak.sh: $P: peak RSS grew from $first_rss kB to $last_rss kB" >&2
  status=1
fi
done
exit $status
