"""The connection: one socket, commands out, JSON lines in."""
import json
import os
import socket
from collections import deque
from typing import Deque, Dict, Iterator, Optional, Tuple, Union

from .messages import Event, Heading, Location, Message, Steer, parse

DEFAULT_SOCKET = "/run/lodestone/lodestone.sock"
Object = Union[Heading, Steer, Location, Event, Message]


class LodestoneError(Exception):
    """The service answered with an ERROR object, refused the connection, or went away."""


def connect(address: Optional[str] = None, timeout: Optional[float] = 10.0) -> "Client":
    """Connects to `address`: a Unix socket path, `HOST:PORT`, or `tcp://HOST:PORT`.

    Without one: `$LODESTONE_SOCKET`, else /run/lodestone/lodestone.sock (the service's
    default; its user or group may connect). `timeout` bounds each wait for the service.
    """
    return Client(address, timeout)


def _endpoint(address: str) -> Tuple[int, Union[str, Tuple[str, int]]]:
    if address.startswith("tcp://"):
        address = address[len("tcp://"):]
    elif address.startswith("unix:"):
        return socket.AF_UNIX, address[len("unix:"):]
    if "/" in address or address.endswith(".sock"):
        return socket.AF_UNIX, address
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"{address!r} is neither a socket path nor HOST:PORT")
    host = host.strip("[]") or "localhost"
    return (socket.AF_INET6 if ":" in host else socket.AF_INET), (host, int(port))


class Client:
    """A connection to `lodestone serve`; use it as a context manager or call `close()`."""

    def __init__(self, address: Optional[str] = None, timeout: Optional[float] = 10.0):
        self.address = address or os.environ.get("LODESTONE_SOCKET") or DEFAULT_SOCKET
        family, target = _endpoint(self.address)
        self._socket = socket.socket(family, socket.SOCK_STREAM)
        self._socket.settimeout(timeout)
        try:
            self._socket.connect(target)
        except OSError as error:
            self._socket.close()
            raise LodestoneError(f"cannot connect to Lodestone at {self.address}: {error.strerror or error}"
                                 " (is `lodestone serve` running, and may this user use its socket?)") from None
        self._buffer = b""
        self._pending: Deque[Dict] = deque()
        self.version: Dict = self._expect("VERSION")

    # -- commands

    def watch(self, heading_filter: Optional[float] = None) -> Iterator[Object]:
        """Starts the stream and yields every object: Heading, Steer, Event, Message.

        `heading_filter` (degrees) is this client's own filter: a heading comes only when it
        moved at least that far from the last one delivered to this client (0: every one).
        """
        self._watch(headingFilter=heading_filter)
        while True:
            yield parse(self._next())

    def headings(self, heading_filter: Optional[float] = None) -> Iterator[Heading]:
        """Yields headings only (see `watch`)."""
        for o in self.watch(heading_filter):
            if isinstance(o, Heading):
                yield o

    def locations(self, distance_filter: Optional[float] = None,
                  desired_accuracy: Optional[float] = None) -> Iterator[Location]:
        """Yields fixes (the service's position: gpsd, a position log or a fixed one).

        As Core Location: `distance_filter` (metres) delivers a fix only once it is that far
        from the last one delivered; `desired_accuracy` (metres) drops worse fixes. Headings
        are not asked for, so the sensors stay off for this client.
        """
        self._watch(heading=False, location=True, distanceFilter=distance_filter, desiredAccuracy=desired_accuracy)
        while True:
            o = parse(self._next())
            if isinstance(o, Location):
                yield o

    def poll(self) -> Heading:
        """The latest heading; the service reads its sensors for it if nobody watches."""
        self._send("?POLL;")
        answer = self._expect("POLL")
        if not answer.get("heading"):
            raise LodestoneError("the service has no heading yet")
        return Heading.from_json(answer["heading"])

    def steer(self, lat: float, lon: float, tolerance: Optional[float] = None,
              arrival_radius: Optional[float] = None) -> None:
        """Steers toward `lat`, `lon`: a Steer follows each heading of `watch()`."""
        request = {"lat": lat, "lon": lon}
        if tolerance is not None:
            request["tolerance"] = tolerance
        if arrival_radius is not None:
            request["arrivalRadius"] = arrival_radius
        self._send("?STEER=" + json.dumps(request) + ";")

    def stop_steering(self) -> None:
        self._send('?STEER={"enable":false};')

    def stop_watching(self) -> None:
        self._send('?WATCH={"enable":false};')

    def devices(self) -> Dict:
        """The DEVICES object: the sensors, the log, or the simulated board in use."""
        self._send("?DEVICES;")
        return self._expect("DEVICES")

    def close(self) -> None:
        self._socket.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the wire

    def _watch(self, **keys) -> None:
        """Sends ?WATCH with `enable` and the keys given (their protocol names), None left out."""
        request: Dict = {"enable": True, **{k: v for k, v in keys.items() if v is not None}}
        self._send("?WATCH=" + json.dumps(request) + ";")

    def _send(self, command: str) -> None:
        try:
            self._socket.sendall((command + "\n").encode())
        except OSError as error:
            raise LodestoneError(f"lost the connection to Lodestone: {error}") from None

    def _read_object(self) -> Dict:
        while b"\n" not in self._buffer:
            try:
                chunk = self._socket.recv(65536)
            except socket.timeout:
                raise LodestoneError("Lodestone sent nothing in time") from None
            if not chunk:
                raise LodestoneError("Lodestone closed the connection")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        o = json.loads(line)
        if o.get("class") == "ERROR":
            raise LodestoneError(o.get("message", "error"))
        return o

    def _next(self) -> Dict:
        return self._pending.popleft() if self._pending else self._read_object()

    def _expect(self, cls: str) -> Dict:
        """Reads until an object of class `cls`; others wait for `watch`."""
        for i, o in enumerate(self._pending):
            if o.get("class") == cls:
                del self._pending[i]
                return o
        while True:
            o = self._read_object()
            if o.get("class") == cls:
                return o
            self._pending.append(o)
