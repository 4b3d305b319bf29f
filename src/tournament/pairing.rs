//! Swiss pairing by the FIDE Dutch system (`pg_rating_core::tournament::pairing`): the next round
//! of a TRF-16 text (the engine's `tournament_pairings_from_trf`) or of a Random Chess tournament
//! (`tournament_pair_round`). Nothing is written: the app records the games as they are played.

use pg_rating_core::tournament::arguments;
use pg_rating_core::tournament::pairing::{pair_next_round, pair_trf_by, round_to_pair, Pairing};
use pg_rating_core::tournament::pending::board_rows;
use pg_rating_core::tournament::seeding;
use pg_rating_core::tournament::tables::system_arg;
use pg_rating_core::tournament::trf_read::read_trf16;
use pg_rating_core::tournament::{PlayerNo, Tournament};
use pgrx::prelude::*;

use super::store::{Loaded, TournamentStore};
use crate::error::{raise, raise_core};

extension_sql_file!(
    "../../sql/tournament_pairing.sql",
    name = "tournament_pairing",
    requires = [tournament_pairings_from_trf]
);

/// The rows of a pairing, each player named by `name`.
fn boards<T>(pairing: &Pairing, name: impl Fn(PlayerNo) -> T) -> Vec<(i32, T, Option<T>)> {
    let named = pairing.boards.iter().map(|&(w, b)| (name(w), name(b)));
    board_rows(named, pairing.bye.map(&name))
}

/// The pairing of the round after the rounds in a TRF-16 text, by starting rank and by `system`
/// (`dutch`, `burstein`); no two players of a pair in `forbidden_pairs` (starting ranks) meet.
#[pg_extern(immutable, strict, parallel_safe)]
fn tournament_pairings_from_trf(
    trf: &str,
    forbidden_pairs: default!(Vec<Option<i32>>, "'{}'"),
    system: default!(&str, "'dutch'"),
) -> TableIterator<
    'static,
    (
        name!(board, i32),
        name!(white, i32),
        name!(black, Option<i32>),
    ),
> {
    let system = system_arg(Some(system)).unwrap_or_else(|e| raise_core(&e));
    let read = read_trf16(trf).unwrap_or_else(|e| raise_core(&e));
    let forbidden = arguments::forbidden_ranks(&forbidden_pairs, read.tournament.player_count())
        .unwrap_or_else(|e| raise_core(&e));
    let pairing = pair_trf_by(&read, forbidden, system).unwrap_or_else(|e| raise_core(&e));
    TableIterator::new(boards(&pairing, |p| p as i32 + 1))
}

/// The tournament with its players in FIDE's initial order ([`seeding::seeded`]), by the
/// ratings as of its start once it started (its first game), else as of now; and `order[i]`: the
/// registration index of the player numbered i.
pub(super) fn seeded(
    store: &mut TournamentStore<'_, '_>,
    t: i32,
    loaded: &Loaded,
) -> (Tournament, Vec<PlayerNo>) {
    let now = loaded
        .first_date
        .is_none()
        .then(|| store.ratings_now(t, &loaded.player_no));
    seeding::seeded(
        &loaded.tournament,
        now.as_deref(),
        &loaded.names,
        &loaded.users,
    )
    .unwrap_or_else(|e| raise_core(&e))
}

/// The pairing of a Random Chess tournament's next round (or of `round`, which must be it):
/// players in FIDE's initial order (rating as of the start, then display name, then user id),
/// the top seed's colour in round 1 `first_colour_white` (NULL: as the stored rounds show it,
/// else White); `virtual_points` by user id (C.04.5); with `baku_acceleration`, accelerated rounds (FIDE C.04.5.1);
/// no two players of a pair in `forbidden_pairs` (user ids) meet; by `system` (`dutch`,
/// `burstein`).
#[pg_extern(stable, parallel_restricted, sql = false)]
fn tournament_pair_round(
    tournament_id: Option<i32>,
    round: default!(Option<i32>, "NULL"),
    baku_acceleration: default!(Option<bool>, false),
    forbidden_pairs: default!(Option<Vec<Option<String>>>, "'{}'"),
    system: default!(Option<&str>, "'dutch'"),
    first_colour_white: default!(Option<bool>, "NULL"),
    virtual_points: Option<pgrx::AnyElement>,
) -> TableIterator<
    'static,
    (
        name!(board, i32),
        name!(white, String),
        name!(black, Option<String>),
    ),
> {
    // (not STRICT, for the NULL round: a NULL tournament pairs nothing, as a strict function)
    let Some(tournament_id) = tournament_id else {
        return TableIterator::new(Vec::new());
    };
    let choices = arguments::Choices::of_round(
        baku_acceleration,
        system,
        forbidden_pairs,
        virtual_points.map(|v| crate::types::jsonb_text(&v)),
        first_colour_white,
    )
    .unwrap_or_else(|e| raise_core(&e));
    Spi::connect_mut(|client| {
        let mut store = TournamentStore::reader(client);
        let loaded = super::existing(&mut store, tournament_id);
        let (seeded, order) = seeded(&mut store, tournament_id, &loaded);
        let of = format!(" of tournament {tournament_id}");
        arguments::check_round(round.map(i64::from), round_to_pair(&seeded), &of)
            .unwrap_or_else(|e| raise_core(&e));
        let ids = seeding::by_number(&loaded.users, &order);
        let number_of = seeding::number_of(&ids);
        let options = choices
            .options(
                &seeded,
                |user| number_of.get(user).copied(),
                |p| ids[p as usize].clone(),
                &format!("is not a player of tournament {tournament_id}"),
            )
            .unwrap_or_else(|e| raise_core(&e));
        let pairing = pair_next_round(&seeded, &options).unwrap_or_else(|e| {
            raise(
                crate::error::code(&e),
                format!("tournament {tournament_id}: {e}"),
            )
        });
        TableIterator::new(boards(&pairing, |p| ids[p as usize].clone()))
    })
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn a_trf_round_one_pairs_top_half_against_bottom_half() {
        let lines: Vec<String> = (1..=4)
            .map(|i| format!("001 {i:>4}      P{i:<32} {}", 2500 - 100 * i))
            .collect();
        let trf = format!("{}\nXXR 2", lines.join("\n"));
        let boards = Spi::get_one_with_args::<String>(
            "SELECT string_agg(format('%s-%s', white, black), ' ' ORDER BY board)
             FROM tournament_pairings_from_trf($1)",
            &[trf.into()],
        )
        .unwrap();
        // the top seed White on board 1, colours alternating: 1-3, 4-2
        assert_eq!(boards.as_deref(), Some("1-3 4-2"));
    }

    #[pg_test(error = "TRF line 1: no starting rank in columns 5-8")]
    fn a_malformed_trf_is_an_error() {
        Spi::run("SELECT * FROM tournament_pairings_from_trf('001 x')").unwrap();
    }
}
