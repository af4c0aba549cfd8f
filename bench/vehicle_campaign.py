#!/usr/bin/python3
"""The omni-vehicle campaign: every shipped vehicle problem (problems/*.yaml
with an `omni_vehicle:` block) in every roller contact tracking (explicit,
implicit, differential) and every exact friction form (polygon face, polygon
vertex, exact cone), each run for a long horizon, one row per configuration:

    configuration, status, completed time, events, handovers, lift-offs,
    landings, impacts, worst penetration, worst law margin, energy balance,
    wall time

    bench/vehicle_campaign.py [--build DIR] [--units T] [--si-seconds T]
        [--problems NAME ...] [--tracking NAME ...] [--forms NAME ...]
        [--set KEY=VALUE ...] [--jobs N] [--csv FILE] [--keep DIR] [--failed DIR]

Defaults: 1000 time units for the problems in Kosenko's units (g = 1), 100 s
for the SI problems (g = 9.81, Gerasimov and Zobova's set), every problem,
tracking and form, one run at a time. The full campaign takes hours on the
project's 2-core machine; `--units 10 --si-seconds 1` takes about ten
minutes. --set passes overrides to every run (after the campaign's own:
solver.t_end, contact_tracking, output.dt and the friction form), for
instance `--set solver.rtol=1e-12`. The table is Markdown on stdout; --csv also writes it as CSV,
rewritten as each row finishes. Interrupted (Ctrl-C), the campaign prints
and writes the rows that ran and exits 130. A row that stops on an event
problem it cannot solve names it in the CSV's failed_problem column; --failed
DIR keeps each such problem as DIR/PROBLEM.TRACKING.FORM.txt (solve it again
with `nsed cp`). Exits 1 if a row does not
complete with the law monitor clean, 2 on bad usage. tests/reliability/test_vehicle_campaign.py runs a sampled 10-unit
subset; the last table is in docs/omni-vehicle.md, "The campaign".

How the columns are counted (docs/omni-vehicle.md, "The campaign"):
- handovers, lift-offs and landings from events.csv: a wheel's contacts are
  the contacts named WHEEL_rollerK_...; the modes start from contacts.csv's
  first instant and follow each event's `to` mode. At one instant a wheel
  whose closed contacts change but stay non-empty while one opens and
  another closes hands over; one whose closed set empties lifts off; one
  whose empty set fills lands.
- impacts: events of kind impact (summary.json events_by_kind.impact).
- worst penetration: the largest gap violation of a closed contact that the
  law monitor saw (-law_monitor.closed_gap.worst, 0 if never negative).
- worst law margin: the smallest ratio worst / tolerance over the monitor's
  checks (each check's worst margin is positive inside its law; a run stops
  below -1), and the check it belongs to.
- energy balance: summary.json's energy_balance_error relative to the energy
  that flowed, |E0| + |work of loads| + |work of the contact forces|.
- track residual (differential tracking only): summary.json's
  max_track_residual, the largest tangency residual of the integrated
  contact coordinates seen at the output samples and before events.
"""
import argparse
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACKINGS = ("explicit", "implicit", "differential")
FORMS = {
    "face": ["friction.model=polygon", "friction.form=face"],
    "vertex": ["friction.model=polygon", "friction.form=vertex"],
    "cone": ["friction.model=exact_cone"],
}
CHECKS = ("normal_force", "stick_friction", "slip_friction", "slip_direction",
          "open_gap", "closed_gap", "joint_drift", "stick_velocity")
COLUMNS = ("problem", "tracking", "form", "status", "t_end", "t_reached", "events",
           "handovers", "liftoffs", "landings", "impacts", "penetration",
           "law_margin", "law_check", "energy_balance_rel", "track_residual", "wall_s", "message",
           "failed_problem")


