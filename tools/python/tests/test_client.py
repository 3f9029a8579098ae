"""The client against a real `lodestone serve` on the simulated board."""
import itertools
import math

import pytest

import lodestone_client as lodestone
from lodestone_client.messages import Message, parse

from conftest import LATITUDE, LONGITUDE


def angle_between(a, b):
    return abs((a - b + 180) % 360 - 180)


def test_five_lines_give_true_headings(service):
    with lodestone.connect(service.socket) as ls:
        headings = list(itertools.islice(ls.headings(heading_filter=0), 20))
    assert len(headings) == 20
    assert ls.version["class"] == "VERSION" and ls.version["protoMajor"] == 1
    for h in headings:
        assert h.is_valid and 0 <= h.magnetic_heading < 360
        # A position is configured, so true heading = magnetic + declination (WMM at 52.5° N 13.4° E: about 5°).
        assert h.true_heading is not None and 3 < h.declination < 7
        assert angle_between(h.true_heading, h.magnetic_heading + h.declination) < 0.002
        assert 20 < math.sqrt(h.x ** 2 + h.y ** 2 + h.z ** 2) < 80
        # The demo board tilts at most 20° and the model's field at 52.5° N is about 50 µT.
        assert abs(h.pitch) < 30 and abs(h.roll) < 30 and 45 < h.expected_field < 55
    assert len({round(h.magnetic_heading) for h in headings}) > 1, "the simulated board turns"


def test_the_heading_filter_is_this_clients(service):
    with lodestone.connect(service.socket) as ls:
        headings = list(itertools.islice(ls.headings(heading_filter=20), 4))
    for a, b in zip(headings, headings[1:]):
        assert angle_between(a.magnetic_heading, b.magnetic_heading) >= 20 - 1e-3


def test_poll_and_devices_over_tcp(service):
    with lodestone.connect(f"127.0.0.1:{service.port}") as ls:
        heading = ls.poll()
        assert heading.is_valid and 0 <= heading.magnetic_heading < 360
        devices = ls.devices()
    assert devices["source"] == "simulated"


def steers_with_heading(watch, count):
    """The first `count` STEERs that carry a heading. One sent before the first heading (the
    gyro fusion levels over its first 0.2 s) has bearing and distance but no delta."""
    found = []
    for o in watch:
        if not isinstance(o, lodestone.Steer):
            continue
        if o.raw["trueHeading"] is None:
            assert o.delta is None and o.bearing is not None, o
            continue
        found.append(o)
        if len(found) == count:
            return found
    raise AssertionError(f"the watch ended after {len(found)} STEERs with a heading")


def test_steering_gives_bearing_distance_and_turn(service):
    target = (LATITUDE + 0.1, LONGITUDE)
    with lodestone.connect(service.socket) as ls:
        ls.steer(*target, tolerance=10)
        steers = steers_with_heading(ls.watch(heading_filter=0), 5)
        ls.stop_steering()
    # Due north; 0.1° of latitude near 52.5° N is 11.13 km on the WGS 84 meridian (the
    # meridian radius of curvature there is 6.3755e6 m; 0.1° of it is 11127 m).
    for s in steers:
        assert angle_between(s.bearing, 0) < 1e-6
        assert abs(s.distance - 11127.8) < 5
        heading = s.raw["trueHeading"]
        assert abs(s.delta - ((0 - heading + 180) % 360 - 180)) < 0.01
        # Beyond the tolerance and its 3° of hysteresis the advice is a turn toward the side of delta.
        if abs(s.delta) > 13 and abs(s.delta) < 157:
            assert s.turn.lower().endswith("right" if s.delta > 0 else "left"), s
        assert s.turn in {"ahead", "slightLeft", "left", "sharpLeft", "turnAround", "slightRight", "right", "sharpRight"}
        assert not s.arrived


def test_errors_name_the_address_and_what_to_do(tmp_path):
    missing = str(tmp_path / "nothing.sock")
    with pytest.raises(lodestone.LodestoneError, match="nothing.sock.*lodestone serve"):
        lodestone.connect(missing)
    with pytest.raises(ValueError, match="neither a socket path nor HOST:PORT"):
        lodestone.connect("no-port-here")


def test_bad_commands_become_exceptions(service):
    with lodestone.connect(service.socket) as ls:
        with pytest.raises(lodestone.LodestoneError, match="STEER"):
            ls.steer(95, 0)
            next(ls.watch())


def test_objects_of_unknown_classes_are_kept_whole():
    o = parse({"class": "TRACK", "state": "recording", "distance": 1.5})
    assert isinstance(o, Message) and o.cls == "TRACK" and o.raw["distance"] == 1.5


def test_locations_come_from_the_services_position(service):
    # The service's position is fixed (conftest): its fix comes once a second.
    with lodestone.connect(service.socket) as ls:
        fixes = list(itertools.islice(ls.locations(distance_filter=0), 2))
    assert len(fixes) == 2
    for f in fixes:
        assert isinstance(f, lodestone.Location)
        assert abs(f.lat - LATITUDE) < 1e-9 and abs(f.lon - LONGITUDE) < 1e-9
        assert f.time is not None and f.raw["class"] == "LOCATION"
    assert fixes[0].time < fixes[1].time, "a fixed position is stamped forward"
