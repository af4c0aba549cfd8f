"""What the Python tests of the binding share: their command line, the skip
for a sanitizer build, pointing the package nsed at this build's libnsed,
and counting checks. Imported from the test's own directory (Python puts a
script's directory first on sys.path), after sys.dont_write_bytecode is
set, so that no __pycache__ appears in the sources."""

import os
import sys


def binding_args(n, load=True):
    """The test's first n arguments (SOURCE_ROOT, ..., as meson passes them),
    then B_SANITIZE and anything after it. A sanitizer build's libnsed cannot
    be loaded into Python: exit 77 (skipped). load: use the package of
    SOURCE_ROOT/python with the library named by the second argument."""
    args = sys.argv[1:]
    sanitize = args[n] if len(args) > n else "none"
    if sanitize not in ("", "none"):
        print(f"skipped: libnsed is built with sanitizers ({sanitize})")
        sys.exit(77)
    if load:
        os.environ["NSED_LIBRARY"] = args[1]
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        sys.path.insert(0, os.path.join(args[0], "python"))
    return args[:n] + args[n + 1:]


class Checks:
    """check(cond, what): counts, and prints what failed."""

    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}")
        return cond

    def summary(self, extra=""):
        """The closing line; the exit status (1 if anything failed)."""
        print(f"{self.passed} passed, {self.failed} failed{extra}")
        return 1 if self.failed else 0
