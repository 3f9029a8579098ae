#!/usr/bin/env python3
"""Lodestone side by side with VQF and x-io Fusion: heading and inclination RMSE.

Runs the scenario battery (the logs `lodestone simulate --battery` writes, the same
samples the Swift test suite runs in process) and every BROAD trial in
../shared/data/broad/hdf5 through:

* Lodestone, gyro fusion: `lodestone evaluate --json` (the release binary), with the
  battery case's calibration profile (BROAD trials: none, as recorded);
* Lodestone, compass mode: the same with `--fusion ecompass`;
* VQF: `vqf.VQF(Ts).updateBatch(gyr, acc, mag)["quat9D"]`, default parameters
  (Laidig & Seel, Information Fusion 2023);
* x-io Fusion: `imufusion.Ahrs`, ENU convention, gain 0.5, 2000 °/s gyroscope range,
  10° acceleration and magnetic rejection, 5 s rejection timeout, with
  `imufusion.Bias` (run-time gyroscope bias, default 3 °/s threshold and 3 s period)
  in front, as x-io's examples use it. (imufusion 1.3.3 ignores settings passed to
  the AhrsSettings constructor, so they are assigned as attributes.)

Each at the log's full rate and decimated to about 50 Hz (every k-th sample,
k = round(rate / 50); logs at 50 Hz or less are not decimated). Scores are BROAD's
(Laidig et al., Data 6(7), 2021, and its broad_utils.py): the earth-frame error
q_err = q_est ⊗ q_ref⁻¹, heading error 2·atan(|z/w|), inclination error
2·acos(√(w² + z²)), RMSE over the rows with movement = 1 and a finite truth. The
last two columns are Lodestone's share of valid samples with |error| ≤
headingAccuracy and with |error| > 3 × headingAccuracy (targets 55–85 % and ≤ 1 %).

The script makes its own virtual environment (tools/.venv: vqf, imufusion, h5py,
numpy) and re-runs itself in it; the Swift tests never need it.

Usage: tools/side-by-side.py [--lodestone BIN] [--work DIR] [--only SUBSTRING]
                             [--battery-only | --broad-only] [--doc docs/accuracy.md]
Build first: swift build -c release
"""
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from tools_venv import reexec_in_venv  # noqa: E402

reexec_in_venv(__file__, ["vqf", "imufusion", "h5py", "numpy"], ["vqf", "imufusion", "h5py", "numpy"])

import argparse  # noqa: E402
import datetime  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import shlex  # noqa: E402
import tempfile  # noqa: E402
from dataclasses import dataclass  # noqa: E402

import imufusion  # noqa: E402
import numpy as np  # noqa: E402
import vqf  # noqa: E402

sys.path.insert(0, str(HERE))
from broad_data import quat_multiply  # noqa: E402

DEFAULT_HDF5 = HERE.parent.parent / "shared" / "data" / "broad" / "hdf5"
TARGET_RATE = 50.0


@dataclass
class Log:
    """A log with truth columns, as arrays (SI units, body → ENU truth)."""
    name: str
    path: Path
    profile: Path | None
    rate: float
    acc: np.ndarray
    gyr: np.ndarray
    mag: np.ndarray
    quat: np.ndarray
    scored: np.ndarray


def read_log(path: Path, name: str, profile: Path | None) -> Log:
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    header = lines[0].split(",")
    data = np.genfromtxt(lines[1:], delimiter=",", filling_values=np.nan)
    col = {n: i for i, n in enumerate(header)}

    def cols(*names: str) -> np.ndarray:
        return np.ascontiguousarray(data[:, [col[n] for n in names]])

    t = data[:, col["time"]]
    mag = cols("mag_x", "mag_y", "mag_z")
    if profile is not None:
        p = json.loads(profile.read_text())["parameters"]
        mag = (np.array(p["matrix"]) @ (mag - np.array(p["offset"])).T).T
    quat = cols("truth_w", "truth_x", "truth_y", "truth_z")
    scored = np.isfinite(quat).all(axis=1)
    if "movement" in col:
        scored &= data[:, col["movement"]] == 1
    return Log(name, path, profile, 1 / np.median(np.diff(t)), cols("accel_x", "accel_y", "accel_z"),
               cols("gyro_x", "gyro_y", "gyro_z"), np.ascontiguousarray(mag), quat, scored)


def decimate(path: Path, out: Path, k: int) -> Path:
    """Every k-th sample line of a log, verbatim, as plain CSV (header kept)."""
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    out.write_text("\n".join([lines[0]] + lines[1::k]) + "\n")
    return out


