-- pg_rating 0.9.0 -> 0.10.0: a ledger's history may be kept by a client of the engine. A ledgers
-- row with kept_in set (the Random Chess rankings: elo_history) is written by pg_rating only, with
-- its client's settings; the readers of ledger_entries and ledger_standings refuse it (0A000)
-- rather than show it without games. No row changes.

ALTER TABLE ledgers ADD COLUMN kept_in regclass;

-- true for a ledger whose history is kept in ledger_entries (or none of that name): the readers
-- of those tables refuse a ledger kept by a client, which would read as one without games.
CREATE FUNCTION ledger_kept_here(ledger text) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    kept regclass;
BEGIN
    SELECT l.kept_in INTO kept FROM @extschema@.ledgers l WHERE l.name = ledger;
    IF kept IS NOT NULL THEN
        RAISE EXCEPTION 'ledger "%" keeps its history in %, not in ledger_entries', ledger, kept
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Read that table and its client''s views (a Random Chess ranking: elo_history, leaderboard).';
    END IF;
    RETURN true;
END
$$;

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
    PERFORM @extschema@.ledger_kept_here(ledger);
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

CREATE OR REPLACE FUNCTION ledger_rating_at(ledger text, player text, at timestamptz, scope text DEFAULT '')
RETURNS TABLE (rating float8, rd float8, games int)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT coalesce(e.rating, l.starting_rating),
       CASE WHEN l.rating_system = 'glicko2' THEN coalesce(e.rd, l.starting_rd) END,
       coalesce(e.games, 0)
FROM @extschema@.ledgers l
LEFT JOIN LATERAL (
    SELECT x.rating, x.rd, x.games FROM @extschema@.ledger_entries x
    WHERE x.ledger_id = l.id AND x.scope = ledger_rating_at.scope AND x.player = ledger_rating_at.player
      AND x.game_date <= at
    ORDER BY x.player DESC, x.game_date DESC, x.game_key DESC LIMIT 1) e ON true
WHERE l.name = ledger_rating_at.ledger AND @extschema@.ledger_kept_here(ledger_rating_at.ledger)
$$;

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
  AND @extschema@.ledger_kept_here(ledger_player_rank.ledger)
$$;

CREATE OR REPLACE FUNCTION ledger_player_type(ledger text, wanted regtype) RETURNS regtype
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
    PERFORM @extschema@.ledger_kept_here(ledger);
    RETURN wanted;
END
$$;

COMMENT ON TABLE ledgers IS
    'Rating ledgers: a rating system (elo: starting_rating, k_factor; fide: starting_rating, K by FIDE''s rules '
    'from each player''s games and peak; glicko2: starting_rating, starting_rd, starting_volatility, tau, '
    'rating_period; skemino: starting_rating), limits (max_change per game, '
    'rating_floor) and when a player is provisional. Settings are checked when written (23514); changing them '
    'rebuilds the ledger. owner may attach and change it. kept_in: NULL, or the table of a client of pg_rating '
    'that keeps the ledger''s history (a Random Chess ranking: elo_history); such a ledger is written by pg_rating '
    'only, with its client''s settings.';
COMMENT ON FUNCTION ledger_kept_here(text) IS
    'true unless the ledger keeps its history in a client''s table (kept_in), where it raises 0A000: the readers of '
    'ledger_entries and ledger_standings call it.';
COMMENT ON FUNCTION refuse_foreign_write() IS
    'Trigger of the derived tables (elo_history, ranking_players, ranking_writes, the '
    'swiss_tournament_* tables and the ledgers'' derived tables): refuses, with 42501, every write that '
    'does not come from pg_rating''s own triggers and functions.';
