-- The baseline of the chess benchmark: generate_fen_array and detect_opening written the way a
-- PL/pgSQL schema writes them: the board is a 64-character string (a8..h8, a7..h7, ..., a1..h1)
-- updated move by move with overlay(), each partial FEN built square by square. It trusts its
-- input (no legality check of the moves) except for the en passant rule, which it applies
-- exactly (a capture that would leave the king in check does not count), so that its output
-- can be compared with ours position by position.

CREATE FUNCTION plpgsql_sq(name text) RETURNS int
    LANGUAGE sql IMMUTABLE STRICT AS
$$ SELECT (8 - (substr(name, 2, 1))::int) * 8 + (ascii(substr(name, 1, 1)) - ascii('a')) + 1 $$;

-- Is square sq (1..64) attacked by the side whose pieces are upper case when by_white?
CREATE FUNCTION plpgsql_attacked(board text, sq int, by_white boolean) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT AS
$$
DECLARE
    r int := (sq - 1) / 8;      -- 0 = rank 8
    f int := (sq - 1) % 8;      -- 0 = file a
    dr int; df int; rr int; ff int; p text; k int;
    knight int[] := ARRAY[-2,-1, -2,1, -1,-2, -1,2, 1,-2, 1,2, 2,-1, 2,1];
    their_pawn text := CASE WHEN by_white THEN 'P' ELSE 'p' END;
    their_knight text := CASE WHEN by_white THEN 'N' ELSE 'n' END;
    dirs int[] := ARRAY[-1,0, 1,0, 0,-1, 0,1, -1,-1, -1,1, 1,-1, 1,1];
BEGIN
    -- pawns
    dr := CASE WHEN by_white THEN 1 ELSE -1 END;   -- an attacking white pawn stands one rank lower
    FOREACH df IN ARRAY ARRAY[-1, 1] LOOP
        rr := r + dr; ff := f + df;
        IF rr BETWEEN 0 AND 7 AND ff BETWEEN 0 AND 7
           AND substr(board, rr * 8 + ff + 1, 1) = their_pawn THEN
            RETURN true;
        END IF;
    END LOOP;
    -- knights
    FOR k IN 0..7 LOOP
        rr := r + knight[2 * k + 1]; ff := f + knight[2 * k + 2];
        IF rr BETWEEN 0 AND 7 AND ff BETWEEN 0 AND 7
           AND substr(board, rr * 8 + ff + 1, 1) = their_knight THEN
            RETURN true;
        END IF;
    END LOOP;
    -- kings and sliders
    FOR k IN 0..7 LOOP
        dr := dirs[2 * k + 1]; df := dirs[2 * k + 2];
        rr := r + dr; ff := f + df;
        WHILE rr BETWEEN 0 AND 7 AND ff BETWEEN 0 AND 7 LOOP
            p := substr(board, rr * 8 + ff + 1, 1);
            IF p <> '.' THEN
                IF (p = upper(p)) = by_white THEN
                    p := upper(p);
                    IF p = 'Q' OR (p = 'R' AND k < 4) OR (p = 'B' AND k >= 4)
                       OR (p = 'K' AND rr = r + dr AND ff = f + df) THEN
                        RETURN true;
                    END IF;
                END IF;
                EXIT;
            END IF;
            rr := rr + dr; ff := ff + df;
        END LOOP;
    END LOOP;
    RETURN false;
END
$$;

-- The en passant field: the square only if a pawn of the side to move can legally take there.
CREATE FUNCTION plpgsql_ep_field(board text, white_to_move boolean, ep_sq int) RETURNS text
    LANGUAGE plpgsql IMMUTABLE AS
$$
DECLARE
    pawn text := CASE WHEN white_to_move THEN 'P' ELSE 'p' END;
    king text := CASE WHEN white_to_move THEN 'K' ELSE 'k' END;
    victim int := ep_sq + CASE WHEN white_to_move THEN 8 ELSE -8 END;  -- the pawn that moved
    df int; from_sq int; b2 text;
BEGIN
    IF ep_sq IS NULL THEN RETURN '-'; END IF;
    FOREACH df IN ARRAY ARRAY[-1, 1] LOOP
        IF (victim - 1) % 8 + df BETWEEN 0 AND 7 THEN
            from_sq := victim + df;
            IF substr(board, from_sq, 1) = pawn THEN
                b2 := overlay(board placing '.' from from_sq for 1);
                b2 := overlay(b2 placing '.' from victim for 1);
                b2 := overlay(b2 placing pawn from ep_sq for 1);
                IF NOT plpgsql_attacked(b2, strpos(b2, king), NOT white_to_move) THEN
                    RETURN chr(ascii('a') + (ep_sq - 1) % 8) || (8 - (ep_sq - 1) / 8)::text;
                END IF;
            END IF;
        END IF;
    END LOOP;
    RETURN '-';
END
$$;

CREATE FUNCTION plpgsql_partial_fen(board text, white_to_move boolean, castling text, ep text)
    RETURNS varchar
    LANGUAGE plpgsql IMMUTABLE AS
