#!/usr/bin/python3
"""The layering rules of src/ (docs/architecture.md), checked on the sources
and on the object files:

1. a file of layer L includes internal headers only of L and of the layers
   src/layers.txt lets L use; the CLI includes only public headers; no
   relative paths out of a folder;
2. no include circle among the internal headers, nor among the public ones;
3. an object of layer L calls (or reads) nothing defined in a layer L may
   not use: also the functions a hand-written declaration would reach;
4. no call circle among the object files (two files that need each other
   are one module, or one of them holds what both need);
5. the CLI's objects call nothing libnsed.so does not export.

usage: check_layers.py SOURCE_ROOT LIBNSED.so CLI.a LAYER=LIB.a...
"""

import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# nm -A: "LIB.a:MEMBER.o:ADDRESS TYPE NAME" (no address for undefined symbols)
NM_LINE = re.compile(r'^[^:]*:(.*?\.o):[0-9a-f ]*\s([A-Za-z])\s+(\S+)$')
GENERATED = {"nsed_config.h", "nsed_paths.h"}  # meson's configure_file outputs


def read_layers(root):
    layers, uses = [], {}
    with open(os.path.join(root, "src", "layers.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, _, rest = line.partition(":")
            name = name.strip()
            for u in rest.split():
                if u not in uses:
                    sys.exit(f"src/layers.txt: {name} uses {u}, which is not listed above it")
            layers.append(name)
            uses[name] = set(rest.split())
    return layers, uses


def sources(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if f.endswith((".c", ".h")))


def includes(path):
    with open(path, encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


def cycles(graph):
    """The strongly connected components of more than one node (and
    self-loops), by Tarjan's algorithm, iteratively."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1 or v in graph.get(v, ()):
                        out.append(sorted(comp))
    return out


def check_includes(root, layers, uses, errors):
    src = os.path.join(root, "src")
    owner = {}  # internal header name -> layer
    for layer in layers:
        for path in sources(os.path.join(src, layer)):
            if path.endswith(".h"):
                name = os.path.basename(path)
                if name in owner:
                    errors.append(f"src/{layer}/{name}: the name of src/{owner[name]}/{name} too "
                                  "(one header name, one owner)")
                owner[name] = layer
    public = set(os.listdir(os.path.join(root, "include", "nsed")))
    header_graph = {}
    for layer in layers + ["cli"]:
        allowed = uses.get(layer, set()) | {layer}
        for path in sources(os.path.join(src, layer)):
            rel = os.path.relpath(path, root)
            for inc in includes(path):
                if "/" in inc and not inc.startswith("nsed/") or ".." in inc:
                    errors.append(f"{rel}: #include \"{inc}\": a path out of the folder "
                                  "(include by name; the build says what is visible)")
                    continue
                if inc.startswith("nsed/"):
                    if inc[5:] not in public:
                        errors.append(f"{rel}: #include \"{inc}\": no such public header")
                    continue
                if inc in GENERATED:
                    continue
                if os.path.exists(os.path.join(src, layer, inc)):
                    if path.endswith(".h"):
                        header_graph.setdefault(path, set()).add(os.path.join(src, layer, inc))
                    continue
                if inc not in owner:
                    errors.append(f"{rel}: #include \"{inc}\": no such internal header")
                elif layer == "cli":
                    errors.append(f"{rel}: #include \"{inc}\": the CLI uses the public API only "
                                  f"(src/{owner[inc]}/{inc} is internal)")
                elif owner[inc] not in allowed:
                    errors.append(f"{rel}: #include \"{inc}\": layer {layer} may not use layer "
                                  f"{owner[inc]} (src/layers.txt)")
                elif path.endswith(".h"):
                    header_graph.setdefault(path, set()).add(
                        os.path.join(src, owner[inc], inc))
    for comp in cycles(header_graph):
        errors.append("include circle among internal headers: " +
                      " -> ".join(os.path.relpath(p, root) for p in comp))
    pub_graph = {}
    for name in public:
        for inc in includes(os.path.join(root, "include", "nsed", name)):
            if not inc.startswith("nsed/"):
                errors.append(f"include/nsed/{name}: #include \"{inc}\": a public header "
                              "includes public headers only")
            else:
                pub_graph.setdefault(name, set()).add(inc[5:])
    for comp in cycles(pub_graph):
        errors.append("include circle among public headers: " + " -> ".join(comp))


def nm_objects(lib):
    """{object: (defined symbols, undefined symbols)} of a static library."""
    out = subprocess.run(["nm", "-A", lib], capture_output=True, text=True, check=True).stdout
    objs = {}
    for line in out.splitlines():
        m = NM_LINE.match(line)
        if not m:
            continue
        obj, typ, name = os.path.basename(m.group(1)), m.group(2), m.group(3)
        d, u = objs.setdefault(obj, (set(), set()))
        if typ == "U":
            u.add(name)
        elif typ in "TDBRC" and not name.startswith("__odr_asan"):
            d.add(name)
    return objs


def check_objects(layers, uses, libs, shared, cli_lib, errors):
    where = {}   # symbol -> (layer, object)
    objs = {}
    for layer in layers:
        for obj, (defs, undef) in nm_objects(libs[layer]).items():
            key = f"{layer}/{obj}"
            objs[key] = (layer, defs, undef)
            for s in defs:
                where[s] = (layer, key)
    graph = {}
    via = {}
    for key, (layer, defs, undef) in objs.items():
        for s in sorted(undef):
            if s not in where:
                continue
            other, okey = where[s]
            if other != layer and other not in uses[layer]:
                errors.append(f"{key} uses {s} of layer {other}, which layer {layer} may not use "
                              "(src/layers.txt)")
            if okey != key:
                graph.setdefault(key, set()).add(okey)
                via.setdefault((key, okey), s)
    for comp in cycles(graph):
        edges = [f"{a} -> {b} ({via[(a, b)]})" for a in comp for b in comp if (a, b) in via]
        errors.append("call circle among object files: " + "; ".join(edges))
    out = subprocess.run(["nm", "-D", "--defined-only", shared], capture_output=True, text=True,
                         check=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if line.strip()}
    cli_defs = set()
    cli = nm_objects(cli_lib)
    for defs, _ in cli.values():
        cli_defs |= defs
    for obj, (_, undef) in sorted(cli.items()):
        for s in sorted(undef):
            if s.startswith("nsed") and s not in cli_defs and s not in exported:
                errors.append(f"cli/{obj} uses {s}, which libnsed.so does not export (the CLI "
                              "uses the public API only)")


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    root, shared, cli_lib = argv[1], argv[2], argv[3]
    libs = dict(a.split("=", 1) for a in argv[4:])
    layers, uses = read_layers(root)
    missing = [l for l in layers if l not in libs]
    if missing:
        sys.exit(f"no library given for layer(s) {', '.join(missing)}")
    errors = []
    check_includes(root, layers, uses, errors)
    check_objects(layers, uses, libs, shared, cli_lib, errors)
    for e in errors:
        print(e, file=sys.stderr)
    print(f"{len(layers)} layers and the CLI: {len(errors)} violation(s)")
    if errors:
        print("0 passed, 1 failed")
        return 1
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
