//! PGN import (a streaming visitor over `pgn-reader`) and export (Seven Tag Roster, SAN
//! movetext wrapped at 80 columns, `[SetUp]`/`[FEN]` for other starts).

use std::fmt;
use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{Chess, Color, KnownOutcome, Position};

use super::error::{ChessError, FenError, MoveError, MoveErrorKind};
use super::movetext::{invalid_token, GameTexts};
use super::position::{full_fen, parse_start, uci_of, STANDARD_FEN};
use crate::error::{Classified, ErrorClass, Quoted};
use crate::result::{GameEndReason, GameEndType, GameResult};

/// One game read from a PGN text.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// 1 for the first game of the text.
    pub number: usize,
    /// Tags in the order they appear (values unescaped).
    pub tags: Vec<(String, String)>,
    /// Full FEN of the start (the standard one unless a `[FEN]` tag says otherwise).
    pub starting_position: String,
    /// UCI moves of the main line.
    pub moves: Vec<String>,
    /// `None` for `*` or no result.
    pub result: Option<GameResult>,
    /// The position after the last move.
    pub end: Chess,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    Fen(FenError),
    Move(MoveError),
    /// A `[Variant]` other than standard chess or Chess960.
    Variant(String),
    /// The text cannot be read as PGN (unterminated tag or comment, unbalanced variation, no
    /// game at all).
    Syntax(String),
    /// A movetext token that is not PGN (`Zz`, `N`, `=Q`, `1-`).
    Token(String),
    /// More moves than [`super::position::MAX_MOVES`].
    TooManyMoves,
}

/// A game that cannot be imported; `game` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    pub game: usize,
    pub kind: PgnErrorKind,
}

impl Classified for PgnError {
    fn class(&self) -> ErrorClass {
        match self.kind {
            PgnErrorKind::Fen(_) | PgnErrorKind::Syntax(_) | PgnErrorKind::Token(_) => {
                ErrorClass::InvalidText
            }
            PgnErrorKind::Move(_) | PgnErrorKind::Variant(_) => ErrorClass::InvalidParameter,
            PgnErrorKind::TooManyMoves => ErrorClass::ProgramLimit,
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: ", self.game)?;
        match &self.kind {
            PgnErrorKind::Fen(e) => write!(f, "{e}"),
            PgnErrorKind::Move(e) => write!(f, "{e}"),
            PgnErrorKind::Variant(v) => write!(f, "unsupported variant {}", Quoted(v)),
            PgnErrorKind::Syntax(s) => write!(f, "{s}"),
            PgnErrorKind::TooManyMoves => write!(f, "{}", ChessError::TooManyMoves),
            PgnErrorKind::Token(t) => write!(
                f,
                "{} is not a move, a move number, a NAG, a comment, a variation or a result",
                Quoted(t)
            ),
        }
    }
}

impl std::error::Error for PgnError {}

/// True for a `[Variant]` value of standard chess or Chess960 (the rules shakmaty plays here).
pub fn variant_supported(variant: &str) -> bool {
    let l = variant.trim().to_ascii_lowercase();
    [
        "",
        "standard",
        "chess",
        "normal",
        "from position",
        "chess960",
        "chess 960",
        "fischerandom",
        "fischer random",
        "freestyle",
    ]
    .contains(&l.as_str())
}

/// Maps a `Termination` tag to a reason that fits the end type, else `UNKNOWN`.
/// Understands our own names (`CHECKMATE`), the PGN standard's values (`time forfeit`,
/// `abandoned`, `death`), and lichess / chess.com phrases ("Black won by resignation",
/// "Game drawn by repetition", "Time forfeit" of a draw = timeout vs insufficient material).
pub fn termination_reason(end: GameEndType, termination: Option<&str>) -> GameEndReason {
    use GameEndReason::*;
    let Some(t) = termination else {
        return Unknown;
    };
    let t = t.trim().to_ascii_lowercase().replace(['_', '-'], " ");
    let exact = GameEndReason::ALL
        .into_iter()
        .find(|r| r.as_str().to_ascii_lowercase().replace('_', " ") == t);
    let has = |s: &str| t.contains(s);
    let timeish = has("time") || has("flag");
    let guess = exact.or_else(|| {
        Some(if has("insufficient material") && timeish {
            TimeoutVsInsufficientMaterial
        } else if has("insufficient material") {
            InsufficientMaterial
        } else if has("stalemate") {
            Stalemate
        } else if has("checkmate") || has("mate") {
            Checkmate
        } else if has("resign") {
            Resignation
        } else if has("abandon") {
            Abandonment
        } else if has("death") {
            Death
        } else if has("repetition") {
            ThreefoldRepetition
        } else if has("50 move") || has("fifty move") || has("50 moves") {
            FiftyMoveRule
        } else if timeish {
            if end == GameEndType::Draw {
                TimeoutVsInsufficientMaterial
            } else {
                Timeout
            }
        } else {
            return None;
        })
    });
    match guess {
        Some(r) if end.reasons().contains(&r) => r,
        _ => Unknown,
    }
}

/// The `Termination` value we export for a reason (read back by [`termination_reason`]).
pub fn termination_phrase(reason: GameEndReason) -> Option<&'static str> {
    use GameEndReason::*;
    Some(match reason {
        Unknown => return None,
        Timeout => "time forfeit",
        Checkmate => "checkmate",
        Resignation => "resignation",
        Abandonment => "abandoned",
        Death => "death",
        TimeoutVsInsufficientMaterial => "timeout vs insufficient material",
        InsufficientMaterial => "insufficient material",
        ThreefoldRepetition => "threefold repetition",
        FiftyMoveRule => "fifty move rule",
        Stalemate => "stalemate",
    })
}

