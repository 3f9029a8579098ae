#!/usr/bin/env python3
"""Hunts for gyro-fusion failure modes beyond the scenario battery.

Writes a sweep of simulated logs with `lodestone simulate` (level turns at 0.05–200 °/s and
25–400 Hz, rates either side of the rest detector's 2 °/s threshold, tumbles, full tumbles,
walks, boats, car drives with and without speed, gyro biases up to 5 °/s, gyro scale errors
up to 3 %, a bias walking 40 times faster than typical, a tilted turn, a 10 Hz
magnetometer, dips of 0–85°) and scores each with `lodestone evaluate`, gyro fusion
against Lodestone's own compass mode. The compass here has no calibration error, so the
field is clean, and a row is flagged when:

* FUSION>COMPASS: the fusion's heading RMSE exceeds the compass's by more than 5 % + 0.05°
  (issue 11: gyro fusion is never worse than the compass in a clean field);
* 3SIGMA: more than 1 % of valid samples lie beyond 3 × headingAccuracy;
* TURN>1: a level turn's RMSE exceeds 1.0° (issue 11's target).

Standard library only. Usage: tools/fusion-sweep.py [--lodestone BIN] [--work DIR] [--jobs N]
Build first: swift build -c release. Prints one line per log; exits 1 when a row is flagged.
"""
import argparse
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BIAS = "0.3,-0.2,0.5"


def cases() -> list[tuple[str, list[str]]]:
    found = []
    for rate in [0.05, 0.2, 0.7, 1.5, 2, 2.5, 3, 4, 20, 60, 200]:
        for hz in [25, 100, 400]:
            found.append((f"turn-{rate}-{hz}hz", ["--scenario", "turn", "--turn-rate", str(rate), "--rate", str(hz),
                                                  "--duration", "330", "--gyro-bias", BIAS, "--seed", str(hz + 7)]))
    for seed in range(3):
        common = ["--rate", "100", "--seed", str(70 + seed)]
        found += [(f"tumble-{seed}", ["--scenario", "tumble", "--duration", "600", "--gyro-bias", "0.5,0.5,-0.5"] + common),
                  (f"full-tumble-{seed}", ["--scenario", "full-tumble", "--duration", "600", "--gyro-bias", BIAS] + common),
                  (f"walk-{seed}", ["--scenario", "walk", "--gyro-bias", "0.2,0.2,0.2"] + common),
                  (f"boat-{seed}", ["--scenario", "boat", "--gyro-bias", "0.2,-0.3,0.6"] + common),
                  (f"drive-{seed}", ["--scenario", "drive", "--gyro-bias", "0.6,-0.4,0.8"] + common),
                  (f"drive-speed-{seed}", ["--scenario", "drive", "--gyro-bias", "0.6,-0.4,0.8", "--speed"] + common)]
    found += [
        ("turn-1-gyro-scale", ["--scenario", "turn", "--turn-rate", "1", "--rate", "100", "--gyro-scale", "0.01,-0.01,0.02"]),
        ("tumble-gyro-scale", ["--scenario", "tumble", "--duration", "600", "--rate", "100", "--gyro-scale", "0.01,-0.01,0.02"]),
        ("spin-30-bias-2", ["--scenario", "spin", "--turn-rate", "30", "--rate", "100", "--duration", "300",
                            "--gyro-bias", "0,0,2"]),
        ("turn-0.5-bias-2", ["--scenario", "turn", "--turn-rate", "0.5", "--rate", "100", "--gyro-bias", "1.5,-1,2"]),
        ("turn-1-bias-5", ["--scenario", "turn", "--turn-rate", "1", "--rate", "100", "--gyro-bias", "0,0,5"]),
        ("turn-1-tilt-30", ["--scenario", "turn", "--turn-rate", "1", "--tilt", "30", "--rate", "100", "--gyro-bias", BIAS]),
        ("holds-bias-5", ["--scenario", "holds", "--rate", "100", "--gyro-bias", "3,-3,5"]),
        ("tumble-mag-10hz", ["--scenario", "tumble", "--duration", "600", "--rate", "200", "--mag-rate", "10"]),
        # A cheap part's sensitivity tolerance (±3 %), in a steady fast turn and tumbling.
        ("turn-20-gyro-scale-3", ["--scenario", "turn", "--turn-rate", "20", "--rate", "100", "--seed", "16",
                                  "--gyro-scale", "0.03,-0.02,0.03"]),
        ("tumble-gyro-scale-3", ["--scenario", "tumble", "--duration", "600", "--rate", "100", "--seed", "15",
                                 "--gyro-scale", "0.03,-0.02,0.03"]),
        # A bias that wanders 40 times faster than the simulator's typical part.
        ("tumble-bias-walk-0.02", ["--scenario", "tumble", "--duration", "600", "--rate", "100", "--seed", "12",
                                   "--gyro-bias", BIAS, "--bias-walk", "0.02"]),
        # Near the magnetic poles the horizontal field is small and a tilt error is
        # multiplied by tan(dip): 5.7 at 80°, 11 at 85°.
        ("walk-dip-85", ["--scenario", "walk", "--rate", "100", "--seed", "7", "--gyro-bias", BIAS, "--field", "50,85"]),
        ("drive-dip-80", ["--scenario", "drive", "--rate", "100", "--seed", "8", "--gyro-bias", BIAS, "--field", "50,80"]),
        ("turn-1-dip-0", ["--scenario", "turn", "--turn-rate", "1", "--rate", "100", "--seed", "6", "--gyro-bias", BIAS,
                          "--field", "50,0"]),
    ]
    return found


def evaluate(binary: str, log: Path, compass: bool) -> dict:
    cmd = [binary, "evaluate", "--json", str(log), "--calibration", "none"] + (["--fusion", "ecompass"] if compass else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[0])


def score(binary: str, work: Path, case: tuple[str, list[str]]) -> tuple[str, dict, dict]:
    name, args = case
    log = work / f"{name}.lslog"
    if not log.exists():
        subprocess.run([binary, "simulate", "-o", str(log), "--gyro", "--truth"] + args, check=True, capture_output=True)
    return name, evaluate(binary, log, compass=False), evaluate(binary, log, compass=True)


def flags(name: str, fused: dict, compass: dict) -> list[str]:
    found = []
    if fused["headingRMSE"] > compass["headingRMSE"] * 1.05 + 0.05:
        found.append("FUSION>COMPASS")
    if fused["beyondThreeAccuracy"] > 0.01:
        found.append("3SIGMA")
    if name.startswith("turn-") and fused["headingRMSE"] > 1.0:
        found.append("TURN>1")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lodestone", default=str(Path(__file__).resolve().parent.parent / ".build/release/lodestone"))
    parser.add_argument("--work", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    tmp = None if args.work else tempfile.TemporaryDirectory(prefix="fusion-sweep-")
    work = args.work or Path(tmp.name)
    work.mkdir(parents=True, exist_ok=True)
    flagged = 0
    with ThreadPoolExecutor(args.jobs) as pool:
        for name, fused, compass in pool.map(lambda c: score(args.lodestone, work, c), cases()):
            marks = flags(name, fused, compass)
            flagged += bool(marks)
            print(f"{name:22s} fused {fused['headingRMSE']:6.2f}°  incl {fused['inclinationRMSE']:5.2f}°  "
                  f"compass {compass['headingRMSE']:6.2f}°  within ±acc {100 * fused['validCoverage']:3.0f} %  "
                  f"beyond 3×acc {100 * fused['beyondThreeAccuracy']:4.1f} %  {' '.join(marks)}", flush=True)
    print(f"{flagged} of {len(cases())} logs flagged")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
