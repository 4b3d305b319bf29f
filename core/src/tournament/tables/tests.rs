use super::*;
use crate::tournament::pairing::RowResult;

/// The catalog of two tables `p` (oid 1) and `g` (oid 2) as the glue gathers it for `a`, each
/// column's type by its name's prefix: `i_` integer, `n_` number, `b_` boolean, else text; a name
/// that starts `x` is none.
fn catalog(a: &TableArgs<'static, u32>) -> CatalogFacts<u32> {
    let columns = a.columns().into_iter().map(|(rel, column)| {
        let (class, name) = match column.get(..2).unwrap_or_default() {
            "i_" => (TypeClass::Integer, "integer"),
            "n_" => (TypeClass::Number, "numeric"),
            "b_" => (TypeClass::Boolean, "boolean"),
            _ => (TypeClass::Other, "text"),
        };
        let t = ColumnType {
            class,
            name: format!("pg_catalog.{name}"),
            label: name.into(),
        };
        (
            rel,
            column.to_owned(),
            (!column.starts_with('x')).then_some(t),
        )
    });
    CatalogFacts {
        columns: columns.collect(),
        relations: vec![(1, "s.p".into()), (2, "s.g".into())],
    }
}

fn args() -> TableArgs<'static, u32> {
    TableArgs {
        players: Some(1),
        games: Some(2),
        rounds: Some(5),
        player_column: Some("i_id"),
        rating_column: None,
        name_column: None,
        initial_order_column: None,
        withdrawn_column: None,
        round_column: Some("i_round"),
        white_column: Some("white"),
        black_column: Some("black"),
        result_column: Some("result"),
        forfeit_column: None,
        result_map: None,
        tournament_column: None,
        tournament: None,
    }
}

fn reads(a: &TableArgs<'static, u32>) -> Result<TableReads, RowsError> {
    a.reads(&catalog(a))
}

#[test]
fn the_statements_name_the_columns_given() {
    let r = reads(&args()).unwrap();
    assert_eq!(
        r.players_sql,
        "SELECT p.\"i_id\"::pg_catalog.text AS id, p.\"i_id\"::pg_catalog.int8 AS id_number, \
         NULL::pg_catalog.int4 AS rating, '' AS name, NULL::pg_catalog.int8 AS initial_order, \
         false AS withdrawn FROM s.p p "
    );
    assert_eq!(
        r.games_sql,
        "SELECT g.\"i_round\"::pg_catalog.int8 AS round, g.\"white\"::pg_catalog.text AS white, \
         g.\"black\"::pg_catalog.text AS black, g.\"result\"::pg_catalog.text AS result, \
         false AS forfeit FROM s.g g  ORDER BY 1"
    );
    assert_eq!((r.rounds, r.tournament), (5, None));

    let all = TableArgs {
        player_column: Some("id"),
        rating_column: Some("n_elo"),
        name_column: Some("name"),
        initial_order_column: Some("i_rank"),
        withdrawn_column: Some("b_out"),
        forfeit_column: Some("b_ff"),
        tournament_column: Some("t"),
        tournament: Some("7"),
        ..args()
    };
    let r = reads(&all).unwrap();
    assert_eq!(
        r.players_sql,
        "SELECT p.\"id\"::pg_catalog.text AS id, NULL::pg_catalog.int8 AS id_number, \
         pg_catalog.round(p.\"n_elo\"::pg_catalog.numeric)::pg_catalog.int4 AS rating, \
         coalesce(p.\"name\"::pg_catalog.text, '') AS name, \
         p.\"i_rank\"::pg_catalog.int8 AS initial_order, coalesce(p.\"b_out\", false) AS withdrawn \
         FROM s.p p WHERE p.\"t\" = CAST($1 AS pg_catalog.text)"
    );
    assert!(r
        .games_sql
        .ends_with("coalesce(g.\"b_ff\", false) AS forfeit FROM s.g g WHERE g.\"t\" = CAST($1 AS pg_catalog.text) ORDER BY 1"));
    assert_eq!(r.tournament.as_deref(), Some("7"));
}

#[test]
fn every_column_named_is_gathered_and_the_first_error_in_the_arguments_order_wins() {
    let a = TableArgs {
        rating_column: Some("n_elo"),
        forfeit_column: Some("b_ff"),
        tournament_column: Some("t"),
        tournament: Some("7"),
        ..args()
    };
    assert_eq!(
        a.columns(),
        [
            (1, "i_id"),
            (1, "n_elo"),
            (1, "t"),
            (2, "i_round"),
            (2, "white"),
            (2, "black"),
            (2, "result"),
            (2, "b_ff"),
            (2, "t"),
        ]
    );
    // a missing column is 42703, named by its argument and table
    let e = reads(&TableArgs {
        white_column: Some("xw"),
        ..args()
    })
    .unwrap_err();
    assert_eq!(
        (e.class, e.message.as_str()),
        (
            ErrorClass::UndefinedColumn,
            "white_column: column \"xw\" of s.g does not exist"
        )
    );
    // a players' column of the wrong type comes before a games' column that is missing, a
    // missing players' column before a NULL games' argument
    let e = reads(&TableArgs {
        rating_column: Some("b_elo"),
        round_column: Some("x"),
        ..args()
    })
    .unwrap_err();
    assert_eq!(e.class, ErrorClass::DatatypeMismatch);
    let e = reads(&TableArgs {
        name_column: Some("xname"),
        round_column: None,
        ..args()
    })
    .unwrap_err();
    assert_eq!(e.class, ErrorClass::UndefinedColumn);
    // a name with a quote is quoted as SQL quotes it
    let r = reads(&TableArgs {
        name_column: Some("my \"name\""),
        ..args()
    })
    .unwrap();
    assert!(r
        .players_sql
        .contains("coalesce(p.\"my \"\"name\"\"\"::pg_catalog.text, '') AS name"));
}

