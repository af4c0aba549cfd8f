#!/usr/bin/python3
"""`nsed cp --write-lcp DIR` writes every LCP the solve poses, and what it
writes is the vertex form of docs/complementarity.md section 3 built here
independently from the contact-problem file (unknowns [lambda_n | beta per
stick candidate | sigma], rows w_n = G_n. lambda + b_n, w_beta = d_j . a_T +
sigma, w_sigma = mu lambda_n - sum beta; a slipping contact's kinetic
friction folded into its normal column; an impact's b_n times 1 + e): the
inscribed polygon for --model vertex, the circumscribed one in vertex form
(r = 1/cos(pi/m), phi0 = pi/m) where the face form falls back to it. Each
file written is named on stdout and solved again by `nsed lcp`. Bad
usage: two inputs of one base name, a directory that cannot be made.

Usage: test_cp_write_lcp.py NSED SOURCE_ROOT
"""
import math
import os
import re
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def number(tok):
    return float.fromhex(tok) if "0x" in tok.lower() else float(tok)


def read_problem(path):
    """G (column-major, as nested lists G[col][row]), b, contacts, impact."""
    toks, contacts, impact = [], [], False
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        if line[0] == "level":
            impact = line[1] == "impact"
        elif line[0] == "contact":
            kind = line[1]
            mu, mu0, s1, s2, e = (number(t) for t in line[2:7])
            contacts.append(dict(kind=kind, mu=mu, mu0=mu0, s=(s1, s2), e=e))
        elif line[0] in ("nsed-contact-problem", "contacts", "spins", "G", "b"):
            if line[0] == "spins" and int(line[1]) != 0:
                raise SystemExit("this test builds problems without torsional rows")
            toks.append(line[0])
        else:
            toks.extend(line)
    nc = len(contacts)
    n3 = 3 * nc
    gi = toks.index("G")
    vals = [number(t) for t in toks[gi + 1:gi + 1 + n3 * n3]]
    bi = toks.index("b")
    b = [number(t) for t in toks[bi + 1:bi + 1 + n3]]
    G = [vals[c * n3:(c + 1) * n3] for c in range(n3)]
    return G, b, contacts, impact


def vertex_lcp(G, b, contacts, impact, m, r, phi0):
    """The vertex-form LCP, M as M[col][row], and q."""
    nc = len(contacts)
    kind, mu = [], []
    for c in contacts:
        k = c["kind"]
        m_eff = c["mu0"] if k == "stick_candidate" else (c["mu"] if k == "slipping" else 0.0)
        if impact and k == "slipping":
            k = "stick_candidate"
        if m_eff == 0.0 and k == "stick_candidate":
            k = "frictionless"
        kind.append(k)
        mu.append(m_eff)
    stick = [i for i in range(nc) if kind[i] == "stick_candidate"]
    ns = len(stick)
    bn = list(b)
    if impact:
        for i in range(nc):
            bn[3 * i] *= 1.0 + contacts[i]["e"]
    dirs = [(r * math.cos(phi0 + 2 * math.pi * j / m), r * math.sin(phi0 + 2 * math.pi * j / m)) for j in range(m)]
    # each unknown's column in G-space (what lambda it makes)
    cols = []
    for i in range(nc):
        col = list(G[3 * i])
        if kind[i] == "slipping" and mu[i] > 0.0:
            s1, s2 = contacts[i]["s"]
            col = [G[3 * i][row] - mu[i] * s1 * G[3 * i + 1][row] - mu[i] * s2 * G[3 * i + 2][row]
                   for row in range(3 * nc)]
        cols.append(col)
    for k in stick:
        for d1, d2 in dirs:
            cols.append([d1 * G[3 * k + 1][row] + d2 * G[3 * k + 2][row] for row in range(3 * nc)])
    n = nc + m * ns + ns
    M = [[0.0] * n for _ in range(n)]
    q = [0.0] * n
    for j, col in enumerate(cols):
        for i in range(nc):
            M[j][i] = col[3 * i]
        for ki, k in enumerate(stick):
            for jj, (d1, d2) in enumerate(dirs):
                M[j][nc + ki * m + jj] = d1 * col[3 * k + 1] + d2 * col[3 * k + 2]
    for i in range(nc):
        q[i] = bn[3 * i]
    for ki, k in enumerate(stick):
        for jj, (d1, d2) in enumerate(dirs):
            row = nc + ki * m + jj
            M[nc + m * ns + ki][row] = 1.0
            q[row] = d1 * b[3 * k + 1] + d2 * b[3 * k + 2]
        row = nc + m * ns + ki
        M[k][row] = mu[k]
        for jj in range(m):
            M[nc + ki * m + jj][row] = -1.0
    return M, q


