#!/usr/bin/env python3
"""Motions with known truth written apart from LodestoneSimulation, scored against VQF.

The scenario battery and tools/fusion-sweep.py both make their logs with `lodestone simulate`,
so a mistake shared by the simulator and the filter (a sign, a convention, an assumption about
how vehicles or sensors behave) cannot show there. This script makes its own, with none of the
simulator's code or ideas:

* attitude from analytic heading/pitch/roll (R = Rz(−ψ)·Rx(θ)·Ry(φ), body → ENU, north =
  magnetic north), or from an analytic body rate integrated by RK4 at 1 kHz;
* the gyro's rate from central differences of R (±0.1 ms), the accelerometer's specific force
  from central second differences of the sensor's position (lever arms included that way);
* a car from a speed plan (2 m/s² up, 3 m/s² braking) and a curvature plan (curves of
  0.1–0.3 g, roundabouts of 16 m at 7 m/s, 6 % hills), integrated on a 10 ms grid, with body
  roll and pitch, the sensor 0.3 m right, 1.2 m ahead and 0.5 m above the rear axle;
* sensors: a turn-on gyro bias uniform in ±0.5 °/s per axis with a 0.001 °/s/√s walk, scale
  errors in ±0.3 %, 0.015 °/s/√Hz noise and the Earth's rate (at the latitude the dip
  implies); accelerometer scale ±0.2 %, bias ±0.02 m/s², 400 µg/√Hz; magnetometer 0.4 µT
  per sample, no calibration error (so compass mode is a fair reference); speed reports once
  a second with 0.1 m/s noise.

Motions: yaw swept ±90° (periods 120 s and 600 s), a slow turn whose rate wanders 0–1 °/s,
turns of a tilted mount, 90° steps with 30 s holds (a rotator), a hand fidgeting through
every attitude (fast and slow), a board hanging 1, 2 and 4 m below a pivot and swinging
±20°/±8° at the pendulum's own period while the pivot turns, a person looking around, a
level trolley pushed to and fro, a lift, a walk with steps and corners, a boat's roll, pitch
and heave with the sensor 4 m up the mast or 2 m below the roll axis, a car with and without
speed, coordinated (banked) turns of a bicycle, a motorbike and an aircraft, whose
accelerometer reads level throughout, and a car circling a skid pad at 0.64 g. Each is scored
by `lodestone evaluate --calibration none` (gyro fusion and compass mode), VQF and x-io
Fusion as tools/side-by-side.py runs them, over the rows after the first 10 s. A row is
flagged when Lodestone's heading RMSE exceeds VQF's, or the compass's by more than 5 % +
0.05°, or more than 1 % of its samples lie beyond 3 × headingAccuracy.

Uses tools/.venv (numpy, vqf, imufusion), made on first use. Each log takes a minute to write.
Usage: tools/independent-motions.py [--lodestone BIN] [--work DIR] [--jobs N] [NAME ...]
Exits 1 when a row is flagged.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from tools_venv import reexec_in_venv  # noqa: E402

reexec_in_venv(__file__, ["vqf", "imufusion", "h5py", "numpy"], ["vqf", "imufusion", "h5py", "numpy"])

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import math  # noqa: E402
import tempfile  # noqa: E402
import zlib  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402

import numpy as np  # noqa: E402

G = 9.81
D2R = math.pi / 180


def _load_side_by_side():
    spec = importlib.util.spec_from_file_location("side_by_side", HERE / "side-by-side.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Rotations -------------------------------------------------------------------------------

def rot_z(a):
    c, s, z, o = np.cos(a), np.sin(a), np.zeros_like(a), np.ones_like(a)
    return np.stack([np.stack([c, -s, z], -1), np.stack([s, c, z], -1), np.stack([z, z, o], -1)], -2)


def rot_x(a):
    c, s, z, o = np.cos(a), np.sin(a), np.zeros_like(a), np.ones_like(a)
    return np.stack([np.stack([o, z, z], -1), np.stack([z, c, -s], -1), np.stack([z, s, c], -1)], -2)


def rot_y(a):
    c, s, z, o = np.cos(a), np.sin(a), np.zeros_like(a), np.ones_like(a)
    return np.stack([np.stack([c, z, s], -1), np.stack([z, o, z], -1), np.stack([-s, z, c], -1)], -2)


def rotation_vector(r):
    """The rotation vector of each matrix (axis × angle)."""
    angle = np.arccos(np.clip((np.trace(r, axis1=-2, axis2=-1) - 1) / 2, -1, 1))
    v = np.stack([r[..., 2, 1] - r[..., 1, 2], r[..., 0, 2] - r[..., 2, 0], r[..., 1, 0] - r[..., 0, 1]], -1)
    k = np.where(angle < 1e-8, 0.5, angle / (2 * np.sin(np.maximum(angle, 1e-12))))
    return v * k[..., None]


def quaternion_from_matrix(r):
    w = np.sqrt(np.maximum(0, 1 + r[:, 0, 0] + r[:, 1, 1] + r[:, 2, 2])) / 2
    x = np.copysign(np.sqrt(np.maximum(0, 1 + r[:, 0, 0] - r[:, 1, 1] - r[:, 2, 2])) / 2, r[:, 2, 1] - r[:, 1, 2])
    y = np.copysign(np.sqrt(np.maximum(0, 1 - r[:, 0, 0] + r[:, 1, 1] - r[:, 2, 2])) / 2, r[:, 0, 2] - r[:, 2, 0])
    z = np.copysign(np.sqrt(np.maximum(0, 1 - r[:, 0, 0] - r[:, 1, 1] + r[:, 2, 2])) / 2, r[:, 1, 0] - r[:, 0, 1])
    return np.stack([w, x, y, z], -1)


def matrix_from_quaternion(q):
    w, x, y, z = q.T
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
                     np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
                     np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)], -2)


# Motions ---------------------------------------------------------------------------------

def zero(t):
    return 0 * t


class EulerMotion:
    """Heading, pitch and roll as functions of time (rad); the sensor `arm` (body, m) from a
    reference point at `position(t)` (ENU, m); `speed_track(t)` → (m/s, degrees) or None."""

    def __init__(self, duration, heading, pitch=zero, roll=zero, position=None, arm=(0, 0, 0), speed_track=None,
                 acceleration_step=2e-3):
        self.duration, self.heading, self.pitch, self.roll = duration, heading, pitch, roll
        self.position_of_point, self.arm, self.speed_track = position, np.array(arm, float), speed_track
        self.acceleration_step = acceleration_step

    def attitude(self, t):
        return rot_z(-self.heading(t)) @ rot_x(self.pitch(t)) @ rot_y(self.roll(t))

    def rate(self, t, h=1e-4):
        return rotation_vector(np.swapaxes(self.attitude(t - h), -1, -2) @ self.attitude(t + h)) / (2 * h)

    def position(self, t):
        point = self.position_of_point(t) if self.position_of_point else np.zeros((len(t), 3))
        return point + self.attitude(t) @ self.arm


class RateMotion:
    """A body rate `rate(t)` (rad/s, (N, 3)) integrated by RK4 on 1 ms steps from a level start."""

    def __init__(self, duration, rate):
        self.duration, self._rate, self.speed_track, self.acceleration_step = duration, rate, None, 2e-3
        self._q = None

    def rate(self, t):
        return self._rate(t)

    def position(self, t):
        return np.zeros((len(t), 3))

    def attitude(self, t):
        if self._q is None:
            self._q = self._integrate()
        return matrix_from_quaternion(self._q[np.clip(np.round(t / 1e-3).astype(int), 0, len(self._q) - 1)])

    def _integrate(self):
        h = 1e-3
        n = int(round(self.duration / h)) + 2
        grid = np.arange(n) * h
        at, mid = self._rate(grid), self._rate(grid + h / 2)
        q = np.zeros((n, 4))
        q[0] = [1, 0, 0, 0]

        def derivative(a, w):
            return 0.5 * np.array([-a[1] * w[0] - a[2] * w[1] - a[3] * w[2], a[0] * w[0] + a[2] * w[2] - a[3] * w[1],
                                   a[0] * w[1] - a[1] * w[2] + a[3] * w[0], a[0] * w[2] + a[1] * w[1] - a[2] * w[0]])
        for i in range(n - 1):
            a = q[i]
            k1 = derivative(a, at[i])
            k2 = derivative(a + h / 2 * k1, mid[i])
            k3 = derivative(a + h / 2 * k2, mid[i])
            k4 = derivative(a + h * k3, at[i + 1])
            b = a + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            q[i + 1] = b / np.linalg.norm(b)
        return q


def smooth_step(t, t0, t1):
    x = np.clip((t - t0) / (t1 - t0), 0, 1)
    return x * x * x * (10 - 15 * x + 6 * x * x)


def ramp(t):
    """0 for the first 10 s (still), rising to 1 by 14 s."""
    return smooth_step(t, 10, 14)


def random_sines(rng, count, low, high, rms):
    f, phase = rng.uniform(low, high, count), rng.uniform(0, 2 * math.pi, count)
    a = rms / math.sqrt(count / 2)
    return lambda t: sum(a * np.sin(2 * math.pi * f[k] * t + phase[k]) for k in range(count))


def turned(rate_dps):
    """Heading of a turn at `rate_dps` started at 10 s, rad."""
    return lambda t: D2R * rate_dps * np.maximum(t - 10, 0)


def rotator_steps(t):
    step = np.floor((t - 10) / 33)
    within = (t - 10) - 33 * step
    return D2R * 90 * (np.maximum(step, 0) + np.where(t >= 10, smooth_step(within, 0, 3), 0))


def pendulum(length, yaw_rate_dps=1.0, roll_amplitude=8.0):
    w = math.sqrt(G / length)
    return EulerMotion(300, lambda t: 0.2 + turned(yaw_rate_dps)(t),
                       lambda t: ramp(t) * 20 * D2R * np.sin(w * t),
                       lambda t: ramp(t) * roll_amplitude * D2R * np.sin(w * t + 1.0), arm=(0, 0, -length))


def pocket(frequency, arm, walk_speed=0.0):
    """A board in a trouser pocket: pitched −80°, swung ±35° by the leg, `arm` m below the hip,
    the walker turning at 1 °/s, walking at `walk_speed` m/s with a bob twice a stride."""
    w = 2 * math.pi * frequency
    position = None
    if walk_speed:
        position = lambda t: np.stack([0 * t, walk_speed * t, 0.03 * np.sin(2 * w * t)], -1)
    return EulerMotion(300, lambda t: 0.4 + turned(1)(t), lambda t: -80 * D2R + ramp(t) * 35 * D2R * np.sin(w * t),
                       lambda t: 0 * t + 3 * D2R, position=position, arm=(0, arm, 0))


def car(rng, with_speed, duration=600.0):
    """600 s (or `duration`): roundabouts, curves, hills and straights from a random plan."""
    dt = 0.01
    t = np.arange(int(duration / dt) + 1) * dt
    plan, start = [], 10.0
    while start < duration - 40:
        kind = rng.choice(["straight", "curve", "roundabout", "hill"])
        length = {"straight": rng.uniform(10, 30), "curve": rng.uniform(8, 20), "hill": rng.uniform(15, 30),
                  "roundabout": 2 * math.pi * 16 / 7 * rng.choice([0.75, 1.25, 2.25]) + 6}[kind]
        plan.append((start, start + length, kind, rng.uniform(-1, 1)))
        start += length
    target = np.zeros_like(t)
    for a, b, kind, r in plan:
        target[(t >= a) & (t < b)] = 7 if kind == "roundabout" else 14 + 8 * abs(r)
    speed = np.zeros_like(t)
    for i in range(1, len(t)):
        speed[i] = speed[i - 1] + np.clip(target[i] - speed[i - 1], -3 * dt, 2 * dt)
    curvature, grade = np.zeros_like(t), np.zeros_like(t)   # curvature > 0: to the left
    for a, b, kind, r in plan:
        if kind == "curve":
            lateral = 0.1 * G + 0.2 * G * abs(r)
            curvature += np.sign(r) * lateral / np.maximum(speed, 5) ** 2 * (smooth_step(t, a, a + 3) - smooth_step(t, b - 3, b))
        elif kind == "roundabout":
            curvature -= (smooth_step(t, a + 3, a + 4) - smooth_step(t, b - 4, b - 3)) / 16
        elif kind == "hill":
            grade += 0.06 * np.sign(r) * (smooth_step(t, a, a + 5) - smooth_step(t, b - 5, b))
    heading = 0.6 + np.concatenate([[0], np.cumsum(-(speed * curvature)[:-1] * dt)])
    road = np.arctan(grade)
    velocity = np.stack([speed * np.sin(heading), speed * np.cos(heading), speed * np.sin(road)], -1)
    point = np.cumsum(velocity, 0) * dt
    roll = speed * speed * curvature / G * 5 * D2R
    pitch = road - np.gradient(speed, dt) / G * 3 * D2R

    track = sampled(t, np.degrees(heading) % 360)
    reports = (lambda q: (sampled(t, speed)(q), track(q))) if with_speed else None
    return EulerMotion(duration - 5, sampled(t, heading), sampled(t, pitch), sampled(t, roll),
                       lambda q: np.stack([sampled(t, point[:, k])(q) for k in range(3)], -1),
                       arm=(0.3, 1.2, 0.5), speed_track=reports, acceleration_step=0.05)


def walk(seed, duration=300.0):
    """Walking at 1.4 m/s, 1.9 steps a second, the board held in front pitched 30°: the step's
    bob, surge and sway, the hand's drift and tremor, corners of 45–180° in 3 s; 300 s or `duration`."""
    rng = np.random.default_rng(seed)
    steps = 1.9 + 0.1 * rng.standard_normal()
    corners, start = [], 30.0
    while start < duration - 20:
        corners.append((start, rng.choice([-1, 1]) * rng.choice([45, 90, 180])))
        start += rng.uniform(25, 40)

    def course(t):
        return 0.7 + sum(D2R * angle * smooth_step(t, c, c + 3) for c, angle in corners)

    def walking(t):
        return smooth_step(t, 10, 12)
    tremor = [random_sines(rng, 6, 3, 8, 0.4 * D2R) for _ in range(3)]
    drift = [random_sines(rng, 3, 0.02, 0.2, 4 * D2R) for _ in range(3)]
    grid = np.arange(0, duration + 5, 0.005)
    speed, heading = 1.4 * walking(grid), course(grid)
    east, north = np.cumsum(speed * np.sin(heading)) * 0.005, np.cumsum(speed * np.cos(heading)) * 0.005

    def position(t):
        h, w = course(t), walking(t)
        bob, surge = w * 0.03 * np.sin(2 * math.pi * steps * t), w * 0.02 * np.sin(2 * math.pi * steps * t + 1)
        sway = w * 0.03 * np.sin(math.pi * steps * t)
        return np.stack([np.interp(t, grid, east) + surge * np.sin(h) + sway * np.cos(h),
                         np.interp(t, grid, north) + surge * np.cos(h) - sway * np.sin(h), 1.2 + bob], -1)
    return EulerMotion(duration, lambda t: course(t) + drift[2](t) + tremor[2](t) + walking(t) * 3 * D2R * np.sin(math.pi * steps * t + 0.5),
                       lambda t: 30 * D2R + drift[0](t) + tremor[0](t) + walking(t) * 2 * D2R * np.sin(2 * math.pi * steps * t),
                       lambda t: drift[1](t) + tremor[1](t) + walking(t) * 3 * D2R * np.sin(math.pi * steps * t),
                       position, acceleration_step=0.01)


