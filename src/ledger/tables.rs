//! The engine's own history as the writer sees it ([`History`] for [`LedgerStore`]): a ledger's
//! games read from its attached table, its entries in `ledger_entries` and its standings in
//! `ledger_standings`, seeds and seasons from `ledger_seeds` and `ledger_seasons`.

use std::collections::{BTreeSet, HashMap};

use pg_rating_core::ledger::writer::{Book, History, StandingRows, Writes};
use pg_rating_core::ledger::{
    rename_game, Entry, LedgerGame, LedgerKey, LedgerRules, SeasonEnd, Standing,
};
use pg_rating_core::rating::RatingError;

use super::attachment::Attachment;
use super::store::{self, Ledger, LedgerStore};
use super::{ledger_game, rated};
use crate::error::raise;

/// A ledger with its attachment.
pub struct LedgerBook<'a> {
    pub ledger: &'a Ledger,
    pub att: &'a Attachment,
}

impl Book for LedgerBook<'_> {
    fn id(&self) -> i32 {
        self.ledger.id
    }

    fn fail(&self, e: RatingError) -> ! {
        let e = rename_game(e, |key| self.att.column_key_text(key));
        raise(
            crate::error::code(&e),
            format!("ledger \"{}\": {}", self.ledger.name, e.message),
        )
    }
}

impl History<LedgerBook<'_>> for LedgerStore<'_, '_> {
    fn games_from(
        &mut self,
        book: &LedgerBook<'_>,
        scope: &str,
        from: &LedgerKey,
    ) -> Vec<LedgerGame> {
        let att = book.att;
        let rows = self.read_games(
            att,
            &att.rows_from_query(),
            &[
                scope.into(),
                store::timestamp(from.at).into(),
                att.column_key_text(&from.id).into(),
            ],
        );
        let mut games: Vec<LedgerGame> = rated(&rows).map(ledger_game).collect();
        games.sort_by(|a, b| a.key.cmp(&b.key));
        games
    }

    /// A newcomer with a seed (`ledger_seeds`) starts from it.
    fn start_newcomers(
        &mut self,
        book: &LedgerBook<'_>,
        rules: &LedgerRules,
        scope: &str,
        standings: &mut HashMap<String, Standing>,
        players: &BTreeSet<String>,
    ) {
        let newcomers: Vec<&str> = players
            .iter()
            .filter(|p| !standings.contains_key(*p))
            .map(String::as_str)
            .collect();
        if newcomers.is_empty() {
            return;
        }
        for (player, rating, rd, volatility) in self.seeds(book.id(), scope, newcomers) {
            standings.insert(
                player,
                Standing::seeded(&rules.system, rating, rd, volatility),
            );
        }
    }

    fn seasons_of(&mut self, scopes: &[(i32, &str)]) -> HashMap<(i32, String), Vec<SeasonEnd>> {
        LedgerStore::seasons_of(self, scopes)
    }

    fn current(
        &mut self,
        wanted: &[(i32, &str, String)],
    ) -> HashMap<(i32, String, String), (Standing, LedgerKey)> {
        self.standings_of(wanted)
    }

    fn before(
        &mut self,
        ledger: i32,
        scope: &str,
        players: Vec<String>,
        from: &LedgerKey,
    ) -> HashMap<String, (Standing, LedgerKey)> {
        self.standings_before(ledger, scope, players, from)
    }

    /// Deletes the doomed entries, each found by its key.
    fn take_from(
        &mut self,
        ledger: i32,
        scope: &str,
        _from: &LedgerKey,
        doomed: &[(&str, &LedgerKey)],
    ) -> Vec<String> {
        self.delete_entries(ledger, scope, doomed)
    }

    fn write(
        &mut self,
        book: &LedgerBook<'_>,
        scope: &str,
        entries: Vec<Entry>,
        standings: StandingRows,
        without_games: Vec<String>,
        writes: Writes,
    ) {
        let att = book.att;
        self.insert_entries(
            book.id(),
            scope,
            entries,
            &|id| att.column_key_text(id),
            writes,
        );
        self.write_standings(book.id(), scope, standings, without_games, writes);
    }
}
