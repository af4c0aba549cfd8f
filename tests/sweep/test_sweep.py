#!/usr/bin/python3
"""`nsed sweep`: MPI split and resume.

Usage: test_sweep.py mpi|resume NSED_EXE SWEEP_TEST_DIR [MPIRUN]

mpi:    the 4-point sweep4.yaml single-process (2 threads) and under
        `mpirun -np 2 --oversubscribe` give byte-identical sweep.csv files.
        Exit 77 (skipped) without mpirun.
resume: resume4.yaml is killed (SIGKILL) once its first point has finished,
        then rerun: finished points are not redone (their summary.json keeps
        its inode and mtime), no temporary directory is left, and the table
        equals that of an uninterrupted sweep. Then the same after SIGINT
        (a clean stop: exit 1, the table says what is missing).
Prints `N passed, M failed`; exit 1 on failure."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

MODE, EXE, HERE = sys.argv[1], sys.argv[2], sys.argv[3]
MPIRUN = sys.argv[4] if len(sys.argv) > 4 else ""
passed = failed = 0
ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1")


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")


def sweep(spec, out, *extra, prefix=()):
    p = subprocess.run(list(prefix) + [EXE, "sweep", os.path.join(HERE, spec), "-o", out,
                                       "--quiet", *extra],
                       capture_output=True, text=True, env=ENV, timeout=600)
    if p.returncode != 0:
        print(p.stdout, p.stderr)
    return p.returncode


def table(out):
    with open(os.path.join(out, "sweep.csv")) as f:
        return f.read()


def mpi(tmp):
    if not MPIRUN:
        print("skipped: mpirun not found (Debian: openmpi-bin)")
        return 77
    single = os.path.join(tmp, "single")
    check(sweep("sweep4.yaml", single, "--jobs", "2") == 0, "single-process sweep")
    prefix = [MPIRUN, "-np", "2", "--oversubscribe"]
    if os.geteuid() == 0:
        # Open MPI refuses root unless told twice (option and environment).
        prefix.append("--allow-run-as-root")
        ENV.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    # Containers often lack a network interface Open MPI likes; loopback is enough.
    prefix += ["--mca", "btl", "self,vader", "--mca", "btl_tcp_if_include", "lo"]
    ranked = os.path.join(tmp, "mpi")
    check(sweep("sweep4.yaml", ranked, prefix=prefix) == 0, "mpirun -np 2 sweep")
    t1, t2 = table(single), table(ranked)
    check(t1 == t2, f"tables differ:\n{t1}\n{t2}")
    check(t1.count("\n") == 5 and t1.count(",ok,") == 4, f"4 ok points:\n{t1}")
    # which rank ran which point: summary.json exists for all, one per point
    check(all(os.path.exists(os.path.join(ranked, "points", str(i), "summary.json"))
              for i in range(4)), "every point has its result directory")
    # a second launch resumes: nothing to do, same table
    check(sweep("sweep4.yaml", ranked, prefix=prefix) == 0 and table(ranked) == t1,
          "mpirun rerun resumes to the same table")
    mpi_interrupted(tmp, prefix)
    return 0


def mpi_interrupted(tmp, prefix):
    """Ctrl-C on mpirun: mpirun sends SIGTERM to every rank and kills what is
    left when the first rank exits (or a second later). Every rank's running
    point must still end up "interrupted" in the table (they stayed
    "pending": the rank that exited first had the others killed), the final
    line must be printed, and no temporary directory may be left."""
    spec = os.path.join(tmp, "long2.yaml")
    with open(spec, "w") as f:
        f.write("problem: %s\n" % os.path.join(HERE, "..", "..", "problems",
                                                "sphere_slide_roll.yaml")
                + "grid: {contacts.ball_floor.mu: [0.1, 0.2]}\n"
                + "set: {solver.t_end: 1.0e6, output.dt: 0.01}\n"
                + "metrics: [events, t_reached]\n")
    # The race is lost only sometimes (which rank exits first): three tries.
    for k in range(3):
        one_mpi_interrupt(os.path.join(tmp, "mpi_int%d" % k), spec, prefix)


def one_mpi_interrupt(out, spec, prefix):
    p = subprocess.Popen(list(prefix) + [EXE, "sweep", spec, "-o", out], env=ENV,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and p.poll() is None:
        names = os.listdir(os.path.join(out, "points")) if os.path.isdir(
            os.path.join(out, "points")) else []
        if all(any(n.startswith("%d.tmp-" % i) for n in names) for i in range(2)):
            break
        time.sleep(0.02)
    time.sleep(0.5)   # both ranks integrating
    p.send_signal(signal.SIGINT)
    so, se = p.communicate(timeout=60)
    check(p.returncode != 0, f"mpirun after Ctrl-C: exit status {p.returncode}")
    t = table(out) if os.path.exists(os.path.join(out, "sweep.csv")) else ""
    rows = t.strip().split("\n")[1:]
    check(len(rows) == 2 and all(",interrupted," in r for r in rows),
          f"mpirun Ctrl-C: both running points interrupted in the table:\n{t}\n{se}")
    check("(interrupted: rerun the same command to resume)" in so,
          f"mpirun Ctrl-C: the final line is missing:\n{so}\n{se}")
    left = [e for e in os.listdir(os.path.join(out, "points")) if not e.isdigit()]
    check(not left, f"mpirun Ctrl-C: leftovers in points/: {left}")


def stamps(out):
    s = {}
    for i in range(4):
        p = os.path.join(out, "points", str(i), "summary.json")
        # an interrupted point's summary.json says so; it is to be redone
        if os.path.exists(p) and '"status": "interrupted"' not in open(p).read():
            st = os.stat(p)
            s[i] = (st.st_ino, st.st_mtime_ns)
    return s


def interrupted_then_resumed(tmp, name, sig, ref):
    out = os.path.join(tmp, name)
    p = subprocess.Popen([EXE, "sweep", os.path.join(HERE, "resume4.yaml"), "-o", out,
                          "--jobs", "1", "--quiet"], env=ENV,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    first = os.path.join(out, "points", "0", "summary.json")
    deadline = time.time() + 300
    while not os.path.exists(first) and p.poll() is None and time.time() < deadline:
        time.sleep(0.005)
    p.send_signal(sig)
    rc = p.wait()
    before = stamps(out)
    check(0 in before and len(before) < 4,
          f"{name}: killed with points {sorted(before)} finished (want some, not all)")
    if sig == signal.SIGINT:
        check(rc == 1, f"{name}: SIGINT exit status {rc}")
        t = table(out)
        check(",interrupted," in t or ",pending," in t, f"{name}: table shows the gap:\n{t}")
    check(sweep("resume4.yaml", out, "--jobs", "1") == 0, f"{name}: rerun")
    after = stamps(out)
    check(all(after.get(i) == v for i, v in before.items()),
          f"{name}: finished points redone: {before} -> {after}")
    check(len(after) == 4, f"{name}: all points done after the rerun")
    left = [e for e in os.listdir(os.path.join(out, "points")) if not e.isdigit()]
    check(not left, f"{name}: leftovers in points/: {left}")
    check(table(out) == ref, f"{name}: resumed table differs:\n{table(out)}\nvs\n{ref}")


def resume(tmp):
    ref_dir = os.path.join(tmp, "ref")
    check(sweep("resume4.yaml", ref_dir, "--jobs", "2") == 0, "reference sweep")
    ref = table(ref_dir)
    check(ref.count(",ok,") == 4, f"reference table:\n{ref}")
    # a nested metric of the law monitor: its worst margin, within tolerance
    head, *rows = ref.strip().split("\n")
    col = head.split(",").index("law_monitor.stick_friction.worst")
    check(all(float(r.split(",")[col]) >= -1e-9 for r in rows),
          f"law_monitor.stick_friction.worst tabulated:\n{ref}")
    interrupted_then_resumed(tmp, "killed", signal.SIGKILL, ref)
    interrupted_then_resumed(tmp, "sigint", signal.SIGINT, ref)
    # a result from other overrides is refused, not tabulated under new values
    shutil.copytree(os.path.join(ref_dir, "points", "0"),
                    os.path.join(tmp, "mixed", "points", "1"))
    p = subprocess.run([EXE, "sweep", os.path.join(HERE, "resume4.yaml"), "-o",
                        os.path.join(tmp, "mixed"), "--quiet"],
                       capture_output=True, text=True, env=ENV)
    check(p.returncode == 2 and "other overrides than point 1" in p.stderr,
          f"foreign result refused: {p.returncode} {p.stderr}")
    return 0


def main():
    tmp = tempfile.mkdtemp(prefix="nsed-sweep-")
    try:
        rc = mpi(tmp) if MODE == "mpi" else resume(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if rc == 77:
        return 77
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
