-- tournament_pairings_from_trf: the next round of a Swiss tournament by the FIDE Dutch system (or Burstein)
-- (src/tournament/pairing.rs, pg_rating_core::tournament::pairing).

COMMENT ON FUNCTION tournament_pairings_from_trf(text, int[], text) IS
    'The pairing of the round after the rounds in a TRF-16 text by the FIDE Dutch system (C.04.3, 2025 rules), or '
    'by the Burstein system (C.04.4.2, as bbpPairings v6.0.0 reads it) when system is ''burstein'': '
    'one row per board (board from 1, white and black by starting rank), then the pairing-allocated bye, if any, '
    'as a row with black NULL. The round paired is the one after the last round with a game, a forfeit or a '
    'pairing-allocated bye; players whose line already has an entry for it (a requested bye, 0000 - Z for an '
    'absence) are not paired. XXR gives the number of rounds, XXC white1/black1 the top seed''s colour in round 1 '
    '(without XXC: the colour the file''s first round with a colour shows, else white1); accelerated rounds from XXA lines (virtual points per round) or, without them, a '
    '192 FIDE_DUTCH_BAKU line (Baku acceleration, FIDE C.04.5.1), as bbpPairings reads them; without either, the '
    'Burstein system accelerates rounds 1 and 2 (one virtual point for the upper half). Nothing is '
    'written. forbidden_pairs: starting ranks two by two (ARRAY[[1, 5], [2, 7]]), players who must not meet. '
    'Errors: malformed TRF 22023, every round paired 22023, a forbidden pair that is not two different players of '
    'the file 22023 (a NULL: 22004), a system other than dutch or burstein 22023, no pairing that meets the '
    'absolute criteria 23514.';

-- tournament_pairings_from_tables, tournament_pair_into: the next round of an application's own
-- tables of players and games, read by column name with the caller's rights (issue 34;
-- src/tournament/pairing_tables.rs, pg_rating_core::tournament::pairing::RowTournament).
CREATE FUNCTION tournament_pairings_from_tables(
    players regclass, games regclass, rounds integer, round integer DEFAULT NULL,
    player_column text DEFAULT 'id', rating_column text DEFAULT 'rating', name_column text DEFAULT NULL,
    initial_order_column text DEFAULT NULL, withdrawn_column text DEFAULT NULL,
    round_column text DEFAULT 'round', white_column text DEFAULT 'white', black_column text DEFAULT 'black',
    result_column text DEFAULT 'result', forfeit_column text DEFAULT NULL, result_map jsonb DEFAULT NULL,
    tournament_column text DEFAULT NULL, tournament text DEFAULT NULL,
    forbidden_pairs text[] DEFAULT '{}', baku_acceleration boolean DEFAULT false,
    first_colour_white boolean DEFAULT NULL, system text DEFAULT 'dutch', virtual_points jsonb DEFAULT NULL)
RETURNS TABLE (board integer, white text, black text)
STABLE PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp
LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pairings_from_tables_wrapper';

CREATE FUNCTION tournament_pair_into(
    pending regclass, players regclass, games regclass, rounds integer, round integer DEFAULT NULL,
    player_column text DEFAULT 'id', rating_column text DEFAULT 'rating', name_column text DEFAULT NULL,
    initial_order_column text DEFAULT NULL, withdrawn_column text DEFAULT NULL,
    round_column text DEFAULT 'round', white_column text DEFAULT 'white', black_column text DEFAULT 'black',
    result_column text DEFAULT 'result', forfeit_column text DEFAULT NULL, result_map jsonb DEFAULT NULL,
    tournament_column text DEFAULT NULL, tournament text DEFAULT NULL,
    forbidden_pairs text[] DEFAULT '{}', baku_acceleration boolean DEFAULT false,
    first_colour_white boolean DEFAULT NULL,
    pending_white_column text DEFAULT 'white', pending_black_column text DEFAULT 'black',
    pending_round_column text DEFAULT NULL, pending_board_column text DEFAULT NULL,
    pending_values jsonb DEFAULT '{}', pending_bye_values jsonb DEFAULT '{}', system text DEFAULT 'dutch',
    virtual_points jsonb DEFAULT NULL)
RETURNS TABLE (board integer, white text, black text)
VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pair_into_wrapper';

COMMENT ON FUNCTION tournament_pairings_from_tables(regclass, regclass, integer, integer, text, text, text, text,
                                                    text, text, text, text, text, text, jsonb, text, text, text[],
                                                    boolean, boolean, text, jsonb) IS
    'The pairing of the next round of an application''s own tables by the FIDE Dutch system (C.04.3, 2025 rules), '
    'or by the Burstein system (C.04.4.2, as bbpPairings reads it) when system is ''burstein'', '
    'as tournament_pairings_from_trf pairs a TRF: players (player_column, rating_column, optional name_column, '
    'initial_order_column, withdrawn_column) and games (round_column, white_column, black_column, result_column, '
    'optional forfeit_column; a row without Black is a bye) read by column name with the caller''s rights, '
    'restricted to the rows whose tournament_column equals tournament when given. Results 1-0, 0-1, 1/2-1/2, '
    '+-, -+ (forfeits), bye, NULL (no result yet), or what result_map says a value means. Players in FIDE''s '
    'initial order (rating, then name, then id) unless initial_order_column gives it. first_colour_white: the top '
    'seed''s colour in round 1 (C.04.3 5.2.5, true White, false Black; NULL: the colour the stored rounds show, '
    'as a TRF without XXC, else White). virtual_points: accelerated rounds (C.04.5) as XXA lines give them, a JSON '
    'object of player ids and their virtual points per round from round 1 ({"a": [1, 1, 0.5]}; not with '
    'baku_acceleration). One row per board (white '
    'and black are the application''s ids as text), then the pairing-allocated bye with black NULL. Errors: '
    'a missing column 42703, a column of the wrong type 42804, a NULL argument 22004, a player id twice, a game '
    'naming no player, a round outside 1..rounds, round not the next round 22023, round already paired or a game '
    'without result 55000, two games of a player in a round 23514, no valid pairing 23514, no SELECT privilege '
    '42501, a system other than dutch or burstein 22023, virtual_points not an object of arrays of whole or half '
    'points from 0 to 1000, naming no player, longer than the rounds, or with baku_acceleration '
    '22023.';
COMMENT ON FUNCTION tournament_pair_into(regclass, regclass, regclass, integer, integer, text, text, text, text,
                                         text, text, text, text, text, text, jsonb, text, text, text[], boolean,
                                         boolean, text, text, text, text, jsonb, jsonb, text, jsonb) IS
    'tournament_pairings_from_tables, and its rows inserted into the table pending (as the caller, in the '
    'caller''s transaction): pending_white_column and pending_black_column get the ids (black NULL for the bye), '
    'pending_round_column the round and pending_board_column the board when given, and every row the values of '
    'pending_values (the bye''s row also those of pending_bye_values), a JSON object of column names. Returns the '
    'pairing. Errors as tournament_pairings_from_tables, and those of the INSERT (42501 without its privilege).';
