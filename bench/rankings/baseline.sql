-- The baseline: the Elo trigger of a PL/pgSQL schema written the straightforward way. Each
-- new game looks up both players' latest ratings in a view over the whole history, then
-- inserts the two new entries, for every ranking the game counts in.
CREATE SCHEMA baseline;
CREATE TABLE baseline.elo_history (
    id                 serial PRIMARY KEY,
    service_id         int NOT NULL DEFAULT 1,
    user_id_in_service varchar NOT NULL,
    ranking_id         int NOT NULL,
    game_id            int NOT NULL,
    elo                numeric NOT NULL,
    previous_entry     int
);

-- Every player's latest rating in every ranking, from the whole history.
CREATE VIEW baseline.latest_elo AS
SELECT DISTINCT ON (h.user_id_in_service, h.ranking_id) h.user_id_in_service, h.ranking_id, h.elo, h.id
FROM baseline.elo_history h
JOIN service_games g ON g.id = h.game_id
ORDER BY h.user_id_in_service, h.ranking_id, g.creation_date DESC, g.id DESC;

CREATE FUNCTION baseline.update_ranking_after_game() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    white_elo numeric; black_elo numeric;
    white_prev int; black_prev int;
    q_white numeric; q_black numeric;
    e_white numeric; s_white numeric;
BEGIN
    IF NEW.service_id <> 1 OR NOT NEW.is_ranked OR NEW.clock IS NULL THEN
        RETURN NULL;
    END IF;
    s_white := CASE (NEW.result).game_end_type WHEN '1-0' THEN 1 WHEN '0-1' THEN 0 ELSE 0.5 END;
    FOR r IN
        SELECT rk.* FROM rankings rk
        WHERE (NEW.clock).starting_time + rk.extra_move_multiplier * (NEW.clock).move_increase >= rk.playtime_min
          AND (rk.playtime_max IS NULL
               OR (NEW.clock).starting_time + rk.extra_move_multiplier * (NEW.clock).move_increase < rk.playtime_max)
          AND (rk.include_bots OR NOT EXISTS (
                  SELECT 1 FROM service_accounts a
                  WHERE a.service_id = 1 AND a.user_id_in_service IN (NEW.white_player, NEW.black_player) AND a.is_bot))
    LOOP
        SELECT l.elo, l.id INTO white_elo, white_prev FROM baseline.latest_elo l
        WHERE l.user_id_in_service = NEW.white_player AND l.ranking_id = r.id;
        IF NOT FOUND THEN white_elo := r.starting_elo; white_prev := NULL; END IF;
        SELECT l.elo, l.id INTO black_elo, black_prev FROM baseline.latest_elo l
        WHERE l.user_id_in_service = NEW.black_player AND l.ranking_id = r.id;
        IF NOT FOUND THEN black_elo := r.starting_elo; black_prev := NULL; END IF;
        q_white := power(10::numeric, white_elo / 400);
        q_black := power(10::numeric, black_elo / 400);
        e_white := q_white / (q_white + q_black);
        INSERT INTO baseline.elo_history (user_id_in_service, ranking_id, game_id, elo, previous_entry)
        VALUES (NEW.white_player, r.id, NEW.id, white_elo + r.k_factor * (s_white - e_white), white_prev),
               (NEW.black_player, r.id, NEW.id, black_elo + r.k_factor * ((1 - s_white) - (1 - e_white)), black_prev);
    END LOOP;
    RETURN NULL;
END $$;

CREATE TRIGGER update_rankings_on_game_insert
    AFTER INSERT ON service_games
    FOR EACH ROW EXECUTE FUNCTION baseline.update_ranking_after_game();