#[test]
fn missing_arguments_are_22004_in_order() {
    let cases: [(TableArgs<'static, u32>, &str); 6] = [
        (
            TableArgs {
                players: None,
                games: None,
                ..args()
            },
            "players must not be NULL",
        ),
        (
            TableArgs {
                games: None,
                ..args()
            },
            "games must not be NULL",
        ),
        (
            TableArgs {
                rounds: None,
                ..args()
            },
            "rounds must not be NULL",
        ),
        (
            TableArgs {
                player_column: None,
                ..args()
            },
            "player_column must not be NULL",
        ),
        (
            TableArgs {
                round_column: None,
                white_column: None,
                ..args()
            },
            "round_column must not be NULL",
        ),
        (
            TableArgs {
                tournament_column: Some("t"),
                ..args()
            },
            "tournament must not be NULL when tournament_column is given",
        ),
    ];
    for (a, message) in cases {
        let e = reads(&a).unwrap_err();
        assert_eq!(
            (e.class, e.message.as_str()),
            (ErrorClass::NullValue, message)
        );
    }
    let e = reads(&TableArgs {
        tournament: Some("7"),
        ..args()
    })
    .unwrap_err();
    assert_eq!(e.class, ErrorClass::InvalidParameter);
    assert!(e.message.starts_with("tournament needs tournament_column"));
}

#[test]
fn a_column_of_the_wrong_type_is_42804() {
    let cases = [
        (
            TableArgs {
                rating_column: Some("b_x"),
                ..args()
            },
            "rating_column: column \"b_x\" of s.p is boolean, not a number",
        ),
        (
            TableArgs {
                initial_order_column: Some("n_x"),
                ..args()
            },
            "initial_order_column: column \"n_x\" of s.p is numeric, not an integer",
        ),
        (
            TableArgs {
                withdrawn_column: Some("i_x"),
                ..args()
            },
            "withdrawn_column: column \"i_x\" of s.p is integer, not boolean",
        ),
        (
            TableArgs {
                round_column: Some("text"),
                ..args()
            },
            "round_column: column \"text\" of s.g is text, not an integer",
        ),
        (
            TableArgs {
                forfeit_column: Some("text"),
                ..args()
            },
            "forfeit_column: column \"text\" of s.g is text, not boolean",
        ),
    ];
    for (a, message) in cases {
        let e = reads(&a).unwrap_err();
        assert_eq!(
            (e.class, e.message.as_str()),
            (ErrorClass::DatatypeMismatch, message)
        );
    }
    // an integer rating is a number too
    assert!(reads(&TableArgs {
        rating_column: Some("i_elo"),
        ..args()
    })
    .is_ok());
}

#[test]
fn result_maps_are_read_from_their_text() {
    let e = result_map_text(r#"{"w": 1e400}"#).unwrap_err();
    assert_eq!(e.class, ErrorClass::InvalidParameter);
    assert_eq!(
        e.message,
        "result_map \"{\"w\": 1e400}\": number out of range, not a score in [0, 1]"
    );
    assert!(result_map_text("[1]").is_err());
    let r = reads(&TableArgs {
        result_map: Some(r#"{"W": 1, "L": 0}"#.into()),
        ..args()
    })
    .unwrap();
    let g = r
        .game(
            Some(1),
            Some("a".into()),
            Some("b".into()),
            Some("W".into()),
            None,
        )
        .unwrap();
    assert_eq!(g.result, RowResult::standard("1-0").unwrap());
    let e = r
        .game(Some(2), Some("a".into()), None, Some("1-0".into()), None)
        .unwrap_err();
    assert_eq!(
        e.message,
        "a game of round 2: the result \"1-0\" is not in result_map"
    );
}

#[test]
fn rows_are_players_and_games() {
    let r = reads(&args()).unwrap();
    let p = r
        .player(Some("10".into()), Some(10), Some(1500), None, None, None)
        .unwrap();
    assert_eq!(p.order_key, integer_key(10));
    assert_eq!(
        (p.id.as_str(), p.rating, p.name.as_str(), p.withdrawn),
        ("10", Some(1500), "", false)
    );
    let p = r
        .player(
            Some("ab".into()),
            None,
            None,
            Some("A".into()),
            Some(3),
            Some(true),
        )
        .unwrap();
    assert_eq!(
        (p.order_key.as_str(), p.initial_order, p.withdrawn),
        ("ab", Some(3), true)
    );
    let e = r.player(None, None, None, None, None, None).unwrap_err();
    assert_eq!(
        (e.class, e.message.as_str()),
        (
            ErrorClass::NullValue,
            "player_column: a row of s.p has no id (NULL)"
        )
    );

    let g = r
        .game(Some(1), Some("a".into()), None, None, Some(true))
        .unwrap();
    assert_eq!(
        g,
        RowGame {
            round: 1,
            white: "a".into(),
            black: None,
            result: RowResult::Pending,
            forfeit: true
        }
    );
    let e = r
        .game(None, Some("a".into()), None, None, None)
        .unwrap_err();
    assert_eq!(e.message, "round_column: a row of s.g is NULL");
    let e = r.game(Some(1), None, None, None, None).unwrap_err();
    assert_eq!(e.message, "white_column: a row of s.g is NULL");
}

#[test]
fn choices_check_baku_acceleration_then_the_system() {
    let e = arguments::Choices::of_tables(None, None, None, None, None).unwrap_err();
    assert_eq!(
        (e.class, e.message.as_str()),
        (ErrorClass::NullValue, "baku_acceleration must not be NULL")
    );
    let e = arguments::Choices::of_tables(Some(false), None, None, None, None).unwrap_err();
    assert_eq!(
        (e.class, e.message.as_str()),
        (
            ErrorClass::NullValue,
            "system must be 'dutch' or 'burstein', not NULL"
        )
    );
    let e = system_arg(Some("monrad")).unwrap_err();
    assert_eq!(
        (e.class, e.message.as_str()),
        (
            ErrorClass::InvalidParameter,
            "unknown pairing system \"monrad\" (dutch or burstein)"
        )
    );
    let c = arguments::Choices::of_tables(
        Some(true),
        Some("burstein"),
        Some(vec![Some("a".into()), Some("b".into())]),
        None,
        Some(true),
    )
    .unwrap();
    assert_eq!(
        (
            c.system,
            c.baku_acceleration,
            c.forbidden_pairs.len(),
            c.first_colour_white
        ),
        (PairingSystem::Burstein, true, 2, Some(true))
    );
}

#[test]
fn a_relation_the_facts_do_not_name_is_an_internal_error() {
    // facts that miss a table of the arguments: XX000, never a name made up in its place
    let a = args();
    let mut facts = catalog(&a);
    facts.relations.retain(|(r, _)| *r != 2);
    let e = a.reads(&facts).unwrap_err();
    assert_eq!(
        (e.class, e.message.as_str()),
        (ErrorClass::Internal, "the catalog facts name no relation 2")
    );
    // and so when a message would name it
    let a = TableArgs {
        white_column: Some("xw"),
        ..args()
    };
    let mut facts = catalog(&a);
    facts.relations.clear();
    assert_eq!(a.reads(&facts).unwrap_err().class, ErrorClass::Internal);
    assert_eq!(ErrorClass::Internal.sqlstate(), "XX000");
}

#[test]
fn the_built_in_types_are_classed_by_their_oids() {
    for (oid, class) in [
        (21, TypeClass::Integer),
        (23, TypeClass::Integer),
        (20, TypeClass::Integer),
        (1700, TypeClass::Number),
        (700, TypeClass::Number),
        (701, TypeClass::Number),
        (16, TypeClass::Boolean),
        (25, TypeClass::Other),
        (1043, TypeClass::Other),
    ] {
        assert_eq!(TypeClass::of_type_oid(oid), class, "oid {oid}");
    }
}

#[test]
fn players_and_games_are_read_from_their_rows_by_column() {
    use crate::tournament::columns::test_row::{TestRow, V};
    let r = reads(&args()).unwrap();
    let player = TestRow::of(&[
        ("id", V::Text("10")),
        ("id_number", V::Big(10)),
        ("rating", V::Int(1500)),
        ("name", V::Text("Ann")),
        ("initial_order", V::Big(2)),
        ("withdrawn", V::Flag(true)),
    ]);
    assert_eq!(
        r.player_of(&player).unwrap(),
        r.player(
            Some("10".into()),
            Some(10),
            Some(1500),
            Some("Ann".into()),
            Some(2),
            Some(true)
        )
        .unwrap()
    );
    let e = r.player_of(&TestRow::of(&[])).unwrap_err();
    assert_eq!(e.class, ErrorClass::NullValue);
    let game = TestRow::of(&[
        ("round", V::Big(2)),
        ("white", V::Text("a")),
        ("result", V::Text("1-0")),
        ("forfeit", V::Flag(false)),
    ]);
    assert_eq!(
        r.game_of(&game).unwrap(),
        r.game(
            Some(2),
            Some("a".into()),
            None,
            Some("1-0".into()),
            Some(false)
        )
        .unwrap()
    );
    let e = r
        .game_of(&TestRow::of(&[("round", V::Big(1))]))
        .unwrap_err();
    assert_eq!(e.class, ErrorClass::NullValue);
}
