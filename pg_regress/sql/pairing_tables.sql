-- Pairing from an application's own tables (issue 34): tournament_pairings_from_tables and
-- tournament_pair_into on the tables of seed 000 (a chess platform on Supabase) as its document
-- uses them, round after round, each pairing compared with tournament_pairings_from_trf on the
-- same tournament written as TRF-16; then plain tables, the errors, and who may read and write.
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- Seed 000's tables (section 1.2: users, tournaments, tournament_participants, rounds, matches;
-- the columns its code reads and writes in sections 4, 6.2, 7.2 and 9.2)
CREATE TABLE users (
  id BIGSERIAL PRIMARY KEY,
  username TEXT NOT NULL,
  glicko2_rating REAL DEFAULT 1500.0,
  glicko2_rd REAL DEFAULT 350.0,
  glicko2_volatility REAL DEFAULT 0.06
);
CREATE TABLE tournaments (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, rating_system TEXT DEFAULT 'glicko2');
CREATE TABLE tournament_participants (
  id BIGSERIAL PRIMARY KEY,
  tournament_id BIGINT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id),
  nickname TEXT
);
CREATE TABLE rounds (
  id BIGSERIAL PRIMARY KEY,
  tournament_id BIGINT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  status TEXT DEFAULT 'planned',
  paired_at TIMESTAMPTZ,
  source TEXT
);
CREATE TABLE matches (
  id BIGSERIAL PRIMARY KEY,
  round_id BIGINT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
  white_participant_id BIGINT REFERENCES tournament_participants(id),
  black_participant_id BIGINT REFERENCES tournament_participants(id),  -- NULL: a bye
  board_no INTEGER,
  result TEXT NOT NULL DEFAULT 'not_played'
    CHECK (result IN ('not_played', 'white', 'black', 'draw', 'forfeit_white', 'forfeit_black', 'bye')),
  score_white REAL DEFAULT 0,
  score_black REAL DEFAULT 0,
  source TEXT,
  notes TEXT
);
-- what the pairing reads: the participants with their users' Glicko-2 rating, the matches with
-- their round's number and tournament
CREATE VIEW pairing_players AS
SELECT p.id, p.tournament_id, p.nickname, u.glicko2_rating AS rating
FROM tournament_participants p JOIN users u ON u.id = p.user_id;
CREATE VIEW pairing_games AS
SELECT m.*, r.number AS round, r.tournament_id
FROM matches m JOIN rounds r ON r.id = m.round_id;

INSERT INTO users (username, glicko2_rating)
VALUES ('ada', 1812.4), ('bob', 1650), ('cy', 1650), ('dee', 1500), ('eve', 2010.6),
       ('fay', 1500), ('gus', 1733), ('hal', 1420), ('ivy', 1999.5), ('jon', 1600);
INSERT INTO tournaments (name) VALUES ('Autumn Swiss'), ('Blitz Cup');
-- the Autumn Swiss: 9 players (a bye each round); the Blitz Cup: 4 others, paired apart
INSERT INTO tournament_participants (tournament_id, user_id, nickname)
SELECT 1, u.id, u.username FROM users u WHERE u.id <= 9 ORDER BY u.id DESC;
INSERT INTO tournament_participants (tournament_id, user_id, nickname)
SELECT 2, u.id, upper(u.username) FROM users u WHERE u.id IN (2, 4, 6, 10);

-- the tournament as TRF-16: starting ranks in FIDE's initial order (rating, then name, then id),
-- each round's opponent, colour and result (1 = 0, + - forfeits, U the bye)
CREATE FUNCTION pg_temp.ranks(t bigint) RETURNS TABLE (id bigint, rank bigint, rating int, nickname text)
LANGUAGE sql AS $$
  SELECT p.id, row_number() OVER (ORDER BY round(p.rating::numeric) DESC NULLS LAST, p.nickname COLLATE "C", p.id),
         round(p.rating::numeric)::int, p.nickname
  FROM pairing_players p WHERE p.tournament_id = t
