// The logs' API carries JSON (a native log's device metadata is a `JSONValue`; NDJSON is
// written with `JSONLineBuilder`): `import LodestoneLogs` gives the JSON types too.
@_exported import LodestoneJSON
