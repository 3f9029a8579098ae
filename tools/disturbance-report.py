#!/usr/bin/env python3
"""Magnetic-disturbance detection on BROAD: detection delay and false alarms.

Runs `lodestone replay FILE` on full-rate BROAD CSVs (made by tools/broad-to-csv.py)
and compares its magneticDisturbance events with what the data show:

* undisturbed trials (02–24): every start event is an alarm; the raw field strength
  around it is printed, so a real anomaly in the data can be told from a false alarm;
* passing-magnet trials (30, 31): a "pass" is where the raw field strength departs
  more than 15 % from its rest value for at least two samples (the magnet is fixed in
  the room and only shows when the board sweeps by it, for 50–100 ms). Delay = from
  the first departing sample to Lodestone's start event;
* attached-magnet trials (32, 34, 36): the magnet goes on during the first rest. The
  onset is the first time after 25 s at which the field rotated into the earth frame
  with the optical reference (q ⊗ m ⊗ q*) moves more than 2 µT away from its value
  over the rest before (median of t < 20 s) and stays away for 0.5 s. Delay = from
  that onset to Lodestone's start event. The earth-frame test is used only at rest,
  where the optical and inertial clocks cannot disagree.

Usage: python3 tools/disturbance-report.py CSV...
Data: BROAD (Laidig et al., Data 6(7), 2021), CC BY 4.0.
"""
import argparse
import csv
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def rotate(q, v):
    w, x, y, z = q
    tx = 2 * (y * v[2] - z * v[1])
    ty = 2 * (z * v[0] - x * v[2])
    tz = 2 * (x * v[1] - y * v[0])
    return (v[0] + w * tx + y * tz - z * ty,
            v[1] + w * ty + z * tx - x * tz,
            v[2] + w * tz + x * ty - y * tx)


def load(path):
    rows = csv.DictReader(line for line in open(path) if not line.startswith("#"))
    out = []
    for r in rows:
        m = [float(r[k]) for k in ("mag_x", "mag_y", "mag_z")]
        g = [float(r[k]) for k in ("gyro_x", "gyro_y", "gyro_z")]
        q = [float(r[k]) for k in ("truth_w", "truth_x", "truth_y", "truth_z")]
        out.append((float(r["time"]), m, g, q))
    return out


def passes(data):
    rest = statistics.median(math.hypot(*m) for t, m, g, q in data if t < 20)
    found, start, count = [], None, 0
    for t, m, g, q in data:
        if abs(math.hypot(*m) - rest) > 0.15 * rest:
            count += 1
            if start is None:
                start = t
        else:
            if start is not None and count >= 2:
                found.append((start, t))
            start, count = None, 0
    return found


def attach_onset(data):
    rest = [rotate(q, m) for t, m, g, q in data if t < 20 and not any(math.isnan(c) for c in q)]
    ref = [statistics.median(b[i] for b in rest) for i in range(3)]
    since = None
    for t, m, g, q in data:
        if t < 25 or any(math.isnan(c) for c in q) or math.hypot(*g) > 0.1:
            continue
        if math.dist(rotate(q, m), ref) > 2:
            since = since if since is not None else t
            if t - since >= 0.5:
                return since
        else:
            since = None
    return None


def events(path, binary):
    out = subprocess.run([binary, "replay", str(path), "--heading-filter", "360"],
                         capture_output=True, text=True, check=True)
    starts, ends = [], []
    for line in out.stdout.splitlines():
        o = json.loads(line)
        if o.get("event") == "magneticDisturbance":
            (starts if o["state"] == "start" else ends).append(o["timestamp"])
    return starts, ends


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lodestone", default=str(HERE.parent / ".build/release/lodestone"))
    ap.add_argument("csv", nargs="+", type=Path)
    args = ap.parse_args()
    for path in args.csv:
        trial = int(path.stem[:2])
        starts, ends = events(path, args.lodestone)
        if trial < 30:
            data = load(path)
            rest = statistics.median(math.hypot(*m) for t, m, g, q in data if t < 20)
            notes = []
            for s in starts:
                near = [math.hypot(*m) for t, m, g, q in data if s - 0.2 <= t <= s + 0.05]
                worst = max(near, key=lambda b: abs(b - rest))
                notes.append(f"{s:.1f} s (raw |B| {worst:.1f} µT vs {rest:.1f} at rest)")
            print(f"{path.stem:44} undisturbed: {len(starts)} alarm(s)" + (": " + "; ".join(notes) if notes else ""))
        elif trial < 32:
            found = passes(load(path))
            # Disturbance intervals as Lodestone reported them.
            intervals = [(s, min([e for e in ends if e > s], default=float("inf"))) for s in starts]
            delays, missed = [], 0
            for a, b in found:
                hit = [s for s, e in intervals if s <= b + 0.3 and e >= a]
                if hit:
                    delays.append(max(0.0, hit[0] - a))
                else:
                    missed += 1
            covered = [s for s, e in intervals if not any(s <= b + 0.3 and e >= a for a, b in found)]
            text = ", ".join(f"{d * 1000:.0f}" for d in delays)
            print(f"{path.stem:44} passes {len(found)}, detected {len(delays)} (delay ms: {text}), "
                  f"missed {missed}, other starts {len(covered)}")
        else:
            onset = attach_onset(load(path))
            after = [s for s in starts if onset is not None and s >= onset - 0.5]
            delay = f"{after[0] - onset:.2f} s" if after else "not detected"
            ended = [e for e in ends if after and e > after[0]]
            print(f"{path.stem:44} magnet on at {onset:.2f} s: detected after {delay}; "
                  f"disturbance ends at {ended[0]:.1f} s" if ended else
                  f"{path.stem:44} magnet on at {onset} s: detected after {delay}; no end event")
    return 0


if __name__ == "__main__":
    sys.exit(main())
