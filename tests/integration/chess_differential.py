#!/usr/bin/env python3
"""Differential test of pg_rating's chess functions against python-chess (PyPI `chess`), an
implementation none of us wrote. Needs PGHOST/PGPORT/PGDATABASE/PGUSER of a database with the
extension. Compares, and prints what it compares:

1. generate_fen_array, moves_to_san, san_to_moves on random legal games (standard start and
   mid-game starts, castling also written king-takes-rook), against python-chess boards;
2. read_pgn on PGN text python-chess writes (comments, NAGs, variations), and game_to_pgn
   read back by python-chess;
3. every lichess opening (../shared/data/chess-openings/*.tsv): load_lichess_openings gives
   python-chess's position, and detect_opening of the replayed moves maps to that opening;
4. bad input: a corrupted move gives SQLSTATE 22023 naming the ply, never a crash;
5. the openings map follows changes made by another session.
"""
import os
import random
import subprocess
import sys
import tempfile

try:
    import chess
    import chess.pgn
except ImportError:
    pip = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "chess"]
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if subprocess.run(pip, **quiet).returncode != 0:
        # Debian's own python3 refuses pip installs into it unless told (PEP 668); a test-only oracle.
        subprocess.run(pip + ["--break-system-packages"], check=True, **quiet)
    import chess
    import chess.pgn

import io

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPENINGS_DIR = os.path.join(REPO, "..", "shared", "data", "chess-openings")
rng = random.Random(20240601)
failures = []


def psql(sql, check=True):
    r = subprocess.run(["psql", "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1"],
                       input=sql, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"psql failed: {r.stderr}")
    return r


def lit(s):
    return "'" + s.replace("'", "''") + "'"


def arr(items):
    return "ARRAY[" + ",".join(lit(i) for i in items) + "]::varchar[]" if items else "'{}'::varchar[]"


def partial(board):
    return " ".join(board.fen().split()[:4])  # python-chess: en_passant="legal" by default


def check(name, ok, detail=""):
    if not ok:
        failures.append(f"{name}: {detail}")


def random_game(board, max_plies):
    moves = []
    while len(moves) < max_plies and not board.is_game_over(claim_draw=False):
        legal = list(board.legal_moves)
        # prefer captures, pawn pushes and castling a little, so games reach promotions and e.p.
        m = rng.choice(legal)
        moves.append(m)
        board.push(m)
    return moves


def king_takes_rook(board, m):
    if board.is_castling(m):
        rook_file = 7 if chess.square_file(m.to_square) == 6 else 0
        return chess.square_name(m.from_square) + chess.FILE_NAMES[rook_file] + chess.square_name(m.from_square)[1]
    return m.uci()


# ---------- 1. random legal games
games = []
for i in range(400):
    start = chess.Board()
    if i % 4 == 3:  # a mid-game start
        random_game(start, rng.randint(5, 40))
        if start.is_game_over():
            start = chess.Board()
    board = start.copy()
    moves = random_game(board, rng.choice([0, 1, 10, 80, 80, 80, 200, 400]))
    b = start.copy()
    fens, sans, ucis, ucis_ktr = [partial(b)], [], [], []
    for m in moves:
        sans.append(b.san(m))
        ucis.append(m.uci())
        ucis_ktr.append(king_takes_rook(b, m))
        b.push(m)
        fens.append(partial(b))
    start_fen = start.fen() if i % 2 == 0 else " ".join(start.fen().split()[:4])
    games.append((start_fen, ucis, ucis_ktr, fens, sans))

# Crafted games where an en passant capture is pseudo-legal but illegal (pinned along the rank
# or diagonal, or the king in check), followed by random play.
crafted = [
    ("8/8/8/8/k4p1R/8/4P3/7K w - - 0 1", ["e2e4"]),      # fxe3 would expose the king on the rank
    ("7K/8/8/8/4p3/8/3P4/k7 w - - 0 1", ["d2d4"]),        # legal: the square is written
    ("8/8/8/2k5/4p3/8/3P4/7K w - - 0 1", ["d2d4"]),       # d4 gives check; exd3 takes the checker: legal
    ("8/8/6k1/8/3p4/8/2P5/KB6 w - - 0 1", ["c2c4"]),      # c4 uncovers a check; dxc3 leaves it
    ("k7/8/8/1q1Pp2K/8/8/8/8 w - e6 0 1", []),            # dxe6 would expose the king to the queen
]
for start_fen, forced in crafted:
    start = chess.Board(start_fen)
    board = start.copy()
    for u in forced:
        board.push_uci(u)
    moves = [chess.Move.from_uci(u) for u in forced] + random_game(board, 30)
    b = start.copy()
    fens, sans, ucis, ucis_ktr = [partial(b)], [], [], []
    for m in moves:
        sans.append(b.san(m))
        ucis.append(m.uci())
        ucis_ktr.append(king_takes_rook(b, m))
        b.push(m)
        fens.append(partial(b))
    games.append((start_fen, ucis, ucis_ktr, fens, sans))


