-- pg_rating_random_chess 0.4.0 -> 0.5.0: byes of half a point and of zero (FIDE TRF codes H and Z).
-- Every existing bye keeps its meaning: the new column's default is one point, the
-- pairing-allocated bye (TRF U). The standings do not change, so none is recomputed.

ALTER TABLE byes ADD COLUMN points numeric(2, 1) NOT NULL DEFAULT 1
    CONSTRAINT bye_points_known CHECK (points IN (0, 0.5, 1));

COMMENT ON TABLE byes IS
    'Byes; the player must be registered and have no game that round. points: 1 (the default) a pairing-allocated '
    'bye (TRF code U), 0.5 a half-point bye (H), 0 a zero-point bye (Z), which FIDE C.07 article 16 counts as requested '
    'byes in the tie-breaks.';
COMMENT ON FUNCTION tournament_trf(int) IS
    'The FIDE TRF-16 report of a tournament after its last round: 012/042/052/062/072/092/XXR and one 001 line per '
    'player (starting rank by pairing number, rating as of the start, points, rank, per round opponent, colour, '
    'result: 1 = 0, W D L without a move, + - forfeits, U pairing-allocated bye, H half-point bye, Z zero-point bye or '
    'absent).';
