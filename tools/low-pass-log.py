#!/usr/bin/env python3
"""Reads a log's accelerometer and gyroscope through a part's digital low-pass filter.

MEMS parts filter their readings on the chip (the MPU-6050's and MPU-9250's DLPF at
5–260 Hz, BMI160's and LSM6's filters), which takes out vibration and makes the noise
correlated from sample to sample; `lodestone simulate` writes white noise. This writes the
same log with the chosen columns through a two-pole Butterworth low-pass (bilinear
transform, started on the first sample's value), so that the fusion can be scored on what
such a part reports. The magnetometer, the truth and every other column are copied as they are.

Usage: tools/low-pass-log.py IN.lslog OUT.lslog --cutoff HZ [--sensors accel,gyro]
Standard library only.
"""
import argparse
import math
import os
import sys

COLUMNS = {"accel": ("accel_x", "accel_y", "accel_z"), "gyro": ("gyro_x", "gyro_y", "gyro_z")}


def butterworth(cutoff, rate):
    """Coefficients (b0, b1, b2, a1, a2) of the two-pole low-pass at `cutoff` Hz for samples at `rate` Hz."""
    k = math.tan(math.pi * cutoff / rate)
    q = 1 / math.sqrt(2)
    n = 1 / (1 + k / q + k * k)
    b0 = k * k * n
    return b0, 2 * b0, b0, 2 * (k * k - 1) * n, (1 - k / q + k * k) * n


def number(row, index, path, line, column):
    """The value of the row's cell at `index`, or exit naming the file, line and column."""
    if index >= len(row):
        sys.exit(f"{path}:{line}: no {column} cell ({len(row)} cells); fix or drop that line")
    try:
        return float(row[index])
    except ValueError:
        sys.exit(f"{path}:{line}: {column} is {row[index]!r}, not a number; fix or drop that line")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--cutoff", type=float, required=True, help="cutoff frequency, Hz")
    p.add_argument("--sensors", default="accel,gyro", help="accel, gyro or both (default accel,gyro)")
    args = p.parse_args()
    try:
        lines = open(args.input).read().splitlines()
    except OSError as e:
        sys.exit(f"{args.input}: cannot read ({e.strerror}; check the path)")
    comments = [ln for ln in lines if ln.startswith("#")]
    body = [(n, ln) for n, ln in enumerate(lines, 1) if ln and not ln.startswith("#")]
    header = body[0][1].split(",") if body else []
    if len(body) < 3 or "time" not in header:
        sys.exit(f"{args.input}: not a log with a time column and two samples or more")
    lines_of = [n for n, _ in body[1:]]
    rows = [ln.split(",") for _, ln in body[1:]]
    t = header.index("time")
    dt = number(rows[1], t, args.input, lines_of[1], "time") - number(rows[0], t, args.input, lines_of[0], "time")
    if not dt > 0:
        sys.exit(f"{args.input}:{lines_of[1]}: time does not advance from the line before; the rate is unknown")
    rate = 1 / dt
    if not 0 < args.cutoff < rate / 2:
        sys.exit(f"--cutoff {args.cutoff}: must lie between 0 and half the sample rate ({rate / 2:g} Hz)")
    b0, b1, b2, a1, a2 = butterworth(args.cutoff, rate)
    for sensor in args.sensors.split(","):
        if sensor not in COLUMNS:
            sys.exit(f"--sensors {args.sensors}: {sensor!r} is neither accel nor gyro")
        for name in COLUMNS[sensor]:
            if name not in header:
                sys.exit(f"{args.input}: no {name} column")
            i = header.index(name)
            values = [number(row, i, args.input, n, name) for n, row in zip(lines_of, rows)]
            x1 = x2 = y1 = y2 = values[0]
            for row, x in zip(rows, values):
                y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
                x2, x1, y2, y1 = x1, x, y1, y
                row[i] = f"{y:.6g}"
    # Written beside the output and renamed over it: a failed run leaves no half-written log.
    partial = args.output + ".partial"
    with open(partial, "w") as out:
        out.write("\n".join(comments + [body[0][1]] + [",".join(r) for r in rows]) + "\n")
    os.replace(partial, args.output)


if __name__ == "__main__":
    main()
