"""The objects the service sends (PROTOCOL.md), as small read-only classes.

Every object keeps the JSON it came from in `raw`, so keys added by later protocol
versions are never lost; classes this client has no class for (REGION, TRACK, …) arrive
as `Message`.
"""
from dataclasses import dataclass, field
from typing import Any, Dict, Optional


@dataclass(frozen=True)
class Message:
    """Any server object; `cls` is its `class`."""
    cls: str
    raw: Dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class Heading:
    """A HEADING: degrees, clockwise from north, of the board's forward axis."""
    magnetic_heading: float
    true_heading: Optional[float]
    heading_accuracy: float
    declination: Optional[float]
    timestamp: float
    time: Optional[str]
    x: float
    y: float
    z: float
    pitch: Optional[float]
    roll: Optional[float]
    expected_field: Optional[float]
    speed: Optional[float]
    course: Optional[float]
    raw: Dict[str, Any] = field(repr=False)

    @property
    def is_valid(self) -> bool:
        """Core Location's rule: a negative accuracy means the heading must not be used."""
        return self.heading_accuracy >= 0

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "Heading":
        return cls(magnetic_heading=o["magneticHeading"], true_heading=o.get("trueHeading"),
                   heading_accuracy=o["headingAccuracy"], declination=o.get("declination"),
                   timestamp=o["timestamp"], time=o.get("time"), x=o["x"], y=o["y"], z=o["z"],
                   pitch=o.get("pitch"), roll=o.get("roll"),
                   expected_field=o.get("expectedField"), speed=o.get("speed"), course=o.get("course"), raw=o)


@dataclass(frozen=True)
class Steer:
    """A STEER: the way to the target set with `Client.steer`."""
    lat: float
    lon: float
    bearing: float
    distance: float
    delta: Optional[float]
    turn: Optional[str]
    arrived: bool
    eta: Optional[float]
    raw: Dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "Steer":
        return cls(lat=o["lat"], lon=o["lon"], bearing=o["bearing"], distance=o["distance"], delta=o.get("delta"),
                   turn=o.get("turn"), arrived=bool(o.get("arrived")), eta=o.get("eta"), raw=o)


@dataclass(frozen=True)
class Event:
    """An EVENT: something changed (true heading, calibration, disturbance, source)."""
    event: str
    reason: Optional[str]
    detail: Optional[str]
    state: Optional[str]
    raw: Dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "Event":
        return cls(event=o["event"], reason=o.get("reason"), detail=o.get("detail"), state=o.get("state"), raw=o)


@dataclass(frozen=True)
class Location:
    """A LOCATION: a fix, with Core Location's names; unknown values are None."""
    lat: float
    lon: float
    time: Optional[str]
    altitude: Optional[float]
    horizontal_accuracy: Optional[float]
    vertical_accuracy: Optional[float]
    speed: Optional[float]
    course: Optional[float]
    raw: Dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "Location":
        return cls(lat=o["lat"], lon=o["lon"], time=o.get("time"), altitude=o.get("altitude"),
                   horizontal_accuracy=o.get("horizontalAccuracy"), vertical_accuracy=o.get("verticalAccuracy"),
                   speed=o.get("speed"), course=o.get("course"), raw=o)


def parse(o: Dict[str, Any]):
    kind = o.get("class")
    if kind == "HEADING":
        return Heading.from_json(o)
    if kind == "STEER":
        return Steer.from_json(o)
    if kind == "EVENT":
        return Event.from_json(o)
    if kind == "LOCATION":
        return Location.from_json(o)
    return Message(cls=str(kind), raw=o)
