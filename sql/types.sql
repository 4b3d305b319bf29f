-- The value types of the Random Chess schema: how a game ended and its time control.
-- Apps write literals like '(1-0,TIMEOUT)' and '(3 minutes, 2 seconds)' and read the
-- fields with (result).game_end_type, so the composite shapes and field names are fixed.

CREATE TYPE game_result_type AS (
    game_end_type   varchar,
    game_end_reason varchar
);

-- A NULL result stays NULL; a value must be one of the valid (end type, reason) pairs,
-- and a row of NULL fields is not a result. The pairs are defined once, in the Rust core.
CREATE DOMAIN game_result AS game_result_type
    CONSTRAINT game_result_valid CHECK (
        VALUE IS NOT DISTINCT FROM NULL
        OR coalesce(@extschema@.game_result_is_valid((VALUE).game_end_type, (VALUE).game_end_reason), false)
    );

COMMENT ON TYPE game_result_type IS
    'Base composite of game_result: (game_end_type, game_end_reason). Use the game_result domain.';
COMMENT ON DOMAIN game_result IS
    'How a game ended: 1-0 or 0-1 with UNKNOWN, TIMEOUT, CHECKMATE, RESIGNATION, ABANDONMENT or DEATH; '
    '1/2-1/2 with UNKNOWN, TIMEOUT_VS_INSUFFICIENT_MATERIAL, INSUFFICIENT_MATERIAL, THREEFOLD_REPETITION, '
    'FIFTY_MOVE_RULE or STALEMATE. Literal: ''(1-0,TIMEOUT)''.';

CREATE TYPE clock_settings_type AS (
    starting_time interval,
    move_increase interval
);

-- Either no clock (both fields NULL) or both parts set and not negative.
CREATE DOMAIN clock_settings AS clock_settings_type
    CONSTRAINT clock_settings_valid CHECK (
        ((VALUE).starting_time IS NULL) = ((VALUE).move_increase IS NULL)
        AND coalesce((VALUE).starting_time >= interval '0' AND (VALUE).move_increase >= interval '0', true)
    );

COMMENT ON TYPE clock_settings_type IS
    'Base composite of clock_settings: (starting_time, move_increase). Use the clock_settings domain.';
COMMENT ON DOMAIN clock_settings IS
    'A time control: starting time and increment per move, both set and >= 0, or both NULL for no clock. '
    'Literal: ''(3 minutes, 2 seconds)''.';
