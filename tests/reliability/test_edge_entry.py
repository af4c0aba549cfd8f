#!/usr/bin/env python3
"""A wheel whose turn comes to rest on a sector edge is held there (docs/rollers.md,
"A handover the turn reverses", "The sector edge's sliding mode").

Usage: test_edge_entry.py NSED SOURCE_ROOT

A random start of the psi = 0.4 drive in the vertex form (docs/reliability.md,
"The vehicles with attached rollers"): wheel 0 rocks on the edge between its
rollers 1 and 2 from t = 4.30, every 2e-5 s, its turn reversing at every
handover. At t = 4.34203 a handover inside the boundary's band gives the
contact to roller 1, whose turn reverses before roller 1 reaches its sector.
Before, roller 1's region root never fired and the run stopped at
t = 4.4291592 with roller 2 1.38e-6 m below the floor (`closed_gap`). Now the
reversal fires the root, the wheel is at rest on the edge, and it is held
there (Filippov's sliding mode): both tips closed and slipping. Checked from
the run's own files:

- the run completes its 10 units, status ok (the law monitor clean);
- the entry: a closing of the other tip without an opening at the same
  instant, within the rocking, after which both tips slip with positive
  loads, and the wheel's turn, +-7e-5 rad/s at the rocking's handovers, is
  held below 1e-6 rad/s on the edge;
- the sliding mode against the rocking it replaces (Filippov): with alpha_X
  the share of its lone load that tip X carries on the edge, alpha_1 +
  alpha_2 = 1, and alpha_1 is the fraction of the rocking's time the wheel
  spent on roller 1 (docs/rollers.md, "The sector edge's sliding mode");
- an independent formulation, the rollers as rotors on axles
  (`omni_vehicle.roller_frame=rotor`), enters the edge within 1e-4 s and
  ends at the same state (platform position and yaw within 1e-7).
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reltest import Failures, result_complete, run  # noqa: E402

PROBLEM = "problems/omni_vehicle_drive_psi04.yaml"
START = ["--set", "omni_vehicle.velocity=[0.9464794326253521, 0.136802376260992]",
         "--set", "omni_vehicle.spin=0.32462199603453623",
         "--set", "friction={model: polygon, form: vertex, sides: 8}"]
A, B = "wheel0_roller1_floor", "wheel0_roller2_floor"
WEIGHT_TOL = 2e-3  # alpha_1 against the dwell fraction (measured 2e-4: the rocking's turn, 7e-5 rad/s, moves the slips little)


def rows(path):
    lines = open(path).read().splitlines()
    return lines[0].split(","), [l.split(",") for l in lines[1:]]


def entries(out):
    """Instants where a wheel-0 roller closes and none opens."""
    _, ev = rows(os.path.join(out, "events.csv"))
    at = {}
    for r in ev:
        if r[2].startswith("wheel0_"):
            at.setdefault(r[0], []).append((r[1], r[2]))
    return [(float(t), [c for k, c in v if k == "close"]) for t, v in at.items()
            if any(k == "close" for k, _ in v) and not any(k == "open" for k, _ in v)], ev


def final_state(out):
    head, traj = rows(os.path.join(out, "trajectory.csv"))
    last = traj[-1]
    return [float(last[head.index(k)]) for k in ("platform.x", "platform.y", "platform.q3", "platform.wz")]


def main():
    nsed, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    f = Failures()
    with tempfile.TemporaryDirectory() as work:
        outs = {}
        for name, extra in (("attached", []), ("rotor", ["--set", "omni_vehicle.roller_frame=rotor"])):
            out = os.path.join(work, name)
            p = run([nsed, "run", os.path.join(root, PROBLEM), "-o", out, "--quiet"] + START + extra, timeout=1200)
            f.check(p.returncode == 0, f"{name}: exit status {p.returncode}: {p.err[-600:]}")
            s = result_complete(out, f)
            f.check(s is not None and s.get("status") == "ok" and s.get("t_reached") == 10,
                    f"{name}: status {s and s.get('status')} at {s and s.get('t_reached')}: {s and s.get('message')}")
            outs[name] = out if s else None
        if not all(outs.values()):
            return f.done("edge_entry")

        ent, ev = entries(outs["attached"])
        ent = [(t, c) for t, c in ent if 4.3 < t < 4.4]
        f.check(len(ent) == 1 and ent[0][1] in ([A], [B]), f"not one entry onto the edge in the rocking: {ent}")
        if len(ent) != 1:
            return f.done("edge_entry")
        t_in = ent[0][0]
        f.check(4.3419 < t_in < 4.3422, f"entered at t = {t_in}, expected 4.34203")
        ent_rotor, _ = entries(outs["rotor"])
        ent_rotor = [t for t, _ in ent_rotor if 4.3 < t < 4.4]
        f.check(len(ent_rotor) == 1 and abs(ent_rotor[0] - t_in) < 1e-4,
                f"the rotor formulation enters at {ent_rotor}, the attached one at {t_in}")

        # The rocking before the entry: its handovers (closings of wheel 0's
        # rollers 1 and 2), alternating; 20 whole cycles up to the last
        # handover but one (the last dwell on roller 2 was cut short by the
        # handover inside the band that the entry follows).
        closings = [(float(r[0]), r[2]) for r in ev if r[1] == "close" and r[2] in (A, B) and float(r[0]) < t_in]
        last = closings[-42:-1]
        f.check(len(last) == 41 and all(last[k][1] != last[k + 1][1] for k in range(40)),
                "the last 40 handovers before the entry do not alternate between rollers 1 and 2")
        gaps = [last[k + 1][0] - last[k][0] for k in range(40)]
        dwell_a = sum(g for (_, c), g in zip(last, gaps) if c == A) / sum(gaps)

        # Loads: each roller's alone after its last handover, both on the edge.
        head, con = rows(os.path.join(outs["attached"], "contacts.csv"))
        ic, im, il = head.index("contact"), head.index("mode"), head.index("lambda_n")
        alone, edge = {}, {}
        last_close = {c: t for t, c in closings[-2:]}
        for r in con:
            t = float(r[0])
            if r[ic] in (A, B) and r[im] == "slip":
                if t == last_close[r[ic]]:
                    alone[r[ic]] = float(r[il])  # the last row at the event: after it
                elif t == t_in:
                    edge[r[ic]] = float(r[il])
        f.check(set(edge) == {A, B} and all(v > 0 for v in edge.values()),
                f"not both tips slipping with positive loads on the edge: {edge}")
        if set(edge) == {A, B} and set(alone) == {A, B}:
            alpha = {c: edge[c] / alone[c] for c in (A, B)}
            f.check(abs(alpha[A] + alpha[B] - 1) < 2e-3, f"the edge's shares {alpha} do not add up to 1")
            f.check(abs(alpha[A] - dwell_a) < WEIGHT_TOL,
                    f"share of roller 1 {alpha[A]:.4f}, the rocking's time on it {dwell_a:.4f}")
            print(f"entered at t = {t_in:.10f} (rotor formulation {ent_rotor}); on the edge: loads {edge[A]:.6f}, "
                  f"{edge[B]:.6f} N of lone loads {alone[A]:.6f}, {alone[B]:.6f}: shares {alpha[A]:.4f} + "
                  f"{alpha[B]:.4f}; time on roller 1 while rocking {dwell_a:.4f}")

        # The wheel's turn about its axle (the hub's body z): reversing at
        # the rocking's handovers, held on the edge until a tip leaves it.
        head, traj = rows(os.path.join(outs["attached"], "trajectory.csv"))
        iwz = head.index("wheel0.wz")
        t_out = min([float(r[0]) for r in ev if r[1] == "open" and r[2] in (A, B) and float(r[0]) > t_in] or [10])
        rocking = [abs(float(r[iwz])) for r in traj if last[0][0] <= float(r[0]) < last[-1][0]]
        held = [abs(float(r[iwz])) for r in traj if t_in < float(r[0]) < t_out]
        f.check(len(held) > 10 and max(held) < 1e-6, f"the turn on the edge reaches {max(held or [0])} rad/s")
        f.check(rocking and max(rocking) > 1e-5, f"the rocking's turn only {max(rocking or [0])} rad/s")
        print(f"turn while rocking up to {max(rocking or [0]):.3g} rad/s, on the edge ({t_in:.5f} .. {t_out:.5f}) "
              f"up to {max(held or [0]):.3g}")

        a, b = final_state(outs["attached"]), final_state(outs["rotor"])
        f.check(all(abs(x - y) < 1e-7 for x, y in zip(a, b)), f"the two formulations end apart: {a} {b}")
        print(f"end (x, y, q3, wz): attached {a}, rotor {b}")
    return f.done("edge_entry")


if __name__ == "__main__":
    sys.exit(main())
