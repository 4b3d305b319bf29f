-- pg_rating 0.4.0 -> 0.5.0: a leaderboard page no longer sorts the whole scope.
--
-- ledger_standings gets an index by rating (built here: on a large ledger this takes a moment
-- and holds a SHARE lock on ledger_standings, so ledger writers wait for it); ledger_leaderboard
-- reads a page from it unless a season of the scope has ended; the RD as of now is one function,
-- ledger_rd_now, shared by ledger_standings_now and the leaderboard. No row changes.

CREATE INDEX ledger_standings_by_rating ON ledger_standings (ledger_id, scope, rating DESC, player)
    -- (every row has games; the condition keeps the index to the queries that name it, so that the
    -- writers' lookup of a player is never planned on it)
    WHERE games > 0;

CREATE FUNCTION ledger_rd_now(rating float8, rd float8, volatility float8, last_played timestamptz,
                              rating_period interval, starting_rd float8)
RETURNS float8
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN rating_period IS NULL OR rd IS NULL THEN rd
            ELSE (@extschema@.glicko2_decay(ROW(rating, rd, volatility)::@extschema@.glicko2_rating,
                    greatest(extract(epoch FROM (now() - last_played)), 0) / extract(epoch FROM rating_period),
                    starting_rd)).rd
       END
$$;

CREATE OR REPLACE VIEW ledger_standings_now AS
SELECT l.name AS ledger, s.scope, s.player,
       -- the resets of the seasons that ended since the player's last game, composed
       CASE WHEN z.keep IS NULL THEN s.rating ELSE l.starting_rating + (s.rating - l.starting_rating) * z.keep END
           AS rating,
       greatest(@extschema@.ledger_rd_now(s.rating, s.rd, s.volatility, s.last_game_date, l.rating_period,
                                          l.starting_rd),
                CASE WHEN s.rd IS NOT NULL THEN z.rd_floor END) AS rd,
       s.volatility, s.games, s.wins, s.draws, s.losses, s.peak, s.streak, s.best_streak,
       s.last_game_date AS last_played,
       (s.games < l.provisional_games OR coalesce(s.rd > l.provisional_rd, false)) AS provisional,
       s.opponents_sum / s.games AS opponents_average,
       s.opponents_sum / s.games + 400.0 * (s.wins - s.losses) / s.games AS performance
FROM @extschema@.ledger_standings s JOIN @extschema@.ledgers l ON l.id = s.ledger_id
LEFT JOIN LATERAL (
    SELECT CASE WHEN bool_or(x.rating_pull = 1) THEN 0 ELSE exp(sum(ln(nullif(1 - x.rating_pull, 0)))) END AS keep,
           max(x.rd_floor) AS rd_floor
    FROM @extschema@.ledger_seasons x
    WHERE x.ledger_id = s.ledger_id AND x.scope = s.scope AND x.ends_at > s.last_game_date AND x.ends_at <= now()
    HAVING count(*) > 0) z ON true;

CREATE OR REPLACE FUNCTION ledger_leaderboard(ledger text, scope text DEFAULT '', min_games int DEFAULT 0,
                                   max_rd float8 DEFAULT NULL, include_provisional boolean DEFAULT true,
                                   page_size int DEFAULT 50, page int DEFAULT 1)
RETURNS TABLE (rank int, player text, rating float8, rd float8, conservative float8, games int, wins int,
               draws int, losses int, peak float8, streak int, provisional boolean, last_played timestamptz)
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
DECLARE
    l @extschema@.ledgers;
    size int := greatest(page_size, 0);
    upto int := greatest(page_size, 0) * greatest(page, 1);
BEGIN
    SELECT * INTO l FROM @extschema@.ledgers x WHERE x.name = ledger_leaderboard.ledger;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF NOT EXISTS (SELECT FROM @extschema@.ledger_seasons z
                   WHERE z.ledger_id = l.id AND z.scope = ledger_leaderboard.scope AND z.ends_at <= now()) THEN
        -- No season has ended: the ratings are those stored, and a page is read in the order of
        -- ledger_standings_by_rating down to its last row (dense ranks counted from the top).
        RETURN QUERY
        SELECT (dense_rank() OVER (ORDER BY t.rating DESC))::int, t.player, t.rating, t.rd,
               t.rating - 2 * coalesce(t.rd, 0), t.games, t.wins, t.draws, t.losses, t.peak, t.streak,
               t.provisional, t.last_game_date
        FROM (SELECT s.player, s.rating, n.rd_now AS rd, s.games, s.wins, s.draws, s.losses, s.peak, s.streak,
                     (s.games < l.provisional_games OR coalesce(s.rd > l.provisional_rd, false)) AS provisional,
                     s.last_game_date
              FROM @extschema@.ledger_standings s
              CROSS JOIN LATERAL (SELECT @extschema@.ledger_rd_now(s.rating, s.rd, s.volatility, s.last_game_date,
                                                                   l.rating_period, l.starting_rd) AS rd_now) n
              WHERE s.ledger_id = l.id AND s.scope = ledger_leaderboard.scope AND s.games > 0
                AND s.games >= coalesce(min_games, 0)
                AND (max_rd IS NULL OR n.rd_now IS NULL OR n.rd_now <= max_rd)
                AND (coalesce(include_provisional, true)
                     OR NOT (s.games < l.provisional_games OR coalesce(s.rd > l.provisional_rd, false)))
              ORDER BY s.rating DESC, s.player
              LIMIT upto) t
        ORDER BY t.rating DESC, t.player
        OFFSET upto - size;
        RETURN;
    END IF;
    -- Seasons ended: each player's rating is reset by those that ended since the player's last
    -- game, which changes the order; the scope is sorted.
    RETURN QUERY
    SELECT (dense_rank() OVER (ORDER BY s.rating DESC))::int, s.player, s.rating, s.rd,
           s.rating - 2 * coalesce(s.rd, 0), s.games, s.wins, s.draws, s.losses, s.peak, s.streak, s.provisional,
           s.last_played
    FROM @extschema@.ledger_standings_now s
    WHERE s.ledger = ledger_leaderboard.ledger AND s.scope = ledger_leaderboard.scope
      AND s.games >= coalesce(min_games, 0)
      AND (max_rd IS NULL OR s.rd IS NULL OR s.rd <= max_rd)
      AND (coalesce(include_provisional, true) OR NOT s.provisional)
    ORDER BY s.rating DESC, s.player
    LIMIT size OFFSET upto - size;
END
$$;

COMMENT ON FUNCTION ledger_leaderboard(text, text, int, float8, boolean, int, int) IS
    'One page of a ledger''s standings in a scope by rating, dense-ranked, with min-games, max-RD and provisional '
    'filters; conservative = rating - 2 RD. Reads only the rows down to the page (ledger_standings_by_rating) '
    'unless a season of the scope has ended, whose resets reorder the scope.';
COMMENT ON FUNCTION ledger_rd_now(float8, float8, float8, timestamptz, interval, float8) IS
    'A player''s RD as of now: grown by one period''s volatility per rating_period since last_played (Glicko-2 '
    'with a rating period), at most starting_rd; the RD as given without a rating period or RD.';

-- SVG pictures for a web page: board_svg (a position) and ledger_rating_svg (players' ratings in a
-- ledger over time), as a fresh install creates them (pgrx's statements, sql/chess_svg.sql and
-- sql/ledger_svg.sql).
CREATE FUNCTION "board_svg"(
	"fen" TEXT,
	"last_move" TEXT DEFAULT NULL,
	"size" INT DEFAULT 360
) RETURNS TEXT
IMMUTABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'board_svg_wrapper';

CREATE FUNCTION "ledger_rating_svg"(
	"ledger" TEXT,
	"players" TEXT[],
	"scope" TEXT DEFAULT '',
	"width" INT DEFAULT 640,
	"height" INT DEFAULT 320
) RETURNS TEXT
STRICT STABLE PARALLEL SAFE
SET search_path TO pg_catalog, @extschema@, pg_temp
LANGUAGE c
AS 'MODULE_PATHNAME', 'ledger_rating_svg_wrapper';

COMMENT ON FUNCTION board_svg(text, text, int) IS
    'An SVG 1.1 picture (text to embed in a web page) of the position of a 4- or 6-field FEN, white at the bottom: '
    'light and dark squares, file and rank coordinates, the pieces as vector shapes (no font glyphs), the from- and '
    'to-squares of last_move (UCI, e.g. e2e4 or e7e8q; need not be legal) highlighted; size x size pixels. '
    'The same input gives the same bytes. NULL fen or size gives NULL. Errors: malformed FEN 22P02, last_move not '
    'naming two squares 22023, size outside 64..4096 22023.';
COMMENT ON FUNCTION ledger_rating_svg(text, text[], text, int, int) IS
    'An SVG 1.1 line chart (text to embed in a web page), width x height pixels, of each listed player''s rating in '
    'a ledger''s scope: the rating before the player''s first game, then after every game, against the game date '
    '(in the session''s time zone); axes with date and rating ticks, one colour per player in the order listed, '
    'a legend (a player without games is listed with no line). STRICT: a NULL argument gives NULL. '
    'Errors: unknown ledger 22023, width or height outside 100..4096 22023, NULL player 22004, '
    'players of more than one dimension 2202E.';

-- Typed reads: a ledger's history and standings with its players in the games table's type.
-- A ledger's players as the games table types them (bigint, int, uuid, text, ...): the history
-- and standings of the two functions below join the application's players table without casts.
-- An attached ledger checks the type asked for; a detached one has no table to check against.
CREATE FUNCTION ledger_player_type(ledger text, wanted regtype) RETURNS regtype
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    found_ledger boolean;
    actual regtype;
BEGIN
    SELECT true, a.atttypid::regtype INTO found_ledger, actual
    FROM @extschema@.ledgers l
    LEFT JOIN @extschema@.ledger_attachments t ON t.ledger_id = l.id
    LEFT JOIN pg_attribute a ON a.attrelid = t.games AND a.attname = t.white_column AND NOT a.attisdropped
    WHERE l.name = ledger_player_type.ledger;
    IF found_ledger IS NULL THEN
        RAISE EXCEPTION 'ledger "%" does not exist', ledger USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF actual IS NOT NULL AND actual <> wanted
       AND NOT (SELECT bool_and(typcategory = 'S') FROM pg_type WHERE oid IN (actual, wanted)) THEN
        RAISE EXCEPTION 'ledger "%" has players of type %, not %', ledger, actual, wanted
            USING ERRCODE = 'datatype_mismatch',
                  HINT = format('Pass NULL::%s as player_type.', actual);
    END IF;
    RETURN wanted;
END
$$;

CREATE FUNCTION ledger_history_of(ledger text, player_type anyelement)
RETURNS TABLE (scope text, player anyelement, opponent anyelement, game_date timestamptz, game text,
               score float8, expected float8, rating_before float8, rating float8, change float8, rd float8,
               games int)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    typed regtype := @extschema@.ledger_player_type(ledger, pg_typeof(player_type));
    -- a multiplayer game's entry names several opponents: there is no one opponent to type
    multiplayer boolean := EXISTS (SELECT FROM @extschema@.ledger_attachments t
                                   JOIN @extschema@.ledgers l ON l.id = t.ledger_id
                                   WHERE l.name = ledger_history_of.ledger AND t.multiplayer_rule IS NOT NULL);
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT h.scope, h.player::%1$s, CASE WHEN $2 THEN NULL ELSE h.opponent END::%1$s,
                h.game_date, h.game, h.score, h.expected, h.rating_before, h.rating, h.change, h.rd, h.games
         FROM @extschema@.ledger_history h WHERE h.ledger = $1 ORDER BY h.scope, h.player, h.game_date, h.game_key',
        typed)
    USING ledger, multiplayer;
