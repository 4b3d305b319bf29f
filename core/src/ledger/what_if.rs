//! `ledger_what_if`: the prediction quality a ledger's rating system would have had with other K
//! factors or taus, replayed in memory over the ledger's games from its seeds and through its
//! seasons, as the ledger itself was (nothing is written). The glue reads each scope's games,
//! seasons and seeds.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::attachment::ParticipantRow;
use super::multiplayer::{
    games_of_participants, replay_multiplayer_seasons, MultiGame, MultiplayerRule,
};
use super::quality::{Quality, QualitySum};
use super::replay::{replay_seasons, LedgerGame};
use super::rules::{LedgerRules, LedgerSettings, Variant};
use super::standing::{SeasonEnd, Standing};
use crate::rating::RatingError;

/// A scope's games, sorted (of either kind: a ledger's attachment reads one).
#[derive(Clone, Debug)]
pub enum Games {
    TwoPlayer(Vec<LedgerGame>),
    Multiplayer(MultiplayerRule, Vec<MultiGame>),
}

/// A player's seed: rating, RD, volatility (`ledger_seeds`).
pub type Seed = (String, f64, Option<f64>, Option<f64>);

/// A scope to replay: its games, its seasons' ends (sorted) and its players' seeds.
#[derive(Clone, Debug)]
pub struct Scope {
    pub games: Games,
    pub seasons: Vec<SeasonEnd>,
    pub seeds: Vec<Seed>,
}

impl Games {
    /// The players of the games, each once, sorted: those whose seeds the replays need.
    pub fn players(&self) -> Vec<&str> {
        let players: BTreeSet<&str> = match self {
            Games::TwoPlayer(games) => games
                .iter()
                .flat_map(|g| [g.white.as_str(), g.black.as_str()])
                .collect(),
            Games::Multiplayer(_, games) => games
                .iter()
                .flat_map(|g| g.places.iter().map(|(p, _)| p.as_str()))
                .collect(),
        };
        players.into_iter().collect()
    }
}

/// Each scope's games of a two-player ledger, sorted by key: `games` are its rated games, each
/// with its scope.
pub fn two_player_scopes(
    games: impl IntoIterator<Item = (String, LedgerGame)>,
) -> BTreeMap<String, Games> {
    let mut by_scope: BTreeMap<String, Vec<LedgerGame>> = BTreeMap::new();
    for (scope, game) in games {
        by_scope.entry(scope).or_default().push(game);
    }
    by_scope
        .into_iter()
        .map(|(scope, mut games)| {
            games.sort_by(|a, b| a.key.cmp(&b.key));
            (scope, Games::TwoPlayer(games))
        })
        .collect()
}

/// Each scope's games of a participants table's ledger rated by `rule`, from its rows (22023 for
/// rows of one game of different dates: [`games_of_participants`]).
pub fn multiplayer_scopes(
    rule: MultiplayerRule,
    rows: &[ParticipantRow],
) -> Result<BTreeMap<String, Games>, RatingError> {
    let mut by_scope: BTreeMap<&str, Vec<&ParticipantRow>> = BTreeMap::new();
    for r in rows {
        by_scope.entry(r.scope.as_str()).or_default().push(r);
    }
    by_scope
        .into_iter()
        .map(|(scope, rows)| {
            let places = rows
                .iter()
                .map(|r| (&r.key, r.player.as_str(), r.placement));
            let games = games_of_participants(places)?;
            Ok((scope.to_owned(), Games::Multiplayer(rule, games)))
        })
        .collect()
}

/// The most K factors and taus together that one `ledger_what_if` call replays (each is a replay
/// of the whole ledger).
pub const MAX_VARIANTS: usize = 100;

/// More K factors and taus than [`MAX_VARIANTS`] (54000): how many were given.
#[derive(Debug, PartialEq, Eq)]
pub struct TooManyVariants(pub usize);

impl std::fmt::Display for TooManyVariants {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ledger_what_if replays at most {MAX_VARIANTS} K factors and taus together, not {}",
            self.0
        )
    }
}

impl crate::error::Classified for TooManyVariants {
    fn class(&self) -> crate::error::ErrorClass {
        crate::error::ErrorClass::ProgramLimit
    }
}

