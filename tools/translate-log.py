#!/usr/bin/env python3
"""Moves a log's board about without turning it: adds an earth-frame translation's
acceleration to the accelerometer columns, through the log's true attitude.

A translation changes neither the rotation the gyroscope reads nor the field the
magnetometer reads, so the result is the same motion carried by a hand (or a deck)
that also moves the board to and fro: a test of how the fusion tells acceleration
from tilt, above all at the start, which `lodestone simulate`'s scenarios do not
cover. The log needs truth columns (`lodestone simulate --truth`). The specific
force in the body frame gains `Rᵀ·a(t)`, R the true attitude (sensor → ENU).

Two kinds of translation, each from time START on (ramped in over 2 s when START > 0):
  --noise RMS,LOW,HIGH,SEED   band-limited noise, RMS m/s² on each earth axis, LOW–HIGH Hz
  --sines SCALE,E,N,U         three sines on each earth axis, positions 0.02·SCALE,
                              0.08·SCALE and 0.2·SCALE m at periods 0.45, 1.1 and 2.0 s,
                              the k-th (k = 1, 2, 3) at phase k·E (east), k·N, k·U rad
                              (as FusionFailureModeTests' swayed board, whose SCALE is 0.5)

Usage: tools/translate-log.py IN.lslog OUT.lslog (--noise … | --sines …) [--start S]
Standard library and numpy only.
"""
import argparse
import sys

import numpy as np


def read(path):
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        sys.exit(f'{path}: cannot read ({e.strerror}; check the path)')
    head = [ln for ln in lines if ln.startswith('#')]
    body = [ln for ln in lines if ln and not ln.startswith('#')]
    header = body[0].split(',')
    for name in ('time', 'accel_x', 'truth_w'):
        if name not in header:
            sys.exit(f'{path}: no {name} column (write the log with lodestone simulate --truth)')
    return head, header, np.genfromtxt(body[1:], delimiter=',')


def band_noise(t, rms, low, high, seed):
    rng = np.random.default_rng(seed)
    f = np.fft.rfftfreq(len(t), np.median(np.diff(t)))
    band = (f >= low) & (f <= high)
    out = np.zeros((len(t), 3))
    for axis in range(3):
        spectrum = np.zeros(len(f), complex)
        spectrum[band] = rng.normal(size=band.sum()) + 1j * rng.normal(size=band.sum())
        x = np.fft.irfft(spectrum, len(t))
        out[:, axis] = x / np.std(x) * rms
    return out


def sines(t, scale, phases):
    out = np.zeros((len(t), 3))
    for axis, phase in enumerate(phases):
        for k, (amplitude, period) in enumerate([(0.02, 0.45), (0.08, 1.1), (0.2, 2.0)]):
            w = 2 * np.pi / period
            out[:, axis] -= scale * amplitude * w * w * np.sin(w * t + (k + 1) * phase)
    return out


def body_from_earth(q, a):
    w, x, y, z = q.T
    r = np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], 1),
                  np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], 1),
                  np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], 1)], 1)
    return np.einsum('nji,nj->ni', r, a)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('input')
    p.add_argument('output')
    kind = p.add_mutually_exclusive_group(required=True)
    kind.add_argument('--noise', help='RMS,LOW,HIGH,SEED')
    kind.add_argument('--sines', help='SCALE,E,N,U')
    p.add_argument('--start', type=float, default=0.0, help='seconds before the translation begins (default 0)')
    args = p.parse_args()
    head, header, data = read(args.input)
    col = {name: i for i, name in enumerate(header)}
    t = data[:, col['time']]
    try:
        values = [float(v) for v in (args.noise or args.sines).split(',')]
    except ValueError:
        sys.exit(f'{args.noise or args.sines}: expected comma-separated numbers')
    if args.noise:
        if len(values) != 4:
            sys.exit('--noise needs RMS,LOW,HIGH,SEED')
        a = band_noise(t, values[0], values[1], values[2], int(values[3]))
    else:
        if len(values) != 4:
            sys.exit('--sines needs SCALE,E,N,U')
        a = sines(t, values[0], values[1:])
    if args.start > 0:
        a *= np.clip((t - args.start) / 2, 0, 1)[:, None]
    q = data[:, [col['truth_w'], col['truth_x'], col['truth_y'], col['truth_z']]]
    added = body_from_earth(q, a)
    for axis, name in enumerate(('accel_x', 'accel_y', 'accel_z')):
        data[:, col[name]] += added[:, axis]
    rows = [','.join('nan' if np.isnan(v) else repr(round(float(v), 6)) for v in row) for row in data]
    try:
        with open(args.output, 'w') as out:
            out.write('\n'.join(head + [','.join(header)] + rows) + '\n')
    except OSError as e:
        sys.exit(f'{args.output}: cannot write ({e.strerror})')


if __name__ == '__main__':
    main()
