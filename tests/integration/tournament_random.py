#!/usr/bin/env python3
"""Swiss standings kept on insert equal a from-scratch recomputation, whatever the changes.

Two tournaments (one with the default order, one with 'BH-C1, DE, SB, WIN') of 20 players and
7 rounds receive 400 random changes: games inserted (played, drawn, forfeits = decisive
ABANDONMENT without a move, games ended before the first move), byes inserted, games and byes
deleted, results corrected (the tournament game deleted and a new game recorded), games moved
to another round (UPDATE tournaments_games), a game's result reason and moves changed (forfeit
<-> played), a game re-dated before the tournament's start (the start and the ratings as of the
start move), late registrations and removals of players without games, and invalid changes that
must be refused and write nothing. Games outside the tournaments keep changing the ranking after
the start, which must not change the standings.

After every batch of 10 changes, in a transaction that is rolled back:
1. the maintained swiss_tournament_standings, _entrants and _progress rows are compared with
   what rebuild_tournament_standings (the core's from-scratch standings) writes;
2. points (half points) of every (tournament, round, player), games played over the board and
   the set of rows are recomputed here in plain SQL from tournaments_games, service_games and byes
   and compared with the maintained rows.
Then a third tournament receives its five rounds of results from four concurrent sessions and is
compared the same way. Prints the comparisons; exit 0 when every one matched.
"""
import os
import random
import subprocess
import sys

SEED = 20261126
PLAYERS = 20
ROUNDS = 7
CHANGES = 400
BATCH = 10
db = os.environ["PGDATABASE"]


def psql(sql):
    out = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", sql],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"psql failed: {out.stderr.strip()}\n{sql[:2000]}")
    return out.stdout.strip()


def psql_may_fail(sql):
    out = subprocess.run(["psql", "-X", "-q", "-At", "-d", db, "-c", sql], capture_output=True, text=True)
    return out.returncode == 0 and "ERROR" not in out.stderr, out.stderr.strip()


rng = random.Random(SEED)
psql(f"""
INSERT INTO users (email, password_hash) SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, {PLAYERS + 4}) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Blitz', '3 minutes', '10 minutes', 60, 1500, false, 40);
""")
# a rating history before the tournaments
pre = []
for k in range(120):
    w, b = rng.sample(range(1, PLAYERS + 5), 2)
    res = rng.choice(["(1-0,CHECKMATE)", "(0-1,RESIGNATION)", "(1/2-1/2,STALEMATE)"])
    pre.append(f"('{{}}', timestamptz '2024-01-01' + interval '{k} hours', '{res}', '(5 minutes, 0)', 1, '{w}', '{b}', true)")
psql("INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked) VALUES "
     + ",".join(pre))
psql(f"""
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES ({ROUNDS}, 1, '(5 minutes, 0)');
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control, tie_breaks)
VALUES ({ROUNDS}, 1, '(5 minutes, 0)', 'BH-C1, DE, SB, WIN');
INSERT INTO tournaments_players (tournament_id, user_id_in_service)
SELECT t, i::text FROM generate_series(1, 2) t, generate_series(1, {PLAYERS}) i;
""")

# what the script knows of each tournament
state = {t: dict(players=set(str(i) for i in range(1, PLAYERS + 1)), games={}, byes=set()) for t in (1, 2)}
next_game = [10000]
late = [str(i) for i in range(PLAYERS + 1, PLAYERS + 5)]
RESULTS = [("(1-0,CHECKMATE)", "{e2e4}"), ("(0-1,RESIGNATION)", "{e2e4}"), ("(1/2-1/2,STALEMATE)", "{e2e4}"),
           ("(1-0,ABANDONMENT)", "{}"), ("(0-1,ABANDONMENT)", "{}"), ("(1-0,TIMEOUT)", "{}"),
           ("(1/2-1/2,UNKNOWN)", "{}")]


def busy(t, r):
    s = state[t]
    out = {p for (rr, p) in s["byes"] if rr == r}
    for (rr, w, b) in s["games"].values():
        if rr == r:
            out |= {w, b}
    return out


def has_games(t, p):
    return any(p in (w, b) for (_, w, b) in state[t]["games"].values())


def game_sql(t, r, w, b):
    gid = next_game[0]
    next_game[0] += 1
    res, moves = rng.choice(RESULTS)
    minute = rng.randrange(600)
    state[t]["games"][gid] = (r, w, b)
    return (f"INSERT INTO service_games (id, moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked) "
            f"VALUES ({gid}, '{moves}', timestamptz '2024-03-01' + interval '{r} days {minute} minutes', '{res}', "
            f"'(5 minutes, 0)', 1, '{w}', '{b}', true);\n"
            f"INSERT INTO tournaments_games VALUES ({t}, {gid}, {r});\n")