def vehicle_problems():
    """The shipped problems with an omni_vehicle block, and whether each is in SI units."""
    found = []
    pdir = os.path.join(ROOT, "problems")
    for name in sorted(os.listdir(pdir)):
        if not name.endswith(".yaml"):
            continue
        with open(os.path.join(pdir, name)) as f:
            doc = yaml.safe_load(f)
        if isinstance(doc, dict) and "omni_vehicle" in doc:
            g = doc.get("gravity", [0, 0, -9.81])
            found.append((name[:-5], math.sqrt(sum(x * x for x in g)) > 5.0))
    return found


def wheel_of(contact):
    """The wheel a roller contact belongs to (its name up to _roller), or None."""
    k = contact.find("_roller")
    return contact[:k] if k > 0 else None


def initial_modes(contacts_csv):
    """Each contact's mode at the first output instant of contacts.csv."""
    modes = {}
    with open(contacts_csv, newline="") as f:
        rows = csv.DictReader(f)
        t0 = None
        for row in rows:
            if t0 is None:
                t0 = row["t"]
            if row["t"] != t0:
                break
            modes[row["contact"]] = row["mode"]
    return modes


def wheel_transitions(modes, events):
    """(handovers, lift-offs, landings) of the wheels over the event list.

    modes: contact -> mode at the start; events: (t, contact, to) in order.
    Events at the same instant are taken together."""
    closed = {}
    for c, m in modes.items():
        w = wheel_of(c)
        if w is not None:
            closed.setdefault(w, set())
            if m != "open":
                closed[w].add(c)
    handovers = liftoffs = landings = 0
    i = 0
    while i < len(events):
        t = events[i][0]
        before = {w: set(s) for w, s in closed.items()}
        while i < len(events) and events[i][0] == t:
            _, c, to = events[i]
            w = wheel_of(c)
            if w is not None:
                s = closed.setdefault(w, set())
                before.setdefault(w, set())
                if to == "open":
                    s.discard(c)
                else:
                    s.add(c)
            i += 1
        for w, s in closed.items():
            b = before.get(w, set())
            if b and not s:
                liftoffs += 1
            elif s and not b:
                landings += 1
            elif b - s and s - b:
                handovers += 1
    return handovers, liftoffs, landings


def read_events(events_csv):
    """(t, contact, to) of every mode change in events.csv; a failed run's
    closing `failure` row changes no mode."""
    with open(events_csv, newline="") as f:
        return [(float(r["t"]), r["contact"], r["to"]) for r in csv.DictReader(f)
                if r["kind"] != "failure"]


def law_margin(monitor):
    """(smallest worst/tolerance over the checks, its check) or (None, '')."""
    best, where = None, ""
    for name in CHECKS:
        c = monitor.get(name) or {}
        if not c.get("count") or not c.get("tolerance"):
            continue
        r = c["worst"] / c["tolerance"]
        if best is None or r < best:
            best, where = r, name
    return best, where


def energy_flow(s):
    return abs(s.get("energy_initial", 0)) + abs(s.get("work_external", 0)) + \
        abs(s.get("work_contacts", 0))


