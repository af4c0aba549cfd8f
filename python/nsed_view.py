#!/usr/bin/python3
"""Write the 3D viewer page of a result directory written by `nsed run -o DIR`.

Usage as a script:
    /usr/bin/python3 python/nsed_view.py RESULT_DIR [--out FILE.html] [--follow BODY]

Usage as a module:
    from nsed_view import write_view          # = nsed.view.write_view
    path = write_view("out/ball", out_path=None, follow=None)   # -> written file

One self-contained HTML file (default RESULT_DIR/view.html) with three.js
from Debian's libjs-three embedded: open it in a browser, from file://,
offline (docs/viewer.md). `nsed view` runs this script. It prints the path
written. Exit status 2 on bad input (the message names the file): no such
directory, no summary.json or no "geometry" in it, malformed result files,
an unknown --follow body, three.js not installed.
"""

import argparse
import sys

if __name__ == "__main__":
    sys.dont_write_bytecode = True   # keep python/nsed/__pycache__ out of the tree
# The package sits next to this script in the source tree (python/), which
# Python puts first on sys.path; once installed it is in python3's site
# directory, and `nsed view` adds that directory too (as `nsed plot` does).
from nsed.view import ResultError, ViewError, write_view  # noqa: E402

__all__ = ["write_view", "ResultError", "ViewError", "main"]


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="nsed_view.py",
        description="Write the 3D viewer page (one offline HTML file) of the result "
                    "directory written by `nsed run ... -o DIR`.")
    p.add_argument("result_dir", metavar="RESULT_DIR")
    p.add_argument("--out", metavar="FILE",
                   help="the page to write (default: RESULT_DIR/view.html)")
    p.add_argument("--follow", metavar="BODY",
                   help="the body the camera follows when the page opens "
                        "(default: a fixed camera)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    try:
        path = write_view(args.result_dir, args.out, args.follow)
    except (ResultError, ViewError) as e:
        print(f"nsed_view: error: {e}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
