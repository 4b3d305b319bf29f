#!/usr/bin/env python3
"""The rating history does not depend on the order or concurrency of inserts.

The same 600 random games (explicit ids, many equal dates, bots, the app's nine rankings) go
into three databases: in (creation_date, id) order, in a random order one game per statement,
and in a random order split over four concurrent sessions. All three histories and standings
must be identical, must equal recalculate_ranking's rebuild, and must match an independent
replay of the Random Chess Elo rule written here in Python (the oracle). In each, every entry's
previous_entry is the id of the same account's preceding entry in the same ranking (no foreign key
says so since 0.11.0: pg_rating's writes must).
"""
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

SEED = 20261125
PLAYERS = 40
GAMES = 600
BOTS = ["stockfish-1", "stockfish-2"]
CLOCKS = [(60, 0), (120, 1), (180, 2), (300, 0), (300, 3), (600, 5), (900, 10), (1800, 0), (3600, 30), (7200, 0)]
RESULTS = [("1-0", "CHECKMATE", 1.0), ("0-1", "RESIGNATION", 0.0), ("1/2-1/2", "STALEMATE", 0.5)]
# name, min s, max s (None: open), multiplier, include bots; start 800, K 40
RANKINGS = [("Global", 0, None, 0, True)] + [
    (f"{name}{' with bots' if bots else ''}", lo, hi, 60, bots)
    for bots in (False, True)
    for name, lo, hi in [("Bullet", 0, 180), ("Blitz", 180, 600), ("Rapid", 600, 3600), ("Classical", 3600, 86400)]
]

base = os.environ["PGDATABASE"]


def psql(db, sql=None, file=None):
    cmd = ["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", db]
    cmd += ["-f", file] if file else ["-c", sql]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"psql on {db} failed: {out.stderr.strip()}")
    return out.stdout


def make_games(rng):
    players = [str(i) for i in range(1, PLAYERS + 1)] + BOTS
    games = []
    for gid in range(1, GAMES + 1):
        white, black = rng.sample(players, 2)
        start, inc = rng.choice(CLOCKS)
        end, reason, score = rng.choice(RESULTS)
        # 200 distinct hours: many games share a date and are ordered by id
        hour = rng.randrange(200)
        games.append(dict(id=gid, white=white, black=black, start=start, inc=inc, end=end, reason=reason,
                          score=score, at=f"timestamptz '2024-01-01' + interval '{hour} hours'", hour=hour))
    return games


def insert_sql(games):
    rows = ",\n".join(
        f"({g['id']}, '{{}}', {g['at']}, '({g['end']},{g['reason']})', "
        f"'({g['start']} seconds, {g['inc']} seconds)', 1, '{g['white']}', '{g['black']}', true)"
        for g in games)
    return ("INSERT INTO service_games (id, moves, creation_date, result, clock, service_id, white_player, "
            f"black_player, is_ranked) VALUES\n{rows};\n")


SETUP = "\n".join([
    f"INSERT INTO users (email, password_hash) SELECT format('p%s@example.com', i), 'h' "
    f"FROM generate_series(1, {PLAYERS}) i;",
    *[f"INSERT INTO service_accounts VALUES (NULL, 1, '{b}', NULL, '{b}', true);" for b in BOTS],
    *[f"INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, "
      f"k_factor) VALUES ('{n}', '{lo} seconds', {f'interval {chr(39)}{hi} seconds{chr(39)}' if hi else 'NULL'}, "
      f"{m}, 800, {str(bots).lower()}, 40);" for n, lo, hi, m, bots in RANKINGS],
])

HISTORY = """SELECT e.ranking_id, e.game_id, e.user_id_in_service, e.elo, coalesce(p.game_id, 0)
FROM elo_history e LEFT JOIN elo_history p ON p.id = e.previous_entry ORDER BY 1, 2, 3"""
STANDINGS = """SELECT ranking_id, user_id_in_service, rating, games, wins, draws, losses, peak_rating, last_game_id
FROM ranking_players ORDER BY 1, 2"""
# Counts the entries not chained to the account's preceding entry in the ranking.
UNCHAINED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "unchained_entries.sql")


def snapshot(db):
    return psql(db, HISTORY).splitlines(), psql(db, STANDINGS).splitlines()