END
$$;

CREATE FUNCTION ledger_standings_of(ledger text, player_type anyelement)
RETURNS TABLE (scope text, player anyelement, rating float8, rd float8, games int, wins int, draws int,
               losses int, peak float8, streak int, provisional boolean, last_played timestamptz)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT s.scope, s.player::%1$s, s.rating, s.rd, s.games, s.wins, s.draws, s.losses, s.peak, s.streak,
                s.provisional, s.last_played
         FROM @extschema@.ledger_standings_now s WHERE s.ledger = $1 ORDER BY s.scope, s.player',
        @extschema@.ledger_player_type(ledger, pg_typeof(player_type)))
    USING ledger;
END
$$;

COMMENT ON FUNCTION ledger_player_type(text, regtype) IS
    'The type a ledger''s players have in its games table, checked against wanted (42804 when an attached ledger''s '
    'player column has another type; text and varchar count alike); 22023 for an unknown ledger.';
COMMENT ON FUNCTION ledger_history_of(text, anyelement) IS
    'ledger_history with player and opponent in the type of player_type (e.g. NULL::bigint), to join the '
    'application''s players table without casts; opponent is NULL in a multiplayer ledger. Errors as '
    'ledger_player_type.';
COMMENT ON FUNCTION ledger_standings_of(text, anyelement) IS
    'ledger_standings_now with player in the type of player_type (e.g. NULL::uuid), to join the application''s '
    'players table without casts. Errors as ledger_player_type.';

