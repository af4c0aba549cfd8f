#!/usr/bin/python3
"""`pip install ./python` gives a package that finds libnsed by itself.

Usage: test_pip_install.py SOURCE_ROOT BUILD_DIR [B_SANITIZE]

In a virtual environment that sees Debian's numpy and cffi (python3 -m venv
--system-site-packages), offline (pip --no-index --no-build-isolation), the
package is installed from a copy of python/ (pip writes build/ and
egg-info/ where it builds: not into the source tree) with NSED_BUILD_DIR
naming this build. Then, from another directory and without NSED_LIBRARY:
- nsed.LIBRARY_PATH is the copy inside the environment's site-packages;
- the sphere slides and sticks at t* = 2 v0 / (7 mu g) (closed form, 1e-9 s);
- without a built library the install stops with the sentence that says
  what to do (NSED_BUILD_DIR, NSED_PIP_WITHOUT_LIBRARY);
- the package without its copy, outside the repository, loads the libnsed
  that pkg-config's nsed.pc points to.
Exit 77 (skipped) for a sanitizer build (Python cannot load its libnsed).
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT, BUILD = sys.argv[1], sys.argv[2]
SANITIZE = sys.argv[3] if len(sys.argv) > 3 else "none"
if SANITIZE not in ("", "none"):
    print(f"skipped: libnsed is built with sanitizers ({SANITIZE})")
    sys.exit(77)

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(cmd, env, cwd, timeout=300):
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)


def main():
    with tempfile.TemporaryDirectory(prefix="nsed-pip-") as tmp:
        env = {k: v for k, v in os.environ.items()
               if k not in ("NSED_LIBRARY", "PYTHONPATH", "NSED_BUILD_DIR")}
        env["PIP_NO_INDEX"] = "1"
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        venv = os.path.join(tmp, "venv")
        p = run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv], env, tmp)
        if p.returncode != 0:
            check(False, "python3 -m venv (Debian package python3-venv): " + p.stderr[-300:])
            return 1
        py = os.path.join(venv, "bin", "python")
        src = os.path.join(tmp, "python")
        shutil.copytree(os.path.join(ROOT, "python"), src,
                        ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))

        # Without a library to carry: refused with the sentence.
        p = run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index", src],
                dict(env, NSED_BUILD_DIR=os.path.join(tmp, "nowhere")), tmp)
        check(p.returncode != 0 and "NSED_PIP_WITHOUT_LIBRARY" in p.stdout + p.stderr,
              f"install without a built libnsed refused with what to do (exit {p.returncode})")

        p = run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index", src],
                dict(env, NSED_BUILD_DIR=BUILD), tmp)
        check(p.returncode == 0, "pip install ./python: " + (p.stderr[-800:] if p.returncode else "ok"))
        if p.returncode:
            return 1
        sphere = os.path.join(ROOT, "problems", "sphere_slide_roll.yaml")
        code = ("import nsed, sys\n"
                "r = nsed.run(sys.argv[1], overrides={'solver.t_end': 0.5})\n"
                "t = r.events['t'][r.events['kind'] == 'stick']\n"
                "print(nsed.LIBRARY_PATH)\n"
                "print(repr(float(t[0])) if len(t) else 'none')\n")
        away = os.path.join(tmp, "elsewhere")
        os.mkdir(away)
        p = run([py, "-c", code, sphere], env, away)
        check(p.returncode == 0, "the installed package runs a problem: " + p.stderr[-800:])
        if p.returncode:
            return 1
        lib, t = p.stdout.split("\n")[:2]
        check(lib.startswith(venv) and lib.endswith(os.path.join("nsed", "libnsed.so.0")),
              f"libnsed loaded from the package's copy: {lib}")
        # sphere_slide_roll.yaml: v0 = 2 m/s, mu = 0.3, g = 9.81
        want = 2 * 2.0 / (7 * 0.3 * 9.81)
        check(t != "none" and abs(float(t) - want) <= 1e-9,
              f"stick at {t} s, closed form {want!r} s")

        # A package without its copy, outside the repository, finds an
        # installed libnsed where pkg-config's nsed.pc says.
        pcdir = os.path.join(tmp, "pkgconfig")
        os.mkdir(pcdir)
        libdir = os.path.join(BUILD, "src")
        with open(os.path.join(pcdir, "nsed.pc"), "w") as f:
            f.write(f"libdir={libdir}\nName: nsed\nDescription: test\nVersion: 0\n"
                    "Libs: -L${libdir} -lnsed\n")
        bare = os.path.join(tmp, "bare")
        shutil.copytree(os.path.join(src, "nsed"), os.path.join(bare, "nsed"))
        p = run(["/usr/bin/python3", "-c", "import nsed; print(nsed.LIBRARY_PATH)"],
                dict(env, PYTHONPATH=bare, PKG_CONFIG_PATH=pcdir), away)
        check(p.returncode == 0 and p.stdout.strip() == os.path.join(libdir, "libnsed.so.0"),
              f"found through pkg-config: {p.stdout.strip()} {p.stderr[-300:]}")
    print(f"{'FAILED' if failures else 'all passed'}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
