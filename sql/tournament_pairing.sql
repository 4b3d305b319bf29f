-- tournament_pairings_from_trf: the next round of a Swiss tournament by the FIDE Dutch system
-- (src/tournament/pairing.rs, pg_rating_core::tournament::pairing).

COMMENT ON FUNCTION tournament_pairings_from_trf(text, int[]) IS
    'The pairing of the round after the rounds in a TRF-16 text by the FIDE Dutch system (C.04.3, 2025 rules): '
    'one row per board (board from 1, white and black by starting rank), then the pairing-allocated bye, if any, '
    'as a row with black NULL. The round paired is the one after the last round with a game, a forfeit or a '
    'pairing-allocated bye; players whose line already has an entry for it (a requested bye, 0000 - Z for an '
    'absence) are not paired. XXR gives the number of rounds, XXC white1/black1 the top seed''s colour in round 1 '
    '(default white1); accelerated rounds from XXA lines (virtual points per round) or, without them, a '
    '192 FIDE_DUTCH_BAKU line (Baku acceleration, FIDE C.04.5.1), as bbpPairings reads them. Nothing is '
    'written. forbidden_pairs: starting ranks two by two (ARRAY[[1, 5], [2, 7]]), players who must not meet. '
    'Errors: malformed TRF 22023, every round paired 22023, a forbidden pair that is not two different players of '
    'the file 22023 (a NULL: 22004), no pairing that meets the absolute criteria 23514.';
