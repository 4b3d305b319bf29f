-- The players among those given who already have a game or a bye in the round of the tournament,
-- other than the game or the bye being updated (NULL: none). Read by src/tournament/rules.rs
-- (busy_players), its parameters bound by name (crate::spi::named).
SELECT p.player FROM unnest($players::text[]) p(player)
WHERE EXISTS (SELECT 1 FROM @extschema@.tournaments_games tg JOIN @extschema@.service_games g ON g.id = tg.game_id
              WHERE tg.tournament_id = $tournament AND tg.round = $round
                AND NOT (tg.tournament_id IS NOT DISTINCT FROM $game_tournament
                         AND tg.game_id IS NOT DISTINCT FROM $game)
                AND p.player IN (g.white_player, g.black_player))
   OR EXISTS (SELECT 1 FROM @extschema@.byes b WHERE b.tournament_id = $tournament AND b.round = $round
                AND b.user_id_in_service = p.player
                AND NOT (b.tournament_id IS NOT DISTINCT FROM $bye_tournament
                         AND b.round IS NOT DISTINCT FROM $bye_round
                         AND b.user_id_in_service IS NOT DISTINCT FROM $bye_player))
ORDER BY 1
