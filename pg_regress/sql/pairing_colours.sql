-- Pairing colours and points (issue 34). The initial colour (FIDE C.04.3 5.2.5): the top seed's colour in round 1 is drawn by
-- lot. Every pairing function takes it as first_colour_white (true White, false Black); NULL (the
-- default) is the colour the stored rounds show, else White, as bbpPairings reads a TRF without
-- XXC. Each pairing is compared with tournament_pairings_from_trf (equal to bbpPairings on
-- thousands of rounds) on the same tournament written as TRF-16, with XXC white1, black1 or none.
-- Virtual points (C.04.5, accelerated rounds): virtual_points by player id on the functions that
-- read tables, compared with the same TRF with XXA lines.
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- An application's tables: eight players, rated apart (starting rank = rating order)
CREATE TABLE entrants (id text PRIMARY KEY, rating int, name text);
CREATE TABLE boards (round int, white text, black text, result text);
INSERT INTO entrants SELECT 'p' || i, 2500 - 100 * i, chr(64 + i) FROM generate_series(1, 8) i;
CREATE FUNCTION pg_temp.ranks() RETURNS TABLE (id text, rank bigint, rating int, name text) LANGUAGE sql AS $$
  SELECT e.id, row_number() OVER (ORDER BY e.rating DESC), e.rating, e.name FROM entrants e
$$;
-- the tables as TRF-16 (then the XXC line xxc, if any)
CREATE FUNCTION pg_temp.trf(xxc text) RETURNS text LANGUAGE sql AS $$
  WITH r AS (SELECT * FROM pg_temp.ranks()),
  entries AS (
    SELECT g.round, w.id AS player,
           CASE WHEN g.black IS NULL THEN '0000 - U'
                ELSE lpad(b.rank::text, 4) || ' w ' ||
                     CASE g.result WHEN '1-0' THEN '1' WHEN '0-1' THEN '0' WHEN '1/2-1/2' THEN '='
                                   WHEN '+-' THEN '+' WHEN '-+' THEN '-' END
           END AS entry
    FROM boards g JOIN r w ON w.id = g.white LEFT JOIN r b ON b.id = g.black
    UNION ALL
    SELECT g.round, b.id,
           lpad(w.rank::text, 4) || ' b ' ||
           CASE g.result WHEN '1-0' THEN '0' WHEN '0-1' THEN '1' WHEN '1/2-1/2' THEN '='
                         WHEN '+-' THEN '-' WHEN '-+' THEN '+' END
    FROM boards g JOIN r w ON w.id = g.white JOIN r b ON b.id = g.black)
  SELECT string_agg(line, E'\n' ORDER BY rank) || E'\nXXR 4' || coalesce(E'\n' || xxc, '')
  FROM (SELECT r.rank,
               format('001 %s      %s %s%s%s', lpad(r.rank::text, 4), rpad(r.name, 33), lpad(r.rating::text, 4),
                      repeat(' ', 39), coalesce(string_agg(e.entry, '  ' ORDER BY e.round), '')) AS line
        FROM r LEFT JOIN entries e ON e.player = r.id GROUP BY r.rank, r.name, r.rating) l
$$;
-- a pairing as text: "white-black" by board, the bye as "white-"
CREATE FUNCTION pg_temp.from_tables(fcw boolean, vp jsonb DEFAULT NULL, sys text DEFAULT 'dutch',
                                    baku boolean DEFAULT false) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(white || '-' || coalesce(black, ''), ' ' ORDER BY board)
  FROM tournament_pairings_from_tables('entrants', 'boards', 4, first_colour_white => fcw, virtual_points => vp,
                                       system => sys, baku_acceleration => baku)
$$;
CREATE FUNCTION pg_temp.from_trf(xxc text, sys text DEFAULT 'dutch') RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(w.id || '-' || coalesce(b.id, ''), ' ' ORDER BY f.board)
  FROM tournament_pairings_from_trf(pg_temp.trf(xxc), system => sys) f
  JOIN pg_temp.ranks() w ON w.rank = f.white LEFT JOIN pg_temp.ranks() b ON b.rank = f.black
$$;

-- Round 1: the lot gave the top seed Black. Given, it pairs as XXC black1; not given, the top
-- seed White as XXC white1 and a file without XXC
SELECT pg_temp.from_tables(false) AS black1, pg_temp.from_tables(NULL) AS "null", pg_temp.from_tables(true) AS white1;
SELECT pg_temp.from_tables(false) = pg_temp.from_trf('XXC black1') AS black1_as_trf,
       pg_temp.from_tables(NULL) = pg_temp.from_trf(NULL) AS null_as_trf,
       pg_temp.from_tables(true) = pg_temp.from_trf('XXC white1') AS white1_as_trf;
