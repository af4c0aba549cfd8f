#!/usr/bin/env python3
"""`nsed run` and `nsed validate` on a good file: exit codes, the default
output directory, --help, usage errors, and SIGINT (status "interrupted",
complete files, exit 1, no temporary directory left).
Usage: run_cli.py NSED GOOD_DIR
"""
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def main():
    nsed, good = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    sphere = os.path.join(good, "sphere.yaml")
    with tempfile.TemporaryDirectory() as work:
        p = subprocess.run([nsed, "validate", sphere], capture_output=True, text=True, cwd=work)
        check(p.returncode == 0, "validate: exit %d: %s" % (p.returncode, p.stderr))
        for s in ("valid", "ball: mass 1 kg", "inertia [0.004, 0.004, 0.004]", "states: 13",
                  "ball_floor: ball with floor, law coulomb (polygon_face, 8 sides), mu 0.3, mu0 0.3",
                  "friction of the exact Coulomb contacts (1 of 1): polygon_face, 8 sides"):
            check(s in p.stdout, "validate output lacks %r:\n%s" % (s, p.stdout))
        check(os.listdir(work) == [], "validate created %s" % os.listdir(work))

        # Every shipped problem validates, including roller shapes and the
        # omni_vehicle block (validate once indexed a table of five shape names).
        problems = os.path.join(os.path.dirname(good), "..", "..", "problems")
        for f in sorted(os.listdir(problems)):
            if not f.endswith(".yaml"):
                continue
            p = subprocess.run([nsed, "validate", os.path.join(problems, f)], capture_output=True,
                               text=True, cwd=work)
            check(p.returncode == 0 and "(null)" not in p.stdout, "validate %s: %s" % (f, p.stdout + p.stderr))
            if f.startswith("omni_"):
                check("shape roller radius" in p.stdout and "tracking explicit" in p.stdout,
                      "validate %s does not describe its rollers:\n%s" % (f, p.stdout[:2000]))

        # Each contact's law is named; a parameter its law ignores is a
        # warning (validate and run still succeed), said once per parameter.
        law_sets = ["--set", "contacts[0].law=regularized", "--set", "contacts[0].mu0=0.5",
                    "--set", "contacts[0].stiffness=10"]
        p = subprocess.run([nsed, "validate", sphere] + law_sets, capture_output=True, text=True,
                           cwd=work)
        check(p.returncode == 0 and "law regularized, mu 0.3, delta 1e-06 m/s" in p.stdout
              and "(unused: no contact has the exact Coulomb law)" in p.stdout,
              "validate of a regularized contact: %s" % p.stdout)
        warnings = [ln for ln in p.stderr.splitlines() if ": warning: contact 'ball_floor': " in ln]
        check(len(warnings) == 2 and "mu0 = 0.5 is ignored" in warnings[0]
              and "stiffness and damping are ignored" in warnings[1],
              "validate warnings: %r" % p.stderr)
        check("note: contact 'ball_floor': regularized friction with delta = 1e-06 m/s is stiff"
              in p.stderr and "cvode_bdf" in p.stderr, "no hint towards cvode_bdf: %r" % p.stderr)
        p = subprocess.run([nsed, "validate", sphere, "--set", "contacts[0].law=compliant",
                            "--set", "contacts[0].stiffness=1e6", "--set", "contacts[0].restitution=0.5",
                            "--set", "contacts[0].delta=1e-3"], capture_output=True, text=True, cwd=work)
        check(p.returncode == 0 and "law compliant, stiffness 1000000 N/m" in p.stdout
              and "restitution = 0.5 is ignored: the compliant law has no impacts" in p.stderr
              and "mu0" not in p.stderr and "note:" not in p.stderr,
              "validate of a compliant contact: %s %s" % (p.stdout, p.stderr))
        p = subprocess.run([nsed, "validate", sphere, "--set", "contacts[0].delta=1e-3"],
                           capture_output=True, text=True, cwd=work)
        check("delta = 0.001 is ignored: exact Coulomb friction is not regularised" in p.stderr,
              "delta of a Coulomb contact: %s" % p.stderr)
        p = subprocess.run([nsed, "validate", sphere] + law_sets +
                           ["--set", "solver.integrator=cvode_bdf"], capture_output=True,
                           text=True, cwd=work)
        check("cvode_bdf takes" not in p.stderr, "cvode_bdf hint with cvode_bdf: %r" % p.stderr)
        p = subprocess.run([nsed, "run", sphere, "-o", "reg", "--quiet", "--set", "solver.t_end=0.05"]
                           + law_sets, capture_output=True, text=True, cwd=work)
        check(p.returncode == 0 and "mu0 = 0.5 is ignored" in p.stderr, "run warnings: %r" % p.stderr)
        if p.returncode == 0:
            s = json.load(open(os.path.join(work, "reg", "summary.json")))
            law = s["contact_laws"][0]
            check(law["law"] == "regularized" and law["friction"] == "regularized"
                  and "mu0" not in law and law["delta"] == 1e-6 and "mu0 = 0.5" in law["ignored"],
                  "summary contact_laws: %s" % law)
            g = s["geometry"]
            check(g["floor"]["normal"] == [0, 0, 1] and g["bodies"][0]["shape"] == "sphere"
                  and g["bodies"][0]["radius"] == 0.1, "summary geometry: %s" % g)

        # Leftovers of killed runs (OUTDIR.tmp-XXXXXX) are removed by the next
        # run into OUTDIR when no live run holds them, they are older than a
        # minute and hold only nsed's files; the others stay.
        import fcntl
        old = time.time() - 3600

        def leftover(tag, files):
            d = os.path.join(work, "lo.tmp-" + tag)
            os.mkdir(d)
            for f in files:
                open(os.path.join(d, f), "w").close()
            os.utime(d, (old, old))
            return d
        stale = leftover("AAAAAA", ["trajectory.csv", "contacts.csv"])
        mine = leftover("BBBBBB", ["trajectory.csv", "notes.txt"])
        live = leftover("CCCCCC", ["trajectory.csv"])
        young = os.path.join(work, "lo.tmp-DDDDDD")
        os.mkdir(young)
        other = leftover("EEEEEE", [])
        os.rename(other, os.path.join(work, "lox.tmp-EEEEEE"))   # another OUTDIR's
        held = os.open(live, os.O_RDONLY)
        fcntl.flock(held, fcntl.LOCK_EX)
        p = subprocess.run([nsed, "run", sphere, "-o", "lo", "--quiet", "--set", "solver.t_end=0.05"],
                           capture_output=True, text=True, cwd=work)
        os.close(held)
        check(p.returncode == 0, "run beside leftovers: %d %s" % (p.returncode, p.stderr))
        check(not os.path.exists(stale), "a stale OUTDIR.tmp- directory was not removed")
        check(os.path.exists(os.path.join(mine, "notes.txt")), "a leftover holding a user's file went")
        check(os.path.exists(live), "a directory locked by a live run was removed")
        check(os.path.exists(young), "a directory younger than a minute was removed")
        check(os.path.exists(os.path.join(work, "lox.tmp-EEEEEE")), "another OUTDIR's leftover went")
        for d in (mine, live, young, os.path.join(work, "lox.tmp-EEEEEE")):
            shutil.rmtree(d, ignore_errors=True)

        p = subprocess.run([nsed, "validate", sphere, "--set", "bodies.ball.mass=2"],
                           capture_output=True, text=True, cwd=work)
        check(p.returncode == 0 and "ball: mass 2 kg" in p.stdout, "validate --set: %s" % p.stdout)

        p = subprocess.run([nsed, "run", sphere, "--set", "solver.t_end=0.3"],
                           capture_output=True, text=True, cwd=work)
        check(p.returncode == 0, "run: exit %d: %s" % (p.returncode, p.stderr))
        out = os.path.join(work, "results", "sphere")
        files = sorted(os.listdir(out)) if os.path.isdir(out) else []
        check(files == ["contacts.csv", "events.csv", "summary.json", "trajectory.csv"],
              "default outdir holds %s" % files)
        check("results/sphere/trajectory.csv" in p.stdout, "run does not say where: %s" % p.stdout)
        if "summary.json" in files:
            s = json.load(open(os.path.join(out, "summary.json")))
            check(s["status"] == "ok" and s["overrides"] == ["solver.t_end=0.3"], "summary %s" % s)
            check(s["t_reached"] == 0.3 and s["events_by_kind"]["stick"] == 1, "summary %s" % s)

        # output.steps: steps.csv, one row per accepted step, beside the other
        # files; a result holding it is replaced by the next run.
        for again in (0, 1):
            p = subprocess.run([nsed, "run", sphere, "-o", "st", "--quiet", "--set", "solver.t_end=0.3",
                                "--set", "output.steps=%s" % ("true" if again == 0 else "false")],
                               capture_output=True, text=True, cwd=work)
            check(p.returncode == 0, "run with output.steps: %d %s" % (p.returncode, p.stderr))
            files = sorted(os.listdir(os.path.join(work, "st")))
            want = ["contacts.csv", "events.csv", "summary.json", "trajectory.csv"]
            check(files == sorted(want + (["steps.csv"] if again == 0 else [])), "output.steps files %s" % files)
            if again == 0 and "steps.csv" in files:
                s = json.load(open(os.path.join(work, "st", "summary.json")))
                with open(os.path.join(work, "st", "steps.csv")) as f:
                    rows = list(csv.DictReader(f))
                check(len(rows) == s["steps"] and len(rows) > 10, "steps.csv rows %d, steps %d" % (len(rows), s["steps"]))
                check(sum(int(r["rejected"]) for r in rows) == s["error_test_failures"], "steps.csv rejected")
                check(all(0 < float(r["error"]) <= 1 and r["limit"].startswith("ball.") for r in rows[1:]),
                      "steps.csv errors and limits: %s" % rows[:3])
                firsts = [r for r in rows if r["first"] == "1"]
                check(len(firsts) >= 1 + s["events"] and rows[0]["first"] == "1", "steps.csv first %d" % len(firsts))

        p = subprocess.run([nsed, "run", sphere, "-o", "q", "--quiet"], capture_output=True,
                           text=True, cwd=work)
        check(p.returncode == 0 and p.stdout == "", "--quiet printed %r" % p.stdout)

        for cmd in ("run", "validate"):
            p = subprocess.run([nsed, cmd, "--help"], capture_output=True, text=True)
            check(p.returncode == 0 and "usage: nsed " + cmd in p.stdout, "%s --help" % cmd)
            p = subprocess.run([nsed, cmd], capture_output=True, text=True)
            check(p.returncode == 2 and "no problem file" in p.stderr, "%s without file" % cmd)
            p = subprocess.run([nsed, cmd, sphere, "--frobnicate"], capture_output=True, text=True)
            check(p.returncode == 2 and "unknown option" in p.stderr, "%s bad option" % cmd)

        # SIGINT in the middle of a long run.
        out = os.path.join(work, "intr")
        proc = subprocess.Popen([nsed, "run", sphere, "-o", out, "--set", "solver.t_end=1e6",
                                 "--set", "output.dt=0.01"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=work)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        check(proc.returncode == 1, "SIGINT: exit %d: %s" % (proc.returncode, err))
        check("interrupted" in err and "results up to t =" in err, "SIGINT message: %s" % err)
        summary = os.path.join(out, "summary.json")
        if os.path.exists(summary):
            s = json.load(open(summary))
            check(s["status"] == "interrupted" and 0 < s["t_reached"] < 1e6, "summary %s" % s)
            traj = open(os.path.join(out, "trajectory.csv")).read()
            check(traj.endswith("\n") and traj.count("\n") > 2, "trajectory incomplete")
        else:
            failures.append("SIGINT: no summary.json")
        left = [f for f in os.listdir(work) if ".tmp-" in f or ".old-" in f]
        check(left == [], "temporaries left: %s" % left)

    for f in failures:
        print("FAIL:", f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