def errors(q_est: np.ndarray, log: Log) -> tuple[float, float]:
    """BROAD's heading and inclination RMSE, degrees, over the scored rows."""
    q = q_est / np.linalg.norm(q_est, axis=1, keepdims=True)
    ref = log.quat / np.linalg.norm(log.quat, axis=1, keepdims=True)
    e = quat_multiply(q, ref * np.array([1.0, -1.0, -1.0, -1.0]))
    e /= np.linalg.norm(e, axis=1, keepdims=True)
    heading = 2 * np.arctan(np.abs(e[:, 3] / e[:, 0]))
    inclination = 2 * np.arccos(np.clip(np.sqrt(e[:, 0] ** 2 + e[:, 3] ** 2), 0, 1))
    s = log.scored & np.isfinite(heading)
    return (float(np.degrees(np.sqrt(np.mean(heading[s] ** 2)))),
            float(np.degrees(np.sqrt(np.mean(inclination[s] ** 2)))))


def run_vqf(log: Log) -> np.ndarray:
    return vqf.VQF(1.0 / log.rate).updateBatch(log.gyr, log.acc, log.mag)["quat9D"]


def run_fusion(log: Log) -> np.ndarray:
    s = imufusion.AhrsSettings()
    s.sample_rate = log.rate
    s.convention = imufusion.CONVENTION_ENU
    s.gain = 0.5
    s.gyroscope_range = 2000.0
    s.acceleration_rejection = 10.0
    s.magnetic_rejection = 10.0
    s.rejection_timeout = 5.0
    ahrs = imufusion.Ahrs()
    ahrs.set_settings(s)
    b = imufusion.BiasSettings()
    b.sample_rate = log.rate
    bias = imufusion.Bias()
    bias.set_settings(b)
    gyr_dps = np.degrees(log.gyr)
    acc_g = log.acc / 9.80665
    q = np.empty((len(acc_g), 4))
    for i in range(len(acc_g)):
        ahrs.update(bias.update(gyr_dps[i]), acc_g[i], log.mag[i])
        q[i] = ahrs.get_quaternion()
    return q


def run_lodestone(binary: Path, path: Path, profile: Path | None, compass: bool) -> dict:
    cmd = [str(binary), "evaluate", "--json", str(path)]
    cmd += ["--calibration", str(profile)] if profile else ["--calibration", "none"]
    if compass:
        cmd += ["--fusion", "ecompass"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"`{shlex.join(cmd)}` exited {out.returncode}: {out.stderr.strip()[-400:]}")
    return json.loads(out.stdout.splitlines()[0])


COLUMNS = ["Lodestone", "VQF", "Fusion", "compass"]


def score(binary: Path, log: Log) -> list[float]:
    fused = run_lodestone(binary, log.path, log.profile, compass=False)
    compass = run_lodestone(binary, log.path, log.profile, compass=True)
    vh, vi = errors(run_vqf(log), log)
    fh, fi = errors(run_fusion(log), log)
    return [fused["headingRMSE"], vh, fh, compass["headingRMSE"],
            fused["inclinationRMSE"], vi, fi, compass["inclinationRMSE"],
            100 * fused["validCoverage"], 100 * fused["beyondThreeAccuracy"]]


def row_text(name: str, rate: float, v: list[float]) -> str:
    cells = [f"{x:.2f}" for x in v[:8]] + [f"{v[8]:.0f} %", f"{v[9]:.1f} %"]
    return f"| {name} | {rate:.4g} | " + " | ".join(cells) + " |"


TABLE_HEAD = ("| log | Hz | heading: Lodestone | VQF | Fusion | compass | inclination: Lodestone | VQF | Fusion"
              " | compass | ≤ acc | > 3 acc |\n|---|---|---|---|---|---|---|---|---|---|---|---|")


def datasets(args, work: Path, binary: Path) -> list[tuple[str, Path, Path | None]]:
    found: list[tuple[str, Path, Path | None]] = []
    if not args.broad_only:
        battery = work / "battery"
        subprocess.run([str(binary), "simulate", "--battery", str(battery)], check=True, stdout=subprocess.DEVNULL)
        for log in sorted(battery.glob("*.lslog")):
            if args.only in log.stem:
                found.append((log.stem, log, battery / (log.stem + ".profile.json")))
    if not args.battery_only:
        spec = importlib.util.spec_from_file_location("broad_to_csv", HERE / "broad-to-csv.py")
        to_csv = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(to_csv)
        broad = work / "broad"
        broad.mkdir(parents=True, exist_ok=True)
        for h5 in sorted(args.hdf5_dir.glob("*.hdf5")):
            if args.only in h5.stem:
                found.append((h5.stem, to_csv.convert(h5, broad), None))
    return found


