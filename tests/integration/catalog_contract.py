#!/usr/bin/env python3
"""The catalog the Random Chess app is generated from holds on pg_rating.

For every row of ../shared/spec/random-chess-catalog.tsv (the original database's columns with
position, type, length, precision, nullability and default; UDT attributes; function signatures
and result types), the installed schema has the same; a column pg_rating adds to one of those
tables is nullable or has a default. Beyond the tables, catalog_contract_extra.tsv beside this file
holds, observed in the original schema: every view's columns (name, position, type: what jOOQ
generates from a view), every foreign key with its actions, and every routine (function,
procedure, trigger function). The differences kept on purpose are listed below, each with its
reason (and in docs/reference/random-chess.md, "Differences from the original schema"); any other
fails.
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


EXTRA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalog_contract_extra.tsv")
# foreign keys of the original that pg_rating leaves out or changes: (table, key): why
DELIBERATE_KEYS = {
    ("elo_history", "service_id,user_id_in_service -> service_accounts(service_id,user_id_in_service)"):
        "left out: an entry's game references both accounts, and only pg_rating writes the history",
    ("elo_history",
     "service_id,user_id_in_service,ranking_id,previous_entry -> elo_history(service_id,user_id_in_service,ranking_id,id)"):
        "left out: pg_rating writes previous_entry as the account's preceding entry in the ranking",
    ("elo_history", "service_id -> game_services(id)"):
        "left out: the CHECK service_id = 1 pins it, and the entry's game (a local game) references service 1",
    ("tournaments_players", "service_id -> game_services(id)"):
        "left out: the CHECK service_id = 1 pins it, and the key to service_accounts implies it",
    ("elo_history", "ranking_id -> rankings(id)"):
        "on delete cascade: deleting a ranking deletes its history (the original refused while it had entries)",
    ("byes", "tournament_id,user_id_in_service -> tournaments_players(tournament_id,user_id_in_service)"):
        "on delete cascade: a player removed from a tournament (only without games) takes its byes along",
}
# routines of the original that pg_rating has not: what replaces each
GONE_ROUTINES = {
    "apply_move": "generate_fen_array (the moves applied in Rust, illegal ones refused)",
    "board_to_fen": "nothing: helpers of apply_move; the Rust chess library reads and writes positions",
    "fen_to_board": "nothing: helpers of apply_move; the Rust chess library reads and writes positions",
    "get_piece_at": "nothing: helpers of apply_move; the Rust chess library reads and writes positions",
    "id_to_square": "nothing: helpers of apply_move; the Rust chess library reads and writes positions",
    "place_piece": "nothing: helpers of apply_move; the Rust chess library reads and writes positions",
    "remove_letter": "nothing: helpers of apply_move; the Rust chess library reads and writes positions",
    "square_to_id": "nothing: helpers of apply_move; the Rust chess library reads and writes positions",
    "verify_time_control": "the view games_rankings (RankingWindow::counts in the core)",
    "calculate_performance_rating": "FIDE's TPR in swiss_tournaments_players_points.performance_rating",
    "update_ranking_after_game": "the trigger rate_service_games (rates a statement's games at once)",
    "update_elo_after_game": "the trigger rate_service_games",
    "update_rankings_on_game_insert": "the trigger function rate_service_games",
    "recalculate_ranking_on_update": "the trigger function recalculate_changed_ranking",
    "check_invalid_elo_history": "refuse_foreign_write (only pg_rating writes elo_history, 42501)",
    "prevent_game_deletion": "the trigger function prevent_service_game_deletion",
    "prevent_significant_game_changes": "the trigger function prevent_service_game_modification",
    "check_tournament_validity": "the trigger function check_swiss_tournament",
    "check_tournament_game_validity": "the trigger function check_tournament_game",
    "check_tournament_player_validity": "the trigger function check_tournament_player",
    "prevent_tournament_player_deletion": "the trigger function check_tournament_player",
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
# beyond the tables: views' columns, foreign keys and their actions, routines
extra_rows = list(csv.DictReader(open(EXTRA, newline=""), delimiter="\t"))
view_columns = {(r[0], r[1]): (r[2], r[3]) for r in psql(f"""
    SELECT c.relname, a.attname, a.attnum, format_type(a.atttypid, a.atttypmod)
    FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE c.relkind = 'v' AND c.relnamespace = '{schema}'::regnamespace""")}
actions = {"a": "no action", "r": "restrict", "c": "cascade", "n": "set null", "d": "set default"}
keys = {}
for table, key, deltype, updtype in psql(f"""
        SELECT conrelid::regclass::text,
               (SELECT string_agg(attname, ',' ORDER BY k.i) FROM unnest(conkey) WITH ORDINALITY k(n, i)
                JOIN pg_attribute ON attrelid = conrelid AND attnum = k.n)
               || ' -> ' || confrelid::regclass::text || '(' ||
               (SELECT string_agg(attname, ',' ORDER BY k.i) FROM unnest(confkey) WITH ORDINALITY k(n, i)
                JOIN pg_attribute ON attrelid = confrelid AND attnum = k.n) || ')',
               confdeltype, confupdtype
        FROM pg_constraint WHERE contype = 'f' AND connamespace = '{schema}'::regnamespace"""):
    schema_prefix = schema + "."
    table, key = table.removeprefix(schema_prefix), key.replace(" -> " + schema_prefix, " -> ")
    keys[(table, key)] = f"on delete {actions[deltype]}, on update {actions[updtype]}"
routines = {(r[0], r[1]): r[2] for r in psql(f"""
    SELECT p.proname, pg_get_function_identity_arguments(p.oid),
           CASE p.prokind WHEN 'p' THEN 'procedure' ELSE 'function returns ' || pg_get_function_result(p.oid) END
    FROM pg_proc p WHERE p.pronamespace = '{schema}'::regnamespace""")}
for r in extra_rows:
    kind, obj, name, value = r["kind"], r["object"], r["name"], r["value"]
    checked += 1
    if kind == "view_column":
        got = view_columns.get((obj, name))
        if got != (r["position"], value):
            problems.append(f"view column {obj}.{name}: the original has {(r['position'], value)}, pg_rating {got}")
    elif kind == "foreign_key":
        got = keys.get((obj, name))
        if got == value:
            continue
        if (obj, name) in DELIBERATE_KEYS:
            deliberate.append(f"foreign key {obj} {name}: {DELIBERATE_KEYS[(obj, name)]}")
            continue
        problems.append(f"foreign key {obj} {name}: the original has {value}, pg_rating {got}")
    elif kind == "routine":
        got = routines.get((obj, name))
        if got == value or (obj, name) in DELIBERATE:
            continue
        if got is None and obj in GONE_ROUTINES and not any(o == obj for o, _ in routines):
            deliberate.append(f"routine {obj}: gone, replaced by {GONE_ROUTINES[obj]}")
            continue
        problems.append(f"routine {obj}({name}): the original has {value}, pg_rating {got}")
    else:
        problems.append(f"unknown kind {kind} in {EXTRA}")
for p in problems:
    print(p)
for d in deliberate:
    print(f"deliberate: {d}")
print(f"{checked} catalog rows checked, {len(deliberate)} deliberate differences, {len(problems)} problems")
sys.exit(1 if problems else 0)
