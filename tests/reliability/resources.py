#!/usr/bin/env python3
"""Interruption and resource faults through `nsed run`.

Usage: resources.py NSED SOURCE_ROOT CASE

  sigint, sigterm        the signal during a long run: exit 1, summary.json
                         "interrupted", complete files up to t_reached, the
                         output directory in place, no temporary left
  fsize_ignored          RLIMIT_FSIZE of 20 kB with SIGXFSZ ignored (what a
                         Python or daemon parent gives): writes fail with
                         EFBIG: exit 3, "writing trajectory.csv failed: File
                         too large", no output directory, no temporary
  fsize_default_signal   the same limit as a shell's `ulimit -f` sets it
                         (SIGXFSZ at its default): nsed ignores the signal and
                         reports it as above
  fsize_hdf5             the same with --format hdf5: HDF5 1.10 crashed at exit
                         on the file whose close had failed (segfault, exit
                         139); now exit 3 with the message
  unwritable_outdir      -o inside a directory without write permission
  outdir_is_file         -o below a regular file
  readonly_problem_dir   the problem in a read-only directory: -o elsewhere
                         works; the default results/ under a read-only cwd is
                         a clear error
  (the three above: exit 3, the output could not be written)
  foreign_files_kept     a rerun into a result directory that holds a file
                         nsed did not write (at the top or in plots/) is
                         refused (exit 2, the file named); the user's file and
                         the old result stay as they were
  foreign_file_during_run  a file put into the old result directory while the
                         rerun is going: the new result is not put in place
                         (exit 2, "changed during the run"), the file and the
                         old result kept
  outdir_mode            the result directory gets 0777 less the umask (022
                         and 027), its files 0666 less the umask

As root, permission bits do not bind: the permission cases then run nsed as
user nobody (65534); where that is impossible they are skipped (77).
"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reltest import Failures, no_leftovers, result_complete, run  # noqa: E402

NOBODY = 65534


ROOT_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def drop_root():
    if os.getuid() == 0:
        os.setgid(NOBODY)
        os.setuid(NOBODY)


def can_drop_root(nsed):
    """True if nsed can run as nobody (when root); a build inside a 0700
    directory (mktemp -d in CI) cannot, and then the case is skipped."""
    if os.getuid() != 0:
        return True
    try:
        p = run([nsed, "--version"], preexec_fn=drop_root)
    except (OSError, subprocess.SubprocessError):
        return False
    return p.returncode == 0


def signal_case(nsed, root, sig, f):
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "out")
        problem = os.path.join(root, "problems", "disk_on_shaft_case2.yaml")
        p = subprocess.Popen([nsed, "run", problem, "--set", "solver.t_end=1000", "-o", out, "--quiet"],
                             stderr=subprocess.PIPE)
        # Signal once the run is really under way: trajectory rows being written.
        deadline = time.time() + 60
        started = False
        while time.time() < deadline and p.poll() is None:
            tmps = [d for d in os.listdir(work) if d.startswith("out.tmp-")]
            tp = os.path.join(work, tmps[0], "trajectory.csv") if tmps else None
            if tp and os.path.exists(tp) and os.path.getsize(tp) > 20000:
                started = True
                break
            time.sleep(0.05)
        f.check(started, "the run did not start writing within 60 s")
        p.send_signal(sig)
        try:
            _, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
            f.check(False, "nsed did not stop within 60 s of the signal")
        err = err.decode("utf-8", "replace")
        print(err.strip())
        f.check(p.returncode == 1, f"exit status {p.returncode}, expected 1")
        f.check("interrupted" in err and out in err, "stderr does not say it was interrupted and where the results are")
        s = result_complete(out, f)
        no_leftovers(work, "out", f)
        if s:
            f.check(s.get("status") == "interrupted", f"status {s.get('status')!r}, expected 'interrupted'")
            f.check(s.get("status_code") == "NSED_ERR_INTERRUPTED", f"status_code {s.get('status_code')!r}")
            f.check(0 < s.get("t_reached", 0) < 1000, f"t_reached {s.get('t_reached')} not inside (0, 1000)")


def fsize_case(nsed, root, ignore_sigxfsz, f, fmt="csv"):
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "out")
        problem = os.path.join(root, "problems", "disk_on_shaft_case2.yaml")
        # restore_signals=False keeps Python's SIG_IGN for SIGXFSZ in the child;
        # True resets it to the default, as a shell does.
        p = run([nsed, "run", problem, "--set", "solver.t_end=3", "-o", out, "--quiet", "--format", fmt],
                preexec_fn=limit, restore_signals=not ignore_sigxfsz)
        print(p.err.strip())
        f.check(p.returncode == 3, f"exit status {p.returncode}, expected 3 (output not written; negative: killed by signal {-p.returncode})")
        expect = ("writing trajectory.csv failed: File too large" if fmt == "csv"
                  else "writing results.h5 failed")
        f.check(expect in p.err, f"no clear message about the file size ({expect!r})")
        f.check(not os.path.exists(out), "an output directory was claimed complete")
        no_leftovers(work, "out", f)


def io_error_case(nsed, f, outdir_of, expect, cwd_of=None):
    """Run a small problem as nobody (if root) with -o outdir_of(work)."""
    with tempfile.TemporaryDirectory() as work:
        os.chmod(work, 0o755)
        if os.getuid() == 0:
            # The build may sit in a 0700 directory (CI's mktemp -d): run a
            # copy (the nsed program links libnsed statically).
            copy = os.path.join(work, "nsed")
            shutil.copy2(nsed, copy)
            os.chmod(copy, 0o755)
            nsed = copy
        if not can_drop_root(nsed):
            print(f"cannot run {nsed} as user nobody: skipped")
            sys.exit(77)
        prob_dir = os.path.join(work, "prob")
        os.mkdir(prob_dir)
        problem = os.path.join(prob_dir, "sphere.yaml")
        with open(problem, "w") as fh:
            fh.write("bodies:\n  - {name: ball, mass: 1, shape: {type: sphere, radius: 0.1},"
                     " position: [0, 0, 0.1], velocity: [2, 0, 0]}\n"
                     "contacts:\n  - {name: ball_floor, body: ball, mu: 0.3}\n"
                     "solver: {t_end: 0.3}\n")
        locked = os.path.join(work, "locked")
        os.mkdir(locked)
        open(os.path.join(work, "plain_file"), "w").close()
        os.chmod(problem, 0o444)
        os.chmod(prob_dir, 0o555)
        os.chmod(locked, 0o555)
        writable = os.path.join(work, "writable")
        os.mkdir(writable)
        os.chmod(writable, 0o777)
        out = outdir_of(work)
        args = ["-o", out] if out else []
        cwd = cwd_of(work) if cwd_of else work
        p = run([nsed, "run", problem, "--quiet"] + args, cwd=cwd, preexec_fn=drop_root)
        print(p.err.strip())
        if expect is None:  # must succeed
            f.check(p.returncode == 0, f"exit status {p.returncode}, expected 0")
            result_complete(out, f)
        else:
            f.check(p.returncode == 3, f"exit status {p.returncode}, expected 3 (output not written)")
            f.check(expect in p.err, f"stderr lacks {expect!r}")
            if out:
                f.check(not os.path.exists(out), "an output directory appeared")
        for d in (locked, writable, prob_dir):
            if os.path.isdir(d):
                no_leftovers(d, "out", f)
        os.chmod(prob_dir, 0o755)
        os.chmod(locked, 0o755)


def foreign_files_case(nsed, f):
    problem = os.path.join(ROOT_DIR, "tests", "io", "good", "sphere.yaml")
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "res")
        p = run([nsed, "run", problem, "-o", out, "--quiet"])
        f.check(p.returncode == 0, f"first run: exit status {p.returncode}")
        # nsed's own result (with an empty plots/ of figures) is replaced ...
        os.mkdir(os.path.join(out, "plots"))
        open(os.path.join(out, "plots", "events.png"), "wb").close()
        p = run([nsed, "run", problem, "-o", out, "--quiet", "--set", "solver.t_end=0.5"])
        f.check(p.returncode == 0, f"rerun over nsed's own files: exit status {p.returncode}: {p.err}")
        for where in ("my_analysis.txt", os.path.join("plots", "notes.txt")):
            if where.startswith("plots"):
                os.makedirs(os.path.join(out, "plots"), exist_ok=True)
            mine = os.path.join(out, where)
            with open(mine, "w") as fh:
                fh.write("mine\n")
            before = open(os.path.join(out, "summary.json")).read()
            p = run([nsed, "run", problem, "-o", out, "--quiet"])
            print(p.err.strip())
            f.check(p.returncode == 2, f"{where}: exit status {p.returncode}, expected 2")
            f.check(f"holds {where}, which nsed did not write" in p.err, f"{where}: the message does not name it")
            f.check(os.path.isfile(mine) and open(mine).read() == "mine\n", f"{where} was lost")
            f.check(open(os.path.join(out, "summary.json")).read() == before, "the old result changed")
            os.unlink(mine)
        no_leftovers(work, "res", f)


def foreign_during_run_case(nsed, root, f):
    problem = os.path.join(root, "problems", "disk_on_shaft_case2.yaml")
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "res")
        p = run([nsed, "run", problem, "-o", out, "--quiet", "--set", "solver.t_end=0.5"])
        f.check(p.returncode == 0, f"first run: exit status {p.returncode}")
        before = open(os.path.join(out, "summary.json")).read()
        proc = subprocess.Popen([nsed, "run", problem, "-o", out, "--quiet", "--set", "solver.t_end=100"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # The rerun has checked the directory once it has created its temporary sibling.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not [e for e in os.listdir(work) if ".tmp-" in e]:
            time.sleep(0.01)
        mine = os.path.join(out, "my_analysis.txt")
        with open(mine, "w") as fh:
            fh.write("mine\n")
        _, err = proc.communicate(timeout=300)
        print(err.strip())
        f.check(proc.returncode == 2, f"exit status {proc.returncode}, expected 2")
        f.check("changed during the run and holds my_analysis.txt" in err, "the message does not say it")
        f.check(os.path.isfile(mine) and open(mine).read() == "mine\n", "my_analysis.txt was lost")
        f.check(open(os.path.join(out, "summary.json")).read() == before, "the old result changed")
        no_leftovers(work, "res", f)


def outdir_mode_case(nsed, f):
    problem = os.path.join(ROOT_DIR, "tests", "io", "good", "sphere.yaml")
    for mask in (0o022, 0o027):
        with tempfile.TemporaryDirectory() as work:
            out = os.path.join(work, "res")
            p = run([nsed, "run", problem, "-o", out, "--quiet"], preexec_fn=lambda: os.umask(mask))
            f.check(p.returncode == 0, f"umask {mask:03o}: exit status {p.returncode}")
            mode = os.stat(out).st_mode & 0o777
            f.check(mode == 0o777 & ~mask, f"umask {mask:03o}: directory mode {mode:03o}, expected {0o777 & ~mask:03o}")
            for name in ("trajectory.csv", "summary.json"):
                fmode = os.stat(os.path.join(out, name)).st_mode & 0o777
                f.check(fmode == 0o666 & ~mask, f"umask {mask:03o}: {name} mode {fmode:03o}")


def main():
    nsed, root, case = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    f = Failures()
    if case == "sigint":
        signal_case(nsed, root, signal.SIGINT, f)
    elif case == "sigterm":
        signal_case(nsed, root, signal.SIGTERM, f)
    elif case == "fsize_ignored":
        fsize_case(nsed, root, True, f)
    elif case == "fsize_default_signal":
        fsize_case(nsed, root, False, f)
    elif case == "fsize_hdf5":
        if len(sys.argv) > 4 and sys.argv[4] == "false":
            print("built without HDF5: skipped")
            return 77
        fsize_case(nsed, root, False, f, fmt="hdf5")
    elif case == "unwritable_outdir":
        io_error_case(nsed, f, lambda w: os.path.join(w, "locked", "out"), "Permission denied")
    elif case == "outdir_is_file":
        io_error_case(nsed, f, lambda w: os.path.join(w, "plain_file", "out"), "Not a directory")
    elif case == "readonly_problem_dir":
        # Reading from a read-only place is fine when the output goes elsewhere ...
        io_error_case(nsed, f, lambda w: os.path.join(w, "writable", "out"), None)
        # ... and the default results/ under a read-only cwd is a clear error.
        io_error_case(nsed, f, lambda w: None, "cannot create directory results: Permission denied",
                      cwd_of=lambda w: os.path.join(w, "prob"))
    elif case == "foreign_files_kept":
        foreign_files_case(nsed, f)
    elif case == "foreign_file_during_run":
        foreign_during_run_case(nsed, root, f)
    elif case == "outdir_mode":
        outdir_mode_case(nsed, f)
    else:
        print(f"unknown case {case}", file=sys.stderr)
        return 2
    return f.done(case)


if __name__ == "__main__":
    sys.exit(main())
