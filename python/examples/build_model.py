#!/usr/bin/python3
"""A model built in Python without any problem file (nsed.ModelBuilder over
libnsed's definition structs): a uniform sphere launched sliding on the
floor, for a few launch speeds and friction coefficients. Kinetic friction
decelerates it and spins it up until it rolls, at t* = 2 v0 / (7 mu g), at
5/7 v0. Prints the stick time of each run against that closed form and
exits 1 if one is off by more than 1e-9 s.

    PYTHONPATH=python /usr/bin/python3 python/examples/build_model.py
"""
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))          # python/ (no install needed)
import nsed  # noqa: E402

G, R = 9.81, 0.1


def sphere(v0, mu):
    """The sphere of problems/sphere_slide_roll.yaml, built by calls."""
    m = nsed.ModelBuilder(f"sphere v0 = {v0}, mu = {mu}")
    m.body(name="ball", mass=1, shape=nsed.Sphere(R), position=[0, 0, R], velocity=[v0, 0, 0])
    m.contact(name="ball_floor", body="ball", mu=mu)       # mu0 = mu, as in a problem file
    m.options(gravity=[0, 0, -G], t_end=1.5, output_dt=0.01,
              friction={"model": "polygon_face", "sides": 8})
    return m.build()


def main():
    worst = 0.0
    print(f"{'v0 m/s':>7} {'mu':>5} {'t* closed form s':>20} {'stick event s':>20} "
          f"{'|diff| s':>9} {'v end':>10} {'5/7 v0':>10}")
    for v0, mu in ((2.0, 0.3), (2.0, 0.1), (3.0, 0.25), (1.0, 0.5)):
        r = sphere(v0, mu).run()
        tstar = 2 * v0 / (7 * mu * G)
        stick = r.events[r.events["kind"] == "stick"]["t"]
        err = abs(stick[0] - tstar) if len(stick) else float("inf")
        worst = max(worst, err)
        ball = r.body("ball")
        print(f"{v0:7.2f} {mu:5.2f} {tstar:20.15f} {stick[0] if len(stick) else float('nan'):20.15f} "
              f"{err:9.2g} {ball['vx'][-1]:10.7f} {5 / 7 * v0:10.7f}")
    print(f"worst |stick time - t*| = {worst:.3g} s")
    return 0 if worst < 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
