//! The writer's steps, for every kind of history a ledger keeps (the engine's own tables, or a
//! client's with a shape of its own, as the Random Chess rankings' is), as a state machine with
//! no I/O in it ([`Run`], in the style of sans-IO protocol crates): the keeper (the glue) creates
//! a run from a statement's changes, answers each [`Request`] it returns with rows read, and at
//! the end writes the rows it returns as data ([`Done`]) or raises its error value
//! ([`WriteError`]). The core never calls back into the glue.
//!
//! A scope's new games are appended after its players' standings when they come after all of
//! their games ([`appendable`]); otherwise the scope is replayed from its earliest changed game,
//! its entries from there on taken out and written anew. Requests are batched over every scope
//! of a run, so a statement costs a fixed number of round trips however many scopes it touches:
//! appended games 2 to 4 ([`Request::Seasons`], [`Request::Current`], then
//! [`Request::PeriodMoved`] when a ledger caps a period and [`Request::Seeds`] when a player has
//! no standing yet), a replay 4 to 6 (seasons, [`Request::GamesFrom`], [`Request::Take`],
//! [`Request::Before`], then the period's moves and seeds), a rebuild 1 to 2 (seasons, seeds).

use std::collections::{BTreeSet, HashMap};

use super::digest::{DigestSet, DigestSum, RowDigests};
use super::rows::{standing_row_cells, EntriesDigest};
use super::{
    appendable, games_of_participants, replay_multiplayer_seasons, replay_seasons,
    replay_seasons_into, Entry, EntryRef, LedgerGame, LedgerKey, LedgerRules, MultiGame,
    MultiplayerRule, SeasonEnd, Standing,
};
use crate::rating::RatingError;

/// How the rows of a scope are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writes {
    /// Now; each standing replaces the player's.
    Now,
    /// By the keeper's rebuild, which replaces a rebuilt ledger's rows by them (the engine's
    /// tables only).
    Rebuilt,
    /// By the keeper's flush, after the statement's other ledgers and scopes: a game appended to
    /// several ledgers of its table costs one statement per table.
    Batched,
}

/// Standings to write: each player's, with the key of the player's last game.
pub type StandingRows = Vec<(String, Standing, LedgerKey)>;

/// Who keeps a ledger's history, which says where a newcomer starts and whether seasons apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keeper {
    /// The engine's tables: a newcomer starts from a seed (`ledger_seeds`) if it has one, else
    /// from the rating system's start; seasons (`ledger_seasons`) apply.
    Engine,
    /// A Random Chess ranking: a newcomer starts as [`crate::ranking::newcomer`] (the peak
    /// unset); no seeds, no seasons.
    Ranking,
}

/// The kind of a ledger's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    TwoPlayer,
    Multiplayer(MultiplayerRule),
}

/// A ledger as a run knows it: `book` is the keeper's own handle (carried back in requests,
/// writes and errors, so that the keeper knows which of its ledgers they are about).
#[derive(Clone, Debug)]
pub struct Ledger<T> {
    pub book: T,
    pub id: i32,
    pub rules: LedgerRules,
    pub keeper: Keeper,
}

/// One scope's share of a statement's changes of a two-player ledger.
#[derive(Clone, Debug)]
pub struct ScopeChanges<T> {
    pub ledger: Ledger<T>,
    pub scope: String,
    /// The earliest game the statement changed or deleted, as it was; `None` when it only
    /// added games.
    pub first_old: Option<LedgerKey>,
    /// The (player, game) pairs of the games it changed or deleted, as they were.
    pub olds: Vec<(String, LedgerKey)>,
    /// The scope's new or changed games, in key order.
    pub games: Vec<LedgerGame>,
}

/// A scope to replay from a game on.
#[derive(Clone, Debug)]
pub struct ReplayFrom<T> {
    pub ledger: Ledger<T>,
    pub kind: Kind,
    pub scope: String,
    pub from: LedgerKey,
    /// The (player, game) pairs of the rows a statement changed or deleted, as they were.
    pub olds: Vec<(String, LedgerKey)>,
}

/// The games of a scope replayed from scratch (a rebuild: [`Writes::Rebuilt`]).
#[derive(Clone, Debug)]
pub enum FreshGames {
    TwoPlayer(Vec<LedgerGame>),
    Multiplayer(MultiplayerRule, Vec<MultiGame>),
}

/// A scope rebuilt from all of its games, in key order.
#[derive(Clone, Debug)]
pub struct Fresh<T> {
    pub ledger: Ledger<T>,
    pub scope: String,
    pub games: FreshGames,
}

/// A scope's games to read from a game on ([`Request::GamesFrom`]).
#[derive(Clone, Debug)]
pub struct GamesFrom<T> {
    pub book: T,
    pub ledger: i32,
    pub scope: String,
    pub from: LedgerKey,
    /// Participant rows rather than two-player games.
    pub participants: bool,
}

/// The entries of a scope from a game on, to take out ([`Request::Take`]).
#[derive(Clone, Debug)]
pub struct Take {
    pub ledger: i32,
    pub scope: String,
    pub from: LedgerKey,
    /// The entries: the players' entries of the games from there, as they are and as they were.
    pub doomed: Vec<(String, LedgerKey)>,
}

/// The standings of players before a game ([`Request::Before`]).
#[derive(Clone, Debug)]
pub struct Before {
    pub ledger: i32,
    pub scope: String,
    pub players: Vec<String>,
    pub from: LedgerKey,
}

/// What a player moved in a capped period up to a game ([`Request::PeriodMoved`]).
#[derive(Clone, Debug)]
pub struct Moved {
    pub ledger: i32,
    pub scope: String,
    pub player: String,
    /// The start of the period of the game.
    pub since: i64,
    /// The game: the sum runs over the player's entries from `since` up to it, inclusive.
    pub game: LedgerKey,
}

/// The seeds of players of a scope ([`Request::Seeds`]).
#[derive(Clone, Debug)]
pub struct Seeds {
    pub ledger: i32,
    pub scope: String,
    pub players: Vec<String>,
}

/// A seed read: (player, rating, rd, volatility).
pub type Seed = (String, f64, Option<f64>, Option<f64>);

/// A participant row read: (game, player, placement; `None`: not rated yet).
pub type Participant = (LedgerKey, String, Option<f64>);

/// What a run needs read, batched over its scopes; each is answered by the [`Answer`] of the same
/// name, lists in the order of the request.
#[derive(Clone, Debug)]
pub enum Request<T> {
    /// The season ends of these (ledger, scope), each sorted.
    Seasons(Vec<(i32, String)>),
    /// The current standings of those (ledger, scope, player) that have one, with the key of each
    /// one's latest game.
    Current(Vec<(i32, String, String)>),
    /// Each scope's rated games (or participant rows) from a game on, in key order.
    GamesFrom(Vec<GamesFrom<T>>),
    /// Takes each scope's entries from a game on out of the history; answers their players. A
    /// keeper may keep them until the write, to reuse what is unchanged.
    Take(Vec<Take>),
    /// Each player's standing after the player's latest entry before the game.
    Before(Vec<Before>),
    /// The sum of the absolute changes of a player's entries of a period up to a game, in game
    /// order ([`Standing::period_moved`]); a keeper that keeps whole standings answers theirs.
    PeriodMoved(Vec<Moved>),
    /// The seeds of those players that have one.
    Seeds(Vec<Seeds>),
}

/// The games of one [`GamesFrom`].
#[derive(Clone, Debug)]
pub enum GamesRead {
    TwoPlayer(Vec<LedgerGame>),
    Participants(Vec<Participant>),
}

/// The keeper's answer to a [`Request`] ([`Answer::Start`] for the first step).
#[derive(Clone, Debug)]
pub enum Answer {
    Start,
    Seasons(HashMap<(i32, String), Vec<SeasonEnd>>),
    Current(HashMap<(i32, String, String), (Standing, LedgerKey)>),
    Games(Vec<GamesRead>),
    Taken(Vec<Vec<String>>),
    Before(Vec<HashMap<String, (Standing, LedgerKey)>>),
    /// By (ledger, scope, player); a player not there keeps 0.
    PeriodMoved(HashMap<(i32, String, String), f64>),
    Seeds(Vec<Vec<Seed>>),
}

