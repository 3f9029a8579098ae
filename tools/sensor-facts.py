#!/usr/bin/env python3
"""What a recording's sensors do that a filter must allow for, measured against its reference.

For each BROAD trial (HDF5, default: every file in ../shared/data/broad/hdf5) or
log with truth columns (a CSV from tools/broad-to-csv.py, or `lodestone simulate
--truth`), prints:

- magnetometer delay: how far the readings lag the gyro, fitted from how a
  field fixed in the room turns, dm/dt = m x w (the readings' sphere centre, a
  hard-iron offset, taken out first), with its standard error;
- gyro against the reference: the fit gyro = M w_ref + b over the samples
  turning faster than 1 rad/s (w_ref from consecutive reference attitudes,
  smoothed over 5 samples, at the shift of -3 to +3 samples that fits best):
  M - I's diagonal (scale error, %) and its largest off-diagonal term (axis
  misalignment, %), for the axes turned about at 0.2 rad/s RMS or more there. The
  misalignment includes that of the reference's frame to the IMU's;
- lever arm: the acceleration left after gravity (reference attitude) regressed
  on [dw/dt]x + [w]x[w]x, in the samples turning faster than 3 rad/s: the point
  the board turns about, cm in the body frame, and the RMS of the acceleration
  it explains there;
- compass lag: the RMS heading error of the compass levelled with the reference
  tilt, with each reading turned forward by m x w times 0 and the measured delay
  (rounded to whole samples; shown where it is 3 standard errors from zero), in
  the samples turning faster than 3 rad/s.

Usage: tools/sensor-facts.py [TRIAL.hdf5 | LOG.csv ...]

Runs in tools/.venv (numpy, h5py; created when missing). A tool for looking,
not a test: it reads the reference, which a board in use never has.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from tools_venv import reexec_in_venv  # noqa: E402

reexec_in_venv(__file__, ["h5py", "numpy"], ["h5py", "numpy"])

import numpy as np  # noqa: E402

sys.path.insert(0, str(HERE))
from broad_data import load_trial  # noqa: E402

DEFAULT_DIR = HERE.parent.parent / "shared" / "data" / "broad" / "hdf5"
FAST = 3.0  # rad/s


def load(path: Path):
    """(name, rate, acc, gyr, mag, quat) from a BROAD HDF5 trial or a log with truth columns."""
    if path.suffix == ".hdf5":
        t = load_trial(path)
        return path.stem, t.rate, t.acc, t.gyr, t.mag, t.quat
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    header = lines[0].strip().split(",")
    data = np.genfromtxt(lines[1:], delimiter=",")
    col = {name: i for i, name in enumerate(header)}
    missing = [c for c in ("time", "accel_x", "gyro_x", "mag_x", "truth_w") if c not in col]
    if missing:
        sys.exit(f"sensor-facts: {path}: no column {', '.join(missing)}; a log with truth columns is needed")
    pick = lambda *names: data[:, [col[n] for n in names]]  # noqa: E731
    rate = 1 / np.median(np.diff(data[:, col["time"]]))
    return (path.stem, rate, pick("accel_x", "accel_y", "accel_z"), pick("gyro_x", "gyro_y", "gyro_z"),
            pick("mag_x", "mag_y", "mag_z"), pick("truth_w", "truth_x", "truth_y", "truth_z"))


def rotation_matrices(q):
    w, x, y, z = q.T
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], 1),
                     np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], 1),
                     np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], 1)], 1)


def sphere_centre(mag):
    """Least-squares centre of the readings' sphere: |m - c|² = r², linear in c and r² - |c|²."""
    ok = np.all(np.isfinite(mag), 1)
    a = np.hstack([2 * mag[ok], np.ones((ok.sum(), 1))])
    solution, *_ = np.linalg.lstsq(a, np.sum(mag[ok] ** 2, 1), rcond=None)
    return solution[:3]


def magnetometer_delay(rate, gyr, mag):
    """(delay, standard error) in s of the readings behind the gyro; None where not 3 standard errors from zero and
    from its neighbours one sample away.

    A reading m_r(t) = m(t - τ) of a field fixed in the room changes as
    dm_r/dt = m_r × w(t - τ) ≈ m_r × w(t) - τ m_r × dw/dt: τ is the slope of
    dm_r/dt - m_r × w on -m_r × dw/dt (both by central differences, dw/dt
    smoothed over 5 samples), its standard error counted with the samples
    once per ten (the noise is correlated over a few).
    """
    h = 1 / rate
    dm = (mag[2:] - mag[:-2]) / (2 * h)
    kernel = np.ones(5) / 5
    dw = np.stack([np.convolve((gyr[2:, i] - gyr[:-2, i]) / (2 * h), kernel, "same") for i in range(3)], 1)
    m = mag[1:-1]
    residual = dm - np.cross(m, gyr[1:-1])
    x = -np.cross(m, dw)
    ok = np.all(np.isfinite(residual), 1) & np.all(np.isfinite(x), 1)
    r, x = residual[ok].ravel(), x[ok].ravel()
    tau = np.dot(r, x) / np.dot(x, x)
    error = np.std(r - tau * x) / np.sqrt(np.dot(x, x) / 10)
    return tau, error


