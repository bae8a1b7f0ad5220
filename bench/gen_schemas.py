#!/usr/bin/env python3
"""Generates the benchmark's data: realistic Live Activity schemas.

Each attributes type belongs to one of twenty domains (food delivery, flights, sports scores,
ride hailing, ...). Its schema is what an iOS team would publish for an `ActivityAttributes`
struct: ContentState fields at the root `properties` (status enums, `Date` fields as
`"type": "number", "format": "date-time", "x-swift-type": "Date"`, progress numbers, nullable
texts, image URLs, nested structs, arrays of `$ref`'d structs), the static attributes under
`attributes.properties` with `attributes.required`, titles and descriptions. Large schemas
grow the way real ones do: per-player, per-stop or per-leg structs, localized strings.

Versions evolve like a real type: each version adds fields; version 3 adds a status value
(the change the compatibility report flags). Sizes are deterministic (fixed seed):
60 % of types 400 B-2 KB, 30 % 2-16 KB, 10 % 16-64 KB; type 0 is the smallest (~400 B, the
body of the "warm GET" and nginx scenarios) and type 1 the largest (just under 64 KB at its
last version). 70 % are sent compact, 30 % pretty-printed, as authors do.

Writes into --out:
  seed.jsonl          one {"attributesType", "version", "jsonSchema"} per line, type by type
  types.txt           the attributes types, one per line, index order (used by the Lua scripts)
  publish_schema.json the ~1.5 KB schema the publish scenarios send (same text as pgbench's)
  micro/1k.json, micro/16k.json, micro/64k.json   schemas for the parse/validate/form timing
  check/large.jsonl   the ~60 KB schema of the check_60k scenario (many fields, patterns,
                      `$ref`s), seeded as one more type
  check/bench.json, check/large.json   `:check` bodies without `application`, for lua/check.lua:
                      every field of version 5 of type 0; the large schema's fields that fit
                      in 4 KB of values (what one push can carry)
  summary.json        sizes, for the report
"""

import argparse
import json
import math
import os
import random

DOMAINS = [
    "FoodDelivery", "Flight", "SportsScore", "RideHailing", "Workout",
    "ParcelTracking", "EVCharging", "LiveAuction", "TrainJourney", "CookingTimer",
    "Parking", "EventEntry", "BankTransfer", "QueueTicket", "FootballMatch",
    "RaceWeekend", "ElectionNight", "WeatherAlert", "PharmacyOrder", "EsportsMatch",
]

MAX_BYTES = 65_536


def type_name(index):
    """`Flight0001Attributes`: the domain is index % 20, so SQL can rebuild the name."""
    return f"{DOMAINS[index % len(DOMAINS)]}{index:04d}Attributes"


def humanize(name):
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append(" ")
        out.append(ch.lower() if out else ch.upper())
    return "".join(out)


# --- field builders -------------------------------------------------------------------------

def f_string(desc, max_len=None, title=None, fmt=None, default=None, pattern=None):
    s = {"type": "string"}
    if title:
        s["title"] = title
    s["description"] = desc
    if max_len:
        s["maxLength"] = max_len
    if fmt:
        s["format"] = fmt
    if pattern:
        s["pattern"] = pattern
    if default is not None:
        s["default"] = default
    return s


def f_nullable_string(desc, max_len=80):
    return {"type": ["string", "null"], "description": desc, "maxLength": max_len}


def f_enum(desc, values, default=None):
    s = {"type": "string", "description": desc, "enum": list(values)}
    if default:
        s["default"] = default
    return s


def f_date(desc):
    return {"type": "number", "format": "date-time", "x-swift-type": "Date", "description": desc}


def f_int(desc, minimum=0, maximum=None, default=None):
    s = {"type": "integer", "description": desc, "minimum": minimum}
    if maximum is not None:
        s["maximum"] = maximum
    if default is not None:
        s["default"] = default
    return s


