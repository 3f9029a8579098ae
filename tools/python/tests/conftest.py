"""Starts a real `lodestone serve --source simulated` for the client's tests."""
import os
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
LATITUDE, LONGITUDE = 52.5, 13.4


def lodestone_executable():
    explicit = os.environ.get("LODESTONE_EXECUTABLE")
    candidates = [explicit] if explicit else [ROOT / ".build/debug/lodestone", ROOT / ".build/release/lodestone"]
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return str(c)
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    def __init__(self, directory):
        self.socket = os.path.join(directory, "s.sock")
        self.port = free_port()
        self.log = open(os.path.join(directory, "serve.stderr"), "w+")
        self.process = subprocess.Popen(
            [lodestone_executable(), "serve", "--source", "simulated", "--socket", self.socket,
             "--listen", f"127.0.0.1:{self.port}", "--lat", str(LATITUDE), "--lon", str(LONGITUDE)],
            stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 15
        while not self.accepts():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.log.seek(0)
                raise RuntimeError("lodestone serve did not start: " + self.log.read())
            time.sleep(0.05)

    def accepts(self):
        """The socket file exists before the service listens: wait for a connection."""
        try:
            with socket.socket(socket.AF_UNIX) as probe:
                probe.connect(self.socket)
            return True
        except OSError:
            return False

    def stop(self):
        self.process.kill()
        self.process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def service():
    if lodestone_executable() is None:
        message = "no built lodestone (swift build) and no $LODESTONE_EXECUTABLE"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    with tempfile.TemporaryDirectory(prefix="ls-py-") as directory:
        s = Service(directory)
        try:
            yield s
        finally:
            s.stop()