def pseudo_but_not_legal(start_fen, ucis):
    b = chess.Board(start_fen if len(start_fen.split()) == 6 else start_fen + " 0 1")
    n = int(b.has_pseudo_legal_en_passant() and not b.has_legal_en_passant())
    for u in ucis:
        b.push_uci(u)
        n += int(b.has_pseudo_legal_en_passant() and not b.has_legal_en_passant())
    return n


with tempfile.TemporaryDirectory() as tmp:
    sql = ["CREATE TEMP TABLE g (n int, start varchar, moves varchar[], moves_ktr varchar[], fens varchar[], sans text[]);"]
    for n, (s, u, k, f, sa) in enumerate(games):
        sql.append(f"INSERT INTO g VALUES ({n}, {lit(s)}, {arr(u)}, {arr(k)}, {arr(f)}, {arr(sa)}::text[]);")
    sql.append("""SELECT n,
        generate_fen_array(start, moves) = fens,
        generate_fen_array(start, moves_ktr) = fens,
        moves_to_san(start, moves) = sans,
        san_to_moves(start, sans) = moves
      FROM g ORDER BY n;""")
    out = psql("\n".join(sql)).stdout.strip().splitlines()
plies = sum(len(g[1]) for g in games)
castles = sum(1 for g in games for a, b in zip(g[1], g[2]) if a != b)
eps = sum(1 for g in games for f in g[3] if not f.endswith(" -"))
illegal_eps = sum(pseudo_but_not_legal(g[0], g[1]) for g in games)
print(f"random games: {len(games)} games, {plies} plies, {castles} castlings also written king-takes-rook, "
      f"{eps} positions with a legal en passant square, {illegal_eps} with a pseudo-legal but illegal one")
check("illegal en passant exercised", illegal_eps >= 3, str(illegal_eps))
check("random games rows", len(out) == len(games), f"{len(out)} rows")
for line in out:
    n, a, b, c, d = line.split("\t")
    check(f"game {n} generate_fen_array", a == "t")
    check(f"game {n} generate_fen_array king-takes-rook", b == "t")
    check(f"game {n} moves_to_san", c == "t")
    check(f"game {n} san_to_moves", d == "t")
print(f"  generate_fen_array / moves_to_san / san_to_moves agree with python-chess: "
      f"{sum(1 for l in out if l.endswith('t	t	t	t'))} of {len(games)}")

# ---------- 2. PGN import and export
pgn_games = []
for i in range(150):
    start = chess.Board()
    if i % 5 == 4:
        random_game(start, rng.randint(4, 30))
        if start.is_game_over():
            start = chess.Board()
    board = start.copy()
    moves = random_game(board, rng.choice([1, 40, 80, 120, 300]))
    game = chess.pgn.Game()
    if start != chess.Board():
        game.setup(start)
    game.headers["Event"] = f"diff {i}"
    game.headers["White"] = "Ann O'Rook, Jr."
    game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    node = game
    for j, m in enumerate(moves):
        if j % 7 == 3 and node.board().legal_moves.count() > 1:  # a variation with another move
            alt = [x for x in node.board().legal_moves if x != m][0]
            node.add_variation(alt).comment = "alt"
        node = node.add_main_variation(m)
        if j % 5 == 0:
            node.comment = "c {nested?} " if False else f"comment {j}"
        if j % 9 == 0:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6]))
    pgn_games.append((game, start, moves))
text = "\n\n".join(str(g) for g, _, _ in pgn_games) + "\n"
r = psql(f"SELECT game_no, starting_position, array_to_string(moves, ' '), coalesce((game_result).game_end_type, '*') "
         f"FROM read_pgn({lit(text)}) ORDER BY game_no;").stdout.strip().splitlines()
print(f"read_pgn: {len(pgn_games)} games written by python-chess (comments, NAGs, variations), {len(r)} read back")
check("read_pgn count", len(r) == len(pgn_games), f"{len(r)}")
ok = 0
for line, (game, start, moves) in zip(r, pgn_games):
    n, s, m, res = line.split("\t")
    good = (m.split() if m else []) == [x.uci() for x in moves] and res == game.headers["Result"]
    good = good and chess.Board(s).board_fen() == start.board_fen()
    check(f"read_pgn game {n}", good, line[:200])
    ok += good