def boat(seed, arm):
    """3 m/s with roll (±20° at 7–9 s), pitch (±8° at 5–7 s), heave (±1 m at 6–8 s) and a yaw
    sway about a course that turns slowly; the sensor at `arm` (m) from the point it rolls about."""
    rng = np.random.default_rng(seed)

    def on(t):
        return smooth_step(t, 10, 20)
    roll, pitch = random_sines(rng, 3, 1 / 9, 1 / 7, 14 * D2R), random_sines(rng, 3, 1 / 7, 1 / 5, 5.5 * D2R)
    heave, sway = random_sines(rng, 3, 1 / 8, 1 / 6, 0.7), random_sines(rng, 3, 1 / 30, 1 / 10, 3 * D2R)

    def course(t):
        return 0.4 + D2R * 0.2 * np.maximum(t - 20, 0) * (1 + 0.5 * np.sin(2 * math.pi * t / 300))
    grid = np.arange(0, 605, 0.01)
    speed, heading = 3 * on(grid), course(grid)
    east, north = np.cumsum(speed * np.sin(heading)) * 0.01, np.cumsum(speed * np.cos(heading)) * 0.01
    return EulerMotion(600, lambda t: course(t) + on(t) * sway(t), lambda t: on(t) * pitch(t), lambda t: on(t) * roll(t),
                       lambda t: np.stack([np.interp(t, grid, east), np.interp(t, grid, north), on(t) * heave(t)], -1),
                       arm=arm, acceleration_step=0.02)