def f_number(desc, minimum=None, maximum=None):
    s = {"type": "number", "description": desc}
    if minimum is not None:
        s["minimum"] = minimum
    if maximum is not None:
        s["maximum"] = maximum
    return s


def f_bool(desc, default=False):
    return {"type": "boolean", "description": desc, "default": default}


def f_url(desc):
    return {"type": "string", "format": "uri", "description": desc, "maxLength": 256}


def f_color(desc):
    return {"type": "string", "format": "color", "description": desc, "pattern": "^#[0-9A-Fa-f]{6}$"}


# --- domains: essential content fields, essential attributes, status values ------------------

STATUS = {
    "FoodDelivery": ["confirmed", "preparing", "pickedUp", "arriving", "delivered"],
    "Flight": ["scheduled", "boarding", "departed", "inAir", "landed"],
    "SportsScore": ["pregame", "live", "halftime", "final"],
    "RideHailing": ["searching", "driverAssigned", "arriving", "onTrip", "completed"],
    "Workout": ["warmUp", "active", "paused", "coolDown", "finished"],
    "ParcelTracking": ["labelCreated", "inTransit", "outForDelivery", "delivered"],
    "EVCharging": ["connecting", "charging", "full", "idle", "stopped"],
    "LiveAuction": ["upcoming", "open", "closingSoon", "sold", "unsold"],
    "TrainJourney": ["onTime", "delayed", "platformChanged", "arrived"],
    "CookingTimer": ["preheating", "cooking", "resting", "done"],
    "Parking": ["active", "expiringSoon", "expired", "ended"],
    "EventEntry": ["doorsOpen", "queueing", "inside", "ended"],
    "BankTransfer": ["initiated", "processing", "sent", "received"],
    "QueueTicket": ["waiting", "almostYourTurn", "called", "served"],
    "FootballMatch": ["prematch", "firstHalf", "halftime", "secondHalf", "fullTime"],
    "RaceWeekend": ["practice", "qualifying", "race", "finished"],
    "ElectionNight": ["polling", "counting", "projected", "called"],
    "WeatherAlert": ["watch", "warning", "emergency", "expired"],
    "PharmacyOrder": ["received", "filling", "readyForPickup", "pickedUp"],
    "EsportsMatch": ["draft", "live", "paused", "ended"],
}

ADDED_STATUS = {d: "delayed" if "delayed" not in v else "cancelled" for d, v in STATUS.items()}

# Repeatable structs that make schemas large: (property prefix, $defs name, struct fields).
REPEATABLE = [
    ("stop", "Stop", lambda: {
        "name": f_string("Stop name as shown on the Lock Screen.", 60),
        "arrival": f_date("Estimated arrival at this stop."),
        "latitude": f_number("WGS 84 latitude.", -90, 90),
        "longitude": f_number("WGS 84 longitude.", -180, 180),
        "isCompleted": f_bool("True once the stop has been visited."),
    }),
    ("player", "Player", lambda: {
        "displayName": f_string("Name on the scoreboard.", 40),
        "number": f_int("Shirt number.", 0, 99),
        "position": f_enum("Playing position.", ["goalkeeper", "defender", "midfielder", "forward"]),
        "points": f_int("Points scored so far.", 0),
        "photo": f_url("Head shot, 120 x 120 px."),
        "onField": f_bool("Currently playing."),
    }),
    ("leg", "Leg", lambda: {
        "carrier": f_string("Operating carrier.", 40),
        "departure": f_date("Scheduled departure."),
        "arrival": f_date("Scheduled arrival."),
        "platform": f_nullable_string("Platform or gate, when known.", 8),
        "delayMinutes": {"type": ["integer", "null"], "minimum": 0, "default": 0,
                         "description": "Delay in minutes; null when unknown."},
    }),
    ("item", "LineItem", lambda: {
        "title": f_string("Item name.", 60),
        "quantity": f_int("How many.", 1, 99, 1),
        "priceMinor": f_int("Price in minor units.", 0),
        "state": f_enum("Item progress.", ["queued", "inProgress", "ready"]),
    }),
]

