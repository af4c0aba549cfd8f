#!/usr/bin/env bash
# Run the C test executables of a build directory under valgrind memcheck.
#   scripts/valgrind.sh [BUILD_DIR] [JOBS] [TEST_NAME_REGEX]   defaults: build, 2, all
# Every meson test whose command is a program built in BUILD_DIR (the C
# tests, and the `nsed lcp` tests that run the CLI directly) runs as
#   valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible
#            --suppressions=scripts/valgrind.supp TEST ARGS
# with the test's own arguments, environment and working directory, and
# OPENBLAS_NUM_THREADS=1 (OpenBLAS' thread pool adds minutes under valgrind
# and nothing to check). Python-driven tests are skipped (valgrinding the
# interpreter checks Python, not nsed). The build should be a normal one
# (no -Db_sanitize: ASan and valgrind exclude each other). Timeouts are the
# tests' own times 40. Prints one line a test (with its exit status, for
# reference: should_fail tests exit 1 or 2 by design) and exits 1 if any
# test had a memcheck error or leak, died by a signal or timed out.
# Logs: BUILD_DIR/valgrind/.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
jobs="${2:-2}"
filter="${3:-.}"
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind not found (Debian package valgrind)" >&2; exit 2; }
[ -f "$build/build.ninja" ] || { echo "valgrind.sh: $build is not a meson build directory" >&2; exit 2; }
if grep -q "fsanitize=address" "$build/build.ninja"; then
  echo "valgrind.sh: $build is built with ASan; use a build without -Db_sanitize" >&2
  exit 2
fi
ninja -C "$build" >/dev/null || { echo "valgrind.sh: the build failed" >&2; exit 2; }
exec /usr/bin/python3 - "$root" "$build" "$jobs" "$filter" <<'PY'
import concurrent.futures as cf
import json, os, re, subprocess, sys, time

root, build, jobs, filt = sys.argv[1], os.path.abspath(sys.argv[2]), int(sys.argv[3]), re.compile(sys.argv[4])
tests = json.loads(subprocess.run(["meson", "introspect", build, "--tests"], capture_output=True,
                                  check=True, text=True).stdout)
logdir = os.path.join(build, "valgrind")
os.makedirs(logdir, exist_ok=True)
supp = os.path.join(root, "scripts", "valgrind.supp")

def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False

def one(t):
    log = os.path.join(logdir, t["name"] + ".log")
    cmd = ["valgrind", "--error-exitcode=1", "--leak-check=full",
           "--errors-for-leak-kinds=definite,possible", "--show-leak-kinds=definite,possible",
           "--num-callers=30", f"--suppressions={supp}", f"--log-file={log}"] + t["cmd"]
    env = dict(os.environ)
    env.update(t.get("env") or {})
    env["OPENBLAS_NUM_THREADS"] = "1"
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=t.get("workdir") or build, env=env, capture_output=True,
                           timeout=40 * (t.get("timeout") or 30))
        rc = p.returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
    text = open(log, errors="replace").read() if os.path.exists(log) else ""
    m = re.search(r"ERROR SUMMARY: (\d+) errors", text)
    errors = int(m.group(1)) if m else -1
    leak = re.search(r"definitely lost: ([\d,]+) bytes", text)
    # Memory decides, not the exit status: `meson introspect` does not say
    # which tests are should_fail (they exit 1 or 2 by design) and memcheck's
    # own error exit is also 1. So: no memcheck error in the ERROR SUMMARY,
    # no timeout, no death by signal. Whether the test passed is meson
    # test's job (the status is printed for reference).
    ok = errors == 0 and rc != "timeout" and rc >= 0
    return t["name"], ok, rc, errors, leak.group(1) if leak else "0", time.time() - t0, log

named = [t for t in tests if filt.search(t["name"])]
# Programs built here only: /usr/bin/python3 is an ELF file too.
sel = [t for t in named if t["cmd"] and is_elf(t["cmd"][0])
       and os.path.abspath(os.path.join(build, t["cmd"][0])).startswith(build + os.sep)]
skipped = len(named) - len(sel)
bad = 0
with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
    for name, ok, rc, errors, leaked, secs, log in ex.map(one, sel):
        print(f"{'ok  ' if ok else 'FAIL'} {name:40s} exit {rc!s:8s} memcheck errors {errors:3d}  definitely lost {leaked} B  {secs:6.1f} s")
        if not ok:
            bad += 1
            print(f"     log: {log}")
print(f"valgrind: {len(sel) - bad} of {len(sel)} clean; {skipped} Python/script tests skipped")
sys.exit(1 if bad else 0)
PY