/// The rows of one scope to write.
#[derive(Clone, Debug)]
pub struct ScopeWrite<T> {
    pub book: T,
    pub ledger: i32,
    pub scope: String,
    pub entries: Vec<Entry>,
    /// Each affected player's standing, with the key of the player's last game.
    pub standings: StandingRows,
    /// The players left without games: their standings go.
    pub without_games: Vec<String>,
    pub writes: Writes,
}

/// A run's rows to write, scope by scope in the order the keeper writes them.
#[derive(Clone, Debug)]
pub struct Done<T> {
    pub scopes: Vec<ScopeWrite<T>>,
    /// The number of entries.
    pub written: usize,
    /// A checked rebuild's digests, its rows not made ([`Run::rebuild_checked`]).
    pub checked: Option<Checked>,
}

/// What a rebuild that expects the stored rows to be its own (a repair or a check of a ledger)
/// needs to digest its rows as the replay makes them, instead of keeping them: a ledger's two
/// million entries take 640 MB as a list.
#[derive(Clone, Debug)]
pub struct Check {
    /// Digests under the key the keeper digests the stored rows with.
    pub digests: RowDigests,
    /// Whether the games table's key is an integer: the `game` column's text of a key.
    pub integer_keys: bool,
}

/// The digests of a checked rebuild's rows ([`Done::checked`]), to compare with the stored rows'.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The number of scopes replayed (with games or not).
    pub scopes: usize,
    /// One per standings row.
    pub standings: DigestSet,
    /// The number of standings rows (as many as digests unless two rows were alike).
    pub standings_rows: usize,
    /// The entries, order-free.
    pub entries: DigestSum,
}

/// A run's error, as a value: the keeper raises it.
#[derive(Clone, Debug, PartialEq)]
pub enum WriteError<T> {
    /// A replay's error in a ledger: the keeper names the game as its games table does.
    Replay { book: T, error: RatingError },
    /// Participant rows that make no game (the error names it).
    Participants(RatingError),
    /// An answer that is not the one asked for: a bug of the keeper.
    Answer(&'static str),
}

/// What the keeper does next.
#[derive(Debug)]
pub enum Step<T> {
    Read(Request<T>),
    Done(Result<Done<T>, WriteError<T>>),
}

/// The players of `games`.
pub fn players(games: &[LedgerGame]) -> BTreeSet<String> {
    sorted_set(
        games
            .iter()
            .flat_map(|g| [g.white.as_str(), g.black.as_str()]),
    )
}

/// The players of multiplayer games.
pub fn multi_players(games: &[MultiGame]) -> BTreeSet<String> {
    sorted_set(
        games
            .iter()
            .flat_map(|g| g.places.iter().map(|(p, _)| p.as_str())),
    )
}

/// The texts as a set, made from their byte order (a million players in a rebuild).
pub fn sorted_set<'a>(texts: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    crate::text_order::sorted_unique(texts)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// How a scope is written.
enum Mode {
    /// Appended after its players' current standings, if they allow ([`appendable`]).
    Append,
    /// Replayed from a game on.
    Replay(LedgerKey),
    /// Replayed from scratch (a rebuild).
    Fresh,
    /// Nothing to do.
    Skip,
}

enum Games {
    TwoPlayer(Vec<LedgerGame>),
    Multiplayer(MultiplayerRule, Vec<MultiGame>),
}

/// One scope of a run.
struct Job<T> {
    ledger: Ledger<T>,
    scope: String,
    kind: Kind,
    mode: Mode,
    olds: Vec<(String, LedgerKey)>,
    games: Games,
    /// The players of its games.
    playing: BTreeSet<String>,
    /// The players whose standings are written: those playing and those of the entries taken
    /// (a rebuild writes every player's it replays: this stays empty).
    affected: BTreeSet<String>,
    /// Each player's standing the replay starts from, with the key of its game.
    known: HashMap<String, (Standing, LedgerKey)>,
    /// Newcomers' seeds.
    seeded: HashMap<String, Standing>,
    seasons: Vec<SeasonEnd>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    Start,
    Seasons,
    Current,
    Games,
    Take,
    Before,
    Period,
    Seeds,
    /// Every answer in: [`Run::compute`] next.
    Finished,
    /// Computed (a checked rebuild's rows are made by [`Run::rows`]).
    Computed,
}

impl Phase {
    fn next(self) -> Phase {
        match self {
            Phase::Start => Phase::Seasons,
            Phase::Seasons => Phase::Current,
            Phase::Current => Phase::Games,
            Phase::Games => Phase::Take,
            Phase::Take => Phase::Before,
            Phase::Before => Phase::Period,
            Phase::Period => Phase::Seeds,
            Phase::Seeds | Phase::Finished => Phase::Finished,
            Phase::Computed => Phase::Computed,
        }
    }
}

/// A statement's (or a rebuild's) work on its scopes (locked by the keeper before): drive it with
/// [`Run::step`], first with [`Answer::Start`], then with the answer to each request, until it is
/// done.
pub struct Run<T> {
    jobs: Vec<Job<T>>,
    phase: Phase,
    /// Where a checked rebuild is ([`Run::rebuild_checked`]).
    checking: Checking,
}

/// The states of a checked rebuild: its rows are made only once digested, and only once.
enum Checking {
    /// Not a checked rebuild, or its rows already asked for.
    No,
    /// To be digested when the run is done.
    Pending(Check),
    /// Digested: [`Run::rows`] may make the rows.
    Digested,
}

impl<T: Clone> Run<T> {
    /// A statement's changes of two-player ledgers: each scope's new games appended when they
    /// come after its players' games (their rows batched: [`Writes::Batched`]), else the scope
    /// replayed from its earliest changed game ([`Writes::Now`]).
    pub fn apply(changes: Vec<ScopeChanges<T>>) -> Self {
        let jobs = changes
            .into_iter()
            .map(|c| {
                let mode = match &c.first_old {
                    None => Mode::Append,
                    Some(old) => {
                        let from = c.games.first().map_or(old, |g| old.min(&g.key));
                        Mode::Replay(from.clone())
                    }
                };
                let playing = match mode {
                    Mode::Append => players(&c.games),
                    _ => BTreeSet::new(),
                };
                Job::new(
                    c.ledger,
                    c.scope,
                    Kind::TwoPlayer,
                    mode,
                    c.olds,
                    Games::TwoPlayer(c.games),
                    playing,
                )
            })
            .collect();
        Run::of(jobs)
    }

    /// Scopes replayed from a game on ([`Writes::Now`]).
    pub fn replay(scopes: Vec<ReplayFrom<T>>) -> Self {
        let jobs = scopes
            .into_iter()
            .map(|r| {
                let games = match r.kind {
                    Kind::TwoPlayer => Games::TwoPlayer(Vec::new()),
                    Kind::Multiplayer(rule) => Games::Multiplayer(rule, Vec::new()),
                };
                Job::new(
                    r.ledger,
                    r.scope,
                    r.kind,
                    Mode::Replay(r.from),
                    r.olds,
                    games,
                    BTreeSet::new(),
                )
            })
            .collect();
        Run::of(jobs)
    }

    /// Scopes replayed from scratch ([`Writes::Rebuilt`]).
    pub fn rebuild(scopes: Vec<Fresh<T>>) -> Self {
        let jobs = scopes
            .into_iter()
            .map(|f| {
                let (kind, games, playing) = match f.games {
                    FreshGames::TwoPlayer(games) => {
                        let playing = players(&games);
                        (Kind::TwoPlayer, Games::TwoPlayer(games), playing)
                    }
                    FreshGames::Multiplayer(rule, games) => {
                        let playing = multi_players(&games);
                        (
                            Kind::Multiplayer(rule),
                            Games::Multiplayer(rule, games),
                            playing,
                        )
                    }
                };
                Job::new(
                    f.ledger,
                    f.scope,
                    kind,
                    Mode::Fresh,
                    Vec::new(),
                    games,
                    playing,
                )
            })
            .collect();
        Run::of(jobs)
    }