def machine() -> str:
    model = ""
    try:
        model = next(ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{model or platform.processor()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}"


DOC_HEAD = """# Accuracy: Lodestone side by side with VQF and x-io Fusion

Heading and inclination RMSE in degrees (BROAD's metric: the earth-frame error
q_err = q_est ⊗ q_ref⁻¹, heading 2·atan(|z/w|), inclination 2·acos(√(w² + z²)); RMSE over
the scored rows), for:

- **the scenario battery**: the cases of `Tests/LodestoneCoreTests/Battery`, written by
  `lodestone simulate --battery` (level turns at 0.05–100 °/s and 25–1000 Hz, a 20 Hz
  magnetometer held against a 200 Hz IMU, ten-minute tumbles, a car drive with and without
  ground speed, a boat, walks, gyro biases of 0.3 and 1 °/s with a random walk; rows after the
  first 10 s are scored). Each case has the magnetometer calibration profile its user
  would have (`NAME.profile.json`);
- **BROAD** (Laidig et al., Data 6(7), 2021, CC BY 4.0): every trial in
  `../shared/data/broad/hdf5`, its movement phase, without a calibration profile.

Each log at its full rate and decimated to about 50 Hz (every k-th sample). Columns:
Lodestone's gyro fusion (`lodestone evaluate`), VQF 9D with default parameters, x-io
Fusion (imufusion with its gyroscope bias estimator in front), Lodestone's compass mode
(`--fusion ecompass`); then the share of Lodestone's valid samples with |error| ≤
headingAccuracy (target 55–85 %) and with |error| > 3 × headingAccuracy (target ≤ 1 %).
How each is run: the docstring of `tools/side-by-side.py`.

"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lodestone", type=Path, default=HERE.parent / ".build" / "release" / "lodestone")
    ap.add_argument("--hdf5-dir", type=Path, default=DEFAULT_HDF5)
    ap.add_argument("--work", type=Path, default=None, help="keep the generated logs here (default: a temporary directory)")
    ap.add_argument("--only", default="", help="only logs whose name contains this")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--battery-only", action="store_true")
    group.add_argument("--broad-only", action="store_true")
    ap.add_argument("--doc", type=Path, default=None, help="also write the table, date, command and machine to this file")
    args = ap.parse_args()
    if not args.lodestone.is_file():
        print(f"side-by-side: {args.lodestone} is missing; build it first: swift build -c release", file=sys.stderr)
        return 1
    if not args.battery_only and not any(args.hdf5_dir.glob("*.hdf5")):
        print(f"side-by-side: no BROAD trials in {args.hdf5_dir} (use --battery-only without them)", file=sys.stderr)
        return 1
    tmp = None
    work = args.work
    if work is None:
        tmp = tempfile.TemporaryDirectory(prefix="side-by-side-")
        work = Path(tmp.name)
    work.mkdir(parents=True, exist_ok=True)
    started = datetime.datetime.now(datetime.timezone.utc)
    rows: list[tuple[str, list[float], str]] = []
    print(TABLE_HEAD, flush=True)
    for name, path, profile in datasets(args, work, args.lodestone):
        log = read_log(path, name, profile)
        variants = [(log.rate, path)]
        k = round(log.rate / TARGET_RATE)
        if k > 1:
            variants.append((log.rate / k, decimate(path, work / f"{name}-{k}.csv", k)))
        for rate, file in variants:
            v = score(args.lodestone, read_log(file, name, profile) if file != path else log)
            line = row_text(name, rate, v)
            rows.append((("battery" if profile else "BROAD") + ("" if file == path else " ~50 Hz"), v, line))
            print(line, flush=True)
    summary = []
    for group in sorted({g for g, _, _ in rows}):
        values = np.array([v for g, v, _ in rows if g == group])
        mean = values.mean(axis=0)
        summary.append(row_text(f"**mean, {group}** ({len(values)})", float("nan"), list(mean)).replace("| nan |", "| |"))
    print("\n".join(summary))
    if args.doc:
        command = "tools/side-by-side.py " + shlex.join(sys.argv[1:])
        table_lines = [TABLE_HEAD] + [line for _, _, line in rows]
        version = subprocess.run([str(args.lodestone), "--version"], capture_output=True, text=True).stdout.split()[-1:]
        commit = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        text = (DOC_HEAD + f"Measured {started:%Y-%m-%d %H:%M} UTC on {machine()}, with `{command}` "
                f"(Lodestone {' '.join(version)} at commit {commit or '?'}, "
                f"vqf {_version('vqf')}, imufusion {_version('imufusion')}).\n\n"
                + "\n".join(table_lines + summary) + "\n" + _text_after_table(args.doc))
        args.doc.write_text(text)
        print(f"side-by-side: wrote {args.doc}", file=sys.stderr)
    if tmp is not None:
        tmp.cleanup()
    return 0


def _text_after_table(doc: Path) -> str:
    """What an existing doc holds after its table (the prose written about it), kept when the table is rewritten."""
    if not doc.exists():
        return ""
    lines = doc.read_text().split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("| log |")), None)
    if start is None:
        return ""
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "\n".join(lines[end:])


def _version(package: str) -> str:
    from importlib.metadata import version
    try:
        return version(package)
    except Exception:  # noqa: BLE001
        return "?"


if __name__ == "__main__":
    sys.exit(main())
