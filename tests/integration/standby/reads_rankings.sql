-- Every read function and view of pg_rating (except the tournaments': reads_tournaments.sql),
-- with output that does not depend on the server: run on the primary and on a hot standby.
SELECT generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{e2e4,e7e5}');
SELECT moves_to_san('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{e2e4,e7e5}');
SELECT san_to_moves('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{e4,e5}');
SELECT game_no, moves, game_result FROM read_pgn('1. e4 e5 2. Nf3 1-0');
SELECT game_to_pgn('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{e2e4}', '(1-0,RESIGNATION)');
SELECT opening_partial_fen('1. d4 d5 2. c4');
SELECT * FROM detect_opening(generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{d2d4}'));
SELECT game_score('(1-0,CHECKMATE)'), clock_base_time('(5 minutes, 2 seconds)', 60),
       game_result_is_valid('1-0', 'CHECKMATE');
SELECT elo_expected(1500, 1400), elo_update(1500, 1400, 1, 20);
SELECT fide_expected(1500, 1400), fide_k_factor(2100, 100, 19), fide_rating_change(2000, 20, '{1900}', '{1}'),
       fide_tpr('{1500,1700}', 1), fide_ptp('{2000}', 0.5);
SELECT skemino_k(1613, 1609), skemino_expected(1613, 1609), skemino_update(1000, 1000, 1), skemino_level(1613);
SELECT glicko2_update('(1500,200,0.06)', '{"(1400,30,0.06)"}', '{1}'),
       glicko2_game('(1500,350,0.06)', '(1500,350,0.06)', 1, 0.75),
       glicko2_decay('(1700,60,0.06)', 0.5), glicko2_expected('(1400,80,0.06)', '(1500,150,0.06)'),
       glicko2_conservative('(1500,350,0.06)'), glicko2_provisional('(1500,110,0.06)');
SELECT glicko2_multiplayer(array_fill('(1500,350,0.06)'::glicko2_rating, ARRAY[4]), '{1,2,2,4}');
SELECT * FROM glicko2_rate_period('{1,2}', '{"(1500,200,0.06)","(1400,30,0.06)"}', '{1}', '{2}', '{1}') ORDER BY 1;
SELECT glicko2_period('(1500,200,0.06)'::glicko2_rating, o, s) FROM (VALUES ('(1400,30,0.06)'::glicko2_rating, 1::float8)) v(o, s);
SELECT performance_rating('{1800}', 0.5), tournament_tie_break_order('bh-c1, sb');
SELECT count(*), max(id) FROM games;
SELECT * FROM users_games ORDER BY user_id, kind, game_id;
SELECT * FROM games_rankings ORDER BY 1, 2;
SELECT * FROM games_openings ORDER BY 1, 2;
SELECT * FROM current_ranking ORDER BY 1, 2, 3;
SELECT * FROM ranking_at_timestamp('2024-01-02') ORDER BY 1, 2, 3;
SELECT * FROM ranking_with_placement_at_timestamp('2024-01-03', 1);
SELECT * FROM rating_changes ORDER BY elo_history_id;
SELECT * FROM leaderboard ORDER BY ranking_id, rank, user_id_in_service;
SELECT * FROM ranking_leaderboard(3, min_games => 2);
SELECT player_rank(1, '1'), player_rank(3, '2', max_rd => 400);
SELECT * FROM elo_history ORDER BY id;
SELECT * FROM ranking_players ORDER BY 1, 2, 3;
SELECT * FROM ledger_history ORDER BY ledger, scope, player, game_date, sort_key;
SELECT ledger, scope, player, rating, games, provisional, opponents_average, performance
FROM ledger_standings_now ORDER BY 1, 2, 3;
SELECT rank, player, rating, games FROM ledger_leaderboard('club');
SELECT * FROM ledger_rating_at('club', '1', '2024-01-02');
SELECT ledger_player_rank('club', '1'), ledger_player_rank('club', '1', min_games => 2);
SELECT * FROM ledger_player_history('club', '1'::text, last_games => 2);
-- (not the RD: it grows as of now)
SELECT scope, player, rating, games, provisional, last_played FROM ledger_player_standing('club', '1'::text);
SELECT * FROM ledger_prediction_quality('club', period => '1 day');
SELECT * FROM ledger_what_if('club', taus => '{0.3, 1.2}');
