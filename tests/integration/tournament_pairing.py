#!/usr/bin/env python3
"""Swiss pairing through SQL (FIDE Dutch system).

1. bbpPairings' Dutch test cases (../shared/data/pairing/bbp-tests, see its SOURCE.md): for each
   input, tournament_pairings_from_trf gives the expected pairing (the pairs with their colours,
   the board order and the bye). (issue_15 checks the Burstein system: not ours.)
2. A 100-player, 9-round Random Chess tournament paired round after round by
   tournament_pair_round, each round played (random results, some forfeits) through the tables,
   two rounds with a bye asked for in advance (half a point, zero): every registered player
   without such a bye is on one board or has the pairing-allocated bye; no two players meet twice (forfeits
   excepted, as C.04.1 says); no one has a second bye; no colour difference beyond +-2 or three
   equal colours in a row over the board, except for topscorers in the last round (C.04.3 3.3);
   and the pairing equals tournament_pairings_from_trf of the tournament's own TRF export (players
   are registered in FIDE's initial order, so TRF starting ranks are pairing numbers).
Exit 0 when all hold.
"""
import os
import random
import subprocess
import sys

SEED = 20261126
PLAYERS = 100
ROUNDS = 9
# byes asked for before a round is paired (player index, points): a half-point bye, a zero-point one
REQUESTED = {3: [(10, 0.5)], 5: [(57, 0)]}
db = os.environ["PGDATABASE"]
HERE = os.path.dirname(os.path.abspath(__file__))
BBP = os.path.join(HERE, "..", "..", "..", "shared", "data", "pairing", "bbp-tests")
failures = []


def psql(sql):
    out = subprocess.run(["psql", "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", sql],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"psql failed: {out.stderr.strip()}\n{sql[:2000]}")
    return out.stdout.rstrip("\n")


def rows(sql):
    text = psql(sql)
    return [line.split("\t") for line in text.splitlines()] if text else []


def literal(text):
    return "'" + text.replace("'", "''") + "'"


def pairing_of(trf):
    return [(int(w), int(b) if b else 0)
            for _, w, b in rows(f"SELECT * FROM tournament_pairings_from_trf({literal(trf)}) ORDER BY board")]


def bbp_cases():
    if not os.path.isdir(BBP):
        failures.append(f"{BBP} is missing (the shared test data)")
        return
    names = sorted(f[:-len(".input")] for f in os.listdir(BBP) if f.endswith(".input"))
    for name in names:
        with open(os.path.join(BBP, name + ".input"), newline="") as f:
            trf = f.read()
        with open(os.path.join(BBP, name + ".output.expected")) as f:
            expected_lines = [line for line in f.read().split("\n") if line.strip()]
        if expected_lines[0].startswith(name + ": Round #"):
            # issue_15 is bbpPairings' check of a whole tournament paired by the Burstein system
            print(f"bbp-tests {name}: a Burstein-system case, not the Dutch system: skipped")
            continue
        expected = [tuple(int(x) for x in line.split()) for line in expected_lines[1:]]
        got = pairing_of(trf)
        status = "equal" if got == expected else "DIFFERENT"
        print(f"bbp-tests {name}: {len(expected)} boards, {status}")
        if got != expected:
            failures.append(f"{name}: expected {expected}, got {got}")


def setup(rng):
    psql(f"""
        INSERT INTO users (email, password_hash)
        SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, {PLAYERS}) i;
        INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots,
                              k_factor)
        VALUES ('Blitz', '3 minutes', '10 minutes', 60, 1500, false, 40);""")
    # ratings before the tournament: 400 random games
    values = []
    for i in range(400):
        w, b = rng.sample(range(1, PLAYERS + 1), 2)
        res = rng.choice(["1-0,RESIGNATION", "0-1,RESIGNATION", "1/2-1/2,STALEMATE"])
        values.append(f"('{{e2e4}}', timestamptz '2024-01-01' + {i} * interval '1 minute', '({res})', "
                      f"'(5 minutes, 0)', 1, '{w}', '{b}', true)")
    psql("INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, "
         "is_ranked) VALUES " + ", ".join(values))
    # registered in FIDE's initial order: rating, display name, user id
    seeds = rows("""SELECT a.user_id_in_service, round(coalesce(p.rating, 1500))::int, a.display_name
                    FROM service_accounts a
                    LEFT JOIN ranking_players p ON p.ranking_id = 1 AND p.user_id_in_service = a.user_id_in_service
                    WHERE a.service_id = 1""")
    seeds.sort(key=lambda s: (-int(s[1]), s[2], s[0]))
    psql("INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) "
         f"VALUES ({ROUNDS}, 1, '(5 minutes, 0)')")
    for user, _, _ in seeds:
        psql(f"INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (1, '{user}')")
    return [s[0] for s in seeds]


