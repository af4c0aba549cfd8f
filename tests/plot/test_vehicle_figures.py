"""python/omni_vehicle_figures.py on a real run: the omni vehicle coasting
for 1.5 time units (one roller handover, at t = 0.41), then the four
figures; and its refusals: a missing directory, a run that is not a
vehicle. argv: source root, nsed binary."""
import os
import subprocess
import sys
import tempfile

failures = []


def check(ok, what):
    if not ok:
        print("FAIL:", what)
        failures.append(what)


def main():
    root, nsed = sys.argv[1], sys.argv[2]
    script = os.path.join(root, "python", "omni_vehicle_figures.py")
    py = "/usr/bin/python3"
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "coast")
        p = subprocess.run([nsed, "run", os.path.join(root, "problems", "omni_vehicle_coast.yaml"),
                            "--set", "solver.t_end=1.5", "-o", out, "--quiet"],
                           capture_output=True, text=True, env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
        check(p.returncode == 0, "nsed run: %s" % p.stderr)
        p = subprocess.run([py, script, out], capture_output=True, text=True)
        check(p.returncode == 0, "figures: exit %d: %s" % (p.returncode, p.stderr))
        for f in ("vehicle_path.png", "mutual_approach.png", "contact_accuracy.png",
                  "angular_velocity.png"):
            path = os.path.join(out, f)
            check(os.path.exists(path) and os.path.getsize(path) > 10000, "missing or empty %s" % f)
        p = subprocess.run([py, script, os.path.join(work, "nowhere")], capture_output=True, text=True)
        check(p.returncode == 2 and "nowhere" in p.stderr, "missing dir: %d %s" % (p.returncode, p.stderr))
        ball = os.path.join(work, "ball")
        subprocess.run([nsed, "run", os.path.join(root, "problems", "bouncing_ball.yaml"),
                        "--set", "solver.t_end=0.1", "-o", ball, "--quiet"], capture_output=True)
        p = subprocess.run([py, script, ball], capture_output=True, text=True)
        check(p.returncode == 2 and "vehicle" in p.stderr, "not a vehicle: %d %s" % (p.returncode, p.stderr))
    print("%d failure(s)" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