$$
DECLARE
    fen text := ''; empty int := 0; i int; c text;
BEGIN
    FOR i IN 1..64 LOOP
        c := substr(board, i, 1);
        IF c = '.' THEN
            empty := empty + 1;
        ELSE
            IF empty > 0 THEN fen := fen || empty; empty := 0; END IF;
            fen := fen || c;
        END IF;
        IF i % 8 = 0 THEN
            IF empty > 0 THEN fen := fen || empty; empty := 0; END IF;
            IF i < 64 THEN fen := fen || '/'; END IF;
        END IF;
    END LOOP;
    RETURN fen || CASE WHEN white_to_move THEN ' w ' ELSE ' b ' END
               || CASE WHEN castling = '' THEN '-' ELSE castling END || ' ' || ep;
END
$$;

CREATE FUNCTION plpgsql_generate_fen_array(starting_position varchar, moves varchar[])
    RETURNS varchar[]
    LANGUAGE plpgsql IMMUTABLE STRICT AS
$$
DECLARE
    parts text[] := regexp_split_to_array(trim(starting_position), '\s+');
    board text := '';
    white boolean := parts[2] = 'w';
    castling text := replace(parts[3], '-', '');
    ep_sq int;
    result varchar[];
    c text; i int; mv text; fs int; ts int; piece text; promo text; rook_from int; rook_to int;
    my_rook text;
BEGIN
    FOR i IN 1..length(parts[1]) LOOP
        c := substr(parts[1], i, 1);
        IF c = '/' THEN CONTINUE;
        ELSIF c BETWEEN '1' AND '8' THEN board := board || repeat('.', c::int);
        ELSE board := board || c;
        END IF;
    END LOOP;
    IF parts[4] <> '-' THEN ep_sq := plpgsql_sq(parts[4]); END IF;
    result := ARRAY[plpgsql_partial_fen(board, white, castling, plpgsql_ep_field(board, white, ep_sq))];
    FOREACH mv IN ARRAY moves LOOP
        fs := plpgsql_sq(substr(mv, 1, 2));
        ts := plpgsql_sq(substr(mv, 3, 2));
        piece := substr(board, fs, 1);
        promo := substr(mv, 5, 1);
        ep_sq := NULL;
        my_rook := CASE WHEN white THEN 'R' ELSE 'r' END;
        IF upper(piece) = 'K' AND (abs(ts - fs) = 2 OR substr(board, ts, 1) = my_rook) THEN
            -- castling, written e1g1 or e1h1
            IF ts > fs THEN rook_from := fs + 3; rook_to := fs + 1; ts := fs + 2;
            ELSE rook_from := fs - 4; rook_to := fs - 1; ts := fs - 2;
            END IF;
            board := overlay(board placing '.' from rook_from for 1);
            board := overlay(board placing my_rook from rook_to for 1);
        ELSIF upper(piece) = 'P' AND (fs - ts) % 8 <> 0 AND substr(board, ts, 1) = '.' THEN
            -- en passant: the captured pawn stands behind the target square
            board := overlay(board placing '.' from ts + CASE WHEN white THEN 8 ELSE -8 END for 1);
        ELSIF upper(piece) = 'P' AND abs(ts - fs) = 16 THEN
            ep_sq := (fs + ts) / 2;
        END IF;
        IF promo <> '' AND white THEN
            piece := upper(promo);
        ELSIF promo <> '' THEN
            piece := promo;
        END IF;
        board := overlay(board placing '.' from fs for 1);
        board := overlay(board placing piece from ts for 1);
        -- castling rights
        IF piece = 'K' THEN castling := replace(replace(castling, 'K', ''), 'Q', ''); END IF;
        IF piece = 'k' THEN castling := replace(replace(castling, 'k', ''), 'q', ''); END IF;
        IF fs = 64 OR ts = 64 THEN castling := replace(castling, 'K', ''); END IF;
        IF fs = 57 OR ts = 57 THEN castling := replace(castling, 'Q', ''); END IF;
        IF fs = 8 OR ts = 8 THEN castling := replace(castling, 'k', ''); END IF;
        IF fs = 1 OR ts = 1 THEN castling := replace(castling, 'q', ''); END IF;
        white := NOT white;
        result := result || plpgsql_partial_fen(board, white, castling, plpgsql_ep_field(board, white, ep_sq));
    END LOOP;
    RETURN result;
END
$$;

-- The latest position of the game found in openings: one index probe per position.
CREATE FUNCTION plpgsql_detect_opening(partial_fens varchar[], OUT opening_id int, OUT move_no int)
    LANGUAGE plpgsql STABLE STRICT AS
$$
DECLARE
    i int;
BEGIN
    FOR i IN REVERSE coalesce(array_upper(partial_fens, 1), 0) .. 1 LOOP
        SELECT o.id INTO opening_id FROM openings o WHERE o.partial_fen = partial_fens[i];
        IF FOUND THEN
            move_no := i - 1;
            RETURN;
        END IF;
    END LOOP;
END
$$;