/// A tag value with `\\` read as a backslash and `\"` as a quote (PGN standard 7). Not
/// `RawTag::decode`: it drops the second of two escaped backslashes in a row (`\\\\` gives `\`).
fn unescape_tag(raw: &[u8]) -> String {
    let mut out = Vec::with_capacity(raw.len());
    let mut bytes = raw.iter().copied();
    while let Some(b) = bytes.next() {
        match (b, bytes.clone().next()) {
            (b'\\', Some(next @ (b'\\' | b'"'))) => {
                out.push(next);
                bytes.next();
            }
            _ => out.push(b),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(Default)]
pub struct Tags {
    tags: Vec<(String, String)>,
}

impl Tags {
    fn get(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

pub struct Movetext {
    tags: Vec<(String, String)>,
    starting_position: String,
    pos: Chess,
    moves: Vec<String>,
    outcome: Option<Outcome>,
}

struct GameVisitor {
    number: usize,
}

impl GameVisitor {
    fn error(&self, kind: PgnErrorKind) -> Result<PgnGame, PgnError> {
        Err(PgnError {
            game: self.number,
            kind,
        })
    }
}

impl Visitor for GameVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Result<PgnGame, PgnError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.number += 1;
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.tags.push((
            String::from_utf8_lossy(name).into_owned(),
            unescape_tag(value.as_bytes()),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        if let Some(v) = tags.get("Variant").filter(|v| !variant_supported(v)) {
            return ControlFlow::Break(self.error(PgnErrorKind::Variant(v.to_owned())));
        }
        let start = tags.get("FEN").unwrap_or(STANDARD_FEN).trim().to_owned();
        let pos = match parse_start(&start) {
            Ok(p) => p,
            Err(e) => return ControlFlow::Break(self.error(PgnErrorKind::Fen(e))),
        };
        // Kept as written (blanks normalised), so an export imports back to the same text.
        let starting_position = start.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
        ControlFlow::Continue(Movetext {
            tags: tags.tags,
            starting_position,
            pos,
            moves: Vec::with_capacity(96),
            outcome: None,
        })
    }

    fn san(&mut self, mt: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if mt.moves.len() >= super::position::MAX_MOVES {
            return ControlFlow::Break(self.error(PgnErrorKind::TooManyMoves));
        }
        match san_plus.san.to_move(&mt.pos) {
            Ok(m) => {
                mt.moves.push(uci_of(m));
                mt.pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(e) => {
                let kind = match e {
                    shakmaty::san::SanError::AmbiguousSan => MoveErrorKind::Ambiguous,
                    shakmaty::san::SanError::IllegalSan => MoveErrorKind::Illegal,
                };
                ControlFlow::Break(self.error(PgnErrorKind::Move(MoveError {
                    ply: mt.moves.len() + 1,
                    mv: san_plus.to_string(),
                    position: full_fen(&mt.pos),
                    kind,
                })))
            }
        }
    }

    fn begin_variation(&mut self, _mt: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, mt: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        mt.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Self::Movetext) -> Self::Output {
        let find = |name: &str| {
            mt.tags
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let end_type = match mt.outcome {
            Some(Outcome::Known(KnownOutcome::Decisive {
                winner: Color::White,
            })) => Some(GameEndType::WhiteWins),
            Some(Outcome::Known(KnownOutcome::Decisive {
                winner: Color::Black,
            })) => Some(GameEndType::BlackWins),
            Some(Outcome::Known(KnownOutcome::Draw)) => Some(GameEndType::Draw),
            Some(Outcome::Unknown) => None,
            None => find("Result").and_then(|r| r.trim().parse().ok()),
        };
        if mt.tags.is_empty() && mt.moves.is_empty() && mt.outcome.is_none() {
            return self.error(PgnErrorKind::Syntax(
                "no tags, moves or result: not a PGN game".into(),
            ));
        }
        let result = end_type.map(|t| {
            let reason = termination_reason(t, find("Termination"));
            GameResult::new(t, reason).unwrap_or_else(|_| {
                GameResult::new(t, GameEndReason::Unknown).expect("UNKNOWN fits every end type")
            })
        });
        Ok(PgnGame {
            number: self.number,
            tags: mt.tags,
            starting_position: mt.starting_position,
            moves: mt.moves,
            result,
            end: mt.pos,
        })
    }
}

/// The games of a PGN text, read one at a time: memory does not grow with the number of games.
pub struct PgnGames<'a> {
    games: GameTexts<'a>,
    /// Games read so far.
    number: usize,
    done: bool,
}

impl<'a> PgnGames<'a> {
    pub fn new(text: &'a [u8]) -> Self {
        Self {
            games: GameTexts::new(text),
            number: 0,
            done: false,
        }
    }
}

impl Iterator for PgnGames<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let game = self.games.next()?;
            if let Some(kind) = invalid_token(&game.text[game.movetext..]) {
                self.number += 1;
                return Some(Err(PgnError {
                    game: self.number,
                    kind,
                }));
            }
            let mut visitor = GameVisitor {
                number: self.number,
            };
            let mut reader = Reader::build(game.text)
                .set_supported_tag_line_length(16 * 1024)
                .finish();
            match reader.read_game(&mut visitor) {
                Ok(Some(read)) => {
                    self.number = visitor.number;
                    return Some(read);
                }
                // only blanks and comments: no game
                Ok(None) => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(PgnError {
                        game: (self.number + 1).max(visitor.number),
                        kind: PgnErrorKind::Syntax(e.to_string()),
                    }));
                }
            }
        }
        None
    }
}