/// 54000 for more than [`MAX_VARIANTS`] K factors and taus together (`count`).
pub fn check_variant_count(count: usize) -> Result<(), TooManyVariants> {
    match count > MAX_VARIANTS {
        true => Err(TooManyVariants(count)),
        false => Ok(()),
    }
}

/// An error of ledger `ledger` with what it concerns: its class kept, its message after `what`.
fn about(e: RatingError, what: String) -> RatingError {
    RatingError {
        kind: e.kind,
        message: format!("{what}: {e}"),
    }
}

/// 22023 (the class of the rules' answer) for a setting given that no value of would change a
/// rating of the ledger (`k_factors`, `taus`): it is refused, not replayed under its label.
pub fn check_variants(
    ledger: &str,
    rules: &LedgerRules,
    multiplayer: Option<MultiplayerRule>,
    k_factors: bool,
    taus: bool,
) -> Result<(), RatingError> {
    for (given, setting, name) in [
        (k_factors, Variant::KFactor, "k_factors"),
        (taus, Variant::Tau, "taus"),
    ] {
        if given {
            rules.check_variant(setting, multiplayer).map_err(|e| {
                about(
                    e,
                    format!("ledger \"{ledger}\" cannot be replayed with other {name}"),
                )
            })?;
        }
    }
    Ok(())
}