    /// [`Run::rebuild`] that digests its rows instead of making them ([`Done::checked`]): the
    /// keeper compares the digests with the stored rows' and, when they differ, asks for the
    /// rows with [`Run::rows`] (a second replay, from the answers already given).
    pub fn rebuild_checked(scopes: Vec<Fresh<T>>, check: Check) -> Self {
        Run {
            checking: Checking::Pending(check),
            ..Run::rebuild(scopes)
        }
    }

    /// The rows of a checked rebuild, once it is done.
    pub fn rows(&mut self) -> Result<Done<T>, WriteError<T>> {
        // (digested only once the run finished)
        if !matches!(self.checking, Checking::Digested) {
            return Err(WriteError::Answer(
                "rows asked of a run not checked to its end, or asked twice",
            ));
        }
        self.checking = Checking::No;
        self.finish()
    }

    fn of(jobs: Vec<Job<T>>) -> Self {
        Run {
            jobs,
            phase: Phase::Start,
            checking: Checking::No,
        }
    }

    /// Takes the answer to the last request (or [`Answer::Start`]) and says what to do next.
    pub fn step(&mut self, answer: Answer) -> Step<T> {
        match self.next_request(answer) {
            Err(e) => Step::Done(Err(e)),
            Ok(Some(request)) => Step::Read(request),
            Ok(None) => Step::Done(self.compute()),
        }
    }

    /// [`Run::step`] without the computation: takes the answer to the last request (or
    /// [`Answer::Start`]) and returns the next request, or none once every answer is in; then
    /// [`Run::compute`] makes the rows, reading nothing (a keeper may run it on a thread of its
    /// own meanwhile).
    pub fn next_request(&mut self, answer: Answer) -> Result<Option<Request<T>>, WriteError<T>> {
        if let Err(e) = self.take(answer) {
            // (nothing to compute from answers in part)
            self.phase = Phase::Computed;
            return Err(e);
        }
        loop {
            self.phase = self.phase.next();
            if self.phase == Phase::Finished {
                return Ok(None);
            }
            if let Some(request) = self.request() {
                return Ok(Some(request));
            }
        }
    }

    /// Replays each scope once every answer is in ([`Run::next_request`]): the rows to write
    /// (their digests when checked).
    pub fn compute(&mut self) -> Result<Done<T>, WriteError<T>> {
        if self.phase != Phase::Finished {
            return Err(WriteError::Answer(
                "a run computed before its answers were in, or twice",
            ));
        }
        self.phase = Phase::Computed;
        self.finish()
    }

    /// About how many rows a rebuild makes: its players' standings and their entries (one per
    /// player of each game), before it is replayed.
    pub fn rows_expected(&self) -> (usize, usize) {
        let standings = self.jobs.iter().map(|j| j.playing.len()).sum();
        let entries = self
            .jobs
            .iter()
            .map(|j| match &j.games {
                Games::TwoPlayer(games) => 2 * games.len(),
                Games::Multiplayer(_, games) => games.iter().map(|g| g.places.len()).sum(),
            })
            .sum();
        (standings, entries)
    }

    /// The request of the current phase, if any scope needs it.
    fn request(&mut self) -> Option<Request<T>> {
        let live = self.jobs.iter().filter(|j| !matches!(j.mode, Mode::Skip));
        let request = match self.phase {
            Phase::Seasons => Request::Seasons(
                live.filter(|j| j.ledger.keeper == Keeper::Engine)
                    .map(|j| (j.ledger.id, j.scope.clone()))
                    .collect(),
            ),
            Phase::Current => Request::Current(
                live.filter(|j| matches!(j.mode, Mode::Append))
                    .flat_map(|j| {
                        j.playing
                            .iter()
                            .map(|p| (j.ledger.id, j.scope.clone(), p.clone()))
                    })
                    .collect(),
            ),
            Phase::Games => Request::GamesFrom(
                live.filter_map(|j| {
                    let Mode::Replay(from) = &j.mode else {
                        return None;
                    };
                    Some(GamesFrom {
                        book: j.ledger.book.clone(),
                        ledger: j.ledger.id,
                        scope: j.scope.clone(),
                        from: from.clone(),
                        participants: matches!(j.kind, Kind::Multiplayer(_)),
                    })
                })
                .collect(),
            ),
            Phase::Take => Request::Take(
                self.jobs
                    .iter_mut()
                    .filter_map(|j| {
                        let Mode::Replay(from) = &j.mode else {
                            return None;
                        };
                        Some(Take {
                            ledger: j.ledger.id,
                            scope: j.scope.clone(),
                            from: from.clone(),
                            doomed: std::mem::take(&mut j.olds),
                        })
                    })
                    .collect(),
            ),
            Phase::Before => Request::Before(
                live.filter_map(|j| {
                    let Mode::Replay(from) = &j.mode else {
                        return None;
                    };
                    Some(Before {
                        ledger: j.ledger.id,
                        scope: j.scope.clone(),
                        players: j.affected.iter().cloned().collect(),
                        from: from.clone(),
                    })
                })
                .collect(),
            ),
            Phase::Period => Request::PeriodMoved(
                live.filter(|j| matches!(j.mode, Mode::Append | Mode::Replay(_)))
                    .filter_map(|j| Some((j, j.ledger.rules.limits.per_period?)))
                    .flat_map(|(j, cap)| {
                        j.known.iter().map(move |(p, (_, key))| Moved {
                            ledger: j.ledger.id,
                            scope: j.scope.clone(),
                            player: p.clone(),
                            since: cap.start_of(key.at),
                            game: key.clone(),
                        })
                    })
                    .collect(),
            ),
            Phase::Seeds => Request::Seeds(
                live.filter(|j| j.ledger.keeper == Keeper::Engine)
                    .filter_map(|j| {
                        let newcomers: Vec<String> = j
                            .playing
                            .iter()
                            .filter(|p| !j.known.contains_key(*p))
                            .cloned()
                            .collect();
                        (!newcomers.is_empty()).then(|| Seeds {
                            ledger: j.ledger.id,
                            scope: j.scope.clone(),
                            players: newcomers,
                        })
                    })
                    .collect(),
            ),
            Phase::Start | Phase::Finished | Phase::Computed => return None,
        };
        let empty = match &request {
            Request::Seasons(v) => v.is_empty(),
            Request::Current(v) => v.is_empty(),
            Request::GamesFrom(v) => v.is_empty(),
            Request::Take(v) => v.is_empty(),
            Request::Before(v) => v.is_empty(),
            Request::PeriodMoved(v) => v.is_empty(),
            Request::Seeds(v) => v.is_empty(),
        };
        (!empty).then_some(request)
    }

