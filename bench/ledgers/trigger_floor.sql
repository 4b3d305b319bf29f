-- The floor of a game's cost with two ledgers kept by a trigger (issue 33): the rows of
-- floor.sql, written by a statement trigger on the games table, as any engine that the app's own
-- INSERT must reach is (the app adds nothing to its statements). Run after floor.sql, with the
-- extension created. Two triggers, each the least such a writer can be:
--   read_write_floor: one statement that reads the players' standings and writes the entries and
--     standings from them (a rule simple enough for SQL: rating + 10 * (score - 0.5));
--   read_then_write_floor: a read of the standings, then one statement that writes, as an engine
--     that computes the ratings outside SQL must do.
--   read_then_write_floor('lock'): the same after a statement that takes each scope's lock (an
--     advisory lock per ledger here), which writers that read and then write must hold against
--     each other.
-- No settings are read: all three are lower than any real writer.

CREATE FUNCTION read_write_floor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    WITH side AS (
        SELECT v.l, v.p::text AS p, v.o::text AS o, v.s, g.id AS n, g.played_at AS at
        FROM new_games g, LATERAL (VALUES (1, g.white, g.black, g.score), (1, g.black, g.white, 1 - g.score),
                                          (2, g.white, g.black, g.score), (2, g.black, g.white, 1 - g.score))
                          v(l, p, o, s)
    ), now AS (
        SELECT side.*, coalesce(f.rating, 1500) AS before, coalesce(f.games, 0) AS games
        FROM side LEFT JOIN floor_standings f ON f.ledger_id = side.l AND f.scope = '' AND f.player = side.p
    ), entries AS (
        INSERT INTO floor_entries (ledger_id, scope, player, game_date, game_key, game, opponent, score,
                                   expected, rating_before, rating, rd_before, rd, volatility_before,
                                   volatility, games, wins, draws, losses, peak, streak, best_streak,
                                   opponents_sum, score_sum)
        SELECT l, '', p, at, lpad(n::text, 20, '0'), n::text, o, s, 0.5, before, before + 10 * (s - 0.5),
               CASE WHEN l = 2 THEN 350 END, CASE WHEN l = 2 THEN 340 END,
               CASE WHEN l = 2 THEN 0.06 END, CASE WHEN l = 2 THEN 0.06 END,
               games + 1, 0, 0, 0, 1500, 0, 0, 1500 * n, s * n
        FROM now
    )
    INSERT INTO floor_standings AS f (ledger_id, scope, player, rating, rd, volatility, games, wins,
                                      draws, losses, peak, streak, best_streak, opponents_sum,
                                      score_sum, last_game_date, last_game_key)
    SELECT l, '', p, before + 10 * (s - 0.5), CASE WHEN l = 2 THEN 340 END, CASE WHEN l = 2 THEN 0.06 END,
           games + 1, 0, 0, 0, 1500, 0, 0, 1500, s, at, lpad(n::text, 20, '0')
    FROM now
    ON CONFLICT (ledger_id, scope, player) DO UPDATE SET
        rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,
        games = excluded.games, wins = f.wins, draws = f.draws, losses = f.losses,
        peak = greatest(f.peak, excluded.rating), streak = f.streak, best_streak = f.best_streak,
        opponents_sum = f.opponents_sum + 1500, score_sum = f.score_sum + excluded.score_sum,
        last_game_date = excluded.last_game_date, last_game_key = excluded.last_game_key;
    RETURN NULL;
END $$;

CREATE FUNCTION read_then_write_floor() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ls int[]; ps text[]; os text[]; ss float8[]; ns bigint[]; ats timestamptz[]; befores float8[]; gs int[];
BEGIN
    IF TG_NARGS > 0 THEN
        PERFORM pg_advisory_xact_lock(l) FROM (VALUES (1), (2)) v(l) ORDER BY l;
    END IF;
    SELECT array_agg(side.l), array_agg(side.p), array_agg(side.o), array_agg(side.s), array_agg(side.n),
           array_agg(side.at), array_agg(coalesce(f.rating, 1500)), array_agg(coalesce(f.games, 0))
    INTO ls, ps, os, ss, ns, ats, befores, gs
    FROM (SELECT v.l, v.p::text AS p, v.o::text AS o, v.s, g.id AS n, g.played_at AS at
          FROM new_games g, LATERAL (VALUES (1, g.white, g.black, g.score), (1, g.black, g.white, 1 - g.score),
                                            (2, g.white, g.black, g.score), (2, g.black, g.white, 1 - g.score))
                            v(l, p, o, s)) side
    LEFT JOIN floor_standings f ON f.ledger_id = side.l AND f.scope = '' AND f.player = side.p;
    -- (the engine computes the new ratings here, outside SQL)
    WITH now AS (
        SELECT * FROM unnest(ls, ps, os, ss, ns, ats, befores, gs) u(l, p, o, s, n, at, before, games)
    ), entries AS (
        INSERT INTO floor_entries (ledger_id, scope, player, game_date, game_key, game, opponent, score,
                                   expected, rating_before, rating, rd_before, rd, volatility_before,
                                   volatility, games, wins, draws, losses, peak, streak, best_streak,
                                   opponents_sum, score_sum)
        SELECT l, '', p, at, lpad(n::text, 20, '0'), n::text, o, s, 0.5, before, before + 10 * (s - 0.5),
               CASE WHEN l = 2 THEN 350 END, CASE WHEN l = 2 THEN 340 END,
               CASE WHEN l = 2 THEN 0.06 END, CASE WHEN l = 2 THEN 0.06 END,
               games + 1, 0, 0, 0, 1500, 0, 0, 1500 * n, s * n
        FROM now
    )
    INSERT INTO floor_standings AS f (ledger_id, scope, player, rating, rd, volatility, games, wins,
                                      draws, losses, peak, streak, best_streak, opponents_sum,
                                      score_sum, last_game_date, last_game_key)
    SELECT l, '', p, before + 10 * (s - 0.5), CASE WHEN l = 2 THEN 340 END, CASE WHEN l = 2 THEN 0.06 END,
           games + 1, 0, 0, 0, 1500, 0, 0, 1500, s, at, lpad(n::text, 20, '0')
    FROM now
    ON CONFLICT (ledger_id, scope, player) DO UPDATE SET
        rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,
        games = excluded.games, wins = f.wins, draws = f.draws, losses = f.losses,
        peak = greatest(f.peak, excluded.rating), streak = f.streak, best_streak = f.best_streak,
        opponents_sum = f.opponents_sum + 1500, score_sum = f.score_sum + excluded.score_sum,
        last_game_date = excluded.last_game_date, last_game_key = excluded.last_game_key;
    RETURN NULL;
END $$;