$$;
CREATE FUNCTION pg_temp.trf(t bigint, rounds int) RETURNS text LANGUAGE sql AS $$
  WITH r AS (SELECT * FROM pg_temp.ranks(t)),
  entries AS (
    SELECT g.round, w.id AS player,
           CASE WHEN g.black_participant_id IS NULL THEN '0000 - U'
                ELSE lpad(b.rank::text, 4) || ' w ' ||
                     CASE g.result WHEN 'white' THEN '1' WHEN 'black' THEN '0' WHEN 'draw' THEN '='
                                   WHEN 'forfeit_black' THEN '+' WHEN 'forfeit_white' THEN '-' END
           END AS entry
    FROM pairing_games g JOIN r w ON w.id = g.white_participant_id
    LEFT JOIN r b ON b.id = g.black_participant_id
    WHERE g.tournament_id = t
    UNION ALL
    SELECT g.round, b.id,
           lpad(w.rank::text, 4) || ' b ' ||
           CASE g.result WHEN 'white' THEN '0' WHEN 'black' THEN '1' WHEN 'draw' THEN '='
                         WHEN 'forfeit_black' THEN '-' WHEN 'forfeit_white' THEN '+' END
    FROM pairing_games g JOIN r w ON w.id = g.white_participant_id
    JOIN r b ON b.id = g.black_participant_id
    WHERE g.tournament_id = t)
  SELECT string_agg(line, E'\n' ORDER BY rank) || E'\nXXR ' || rounds || E'\nXXC white1'
  FROM (SELECT r.rank,
               format('001 %s      %s %s%s%s', lpad(r.rank::text, 4), rpad(r.nickname, 33), lpad(r.rating::text, 4),
                      repeat(' ', 39), coalesce(string_agg(e.entry, '  ' ORDER BY e.round), '')) AS line
        FROM r LEFT JOIN entries e ON e.player = r.id GROUP BY r.rank, r.nickname, r.rating) l
$$;
-- the pairing from the tables, and from the TRF mapped back to participant ids
CREATE FUNCTION pg_temp.pairing(t bigint, rounds int) RETURNS TABLE (board int, white text, black text)
LANGUAGE sql AS $$
  SELECT * FROM tournament_pairings_from_tables(
      'pairing_players', 'pairing_games', rounds, name_column => 'nickname',
      white_column => 'white_participant_id', black_column => 'black_participant_id',
      result_map => '{"white": 1, "black": 0, "draw": 0.5, "forfeit_white": "-+", "forfeit_black": "+-",
                      "bye": "bye", "not_played": null}',
      tournament_column => 'tournament_id', tournament => t::text)
$$;
CREATE FUNCTION pg_temp.same_as_trf(t bigint, rounds int) RETURNS boolean LANGUAGE sql AS $$
  SELECT (SELECT array_agg(ROW(board, white, black)::text ORDER BY board) FROM pg_temp.pairing(t, rounds))
       = (SELECT array_agg(ROW(f.board, w.id::text, b.id::text)::text ORDER BY f.board)
          FROM tournament_pairings_from_trf(pg_temp.trf(t, rounds)) f
          JOIN pg_temp.ranks(t) w ON w.rank = f.white LEFT JOIN pg_temp.ranks(t) b ON b.rank = f.black)
$$;
-- the arbiter's step: a rounds row, then the pairing written into matches in the same statement
CREATE FUNCTION pg_temp.pair_round(t bigint, rounds int) RETURNS SETOF matches LANGUAGE plpgsql AS $$
DECLARE r bigint;
BEGIN
  INSERT INTO rounds (tournament_id, number, status, paired_at, source)
  SELECT t, coalesce(max(number), 0) + 1, 'paired', now(), 'pg_rating' FROM rounds WHERE tournament_id = t
  RETURNING id INTO r;
  PERFORM * FROM tournament_pair_into(
      'matches', 'pairing_players', 'pairing_games', rounds, name_column => 'nickname',
      white_column => 'white_participant_id', black_column => 'black_participant_id',
      result_map => '{"white": 1, "black": 0, "draw": 0.5, "forfeit_white": "-+", "forfeit_black": "+-",
                      "bye": "bye", "not_played": null}',
      tournament_column => 'tournament_id', tournament => t::text,
      pending_white_column => 'white_participant_id', pending_black_column => 'black_participant_id',
      pending_board_column => 'board_no',
      pending_values => jsonb_build_object('round_id', r, 'source', 'pg_rating'),
      pending_bye_values => '{"result": "bye", "score_white": 1}');
  RETURN QUERY SELECT * FROM matches WHERE round_id = r ORDER BY board_no;