-- round 1 as paired with Black for the top seed; the top two win by forfeit (a forfeit is no game
-- for colours: p1 and p2 have no colour history, so 5.2.5 colours them again in round 2)
INSERT INTO boards VALUES (1, 'p5', 'p1', '-+'), (1, 'p2', 'p6', '+-'), (1, 'p7', 'p3', '1-0'), (1, 'p4', 'p8', '1/2-1/2');
-- Round 2: NULL reads Black from round 1, as bbpPairings reads the file without XXC; the same as
-- XXC black1. true (White, given against round 1) pairs as XXC white1, and differently.
SELECT pg_temp.from_tables(NULL) AS "null", pg_temp.from_tables(false) AS black1, pg_temp.from_tables(true) AS white1;
SELECT pg_temp.from_tables(NULL) = pg_temp.from_trf(NULL) AS null_as_trf,
       pg_temp.from_trf(NULL) = pg_temp.from_trf('XXC black1') AS trf_shows_black1,
       pg_temp.from_tables(false) = pg_temp.from_trf('XXC black1') AS black1_as_trf,
       pg_temp.from_tables(true) = pg_temp.from_trf('XXC white1') AS white1_as_trf,
       pg_temp.from_tables(true) <> pg_temp.from_tables(NULL) AS the_colour_matters;
-- tournament_pair_into takes it the same way: round 2 written as NULL pairs it
CREATE TABLE pending (white text, black text, round int);
SELECT string_agg(white || '-' || coalesce(black, ''), ' ' ORDER BY board) = pg_temp.from_tables(NULL) AS into_as_tables
FROM tournament_pair_into('pending', 'entrants', 'boards', 4, pending_round_column => 'round');
SELECT count(*) FROM pending WHERE round = 2;
-- Round 2 again, after another round 1 where the top seed had the pairing-allocated bye (no
-- colour): the count passes to p2, the highest player paired, even among the paired; White for p2
-- shows Black for the top seed
DELETE FROM boards;
INSERT INTO entrants VALUES ('p9', 1500, 'I');
INSERT INTO boards VALUES (1, 'p1', NULL, 'bye'), (1, 'p2', 'p6', '+-'), (1, 'p7', 'p3', '-+'),
                          (1, 'p4', 'p8', '1/2-1/2'), (1, 'p9', 'p5', '0-1');
SELECT pg_temp.from_tables(NULL) = pg_temp.from_trf(NULL) AS null_as_trf,
       pg_temp.from_trf(NULL) = pg_temp.from_trf('XXC black1') AS trf_shows_black1,
       pg_temp.from_tables(true) = pg_temp.from_trf('XXC white1') AS white1_as_trf,
       pg_temp.from_tables(true) <> pg_temp.from_tables(NULL) AS the_colour_matters;

-- Virtual points: XXA lines of the same points by starting rank (columns 5-8, then a field of 4
-- columns per round from column 10, every 5 columns)
CREATE FUNCTION pg_temp.xxa(vp jsonb) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(format('XXA %s %s', lpad(r.rank::text, 4),
                           (SELECT coalesce(string_agg(lpad(to_char(x::numeric, 'FM990.0'), 4), ' ' ORDER BY n), '')
                            FROM jsonb_array_elements_text(e.value) WITH ORDINALITY AS a(x, n))), E'\n' ORDER BY r.rank)
  FROM jsonb_each(vp) e JOIN pg_temp.ranks() r ON r.id = e.key
$$;
DELETE FROM boards;
DELETE FROM entrants WHERE id = 'p9';
-- Round 1, the top four a point ahead in round 1 and half a point in round 2: the Baku
-- acceleration of eight players in four rounds (C.04.5.1), given as points
SELECT pg_temp.xxa('{"p1": [1, 0.5], "p2": [1, 0.5], "p3": [1, 0.5], "p4": [1, 0.5]}');
SELECT pg_temp.from_tables(NULL, '{"p1": [1, 0.5], "p2": [1, 0.5], "p3": [1, 0.5], "p4": [1, 0.5]}') AS given,
       pg_temp.from_tables(NULL) AS without;
SELECT pg_temp.from_tables(NULL, '{"p1": [1, 0.5], "p2": [1, 0.5], "p3": [1, 0.5], "p4": [1, 0.5]}')
       = pg_temp.from_trf(pg_temp.xxa('{"p1": [1, 0.5], "p2": [1, 0.5], "p3": [1, 0.5], "p4": [1, 0.5]}')) AS as_trf,
       pg_temp.from_tables(NULL, '{"p1": [1, 0.5], "p2": [1, 0.5], "p3": [1, 0.5], "p4": [1, 0.5]}')
       = pg_temp.from_tables(NULL, baku => true) AS as_baku;