def change():
    """One random valid change as SQL (updating the script's state), or an invalid one."""
    t = rng.choice((1, 2))
    s = state[t]
    kind = rng.choices(["game", "bye", "del_game", "del_bye", "correct", "move", "reason", "redate", "register",
                        "unregister", "outside", "invalid"],
                       weights=[40, 6, 8, 3, 8, 5, 5, 2, 2, 2, 4, 4])[0]
    r = rng.randrange(1, ROUNDS + 1)
    free = sorted(s["players"] - busy(t, r), key=int)
    if kind == "game" and len(free) >= 2:
        w, b = rng.sample(free, 2)
        return game_sql(t, r, w, b)
    if kind == "bye" and free:
        p = rng.choice(free)
        s["byes"].add((r, p))
        return f"INSERT INTO byes VALUES ({t}, {r}, '{p}');\n"
    if kind == "del_game" and s["games"]:
        gid = rng.choice(sorted(s["games"]))
        del s["games"][gid]
        return f"DELETE FROM tournaments_games WHERE tournament_id = {t} AND game_id = {gid};\n"
    if kind == "del_bye" and s["byes"]:
        r, p = rng.choice(sorted(s["byes"]))
        s["byes"].discard((r, p))
        return f"DELETE FROM byes WHERE tournament_id = {t} AND round = {r} AND user_id_in_service = '{p}';\n"
    if kind == "correct" and s["games"]:
        gid = rng.choice(sorted(s["games"]))
        r, w, b = s["games"].pop(gid)
        return f"DELETE FROM tournaments_games WHERE tournament_id = {t} AND game_id = {gid};\n" + game_sql(t, r, w, b)
    if kind == "move" and s["games"]:
        gid = rng.choice(sorted(s["games"]))
        r0, w, b = s["games"][gid]
        if w not in busy(t, r) and b not in busy(t, r):
            s["games"][gid] = (r, w, b)
            return f"UPDATE tournaments_games SET round = {r} WHERE tournament_id = {t} AND game_id = {gid};\n"
    if kind == "reason" and s["games"]:
        gid = rng.choice(sorted(s["games"]))
        res, moves = rng.choice([("(1-0,ABANDONMENT)", "{}"), ("(1-0,ABANDONMENT)", "{e2e4}"),
                                 ("(1-0,CHECKMATE)", "{e2e4}"), ("(1-0,TIMEOUT)", "{}")])
        # only the reason may change (the result type is fixed): keep White's win
        return (f"UPDATE service_games SET result = '{res}', moves = '{moves}' WHERE id = {gid} "
                f"AND (result).game_end_type = '1-0';\n")
    if kind == "redate" and s["games"]:
        gid = rng.choice(sorted(s["games"]))
        return (f"UPDATE service_games SET creation_date = timestamptz '2024-02-20' + interval '{rng.randrange(9000)} minutes' "
                f"WHERE id = {gid};\n")
    if kind == "register":
        options = [p for p in late if p not in s["players"]]
        if options:
            p = rng.choice(options)
            s["players"].add(p)
            return f"INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES ({t}, '{p}');\n"
    if kind == "unregister":
        options = sorted(p for p in s["players"] if not has_games(t, p))
        if options:
            p = rng.choice(options)
            s["players"].discard(p)
            s["byes"] = {(rr, q) for (rr, q) in s["byes"] if q != p}
            return f"DELETE FROM tournaments_players WHERE tournament_id = {t} AND user_id_in_service = '{p}';\n"
    if kind == "outside":
        w, b = rng.sample(range(1, PLAYERS + 5), 2)
        return (f"INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked) "
                f"VALUES ('{{}}', timestamptz '2024-03-20' + interval '{rng.randrange(1000)} minutes', '(1-0,CHECKMATE)', "
                f"'(5 minutes, 0)', 1, '{w}', '{b}', true);\n")
    if kind == "invalid":
        return None
    return ""


def invalid_change():
    """A change the rules refuse; returns (sql, what)."""
    t = rng.choice((1, 2))
    s = state[t]
    r = rng.randrange(1, ROUNDS + 1)
    taken = sorted(busy(t, r), key=int)
    if taken and rng.random() < 0.5:
        p = rng.choice(taken)
        return f"INSERT INTO byes VALUES ({t}, {r}, '{p}')", "bye of a player busy that round"
    with_games = sorted(p for p in s["players"] if has_games(t, p))
    if with_games and rng.random() < 0.5:
        p = rng.choice(with_games)
        return (f"DELETE FROM tournaments_players WHERE tournament_id = {t} AND user_id_in_service = '{p}'",
                "removal of a player with games")
    return f"INSERT INTO byes VALUES ({t}, {ROUNDS + 1}, '1')", "bye beyond the last round"


