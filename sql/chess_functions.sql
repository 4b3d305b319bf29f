-- Chess in SQL: positions, SAN, PGN. The rules come from the Rust core (shakmaty, pgn-reader).
-- generate_fen_array and san_to_moves are C functions of the extension's library declared here
-- so that they return varchar[] exactly as the Random Chess schema expects.

CREATE FUNCTION generate_fen_array(starting_position varchar, moves varchar[])
    RETURNS varchar[]
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'pg_rating_generate_fen_array';

CREATE FUNCTION san_to_moves(starting_position varchar, san text[])
    RETURNS varchar(5)[]
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'pg_rating_san_to_moves';

CREATE FUNCTION moves_to_san(starting_position varchar, moves varchar[])
    RETURNS text[]
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'moves_to_san_wrapper';

-- Not STRICT: a NULL result is a game still in progress (*).
CREATE FUNCTION game_to_pgn(starting_position varchar, moves varchar[], result @extschema@.game_result,
                            tags jsonb DEFAULT NULL)
    RETURNS text
    IMMUTABLE PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'game_to_pgn_wrapper';

-- One row per game of a PGN text; builds the game_result domain value from the engine's fields.
CREATE FUNCTION read_pgn(pgn text, skip_invalid boolean DEFAULT false)
    RETURNS TABLE (game_no int, tags jsonb, starting_position varchar, moves varchar(5)[],
                   game_result @extschema@.game_result)
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE sql
    BEGIN ATOMIC
        SELECT r.game_no, r.tags, r.starting_position::varchar, r.moves::varchar[],
               CASE WHEN r.game_end_type IS NULL THEN NULL
                    ELSE ROW(r.game_end_type, r.game_end_reason)::@extschema@.game_result END
        FROM @extschema@.read_pgn_internal(pgn, skip_invalid) AS r;
    END;

COMMENT ON FUNCTION generate_fen_array(varchar, varchar[]) IS
    'Partial FENs (placement, side to move, castling, en passant only when an en passant capture is legal) '
    'of the start and of the position after each UCI move; array_length = moves + 1. '
    'Errors: malformed FEN 22P02, illegal or unparsable move 22023 (names ply, move and position), NULL move 22004.';
COMMENT ON FUNCTION san_to_moves(varchar, text[]) IS
    'UCI moves (castling as e1g1, king-takes-rook in Chess960 starts) of SAN moves played from the start. '
    'Errors: malformed FEN 22P02, illegal, ambiguous or unparsable SAN 22023, NULL element 22004.';
COMMENT ON FUNCTION moves_to_san(varchar, varchar[]) IS
    'SAN (with + and #) of UCI moves played from the start. Errors as generate_fen_array.';
COMMENT ON FUNCTION read_pgn(text, boolean) IS
    'Reads every game of a PGN text (comments, NAGs and variations skipped; [FEN]/[SetUp], BOM and CRLF accepted): '
    'game number, tags as jsonb, starting position (full FEN), UCI moves, and the result (NULL for *; reason from '
    'the Termination tag when it maps, else UNKNOWN). A bad game raises 22023 (illegal move, unsupported variant) '
    'or 22P02 (bad FEN, unreadable text) naming the game number and ply; with skip_invalid it is skipped with a WARNING.';
COMMENT ON FUNCTION read_pgn_internal(text, boolean) IS
    'Engine of read_pgn: the result as two text fields. Use read_pgn.';
COMMENT ON FUNCTION game_to_pgn(varchar, varchar[], game_result, jsonb) IS
    'One game as PGN: Seven Tag Roster (values from tags or ?), [SetUp]/[FEN] for a non-standard start, '
    'Termination for a known reason, other tags sorted, SAN movetext wrapped at 80 columns, result (* when NULL). '
    'read_pgn of the text gives back the same start, moves and result.';
