#!/usr/bin/env python3
"""Ledgers stay equal to a replay of their games whatever happens to the games table.

A `matches` table (bigint ids, two leagues) carries an Elo ledger scoped by league and a Glicko-2
ledger over all games. Random inserts (many backdated), result corrections, re-datings, player
changes and deletes run first from one session, then from four concurrent sessions, then from four
sessions bringing new leagues while two others rebuild the ledgers over and over (a rebuild takes the
locks of the scopes it finds, and of those that appear meanwhile, and writes them without the unique
check). After each phase both ledgers must equal their rebuild from scratch (ledger_rebuild), and the
Elo ledger's standings must equal an independent replay of the Elo rule written here in Python.
"""
import os
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor

SEED = 20261126
PLAYERS = 12
db = os.environ["PGDATABASE"]


def psql(sql):
    out = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", sql],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"psql failed: {out.stderr.strip()}\n{sql}")
    return out.stdout


def operation(rng, known_ids, leagues):
    kind = rng.choices(["insert", "score", "date", "player", "delete"], [6, 2, 2, 1, 1])[0]
    if kind == "insert" or not known_ids:
        w, b = rng.sample(range(1, PLAYERS + 1), 2)
        return (f"INSERT INTO matches (played_at, white, black, score, league) VALUES "
                f"(timestamptz '2025-01-01' + interval '{rng.randrange(500)} hours', {w}, {b}, "
                f"{rng.choice(['0', '0.5', '1'])}, '{rng.choice(leagues)}') RETURNING id")
    gid = rng.choice(known_ids)
    if kind == "score":
        return f"UPDATE matches SET score = {rng.choice(['0', '0.5', '1'])} WHERE id = {gid} RETURNING id"
    if kind == "date":
        return (f"UPDATE matches SET played_at = timestamptz '2025-01-01' + interval '{rng.randrange(500)} hours' "
                f"WHERE id = {gid} RETURNING id")
    if kind == "player":
        p = rng.randrange(1, PLAYERS + 1)
        return f"UPDATE matches SET white = {p} WHERE id = {gid} AND black <> {p} RETURNING id"
    return f"DELETE FROM matches WHERE id = {gid} RETURNING id"


def run_session(seed, count, leagues=("east", "west")):
    rng = random.Random(seed)
    ids = [int(x) for x in psql("SELECT id FROM matches").split()]
    for _ in range(count):
        sql = operation(rng, ids, leagues)
        out = psql(sql).split()
        if sql.startswith("INSERT"):
            ids += [int(x) for x in out]
        elif sql.startswith("DELETE"):
            ids = [i for i in ids if str(i) not in out]


def snapshot(ledger):
    return psql(f"SELECT scope, player, game_key, rating, rd, games, streak, peak FROM ledger_entries e "
                f"JOIN ledgers l ON l.id = e.ledger_id WHERE l.name = '{ledger}' ORDER BY 1, 2, 3")


def standings(ledger):
    return psql(f"SELECT scope, player, rating, games, last_game_key FROM ledger_standings s "
                f"JOIN ledgers l ON l.id = s.ledger_id WHERE l.name = '{ledger}' ORDER BY 1, 2")


def oracle():
    """The Elo rule replayed in Python over the table's games, per league."""
    rows = psql("SELECT league, white, black, score FROM matches ORDER BY played_at, id").splitlines()
    ratings, games = {}, {}
    for line in rows:
        league, w, b, s = line.split("|")
        s = float(s)
        rw, rb = ratings.get((league, w), 1500.0), ratings.get((league, b), 1500.0)
        ew = 1 / (1 + 10 ** ((rb - rw) / 400))
        eb = 1 / (1 + 10 ** ((rw - rb) / 400))
        ratings[(league, w)], ratings[(league, b)] = rw + 32 * (s - ew), rb + 32 * ((1 - s) - eb)
        for p in (w, b):
            games[(league, p)] = games.get((league, p), 0) + 1
    return ratings, games


