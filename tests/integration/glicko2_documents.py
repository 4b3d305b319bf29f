#!/usr/bin/env python3
"""A Glicko-2 ledger rates as the seed documents write Glicko-2 (issue 32, item 1).

Written from the documents, not from pg_rating's code: seed 003 §8.2 `update_ratings_2p` and seed
002's `Glicko2Service` (Glickman's steps 1-8 with one game as the rating period: step 6 takes the new
volatility, phi* = sqrt(phi^2 + sigma'^2); step 5 by the Illinois iteration with tolerance 1e-6 and
TAU = 0.5), each player rated from the other's rating before the game, players starting at
1500/350/0.06, the RD kept at most 350 (seed 000 §8.1, MAX_RD). The ledger keeps ten decimals of
every rating, RD and volatility between games, so the replay here rounds to them too.

A `matches` table takes at least 500 games by random inserts (many backdated), result corrections,
re-datings and deletes; then every final rating, RD and volatility of the ledger (default settings:
glicko2_rule 'glickman') must equal this replay of the games left, in (date, id) order, within 1e-6.
"""
import math
import os
import random
import subprocess

SEED = 20261128
PLAYERS = 16
db = os.environ["PGDATABASE"]


def psql(sql):
    out = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", sql],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"psql failed: {out.stderr.strip()}\n{sql}")
    return out.stdout


# --- Glicko-2 from the documents ---------------------------------------------------------------
SCALE = 173.7178
TAU = 0.5
TOLERANCE = 0.000001


def g(phi):
    return 1 / math.sqrt(1 + 3 * phi ** 2 / math.pi ** 2)


def expected(mu, mu_j, phi_j):
    return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))


def new_sigma(phi, sigma, delta, v):
    # seed 002, computeNewVolatility (Glickman's step 5)
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / TAU ** 2

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > TOLERANCE:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:  # Glickman's 2022 revision: "<="
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2
        big_b, f_b = c, f_c
    return math.exp(big_a / 2)


def one_game(player, opponent, score):
    """Seed 003 §8.2 for one side: (rating, rd, volatility) after a game scoring `score`."""
    mu, phi, sigma = (player[0] - 1500) / SCALE, player[1] / SCALE, player[2]
    mu_j, phi_j = (opponent[0] - 1500) / SCALE, opponent[1] / SCALE
    e = expected(mu, mu_j, phi_j)
    v = 1 / (g(phi_j) ** 2 * e * (1 - e))
    delta = v * g(phi_j) * (score - e)
    sigma2 = new_sigma(phi, sigma, delta, v)
    phi_star = math.sqrt(phi ** 2 + sigma2 ** 2)
    phi2 = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu2 = mu + phi2 ** 2 * g(phi_j) * (score - e)
    rd = min(phi2 * SCALE, 350.0)  # seed 000 §8.1: MAX_RD = 350
    return tuple(round(x, 10) for x in (mu2 * SCALE + 1500, rd, sigma2))


def replay(games):
    ratings = {}
    for _, _, white, black, score in sorted(games, key=lambda x: (x[1], x[0])):
        w = ratings.get(white, (1500.0, 350.0, 0.06))
        b = ratings.get(black, (1500.0, 350.0, 0.06))
        ratings[white] = one_game(w, b, score)
        ratings[black] = one_game(b, w, 1 - score)
    return ratings


# --- random games through the ledger --------------------------------------------------------------
psql("""
CREATE TABLE matches (id int PRIMARY KEY, played_at timestamptz NOT NULL, white int NOT NULL,
                      black int NOT NULL, score float8 NOT NULL);
INSERT INTO ledgers (name, rating_system) VALUES ('documents', 'glicko2');
SELECT ledger_attach('documents', 'matches', 'id', 'played_at', 'white', 'black', 'score');
""")
rule = psql("SELECT glicko2_rule FROM ledgers WHERE name = 'documents'").strip()
if rule != "glickman":
    raise SystemExit(f"a new Glicko-2 ledger rates by the {rule} rule, not Glickman's")

rng = random.Random(SEED)
games = {}
next_id = 1
statements = {"insert": 0, "score": 0, "date": 0, "delete": 0}
while len(games) < 520 or sum(statements.values()) < 700:
    kind = rng.choices(["insert", "score", "date", "delete"], [8, 2, 2, 1])[0]
    if kind == "insert" or not games:
        kind = "insert"
        rows = []
        for _ in range(rng.choice([1, 1, 1, 3])):
            w, b = rng.sample(range(1, PLAYERS + 1), 2)
            games[next_id] = (next_id, rng.randrange(2000), w, b, rng.choice([0.0, 0.5, 1.0]))
            rows.append(games[next_id])
            next_id += 1
        psql("INSERT INTO matches VALUES " + ", ".join(
            f"({i}, timestamptz '2025-01-01' + interval '{h} hours', {w}, {b}, {s})" for i, h, w, b, s in rows))
    elif kind == "score":
        i = rng.choice(list(games))
        s = rng.choice([0.0, 0.5, 1.0])
        games[i] = games[i][:4] + (s,)
        psql(f"UPDATE matches SET score = {s} WHERE id = {i}")
    elif kind == "date":
        i = rng.choice(list(games))
        h = rng.randrange(2000)
        games[i] = (i, h) + games[i][2:]
        psql(f"UPDATE matches SET played_at = timestamptz '2025-01-01' + interval '{h} hours' WHERE id = {i}")
    else:
        i = rng.choice(list(games))
        del games[i]
        psql(f"DELETE FROM matches WHERE id = {i}")
    statements[kind] += 1
print(f"{len(games)} games left after {sum(statements.values())} statements {statements}")

want = replay(games.values())
got = {}
for line in psql("SELECT player, rating, rd, volatility FROM ledger_standings_now "
                 "WHERE ledger = 'documents'").split():
    player, rating, rd, vol = line.split("|")
    got[int(player)] = (float(rating), float(rd), float(vol))
if set(got) != set(want):
    raise SystemExit(f"players differ: ledger {sorted(got)}, replay {sorted(want)}")
worst = 0.0
for p in sorted(want):
    for what, a, b in zip(("rating", "rd", "volatility"), got[p], want[p]):
        worst = max(worst, abs(a - b))
        if abs(a - b) > 1e-6:
            raise SystemExit(f"player {p}: {what} {a} in the ledger, {b} by the documents' rule")
print(f"{len(want)} players: every rating, RD and volatility equals the documents' Glicko-2 "
      f"(largest difference {worst:.2e})")
# the lichess rule of ledgers made before 0.13.0 gives other numbers
psql("UPDATE ledgers SET glicko2_rule = 'lichess' WHERE name = 'documents'")
off = max(abs(float(line.split("|")[1]) - want[int(line.split("|")[0])][0])
          for line in psql("SELECT player, rating FROM ledger_standings_now WHERE ledger = 'documents'").split())
if off < 1.0:
    raise SystemExit(f"the lichess rule gives the same ratings (within {off})")
print(f"the lichess rule differs by up to {off:.1f} points")