LOCALES = ["en", "de", "fr", "es", "it", "pt-BR", "ja", "ko", "zh-Hans", "ar", "nl", "sv", "tr", "pl"]
LOCAL_SAMPLES = ["Ankunft", "Arrivée", "Llegada", "Arrivo", "Chegada", "到着", "도착", "到达", "وصول",
                 "Aankomst", "Ankomst", "Varış", "Przyjazd", "Arrival"]


def essential_fields(domain):
    """The first fields of every schema of a domain, small to large (content, attributes)."""
    content = [
        ("status", f_enum(f"{humanize(domain)} progress shown as a badge.", STATUS[domain], STATUS[domain][0])),
        ("updatedAt", f_date("When the data behind this update was produced.")),
        ("headline", f_string("Main line of the expanded presentation.", 60)),
        ("progress", f_number("Fraction complete, 0 to 1, for the progress bar.", 0, 1)),
        ("eta", f_date("Estimated time the activity ends; drives the countdown.")),
        ("detail", f_nullable_string("Secondary text; null hides the line.", 120)),
        ("accentColor", f_color("Tint for the Dynamic Island.")),
        ("isUrgent", f_bool("Shows the alert styling.")),
    ]
    attributes = [
        ("reference", f_string("Booking, order or ticket reference.", 24, pattern="^[A-Z0-9-]{4,24}$")),
        ("providerName", f_string("Brand shown in the compact leading view.", 40)),
        ("deepLink", f_url("Opened when the activity is tapped.")),
        ("logo", f_url("Provider logo, 64 x 64 px.")),
        ("locale", f_enum("Language of the texts.", LOCALES[:6], "en")),
    ]
    return content, attributes


def extra_fields(domain, rng):
    """Endless further fields: repeated structs, localized strings, per-period counters."""
    prefix, def_name, make = REPEATABLE[DOMAINS.index(domain) % len(REPEATABLE)]
    n = 0
    while True:
        n += 1
        kind = n % 4
        if kind in (1, 2):
            yield "content", f"{prefix}{n:03d}", {"$ref": f"#/$defs/{def_name}",
                                                   "description": f"{humanize(prefix)} {n} of the live view."}
        elif kind == 3:
            yield "content", f"localizedTitle{n:03d}", {
                "type": "object",
                "title": f"Localized title {n}",
                "description": "Title per locale; the app picks the device language.",
                "properties": {loc: f_string(f"Title in {loc}, e.g. “{LOCAL_SAMPLES[i]}”.", 80)
                               for i, loc in enumerate(LOCALES[: 4 + rng.randrange(0, 10)])},
                "required": ["en"],
            }
        else:
            yield "attributes", f"segment{n:03d}", {
                "type": "array",
                "description": f"Segment {n} breakdown, newest last.",
                "maxItems": 12,
                "items": {"type": "object", "properties": {
                    "label": f_string("Segment label.", 24),
                    "value": f_int("Count in this segment.", 0),
                    "highlighted": f_bool("Draws the segment in the accent color."),
                }, "required": ["label", "value"]},
            }


def item_size(name, schema):
    return len(json.dumps(name, ensure_ascii=False)) + 2 + len(json.dumps(schema, ensure_ascii=False, separators=(",", ":")))


def build(domain, index, items, defs_used, status_values, minimal=False):
    content = {}
    attributes = {}
    for section, name, schema in items:
        if name == "status":
            schema = dict(schema, enum=status_values)
        (content if section == "content" else attributes)[name] = schema
    doc = {} if minimal else {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": type_name(index),
        "description": f"Live Activity for {humanize(domain).lower()}: ContentState at the root, ActivityAttributes under attributes.",
    }
    doc["type"] = "object"
    doc["properties"] = content
    doc["required"] = [k for k, v in content.items() if "null" not in v.get("type", []) and k != "detail"][:4]
    if attributes:
        doc["attributes"] = {
            "type": "object",
            "properties": attributes,
            "required": [k for k in attributes if k in ("reference", "providerName")],
        }
    if defs_used:
        _, def_name, make = REPEATABLE[DOMAINS.index(domain) % len(REPEATABLE)]
        fields = make()
        doc["$defs"] = {def_name: {"type": "object", "properties": fields, "required": list(fields)[:2]}}
    return doc


