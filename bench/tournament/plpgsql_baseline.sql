-- The PL/pgSQL baseline: the two standings views written as a PL/pgSQL schema writes them, with
-- correlated subqueries recomputed on every read, and the performance rating of the original:
-- bisection on [0, 5000] of sum 1/(1 + 10^((R_opp - R)/400)) = points without byes, against the
-- opponents' *current* ratings. They read the same tables as pg_rating's views.

CREATE FUNCTION baseline_performance_rating(t int, player varchar, upto int) RETURNS numeric
LANGUAGE plpgsql STABLE AS $$
DECLARE
    opp numeric[];
    score numeric;
    lo numeric := 0;
    hi numeric := 5000;
    mid numeric;
    expected numeric;
    r numeric;
BEGIN
    SELECT array_agg(coalesce(rp.rating, k.starting_elo)),
           coalesce(sum(CASE WHEN (g.result).game_end_type = '1/2-1/2' THEN 0.5
                             WHEN (g.result).game_end_type = '1-0' AND g.white_player = player THEN 1
                             WHEN (g.result).game_end_type = '0-1' AND g.black_player = player THEN 1
                             ELSE 0 END), 0)
      INTO opp, score
    FROM tournaments_games tg
    JOIN service_games g ON g.id = tg.game_id
    JOIN swiss_tournaments s ON s.tournament_id = tg.tournament_id
    JOIN rankings k ON k.id = s.ranking_id
    LEFT JOIN ranking_players rp
      ON rp.ranking_id = s.ranking_id AND rp.service_id = 1
     AND rp.user_id_in_service = CASE WHEN g.white_player = player THEN g.black_player ELSE g.white_player END
    WHERE tg.tournament_id = t AND tg.round <= upto AND player IN (g.white_player, g.black_player);
    IF opp IS NULL THEN
        RETURN 0;
    END IF;
    FOR i IN 1..40 LOOP
        mid := (lo + hi) / 2;
        expected := 0;
        FOREACH r IN ARRAY opp LOOP
            expected := expected + 1 / (1 + power(10::numeric, (r - mid) / 400));
        END LOOP;
        IF expected < score THEN lo := mid; ELSE hi := mid; END IF;
    END LOOP;
    RETURN round((lo + hi) / 2, 2);
END $$;

CREATE VIEW baseline_players_points AS
SELECT tp.tournament_id, tp.user_id_in_service, r.round,
       (SELECT count(*) FROM tournaments_games tg JOIN service_games g ON g.id = tg.game_id
        WHERE tg.tournament_id = tp.tournament_id AND tg.round <= r.round
          AND ((g.white_player = tp.user_id_in_service AND (g.result).game_end_type = '1-0')
            OR (g.black_player = tp.user_id_in_service AND (g.result).game_end_type = '0-1')))
     + 0.5 * (SELECT count(*) FROM tournaments_games tg JOIN service_games g ON g.id = tg.game_id
              WHERE tg.tournament_id = tp.tournament_id AND tg.round <= r.round
                AND tp.user_id_in_service IN (g.white_player, g.black_player)
                AND (g.result).game_end_type = '1/2-1/2')
     + (SELECT count(*) FROM byes b
        WHERE b.tournament_id = tp.tournament_id AND b.round <= r.round
          AND b.user_id_in_service = tp.user_id_in_service) AS points,
       baseline_performance_rating(tp.tournament_id, tp.user_id_in_service, r.round) AS performance_rating
FROM tournaments_players tp
JOIN (SELECT DISTINCT tournament_id, round FROM tournaments_games) r ON r.tournament_id = tp.tournament_id;

CREATE VIEW baseline_round_standings AS
SELECT (row_number() OVER (PARTITION BY tournament_id, round ORDER BY points DESC, performance_rating DESC))::int AS place,
       points, performance_rating, user_id_in_service, tournament_id, round
FROM baseline_players_points;
