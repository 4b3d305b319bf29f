#!/usr/bin/env python3
"""The catalog the Random Chess app is generated from holds on pg_rating.

For every row of ../shared/spec/random-chess-catalog.tsv (the original database's columns with
position, type, length, precision, nullability and default; UDT attributes; function signatures
and result types), the installed schema has the same; a column pg_rating adds to one of those
tables is nullable or has a default. The differences kept on purpose are listed below, each with
its reason (and in docs/reference/random-chess.md, "Differences from the original schema"); any
other fails.
"""
import csv
import os
import subprocess
import sys

CATALOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "spec",
                       "random-chess-catalog.tsv")
# (object, name): (what the original has, what pg_rating has, why)
DELIBERATE = {
    ("elo_history", "service_id"): "default 1: the only value its CHECK allows; inserts may leave it out",
    ("service_games", "starting_position"): "default: the standard starting position",
    ("pgn_games", "starting_position"): "default: the standard starting position",
    # detect_opening names its result columns: `AS (opening_id int, move_no int)` is no longer written
    ("detect_opening", "partial_fens character varying[]"): "OUT opening_id integer, OUT move_no integer",
    # added NOT NULL without a default: only pg_rating writes the history (42501 for anyone else)
    ("elo_history", "game_date"): "the date of the entry's game, the order of the history",
}


def psql(sql):
    out = subprocess.run(["psql", "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"psql failed: {out.stderr}")
    return [line.split("\t") for line in out.stdout.splitlines()]


if not os.path.exists(CATALOG):
    raise SystemExit(f"the catalog is not at {CATALOG}")
rows = list(csv.DictReader(open(CATALOG, newline=""), delimiter="\t"))
schema = psql("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
              "WHERE e.extname = 'pg_rating_random_chess'")[0][0]
columns = {(r[0], r[1]): tuple(r[2:]) for r in psql(f"""
    SELECT table_name, column_name, ordinal_position,
           data_type || CASE WHEN character_maximum_length IS NOT NULL THEN '(' || character_maximum_length || ')'
                             WHEN data_type IN ('smallint', 'integer', 'bigint')
                             THEN ' ' || numeric_precision || ',' || numeric_scale ELSE '' END,
           CASE WHEN data_type IN ('ARRAY', 'USER-DEFINED') THEN udt_name ELSE '' END,
           is_nullable, coalesce(column_default, '')
    FROM information_schema.columns WHERE table_schema = '{schema}'""")}
attributes = {(r[0], r[1]): tuple(r[2:]) for r in psql(f"""
    SELECT udt_name, attribute_name, ordinal_position, data_type
    FROM information_schema.attributes WHERE udt_schema = '{schema}'""")}
functions = {}
for name, args, result in psql(f"""
        SELECT p.proname, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid)
        FROM pg_proc p WHERE p.pronamespace = '{schema}'::regnamespace"""):
    functions.setdefault(name, []).append((args, result))

problems, checked, deliberate = [], 0, []
tables = set()
for r in rows:
    kind, obj, name = r["kind"], r["object"], r["name_or_arguments"]
    checked += 1
    if kind == "column":
        tables.add(obj)
        want = (r["position_or_result"], r["type"], r["udt"], r["nullable"], r["default"])
        got = columns.get((obj, name))
        if got == want:
            continue
        if got and (obj, name) in DELIBERATE and got[:4] == want[:4]:
            deliberate.append(f"{obj}.{name}: {DELIBERATE[(obj, name)]}")
            continue
        problems.append(f"column {obj}.{name}: the original has {want}, pg_rating {got}")
    elif kind == "type":
        want = (r["position_or_result"], r["type"])
        got = attributes.get((obj, name))
        if got != want:
            problems.append(f"type {obj}.{name}: the original has {want}, pg_rating {got}")
    elif kind == "function":
        want = (name, r["position_or_result"])
        if (obj, name) in DELIBERATE:
            extra = DELIBERATE[(obj, name)]
            if (f"{name}, {extra}", want[1]) in functions.get(obj, []):
                deliberate.append(f"{obj}({name}): {extra}")
                continue
        if want not in functions.get(obj, []):
            problems.append(f"function {obj}({name}) returns {r['position_or_result']}: pg_rating has "
                            f"{functions.get(obj)}")
# columns pg_rating adds to the app's tables must not break its inserts
for (table, column), got in sorted(columns.items()):
    if table in tables and not any(r["object"] == table and r["name_or_arguments"] == column for r in rows):
        if got[3] == "NO" and not got[4]:
            if (table, column) in DELIBERATE:
                deliberate.append(f"{table}.{column}: {DELIBERATE[(table, column)]}")
                continue
            problems.append(f"column {table}.{column} is added, NOT NULL and without a default")
for p in problems:
    print(p)
for d in deliberate:
    print(f"deliberate: {d}")
print(f"{checked} catalog rows checked, {len(deliberate)} deliberate differences, {len(problems)} problems")
sys.exit(1 if problems else 0)
