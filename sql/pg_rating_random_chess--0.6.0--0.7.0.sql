-- pg_rating_random_chess 0.6.0 -> 0.7.0: tournament_pair_round takes forbidden pairs (players who
-- must not meet). No table changes.

DROP FUNCTION tournament_pair_round(int, int, boolean);
CREATE FUNCTION tournament_pair_round(tournament_id int, round int DEFAULT NULL,
                                      baku_acceleration boolean DEFAULT false,
                                      forbidden_pairs varchar[] DEFAULT '{}')
    RETURNS TABLE (board int, white varchar, black varchar)
    STABLE PARALLEL RESTRICTED
    LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pair_round_wrapper';
ALTER FUNCTION tournament_pair_round(int, int, boolean, varchar[]) SET search_path = pg_catalog, @extschema@, pg_temp;
COMMENT ON FUNCTION tournament_pair_round(int, int, boolean, varchar[]) IS
    'The FIDE Dutch pairing (C.04.3, 2025 rules) of a tournament''s next round, without writing it: one row per board '
    '(board from 1, white and black user ids), then the pairing-allocated bye, if any, as a row with black NULL. '
    'Players are numbered in FIDE''s initial order: rating as of the start (before the first game: the current rating '
    'in the tournament''s ranking; unrated last), then display name, then user id; the top seed has White in round 1. '
    'The round paired is the one after the last round with a game or a one-point bye; players with a bye of that '
    'round are not paired. baku_acceleration: accelerated rounds by FIDE C.04.5.1 (the first 2 * ceil(n / 4) players '
    'get virtual points: 1 in the first half of the accelerated rounds, the first half of the tournament, 0.5 in the '
    'rest), the same on every call of the tournament. forbidden_pairs: user ids two by two (ARRAY[[''a'', ''b''], '
    '[''c'', ''d'']]), players who must not meet (team-mates, relatives). Errors: unknown tournament 22023, round '
    'already paired 55000, a later round 22023, every round paired 22023, a forbidden pair that is not two different '
    'players of the tournament 22023 (a NULL: 22004), no pairing that meets the absolute criteria 23514.';