-- round 1 played; round 2 with other points (a player listed without points has none)
INSERT INTO boards VALUES (1, 'p1', 'p3', '1-0'), (1, 'p4', 'p2', '1/2-1/2'), (1, 'p5', 'p7', '0-1'), (1, 'p8', 'p6', '-+');
SELECT pg_temp.from_tables(NULL, '{"p5": [0, 1], "p6": [0, 1.5], "p8": []}') AS given, pg_temp.from_tables(NULL) AS without;
SELECT pg_temp.from_tables(NULL, '{"p5": [0, 1], "p6": [0, 1.5], "p8": []}')
       = pg_temp.from_trf(pg_temp.xxa('{"p5": [0, 1], "p6": [0, 1.5], "p8": []}')) AS as_trf;
-- the Burstein system accelerates rounds 1 and 2 itself without virtual points, as a TRF without XXA;
-- virtual points (even a player listed without points, as an XXA line of zeros) replace that
DELETE FROM boards;
SELECT pg_temp.from_tables(NULL, NULL, 'burstein') AS own, pg_temp.from_tables(NULL, '{"p1": []}', 'burstein') AS none;
SELECT pg_temp.from_tables(NULL, NULL, 'burstein') = pg_temp.from_trf(NULL, 'burstein') AS own_as_trf,
       pg_temp.from_tables(NULL, '{"p1": []}', 'burstein') = pg_temp.from_trf('XXA    1', 'burstein') AS none_as_trf,
       pg_temp.from_tables(NULL, '{"p1": [0.5, 0.5], "p2": [0.5]}', 'burstein')
       = pg_temp.from_trf(pg_temp.xxa('{"p1": [0.5, 0.5], "p2": [0.5]}'), 'burstein') AS given_as_trf;
-- a bad value: 22023 (jsonb keeps one of a key given twice)
SELECT pg_temp.err(format($$SELECT pg_temp.from_tables(NULL, %L)$$, v)) FROM unnest(ARRAY[
  '[1, 0.5]', '"p1"', 'null', '{"p1": 1}', '{"p1": [null]}', '{"p1": ["1"]}', '{"p1": [0.3]}', '{"p1": [-0.5]}',
  '{"p1": [1001]}', '{"p1": [1e400]}', '{"p1": [1, 1, 1, 1, 1]}', '{"p0": [1]}']) v;
SELECT pg_temp.err($$SELECT pg_temp.from_tables(NULL, '{"p1": [1]}', baku => true)$$);
-- {} gives none, as NULL
SELECT pg_temp.from_tables(NULL, '{}') = pg_temp.from_tables(NULL) AS empty;

-- A Random Chess tournament: tournament_pair_round takes it too (user ids)
INSERT INTO users (email, password_hash) SELECT chr(96 + i) || '@example.com', 'h' FROM generate_series(1, 7) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Blitz', '3 minutes', '10 minutes', 60, 1600, false, 200);
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 1, '(5 minutes, 0)');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) SELECT 1, id::text FROM users;
-- the tournament as TRF (tournament_trf writes no XXC), then the XXC line xxc, if any; the
-- pairing of the file mapped back to user ids by the names (display names) of its player lines
CREATE FUNCTION pg_temp.rc_ranks() RETURNS TABLE (rank int, id varchar) LANGUAGE sql AS $$
  SELECT substr(l, 5, 4)::int, a.user_id_in_service
  FROM regexp_split_to_table(tournament_trf(1), E'\n') l
  JOIN service_accounts a ON a.display_name = trim(substr(l, 15, 33))
  WHERE l LIKE '001%'
$$;
CREATE FUNCTION pg_temp.rc_from_trf(xxc text) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(w.id || '-' || coalesce(b.id, ''), ' ' ORDER BY f.board)
  FROM tournament_pairings_from_trf(tournament_trf(1) || coalesce(E'\n' || xxc, '')) f
  JOIN pg_temp.rc_ranks() w ON w.rank = f.white LEFT JOIN pg_temp.rc_ranks() b ON b.rank = f.black
$$;
CREATE FUNCTION pg_temp.rc(fcw boolean, vp jsonb DEFAULT NULL) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(white || '-' || coalesce(black, ''), ' ' ORDER BY board)
  FROM tournament_pair_round(1, first_colour_white => fcw, virtual_points => vp)
$$;
CREATE FUNCTION pg_temp.rc_xxa(vp jsonb) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(format('XXA %s %s', lpad(r.rank::text, 4),
                           (SELECT coalesce(string_agg(lpad(to_char(x::numeric, 'FM990.0'), 4), ' ' ORDER BY n), '')
                            FROM jsonb_array_elements_text(e.value) WITH ORDINALITY AS a(x, n))), E'\n' ORDER BY r.rank)
  FROM jsonb_each(vp) e JOIN pg_temp.rc_ranks() r ON r.id = e.key