print(f"  same start, moves and result as python-chess: {ok} of {len(pgn_games)}")

sql = ["CREATE TEMP TABLE e (n int, start varchar, moves varchar[]);"]
for n, (game, start, moves) in enumerate(pgn_games):
    sql.append(f"INSERT INTO e VALUES ({n}, {lit(start.fen())}, {arr([m.uci() for m in moves])});")
sql.append("SELECT n, replace(game_to_pgn(start, moves, '(1/2-1/2,STALEMATE)', '{\"Event\": \"x\"}'), E'\\n', '\\n') FROM e ORDER BY n;")
out = psql("\n".join(sql)).stdout.strip().splitlines()
ok = 0
for line, (game, start, moves) in zip(out, pgn_games):
    n, pgn = line.split("\t", 1)
    pgn = pgn.replace("\\n", "\n")
    back = chess.pgn.read_game(io.StringIO(pgn))
    why = [name for name, ok in [
        ("moves", [m.uci() for m in back.mainline_moves()] == [m.uci() for m in moves]),
        ("result", back.headers["Result"] == "1/2-1/2"),
        ("start", back.board().fen() == start.fen()),
        ("errors", not back.errors),
        # movetext lines (tag lines cannot be wrapped)
        ("80 columns", all(len(l) <= 80 for l in pgn.split("\n\n", 1)[1].splitlines()))] if not ok]
    good = not why
    check(f"game_to_pgn {n}", good, f"{why} {back.errors} {start.fen()} {back.board().fen()}\n{pgn}")
    ok += good
print(f"game_to_pgn: python-chess reads back the same game, movetext lines <= 80 columns: {ok} of {len(pgn_games)}")

# ---------- 3. the lichess openings
files = [os.path.join(OPENINGS_DIR, f + ".tsv") for f in "abcde"]
if not all(os.path.exists(f) for f in files):
    print("lichess openings not found in ../shared/data/chess-openings: skipping that part")
    failures.append("lichess openings files missing")
else:
    tsv = "".join(open(f, encoding="utf-8").read() for f in files)
    rows = [l.split("\t") for l in tsv.splitlines() if l and not l.startswith("eco\t")]
    expected = []
    for eco, name, pgn in rows:
        g = chess.pgn.read_game(io.StringIO(pgn))
        b = g.board()
        ucis = []
        for m in g.mainline_moves():
            ucis.append(m.uci())
            b.push(m)
        expected.append((eco, name, partial(b), ucis))
    sql = [f"SELECT load_lichess_openings({lit(tsv)});",
           "CREATE TABLE x (n int, eco text, name text, fen text, moves varchar[]);"]
    for n, (eco, name, fen, ucis) in enumerate(expected):
        sql.append(f"INSERT INTO x VALUES ({n}, {lit(eco)}, {lit(name)}, {lit(fen)}, {arr(ucis)});")
    sql.append("""SELECT x.n, o.partial_fen = x.fen, d.opening_id = o.id, d.move_no = cardinality(x.moves)
      FROM x LEFT JOIN openings o ON o.eco = x.eco AND o.name = x.name AND o.partial_fen = x.fen
      CROSS JOIN LATERAL detect_opening(generate_fen_array(
          'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', x.moves)) d ORDER BY x.n;""")
    sql.append("SELECT count(*) FROM openings;")
    out = psql("\n".join(sql)).stdout.strip().splitlines()
    loaded, rows_out, count = out[0], out[1:-1], out[-1]
    good = sum(1 for l in rows_out if l.split("\t")[1:] == ["t", "t", "t"])
    print(f"lichess openings: {loaded} loaded, {count} rows; python-chess position = partial_fen and "
          f"detect_opening(replayed moves) = that opening at the last ply: {good} of {len(expected)}")
    check("openings loaded", loaded == str(len(expected)) and count == str(len(expected)), f"{loaded} {count}")
    check("openings agree", good == len(expected), f"{good}")
    eps = sum(1 for e in expected if not e[2].endswith(" -"))
    print(f"  openings whose position has a legal en passant square: {eps}")

# ---------- 4. bad input
bad = []
for n, (s, u, _, _, _) in enumerate(games[:60]):
    if len(u) < 2:
        continue
    ply = rng.randrange(len(u))
    b = chess.Board(s if len(s.split()) == 6 else s + " 0 1")
    for m in u[:ply]:
        b.push_uci(m)
    legal = {m.uci() for m in b.legal_moves}
    wrong = next(c for c in ("e2e4", "a1a8", "h7h5", "e1g1", "d8d1", "b1c3", "g8f6") if c not in legal)
    bad.append((s, u[:ply] + [wrong] + u[ply + 1:], ply + 1, wrong))