-- Ledgers rated by FIDE's rules, game by game (K from each player's record).
ALTER TABLE ledgers DROP CONSTRAINT ledger_rating_system_known,
    ADD CONSTRAINT ledger_rating_system_known CHECK (rating_system IN ('elo', 'fide', 'glicko2', 'skemino'));
COMMENT ON TABLE ledgers IS
    'Rating ledgers: a rating system (elo: starting_rating, k_factor; fide: starting_rating, K by FIDE''s rules '
    'from each player''s games and peak; glicko2: starting_rating, starting_rd, starting_volatility, tau, '
    'rating_period; skemino: starting_rating), limits (max_change per game, '
    'rating_floor) and when a player is provisional. Settings are checked when written (23514); changing them '
    'rebuilds the ledger. owner may attach and change it.';

-- A player's rank counts the distinct ratings above it down the rating index.
CREATE OR REPLACE FUNCTION ledger_player_rank(ledger text, player text, scope text DEFAULT '')
RETURNS int
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
-- the distinct ratings above the player's, read in order down ledger_standings_by_rating
SELECT (SELECT count(*) FROM (SELECT DISTINCT o.rating FROM @extschema@.ledger_standings o
                              WHERE o.ledger_id = me.ledger_id AND o.scope = me.scope AND o.games > 0
                                AND o.rating > me.rating) above)::int + 1
FROM @extschema@.ledger_standings me JOIN @extschema@.ledgers l ON l.id = me.ledger_id
WHERE l.name = ledger_player_rank.ledger AND me.scope = ledger_player_rank.scope AND me.player = ledger_player_rank.player
$$;