def reference_rate(rate, quat):
    """Body rate between consecutive reference attitudes, smoothed over 5 samples (NaN where missing)."""
    conj = quat * np.array([1, -1, -1, -1])
    a, b = conj[:-1], quat[1:]
    w1, x1, y1, z1 = a.T
    w2, x2, y2, z2 = b.T
    dq = np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                   w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], 1)
    dq *= np.sign(dq[:, :1])
    norm = np.linalg.norm(dq[:, 1:], axis=1)
    w = dq[:, 1:] / np.maximum(1e-12, norm)[:, None] * (2 * np.arctan2(norm, dq[:, 0]) * rate)[:, None]
    w = np.vstack([w, np.full((1, 3), np.nan)])
    kernel = np.ones(5) / 5
    return np.stack([np.convolve(w[:, i], kernel, "same") for i in range(3)], 1)


def gyro_against_reference(gyr, ref):
    """(M - I, bias) of gyro = M w_ref(shifted) + b at the best shift, over the samples turning faster than 1 rad/s."""
    kernel = np.ones(5) / 5
    g = np.stack([np.convolve(gyr[:, i], kernel, "same") for i in range(3)], 1)
    best = None
    for shift in range(-3, 4):
        r = np.roll(ref, -shift, 0)
        ok = np.all(np.isfinite(r), 1) & np.all(np.isfinite(g), 1)
        ok[ok] = np.linalg.norm(r[ok], axis=1) > 1
        if ok.sum() < 300:
            continue
        x = np.hstack([r[ok], np.ones((ok.sum(), 1))])
        solution, *_ = np.linalg.lstsq(x, g[ok], rcond=None)
        residual = np.mean((g[ok] - x @ solution) ** 2)
        if best is None or residual < best[0]:
            best = (residual, solution[:3].T - np.eye(3), solution[3], np.sqrt(np.mean(r[ok] ** 2, 0)))
    if best is None:
        return np.full((3, 3), np.nan), np.full(3, np.nan)
    residual, error, bias, spread = best
    # An axis the board hardly turned about tells nothing of its scale.
    unseen = spread < 0.2
    error[unseen, :] = np.nan
    error[:, unseen] = np.nan
    return error, bias


def lever_arm(rate, acc, gyr, quat):
    """(arm in m, RMS acceleration it explains in m/s²) over the fast samples."""
    gravity = np.einsum("nji,j->ni", rotation_matrices(quat), np.array([0, 0, 9.81]))
    linear = acc - gravity
    alpha = np.gradient(gyr, 1 / rate, axis=0)
    fast = np.all(np.isfinite(linear), 1) & (np.linalg.norm(gyr, axis=1) > FAST)
    idx = np.where(fast)[0][::3]
    if len(idx) < 300:
        return None, None

    def cross(v):
        return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    a = np.vstack([cross(gyr[i]) @ cross(gyr[i]) + cross(alpha[i]) for i in idx])
    y = np.concatenate([linear[i] for i in idx])
    arm, *_ = np.linalg.lstsq(a, y, rcond=None)
    return arm, np.sqrt(np.mean((a @ arm) ** 2))


def compass_lag(rate, gyr, mag, quat, delay_samples):
    """RMS heading error (deg) of the reference-levelled compass, fast samples, readings turned forward by 0 and the delay."""
    fast = np.all(np.isfinite(quat), 1) & (np.linalg.norm(gyr, axis=1) > FAST)
    if fast.sum() < 300:
        return None
    r = rotation_matrices(quat[fast])
    out = []
    for tau in (0.0, delay_samples / rate):
        m = mag[fast] + np.cross(mag[fast], gyr[fast]) * tau
        east, north = np.einsum("nij,nj->ni", r, m)[:, :2].T
        error = np.degrees(np.arctan2(east, north))
        error = (error - np.median(error) + 180) % 360 - 180
        out.append(np.sqrt(np.mean(error ** 2)))
    return out


def main() -> None:
    paths = [Path(p) for p in sys.argv[1:]] or sorted(DEFAULT_DIR.glob("*.hdf5"))
    if not paths:
        sys.exit(f"sensor-facts: no trials given and none in {DEFAULT_DIR}")
    for path in paths:
        if not path.is_file():
            sys.exit(f"sensor-facts: {path}: no such file; give BROAD .hdf5 trials or logs with truth columns")
    print("| trial | Hz | magnetometer delay | scale error % | misalignment % | lever arm cm (fast) | "
          "its acceleration | compass RMS fast: as read / delay taken out |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        name, rate, acc, gyr, mag, quat = load(path)
        mag = mag - sphere_centre(mag)  # an offset carried with the board turns with it: m × w holds for the rest
        tau, tau_error = magnetometer_delay(rate, gyr, mag)
        delay = round(tau * rate) if abs(tau) > 3 * tau_error else 0
        error, _ = gyro_against_reference(gyr, reference_rate(rate, quat))
        off = np.nanmax(np.abs(error - np.diag(np.diag(error)))) * 100 if np.isfinite(np.diag(error)).sum() > 1 else np.nan
        arm, explained = lever_arm(rate, acc, gyr, quat)
        lag = compass_lag(rate, gyr, mag, quat, delay) if delay else None
        delay_text = f"{tau * 1000:.1f} ± {tau_error * 1000:.1f} ms"
        arm_text = "–" if arm is None else " ".join(f"{v * 100:+.1f}" for v in arm)
        accel_text = "–" if explained is None else f"{explained:.1f} m/s²"
        lag_text = "–" if lag is None else f"{lag[0]:.1f}° / {lag[1]:.1f}°"
        print(f"| {name} | {rate:.1f} | {delay_text} | "
              f"{' '.join('–' if np.isnan(v) else f'{v:+.2f}' for v in np.diag(error) * 100)} | "
              f"{'–' if np.isnan(off) else f'{off:.2f}'} | {arm_text} | {accel_text} | {lag_text} |")


if __name__ == "__main__":
    main()
