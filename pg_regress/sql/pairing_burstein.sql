-- The Burstein system (issue 34, item 4): system => 'burstein' on tournament_pairings_from_trf,
-- tournament_pairings_from_tables and tournament_pair_into (tournament_pair_round: the client's
-- tests). The engine is checked against bbpPairings v6.0.0 on whole tournaments by
-- core/tests/pairing_data.rs.
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- round 1 of eight: the Dutch system pairs the top half with the bottom half (1-5, 2-6, ...);
-- the Burstein system gives the upper half a virtual point in rounds 1 and 2, so each half is a
-- scoregroup paired top against bottom (1-4, 2-3, 5-8, 6-7)
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
001    7      G                                 1800
001    8      H                                 1700
XXR 5');
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
001    7      G                                 1800
001    8      H                                 1700
XXR 5', system => 'burstein');
-- an XXA line gives the virtual points instead (here 0 for everyone: no acceleration, one
-- scoregroup paired top against bottom: 1-8, 2-7, 3-6, 4-5)
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
001    7      G                                 1800
001    8      H                                 1700
XXR 5
XXA    1  0.0', system => 'burstein');

-- round 5 of a tournament bbpPairings' generator made with --burstein (rounds 1-4 of
-- core/tests/data/pairing/burstein_906.trf): bbpPairings pairs 3-9, 2-1, 5-4, 10-8, 7-6; 1 and 2
-- meet again (their game of round 4 was forfeited, and a forfeit is no game)
SELECT * FROM tournament_pairings_from_trf('001    1      Test0001 Player0001               2429                             2.0    6     5 b +     3 b -    10 w 1     2 b -
001    2      Test0002 Player0002               2366                             2.0    2     4 w 1     9 b 1     3 b -     1 w -
001    3      Test0003 Player0003               2359                             4.0    1    10 b 1     1 w +     2 w +     4 w +
001    4      Test0004 Player0004               2314                             2.0    4     2 b 0     5 w +     8 w 1     3 b -
001    5      Test0005 Player0005               2282                             1.5    3     1 w -     4 b -     7 b +     8 b =
001    6      Test0006 Player0006               2259                             1.0    8     9 w -     8 w +     9 w -    10 b -
001    7      Test0007 Player0007               2128                             0.5    9     8 b =    10 w -     5 w -     9 w -
001    8      Test0008 Player0008               2095                             1.0    7     7 w =     6 b -     4 b 0     5 w =
001    9      Test0009 Player0009               2069                             2.0    5     6 b +     2 w 0     6 b -     7 b +
001   10      Test0010 Player0010               2026                             1.0   10     3 w 0     7 b +     1 b 0     6 w -
XXR 7', system => 'burstein');

-- an application's own tables, round 1 of six: the upper half pairs 1-3 and 2 floats down to the
-- lower half (2-6, 4-5); the Dutch system pairs 1-4, 2-5, 3-6
CREATE TABLE entrants (id text, rating int);
INSERT INTO entrants VALUES ('ann', 2400), ('ben', 2300), ('cat', 2200), ('dan', 2100), ('eva', 2000), ('fay', 1900);
CREATE TABLE boards (round int, white text, black text, result text);
SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 5, system => 'burstein');
SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 5);
-- written into the application's table of games to play
CREATE TABLE pending (white text, black text);
SELECT * FROM tournament_pair_into('pending', 'entrants', 'boards', 5, system => 'burstein');
SELECT * FROM pending;

-- errors: a system other than dutch or burstein 22023 (nothing written), NULL 22004; the TRF
-- function is strict (NULL: no rows)
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
001    7      G                                 1800
001    8      H                                 1700
XXR 5', system => 'swiss')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 5, system => 'Burstein')$$);
SELECT pg_temp.err($$SELECT * FROM tournament_pair_into('pending', 'entrants', 'boards', 5, system => 'monrad')$$);
SELECT count(*) FROM pending;
SELECT pg_temp.err($$SELECT * FROM tournament_pairings_from_tables('entrants', 'boards', 5, system => NULL)$$);
SELECT count(*) FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
001    7      G                                 1800
001    8      H                                 1700
XXR 5', system => NULL);