    /// Takes in the answer to the current phase's request.
    fn take(&mut self, answer: Answer) -> Result<(), WriteError<T>> {
        let live = self
            .jobs
            .iter_mut()
            .filter(|j| !matches!(j.mode, Mode::Skip));
        match (self.phase, answer) {
            (Phase::Start, Answer::Start) => {}
            (Phase::Seasons, Answer::Seasons(mut seasons)) => {
                for j in live.filter(|j| j.ledger.keeper == Keeper::Engine) {
                    j.seasons = seasons
                        .remove(&(j.ledger.id, j.scope.clone()))
                        .unwrap_or_default();
                }
            }
            (Phase::Current, Answer::Current(mut current)) => {
                for j in live.filter(|j| matches!(j.mode, Mode::Append)) {
                    let Games::TwoPlayer(games) = &j.games else {
                        return Err(WriteError::Answer("only two-player games are appended"));
                    };
                    let (id, scope) = (j.ledger.id, &j.scope);
                    j.known = j
                        .playing
                        .iter()
                        .filter_map(|p| {
                            let found = current.remove(&(id, scope.clone(), p.clone()))?;
                            Some((p.clone(), found))
                        })
                        .collect();
                    let latest: HashMap<String, LedgerKey> = j
                        .known
                        .iter()
                        .map(|(p, (_, k))| (p.clone(), k.clone()))
                        .collect();
                    if appendable(&latest, games) {
                        j.affected = j.playing.clone();
                        continue;
                    }
                    j.known.clear();
                    j.playing.clear();
                    j.mode = match games.first() {
                        Some(g) => Mode::Replay(g.key.clone()),
                        None => Mode::Skip,
                    };
                }
            }
            (Phase::Games, Answer::Games(read)) => {
                let replays = live.filter(|j| matches!(j.mode, Mode::Replay(_)));
                let mut read = read.into_iter();
                for j in replays {
                    let Some(games) = read.next() else {
                        return Err(WriteError::Answer("fewer games than scopes"));
                    };
                    // The entries from `from` on are those of these games and of the rows as
                    // they were: each found by its key (no scan of the scope's history).
                    match (games, &j.kind) {
                        (GamesRead::TwoPlayer(games), Kind::TwoPlayer) => {
                            j.olds.reserve(2 * games.len());
                            for g in &games {
                                j.olds.push((g.white.clone(), g.key.clone()));
                                j.olds.push((g.black.clone(), g.key.clone()));
                            }
                            j.playing = players(&games);
                            j.games = Games::TwoPlayer(games);
                        }
                        (GamesRead::Participants(rows), Kind::Multiplayer(rule)) => {
                            let games = games_of_participants(
                                rows.iter().map(|(k, p, place)| (k, p.as_str(), *place)),
                            )
                            .map_err(WriteError::Participants)?;
                            // one entry per participant, now or as the rows were
                            let olds = std::mem::take(&mut j.olds);
                            j.olds = rows.into_iter().map(|(k, p, _)| (p, k)).collect();
                            j.olds.extend(olds);
                            j.playing = multi_players(&games);
                            j.games = Games::Multiplayer(*rule, games);
                        }
                        _ => return Err(WriteError::Answer("games of another kind")),
                    }
                }
                if read.next().is_some() {
                    return Err(WriteError::Answer("more games than scopes"));
                }
            }
            (Phase::Take, Answer::Taken(taken)) => {
                let replays = live.filter(|j| matches!(j.mode, Mode::Replay(_)));
                let mut taken = taken.into_iter();
                for j in replays {
                    let Some(players) = taken.next() else {
                        return Err(WriteError::Answer("fewer entries taken than scopes"));
                    };
                    j.affected = j.playing.clone();
                    j.affected.extend(players);
                }
            }
            (Phase::Before, Answer::Before(before)) => {
                let replays = live.filter(|j| matches!(j.mode, Mode::Replay(_)));
                let mut before = before.into_iter();
                for j in replays {
                    let Some(known) = before.next() else {
                        return Err(WriteError::Answer("fewer standings before than scopes"));
                    };
                    j.known = known;
                }
            }
            (Phase::Period, Answer::PeriodMoved(moved)) => {
                for j in live.filter(|j| j.ledger.rules.limits.per_period.is_some()) {
                    for (p, (s, _)) in j.known.iter_mut() {
                        if let Some(m) = moved.get(&(j.ledger.id, j.scope.clone(), p.clone())) {
                            s.period_moved = *m;
                        }
                    }
                }
            }
            (Phase::Seeds, Answer::Seeds(seeds)) => {
                let mut seeds = seeds.into_iter();
                for j in live.filter(|j| j.ledger.keeper == Keeper::Engine) {
                    if j.playing.iter().all(|p| j.known.contains_key(p)) {
                        continue;
                    }
                    let Some(found) = seeds.next() else {
                        return Err(WriteError::Answer("fewer seeds than scopes"));
                    };
                    let system = &j.ledger.rules.system;
                    j.seeded = found
                        .into_iter()
                        .map(|(p, rating, rd, volatility)| {
                            (p, Standing::seeded(system, rating, rd, volatility))
                        })
                        .collect();
                }
            }
            _ => return Err(WriteError::Answer("an answer to another request")),
        }
        Ok(())
    }

    /// Replays each scope and returns the rows to write (their digests when checked).
    fn finish(&mut self) -> Result<Done<T>, WriteError<T>> {
        match std::mem::replace(&mut self.checking, Checking::No) {
            Checking::Pending(check) => {
                let done = self.checked(check)?;
                self.checking = Checking::Digested;
                return Ok(done);
            }
            Checking::Digested => return Err(WriteError::Answer("rows of a rebuild asked twice")),
            Checking::No => {}
        }
        let mut done = Done {
            scopes: Vec::with_capacity(self.jobs.len()),
            written: 0,
            checked: None,
        };
        for j in std::mem::take(&mut self.jobs) {
            let writes = match j.mode {
                Mode::Append => Writes::Batched,
                Mode::Replay(_) => Writes::Now,
                Mode::Fresh => Writes::Rebuilt,
                Mode::Skip => continue,
            };
            let rules = &j.ledger.rules;
            let mut standings = j.starting_standings();
            let last: HashMap<String, LedgerKey> =
                j.known.into_iter().map(|(p, (_, k))| (p, k)).collect();
            let entries = match &j.games {
                Games::TwoPlayer(games) => replay_seasons(rules, &j.seasons, &mut standings, games),
                Games::Multiplayer(rule, games) => {
                    replay_multiplayer_seasons(rules, *rule, &j.seasons, &mut standings, games)
                }
            }
            .map_err(|error| WriteError::Replay {
                book: j.ledger.book.clone(),
                error,
            })?;
            done.written += entries.len();
            let (rows, without) = match j.mode {
                Mode::Fresh => rebuilt_standings(&entries, standings),
                _ => standings_to_write(&entries, &standings, last, j.affected),
            };
            done.scopes.push(ScopeWrite {
                book: j.ledger.book,
                ledger: j.ledger.id,
                scope: j.scope,
                entries,
                standings: rows,
                without_games: without,
                writes,
            });
        }
        Ok(done)
    }
}

impl<T: Clone> Run<T> {
    /// Replays each scope of a rebuild, its jobs kept for [`Run::rows`], and digests the rows it
    /// would write: standings in a set, entries in a sum, none of them kept.
    fn checked(&mut self, mut check: Check) -> Result<Done<T>, WriteError<T>> {
        let players = self.jobs.iter().map(|j| j.playing.len()).sum();
        let mut standings_digests =
            DigestSet::with_capacity_and_hasher(players, Default::default());
        let mut standings_rows = 0;
        let mut entries_digest = EntriesDigest::new(check.integer_keys);
        let digests = &mut check.digests;
        for j in &self.jobs {
            if !matches!(j.mode, Mode::Fresh) {
                return Err(WriteError::Answer("only a rebuild is checked"));
            }
            let (ledger, scope, rules) = (j.ledger.id, j.scope.as_str(), &j.ledger.rules);
            let mut standings = j.starting_standings();
            let mut digest = |e: EntryRef<'_>| entries_digest.add(digests, ledger, scope, &e);
            let failed = |error| WriteError::Replay {
                book: j.ledger.book.clone(),
                error,
            };
            match &j.games {
                Games::TwoPlayer(games) => {
                    replay_seasons_into(rules, &j.seasons, &mut standings, games, &mut digest)
                        .map_err(failed)?;
                    standings_rows += standings.len();
                    // each player's last game found from the last back, as rebuilt_standings does
                    for g in games.iter().rev() {
                        if standings.is_empty() {
                            break;
                        }
                        crate::interrupt::check();
                        for p in [&g.white, &g.black] {
                            if let Some(s) = standings.remove(p) {
                                let cells = standing_row_cells(ledger, scope, p, &s, &g.key);
                                standings_digests.insert(digests.of_cells(&cells));
                            }
                        }
                    }
                    // (every player of a replay from scratch has a game: none is left)
                    standings_rows -= standings.len();
                }
                Games::Multiplayer(rule, games) => {
                    let entries =
                        replay_multiplayer_seasons(rules, *rule, &j.seasons, &mut standings, games)
                            .map_err(failed)?;
                    let (rows, _) = rebuilt_standings(&entries, standings);
                    for e in &entries {
                        crate::interrupt::check();
                        digest(e.as_ref());
                    }
                    standings_rows += rows.len();
                    for (p, s, key) in &rows {
                        crate::interrupt::check();
                        let cells = standing_row_cells(ledger, scope, p, s, key);
                        standings_digests.insert(digests.of_cells(&cells));
                    }
                }
            }
        }
        Ok(Done {
            scopes: Vec::new(),
            written: entries_digest.sum.rows(),
            checked: Some(Checked {
                scopes: self.jobs.len(),
                standings: standings_digests,
                standings_rows,
                entries: entries_digest.sum,
            }),
        })
    }
}

impl<T> Job<T> {
    /// Each player's standing before the replay: as known, else a newcomer's (a seed, or a
    /// ranking's newcomer); a player without either starts as the rating system does.
    fn starting_standings(&self) -> HashMap<String, Standing> {
        let rules = &self.ledger.rules;
        // (room for every player at once: a rebuild's million would rehash the map 20 times)
        let mut standings: HashMap<String, Standing> =
            HashMap::with_capacity(self.known.len().max(self.playing.len()));
        standings.extend(self.known.iter().map(|(p, (s, _))| (p.clone(), *s)));
        match self.ledger.keeper {
            // (the seeded players only: a rebuild's million others start at their first game)
            Keeper::Engine => {
                for (p, s) in &self.seeded {
                    if self.playing.contains(p) && !standings.contains_key(p) {
                        standings.insert(p.clone(), *s);
                    }
                }
            }
            Keeper::Ranking => {
                for p in &self.playing {
                    if !standings.contains_key(p) {
                        standings.insert(p.clone(), crate::ranking::newcomer(&rules.system));
                    }
                }
            }
        }
        standings
    }