/// Reads all games of a PGN text (lazily).
pub fn read_pgn(text: &[u8]) -> PgnGames<'_> {
    PgnGames::new(text)
}

/// The position after the movetext of a single game (`1. e4 e5 2. Nf3`), as in the lichess
/// openings files.
pub fn movetext_position(movetext: &str) -> Result<PgnGame, PgnError> {
    let mut games = read_pgn(movetext.as_bytes());
    match games.next() {
        Some(g) => {
            let g = g?;
            if games.next().is_some() {
                return Err(PgnError {
                    game: 2,
                    kind: PgnErrorKind::Syntax("expected the moves of one game".into()),
                });
            }
            Ok(g)
        }
        None => Ok(PgnGame {
            number: 1,
            tags: Vec::new(),
            starting_position: STANDARD_FEN.to_owned(),
            moves: Vec::new(),
            result: None,
            end: Chess::default(),
        }),
    }
}

fn escape_tag(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r', '\t'], " ")
}

fn result_token(result: Option<GameResult>) -> &'static str {
    result.map_or("*", |r| r.end_type().as_str())
}

const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// A `tags` argument that is not a JSON object (22023).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagsError;

impl fmt::Display for TagsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tags must be a JSON object of tag names and values")
    }
}

impl Classified for TagsError {
    fn class(&self) -> ErrorClass {
        ErrorClass::InvalidParameter
    }
}