def read_lcp(path):
    toks = open(path).read().split()
    n = int(toks[0])
    vals = [float(t) for t in toks[6:6 + n * n + n]]
    M = [vals[c * n:(c + 1) * n] for c in range(n)]
    return M, vals[n * n:n * n + n]


def compare(name, got, want):
    (Mg, qg), (Mw, qw) = got, want
    if len(qg) != len(qw):
        check(False, f"{name}: size {len(qg)}, built {len(qw)}")
        return
    scale = max(max(abs(x) for col in Mw for x in col), 1e-300)
    dm = max(abs(Mg[c][r] - Mw[c][r]) for c in range(len(qw)) for r in range(len(qw)))
    qscale = max(max(abs(x) for x in qw), 1e-300)
    dq = max(abs(a - b) for a, b in zip(qg, qw))
    print(f"{name}: n = {len(qw)}, |M - M built| = {dm:.3g} of {scale:.3g}, |q - q built| = {dq:.3g} of {qscale:.3g}")
    check(dm <= 1e-14 * scale, f"{name}: M differs from the built one by {dm:.3g}")
    check(dq <= 1e-14 * qscale, f"{name}: q differs from the built one by {dq:.3g}")


def main():
    nsed, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    data = os.path.join(root, "tests", "data")
    cases = [  # (file, model, sides, expected form, r, phi0)
        (os.path.join(data, "cone", "coast_slip_3c.txt"), "vertex", 8, "vertex", 1.0, 0.0),
        (os.path.join(data, "cp", "mecanum_sideways_impact_5c.txt"), "vertex", 12, "vertex", 1.0, 0.0),
        (os.path.join(data, "cp", "mecanum_car_impact_8c.txt"), "face", 8, "face-as-vertex",
         1.0 / math.cos(math.pi / 8), math.pi / 8),
    ]
    with tempfile.TemporaryDirectory() as work:
        for path, model, sides, form, r, phi0 in cases:
            out = os.path.join(work, model + str(sides))  # made by nsed cp
            p = run([nsed, "cp", "--model", model, "--sides", str(sides), "--write-lcp", out, path])
            base = os.path.splitext(os.path.basename(path))[0]
            check(p.returncode == 0, f"{base} {model}: exit {p.returncode} ({p.stderr.strip()})")
            written = re.findall(r"^  lcp (\d+) (\S+) n=(\d+) written to (\S+)$", p.stdout, re.M)
            check(written, f"{base} {model}: no LCP named on stdout:\n{p.stdout}")
            forms = [w[1] for w in written]
            check(form in forms, f"{base} {model}: forms written {forms}, expected {form}")
            for k, f, n, file in written:
                check(file == os.path.join(out, f"{base}.{k}.{f}.dat"), f"the file's name: {file}")
                check(os.path.isfile(file), f"{file} exists")
                if f != form or not os.path.isfile(file):
                    continue
                G, b, contacts, impact = read_problem(path)
                want = vertex_lcp(G, b, contacts, impact, sides, r, phi0)
                got = read_lcp(file)
                check(len(got[1]) == int(n), f"{file}: n = {n} on stdout, {len(got[1])} in the file")
                compare(f"{base} ({f}, {sides} sides)", got, want)
                again = run([nsed, "lcp", file])
                check(again.returncode == 0 and " solved " in again.stdout,
                      f"nsed lcp solves {file}: {again.stdout.strip()} {again.stderr.strip()}")
        # the cone poses no LCP: nothing is written, nothing named
        out = os.path.join(work, "cone")
        p = run([nsed, "cp", "--model", "cone", "--write-lcp", out, cases[0][0]])
        check(p.returncode == 0 and " lcp " not in p.stdout and os.listdir(out) == [],
              f"the cone writes no LCP: exit {p.returncode}, {os.listdir(out) if os.path.isdir(out) else None}")
        # bad usage: one base name twice, a directory under a file
        copy = os.path.join(work, "again")
        os.mkdir(copy)
        twin = os.path.join(copy, os.path.basename(cases[0][0]))
        with open(cases[0][0]) as src, open(twin, "w") as dst:
            dst.write(src.read())
        p = run([nsed, "cp", "--write-lcp", os.path.join(work, "twins"), cases[0][0], twin])
        check(p.returncode == 2 and "would write the same files" in p.stderr,
              f"one base name twice: exit {p.returncode}, {p.stderr.strip()}")
        check(not os.path.exists(os.path.join(work, "twins")), "nothing made on bad usage")
        p = run([nsed, "cp", "--write-lcp", os.path.join(cases[0][0], "sub"), cases[0][0]])
        check(p.returncode == 2 and "cannot create" in p.stderr,
              f"an impossible directory: exit {p.returncode}, {p.stderr.strip()}")
        p = run([nsed, "cp", "--write-lcp", cases[0][0]])
        check(p.returncode == 2, f"--write-lcp without a problem file: exit {p.returncode}")
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("ok")


main()