    fn new(
        ledger: Ledger<T>,
        scope: String,
        kind: Kind,
        mode: Mode,
        olds: Vec<(String, LedgerKey)>,
        games: Games,
        playing: BTreeSet<String>,
    ) -> Self {
        Job {
            ledger,
            scope,
            kind,
            mode,
            olds,
            games,
            playing,
            affected: BTreeSet::new(),
            known: HashMap::new(),
            seeded: HashMap::new(),
            seasons: Vec::new(),
        }
    }
}

/// The standings after a replay from scratch: every player's last, with the key of the player's
/// last entry (players are found from the last entry back, each once: a rebuild's million
/// standings are looked up once each, not three times); and the players left with none.
fn rebuilt_standings(
    entries: &[Entry],
    mut standings: HashMap<String, Standing>,
) -> (StandingRows, Vec<String>) {
    let mut rows = Vec::with_capacity(standings.len());
    for e in entries.iter().rev() {
        if standings.is_empty() {
            break;
        }
        // (the map's own copy of the name goes into the row: none made)
        if let Some((player, s)) = standings.remove_entry(e.player.as_str()) {
            rows.push((player, s, e.key.clone()));
        }
    }
    // (every player of a replay from scratch has an entry: none is left)
    let mut without: Vec<String> = standings.into_keys().collect();
    without.sort_unstable();
    (rows, without)
}

/// The standings of `affected` players after a replay: the replay's last standing, else the one
/// before the replay (`last` holds its game); and the players left with none.
fn standings_to_write(
    entries: &[Entry],
    standings: &HashMap<String, Standing>,
    mut last: HashMap<String, LedgerKey>,
    affected: BTreeSet<String>,
) -> (StandingRows, Vec<String>) {
    // each player's last entry: the first seen from the end (a key cloned only for the row
    // written: a rebuild has a million players)
    let mut latest: HashMap<&str, &LedgerKey> = HashMap::with_capacity(affected.len());
    for e in entries.iter().rev() {
        latest.entry(e.player.as_str()).or_insert(&e.key);
    }
    let (mut rows, mut without) = (Vec::with_capacity(affected.len()), Vec::new());
    for p in affected {
        let key = match latest.get(p.as_str()) {
            Some(k) => Some((*k).clone()),
            None => last.remove(&p),
        };
        match (standings.get(&p), key) {
            (Some(s), Some(key)) => rows.push((p, *s, key)),
            _ => without.push(p),
        }
    }
    (rows, without)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::ledger::attachment::game_key_text;
    use crate::ledger::rows::entry_cells;
    use crate::ledger::{integer_key, replay_seasons, Limits, Outcome, Provisional};
    use crate::rating::glicko2;
    use crate::rating::RatingSystem;
    use crate::test_rng::Rng;

    /// One season end, in scope "a" only: a replay must apply it wherever it starts.
    fn seasons(scope: &str) -> Vec<SeasonEnd> {
        match scope {
            "a" => vec![SeasonEnd {
                at: 500,
                pull: 0.5,
                rd_floor: Some(120.0),
            }],
            _ => Vec::new(),
        }
    }

    fn ledger(rules: LedgerRules) -> Ledger<()> {
        Ledger {
            book: (),
            id: 1,
            rules,
            keeper: Keeper::Engine,
        }
    }

    /// A rebuild's scopes: every scope of `games` from scratch.
    fn fresh_scopes(
        games: &BTreeMap<String, BTreeMap<LedgerKey, LedgerGame>>,
        rules: LedgerRules,
    ) -> Vec<Fresh<()>> {
        games
            .iter()
            .map(|(s, games)| Fresh {
                ledger: ledger(rules),
                scope: s.clone(),
                games: FreshGames::TwoPlayer(games.values().cloned().collect()),
            })
            .collect()
    }

    /// A ledger kept in memory: its games table, entries and standings, as the database keeps
    /// them (entries by scope, player and game; a standing with its player's last game); it
    /// drives a [`Run`] as the glue does, answering its requests and writing its rows.
    #[derive(Default)]
    struct Memory {
        games: BTreeMap<String, BTreeMap<LedgerKey, LedgerGame>>,
        entries: BTreeMap<(String, String, LedgerKey), Entry>,
        standings: BTreeMap<(String, String), (Standing, LedgerKey)>,
        seeds: BTreeMap<(String, String), f64>,
        batch: Vec<(String, Vec<Entry>, StandingRows)>,
        /// Scopes read from a game on (replays).
        replays: usize,
        /// The requests of the last run, in order.
        asked: Vec<Request<()>>,
    }

    impl Memory {
        fn store(&mut self, scope: &str, entries: Vec<Entry>, standings: StandingRows) {
            for e in entries {
                let key = (scope.to_owned(), e.player.clone(), e.key.clone());
                assert!(
                    self.entries.insert(key, e).is_none(),
                    "an entry written twice"
                );
            }
            for (player, standing, key) in standings {
                self.standings
                    .insert((scope.to_owned(), player), (standing, key));
            }
        }

        fn flush(&mut self) {
            for (scope, entries, standings) in std::mem::take(&mut self.batch) {
                self.store(&scope, entries, standings);
            }
        }

        /// Drives a run to its end: answers each request, then writes its rows.
        fn drive(&mut self, mut run: Run<()>) -> Result<usize, WriteError<()>> {
            self.asked.clear();
            let mut answer = Answer::Start;
            loop {
                match run.step(answer) {
                    Step::Read(request) => {
                        self.asked.push(request.clone());
                        answer = self.read(request);
                    }
                    Step::Done(done) => {
                        let done = done?;
                        for w in done.scopes {
                            self.write(w);
                        }
                        return Ok(done.written);
                    }
                }
            }
        }

        fn read(&mut self, request: Request<()>) -> Answer {
            match request {
                Request::Seasons(scopes) => Answer::Seasons(
                    scopes
                        .into_iter()
                        .map(|(l, s)| {
                            let ends = seasons(&s);
                            ((l, s), ends)
                        })
                        .collect(),
                ),
                Request::Current(wanted) => Answer::Current(
                    wanted
                        .into_iter()
                        .filter_map(|(l, s, p)| {
                            let found = self.standings.get(&(s.clone(), p.clone()))?.clone();
                            Some(((l, s, p), found))
                        })
                        .collect(),
                ),
                Request::GamesFrom(scopes) => Answer::Games(
                    scopes
                        .into_iter()
                        .map(|g| {
                            self.replays += 1;
                            let games = self
                                .games
                                .get(&g.scope)
                                .map(|t| {
                                    t.range(g.from.clone()..).map(|(_, g)| g.clone()).collect()
                                })
                                .unwrap_or_default();
                            GamesRead::TwoPlayer(games)
                        })
                        .collect(),
                ),
                Request::Take(scopes) => Answer::Taken(
                    scopes
                        .into_iter()
                        .map(|t| {
                            t.doomed
                                .into_iter()
                                .filter_map(|(p, k)| {
                                    let e = self.entries.remove(&(t.scope.clone(), p, k))?;
                                    Some(e.player)
                                })
                                .collect()
                        })
                        .collect(),
                ),
                Request::Before(scopes) => Answer::Before(
                    scopes
                        .into_iter()
                        .map(|b| {
                            b.players
                                .into_iter()
                                .filter_map(|p| {
                                    let low = (
                                        b.scope.clone(),
                                        p.clone(),
                                        LedgerKey {
                                            at: i64::MIN,
                                            id: String::new(),
                                        },
                                    );
                                    let high = (b.scope.clone(), p.clone(), b.from.clone());
                                    let (_, e) = self.entries.range(low..high).next_back()?;
                                    let found = (e.after, e.key.clone());
                                    Some((p, found))
                                })
                                .collect()
                        })
                        .collect(),
                ),
                // whole standings are kept here: what the entry of the game says
                Request::PeriodMoved(wanted) => Answer::PeriodMoved(
                    wanted
                        .into_iter()
                        .filter_map(|m| {
                            let e = self.entries.get(&(
                                m.scope.clone(),
                                m.player.clone(),
                                m.game.clone(),
                            ))?;
                            let moved = e.after.period_moved;
                            Some(((m.ledger, m.scope, m.player), moved))
                        })
                        .collect(),
                ),
                Request::Seeds(scopes) => Answer::Seeds(
                    scopes
                        .into_iter()
                        .map(|s| {
                            s.players
                                .into_iter()
                                .filter_map(|p| {
                                    let rating = *self.seeds.get(&(s.scope.clone(), p.clone()))?;
                                    Some((p, rating, None, None))
                                })
                                .collect()
                        })
                        .collect(),
                ),
            }
        }

        fn write(&mut self, w: ScopeWrite<()>) {
            for p in w.without_games {
                self.standings.remove(&(w.scope.clone(), p));
            }
            match w.writes {
                Writes::Batched => self.batch.push((w.scope, w.entries, w.standings)),
                _ => self.store(&w.scope, w.entries, w.standings),
            }
        }
    }

    /// A statement on the games table: rows deleted, rows inserted, rows updated (as they were
    /// and as they are). The table changes first, then the writer runs, as an AFTER trigger does.
    fn run(
        memory: &mut Memory,
        rules: &LedgerRules,
        old: Vec<(String, LedgerGame)>,
        new: Vec<(String, LedgerGame)>,
    ) {
        for (scope, g) in &old {
            memory.games.get_mut(scope).map(|t| t.remove(&g.key));
        }
        for (scope, g) in &new {
            memory
                .games
                .entry(scope.clone())
                .or_default()
                .insert(g.key.clone(), g.clone());
        }
        let mut by_scope: BTreeMap<&str, (Vec<&LedgerGame>, Vec<LedgerGame>)> = BTreeMap::new();
        for (scope, g) in &old {
            by_scope.entry(scope).or_default().0.push(g);
        }
        for (scope, g) in &new {
            by_scope.entry(scope).or_default().1.push(g.clone());
        }
        let changes = by_scope
            .into_iter()
            .map(|(scope, (olds, mut games))| {
                games.sort_by(|a, b| a.key.cmp(&b.key));
                ScopeChanges {
                    ledger: ledger(*rules),
                    scope: scope.to_owned(),
                    first_old: olds.iter().map(|g| g.key.clone()).min(),
                    olds: olds
                        .iter()
                        .flat_map(|g| {
                            [
                                (g.white.clone(), g.key.clone()),
                                (g.black.clone(), g.key.clone()),
                            ]
                        })
                        .collect(),
                    games,
                }
            })
            .collect();
        memory.drive(Run::apply(changes)).unwrap();
        memory.flush();
    }

    /// The history equals a replay of every game from scratch (each player starting from the
    /// seed, if any), and each standing is its player's last entry's.
    fn check(memory: &Memory, rules: &LedgerRules, step: usize) {
        let mut want_entries = BTreeMap::new();
        let mut want_standings = BTreeMap::new();
        for (scope, games) in &memory.games {
            let games: Vec<LedgerGame> = games.values().cloned().collect();
            let mut standings: HashMap<String, Standing> = memory
                .seeds
                .iter()
                .filter(|((s, _), _)| s == scope)
                .map(|((_, p), r)| (p.clone(), Standing::seeded(&rules.system, *r, None, None)))
                .collect();
            let entries = replay_seasons(rules, &seasons(scope), &mut standings, &games).unwrap();
            for e in entries {
                let key = e.key.clone();
                want_standings.insert((scope.clone(), e.player.clone()), (e.after, key.clone()));
                want_entries.insert((scope.clone(), e.player.clone(), key), e);
            }
        }
        assert_eq!(memory.entries, want_entries, "entries after step {step}");
        assert_eq!(
            memory.standings, want_standings,
            "standings after step {step}"
        );
    }

    fn game(rng: &mut Rng, n: &mut i64, at: i64) -> LedgerGame {
        const PLAYERS: [&str; 6] = ["ann", "bob", "cy", "dee", "eve", "fay"];
        *n += 1;
        let white = rng.pick(&PLAYERS);
        let mut black = rng.pick(&PLAYERS);
        while black == white {
            black = rng.pick(&PLAYERS);
        }
        let outcome = if rng.one_in(10) {
            Outcome::DoubleLoss
        } else {
            Outcome::White(rng.pick(&[0.0, 0.5, 1.0]))
        };
        LedgerGame {
            key: LedgerKey {
                at,
                id: integer_key(*n),
            },
            white: white.into(),
            black: black.into(),
            outcome,
        }
    }

    /// Random statements (games added in order and backdated, deleted, corrected, re-dated,
    /// moved to another scope, several at once) keep the history equal to a from-scratch replay
    /// (two players starting from seeds),
    /// for Elo, for Glicko-2 with a season end, and for Elo with a cap per game and per period
    /// (what a player moved in the period carried by the standings a replay starts from).
    #[test]
    fn every_statement_leaves_the_history_of_a_replay_from_scratch() {
        let capped = Limits {
            max_change: Some(20.0),
            per_period: Some(crate::ledger::PeriodCap {
                max: 30.0,
                micros: 10,
            }),
            ..Limits::default()
        };
        let systems = [
            (
                RatingSystem::Elo {
                    starting: 1500.0,
                    k: 32.0,
                },
                Limits::default(),
            ),
            (
                RatingSystem::Glicko2 {
                    starting: glicko2::Rating::new(1500.0, 350.0, 0.06),
                    tau: 0.5,
                    rule: glicko2::GameRule::Glickman,
                    period_micros: None,
                    bounds: glicko2::Bounds::default(),
                },
                Limits::default(),
            ),
            (
                RatingSystem::Elo {
                    starting: 1500.0,
                    k: 64.0,
                },
                capped,
            ),
        ];
        for (seed, (system, limits)) in systems.into_iter().enumerate() {
            let rules = LedgerRules {
                system,
                limits,
                provisional: Provisional::default(),
            };
            let mut rng = Rng::new(seed as u64 + 11);
            let (mut memory, mut n, mut now) = (Memory::default(), 0, 0);
            memory.seeds.insert(("a".into(), "fay".into()), 1700.0);
            memory.seeds.insert(("b".into(), "eve".into()), 1350.0);
            for step in 0..400 {
                let scope = rng.pick(&["a", "b"]).to_owned();
                let existing: Vec<(String, LedgerGame)> = memory
                    .games
                    .iter()
                    .flat_map(|(s, g)| g.values().map(move |g| (s.clone(), g.clone())))
                    .collect();
                let (old, new) = match rng.below(10) {
                    // one to three games after every other: appended
                    0..=4 => {
                        let new = (0..1 + rng.below(3))
                            .map(|_| {
                                now += rng.int(0, 3);
                                (scope.clone(), game(&mut rng, &mut n, now))
                            })
                            .collect();
                        (Vec::new(), new)
                    }
                    // a game played earlier
                    5 => {
                        let at = rng.int(0, now.max(1));
                        (Vec::new(), vec![(scope, game(&mut rng, &mut n, at))])
                    }
                    _ if existing.is_empty() => continue,
                    // a game voided
                    6 => (
                        vec![existing[rng.below(existing.len())].clone()],
                        Vec::new(),
                    ),
                    // a game corrected: its result, date, a player or its scope
                    _ => {
                        let (s, g) = existing[rng.below(existing.len())].clone();
                        let mut fixed = g.clone();
                        let mut to = s.clone();
                        match rng.below(4) {
                            0 => fixed.outcome = Outcome::White(1.0 - score_of(&g)),
                            1 => fixed.key.at = rng.int(0, now.max(1)),
                            2 => {
                                let other = game(&mut rng, &mut n, 0);
                                if other.white != fixed.black {
                                    fixed.white = other.white;
                                }
                            }
                            _ => to = if s == "a" { "b".into() } else { "a".into() },
                        }
                        (vec![(s, g)], vec![(to, fixed)])
                    }
                };
                run(&mut memory, &rules, old, new);
                check(&memory, &rules, step);
            }
            assert!(memory.entries.len() > 200, "a history worth checking");
            if rules.limits.per_period.is_some() {
                let spent = memory
                    .entries
                    .values()
                    .filter(|e| (e.after.period_moved - 30.0).abs() < 1e-9)
                    .count();
                assert!(
                    spent > 10,
                    "the cap per period is reached ({spent} entries)"
                );
            }
        }
    }

    fn score_of(g: &LedgerGame) -> f64 {
        match g.outcome {
            Outcome::White(s) => s,
            Outcome::DoubleLoss => 0.0,
        }
    }

    /// An in-order game is appended (two entries, batched, no replay); a game before a
    /// player's last game replays the scope from it.
    #[test]
    fn an_in_order_game_is_appended_and_an_earlier_one_replays() {
        let rules = elo();
        let mut rng = Rng::new(3);
        let (mut memory, mut n) = (Memory::default(), 0);
        let first = game(&mut rng, &mut n, 10);
        let first_white = first.white.clone();
        run(&mut memory, &rules, Vec::new(), vec![("b".into(), first)]);
        let second = game(&mut rng, &mut n, 20);
        let changes = vec![ScopeChanges {
            ledger: ledger(rules),
            scope: "b".into(),
            first_old: None,
            olds: Vec::new(),
            games: vec![second.clone()],
        }];
        memory
            .games
            .entry("b".into())
            .or_default()
            .insert(second.key.clone(), second);
        assert_eq!(memory.drive(Run::apply(changes)), Ok(2));
        assert_eq!(memory.batch.len(), 1, "appended rows wait for the flush");
        assert_eq!(memory.replays, 0);
        memory.flush();
        check(&memory, &rules, 0);
        let mut earlier = game(&mut rng, &mut n, 5);
        (earlier.white, earlier.black) = (first_white, "zed".into());
        run(&mut memory, &rules, Vec::new(), vec![("b".into(), earlier)]);
        assert_eq!(memory.replays, 1);
        check(&memory, &rules, 1);
    }

    use crate::ledger::replay::tests::elo_rules as elo;

    /// The kinds of the requests of the last run, in order.
    fn kinds(memory: &Memory) -> Vec<&'static str> {
        memory
            .asked
            .iter()
            .map(|r| match r {
                Request::Seasons(_) => "seasons",
                Request::Current(_) => "current",
                Request::GamesFrom(_) => "games",
                Request::Take(_) => "take",
                Request::Before(_) => "before",
                Request::PeriodMoved(_) => "moved",
                Request::Seeds(_) => "seeds",
            })
            .collect()
    }

