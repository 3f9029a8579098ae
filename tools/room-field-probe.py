#!/usr/bin/env python3
"""Fields switched on in the room: gyro fusion against each, for one or two builds.

Writes 40 logs with `lodestone simulate` (ten scenarios: walks of seeds 3, 7, 15
and 21, a ten-minute tumble, a 5 °/s level turn, a boat, a drive, a full tumble,
holds; gyro bias 0.2,-0.1,0.3 °/s): each scenario plain, and with three room
fields of 3-12 µT in random directions (a seeded draw), switched on at 100, 150
or 200 s and then either left on, on for 60 s then fading over 60 s, or on for
40 s then fading over 10, 30 or 180 s (`--room-field START,END,E,N,U,FADE`).
Each is scored with `lodestone evaluate LOG --calibration PROFILE` (default
none: an uncalibrated compass, its error taken to be 5°; a profile with a small
fit error makes the filter trust the compass more): heading RMSE and the share
of samples beyond 3 x headingAccuracy.

Usage: tools/room-field-probe.py --lodestone BIN [--against OTHER_BIN] [--work DIR]
                                 [--calibration PROFILE]

With --against, prints both builds side by side (the logs are written by BIN).
Needs only Python's standard library; takes about two minutes a build.
"""
import argparse
import math
import os
import random
import subprocess

SCENARIOS = [('walk', 3), ('walk', 7), ('walk', 15), ('walk', 21), ('tumble', 5), ('turn', 9),
             ('boat', 4), ('drive', 6), ('full-tumble', 8), ('holds', 2)]


def cases():
    """(name, simulate arguments) of every log, drawn from a fixed seed."""
    rng = random.Random(27)
    for scenario, seed in SCENARIOS:
        base = ['--scenario', scenario, '--seed', str(seed), '--gyro', '--truth', '--gyro-bias', '0.2,-0.1,0.3']
        if scenario in ('tumble', 'full-tumble'):
            base += ['--duration', '600']
        if scenario == 'turn':
            base += ['--turn-rate', '5', '--duration', '600']
        for kind in range(3):
            size = rng.uniform(3, 12)
            azimuth = rng.uniform(0, 2 * math.pi)
            polar = math.acos(rng.uniform(-1, 1))
            east = size * math.sin(polar) * math.cos(azimuth)
            north = size * math.sin(polar) * math.sin(azimuth)
            up = size * math.cos(polar)
            start = rng.choice([100, 150, 200])
            if kind == 0:
                end, fade = 1e9, 0
            elif kind == 1:
                end, fade = start + 60, 60
            else:
                end, fade = start + 40, rng.choice([10, 30, 180])
            window = f'{start},{end:.0f},{east:.3f},{north:.3f},{up:.3f},{fade}'
            yield f'{scenario}-{seed}-room{kind}', base + ['--room-field', window], window
        yield f'{scenario}-{seed}', base, 'none'


def score(binary, log, calibration):
    out = subprocess.run([binary, 'evaluate', log, '--calibration', calibration], capture_output=True, text=True)
    if out.returncode != 0:
        return f'failed: {out.stderr.strip()}'
    row = out.stdout.strip().splitlines()[-1].split()
    return f'{row[2]:>7} {row[6]:>6}'


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--lodestone', required=True, help='the release binary that writes and scores the logs')
    parser.add_argument('--against', help='a second binary to score the same logs')
    parser.add_argument('--work', default='/tmp/lodestone-room-probe', help='where the logs go')
    parser.add_argument('--calibration', default='none', help='the profile evaluate uses (default none)')
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    builds = [args.lodestone] + ([args.against] if args.against else [])
    print(f'{"log":24} {"room field (start,end,E,N,U,fade)":44} ' + '  '.join(f'{"RMSE  >3acc":>14}' for _ in builds))
    for name, simulate, window in cases():
        log = os.path.join(args.work, name + '.lslog')
        if not os.path.exists(log):
            subprocess.run([args.lodestone, 'simulate', '-o', log] + simulate, capture_output=True, check=True)
        print(f'{name:24} {window:44} ' + '  '.join(score(b, log, args.calibration) for b in builds), flush=True)


if __name__ == '__main__':
    main()
