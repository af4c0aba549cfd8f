#!/usr/bin/python3
"""docs/problem-format.schema.json against the files nsed reads.

The schema is for editors and scripts; the C reader is what decides. This
test keeps the two in step: the schema is a valid JSON Schema (draft
2020-12); every shipped problem (problems/*.yaml), the good inputs of
tests/io/good and the fuzzer's problem seeds that nsed accepts validate
against it; and the malformed files of tests/io/bad whose fault is one of
form (a wrong type, an unknown key, a value out of range, a missing key)
are rejected by it too.

Usage: test_schema.py SOURCE_ROOT NSED
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema
import yaml

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
NSED = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "build", "src", "cli", "nsed")

# Faults of form, which a schema can see (the others need the whole model:
# names that must exist, quaternions that must not be zero, bodies that
# start inside each other, YAML syntax and aliases).
SCHEMA_REJECTS = [
    "mass_is_string.yaml", "mass_quoted_number.yaml", "position_two_numbers.yaml",
    "bodies_not_a_list.yaml", "missing_mass.yaml", "missing_bodies.yaml",
    "missing_shape_type.yaml", "unknown_key_typo.yaml", "unknown_top_level_key.yaml",
    "unknown_integrator.yaml", "negative_mass.yaml", "restitution_above_one.yaml",
    "shape_typo.yaml", "t_end_zero.yaml", "t_end_negative.yaml", "drive_type_typo.yaml",
    "top_level_list.yaml", "rotor_axis_typo.yaml", "vehicle_roller_frame_typo.yaml",
    "steps_not_boolean.yaml",
]


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML resolves scalars by YAML 1.1, where 1.0e5 (no exponent sign)
    is a string; libyaml's reader in nsed follows YAML 1.2's core schema,
    where it is a number. The 1.2 float pattern makes the two agree."""


Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
                   |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
                   |[-+]?\.[0-9_]+(?:[eE][-+]?[0-9]+)?
                   |[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$""", re.X),
    list("-+0123456789."))


def load(path):
    with open(path) as f:
        return yaml.load(f, Loader=Yaml12Loader)


def accepted_by_nsed(path):
    """nsed validate's verdict: the seeds are fuzz inputs, not all valid."""
    proc = subprocess.run([NSED, "validate", path], capture_output=True, text=True, timeout=60)
    return proc.returncode == 0


def seed_problems(workdir):
    """The problem file of each fuzzer seed (its text before the %%set
    block, the overrides the fuzzer applies), written to workdir."""
    out = []
    for seed in sorted(glob.glob(os.path.join(ROOT, "fuzz", "seeds", "problem", "*.txt"))):
        with open(seed) as f:
            text = f.read().split("\n%%set", 1)[0]
        path = os.path.join(workdir, os.path.basename(seed)[:-4] + ".yaml")
        with open(path, "w") as f:
            f.write(text + "\n")
        out.append(path)
    return out


def main():
    with open(os.path.join(ROOT, "docs", "problem-format.schema.json")) as f:
        schema = json.load(f)
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    validator = cls(schema)
    failed = checked = 0
    good = sorted(glob.glob(os.path.join(ROOT, "problems", "*.yaml")) +
                  glob.glob(os.path.join(ROOT, "tests", "io", "good", "*.yaml")))
    work = tempfile.mkdtemp(prefix="nsed_schema_")
    good += [s for s in seed_problems(work) if accepted_by_nsed(s)]
    for path in good:
        checked += 1
        errors = sorted(validator.iter_errors(load(path)), key=lambda e: list(e.path))
        for e in errors[:3]:
            print(f"FAIL {os.path.relpath(path, ROOT) if path.startswith(ROOT) else path}: {'.'.join(map(str, e.path)) or '(top)'}: "
                  f"{e.message[:200]}")
        failed += bool(errors)
    for name in SCHEMA_REJECTS:
        checked += 1
        path = os.path.join(ROOT, "tests", "io", "bad", name)
        if validator.is_valid(load(path)):
            print(f"FAIL tests/io/bad/{name}: the schema accepts it, nsed refuses it")
            failed += 1
    shutil.rmtree(work, ignore_errors=True)
    print(f"{checked - failed} of {checked} files as nsed reads them ({len(good)} accepted, "
          f"{len(SCHEMA_REJECTS)} refused for their form)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
