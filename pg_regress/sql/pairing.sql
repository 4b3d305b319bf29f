-- tournament_pairings_from_trf: the FIDE Dutch pairing (C.04.3, 2025 rules) of the round after
-- the rounds of a TRF-16 text, by starting rank. Hand-made cases; the engine is checked against
-- bbpPairings on whole tournaments by core/tests/pairing_data.rs.

-- round 1 of six: the top half meets the bottom half, colours alternating from White on board 1
SELECT * FROM tournament_pairings_from_trf('012 Six
001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
XXR 3');
-- XXC black1: the top seed has Black
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
XXR 1
XXC black1');
-- five players: the lowest gets the pairing-allocated bye (a row without Black)
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
XXR 3');
-- round 2 after 1-3 1-0 and 4-2 1-0 (from column 92: opponent, colour, result): the winners meet,
-- the losers meet, each with the colour they did not have
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400                             1.0          3 w 1
001    2      B                                 2300                             0.0          4 b 0
001    3      C                                 2200                             0.0          1 b 0
001    4      D                                 2100                             1.0          2 w 1
XXR 3');
-- players whose line has an entry for the round are not paired: 1 a requested half-point bye (H),
-- 3 an absence (0000 - Z); of 2, 4 and 5 one gets the bye, not 5, who had one in round 1 (U)
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400                             1.0          3 w 1  0000 - H
001    2      B                                 2300                             0.0          4 b 0
001    3      C                                 2200                             0.0          1 b 0  0000 - Z
001    4      D                                 2100                             1.0          2 w 1
001    5      E                                 2000                             1.0       0000 - U
XXR 3');

-- accelerated rounds (Baku, FIDE C.04.5.1), as bbpPairings reads them: with "192 FIDE_DUTCH_2025_BAKU" the first
-- 2 * ceil(8 / 4) = 4 players get a virtual point in round 1, so 1-3 and 2-4 meet, and 5-7, 6-8; XXA lines give
-- such points explicitly (here the same)
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
001    7      G                                 1800
001    8      H                                 1700
XXR 4
192 FIDE_DUTCH_2025_BAKU');
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
001    7      G                                 1800
001    8      H                                 1700
XXR 4
XXA    1  1.0
XXA    2  1.0
XXA    3  1.0
XXA    4  1.0');
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
001    7      G                                 1800
001    8      H                                 1700
XXR 4');

-- forbidden pairs (team-mates, relatives: starting ranks two by two) never meet: 1 and 4 would
-- meet on board 1 of round 1, so 1 meets 5 and 2 meets 4; a 2-D array or a flat one alike
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
XXR 3', ARRAY[[1, 4]]);
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
XXR 3', '{1, 4, 2, 5}');
-- when the forbidden pairs leave no pairing: no valid pairing
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
XXR 1', ARRAY[1, 2]);
-- a forbidden pair must be two different players of the file, listed in pairs, without NULL
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
XXR 3', ARRAY[1, 7]);
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
XXR 3', ARRAY[1, 2, 3]);
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
XXR 3', ARRAY[2, 2]);
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
XXR 3', ARRAY[1, NULL]);

-- errors: a malformed line, every round paired, no pairing without a rematch; NULL gives no rows
SELECT * FROM tournament_pairings_from_trf('001 abcd');
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400                             1.0          2 w 1
001    2      B                                 2300                             0.0          1 b 0
XXR 1');
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400                             1.0          2 w 1
001    2      B                                 2300                             0.0          1 b 0
XXR 2');
SELECT count(*) FROM tournament_pairings_from_trf(NULL);
-- the errors' SQLSTATEs
\set VERBOSITY sqlstate
SELECT * FROM tournament_pairings_from_trf('001 abcd');
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400                             1.0          2 w 1
001    2      B                                 2300                             0.0          1 b 0
XXR 1');
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400                             1.0          2 w 1
001    2      B                                 2300                             0.0          1 b 0
XXR 2');
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
XXR 3', ARRAY[1, 7]);
SELECT * FROM tournament_pairings_from_trf('001    1      A                                 2400
001    2      B                                 2300
001    3      C                                 2200
001    4      D                                 2100
001    5      E                                 2000
001    6      F                                 1900
XXR 3', ARRAY[1, NULL]);
\set VERBOSITY default
-- a text without a player line is not a tournament (22023), not an empty pairing
\set VERBOSITY sqlstate
SELECT * FROM tournament_pairings_from_trf('');
SELECT * FROM tournament_pairings_from_trf('garbage');
SELECT * FROM tournament_pairings_from_trf(E'012 Tournament\nXXR 5');
\set VERBOSITY default
SELECT * FROM tournament_pairings_from_trf('garbage');