    /// A statement of games in eight scopes asks once for all their seasons, once for all their
    /// players' standings, once for all newcomers' seeds (and, with a cap per period, once for
    /// the moves of all players with a standing): the round trips do not grow with the scopes.
    #[test]
    fn a_statement_of_many_scopes_reads_in_one_request_of_each_kind() {
        let mut rng = Rng::new(5);
        let capped = LedgerRules {
            limits: Limits {
                per_period: Some(crate::ledger::PeriodCap {
                    max: 30.0,
                    micros: 10,
                }),
                ..Limits::default()
            },
            ..elo()
        };
        for rules in [elo(), capped] {
            let (mut memory, mut n) = (Memory::default(), 0);
            let scopes: Vec<String> = (0..8).map(|i| format!("s{i}")).collect();
            for round in 0..3 {
                let new: Vec<(String, LedgerGame)> = scopes
                    .iter()
                    .map(|s| (s.clone(), game(&mut rng, &mut n, 10 * round + 1)))
                    .collect();
                run(&mut memory, &rules, Vec::new(), new);
                check(&memory, &rules, round as usize);
                let want: &[&str] = match (round, rules.limits.per_period.is_some()) {
                    (0, _) => &["seasons", "current", "seeds"],
                    (_, false) => &["seasons", "current", "seeds"],
                    (_, true) => &["seasons", "current", "moved", "seeds"],
                };
                let asked = kinds(&memory);
                // after the first round a game may bring no newcomer at all
                let asked: Vec<&str> = if round > 0 && !asked.contains(&"seeds") {
                    asked.into_iter().chain(["seeds"]).collect()
                } else {
                    asked
                };
                assert_eq!(asked, want, "round {round}");
                match &memory.asked[1] {
                    Request::Current(wanted) => assert_eq!(wanted.len(), 16),
                    other => panic!("{other:?}"),
                }
                match &memory.asked[0] {
                    Request::Seasons(wanted) => assert_eq!(wanted.len(), 8),
                    other => panic!("{other:?}"),
                }
            }
            assert_eq!(memory.replays, 0);
        }
    }