def check_round(r, pairing, players, history):
    seen = [p for board in pairing for p in board if p]
    if sorted(seen) != sorted(players):
        failures.append(f"round {r}: players paired {len(seen)}, distinct {len(set(seen))}, registered {len(players)}")
    last = r == ROUNDS
    for w, b in pairing:
        if b is None:
            if history[w]["byes"]:
                failures.append(f"round {r}: {w} gets a second bye")
            continue
        if b in history[w]["met"]:
            failures.append(f"round {r}: {w} and {b} meet again")
        for p, colour in ((w, "w"), (b, "b")):
            colours = history[p]["colours"] + [colour]
            diff = colours.count("w") - colours.count("b")
            three = len(colours) >= 3 and len(set(colours[-3:])) == 1
            topscorer = last and 2 * history[p]["points"] > r - 1
            if (abs(diff) > 2 or three) and not topscorer:
                failures.append(f"round {r}: {p} gets colours {''.join(colours)}")


def play(r, pairing, history, rng):
    values, byes = [], []
    for i, (w, b) in enumerate(pairing):
        if b is None:
            byes.append(f"(1, {r}, '{w}')")
            history[w]["byes"] += 1
            history[w]["points"] += 1
            continue
        res = rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1", "forfeit"])
        if res == "forfeit":  # White never came: Black wins by forfeit, no game played
            result, moves = "(0-1,ABANDONMENT)", "{}"
            history[b]["points"] += 1
        else:
            reason = "STALEMATE" if res == "1/2-1/2" else "CHECKMATE"
            result, moves = f"({res},{reason})", "{e2e4}"
            history[w]["met"].add(b)
            history[b]["met"].add(w)
            history[w]["colours"].append("w")
            history[b]["colours"].append("b")
            score = {"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[res]
            history[w]["points"] += score
            history[b]["points"] += 1 - score
        values.append((f"('{moves}', timestamptz '2024-03-01' + interval '{r} days' + {i} * interval '1 minute', "
                       f"'{result}', '(5 minutes, 0)', 1, '{w}', '{b}', true)"))
    if values:
        psql(f"""WITH g AS (
                     INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player,
                                                black_player, is_ranked)
                     VALUES {", ".join(values)} RETURNING id)
                 INSERT INTO tournaments_games SELECT 1, id, {r} FROM g""")
    if byes:
        psql("INSERT INTO byes VALUES " + ", ".join(byes))


def tournament():
    rng = random.Random(SEED)
    players = setup(rng)
    history = {p: {"met": set(), "colours": [], "byes": 0, "points": 0} for p in players}
    for r in range(1, ROUNDS + 1):
        present = list(players)
        for player, points in REQUESTED.get(r, []):
            psql(f"INSERT INTO byes (tournament_id, round, user_id_in_service, points) "
                 f"VALUES (1, {r}, '{players[player]}', {points})")
            history[players[player]]["points"] += points
            present.remove(players[player])
        pairing = [(w, b or None) for _, w, b in rows("SELECT * FROM tournament_pair_round(1) ORDER BY board")]
        by_trf = [(players[int(w) - 1], players[int(b) - 1] if b else None)
                  for _, w, b in rows("SELECT p.* FROM tournament_pairings_from_trf(tournament_trf(1)) p "
                                      "ORDER BY board")]
        if by_trf != pairing:
            failures.append(f"round {r}: tournament_pair_round {pairing[:3]}... differs from the TRF's {by_trf[:3]}...")
        check_round(r, pairing, present, history)
        play(r, pairing, history, rng)
        byes = sum(1 for _, b in pairing if b is None)
        print(f"round {r}: {len(pairing) - byes} boards and {byes} pairing-allocated bye(s) checked, "
              f"{PLAYERS - len(present)} bye(s) asked for")
    done = psql("SELECT count(*) FROM swiss_tournament_standings WHERE tournament_id = 1 AND round = 9")
    if int(done) != PLAYERS:
        failures.append(f"standings of round 9: {done} rows")


bbp_cases()
tournament()
for f in failures:
    print("FAILED:", f)
sys.exit(1 if failures else 0)
