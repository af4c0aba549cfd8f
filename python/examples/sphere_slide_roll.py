#!/usr/bin/python3
"""A sphere launched sliding on the floor (problems/sphere_slide_roll.yaml)
for several friction coefficients, run in-process with overrides: the speed
of the centre v and the rolling speed w r meet at t* = 2 v0 / (7 mu g), after
which the sphere rolls at 5/7 v0. Checks the stick events against t*.

    PYTHONPATH=python /usr/bin/python3 python/examples/sphere_slide_roll.py [OUT.png]
"""
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))          # python/ (no install needed)
import nsed  # noqa: E402

PROBLEM = os.path.join(HERE, "..", "..", "problems", "sphere_slide_roll.yaml")
V0, G, R = 2.0, 9.81, 0.1


def main(argv):
    out = argv[0] if argv else "sphere_slide_roll.png"
    model = nsed.load(PROBLEM)
    fig, ax = plt.subplots(figsize=(9, 5))
    worst = 0.0
    for mu, colour in ((0.1, "tab:blue"), (0.2, "tab:green"), (0.3, "tab:red")):
        r = nsed.run(PROBLEM, overrides={"contacts.ball_floor.mu": mu,
                                         "contacts.ball_floor.mu0": mu})
        b = r.body("ball")
        tstar = 2 * V0 / (7 * mu * G)
        stick = r.events[r.events["kind"] == "stick"]["t"]
        err = abs(stick[0] - tstar) if len(stick) else float("inf")
        worst = max(worst, err)
        ax.plot(b["t"], b["vx"], color=colour, label=f"v, mu = {mu}")
        # body axes: rolling along +x spins about the body (= world here) y axis
        ax.plot(b["t"], b["wy"] * R, color=colour, ls="--", label=f"w r, mu = {mu}")
        ax.axvline(tstar, color=colour, lw=0.6, ls=":")
        print(f"mu = {mu}: stick at {stick[0]:.12f} s, t* = {tstar:.12f} s, "
              f"|error| {err:.1e} s; final v = {b['vx'][-1]:.12f} (5/7 v0 = {5 / 7 * V0:.12f})")
    ax.axhline(5 / 7 * V0, color="k", lw=0.6, ls=":", label="5/7 v0")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("speed [m/s]")
    ax.set_title(f"Sphere sliding, then rolling ({', '.join(model.contacts)}): t* = 2 v0/(7 mu g)")
    ax.legend(ncol=2, fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"{out}: worst |t_stick - t*| = {worst:.1e} s")
    return 0 if worst < 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