def check(phase):
    for ledger in ("elo by league", "glicko"):
        before, before_standings = snapshot(ledger), standings(ledger)
        psql(f"SELECT ledger_rebuild('{ledger}')")
        after, after_standings = snapshot(ledger), standings(ledger)
        if before != after or before_standings != after_standings:
            raise SystemExit(f"{phase}: ledger {ledger} differs from its rebuild")
    ratings, games = oracle()
    stored = {}
    for line in psql("SELECT scope, player, rating, games FROM ledger_standings s JOIN ledgers l "
                     "ON l.id = s.ledger_id WHERE l.name = 'elo by league'").splitlines():
        scope, player, rating, n = line.split("|")
        stored[(scope, player)] = (float(rating), int(n))
    if set(stored) != set(ratings):
        raise SystemExit(f"{phase}: players differ from the oracle: {sorted(set(stored) ^ set(ratings))}")
    worst = max(abs(stored[k][0] - ratings[k]) for k in ratings)
    if worst > 1e-6 or any(stored[k][1] != games[k] for k in games):
        raise SystemExit(f"{phase}: the Elo ledger differs from the Python replay by {worst}")
    count = psql("SELECT count(*) FROM matches").strip()
    entries = psql("SELECT count(*) FROM ledger_entries").strip()
    print(f"{phase}: {count} games, {entries} entries; both ledgers equal their rebuild, "
          f"Elo equals the Python replay (largest difference {worst:.1e})")


psql("""
CREATE TABLE matches (id bigserial PRIMARY KEY, played_at timestamptz NOT NULL, white bigint NOT NULL,
                      black bigint NOT NULL, score numeric NOT NULL, league text NOT NULL);
CREATE INDEX ON matches (played_at, id);
CREATE INDEX ON matches (league, played_at, id);
INSERT INTO ledgers (name, rating_system, starting_rating, k_factor) VALUES ('elo by league', 'elo', 1500, 32);
INSERT INTO ledgers (name, rating_system, starting_rating, rating_period, max_change)
VALUES ('glicko', 'glicko2', 1500, '3 days', 200);
SELECT ledger_attach('elo by league', 'matches', 'id', 'played_at', 'white', 'black', 'score', scope_column => 'league');
SELECT ledger_attach('glicko', 'matches', 'id', 'played_at', 'white', 'black', 'score');
""")
run_session(SEED, 300)
check("one session, 300 changes")
with ThreadPoolExecutor(4) as pool:
    list(pool.map(lambda i: run_session(SEED + 1 + i, 80), range(4)))
check("four concurrent sessions, 320 more changes")


def run_rebuilds(ledger, count):
    for _ in range(count):
        psql(f"SELECT ledger_rebuild('{ledger}')")


with ThreadPoolExecutor(6) as pool:
    work = [pool.submit(run_session, SEED + 10 + i, 60, [f"league {j}" for j in range(i, i + 3)])
            for i in range(4)]
    work += [pool.submit(run_rebuilds, ledger, 15) for ledger in ("elo by league", "glicko")]
    for w in work:
        w.result()
check("four sessions bringing new leagues, 240 more changes, 30 rebuilds meanwhile")

# Multiplayer: a participants table with an Elo ledger (pairwise rule) and a Glicko-2 ledger
# (period rule); random games of three to five players, placements corrected, players removed,
# games deleted; then both equal their rebuild and the Elo one a Python replay of the pairwise
# rule (each player moves by K times the mean of (pairwise score - expected) over the others).
psql("""
CREATE TABLE plays (play_id int NOT NULL, played_at timestamptz NOT NULL, player int NOT NULL, place int);
INSERT INTO ledgers (name, rating_system, starting_rating, k_factor) VALUES ('plays elo', 'elo', 1500, 24);
INSERT INTO ledgers (name, rating_system) VALUES ('plays glicko', 'glicko2');
SELECT ledger_attach_multiplayer('plays elo', 'plays', 'play_id', 'played_at', 'player', 'place');
SELECT ledger_attach_multiplayer('plays glicko', 'plays', 'play_id', 'played_at', 'player', 'place', rule => 'period');
""")
mrng = random.Random(SEED + 99)
for game in range(1, 121):
    kind = mrng.choices(["game", "place", "leave", "void"], [6, 2, 1, 1])[0]
    if kind == "game" or game < 5:
        players = mrng.sample(range(1, PLAYERS + 1), mrng.randrange(3, 6))
        hour = mrng.randrange(400)
        psql("INSERT INTO plays VALUES " + ", ".join(
            f"({game}, timestamptz '2025-01-01' + interval '{hour} hours', {p}, {mrng.randrange(1, 5)})"
            for p in players))
    elif kind == "place":
        psql(f"UPDATE plays SET place = {mrng.randrange(1, 5)} WHERE play_id = {mrng.randrange(1, game)} "
             f"AND player = (SELECT min(player) FROM plays WHERE play_id = {mrng.randrange(1, game)})")
    elif kind == "leave":
        psql(f"DELETE FROM plays WHERE ctid = (SELECT max(ctid) FROM plays WHERE play_id = {mrng.randrange(1, game)})")
    else:
        psql(f"DELETE FROM plays WHERE play_id = {mrng.randrange(1, game)}")
