#!/usr/bin/env python3
"""Heading RMSE on BROAD, side by side: VQF, x-io Fusion, a naive compass, Lodestone.

Every trial in ../shared/data/broad/hdf5/ is run at its full rate (285.7 Hz) and scored
with BROAD's heading error (see broad_data.py) over the movement phase.

* VQF: `vqf.VQF(Ts)` 9D with default parameters (Laidig & Seel, Information Fusion 2023).
* Fusion: `imufusion.Ahrs`, ENU convention, gain 0.5, 2000 deg/s gyroscope range,
  10 deg acceleration and magnetic rejection, 5 s rejection timeout, at the sample rate.
  Note: imufusion 1.3.3 ignores `convention=` passed to the AhrsSettings constructor,
  so the settings are assigned as attributes.
* naive: per-sample tilt-compensated compass from accelerometer and magnetometer.
* Lodestone: an external command per trial, the template given by --lodestone or
  $LODESTONE_EVALUATE, where {csv} is replaced by a full-rate CSV made with
  broad-to-csv.py (converted into --csv-dir on demand). The command prints the RMSE on
  a line containing `rmse` (first number after the word, degrees); other numbers on
  lines `coverage_movement=...`/`coverage_all=...` are shown too when present.
  Example: --lodestone '.build/release/lodestone evaluate --json {csv}' (the default
  when that binary exists; `lodestone evaluate --json` prints headingRMSE and
  accuracyCoverage, the share of movement samples within ±headingAccuracy).
  Without a template, the Lodestone column is left out.

Usage: tools/.venv/bin/python tools/broad-side-by-side.py [--lodestone CMD] [--csv-dir DIR]
       [--only SUBSTRING]
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import imufusion
import numpy as np
import vqf

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from broad_data import Trial, heading_rmse_deg, load_trial, naive_ecompass  # noqa: E402

DEFAULT_HDF5 = HERE.parent.parent / "shared" / "data" / "broad" / "hdf5"


def run_vqf(t: Trial) -> np.ndarray:
    return vqf.VQF(1.0 / t.rate).updateBatch(t.gyr, t.acc, t.mag)["quat9D"]


def run_fusion(t: Trial) -> np.ndarray:
    s = imufusion.AhrsSettings()
    s.sample_rate = t.rate
    s.convention = imufusion.CONVENTION_ENU
    s.gain = 0.5
    s.gyroscope_range = 2000.0
    s.acceleration_rejection = 10.0
    s.magnetic_rejection = 10.0
    s.rejection_timeout = 5.0  # seconds (imufusion >= 1.3 takes the sample rate)
    ahrs = imufusion.Ahrs()
    ahrs.set_settings(s)
    gyr_dps = np.degrees(t.gyr)
    acc_g = t.acc / 9.80665
    q = np.empty((len(acc_g), 4))
    for i in range(len(acc_g)):
        ahrs.update(gyr_dps[i], acc_g[i], t.mag[i])
        q[i] = ahrs.get_quaternion()
    return q


def run_lodestone(template: str, csv: Path) -> dict[str, float]:
    cmd = template.replace("{csv}", shlex.quote(str(csv)))
    out = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"`{cmd}` exited {out.returncode}: {out.stderr.strip()[-400:]}")
    found: dict[str, float] = {}
    number = r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan)"
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            # `lodestone evaluate --json`: one object per file.
            obj = json.loads(line)
            if obj.get("file") != "mean" and "rmse" not in found:
                found["rmse"] = float(obj["headingRMSE"])
                found["coverage_movement"] = float(obj["accuracyCoverage"])
            continue
        low = line.lower()
        if "rmse" not in found and "rmse" in low:
            m = re.search(r"rmse\D*?" + number, low)
            if m:
                found["rmse"] = float(m.group(1))
        for key in ("coverage_movement", "coverage_all"):
            m = re.search(key + r"\s*[=:]\s*" + number, low)
            if m:
                found[key] = float(m.group(1))
    if "rmse" not in found:
        raise RuntimeError(f"`{cmd}` printed no line with `rmse` and a number")
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hdf5-dir", type=Path, default=DEFAULT_HDF5)
    default_cmd = ""
    if (HERE.parent / ".build/release/lodestone").exists():
        default_cmd = shlex.quote(str(HERE.parent / ".build/release/lodestone")) + " evaluate --json {csv}"
    ap.add_argument("--lodestone", default=os.environ.get("LODESTONE_EVALUATE", default_cmd),
                    help="command template with {csv} (default: $LODESTONE_EVALUATE)")
    ap.add_argument("--csv-dir", type=Path, default=None,
                    help="where full-rate CSVs are kept (default: a temporary directory)")
    ap.add_argument("--only", default="", help="run only trials whose name contains this")
    args = ap.parse_args()

    trials = sorted(p for p in args.hdf5_dir.glob("*.hdf5") if args.only in p.name)
    if not trials:
        print(f"error: no BROAD HDF5 trials in {args.hdf5_dir}", file=sys.stderr)
        return 1

    tmp = None
    csv_dir = args.csv_dir
    if args.lodestone and csv_dir is None:
        tmp = tempfile.TemporaryDirectory(prefix="broad-csv-")
        csv_dir = Path(tmp.name)
    if args.lodestone:
        import importlib.util
        spec = importlib.util.spec_from_file_location("broad_to_csv", HERE / "broad-to-csv.py")
        to_csv = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(to_csv)
        csv_dir.mkdir(parents=True, exist_ok=True)

    cols = ["VQF", "Fusion", "naive"] + (["Lodestone"] if args.lodestone else [])
    width = max(len(p.stem) for p in trials)
    print("heading RMSE (deg), movement phase, full rate")
    print(f"{'trial':<{width}} " + " ".join(f"{c:>9}" for c in cols))
    table = []
    coverage = []
    for p in trials:
        t = load_trial(p)
        row = [heading_rmse_deg(run_vqf(t), t), heading_rmse_deg(run_fusion(t), t),
               heading_rmse_deg(naive_ecompass(t.acc, t.mag), t)]
        if args.lodestone:
            csv = csv_dir / (p.stem + ".csv")
            if not csv.is_file():
                to_csv.convert(p, csv_dir)
            res = run_lodestone(args.lodestone, csv)
            row.append(res["rmse"])
            coverage.append((res.get("coverage_movement"), res.get("coverage_all")))
        table.append(row)
        print(f"{p.stem:<{width}} " + " ".join(f"{v:9.2f}" for v in row), flush=True)
    mean = np.mean(np.array(table), axis=0)
    print(f"{'mean':<{width}} " + " ".join(f"{v:9.2f}" for v in mean))
    if args.lodestone:
        best = np.minimum(np.array(table)[:, 0], np.array(table)[:, 1])
        worst = np.max(np.array(table)[:, 3] - best)
        print(f"Lodestone worst margin over min(VQF, Fusion): {worst:+.2f} deg")
        if all(c[0] is not None for c in coverage):
            print("headingAccuracy coverage, movement: " + " ".join(f"{c[0]:.2f}" for c in coverage))
        if all(c[1] is not None for c in coverage):
            print("headingAccuracy coverage, overall:  " + " ".join(f"{c[1]:.2f}" for c in coverage))
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
