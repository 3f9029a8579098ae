#!/usr/bin/env python3
"""Convert BROAD HDF5 trials to full-rate CSV logs that Lodestone can replay.

Header: time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z,gyro_x,gyro_y,gyro_z,
truth_w,truth_x,truth_y,truth_z,movement -- Lodestone's plain-CSV log columns
(found by name) plus the optical reference quaternion (body->ENU, y = the lab's
magnetic north; `nan` where markers dropped out) and the 0/1 movement flag that
BROAD scores. Units: s, m/s^2, uT, rad/s. Data: BROAD (Laidig et al., Data
6(7), 2021), CC BY 4.0 -- keep the converted files out of the repository.

Usage: tools/.venv/bin/python tools/broad-to-csv.py OUT_DIR [TRIAL.hdf5 ...]
(no trials given: every file in ../shared/data/broad/hdf5/).
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from broad_data import load_trial  # noqa: E402

HEADER = ("time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z,gyro_x,gyro_y,gyro_z,"
          "truth_w,truth_x,truth_y,truth_z,movement")
DEFAULT_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "broad" / "hdf5"


def convert(hdf5: Path, out_dir: Path) -> Path:
    t = load_trial(hdf5)
    n = len(t.acc)
    time = np.arange(n) / t.rate
    table = np.column_stack([time, t.acc, t.mag, t.gyr, t.quat, t.movement.astype(float)])
    out = out_dir / (hdf5.stem + ".csv")
    tmp = out.with_suffix(".csv.tmp")
    with open(tmp, "w") as f:
        f.write(f"# BROAD {hdf5.name}, {t.rate:.7f} Hz, CC BY 4.0 (Laidig et al., Data 6(7), 2021)\n")
        f.write(HEADER + "\n")
        # %.9g keeps float64 HDF5 values to ~1e-9 relative; nan stays "nan".
        np.savetxt(f, table, fmt=["%.6f"] + ["%.9g"] * 13 + ["%d"], delimiter=",")
    tmp.replace(out)  # atomic: a partial file never looks finished
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    out_dir = Path(argv[0])
    out_dir.mkdir(parents=True, exist_ok=True)
    trials = [Path(a) for a in argv[1:]] or sorted(DEFAULT_DIR.glob("*.hdf5"))
    if not trials:
        print(f"error: no HDF5 trials given and none in {DEFAULT_DIR}", file=sys.stderr)
        return 1
    for p in trials:
        if not p.is_file():
            print(f"error: {p}: no such file", file=sys.stderr)
            return 1
        print(convert(p, out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