for ledger in ("plays elo", "plays glicko"):
    before, before_standings = snapshot(ledger), standings(ledger)
    psql(f"SELECT ledger_rebuild('{ledger}')")
    if (before, before_standings) != (snapshot(ledger), standings(ledger)):
        raise SystemExit(f"multiplayer ledger {ledger} differs from its rebuild")
games = {}
for line in psql("SELECT play_id, played_at, player, place FROM plays ORDER BY played_at, play_id").splitlines():
    gid, at, player, place = line.split("|")
    games.setdefault((at, int(gid)), []).append((player, int(place)))
ratings = {}
for (_, _), places in sorted(games.items(), key=lambda kv: (kv[0][0], f"{kv[0][1]:020}")):
    if len(places) < 2:
        continue
    before = {p: ratings.get(p, 1500.0) for p, _ in places}
    for p, mine in places:
        others = [(q, theirs) for q, theirs in places if q != p]
        delta = sum((1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
                    - 1 / (1 + 10 ** ((before[q] - before[p]) / 400)) for q, theirs in others)
        ratings[p] = before[p] + 24 * delta / len(others)
stored = {}
for line in psql("SELECT player, rating FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id "
                 "WHERE l.name = 'plays elo'").splitlines():
    player, rating = line.split("|")
    stored[player] = float(rating)
worst = max(abs(stored[p] - ratings[p]) for p in ratings)
if set(stored) != set(ratings) or worst > 1e-6:
    raise SystemExit(f"the multiplayer Elo ledger differs from the Python replay ({worst})")
print(f"multiplayer, 120 random changes: {len(games)} games; both ledgers equal their rebuild, "
      f"Elo equals the Python pairwise replay (largest difference {worst:.1e})")

# A dump restores every ledger row and the restored database goes on rating like the original.
restored = f"{db}_restored"
dump = f"/tmp/{db}.dump"
subprocess.run(["pg_dump", "-Fc", "-d", db, "-f", dump], check=True)
subprocess.run(["psql", "-X", "-q", "-d", "postgres", "-c", f"DROP DATABASE IF EXISTS {restored}",
                "-c", f"CREATE DATABASE {restored}"], check=True)
subprocess.run(["pg_restore", "--exit-on-error", "-d", restored, dump], check=True)
os.remove(dump)
original, db = db, restored
restored_state = (snapshot("elo by league"), snapshot("glicko"))
db = original
if restored_state != (snapshot("elo by league"), snapshot("glicko")):
    raise SystemExit("the restored ledgers differ from the original's")
later = ("INSERT INTO matches (played_at, white, black, score, league) VALUES "
         "('2025-01-05', 1, 2, 1, 'east'), ('2025-03-01', 3, 4, 0, 'west')")
for target in (original, restored):
    db = target
    psql(later)
states = []
for target in (original, restored):
    db = target
    states.append((snapshot("elo by league"), snapshot("glicko")))
db = original
subprocess.run(["psql", "-X", "-q", "-d", "postgres", "-c", f"DROP DATABASE {restored}"], check=True)
if states[0] != states[1]:
    raise SystemExit("after the restore, the databases rate a backdated and a new game differently")
print("dump and restore: every ledger row back, and both databases rate the next games alike")
