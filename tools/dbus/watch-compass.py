#!/usr/bin/python3
"""Watch the desktop's compass (net.hadess.SensorProxy.Compass) as GeoClue does.

Claims the compass through a GDBus proxy, prints each CompassHeading change as a JSON
line, and releases it on exit. Works with Lodestone's D-Bus compass and with
iio-sensor-proxy. Needs Debian's python3-gi (GLib's GDBus, the library GeoClue uses).

    tools/dbus/watch-compass.py                 # system bus
    tools/dbus/watch-compass.py --address unix:path=/tmp/bus
    tools/dbus/watch-compass.py --commands      # also read claim/release/get/quit from stdin
    tools/dbus/watch-compass.py --listen-only   # claim nothing; print any broadcast heading

The tests of LodestoneDBus drive it with --commands.
"""
import argparse
import json
import sys

from gi.repository import Gio, GLib

NAME = "net.hadess.SensorProxy"
PATH = "/net/hadess/SensorProxy/Compass"
INTERFACE = "net.hadess.SensorProxy.Compass"


def say(event, **fields):
    print(json.dumps(dict(event=event, **fields)), flush=True)


def connect(address):
    if address is None:
        return Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    return Gio.DBusConnection.new_for_address_sync(address, flags, None, None)


def call(proxy, method):
    try:
        proxy.call_sync(method, None, Gio.DBusCallFlags.NONE, 5000, None)
        say(method)
    except GLib.Error as error:
        say("error", method=method, message=error.message)


def read_property(connection, name):
    try:
        reply = connection.call_sync(NAME, PATH, "org.freedesktop.DBus.Properties", "Get",
                                     GLib.Variant("(ss)", (INTERFACE, name)), None,
                                     Gio.DBusCallFlags.NONE, 5000, None)
        say("value", **{name: reply.unpack()[0]})
    except GLib.Error as error:
        say("error", method="Get " + name, message=error.message)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", help="a D-Bus address (default: the system bus)")
    parser.add_argument("--commands", action="store_true", help="read claim/release/get/quit lines from stdin")
    parser.add_argument("--listen-only", action="store_true", help="do not claim; print broadcast PropertiesChanged")
    args = parser.parse_args()

    loop = GLib.MainLoop()
    connection = connect(args.address)
    say("connected", unique=connection.get_unique_name())

    if args.listen_only:
        def on_signal(_c, sender, _path, _iface, _member, parameters):
            interface, changed, _ = parameters.unpack()
            say("broadcast", sender=sender, interface=interface, changed=changed)
        connection.signal_subscribe(None, "org.freedesktop.DBus.Properties", "PropertiesChanged", PATH,
                                    None, Gio.DBusSignalFlags.NONE, on_signal)
    else:
        proxy = Gio.DBusProxy.new_sync(connection, Gio.DBusProxyFlags.NONE, None, NAME, PATH, INTERFACE, None)

        def on_changed(_proxy, changed, _invalidated):
            values = changed.unpack()
            if "CompassHeading" in values:
                say("changed", CompassHeading=values["CompassHeading"])
            if "HasCompass" in values:
                say("changed", HasCompass=values["HasCompass"])
        proxy.connect("g-properties-changed", on_changed)
        if not args.commands:
            call(proxy, "ClaimCompass")

    if args.commands:
        def on_line(source, _condition):
            line = source.readline()
            command = line.strip()
            if not line or command == "quit":
                loop.quit()
                return False
            if command == "claim":
                call(proxy, "ClaimCompass")
            elif command == "release":
                call(proxy, "ReleaseCompass")
            elif command.startswith("get "):
                read_property(connection, command[4:])
            return True
        GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_line)

    try:
        loop.run()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