def sampled(grid, values):
    """`values` on `grid` as a function of time, linearly interpolated."""
    return lambda t: np.interp(t, grid, values)


def level_vehicle(grid, heading, speed, roll, duration, arm=(0, 0, 0), acceleration_step=0.02):
    """A vehicle on level ground along `heading` (rad) at `speed` (m/s), rolled by `roll` (rad),
    each on `grid` (s, evenly spaced); its path integrated from them."""
    dt = grid[1] - grid[0]
    east, north = np.cumsum(speed * np.sin(heading)) * dt, np.cumsum(speed * np.cos(heading)) * dt
    return EulerMotion(duration, sampled(grid, heading), zero, sampled(grid, roll),
                       lambda t: np.stack([sampled(grid, east)(t), sampled(grid, north)(t), 0 * t], -1),
                       arm=arm, acceleration_step=acceleration_step)


def banked(speed, rate_dps, turns, duration=300.0):
    """A coordinated turn, as a bicycle, a motorbike or an aircraft makes it: at `speed` (m/s),
    turning at `rate_dps` (°/s) left and right in turn over each (start, end) of `turns` (s), 4 s
    to roll in and out, banked by atan(v·ω/g) so that the specific force stays on the body's
    up axis. The accelerometer then reads level while the board leans 10–30°; only its length
    (g / cos bank) shows the turn."""
    grid = np.arange(0, duration + 5, 0.005)
    rate = np.zeros_like(grid)
    for k, (a, b) in enumerate(turns):
        rate += (-1) ** k * rate_dps * D2R * (smooth_step(grid, a, a + 4) - smooth_step(grid, b - 4, b))
    v = speed * smooth_step(grid, 5, 15)
    heading = 0.7 + np.cumsum(rate) * 0.005
    return level_vehicle(grid, heading, v, np.arctan(v * rate / G), duration)