def dump(doc, pretty):
    if pretty:
        return json.dumps(doc, ensure_ascii=False, indent=2)
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def schema_versions(index, target, pretty, versions=5, rng=None):
    """The texts of versions 1..versions of type `index`, the last one close to `target` bytes."""
    domain = DOMAINS[index % len(DOMAINS)]
    rng = rng or random.Random(index)
    content, attributes = essential_fields(domain)
    # Interleave essentials so even a tiny schema has both sections.
    pool = [("content", *content[0]), ("attributes", *attributes[0]), ("content", *content[1]),
            ("attributes", *attributes[1])]
    pool += [("content", n, s) for n, s in content[2:]] + [("attributes", n, s) for n, s in attributes[2:]]
    extras = extra_fields(domain, rng)
    minimal = target < 700
    items = []

    def text_of(chosen, status_values=STATUS[domain]):
        defs_used = any("$ref" in s for _, _, s in chosen)
        return dump(build(domain, index, chosen, defs_used, status_values, minimal), pretty)

    # Greedy on an estimate, then settle on the real size of the last version.
    size = len(text_of([]).encode())
    while True:
        nxt = pool.pop(0) if pool else next(extras)
        grow = item_size(nxt[1], nxt[2]) * (1.35 if pretty else 1)
        if items and size + grow > target:
            break
        items.append(nxt)
        size += grow
    last = STATUS[domain] + [ADDED_STATUS[domain]]
    while len(items) > 2 and len(text_of(items, last).encode()) > min(target, MAX_BYTES):
        items.pop()
    texts = []
    for v in range(1, versions + 1):
        count = max(2, math.ceil(len(items) * (0.8 + 0.05 * (v - 1)))) if v < versions else len(items)
        chosen = items[:count]
        defs_used = any("$ref" in s for _, _, s in chosen)
        status_values = STATUS[domain] + ([ADDED_STATUS[domain]] if v >= 3 else [])
        doc = build(domain, index, chosen, defs_used, status_values, minimal)
        text = dump(doc, pretty)
        if len(text.encode()) > MAX_BYTES:
            text = dump(doc, False)
        while len(text.encode()) > MAX_BYTES:  # trim the tail until it fits the service's limit
            chosen = chosen[:-1]
            text = dump(build(domain, index, chosen, defs_used, status_values, minimal), False)
        texts.append(text)
    return texts


def target_size(index, rng):
    if index == 0:
        return 400
    if index == 1:
        return 65_000
    u = rng.random()
    if u < 0.6:
        return int(rng.uniform(400, 2000))
    if u < 0.9:
        return int(math.exp(rng.uniform(math.log(2000), math.log(16000))))
    return int(math.exp(rng.uniform(math.log(16000), math.log(64000))))


def exact(index, target, pretty=False):
    """One schema as close to `target` bytes as the field granularity allows (for the micro)."""
    return schema_versions(index, target, pretty, versions=1)[0]


# --- the :check scenarios ---------------------------------------------------------------------

CHECK_LARGE_TYPE = "CheckLarge60kAttributes"

# The patterns the large schema uses, each with a value it matches.
PATTERNS = {
    "^[A-Z]{2}[0-9]{1,4}$": "LH402",
    "^[A-Z]{3}$": "FRA",
    "^#[0-9A-Fa-f]{6}$": "#1A2B3C",
    "^[A-Z0-9-]{4,24}$": "ORD-20260901",
    "^[0-9]{1,2}[A-Z]?$": "12B",
    "^\\+?[0-9 ]{6,20}$": "+49 30 1234567",
    "^(?:economy|premium|business|first)(?:-plus)?$": "business-plus",
}


