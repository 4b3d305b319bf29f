-- The functions that write: on a hot standby each is refused with 25006 (read-only transaction).
\set VERBOSITY sqlstate
SELECT rebuild_ranking(1);
CALL recalculate_ranking(1);
SELECT rebuild_tournament_standings(1);
SELECT load_lichess_openings(E'eco\tname\tpgn\nA00\tAmar Opening\t1. Nh3\n');
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', now(), '(1-0,TIMEOUT)', '(5 minutes, 0)', 1, '1', '2', true);
SELECT ledger_rebuild('club');
INSERT INTO matches VALUES (1000, now(), 1, 2, 1);
