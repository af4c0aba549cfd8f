#!/usr/bin/python3
"""The Python binding's hand-written C declarations (python/nsed/_ffi.py)
against the public headers, as the C compiler lays them out
(tests/python/ffi_layout.c):

- every struct field the CDEF declares sits at the offset C gives it, and
  every field C lists is in the CDEF (a field added to a header without the
  binding fails here rather than shifting what Python reads);
- every struct and enum the CDEF declares has C's size, and every struct
  the CDEF declares with its fields is in ffi_layout.c's list (a struct
  declared but never checked fails);
- every constant and every enumerator the CDEF declares has C's value, and
  every enumerator is in ffi_layout.c's list.

Usage: test_ffi_layout.py SOURCE_ROOT LAYOUT_EXE
"""

import os
import subprocess
import sys

sys.dont_write_bytecode = True  # also for harness: nothing written into the sources
from harness import Checks  # noqa: E402

ROOT, EXE = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "python"))

from nsed._ffi import ffi  # noqa: E402  (the declarations only: no libnsed needed)

check = Checks()


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

# Fields and struct sizes.
for struct, c_fields in offsets.items():
    t = ffi.typeof(struct)
    py_fields = dict(t.fields)
    for name, off in c_fields.items():
        check(name in py_fields, f"{struct}.{name} is in the header but not in the CDEF")
        if name in py_fields:
            check(py_fields[name].offset == off,
                  f"{struct}.{name}: CDEF offset {py_fields[name].offset}, C {off}")
    for name in py_fields:
        check(name in c_fields, f"{struct}.{name} is in the CDEF but not in the layout list")
for name, size in sizes.items():
    check(ffi.sizeof(name) == size, f"{name}: CDEF size {ffi.sizeof(name)}, C {size}")

# Every struct and enum the CDEF declares is checked.
typedefs, _, _ = ffi.list_types()
enums = {}
nstruct = 0
for name in typedefs:
    t = ffi.typeof(name)
    if t.kind == "struct" and t.fields is not None:       # opaque structs have none
        nstruct += 1
        check(name in offsets and name in sizes,
              f"{name} is declared in the CDEF but ffi_layout.c does not list its layout")
    elif t.kind == "enum":
        check(name in sizes, f"enum {name} is declared in the CDEF but ffi_layout.c lists no size")
        enums.update(t.relements)
for name, value in enums.items():
    check(name in consts, f"enumerator {name} is in the CDEF but not in ffi_layout.c's list")

# Constants and enumerators have C's values.
lib = ffi.dlopen(None)
for name, value in consts.items():
    check(getattr(lib, name, None) == value, f"{name}: CDEF {getattr(lib, name, None)}, C {value}")
print(f"{nstruct} structs, {len(enums)} enumerators, {len(consts)} constants")
sys.exit(check.summary())
