#!/usr/bin/python3
"""The Python binding's hand-written C declarations (python/nsed/_ffi.py)
against the public headers: every struct field the CDEF declares sits at
the offset the C compiler gives it, every struct the CDEF declares whole
has C's size (nsed_options and nsed_force_def are declared by their leading
fields only: no larger than C's), the array sizes' constants agree, and
every field C lists is in the CDEF. A field added to a header without the
binding fails here rather than shifting what Python reads.

Usage: test_ffi_layout.py SOURCE_ROOT LAYOUT_EXE
"""

import os
import subprocess
import sys

sys.dont_write_bytecode = True
ROOT, EXE = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "python"))

from nsed._ffi import ffi  # noqa: E402  (the declarations only: no libnsed needed)

PREFIX_ONLY = {"nsed_options", "nsed_force_def"}
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")


lines = subprocess.run([EXE], capture_output=True, text=True, check=True).stdout.split("\n")
sizes, offsets, consts = {}, {}, {}
for line in filter(None, lines):
    parts = line.split()
    if len(parts) == 2:
        consts[parts[0]] = int(parts[1])
    elif parts[1] == "sizeof":
        sizes[parts[0]] = int(parts[2])
    else:
        offsets.setdefault(parts[0], {})[parts[1]] = int(parts[2])

for struct, c_fields in offsets.items():
    t = ffi.typeof(struct)
    py_fields = dict(t.fields)
    for name, off in c_fields.items():
        if struct in PREFIX_ONLY and name not in py_fields:
            continue
        check(name in py_fields, f"{struct}.{name} is in the header but not in the CDEF")
        if name in py_fields:
            check(py_fields[name].offset == off,
                  f"{struct}.{name}: CDEF offset {py_fields[name].offset}, C {off}")
    for name in py_fields:
        check(name in c_fields, f"{struct}.{name} is in the CDEF but not in the layout list")
    if struct in PREFIX_ONLY:
        check(ffi.sizeof(t) <= sizes[struct], f"{struct}: CDEF prefix larger than C's struct")
    else:
        check(ffi.sizeof(t) == sizes[struct],
              f"{struct}: CDEF size {ffi.sizeof(t)}, C {sizes[struct]}")
lib = ffi.dlopen(None)
for name, value in consts.items():
    check(getattr(lib, name) == value, f"{name}: CDEF {getattr(lib, name)}, C {value}")
print(f"{len(offsets)} structs")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