def oracle(games):
    """The Random Chess rule replayed in Python: Q = 10^(R/400), E = Q/(Q+Q_opp), R + K(S - E)."""
    expected = {}
    order = sorted(games, key=lambda g: (g["hour"], g["id"]))
    for rid, (_, lo, hi, mult, bots) in enumerate(RANKINGS, start=1):
        ratings = {}
        for g in order:
            base_time = g["start"] + mult * g["inc"]
            if base_time < lo or (hi is not None and base_time >= hi):
                continue
            if not bots and (g["white"] in BOTS or g["black"] in BOTS):
                continue
            rw, rb = ratings.get(g["white"], 800.0), ratings.get(g["black"], 800.0)
            qw, qb = 10 ** (rw / 400), 10 ** (rb / 400)
            ew = qw / (qw + qb)
            ratings[g["white"]] = rw + 40 * (g["score"] - ew)
            ratings[g["black"]] = rb + 40 * ((1 - g["score"]) - (1 - ew))
            expected[(rid, g["id"], g["white"])] = ratings[g["white"]]
            expected[(rid, g["id"], g["black"])] = ratings[g["black"]]
    return expected


def main():
    rng = random.Random(SEED)
    games = make_games(rng)
    dbs = {kind: f"{base}_{kind}" for kind in ("serial", "shuffled", "concurrent")}
    for db in dbs.values():
        psql("postgres", f"DROP DATABASE IF EXISTS {db}")
        psql("postgres", f"CREATE DATABASE {db}")
        psql(db, "CREATE EXTENSION pg_rating_random_chess CASCADE")
        psql(db, SETUP)

    tmp = f"/tmp/{base}_games"
    os.makedirs(tmp, exist_ok=True)
    ordered = sorted(games, key=lambda g: (g["hour"], g["id"]))
    with open(f"{tmp}/serial.sql", "w") as f:
        for i in range(0, len(ordered), 50):
            f.write(insert_sql(ordered[i:i + 50]))
    shuffled = games[:]
    rng.shuffle(shuffled)
    with open(f"{tmp}/shuffled.sql", "w") as f:
        f.writelines(insert_sql([g]) for g in shuffled)
    for part in range(4):
        with open(f"{tmp}/part{part}.sql", "w") as f:
            f.writelines(insert_sql([g]) for g in shuffled[part::4])

    timings = []
    t = time.monotonic()
    psql(dbs["serial"], file=f"{tmp}/serial.sql")
    timings.append(f"date order in batches of 50 {time.monotonic() - t:.1f} s")
    t = time.monotonic()
    psql(dbs["shuffled"], file=f"{tmp}/shuffled.sql")
    timings.append(f"shuffled one per statement {time.monotonic() - t:.1f} s")
    t = time.monotonic()
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda p: psql(dbs["concurrent"], file=f"{tmp}/part{p}.sql"), range(4)))
    timings.append(f"shuffled over 4 concurrent sessions {time.monotonic() - t:.1f} s")
    print(f"inserted {GAMES} games: " + ", ".join(timings))

    reference = snapshot(dbs["serial"])
    failures = 0
    for kind, db in dbs.items():
        broken = int(psql(db, file=UNCHAINED))
        print(f"{kind}: {broken} entries not chained to the account's preceding entry")
        failures += broken != 0
    for kind in ("shuffled", "concurrent"):
        got = snapshot(dbs[kind])
        diff = len(set(got[0]) ^ set(reference[0])) + len(set(got[1]) ^ set(reference[1]))
        print(f"{kind}: {len(got[0])} history rows, {len(got[1])} standings, {diff} differences from date order")
        failures += diff != 0 or len(got[0]) != len(reference[0])

    for rid in range(1, len(RANKINGS) + 1):
        psql(dbs["concurrent"], f"CALL recalculate_ranking({rid})")
    rebuilt = snapshot(dbs["concurrent"])
    diff = len(set(rebuilt[0]) ^ set(reference[0])) + len(set(rebuilt[1]) ^ set(reference[1]))
    broken = int(psql(dbs["concurrent"], file=UNCHAINED))
    print(f"recalculate_ranking of every ranking: {diff} differences, {broken} entries not chained")
    failures += diff != 0 or broken != 0

    expected = oracle(games)
    worst, missing = 0.0, 0
    rows = [line.split("|") for line in reference[0]]
    for ranking, game, player, elo, _ in rows:
        want = expected.get((int(ranking), int(game), player))
        if want is None:
            missing += 1
        else:
            worst = max(worst, abs(float(elo) - want))
    extra = len(expected) - (len(rows) - missing)
    print(f"oracle: {len(expected)} expected entries, {missing} unexpected, {extra} missing, "
          f"largest difference {worst:.2e}")
    failures += missing != 0 or extra != 0 or worst > 1e-6

    for db in dbs.values():
        psql("postgres", f"DROP DATABASE {db}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