def test_track(radius, speed, duration=400.0):
    """A car circling a skid pad of `radius` (m) at `speed` (m/s) for minutes, its roll 5° per g:
    a centripetal acceleration that never lets up (25 m/s on 100 m: 0.64 g)."""
    grid = np.arange(0, duration + 5, 0.005)
    v = speed * smooth_step(grid, 10, 20)
    heading = 0.3 + np.cumsum(v / radius) * 0.005
    return level_vehicle(grid, heading, v, v * v / radius / G * 5 * D2R, duration,
                         arm=(0.3, 1.2, 0.5), acceleration_step=0.05)


def motions():
    rng = np.random.default_rng(5)
    fidget = [random_sines(rng, 6, 0.02, 0.6, 40 * D2R) for _ in range(3)]
    slow = [random_sines(rng, 5, 0.005, 0.1, 5 * D2R) for _ in range(3)]
    look_yaw, look_pitch = random_sines(rng, 4, 0.01, 0.08, 60 * D2R), random_sines(rng, 3, 0.01, 0.1, 12 * D2R)
    tremor = [random_sines(rng, 8, 4, 10, 0.3 * D2R) for _ in range(3)]
    hand = [random_sines(rng, 6, 0.3, 2, 0.05) for _ in range(3)]
    pushes = random_sines(rng, 5, 0.05, 0.4, 1.5)
    found = {
        "sweep-120s": lambda: EulerMotion(300, lambda t: 0.3 + ramp(t) * 90 * D2R * np.sin(2 * math.pi * (t - 10) / 120)),
        "sweep-600s": lambda: EulerMotion(600, lambda t: 1.0 + ramp(t) * 90 * D2R * np.sin(2 * math.pi * (t - 10) / 600)),
        "varying-turn": lambda: EulerMotion(600, lambda t: 2.0 + D2R * (0.5 * np.maximum(t - 10, 0) - 25 / math.pi * (
            1 - np.cos(2 * math.pi * np.maximum(t - 10, 0) / 200)))),
        "tilted-turn-0.3": lambda: EulerMotion(300, turned(0.3), lambda t: 0 * t + 20 * D2R, lambda t: 0 * t - 10 * D2R),
        "tilted-turn-3": lambda: EulerMotion(300, turned(3), lambda t: 0 * t - 15 * D2R, lambda t: 0 * t + 25 * D2R),
        "rotator-steps": lambda: EulerMotion(400, lambda t: 0.5 + rotator_steps(t)),
        "fidget": lambda: RateMotion(400, lambda t: np.stack([ramp(t) * f(t) for f in fidget], -1)),
        "fidget-slow": lambda: RateMotion(400, lambda t: np.stack([ramp(t) * f(t) for f in slow], -1)),
        "pendulum-1m": lambda: pendulum(1.0),
        "pendulum-2m": lambda: pendulum(2.0),
        "pendulum-2m-planar": lambda: pendulum(2.0, roll_amplitude=0),
        "pendulum-4m": lambda: pendulum(4.0),
        "look-around": lambda: EulerMotion(300, lambda t: 0.5 + look_yaw(t) + tremor[0](t),
                                           lambda t: 25 * D2R + look_pitch(t) + tremor[1](t), lambda t: 5 * D2R + tremor[2](t),
                                           lambda t: np.stack([f(t) for f in hand], -1)),
        "trolley": lambda: EulerMotion(300, lambda t: 0.8 + turned(0.5)(t), position=lambda t: np.stack(
            [0 * t, ramp(t) * pushes(t) / (2 * math.pi * 0.15) ** 2, 0 * t], -1)),
        "lift": lambda: EulerMotion(300, lambda t: 0.2 + turned(0.7)(t), position=lambda t: np.stack(
            [0 * t, 0 * t, ramp(t) * 3 * np.sin(2 * math.pi * t / 20)], -1)),
        "walk": lambda: walk(1),
        "pocket-swing": lambda: pocket(1.5, 0.4),
        "pocket-walk": lambda: pocket(0.9, 0.8, walk_speed=1.4),
        "boat-mast-4m": lambda: boat(1, (0, 0, 4)),
        "boat-below-2m": lambda: boat(3, (0.5, 1, -2)),
        "car": lambda: car(np.random.default_rng(11), with_speed=False),
        "car-speed": lambda: car(np.random.default_rng(11), with_speed=True),
        "bicycle-banked": lambda: banked(8, 20, [(30, 60), (90, 120), (150, 200), (230, 260)]),
        "motorbike-banked": lambda: banked(25, 10, [(30, 75), (110, 170), (200, 250)]),
        "aircraft-banked": lambda: banked(60, 3, [(30, 150), (200, 320)], duration=400),
        "test-track": lambda: test_track(100, 25),
    }
    # A part warming after switch-on, each with its temperature column and a `-blind` twin without it.
    for name, make in [("warming-turn", lambda: EulerMotion(400, lambda t: 0.4 + turned(2)(t))),
                       ("warming-fidget", found["fidget"])]:
        found[name] = lambda make=make: warming(make(), reported=True)
        found[name + "-blind"] = lambda make=make: warming(make(), reported=False)
    # A board heated, cooled and heated again, its offset with a hysteresis: the same twins.
    for name, make in [("heat-cycle-walk", lambda: walk(2, duration=900)),
                       ("heat-cycle-car", lambda: car(np.random.default_rng(12), with_speed=True, duration=900))]:
        found[name] = lambda make=make: warming(make(), reported=True, cycle=True)
        found[name + "-blind"] = lambda make=make: warming(make(), reported=False, cycle=True)
    return found