    /// Backdated games in three scopes replay them in one request of each kind (games, entries
    /// taken, standings before), whatever the number of scopes.
    #[test]
    fn replays_of_several_scopes_read_in_one_request_of_each_kind() {
        let rules = elo();
        let mut rng = Rng::new(8);
        let (mut memory, mut n) = (Memory::default(), 0);
        let scopes = ["a", "b", "c"];
        for at in [100, 200, 300] {
            let new = scopes
                .iter()
                .map(|s| (s.to_string(), game(&mut rng, &mut n, at)))
                .collect();
            run(&mut memory, &rules, Vec::new(), new);
        }
        let existing: Vec<(String, LedgerGame)> = scopes
            .iter()
            .map(|s| {
                let g = memory.games[*s].values().nth(1).unwrap().clone();
                (s.to_string(), g)
            })
            .collect();
        let fixed = existing
            .iter()
            .map(|(s, g)| {
                let mut g = g.clone();
                g.outcome = Outcome::White(1.0 - score_of(&g));
                (s.clone(), g)
            })
            .collect();
        run(&mut memory, &rules, existing, fixed);
        check(&memory, &rules, 0);
        // (seeds for players whose first game is replayed)
        let asked = kinds(&memory);
        assert_eq!(asked[..4], ["seasons", "games", "take", "before"]);
        assert!(
            asked[4..] == [] as [&str; 0] || asked[4..] == ["seeds"],
            "{asked:?}"
        );
        assert_eq!(memory.replays, 3);
        match &memory.asked[1] {
            Request::GamesFrom(scopes) => assert_eq!(scopes.len(), 3),
            other => panic!("{other:?}"),
        }
    }