$$;
-- round 1: given Black, as XXC black1; not given, White
SELECT pg_temp.rc(false) AS black1, pg_temp.rc(NULL) AS "null", pg_temp.rc(true) AS white1;
SELECT pg_temp.rc(false) = pg_temp.rc_from_trf('XXC black1') AS black1_as_trf,
       pg_temp.rc(NULL) = pg_temp.rc_from_trf(NULL) AS null_as_trf,
       pg_temp.rc(NULL) = pg_temp.rc(true) AS null_is_white;
-- round 1 played as paired with Black for the top seed: the top two win by forfeit (board 1's
-- White and board 2's Black never came: ABANDONMENT without moves), board 3 played; the last
-- player's bye. Users 1 and 2 have no colour history: 5.2.5 colours them again in round 2
CREATE FUNCTION pg_temp.play_round_one() RETURNS int LANGUAGE plpgsql AS $$
DECLARE p record; g int; n int := 0;
BEGIN
  FOR p IN SELECT * FROM tournament_pair_round(1, first_colour_white => false) LOOP
    n := n + 1;
    IF p.black IS NULL THEN
      INSERT INTO byes VALUES (1, 1, p.white);
      CONTINUE;
    END IF;
    INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
    VALUES ((CASE WHEN n <= 2 THEN '{}' ELSE '{e2e4}' END)::varchar[],
            '2024-02-01 10:00+00'::timestamptz + n * interval '1 minute',
            (CASE n WHEN 1 THEN '(0-1,ABANDONMENT)' WHEN 2 THEN '(1-0,ABANDONMENT)' ELSE '(1-0,CHECKMATE)' END)::game_result,
            '(5 minutes, 0)', 1, p.white, p.black, true)
    RETURNING id INTO g;
    INSERT INTO tournaments_games VALUES (1, g, 1);
  END LOOP;
  RETURN n;
END $$;
SELECT pg_temp.play_round_one();
-- the TRF shows the forfeits (+ -) with the colours the pairing gave
SELECT substr(l, 1, 8) || substr(l, 92) AS line FROM regexp_split_to_table(tournament_trf(1), E'\n') l
WHERE l LIKE '001%' ORDER BY l;
-- round 2: NULL reads Black from round 1 (as the file without XXC, and as XXC black1); true pairs
-- as XXC white1, and differently
SELECT pg_temp.rc(NULL) AS "null", pg_temp.rc(true) AS white1;
SELECT pg_temp.rc(NULL) = pg_temp.rc_from_trf(NULL) AS null_as_trf,
       pg_temp.rc_from_trf(NULL) = pg_temp.rc_from_trf('XXC black1') AS trf_shows_black1,
       pg_temp.rc(false) = pg_temp.rc(NULL) AS black1_as_null,
       pg_temp.rc(true) = pg_temp.rc_from_trf('XXC white1') AS white1_as_trf,
       pg_temp.rc(true) <> pg_temp.rc(NULL) AS the_colour_matters;
-- virtual points by user id, as XXA lines of the TRF (and with the drawn colour, as XXC)
SELECT pg_temp.rc(NULL, '{"3": [0, 1], "4": [0, 1], "5": [0, 0.5]}') AS given;
SELECT pg_temp.rc(NULL, '{"3": [0, 1], "4": [0, 1], "5": [0, 0.5]}')
       = pg_temp.rc_from_trf(pg_temp.rc_xxa('{"3": [0, 1], "4": [0, 1], "5": [0, 0.5]}')) AS as_trf,
       pg_temp.rc(NULL, '{"3": [0, 1], "4": [0, 1], "5": [0, 0.5]}') <> pg_temp.rc(NULL) AS the_points_matter,
       pg_temp.rc(true, '{"3": [0, 1], "4": [0, 1], "5": [0, 0.5]}')
       = pg_temp.rc_from_trf(pg_temp.rc_xxa('{"3": [0, 1], "4": [0, 1], "5": [0, 0.5]}') || E'\nXXC white1') AS white1_as_trf;
SELECT pg_temp.err(format($$SELECT pg_temp.rc(NULL, %L)$$, v)) FROM unnest(ARRAY[
  '[]', '{"99": [1]}', '{"3": [0.25]}', '{"3": [1, 1, 1, 1]}']) v;
SELECT pg_temp.err($$SELECT * FROM tournament_pair_round(1, baku_acceleration => true, virtual_points => '{"3": [1]}')$$);

-- the functions' arguments: first_colour_white and virtual_points, NULL by default, on every function that reads tables
SELECT p.proname, pg_catalog.pg_get_function_arguments(p.oid) ~ 'first_colour_white boolean DEFAULT NULL::boolean' AS colour,
       pg_catalog.pg_get_function_arguments(p.oid) ~ 'virtual_points jsonb DEFAULT NULL::jsonb' AS points
FROM pg_proc p WHERE p.proname IN ('tournament_pair_round', 'tournament_pairings_from_tables', 'tournament_pair_into')
ORDER BY 1;
