#!/usr/bin/env bash
# Run every libFuzzer target for a fixed budget each.
#   fuzz/run.sh [SECONDS] [BUILD_DIR] [TARGET...]   defaults: 300 s, build-fuzz, problem lcp_file cp_file
# BUILD_DIR must be configured with -Dfuzz=true (docs/reliability.md):
#   CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false
# Seeds: problems/, tests/io (good and bad files), tests/data/lcp (good, bad,
# infeasible), tests/data/cone (contact-problem files) and fuzz/seeds/. The growing corpus lives in
# BUILD_DIR/fuzz-corpus/TARGET (kept between runs, never in the source tree);
# crashes are written to BUILD_DIR/fuzz-artifacts/TARGET/. Prints one line a
# target (executions, executions/s, corpus, crash or not); exits 1 if any
# target crashed, leaked, timed out or ran out of memory.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-300}"
build="${2:-$root/build-fuzz}"
shift 2 2>/dev/null || shift $#
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(problem lcp_file cp_file)
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
[ -x "$build/fuzz/fuzz_problem" ] || { echo "fuzz/run.sh: no fuzz targets in $build (configure it with -Dfuzz=true, then ninja -C $build)" >&2; exit 2; }

# Without leak checks in the loader would be a miss; UBSan findings must stop the run.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
# The loader and reader are single-threaded; keep OpenBLAS from spawning threads.
export OPENBLAS_NUM_THREADS=1

seeds_for() { # target -> seed directories
  case "$1" in
    problem) echo "$root/problems $root/tests/io/good $root/tests/io/bad $root/fuzz/seeds/problem" ;;
    lcp_file) echo "$root/tests/data/lcp $root/fuzz/seeds/lcp_file" ;;  # recursive: bad/ and infeasible/ too
    cp_file) echo "$root/tests/data/cone" ;;
  esac
}

status=0
for t in "${targets[@]}"; do
  corpus="$build/fuzz-corpus/$t"
  art="$build/fuzz-artifacts/$t"
  mkdir -p "$corpus" "$art"
  dict=()
  [ -f "$root/fuzz/$t.dict" ] && dict=(-dict="$root/fuzz/$t.dict")
  log="$build/fuzz-$t.log"
  # -max_len 65536: the problem files are a few kB; room to grow.
  # -timeout 10: a single input taking 10 s is a hang worth reporting.
  # -rss_limit_mb 2048: bounded allocations (the LCP reader caps n at 4096).
  "$build/fuzz/fuzz_$t" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$art/" "${dict[@]}" "$corpus" $(seeds_for $t) >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  ncorp=$(ls "$corpus" | wc -l)
  if [ $rc -ne 0 ]; then
    status=1
    echo "fuzz_$t: CRASH (exit $rc) after ${execs:-?} executions; artifacts in $art, log $log" >&2
    grep -m3 -E 'ERROR|SUMMARY|runtime error' "$log" >&2
  else
    echo "fuzz_$t: ${secs} s, ${execs:-?} executions, ${rate:-?} exec/s, $cov, corpus $ncorp files, no crash"
  fi
done
exit $status