    /// A rebuild reads the seasons and seeds of all its scopes, one request each, and writes
    /// every scope's rows for the keeper's rebuild.
    #[test]
    fn a_rebuild_asks_for_seasons_and_seeds_once() {
        let rules = elo();
        let mut rng = Rng::new(13);
        let (mut memory, mut n) = (Memory::default(), 0);
        memory.seeds.insert(("b".into(), "ann".into()), 1800.0);
        for (s, at) in [("a", 1), ("b", 2), ("a", 600), ("b", 700)] {
            let g = game(&mut rng, &mut n, at);
            memory
                .games
                .entry(s.into())
                .or_default()
                .insert(g.key.clone(), g);
        }
        let mut run = Run::rebuild(fresh_scopes(&memory.games, rules));
        let mut answer = Answer::Start;
        let writes;
        loop {
            match run.step(answer) {
                Step::Read(r) => {
                    memory.asked.push(r.clone());
                    answer = memory.read(r);
                }
                Step::Done(done) => {
                    writes = done.unwrap().scopes;
                    break;
                }
            }
        }
        assert_eq!(kinds(&memory), ["seasons", "seeds"]);
        assert!(writes.iter().all(|w| w.writes == Writes::Rebuilt));
        for w in writes {
            memory.write(w);
        }
        check(&memory, &rules, 0);
    }

    /// A checked rebuild digests exactly the rows a rebuild makes (two-player and multiplayer
    /// scopes, a seed, a season end), keeps none, and gives them when asked; another K changes
    /// the digests.
    #[test]
    fn a_checked_rebuild_digests_the_rows_a_rebuild_makes() {
        let mut rng = Rng::new(29);
        let (mut memory, mut n) = (Memory::default(), 0);
        memory.seeds.insert(("b".into(), "ann".into()), 1800.0);
        for (s, at) in [("a", 1), ("b", 2), ("a", 600), ("b", 700), ("a", 800)] {
            let g = game(&mut rng, &mut n, at);
            let games = memory.games.entry(s.into()).or_default();
            games.insert(g.key.clone(), g);
        }
        let multi = |id: i64, at: i64, places: &[(&str, f64)]| MultiGame {
            key: LedgerKey {
                at,
                id: integer_key(id),
            },
            places: places.iter().map(|(p, x)| (p.to_string(), *x)).collect(),
        };
        let games = memory.games.clone();
        let fresh = |rules: LedgerRules| {
            let mut fresh = fresh_scopes(&games, rules);
            fresh.push(Fresh {
                ledger: ledger(rules),
                scope: "m".into(),
                games: FreshGames::Multiplayer(
                    MultiplayerRule::Pairwise,
                    vec![
                        multi(90, 3, &[("ann", 1.0), ("bob", 2.0), ("cy", 3.0)]),
                        multi(91, 4, &[("bob", 1.0), ("cy", 1.0)]),
                    ],
                ),
            });
            fresh
        };
        let drive = |memory: &mut Memory, run: &mut Run<()>| {
            let mut answer = Answer::Start;
            loop {
                match run.step(answer) {
                    Step::Read(r) => answer = memory.read(r),
                    Step::Done(done) => return done.unwrap(),
                }
            }
        };
        // (the key the rows' digests are made with below too)
        let key = RowDigests::new();
        let check = Check {
            digests: key.clone(),
            integer_keys: true,
        };
        let mut run = Run::rebuild_checked(fresh(elo()), check);
        assert!(run.rows().is_err(), "no rows before the run is done");
        let done = drive(&mut memory, &mut run);
        assert!(done.scopes.is_empty(), "a checked rebuild makes no rows");
        let checked = done.checked.expect("the digests of a checked rebuild");
        let rows = run.rows().unwrap();
        assert!(rows.checked.is_none());
        assert!(run.rows().is_err(), "rows are made once");
        assert_eq!(rows.written, done.written);

        // the rows' digests, under the same key
        let mut digests = key.clone();
        let (mut standings, mut entries) = (DigestSet::default(), DigestSum::default());
        let mut standings_rows = 0;
        for w in &rows.scopes {
            for e in &w.entries {
                let game = game_key_text(&e.key.id, true);
                entries.add(digests.of_cells(&entry_cells(1, &w.scope, &game, &e.as_ref())));
            }
            for (p, s, key) in &w.standings {
                standings.insert(digests.of_cells(&standing_row_cells(1, &w.scope, p, s, key)));
                standings_rows += 1;
            }
        }
        assert_eq!(entries.rows(), rows.written);
        assert!(rows
            .scopes
            .iter()
            .any(|w| w.scope == "m" && w.entries.len() == 5));
        assert_eq!(entries, checked.entries);
        assert_eq!(standings, checked.standings);
        assert_eq!(standings_rows, checked.standings_rows);
        assert_eq!(checked.scopes, 3);

        // another K: other standings, other entries
        let mut other = elo();
        other.system = RatingSystem::Elo {
            starting: 1500.0,
            k: 24.0,
        };
        let same_key = Check {
            digests: key,
            integer_keys: true,
        };
        let mut run = Run::rebuild_checked(fresh(other), same_key);
        let again = drive(&mut memory, &mut run).checked.unwrap();
        assert_ne!(again.entries, checked.entries);
        assert_eq!(again.standings.intersection(&checked.standings).count(), 0);
    }

    /// Errors are values: a replay's error names its ledger's book, participant rows of one game
    /// with two dates are refused, and an answer to another request is the keeper's bug.
    #[test]
    fn errors_are_returned_not_raised() {
        let rules = elo();
        let key = |at, id: i64| LedgerKey {
            at,
            id: integer_key(id),
        };
        let twice = LedgerGame {
            key: key(1, 1),
            white: "ann".into(),
            black: "ann".into(),
            outcome: Outcome::White(1.0),
        };
        let mut run = Run::rebuild(vec![Fresh {
            ledger: Ledger {
                book: "mine",
                id: 1,
                rules,
                keeper: Keeper::Engine,
            },
            scope: String::new(),
            games: FreshGames::TwoPlayer(vec![twice]),
        }]);
        let Step::Read(Request::Seasons(_)) = run.step(Answer::Start) else {
            panic!("seasons first")
        };
        let Step::Read(Request::Seeds(_)) = run.step(Answer::Seasons(HashMap::new())) else {
            panic!("then seeds")
        };
        match run.step(Answer::Seeds(vec![Vec::new()])) {
            Step::Done(Err(WriteError::Replay { book: "mine", .. })) => {}
            other => panic!("{other:?}"),
        }

        let multi = Ledger {
            book: "multi",
            id: 2,
            rules,
            keeper: Keeper::Engine,
        };
        let mut run = Run::replay(vec![ReplayFrom {
            ledger: multi,
            kind: Kind::Multiplayer(MultiplayerRule::Pairwise),
            scope: String::new(),
            from: key(1, 1),
            olds: Vec::new(),
        }]);
        assert!(matches!(
            run.step(Answer::Start),
            Step::Read(Request::Seasons(_))
        ));
        let Step::Read(Request::GamesFrom(read)) = run.step(Answer::Seasons(HashMap::new())) else {
            panic!("then games")
        };
        assert!(read[0].participants);
        let rows = vec![
            (key(1, 1), "ann".to_owned(), Some(1.0)),
            (key(2, 1), "bob".to_owned(), Some(2.0)),
        ];
        match run.step(Answer::Games(vec![GamesRead::Participants(rows)])) {
            Step::Done(Err(WriteError::Participants(e))) => {
                assert!(e.message.contains("different dates"), "{}", e.message)
            }
            other => panic!("{other:?}"),
        }

        let mut run = Run::apply(vec![ScopeChanges {
            ledger: ledger(rules),
            scope: String::new(),
            first_old: None,
            olds: Vec::new(),
            games: vec![LedgerGame {
                key: key(1, 1),
                white: "ann".into(),
                black: "bob".into(),
                outcome: Outcome::White(1.0),
            }],
        }]);
        assert!(matches!(
            run.step(Answer::Start),
            Step::Read(Request::Seasons(_))
        ));
        assert!(matches!(
            run.step(Answer::Taken(Vec::new())),
            Step::Done(Err(WriteError::Answer(_)))
        ));
    }
}