def warming(motion, reported, cycle=False):
    """A part switched on cold: its die warms by 6 K within a minute and its enclosure by 8 K
    more over minutes, and its gyro offset follows the temperature, nonlinearly. `reported`:
    the log carries the part's temperature column (1/16 K steps, 0.05 K noise), as an IMU
    that Linux drives reports it; the `-blind` twin is the same log without it. `cycle`: a
    board heated by 15 K, cooled by 10 K and heated by 12 K (a vehicle's cabin, a board in and
    out of the sun), its offset with a hysteresis between heating and cooling."""
    motion.warming = reported
    motion.heat_cycle = cycle
    return motion


def thermal_history(t, cycle):
    """The temperature's rise above 22 °C, and the offset it gives each axis (rad/s)."""
    thermal = np.random.default_rng(77)
    linear, square = thermal.uniform(-0.12, 0.12, 3), thermal.uniform(-0.004, 0.004, 3)
    if cycle:
        first = 15 * (1 - np.exp(-np.minimum(t, 300) / 60))
        cooled = first - 10 * (1 - np.exp(-np.clip(t - 300, 0, 250) / 80))
        rise = cooled + 12 * (1 - np.exp(-np.maximum(t - 550, 0) / 50))
    else:
        # Die and enclosure: two time constants.
        rise = 6 * (1 - np.exp(-t / 20)) + 8 * (1 - np.exp(-t / 200))
    # The offset linear and quadratic in the rise.
    offset = np.outer(rise, linear) + np.outer(rise ** 2, square)
    if cycle:
        # Hysteresis: an offset that lags the direction of the change, saturating within 0.5 K.
        heating = np.sign(np.gradient(rise))
        lagged = np.zeros_like(rise)
        for i in range(1, len(rise)):
            step = abs(rise[i] - rise[i - 1])
            lagged[i] = lagged[i - 1] + (heating[i] - lagged[i - 1]) * min(1.0, step / 0.5)
        offset = offset + np.outer(lagged, thermal.uniform(-0.05, 0.05, 3))
    return rise, offset * D2R


