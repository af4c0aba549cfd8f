#!/usr/bin/python3
"""The progress bar of `nsed run`: on a terminal (stderr a pseudo-terminal)
a run longer than a second draws it in place (\\r, no newlines), at most
about 10 times a second, with simulated time, events, wall time and the
estimated time left, and erases it at the end; with stderr a pipe, or with
--quiet, nothing of it appears.

Usage: test_progress.py NSED SPHERE.yaml
"""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import time

failures = []
BAR = re.compile(r"\r\[[#.]{20}\] +\d+%  t [^ ]+/[^ ]+ s  events \d+  wall [^ ]+ s  eta [^\r]*\x1b\[K")


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run_on_pty(cmd, cwd, stop_after=None):
    """Run cmd with stderr on a pseudo-terminal (stdout a pipe); SIGINT after
    stop_after seconds. Returns (exit status, stderr bytes, stdout text)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    err = b""
    start = time.monotonic()
    sent = False
    while True:
        if stop_after is not None and not sent and time.monotonic() - start > stop_after:
            proc.send_signal(signal.SIGINT)
            sent = True
        r, _, _ = select.select([master], [], [], 0.05)
        if r:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                data = b""
            if not data:
                break
            err += data
        elif proc.poll() is not None:
            break
        if time.monotonic() - start > 120:
            proc.kill()
            break
    out = proc.stdout.read().decode()
    proc.wait()
    os.close(master)
    return proc.returncode, err, out


def main():
    nsed, sphere = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    # About 2 s on the 2-core CI machine; the run is interrupted at 2.5 s
    # anyway if a slower build (sanitizers) takes longer.
    long_run = ["--set", "solver.t_end=1e6", "--set", "output.dt=0.01"]
    with tempfile.TemporaryDirectory() as work:
        # A terminal: the bar appears, is redrawn in place, then erased.
        t0 = time.monotonic()
        rc, err, out = run_on_pty([nsed, "run", sphere, "-o", "p"] + long_run, work, stop_after=2.5)
        wall = time.monotonic() - t0
        text = err.decode(errors="replace")
        bars = BAR.findall(text)
        check(rc == 1, "pty run: exit %d" % rc)
        check(len(bars) >= 5, "pty: %d progress redraws in %.1f s:\n%r" % (len(bars), wall, text[:500]))
        # At most ~10 Hz: 1.5 s of bar time allows 15 draws (+ slack).
        check(len(bars) <= 25, "pty: %d redraws in %.1f s (more than ~10 a second)" % (len(bars), wall))
        # Redrawn in place (no newline before the erase), then erased (\r ESC[K)
        # so that the message starts on a clean line.
        end = text.find("\r\x1b[Knsed run: ")
        check(end > 0 and "\n" not in text[:end] and text.startswith("\r["),
              "pty: the bar is not redrawn in place or not erased:\n%r" % text[-400:])
        check(re.search(r"\r\x1b\[Knsed run: .*interrupted at t = ", text) is not None,
              "pty: no interruption message after the bar:\n%r" % text[-400:])
        check("events" in text and "eta" in text and "wall" in text, "pty: bar fields missing")

        # A run that ends by itself (about 1.3 s here; if it was faster there
        # is no bar, which is right too): the bar is erased, nothing is left.
        rc, err, out = run_on_pty([nsed, "run", sphere, "-o", "ok", "--set", "solver.t_end=150",
                                   "--set", "output.dt=0.01"], work)
        text = err.decode(errors="replace")
        check(rc == 0 and "t = 150 s reached" in out, "pty run to the end: exit %d %r" % (rc, out))
        check(text == "" or (BAR.match(text) and text.endswith("\x1b[K\r\x1b[K")
                             and "\n" not in text),
              "pty run to the end: stderr %r" % text[-300:])

        # A short run on a terminal: silent.
        rc, err, out = run_on_pty([nsed, "run", sphere, "-o", "short"], work)
        check(rc == 0 and err == b"", "pty short run: exit %d, stderr %r" % (rc, err))
        check("nsed run:" in out, "pty short run: no report: %r" % out)

        # --quiet on a terminal: silent.
        rc, err, out = run_on_pty([nsed, "run", sphere, "-o", "q", "--quiet"] + long_run, work,
                                  stop_after=2.0)
        check(rc == 1 and not BAR.search(err.decode(errors="replace")) and b"\x1b" not in err
              and b"eta" not in err,
              "pty --quiet: exit %d, stderr %r" % (rc, err[:300]))

        # A pipe: no bar.
        proc = subprocess.Popen([nsed, "run", sphere, "-o", "pipe"] + long_run, cwd=work,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(2.0)
        proc.send_signal(signal.SIGINT)
        _, perr = proc.communicate(timeout=60)
        check(proc.returncode == 1 and b"\r" not in perr and b"\x1b" not in perr and b"eta" not in perr,
              "pipe: exit %d, stderr %r" % (proc.returncode, perr[:300]))
        check(b"interrupted" in perr, "pipe: no interruption message: %r" % perr)
    if failures:
        print("%d failure(s)" % len(failures), file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