/// The quality of each variant: the ledger's own settings first, then each of `k_factors` (with
/// its tau), then each of `taus` (with its K); each a replay of every scope, in scope order,
/// whose entries' predictions are summed. Errors name the ledger (and the variant of a replay's).
pub fn what_if(
    ledger: &str,
    settings: &LedgerSettings,
    k_factors: &[f64],
    taus: &[f64],
    scopes: &BTreeMap<String, Scope>,
) -> Result<Vec<(f64, f64, Quality)>, RatingError> {
    let own = (settings.k_factor, settings.tau);
    let variants = std::iter::once(own)
        .chain(k_factors.iter().map(|&k| (k, own.1)))
        .chain(taus.iter().map(|&t| (own.0, t)));
    let mut out = Vec::new();
    for (k, tau) in variants {
        let mut settings = settings.clone();
        (settings.k_factor, settings.tau) = (k, tau);
        let rules = settings
            .rules()
            .map_err(|e| about(e, format!("ledger \"{ledger}\"")))?;
        let mut sum = QualitySum::default();
        for scope in scopes.values() {
            let mut seeded: HashMap<String, Standing> = scope
                .seeds
                .iter()
                .map(|(player, rating, rd, volatility)| {
                    let s = Standing::seeded(&rules.system, *rating, *rd, *volatility);
                    (player.clone(), s)
                })
                .collect();
            let entries = match &scope.games {
                Games::TwoPlayer(games) => {
                    replay_seasons(&rules, &scope.seasons, &mut seeded, games)
                }
                Games::Multiplayer(rule, games) => {
                    replay_multiplayer_seasons(&rules, *rule, &scope.seasons, &mut seeded, games)
                }
            }
            .map_err(|e| about(e, format!("ledger \"{ledger}\" with k {k}, tau {tau}")))?;
            for e in &entries {
                sum.add(e.expected, e.score);
            }
        }
        out.push((k, tau, sum.quality()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Classified, ErrorClass};
    use crate::ledger::{LedgerKey, Outcome};

    fn settings(system: &str) -> LedgerSettings {
        LedgerSettings {
            rating_system: system.into(),
            ..crate::ledger::rules::tests::glicko_settings()
        }
    }

    fn games() -> Games {
        let game = |n: i64, white: &str, black: &str| LedgerGame {
            key: LedgerKey {
                at: n,
                id: n.to_string(),
            },
            white: white.into(),
            black: black.into(),
            outcome: Outcome::White(1.0),
        };
        Games::TwoPlayer(vec![
            game(1, "a", "b"),
            game(2, "b", "c"),
            game(3, "a", "c"),
        ])
    }

    fn scope(seeds: Vec<Seed>) -> BTreeMap<String, Scope> {
        BTreeMap::from([(
            String::new(),
            Scope {
                games: games(),
                seasons: Vec::new(),
                seeds,
            },
        )])
    }

    #[test]
    fn at_most_a_hundred_variants_are_replayed() {
        assert_eq!(check_variant_count(MAX_VARIANTS), Ok(()));
        let e = check_variant_count(101).unwrap_err();
        assert_eq!(e.sqlstate(), "54000");
        assert_eq!(
            e.to_string(),
            "ledger_what_if replays at most 100 K factors and taus together, not 101"
        );
    }

    #[test]
    fn games_are_grouped_by_scope_and_sorted() {
        let Games::TwoPlayer(all) = games() else {
            unreachable!()
        };
        let tagged = [("b", 2), ("a", 1), ("b", 0)].map(|(s, i)| (s.to_string(), all[i].clone()));
        let scopes = two_player_scopes(tagged);
        let keys = |g: &Games| match g {
            Games::TwoPlayer(g) => g.iter().map(|g| g.key.at).collect::<Vec<_>>(),
            Games::Multiplayer(..) => unreachable!(),
        };
        assert_eq!(scopes.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(keys(&scopes["a"]), [2]);
        assert_eq!(keys(&scopes["b"]), [1, 3]);
        let row = |scope: &str, game: i64, player: &str, placement| ParticipantRow {
            scope: scope.into(),
            key: LedgerKey {
                at: game,
                id: game.to_string(),
            },
            player: player.into(),
            placement,
            broken: false,
        };
        let rows = [
            row("y", 2, "p", Some(1.0)),
            row("x", 1, "q", Some(2.0)),
            row("x", 1, "p", Some(1.0)),
            row("y", 2, "q", Some(2.0)),
            row("y", 3, "q", None),
        ];
        let rule = MultiplayerRule::parse("pairwise").unwrap();
        let scopes = multiplayer_scopes(rule, &rows).unwrap();
        assert_eq!(scopes.keys().collect::<Vec<_>>(), ["x", "y"]);
        let Games::Multiplayer(_, y) = &scopes["y"] else {
            unreachable!()
        };
        assert_eq!(
            y.len(),
            1,
            "a game with one rated participant is not rated yet"
        );
        assert_eq!(
            y[0].places,
            [("p".to_string(), 1.0), ("q".to_string(), 2.0)]
        );
        let mut dated = rows.to_vec();
        dated[0].key.at = 9;
        assert!(multiplayer_scopes(rule, &dated).is_err());
    }

    #[test]
    fn the_own_settings_come_first_then_each_k_then_each_tau() {
        let own = settings("elo");
        let rows = what_if("l", &own, &[10.0, 40.0], &[0.3], &scope(Vec::new())).unwrap();
        let labels: Vec<(f64, f64)> = rows.iter().map(|r| (r.0, r.1)).collect();
        assert_eq!(
            labels,
            [
                (own.k_factor, own.tau),
                (10.0, own.tau),
                (40.0, own.tau),
                (own.k_factor, 0.3)
            ]
        );
        assert!(rows.iter().all(|r| r.2.entries == 6));
        assert_eq!(games().players(), ["a", "b", "c"]);
    }

    #[test]
    fn seeds_change_the_predictions() {
        let own = settings("elo");
        let plain = what_if("l", &own, &[], &[], &scope(Vec::new())).unwrap();
        let seeded = scope(vec![("c".into(), 2400.0, None, None)]);
        let seeded = what_if("l", &own, &[], &[], &seeded).unwrap();
        assert_ne!(plain[0].2.brier, seeded[0].2.brier);
    }

    #[test]
    fn errors_name_the_ledger_and_keep_their_class() {
        let e = what_if("l", &settings("elo"), &[-1.0], &[], &scope(Vec::new())).unwrap_err();
        assert!(e.message.starts_with("ledger \"l\": "), "{}", e.message);
        let rules = settings("elo").rules().unwrap();
        let e = check_variants("l", &rules, None, false, true).unwrap_err();
        assert!(e
            .message
            .starts_with("ledger \"l\" cannot be replayed with other taus: "));
        assert_eq!(e.class(), ErrorClass::InvalidParameter);
        assert!(check_variants("l", &rules, None, true, false).is_ok());
    }
}