# Sensors ---------------------------------------------------------------------------------

def record(motion, path, seed, rate=100.0, dip=65.0, strength=50.0):
    """Writes a plain CSV log with truth columns (`lodestone evaluate`'s format)."""
    rng = np.random.default_rng(seed)
    dt = 1 / rate
    t = np.arange(int(motion.duration * rate)) * dt
    r = motion.attitude(t)
    h = motion.acceleration_step
    acceleration = (motion.position(t + h) - 2 * motion.position(t) + motion.position(t - h)) / h ** 2
    force = np.einsum("nji,nj->ni", r, acceleration + np.array([0, 0, G]))
    field = np.array([0, strength * math.cos(dip * D2R), -strength * math.sin(dip * D2R)])
    latitude = math.atan(math.tan(dip * D2R) / 2)
    earth_rate = np.einsum("nji,j->ni", r, 7.292115e-5 * np.array([0, math.cos(latitude), math.sin(latitude)]))
    bias = rng.uniform(-0.5, 0.5, 3) * D2R + np.cumsum(rng.normal(0, 0.001 * D2R * math.sqrt(dt), (len(t), 3)), 0)
    warming = getattr(motion, "warming", None)
    if warming is not None:
        rise, offset = thermal_history(t, getattr(motion, "heat_cycle", False))
        bias = bias + offset
        temperature = np.round((22 + rise + rng.normal(0, 0.05, len(t))) * 16) / 16
    gyro = (motion.rate(t) + earth_rate) * (1 + rng.uniform(-0.003, 0.003, 3)) + bias \
        + rng.normal(0, 0.015 * D2R * math.sqrt(rate), (len(t), 3))
    accel = force * (1 + rng.uniform(-0.002, 0.002, 3)) + rng.uniform(-0.02, 0.02, 3) \
        + rng.normal(0, 400e-6 * G * math.sqrt(rate), (len(t), 3))
    mag = np.einsum("nji,j->ni", r, field) + rng.normal(0, 0.4, (len(t), 3))
    columns = ["time", "accel_x", "accel_y", "accel_z", "mag_x", "mag_y", "mag_z", "gyro_x", "gyro_y", "gyro_z",
               "truth_w", "truth_x", "truth_y", "truth_z", "movement"]
    data = [t, *np.round(accel, 4).T, *np.round(mag, 3).T, *(np.round(gyro / 1e-5) * 1e-5).T,
            *quaternion_from_matrix(r).T, (t >= 10).astype(float)]
    formats = ["%.6f"] + ["%.6g"] * 9 + ["%.17g"] * 4 + ["%d"]
    if motion.speed_track is not None:
        report = np.floor(t)   # once a second, held
        speed, track = motion.speed_track(report)
        noise = rng.normal(0, 0.1, int(report[-1]) + 1)[report.astype(int)]
        columns += ["speed", "track"]
        data += [np.clip(np.round(speed + noise, 2), 0, None), np.round(track, 1) % 360]
        formats += ["%.2f", "%.1f"]
    if warming:
        columns.append("temperature")
        data.append(temperature)
        formats.append("%.4f")
    np.savetxt(path, np.stack(data, -1), fmt=formats, delimiter=",", header=",".join(columns), comments="")