CHECK = """
BEGIN;
CREATE TEMP TABLE kept_s AS SELECT * FROM swiss_tournament_standings;
CREATE TEMP TABLE kept_e AS SELECT * FROM swiss_tournament_entrants;
CREATE TEMP TABLE kept_p AS SELECT * FROM swiss_tournament_progress;
SELECT sum(rebuild_tournament_standings(tournament_id)) FROM swiss_tournaments;
SELECT (SELECT count(*) FROM swiss_tournament_standings)
     || ' ' || (SELECT count(*) FROM ((TABLE kept_s EXCEPT TABLE swiss_tournament_standings)
                                      UNION ALL (TABLE swiss_tournament_standings EXCEPT TABLE kept_s)) d)
     || ' ' || (SELECT count(*) FROM ((TABLE kept_e EXCEPT TABLE swiss_tournament_entrants)
                                      UNION ALL (TABLE swiss_tournament_entrants EXCEPT TABLE kept_e)) d)
     || ' ' || (SELECT count(*) FROM ((TABLE kept_p EXCEPT TABLE swiss_tournament_progress)
                                      UNION ALL (TABLE swiss_tournament_progress EXCEPT TABLE kept_p)) d);
SELECT coalesce(string_agg(x, E'\n'), '') FROM (
    (SELECT 'kept    ' || k::text AS x FROM (TABLE kept_e EXCEPT TABLE swiss_tournament_entrants) k ORDER BY 1 LIMIT 5)
    UNION ALL
    (SELECT 'rebuilt ' || k::text FROM (TABLE swiss_tournament_entrants EXCEPT TABLE kept_e) k ORDER BY 1 LIMIT 5)
    UNION ALL
    (SELECT 'kept    ' || k::text AS x FROM (TABLE kept_s EXCEPT TABLE swiss_tournament_standings) k ORDER BY 1 LIMIT 5)
    UNION ALL
    (SELECT 'rebuilt ' || k::text FROM (TABLE swiss_tournament_standings EXCEPT TABLE kept_s) k ORDER BY 1 LIMIT 5)) d;
ROLLBACK;
WITH last AS (
    SELECT t.tournament_id,
           greatest((SELECT max(round) FROM tournaments_games g WHERE g.tournament_id = t.tournament_id),
                    (SELECT max(round) FROM byes b WHERE b.tournament_id = t.tournament_id), 0) AS last_round
    FROM swiss_tournaments t),
entries AS (
    SELECT tg.tournament_id, tg.round, g.white_player AS player,
           CASE (g.result).game_end_type WHEN '1-0' THEN 2 WHEN '1/2-1/2' THEN 1 ELSE 0 END AS x2,
           NOT ((g.result).game_end_type <> '1/2-1/2' AND (g.result).game_end_reason = 'ABANDONMENT'
                AND cardinality(g.moves) = 0) AS played
    FROM tournaments_games tg JOIN service_games g ON g.id = tg.game_id
    UNION ALL
    SELECT tg.tournament_id, tg.round, g.black_player,
           CASE (g.result).game_end_type WHEN '0-1' THEN 2 WHEN '1/2-1/2' THEN 1 ELSE 0 END,
           NOT ((g.result).game_end_type <> '1/2-1/2' AND (g.result).game_end_reason = 'ABANDONMENT'
                AND cardinality(g.moves) = 0)
    FROM tournaments_games tg JOIN service_games g ON g.id = tg.game_id
    UNION ALL
    SELECT tournament_id, round, user_id_in_service, 2, false FROM byes),
expected AS (
    SELECT p.tournament_id, r AS round, p.user_id_in_service,
           coalesce((SELECT sum(x2) FROM entries e WHERE e.tournament_id = p.tournament_id
                       AND e.player = p.user_id_in_service AND e.round <= r), 0) AS points_x2,
           (SELECT count(*) FROM entries e WHERE e.tournament_id = p.tournament_id
              AND e.player = p.user_id_in_service AND e.round <= r AND e.played) AS played
    FROM tournaments_players p JOIN last l USING (tournament_id) CROSS JOIN generate_series(1, l.last_round) r)
SELECT count(*) || ' ' || count(*) FILTER (WHERE s.points_x2 IS DISTINCT FROM x.points_x2
                                              OR s.played IS DISTINCT FROM x.played)
FROM expected x FULL JOIN swiss_tournament_standings s
  ON s.tournament_id = x.tournament_id AND s.round = x.round AND s.user_id_in_service = x.user_id_in_service;
"""

