"""A small client for the Lodestone heading service (`lodestone serve`).

Five lines from a robot or a notebook::

    import lodestone_client as lodestone
    with lodestone.connect() as ls:                  # /run/lodestone/lodestone.sock
        for heading in ls.headings(heading_filter=2):
            print(heading.true_heading or heading.magnetic_heading, heading.heading_accuracy)

`connect("localhost:2948")` reaches a TCP listener (`serve --listen`), `connect("/tmp/x.sock")`
another socket. `ls.poll()` gives one heading, `ls.steer(lat, lon)` adds turn advice
(`Steer`) after each heading of `ls.watch()`, `ls.locations()` yields the service's
fixes (`Location`). The protocol is PROTOCOL.md; only the
standard library is used.
"""
from .client import Client, LodestoneError, connect
from .messages import Event, Heading, Location, Message, Steer

__all__ = ["Client", "LodestoneError", "connect", "Event", "Heading", "Location", "Message", "Steer"]