def write(name_and_path):
    name, path = name_and_path
    # A `-blind` twin is its log less the temperature column: the same seed.
    record(motions()[name](), path, seed=zlib.crc32(name.removesuffix("-blind").encode()))
    return name


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lodestone", type=Path, default=HERE.parent / ".build" / "release" / "lodestone")
    ap.add_argument("--work", type=Path, default=None, help="keep the logs here; existing ones are reused")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("names", nargs="*", help="motions to run (default all)")
    args = ap.parse_args()
    if not args.lodestone.is_file():
        print(f"independent-motions: {args.lodestone} is missing; build it first: swift build -c release", file=sys.stderr)
        return 1
    known = list(motions())
    unknown = [n for n in args.names if n not in known]
    if unknown:
        print(f"independent-motions: unknown motion {', '.join(unknown)}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    tmp = tempfile.TemporaryDirectory(prefix="independent-motions-") if args.work is None else None
    work = Path(tmp.name) if tmp else args.work
    work.mkdir(parents=True, exist_ok=True)
    names = args.names or known
    missing = [(n, work / f"{n}.csv") for n in names if not (work / f"{n}.csv").exists()]
    with ProcessPoolExecutor(args.jobs) as pool:
        for name in pool.map(write, missing):
            print(f"independent-motions: wrote {name}", file=sys.stderr, flush=True)
    side = _load_side_by_side()
    flagged = 0
    print(f"{'log':20s} {'Lodestone':>9s} {'VQF':>6s} {'Fusion':>6s} {'compass':>7s} | inclination "
          f"{'L':>5s} {'VQF':>5s} | within acc, beyond 3 acc")
    for name in names:
        log = side.read_log(work / f"{name}.csv", name, None)
        v = side.score(args.lodestone, log)
        flags = (["LODESTONE>VQF"] if v[0] > v[1] else []) + (["FUSION>COMPASS"] if v[0] > 1.05 * v[3] + 0.05 else []) \
            + (["3SIGMA"] if v[9] > 1 else [])
        flagged += bool(flags)
        print(f"{name:20s} {v[0]:9.2f} {v[1]:6.2f} {v[2]:6.2f} {v[3]:7.2f} | {'':11s} {v[4]:5.2f} {v[5]:5.2f} | "
              f"{v[8]:3.0f} % {v[9]:4.1f} %  {' '.join(flags)}", flush=True)
    print(f"{flagged} of {len(names)} logs flagged")
    if tmp:
        tmp.cleanup()
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