def run_one(nsed, problem, tracking, form, t_end, out, extra=()):
    """One configuration: its table row (a dict of COLUMNS)."""
    path = os.path.join(ROOT, "problems", problem + ".yaml")
    sets = [f"solver.t_end={t_end:g}", f"contact_tracking={tracking}",
            f"output.dt={t_end / 200:g}"] + FORMS[form] + list(extra)
    cmd = [nsed, "run", path, "-o", out, "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    t0 = time.monotonic()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    row = dict.fromkeys(COLUMNS, "")
    row.update(problem=problem, tracking=tracking, form=form, t_end=t_end, wall_s=wall)
    summary = os.path.join(out, "summary.json")
    if not os.path.exists(summary):
        lines = proc.stderr.strip().splitlines()
        row.update(status="no summary", message=lines[-1] if lines else "")
        return row
    with open(summary) as f:
        s = json.load(f)
    monitor = s.get("law_monitor", {})
    margin, check = law_margin(monitor)
    closed = monitor.get("closed_gap") or {}
    gap = closed.get("worst", 0.0) if closed.get("count") else 0.0
    flow = energy_flow(s)
    h = lo = la = ""
    try:
        h, lo, la = wheel_transitions(initial_modes(os.path.join(out, "contacts.csv")),
                                      read_events(os.path.join(out, "events.csv")))
    except (OSError, KeyError, ValueError) as e:
        row["message"] = f"events unreadable: {e}"
    row.update(status=s.get("status", ""), t_reached=s.get("t_reached", ""),
               events=s.get("events", ""), handovers=h, liftoffs=lo, landings=la,
               impacts=(s.get("events_by_kind") or {}).get("impact", ""),
               penetration=max(0.0, -gap), law_margin=margin if margin is not None else "",
               law_check=check,
               energy_balance_rel=abs(s.get("energy_balance_error", math.nan)) / flow if flow > 0 else "",
               track_residual=s.get("max_track_residual", "") if tracking == "differential" else "",
               message=row["message"] or s.get("message", ""),
               failed_problem=os.path.join(out, s["failed_event_problem"])
               if s.get("failed_event_problem") else "")
    return row


def fmt(v, kind):
    if v == "" or v is None:
        return "-"
    if kind == "g":
        return f"{v:.3g}" if isinstance(v, float) else str(v)
    if kind == "e":
        return f"{v:.1e}"
    if kind == "f":
        return f"{v:.1f}"
    return str(v)


def print_table(rows, out=sys.stdout):
    out.write("| problem | tracking | form | status | t reached | events | handovers | lift-offs | "
              "landings | impacts | worst penetration | worst law margin (check) | "
              "energy balance (rel) | track residual | wall s |\n")
    out.write("|" + "---|" * 15 + "\n")
    for r in rows:
        margin = "-" if r["law_margin"] == "" else f"{r['law_margin']:.2g} ({r['law_check']})"
        out.write(f"| {r['problem']} | {r['tracking']} | {r['form']} | {r['status']} | "
                  f"{fmt(r['t_reached'], 'g')} | {fmt(r['events'], '')} | {fmt(r['handovers'], '')} | "
                  f"{fmt(r['liftoffs'], '')} | {fmt(r['landings'], '')} | {fmt(r['impacts'], '')} | "
                  f"{fmt(r['penetration'], 'e')} | {margin} | {fmt(r['energy_balance_rel'], 'e')} | "
                  f"{fmt(r['track_residual'], 'e')} | {fmt(r['wall_s'], 'f')} |\n")
    for r in rows:
        if r["status"] != "ok" and r["message"]:
            out.write(f"\n- {r['problem']} / {r['tracking']} / {r['form']}: {r['message']}")
    out.write("\n")


def write_csv(rows, path):
    tmp = path + ".part"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def parse(argv):
    p = argparse.ArgumentParser(prog="vehicle_campaign.py",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"), help="build directory (default build)")
    p.add_argument("--units", type=float, default=1000.0,
                   help="horizon of the problems in Kosenko's units (default 1000)")
    p.add_argument("--si-seconds", type=float, default=100.0,
                   help="horizon of the SI problems in s (default 100)")
    p.add_argument("--problems", nargs="+", help="problem names (default: every vehicle problem)")
    p.add_argument("--tracking", nargs="+", choices=TRACKINGS, default=list(TRACKINGS))
    p.add_argument("--forms", nargs="+", choices=list(FORMS), default=list(FORMS))
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="an override for every run (repeatable)")
    p.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1)")
    p.add_argument("--csv", help="also write the table as CSV to this file")
    p.add_argument("--keep", help="keep each run's result directory under this directory")
    p.add_argument("--failed", help="keep each failed row's unsolved event problem in this directory")
    a = p.parse_args(argv)
    if not (a.units > 0 and a.si_seconds > 0) or a.jobs < 1:
        p.error("--units and --si-seconds must be > 0, --jobs >= 1")
    bad = [s for s in a.set if "=" not in s or s.startswith("=")]
    if bad:
        p.error(f"--set takes KEY=VALUE, got {bad[0]!r}")
    return a


