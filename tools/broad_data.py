"""Shared helpers for the BROAD scripts: read a trial, BROAD's heading metric.

BROAD: D. Laidig, M. Caruso, A. Cereatti, T. Seel, "BROAD - A Benchmark for Robust
Inertial Orientation Estimation", Data 6(7), 2021 (data CC BY 4.0). The heading
error below is the one described in BROAD's README and evaluation code: the
earth-frame error quaternion q_err = q_est * q_ref^-1, heading error
2*atan(|q_err.z / q_err.w|), RMSE over the movement phase, NaN reference rows
ignored. Tools only: numpy and h5py come from a venv, never from the runtime.
"""
from dataclasses import dataclass
from pathlib import Path

import h5py
import numpy as np


@dataclass
class Trial:
    name: str
    rate: float          # Hz
    acc: np.ndarray      # (N,3) m/s^2, specific force
    gyr: np.ndarray      # (N,3) rad/s
    mag: np.ndarray      # (N,3) uT
    quat: np.ndarray     # (N,4) w,x,y,z body->ENU (y = magnetic north), NaN rows
    movement: np.ndarray  # (N,) bool


def load_trial(path: Path) -> Trial:
    with h5py.File(path, "r") as f:
        return Trial(
            name=path.stem,
            rate=float(f.attrs["sampling_rate"]),
            acc=np.ascontiguousarray(f["imu_acc"][:], dtype=float),
            gyr=np.ascontiguousarray(f["imu_gyr"][:], dtype=float),
            mag=np.ascontiguousarray(f["imu_mag"][:], dtype=float),
            quat=np.ascontiguousarray(f["opt_quat"][:], dtype=float),
            movement=np.asarray(f["movement"][:], dtype=bool),
        )


def quat_multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product of (N,4) arrays [w,x,y,z]."""
    aw, ax, ay, az = a.T
    bw, bx, by, bz = b.T
    return np.stack([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ], axis=1)


def heading_error_deg(q_est: np.ndarray, q_ref: np.ndarray) -> np.ndarray:
    """BROAD's heading error per row, degrees in [0, 180]; NaN where either is NaN."""
    ref_inv = q_ref * np.array([1.0, -1.0, -1.0, -1.0])
    e = quat_multiply(q_est, ref_inv)
    return np.degrees(2.0 * np.arctan(np.abs(e[:, 3] / e[:, 0])))


def heading_rmse_deg(q_est: np.ndarray, trial: Trial) -> float:
    err = heading_error_deg(q_est, trial.quat)
    sel = trial.movement & np.isfinite(err)
    return float(np.sqrt(np.mean(err[sel] ** 2)))


def naive_ecompass(acc: np.ndarray, mag: np.ndarray) -> np.ndarray:
    """Per-sample tilt-compensated compass as quaternions (body->ENU)."""
    up = acc / np.linalg.norm(acc, axis=1, keepdims=True)
    east = np.cross(mag, up)
    east /= np.linalg.norm(east, axis=1, keepdims=True)
    north = np.cross(up, east)
    # Rows of R (body->ENU) are the earth axes expressed in the body frame.
    R = np.stack([east, north, up], axis=1)
    return matrix_to_quat(R)


def matrix_to_quat(R: np.ndarray) -> np.ndarray:
    """(N,3,3) proper rotation matrices to (N,4) quaternions [w,x,y,z]."""
    n = R.shape[0]
    q = np.empty((n, 4))
    t = R[:, 0, 0] + R[:, 1, 1] + R[:, 2, 2]
    cases = [
        t > 0,
        (t <= 0) & (R[:, 0, 0] > R[:, 1, 1]) & (R[:, 0, 0] > R[:, 2, 2]),
    ]
    cases.append(~cases[0] & ~cases[1] & (R[:, 1, 1] > R[:, 2, 2]))
    cases.append(~cases[0] & ~cases[1] & ~cases[2])
    m = cases[0]
    s = np.sqrt(t[m] + 1) * 2
    q[m] = np.stack([s / 4, (R[m, 2, 1] - R[m, 1, 2]) / s, (R[m, 0, 2] - R[m, 2, 0]) / s, (R[m, 1, 0] - R[m, 0, 1]) / s], 1)
    m = cases[1]
    s = np.sqrt(1 + R[m, 0, 0] - R[m, 1, 1] - R[m, 2, 2]) * 2
    q[m] = np.stack([(R[m, 2, 1] - R[m, 1, 2]) / s, s / 4, (R[m, 0, 1] + R[m, 1, 0]) / s, (R[m, 0, 2] + R[m, 2, 0]) / s], 1)
    m = cases[2]
    s = np.sqrt(1 + R[m, 1, 1] - R[m, 0, 0] - R[m, 2, 2]) * 2
    q[m] = np.stack([(R[m, 0, 2] - R[m, 2, 0]) / s, (R[m, 0, 1] + R[m, 1, 0]) / s, s / 4, (R[m, 1, 2] + R[m, 2, 1]) / s], 1)
    m = cases[3]
    s = np.sqrt(1 + R[m, 2, 2] - R[m, 0, 0] - R[m, 1, 1]) * 2
    q[m] = np.stack([(R[m, 1, 0] - R[m, 0, 1]) / s, (R[m, 0, 2] + R[m, 2, 0]) / s, (R[m, 1, 2] + R[m, 2, 1]) / s, s / 4], 1)
    return q