def check_large_schema(target=62_000):
    """A schema of about `target` bytes that makes `:check` work: legs and passengers as
    `$ref`'d structs (nested `$ref`s, patterns, enums, dates, bounds), arrays of them, and
    pattern fields at the root; the attributes carry patterns too."""
    defs = {
        "Airport": {"type": "object", "properties": {
            "code": f_string("IATA code.", 3, pattern="^[A-Z]{3}$"),
            "terminal": f_nullable_string("Terminal, when known.", 4),
            "gate": f_string("Gate.", 4, pattern="^[0-9]{1,2}[A-Z]?$"),
        }, "required": ["code"]},
        "Leg": {"type": "object", "properties": {
            "flight": f_string("Flight number.", 6, pattern="^[A-Z]{2}[0-9]{1,4}$"),
            "from": {"$ref": "#/$defs/Airport", "description": "Departure airport."},
            "to": {"$ref": "#/$defs/Airport", "description": "Arrival airport."},
            "departure": f_date("Scheduled departure."),
            "arrival": f_date("Scheduled arrival."),
            "delayMinutes": f_int("Delay in minutes.", 0, 1440, 0),
            "cabin": f_string("Cabin class.", 16, pattern="^(?:economy|premium|business|first)(?:-plus)?$"),
            "status": f_enum("Leg status.", STATUS["Flight"]),
        }, "required": ["flight", "from", "to", "departure"]},
        "Passenger": {"type": "object", "properties": {
            "name": f_string("Name as on the boarding pass.", 60),
            "seat": f_string("Seat.", 4, pattern="^[0-9]{1,2}[A-Z]?$"),
            "phone": f_string("Contact number.", 20, pattern="^\\+?[0-9 ]{6,20}$"),
            "legs": {"type": "array", "maxItems": 8, "items": {"$ref": "#/$defs/Leg"}},
        }, "required": ["name"]},
    }
    content = {
        "status": f_enum("Trip progress.", STATUS["Flight"], "scheduled"),
        "updatedAt": f_date("When this update was produced."),
        "accentColor": f_color("Tint for the Dynamic Island."),
    }
    attributes = {
        "reference": f_string("Booking reference.", 24, pattern="^[A-Z0-9-]{4,24}$"),
        "providerName": f_string("Airline shown in the compact view.", 40),
    }
    doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": CHECK_LARGE_TYPE,
           "type": "object", "properties": content, "required": ["status"],
           "attributes": {"type": "object", "properties": attributes, "required": ["reference"]}, "$defs": defs}
    n = 0
    while len(dump(doc, False).encode()) < target - 600:
        n += 1
        kind = n % 4
        if kind == 0:
            content[f"leg{n:03d}"] = {"$ref": "#/$defs/Leg", "description": f"Leg {n} of the trip."}
        elif kind == 1:
            content[f"passenger{n:03d}"] = {"$ref": "#/$defs/Passenger", "description": f"Passenger {n}."}
        elif kind == 2:
            content[f"code{n:03d}"] = f_string(f"Code {n}.", 6, pattern="^[A-Z]{2}[0-9]{1,4}$")
        else:
            attributes[f"gate{n:03d}"] = f_string(f"Gate {n}.", 4, pattern="^[0-9]{1,2}[A-Z]?$")
    return dump(doc, False)