/// The tags of a `tags` argument, a JSON object of tag names and values (SQL NULL or JSON null:
/// none): a string is the value itself, a null leaves the tag out, any other value is its JSON
/// text. Anything but an object or null is a [`TagsError`].
pub fn tags_of_json(tags: Option<&serde_json::Value>) -> Result<Vec<(String, String)>, TagsError> {
    use serde_json::Value;
    match tags {
        Some(Value::Object(map)) => Ok(map
            .iter()
            .filter_map(|(k, v)| match v {
                Value::String(s) => Some((k.clone(), s.clone())),
                Value::Null => None,
                other => Some((k.clone(), other.to_string())),
            })
            .collect()),
        None | Some(Value::Null) => Ok(Vec::new()),
        _ => Err(TagsError),
    }
}

/// A game's tags as `read_pgn` returns them: a JSON object of names and string values (the
/// last value of a name repeated).
pub fn json_of_tags(tags: Vec<(String, String)>) -> serde_json::Value {
    let mut object = serde_json::Map::with_capacity(tags.len());
    for (name, value) in tags {
        object.insert(name, serde_json::Value::String(value));
    }
    serde_json::Value::Object(object)
}

/// Writes one game as PGN: the Seven Tag Roster (values from `tags` or `?`), `SetUp` and
/// `FEN` when the start is not the standard one, `Termination` for a known reason, the
/// other tags sorted by name, then SAN movetext wrapped at 80 columns and the result.
pub fn write_pgn<'a, I>(
    start: &str,
    moves: I,
    result: Option<GameResult>,
    tags: &[(String, String)],
) -> Result<String, ChessError>
where
    I: IntoIterator<Item = Option<&'a str>>,
{
    let mut pos = parse_start(start)?;
    // the last value of each name (one pass: many tags stay linear)
    let mut last: std::collections::HashMap<&str, &str> =
        std::collections::HashMap::with_capacity(tags.len());
    for (n, v) in tags {
        last.insert(n.as_str(), v.as_str());
    }
    let find = |name: &str| last.get(name).copied();
    if let Some(v) = find("Variant").filter(|v| !variant_supported(v)) {
        return Err(ChessError::Variant(v.to_owned()));
    }
    // The result's reason wins over a Termination tag that would read back as another one.
    let termination = match (result, find("Termination")) {
        (Some(r), Some(t)) if termination_reason(r.end_type(), Some(t)) == r.reason() => Some(t),
        (Some(r), _) => termination_phrase(r.reason()),
        (None, t) => t,
    };
    let mut out = String::with_capacity(1024);
    let mut tag = |name: &str, value: &str| {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        out.push_str(&escape_tag(value));
        out.push_str("\"]\n");
    };
    for (name, default) in ROSTER {
        tag(name, find(name).unwrap_or(default));
    }
    let res = result_token(result);
    tag("Result", res);
    let mut start_fen = start.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
    if start_fen.split(' ').count() == 4 {
        start_fen.push_str(" 0 1");
    }
    if start_fen != STANDARD_FEN {
        tag("SetUp", "1");
        tag("FEN", &start_fen);
    }
    if let Some(t) = termination {
        tag("Termination", t);
    }
    let mut rest: Vec<(&str, &str)> = last
        .iter()
        .map(|(n, v)| (*n, *v))
        .filter(|(n, _)| {
            !ROSTER.iter().any(|(r, _)| r == n)
                && !["Result", "SetUp", "FEN", "Termination"].contains(n)
        })
        .collect();
    rest.sort_unstable();
    for (n, v) in rest {
        // PGN tag names are letters, digits and underscores; others cannot be written.
        if n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        tag(n, v);
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    for (i, mv) in moves.into_iter().enumerate() {
        if i >= super::position::MAX_MOVES {
            return Err(ChessError::TooManyMoves);
        }
        let mv = mv.ok_or(ChessError::NullMove(i + 1))?;
        let m = super::position::uci_move(&pos, i + 1, mv)?;
        let number = pos.fullmoves().get();
        if pos.turn() == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    tokens.push(res.to_owned());
    let mut line_len = 0;
    for t in tokens {
        if line_len > 0 && line_len + 1 + t.len() > 80 {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&t);
        line_len += t.len();
    }
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
        read_pgn(text.as_bytes()).collect()
    }

    const TWO_GAMES: &str = "\u{feff}[Event \"Casual\"]\r\n[White \"A \\\"quoted\\\" name\"]\r\n\
[Black \"B\"]\r\n[Result \"0-1\"]\r\n[Termination \"Black won by checkmate\"]\r\n\r\n\
1. f3 {a comment} e5 $2 2. g4?? (2. e4 Nf6) Qh4# 0-1\r\n\r\n\
[Event \"From a position\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\
[Result \"1/2-1/2\"]\n\n40... Kd7 41. e4 ; rest of line\n1/2-1/2\n\n\
1. e4 *\n";

    #[test]
    fn reads_games_with_comments_variations_bom_crlf_and_fen() {
        let g: Vec<PgnGame> = games(TWO_GAMES).into_iter().map(|g| g.unwrap()).collect();
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].number, 1);
        assert_eq!(g[0].moves, ["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(g[0].starting_position, STANDARD_FEN);
        assert_eq!(g[0].tags[1], ("White".into(), "A \"quoted\" name".into()));
        let r = g[0].result.unwrap();
        assert_eq!(
            (r.end_type(), r.reason()),
            (GameEndType::BlackWins, GameEndReason::Checkmate)
        );
        assert!(g[0].end.is_checkmate());
        assert_eq!(g[1].starting_position, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
        assert_eq!(g[1].moves, ["e8d7", "e2e4"]);
        let r = g[1].result.unwrap();
        assert_eq!(
            (r.end_type(), r.reason()),
            (GameEndType::Draw, GameEndReason::Unknown)
        );
        assert_eq!(g[2].number, 3);
        assert_eq!(g[2].moves, ["e2e4"]);
        assert!(g[2].result.is_none());
    }

    #[test]
    fn bad_games_are_reported_and_reading_goes_on() {
        let text = "[Event \"1\"]\n\n1. e4 e5 *\n\n[Event \"2\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
[Event \"3\"]\n[FEN \"bad\"]\n\n1. e4 *\n\n[Event \"4\"]\n[Variant \"Atomic\"]\n\n*\n\n\
[Event \"5\"]\n\n1. d4 1-0\n";
        let g = games(text);
        assert_eq!(g.len(), 5);
        assert!(g[0].is_ok());
        let e = g[1].as_ref().unwrap_err();
        assert_eq!(e.game, 2);
        assert_eq!(
            e.to_string(),
            "game 2: illegal move \"Ke3\" at ply 3 in position \
             \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\""
        );
        assert!(matches!(
            g[2].as_ref().unwrap_err().kind,
            PgnErrorKind::Fen(_)
        ));
        assert!(matches!(
            g[3].as_ref().unwrap_err().kind,
            PgnErrorKind::Variant(_)
        ));
        let last = g[4].as_ref().unwrap();
        assert_eq!((last.number, last.moves.len()), (5, 1));
        assert_eq!(last.result.unwrap().end_type(), GameEndType::WhiteWins);
    }

    #[test]
    fn unterminated_comment_is_a_syntax_error() {
        let g = games("[Event \"x\"]\n\n1. e4 { never closed");
        assert!(matches!(
            g.last().unwrap().as_ref().unwrap_err().kind,
            PgnErrorKind::Syntax(_)
        ));
        assert!(games("  \n\n ").is_empty());
    }

    #[test]
    fn unbalanced_variations_are_syntax_errors_and_reading_goes_on() {
        let g = games(
            "[Event \"1\"]\n\n1. e4 (1. d4 e5 *\n\n[Event \"2\"]\n\n1. e4 e5) 2. Nf3 *\n\n\
             [Event \"3\"]\n\n1. e4 (1. d4) e5 *\n",
        );
        assert_eq!(g.len(), 3);
        let e = g[0].as_ref().unwrap_err();
        assert_eq!(e.sqlstate(), "22P02");
        assert_eq!(
            e.to_string(),
            "game 1: unbalanced variation: the \"(\" at byte 7 of the movetext is never closed"
        );
        let e = g[1].as_ref().unwrap_err();
        assert_eq!((e.game, e.sqlstate()), (2, "22P02"));
        assert_eq!(g[2].as_ref().unwrap().moves, ["e2e4", "e7e5"]);
    }

    #[test]
    fn long_values_are_cut_in_messages() {
        let fen = format!("{} w - - 0 1", "8/".repeat(1_000_000));
        let e = parse_start(&fen).unwrap_err().to_string();
        assert!(e.len() < 500, "{e}");
        assert!(
            e.contains("…\" (2000010 characters): piece placement"),
            "{e}"
        );
        let token = "Z".repeat(1_000_000);
        let e = games(&format!("1. e4 {token} *"))
            .pop()
            .unwrap()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "game 1: \"{}…\" (1000000 characters) is not a move, a move number, a NAG, a \
                 comment, a variation or a result",
                "Z".repeat(100)
            )
        );
        let e = write_pgn(STANDARD_FEN, [Some(token.as_str())], None, &[]).unwrap_err();
        assert!(e.to_string().len() < 400, "{e}");
        // the net under every message leaves these as they are
        for e in [e.to_string(), parse_start(&fen).unwrap_err().to_string()] {
            assert_eq!(crate::error::cut_message(&e), e);
        }
    }

    #[test]
    fn escaped_backslashes_and_quotes_in_tags() {
        // `\\\\` is two backslashes; pgn-reader's RawTag::decode used to give one
        let g = games("[White \"a\\\\\\\\b\"]\n[Black \"\\\\\\\"q\\\"\\x\"]\n\n*\n");
        let g = g[0].as_ref().unwrap();
        assert_eq!(g.tags[0].1, "a\\\\b");
        assert_eq!(g.tags[1].1, "\\\"q\"\\x");
        let tags = vec![("White".to_string(), "\\\\\"\\".to_string())];
        let pgn = write_pgn(STANDARD_FEN, [], None, &tags).unwrap();
        let back = games(&pgn).pop().unwrap().unwrap();
        assert_eq!(back.tags[4], tags[0]);
    }

    #[test]
    fn termination_mapping() {
        use GameEndReason::*;
        use GameEndType::*;
        let cases = [
            (WhiteWins, "Time forfeit", Timeout),
            (Draw, "Time forfeit", TimeoutVsInsufficientMaterial),
            (
                Draw,
                "Game drawn by timeout vs insufficient material",
                TimeoutVsInsufficientMaterial,
            ),
            (BlackWins, "Black won by resignation", Resignation),
            (WhiteWins, "White won on time", Timeout),
            (BlackWins, "abandoned", Abandonment),
            (Draw, "Game drawn by repetition", ThreefoldRepetition),
            (Draw, "Game drawn by stalemate", Stalemate),
            (Draw, "Game drawn by 50-move rule", FiftyMoveRule),
            (Draw, "insufficient material", InsufficientMaterial),
            (WhiteWins, "death", Death),
            (WhiteWins, "Normal", Unknown),
            (WhiteWins, "stalemate", Unknown),
            (Draw, "checkmate", Unknown),
            (WhiteWins, "CHECKMATE", Checkmate),
            (Draw, "FIFTY_MOVE_RULE", FiftyMoveRule),
        ];
        for (t, s, want) in cases {
            assert_eq!(termination_reason(t, Some(s)), want, "{s}");
        }
        assert_eq!(termination_reason(WhiteWins, None), Unknown);
        for t in GameEndType::ALL {
            for r in t.reasons() {
                assert_eq!(termination_reason(t, termination_phrase(*r)), *r);
            }
        }
    }

    #[test]
    fn the_result_wins_over_a_contradicting_termination_and_variants_are_checked() {
        let resigned = GameResult::new(GameEndType::WhiteWins, GameEndReason::Resignation).unwrap();
        let tags = vec![("Termination".to_owned(), "abandoned".to_owned())];
        let pgn = write_pgn(STANDARD_FEN, [Some("e2e4")], Some(resigned), &tags).unwrap();
        let back = read_pgn(pgn.as_bytes()).next().unwrap().unwrap();
        assert_eq!(back.result, Some(resigned), "{pgn}");
        let tags = vec![(
            "Termination".to_owned(),
            "White won by resignation".to_owned(),
        )];
        let pgn = write_pgn(STANDARD_FEN, [Some("e2e4")], Some(resigned), &tags).unwrap();
        assert!(
            pgn.contains("[Termination \"White won by resignation\"]"),
            "{pgn}"
        );

        let tags = vec![("Variant".to_owned(), "Atomic".to_owned())];
        let e = write_pgn(STANDARD_FEN, [Some("e2e4")], None, &tags).unwrap_err();
        assert_eq!(e, ChessError::Variant("Atomic".into()));
        let tags = vec![("Variant".to_owned(), "Chess960".to_owned())];
        assert!(write_pgn(STANDARD_FEN, [Some("e2e4")], None, &tags).is_ok());
    }

    #[test]
    fn many_tags_are_written_once_each_in_name_order() {
        let tags: Vec<(String, String)> = (0..20_000)
            .map(|i| (format!("T{:05}", i % 10_000), i.to_string()))
            .collect();
        let pgn = write_pgn(STANDARD_FEN, [], None, &tags).unwrap();
        let back = read_pgn(pgn.as_bytes()).next().unwrap().unwrap();
        assert_eq!(back.tags.len(), 7 + 10_000);
        assert_eq!(back.tags[7], ("T00000".to_owned(), "10000".to_owned()));
        assert_eq!(
            back.tags.last().unwrap(),
            &("T09999".to_owned(), "19999".to_owned())
        );
    }

    #[test]
    fn export_and_import_round_trip() {
        let moves = [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8c5",
        ];
        let result = GameResult::new(GameEndType::WhiteWins, GameEndReason::Resignation).unwrap();
        let tags = vec![
            ("White".to_string(), "Alice".to_string()),
            ("ECO".to_string(), "C55".to_string()),
        ];
        let pgn = write_pgn(
            STANDARD_FEN,
            moves.iter().map(|m| Some(*m)),
            Some(result),
            &tags,
        )
        .unwrap();
        assert_eq!(
            pgn,
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Alice\"]\n\
[Black \"?\"]\n[Result \"1-0\"]\n[Termination \"resignation\"]\n[ECO \"C55\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Bc5 1-0\n"
        );
        let back = games(&pgn).pop().unwrap().unwrap();
        assert_eq!(back.moves, moves);
        assert_eq!(back.result, Some(result));
        assert_eq!(back.starting_position, STANDARD_FEN);

        // Black to move first, long game wrapped at 80 columns.
        let start = "4k3/8/8/8/8/8/8/4K2R b K - 3 30";
        let cycle = ["e8d8", "e1f1", "d8e8", "f1e1"];
        let long: Vec<&str> = cycle.iter().copied().cycle().take(200).collect();
        let pgn = write_pgn(start, long.iter().map(|m| Some(*m)), None, &[]).unwrap();
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 3 30\"]\n"));
        let body = pgn.split("\n\n").nth(1).unwrap();
        assert!(body.starts_with("30... Kd8 31. Kf1 Ke8"), "{body}");
        assert!(body.lines().all(|l| l.len() <= 80));
        assert!(body.lines().count() > 10);
        let back = games(&pgn).pop().unwrap().unwrap();
        assert_eq!(back.moves, long);
        assert_eq!(back.starting_position, start);
        assert!(back.result.is_none());

        assert!(write_pgn(STANDARD_FEN, [Some("e2e5")], None, &[]).is_err());
    }

    #[test]
    fn movetext_of_an_opening() {
        let g = movetext_position("1. e4 e5 2. Nf3 Nc6 3. Bb5").unwrap();
        assert_eq!(g.moves.len(), 5);
        assert_eq!(
            super::super::position::partial_fen(&g.end),
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq -"
        );
    }

    #[test]
    fn json_tags_are_strings_or_json_text() {
        let tags = serde_json::json!({"Event": "Cup", "Round": 3, "Site": null, "X": [1]});
        let expected: Vec<(String, String)> = [("Event", "Cup"), ("Round", "3"), ("X", "[1]")]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .to_vec();
        assert_eq!(tags_of_json(Some(&tags)), Ok(expected));
        assert_eq!(tags_of_json(Some(&serde_json::Value::Null)), Ok(Vec::new()));
        assert_eq!(tags_of_json(None), Ok(Vec::new()));
        let e = tags_of_json(Some(&serde_json::json!([1]))).unwrap_err();
        assert_eq!(
            (e.to_string().as_str(), e.sqlstate()),
            (
                "tags must be a JSON object of tag names and values",
                "22023"
            )
        );
    }

    #[test]
    fn tags_read_become_a_json_object() {
        let tags = [("Event", "Cup"), ("Round", "3"), ("Event", "Final")]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .to_vec();
        assert_eq!(
            json_of_tags(tags),
            serde_json::json!({"Event": "Final", "Round": "3"})
        );
        assert_eq!(json_of_tags(Vec::new()), serde_json::json!({}));
    }
}