codes = 0
for s, u, ply, wrong in bad:
    r = psql(f"\\set VERBOSITY verbose\nSELECT generate_fen_array({lit(s)}, {arr(u)});", check=False)
    good = r.returncode != 0 and "22023" in r.stderr and f'"{wrong}" at ply {ply} ' in r.stderr
    check(f"bad move at ply {ply}", good, r.stderr[:300])
    codes += good
print(f"corrupted games: {codes} of {len(bad)} give 22023 naming the move and the ply")
r = psql("SELECT 1;")
check("server alive after errors", r.stdout.strip() == "1")

# ---------- 5. another session changes openings
r = psql("SELECT o.eco FROM detect_opening(generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{g2g4,e7e5,f1g2}')) d JOIN openings o ON o.id = d.opening_id;")
first = r.stdout.strip()
# A session keeps its map; another session commits a change; the first must see it.
proc = subprocess.Popen(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
q = "SELECT coalesce((SELECT eco FROM openings WHERE id = (detect_opening(generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{g2g4,e7e5,f1g2}'))).opening_id), 'none');\n"
proc.stdin.write(q)
before = proc.stdout.readline().strip()
psql("UPDATE openings SET eco = 'Z99' WHERE partial_fen = (generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{g2g4,e7e5,f1g2}'))[4];"
     "INSERT INTO openings (eco, name, partial_fen) VALUES ('Z98', 'test', (generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{g2g4,e7e5,f1g2,d7d5}'))[5]);")
proc.stdin.write(q.replace("'{g2g4,e7e5,f1g2}'", "'{g2g4,e7e5,f1g2,d7d5}'"))
after = proc.stdout.readline().strip()
proc.stdin.close()
proc.wait()
print(f"openings changed by another session: before {before!r} ({first!r} in a fresh one), after {after!r}")
check("cross-session invalidation", before == first and before != "none" and after == "Z98", f"{before} {after}")

# A REPEATABLE READ transaction that reloads the map after another session's commit must not
# keep a map of its old snapshot for the rest of the session.
fens = "generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{h2h3,h7h6,h3h4,h6h5,g2g3}')"
proc = subprocess.Popen(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
probe = f"SELECT coalesce(move_no, -1) FROM detect_opening({fens});\n"
proc.stdin.write("BEGIN ISOLATION LEVEL REPEATABLE READ;\n" + probe)
rr_before = proc.stdout.readline().strip()
psql(f"INSERT INTO openings (eco, name, partial_fen) VALUES ('Z97', 'rr test', ({fens})[6]);")
proc.stdin.write(probe)
rr_inside = proc.stdout.readline().strip()
proc.stdin.write("COMMIT;\n" + probe)
rr_after = proc.stdout.readline().strip()
proc.stdin.close()
proc.wait()
print(f"REPEATABLE READ session, another session adds an opening at ply 5: before {rr_before}, "
      f"inside the transaction {rr_inside}, after commit {rr_after}")
check("repeatable read session sees the new opening after its transaction", rr_before != "5" and rr_after == "5",
      f"{rr_before} {rr_inside} {rr_after}")

# ---------- 6. detect_opening in parallel workers (each loads its own map) agrees with a serial run
r = psql("""
CREATE TEMP TABLE pf AS SELECT n, generate_fen_array(start, moves) AS partial_fens FROM g;
CREATE TABLE par AS SELECT i, f.partial_fens FROM generate_series(1, 50) i, pf f;
ANALYZE par;
SET max_parallel_workers_per_gather = 0;
SELECT count(d.opening_id), sum(d.move_no) FROM par, detect_opening(par.partial_fens) d;
SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT count(d.opening_id), sum(d.move_no) FROM par, detect_opening(par.partial_fens) d;
EXPLAIN (COSTS OFF) SELECT count(d.opening_id) FROM par, detect_opening(par.partial_fens) d;
DROP TABLE par;
""".replace("FROM g;", "FROM (SELECT 1 AS n, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'::varchar AS start, x.moves FROM x) g;"), check=False)
lines = r.stdout.strip().splitlines()
parallel_plan = any("Gather" in l for l in lines)
print(f"detect_opening serial vs parallel: {lines[:2]}, parallel plan: {parallel_plan}")
check("parallel detect_opening", r.returncode == 0 and len(lines) >= 2 and lines[0] == lines[1] and parallel_plan,
      r.stderr[:300] + " " + " | ".join(lines))

if failures:
    print(f"FAILED: {len(failures)} checks")
    for f in failures[:30]:
        print("  " + f)
    sys.exit(1)
print("all chess differential checks passed")