failures = 0
done = 0
refused = 0
batch_no = 0
while done < CHANGES:
    sql = ""
    n = 0
    while n < BATCH:
        c = change()
        if c is None:
            if sql:
                psql(sql)
                sql = ""
            bad, what = invalid_change()
            before = psql("SELECT md5(string_agg(s::text, ',' ORDER BY s::text)) FROM swiss_tournament_standings s")
            ok, err = psql_may_fail(bad)
            after = psql("SELECT md5(string_agg(s::text, ',' ORDER BY s::text)) FROM swiss_tournament_standings s")
            if ok or before != after:
                failures += 1
                print(f"FAIL: invalid change accepted or standings changed: {what}: {bad}")
            refused += 1
            n += 1
        elif c:
            sql += c
            n += 1
    if sql:
        psql(sql)
    log_of_batch = sql
    done += n
    batch_no += 1
    out = psql(CHECK).split("\n")
    rebuilt, rows_diff = out[0], out[1].split()
    sql_rows, sql_diff = out[-1].split()
    detail = "\n".join(out[2:-1]).strip()
    status = "ok" if rows_diff[1:] == ["0", "0", "0"] and sql_diff == "0" else "MISMATCH"
    if status != "ok":
        failures += 1
        if failures <= 3:
            print(log_of_batch + "\n" + detail)
    if status != "ok" or batch_no % 5 == 0:
        print(f"after {done:3d} changes: {rows_diff[0]} standings rows; vs rebuild: {rows_diff[1]} standings, "
              f"{rows_diff[2]} entrants, {rows_diff[3]} progress rows differ; vs plain SQL points/played: "
              f"{sql_diff} of {sql_rows} differ ... {status}")

# Concurrency: a third tournament's results arrive from four sessions at once (one result per
# statement, rounds interleaved); the per-tournament lock serialises the refreshes, and the
# standings must equal the rebuild.
from concurrent.futures import ThreadPoolExecutor

psql(f"""
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control, tie_breaks) VALUES (5, 1, '(5 minutes, 0)', 'DE, SB');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) SELECT 3, i::text FROM generate_series(1, {PLAYERS}) i;
""")
conc = []
for r in range(1, 6):
    order = [str(i) for i in range(1, PLAYERS + 1)]
    rng.shuffle(order)
    for k in range(0, PLAYERS - 2, 2):
        conc.append((r, order[k], order[k + 1]))
    conc.append((r, order[-2], None))  # a bye
    conc.append((r, order[-1], None))
values = []
for (r, w, b) in conc:
    if b is not None:
        gid = next_game[0]
        next_game[0] += 1
        res, moves = rng.choice(RESULTS)
        values.append((gid, r, w, b, res, moves))
psql("INSERT INTO service_games (id, moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked) VALUES "
     + ",".join(f"({g}, '{m}', timestamptz '2024-04-01' + interval '{r} days', '{res}', '(5 minutes, 0)', 1, '{w}', '{b}', true)"
                for (g, r, w, b, res, m) in values))
statements = [f"INSERT INTO tournaments_games VALUES (3, {g}, {r})" for (g, r, w, b, res, m) in values]
statements += [f"INSERT INTO byes VALUES (3, {r}, '{w}')" for (r, w, b) in conc if b is None]
rng.shuffle(statements)
chunks = [statements[i::4] for i in range(4)]
with ThreadPoolExecutor(max_workers=4) as pool:
    list(pool.map(lambda c: [psql(x) for x in c], chunks))
out = psql(CHECK).split("\n")
rows_diff = out[1].split()
sql_rows, sql_diff = out[-1].split()
status = "ok" if rows_diff[1:] == ["0", "0", "0"] and sql_diff == "0" else "MISMATCH"
if status != "ok":
    failures += 1
    print("\n".join(out[2:-1]))
print(f"concurrent: {len(statements)} results and byes of tournament 3 from 4 sessions: {rows_diff[0]} standings rows; "
      f"vs rebuild: {rows_diff[1]} standings, {rows_diff[2]} entrants, {rows_diff[3]} progress rows differ; "
      f"vs plain SQL points/played: {sql_diff} of {sql_rows} differ ... {status}")

summary = psql("""SELECT string_agg(format('tournament %s: %s games, %s byes, %s players, last round %s, started %s',
    t.tournament_id, (SELECT count(*) FROM tournaments_games g WHERE g.tournament_id = t.tournament_id),
    (SELECT count(*) FROM byes b WHERE b.tournament_id = t.tournament_id),
    (SELECT count(*) FROM tournaments_players p WHERE p.tournament_id = t.tournament_id), p.last_round, p.started_at),
    E'\\n' ORDER BY t.tournament_id) FROM swiss_tournaments t JOIN swiss_tournament_progress p USING (tournament_id)""")
print(summary)
print(f"{done} changes in {batch_no} batches, {refused} invalid changes refused; {failures} failures")
sys.exit(1 if failures else 0)