END $$;
-- results by board: White wins, a draw, Black wins, White wins by forfeit, ...
CREATE FUNCTION pg_temp.play(t bigint, n int) RETURNS void LANGUAGE sql AS $$
  UPDATE matches m SET result = (ARRAY['white', 'draw', 'black', 'forfeit_black', 'white', 'forfeit_white'])[1 + (m.board_no + n) % 6]
  FROM rounds r WHERE r.id = m.round_id AND r.tournament_id = t AND m.result = 'not_played'
$$;

-- round 1: the top half (eve, ivy, ada, gus) against the bottom half (bob and cy on 1650 by name, then
-- dee and fay on 1500), the top seed White; hal, last, gets the bye
SELECT r.rank, r.nickname, r.rating, r.id FROM pg_temp.ranks(1) r ORDER BY r.rank;
SELECT * FROM pg_temp.pairing(1, 5);
SELECT pg_temp.same_as_trf(1, 5);
SELECT board_no, white_participant_id, black_participant_id, result, score_white, source
FROM pg_temp.pair_round(1, 5);
-- the games of round 1 have no result yet: round 2 waits (55000), and round 1 is paired
SELECT pg_temp.err($$SELECT * FROM pg_temp.pairing(1, 5)$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('pairing_players', 'pairing_games', 5, 1,
  white_column => 'white_participant_id', black_column => 'black_participant_id',
  result_map => '{"white": 1, "black": 0, "draw": 0.5, "bye": "bye", "not_played": null}',
  tournament_column => 'tournament_id', tournament => '1')$$);
-- rounds 2 to 5, each played and paired again; every pairing equals the TRF's
SELECT pg_temp.play(1, 0);
SELECT pg_temp.same_as_trf(1, 5);
SELECT * FROM pg_temp.pairing(1, 5);
SELECT count(*) FROM pg_temp.pair_round(1, 5);
SELECT pg_temp.play(1, 1);
SELECT pg_temp.same_as_trf(1, 5), (SELECT count(*) FROM pg_temp.pair_round(1, 5));
SELECT pg_temp.play(1, 2);
SELECT pg_temp.same_as_trf(1, 5), (SELECT count(*) FROM pg_temp.pair_round(1, 5));
SELECT pg_temp.play(1, 3);
SELECT pg_temp.same_as_trf(1, 5);
SELECT * FROM pg_temp.pairing(1, 5);
SELECT count(*) FROM pg_temp.pair_round(1, 5);
SELECT pg_temp.play(1, 4);
-- every round paired: 22023; no rematch and one bye per player over the five rounds
SELECT pg_temp.err($$SELECT * FROM pg_temp.pairing(1, 5)$$);
SELECT count(*) AS games, count(DISTINCT (least(white_participant_id, black_participant_id),
                                          greatest(white_participant_id, black_participant_id))) AS pairs,
       count(*) FILTER (WHERE black_participant_id IS NULL) AS byes,
       count(DISTINCT white_participant_id) FILTER (WHERE black_participant_id IS NULL) AS players_with_a_bye
FROM pairing_games WHERE tournament_id = 1;
-- the Blitz Cup is another tournament of the same tables: its own round 1
SELECT * FROM pg_temp.pairing(2, 3);
SELECT pg_temp.same_as_trf(2, 3);

-- Plain tables: text ids, the default column names, withdrawn players, requested byes, forfeits
CREATE TABLE entrants (id text PRIMARY KEY, rating int, name text, seed int, withdrawn boolean DEFAULT false);
CREATE TABLE boards (round int, white text, black text, result text, forfeit boolean);
INSERT INTO entrants VALUES ('p1', 2100, 'Ann', 4, false), ('p2', 2000, 'Ben', 3, false), ('p3', 1900, 'Cat', 2, false),
                            ('p4', 1800, 'Dan', 1, false), ('p5', NULL, 'Eli', 5, false), ('p6', 1700, 'Fox', 6, true);
-- round 1: p6 withdrawn before it, p5 unrated is last
SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, withdrawn_column => 'withdrawn');
-- the application's own starting ranks (seed) instead of ratings
SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, initial_order_column => 'seed',
                                              withdrawn_column => 'withdrawn');
INSERT INTO boards VALUES (1, 'p1', 'p3', '1-0', false), (1, 'p4', 'p2', '0-1', true), (1, 'p5', NULL, 'bye', NULL),
                          (2, 'p3', NULL, NULL, NULL);
-- round 2: p4 lost by forfeit (the forfeit column), p3 asked for a bye of round 2 (result NULL:
-- by a result_map, "half_bye"); forbidden_pairs keeps p2 from p5
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, withdrawn_column => 'withdrawn')$$);
UPDATE boards SET result = 'H' WHERE round = 2;
SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, withdrawn_column => 'withdrawn',
    forfeit_column => 'forfeit', result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}');
SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, withdrawn_column => 'withdrawn',
    forfeit_column => 'forfeit', result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}',
    forbidden_pairs => ARRAY[['p2', 'p5']]);

-- Errors
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, player_column => 'user_id')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, rating_column => 'name')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, round_column => 'white')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, white_column => 'ctid')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables(NULL, 'boards', 3)$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', NULL)$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, baku_acceleration => NULL)$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, tournament_column => 'id')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, tournament => '1')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, result_map => '[1]')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, result_map => '{"1-0": 2}')$$);
-- a result no map explains; a round out of order; the rounds of the games beyond the tournament's
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, forfeit_column => 'forfeit',
    result_map => '{"1-0": 1, "0-1": 0, "bye": "bye"}')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, round => 3, forfeit_column => 'forfeit',
    result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, round => 1, forfeit_column => 'forfeit',
    result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 1, forfeit_column => 'forfeit',
    result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, forbidden_pairs => '{p1, p9}',
    result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}')$$);
-- a game naming no player; a player twice; a drawn forfeit
INSERT INTO boards VALUES (1, 'p9', 'p6', '1-0', false);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3,
    result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}')$$);
DELETE FROM boards WHERE white = 'p9';
CREATE TABLE entrants_twice AS SELECT * FROM entrants UNION ALL SELECT * FROM entrants WHERE id = 'p2';
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants_twice', 'boards', 3,
    result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3, forfeit_column => 'forfeit',
    result_map => '{"1-0": 1, "0-1": 0.5, "bye": "bye", "H": "half_bye"}')$$);

-- a player with two games in a round: 23514, as a second game of a round in the Random Chess tables
INSERT INTO boards VALUES (1, 'p2', 'p5', '1-0', false);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3,
    result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}')$$);
DELETE FROM boards WHERE white = 'p2';

-- Who may: the caller reads and writes with its own rights
CREATE ROLE regress_pairing_arbiter;
GRANT SELECT ON entrants TO regress_pairing_arbiter;
SET ROLE regress_pairing_arbiter;
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 3)$$);
RESET ROLE;
GRANT SELECT ON boards TO regress_pairing_arbiter;
CREATE TABLE pending (id serial, round int, white text, black text, board int, status text DEFAULT 'scheduled', note text);
GRANT SELECT ON pending TO regress_pairing_arbiter;
SET ROLE regress_pairing_arbiter;
SELECT count(*) FROM tournament_pairings_from_tables('entrants', 'boards', 3, withdrawn_column => 'withdrawn',
    result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}');
SELECT pg_temp.err($$SELECT * FROM tournament_pair_into('pending', 'entrants', 'boards', 3, withdrawn_column => 'withdrawn',
    result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}')$$);
RESET ROLE;
GRANT INSERT ON pending TO regress_pairing_arbiter;
GRANT USAGE ON SEQUENCE pending_id_seq TO regress_pairing_arbiter;
SET ROLE regress_pairing_arbiter;
-- written in the caller's transaction: gone with its rollback
BEGIN;
SELECT * FROM tournament_pair_into('pending', 'entrants', 'boards', 3, withdrawn_column => 'withdrawn',
    forfeit_column => 'forfeit', result_map => '{"1-0": 1, "0-1": 0, "bye": "bye", "H": "half_bye"}',
    pending_round_column => 'round', pending_board_column => 'board',
    pending_values => '{"note": "paired by pg_rating"}', pending_bye_values => '{"status": "bye"}');
SELECT round, white, black, board, status, note FROM pending ORDER BY board;
ROLLBACK;
SELECT count(*) FROM pending;
-- the pending table's columns are checked before anything is read or written
SELECT pg_temp.err($$SELECT * FROM tournament_pair_into('pending', 'entrants', 'boards', 3, pending_board_column => 'no_such')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pair_into('pending', 'entrants', 'boards', 3, pending_values => '{"white": "x"}')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pair_into('pending', 'entrants', 'boards', 3, pending_values => '[]')$$);
RESET ROLE;
REVOKE ALL ON entrants, boards, pending FROM regress_pairing_arbiter;
REVOKE ALL ON SEQUENCE pending_id_seq FROM regress_pairing_arbiter;
DROP ROLE regress_pairing_arbiter;