def main(argv):
    a = parse(argv)
    nsed = os.path.join(a.build, "src", "cli", "nsed")
    if not os.access(nsed, os.X_OK):
        print(f"vehicle_campaign.py: {nsed} not found (build first: meson setup {a.build} && "
              f"ninja -C {a.build})", file=sys.stderr)
        return 2
    known = dict(vehicle_problems())
    names = a.problems or list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"vehicle_campaign.py: not a shipped vehicle problem: {', '.join(unknown)} "
              f"(the vehicle problems: {', '.join(known)})", file=sys.stderr)
        return 2
    if a.keep and os.path.exists(a.keep) and os.listdir(a.keep):
        print(f"vehicle_campaign.py: --keep {a.keep} is not empty (nothing is overwritten)",
              file=sys.stderr)
        return 2
    configs = [(n, tr, fo) for n in names for tr in a.tracking for fo in a.forms]
    done, interrupted = {}, False

    def keep_failed_problem(row):
        """The run's failed_event_problem.txt copied to --failed DIR; the
        column names the copy, or the kept run's file (--keep), else nothing
        (the run's directory is temporary)."""
        src = row["failed_problem"]
        if src and a.failed:
            os.makedirs(a.failed, exist_ok=True)
            dst = os.path.join(a.failed, f"{row['problem']}.{row['tracking']}.{row['form']}.txt")
            shutil.copyfile(src, dst)
            row["failed_problem"] = dst
        elif src and not a.keep:
            row["failed_problem"] = ""

    def record(i, row):
        """A finished row: reported at once, and the CSV rewritten with every
        row so far, so that an interrupted campaign keeps what it ran."""
        keep_failed_problem(row)
        done[i] = row
        print(f"  {row['problem']} {row['tracking']} {row['form']}: {row['status']} at "
              f"{row['t_reached']} ({row['wall_s']:.1f} s)"
              f"{'; unsolved event problem: ' + row['failed_problem'] if row['failed_problem'] else ''}",
              file=sys.stderr, flush=True)
        if a.csv:
            write_csv([done[k] for k in sorted(done)], a.csv)

    with tempfile.TemporaryDirectory() as work:
        base = a.keep or work
        def one(cfg):
            n, tr, fo = cfg
            return run_one(nsed, n, tr, fo, a.si_seconds if known[n] else a.units,
                           os.path.join(base, f"{n}.{tr}.{fo}"), a.set)
        pool, futures = None, {}
        try:
            if a.jobs > 1:
                from concurrent.futures import ThreadPoolExecutor, as_completed
                pool = ThreadPoolExecutor(a.jobs)
                futures = {pool.submit(one, cfg): i for i, cfg in enumerate(configs)}
                for f in as_completed(futures):
                    record(futures[f], f.result())
            else:
                for i, cfg in enumerate(configs):
                    record(i, one(cfg))
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if pool is not None:
                # the runs under way finish (a terminal's Ctrl-C stops them too)
                pool.shutdown(wait=True, cancel_futures=True)
                for f, i in futures.items():
                    if i not in done and f.done() and not f.cancelled() and f.exception() is None:
                        record(i, f.result())
    rows = [done[k] for k in sorted(done)]
    if interrupted:
        print(f"vehicle_campaign.py: interrupted after {len(rows)} of {len(configs)} rows; the "
              f"table below has them{' and so has ' + a.csv if a.csv else ''}", file=sys.stderr)
    print_table(rows)
    if a.csv:
        write_csv(rows, a.csv)
    if interrupted:
        return 130
    bad = [r for r in rows if r["status"] != "ok"]
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