def valid_value(schema, defs):
    """A value valid against `schema`, for the keywords this generator writes."""
    if "$ref" in schema:
        return valid_value(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "enum" in schema:
        return schema["enum"][0]
    types = schema.get("type", "string")
    kind = next(t for t in types if t != "null") if isinstance(types, list) else types
    if kind == "object":
        return {name: valid_value(field, defs) for name, field in schema.get("properties", {}).items()}
    if kind == "array":
        return [valid_value(schema["items"], defs) for _ in range(min(1, schema.get("maxItems", 1)))]
    if kind == "number" and schema.get("x-swift-type") == "Date":
        return 804_556_800
    if kind in ("number", "integer"):
        return max(schema.get("minimum", 0), min(schema.get("maximum", 1), 1))
    if kind == "boolean":
        return True
    if "pattern" in schema:
        return PATTERNS.get(schema["pattern"], "#1A2B3C")
    if schema.get("format") == "uri":
        return "https://example.com/live"
    return "text"[: schema.get("maxLength", 4)]


def check_body(text, max_bytes=None):
    """The `:check` body (without `application`) of a start with valid values: every field, or
    with `max_bytes` the required ones and then fields in schema order while the values fit
    (a push carries at most 4 KB, so that is what a device can be sent)."""
    doc = json.loads(text)
    defs = doc.get("$defs", {})
    body = {"event": "start", "content_state": {}, "attributes": {}}
    sections = (("content_state", doc), ("attributes", doc.get("attributes", {})))
    for only_required in (True, False):
        for key, schema in sections:
            required = schema.get("required", [])
            for name, field in schema.get("properties", {}).items():
                if name in body[key] or (only_required and name not in required):
                    continue
                body[key][name] = valid_value(field, defs)
                size = len(json.dumps(body["content_state"]) + json.dumps(body["attributes"]))
                if max_bytes is not None and size > max_bytes:
                    del body[key][name]
    return body


def write_check_data(out, bench_text):
    os.makedirs(os.path.join(out, "check"), exist_ok=True)
    large = check_large_schema()
    with open(os.path.join(out, "check", "large.jsonl"), "w", encoding="utf-8") as f:
        f.write(json.dumps({"attributesType": CHECK_LARGE_TYPE, "version": 1, "jsonSchema": large}) + "\n")
    for name, text, max_bytes in (("bench", bench_text, None), ("large", large, 4000)):
        with open(os.path.join(out, "check", f"{name}.json"), "w", encoding="utf-8") as f:
            json.dump(check_body(text, max_bytes), f, ensure_ascii=False, separators=(",", ":"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--types", type=int, default=1000)
    parser.add_argument("--versions", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20260901)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(os.path.join(args.out, "micro"), exist_ok=True)
    sizes = []
    with open(os.path.join(args.out, "seed.jsonl"), "w", encoding="utf-8") as seed, \
            open(os.path.join(args.out, "types.txt"), "w", encoding="utf-8") as types:
        for i in range(args.types):
            target = target_size(i, rng)
            pretty = i > 1 and rng.random() < 0.3
            name = type_name(i)
            types.write(name + "\n")
            for v, text in enumerate(schema_versions(i, target, pretty, args.versions, random.Random(args.seed + i)), 1):
                if i == 0 and v == args.versions:
                    write_check_data(args.out, text)  # the version the warm GET serves
                sizes.append(len(text.encode()))
                seed.write(json.dumps({"attributesType": name, "version": v, "jsonSchema": text}, ensure_ascii=False) + "\n")
    for label, target, idx in (("1k", 1024, 3), ("16k", 16384, 22), ("64k", 65_000, 1)):
        with open(os.path.join(args.out, "micro", f"{label}.json"), "w", encoding="utf-8") as out:
            out.write(exact(idx, target))
    with open(os.path.join(args.out, "publish_schema.json"), "w", encoding="utf-8") as out:
        out.write(exact(0, 1500))
    sizes.sort()
    summary = {
        "versions": len(sizes), "total_bytes": sum(sizes), "min": sizes[0], "median": sizes[len(sizes) // 2],
        "p90": sizes[int(len(sizes) * 0.9)], "max": sizes[-1], "mean": sum(sizes) // len(sizes),
    }
    with open(os.path.join(args.out, "summary.json"), "w") as out:
        json.dump(summary, out)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
