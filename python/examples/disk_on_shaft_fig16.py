#!/usr/bin/python3
"""Xu, Wang & Wang (2017) Fig. 16: L_OC1(t), the distance of the disk centre
C1 from the cardan joint O, for the disk on the shaft, case 2 (M = 25 N m),
run in-process through the nsed Python package.

    PYTHONPATH=python /usr/bin/python3 python/examples/disk_on_shaft_fig16.py [OUT.png] [--set KEY=VALUE ...]

The curve is flat while the rim sticks (rolling keeps L_OC1 = s0) and moves
while it slips; stick is shaded green, slip orange, as in docs/disk-on-shaft.md.
"""
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))          # python/ (no install needed)
import nsed  # noqa: E402

PROBLEM = os.path.join(HERE, "..", "..", "problems", "disk_on_shaft_case2.yaml")
O = np.array([0.0, 0.0, 0.4])                      # the cardan joint


def main(argv):
    out = "disk_on_shaft_case2_L_OC1.png"
    sets = []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--set" and args:
            sets.append(args.pop(0))
        else:
            out = a
    r = nsed.run(PROBLEM, overrides=sets)
    d = r.body("disk")
    L = np.sqrt((d["x"] - O[0]) ** 2 + (d["y"] - O[1]) ** 2 + (d["z"] - O[2]) ** 2)
    mode = r.contact("disk_floor")["mode"]
    t = d["t"]

    fig, ax = plt.subplots(figsize=(10, 4.5))
    for m, colour in (("stick", "#c8e6c9"), ("slip", "#ffe0b2")):
        ax.fill_between(t, 0, 1, where=mode == m, step="post", color=colour,
                        transform=ax.get_xaxis_transform(), label=m, linewidth=0)
    ax.plot(t, L, color="k", lw=1.2, label="L_OC1")
    onsets = r.events[r.events["kind"] == "slip"]["t"]
    ax.plot(onsets, np.full(len(onsets), L.max()), "v", color="tab:orange",
            label="stick -> slip")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("L_OC1 [m]")
    ax.set_xlim(t[0], t[-1])
    pad = 0.08 * (L.max() - L.min() + 1e-3)
    ax.set_ylim(L.min() - pad, L.max() + 2 * pad)   # the shading spans the axes, not the data
    ax.set_title("Disk on a shaft, case 2: L_OC1 = |C1 - O| (Xu et al. 2017, Fig. 16)")
    ax.legend(loc="lower left", ncol=4)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    s = r.summary
    print(f"{out}: {s['events']} events ({s['events_by_kind']['slip']} stick->slip), "
          f"L_OC1 in [{L.min():.4f}, {L.max():.4f}] m, energy balance "
          f"{s['energy_balance_error']:.2e} J, {s['wall_seconds']:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
