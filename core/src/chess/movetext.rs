//! The PGN text around pgn-reader: where each game starts and ends, and which movetext tokens
//! are not PGN. pgn-reader skips a token it cannot read (`Zz`, `N`, `=Q`, `1-`) without a word;
//! an import must not turn a mistyped game into a shorter one, so every token is checked here
//! first (PGN standard, section 8.2).

use pgn_reader::SanPlus;

use super::pgn::PgnErrorKind;

/// Bytes that end a movetext token (as pgn-reader reads them).
fn ends_token(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Index of the first `needle` at or after `from`, or the end.
fn find(text: &[u8], from: usize, needle: u8) -> usize {
    text[from..]
        .iter()
        .position(|&b| b == needle)
        .map_or(text.len(), |i| from + i)
}

/// Where the tag section starting at `pos` ends: tags, `;` comments, `%` escape lines and
/// blanks are skipped; the movetext (or the end) begins at the index returned.
fn skip_tag_section(text: &[u8], mut pos: usize) -> usize {
    while pos < text.len() {
        match text[pos] {
            b if is_blank(b) => pos += 1,
            b'\xef' if text[pos..].starts_with(b"\xef\xbb\xbf") => pos += 3,
            b';' | b'%' => pos = find(text, pos, b'\n'),
            b'[' => {
                // a tag: up to its closing bracket, outside its quoted value
                pos += 1;
                let mut quoted = false;
                while pos < text.len() {
                    match text[pos] {
                        b'\\' if quoted => pos += 1,
                        b'"' => quoted = !quoted,
                        b']' if !quoted => break,
                        b'\n' => break,
                        _ => {}
                    }
                    pos += 1;
                }
                pos = (pos + 1).min(text.len());
            }
            _ => break,
        }
    }
    pos
}

/// Where the movetext starting at `pos` ends: at a line break followed by a blank line or a
/// tag, outside comments (as pgn-reader ends a game's movetext).
fn movetext_end(text: &[u8], mut pos: usize) -> usize {
    while pos < text.len() {
        match text[pos] {
            b'{' => pos = (find(text, pos, b'}') + 1).min(text.len()),
            b';' => pos = find(text, pos, b'\n'),
            b'\n' => {
                let next = text.get(pos + 1).copied();
                let after = text.get(pos + 2).copied();
                if matches!(next, Some(b'[' | b'\n'))
                    || (next == Some(b'\r') && after == Some(b'\n'))
                {
                    return pos + 1;
                }
                pos += 1;
            }
            _ => pos += 1,
        }
    }
    pos
}

/// One game of a PGN text: its whole text and the offset of its movetext in it.
#[derive(Clone, Copy, Debug)]
pub struct GameText<'a> {
    pub text: &'a [u8],
    pub movetext: usize,
}

/// The games of a PGN text, in order, as byte ranges of it (nothing is copied).
pub struct GameTexts<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> GameTexts<'a> {
    pub fn new(text: &'a [u8]) -> Self {
        GameTexts { text, pos: 0 }
    }
}

impl<'a> Iterator for GameTexts<'a> {
    type Item = GameText<'a>;

    fn next(&mut self) -> Option<GameText<'a>> {
        let start = self.pos;
        let movetext = skip_tag_section(self.text, start);
        let end = movetext_end(self.text, movetext);
        self.pos = end;
        if self.text[start..end].iter().all(|&b| is_blank(b)) {
            return None;
        }
        Some(GameText {
            text: &self.text[start..end],
            movetext: movetext - start,
        })
    }
}

/// Reads a move-number token (`12`, `12.`, `12...`) or a result (`1-0`, `0-1`, `1/2-1/2`) at
/// `pos`; returns its end, or `None` when the digits start something else.
fn number_or_result(text: &[u8], pos: usize) -> Option<usize> {
    for result in [&b"1-0"[..], b"0-1", b"1/2-1/2"] {
        if text[pos..].starts_with(result)
            && text.get(pos + result.len()).is_none_or(|&b| ends_token(b))
        {
            return Some(pos + result.len());
        }
    }
    let digits = text[pos..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let end = pos + digits;
    text.get(end).is_none_or(|&b| ends_token(b)).then_some(end)
}

/// The first thing of a movetext that is not PGN: a token that is not a move in SAN (with at most
/// one suffix annotation attached: `!`, `?`, `!!`, `??`, `!?`, `?!`), a move number, a NAG
/// (`$n`), a comment, a variation, an escape line or a result ([`PgnErrorKind::Token`]); or a
/// variation that is not closed, or a `)` that closes none ([`PgnErrorKind::Syntax`]: pgn-reader
/// would drop the moves after either). Variations nest to any depth: they are counted, not
/// recursed into.
pub fn invalid_token(movetext: &[u8]) -> Option<PgnErrorKind> {
    let text = movetext;
    let mut pos = 0;
    // Variations open, and where the outermost one opened.
    let mut depth = 0usize;
    let mut outermost = 0;
    // Whether the previous token was a move (a suffix annotation must be attached to one).
    let mut after_move = false;
    while pos < text.len() {
        let b = text[pos];
        let token_start = pos;
        let was_move = std::mem::replace(&mut after_move, false);
        match b {
            b if is_blank(b) => {
                if b == b'\n' && text.get(pos + 1) == Some(&b'%') {
                    pos = find(text, pos + 1, b'\n');
                } else {
                    pos += 1;
                }
            }
            b'(' => {
                if depth == 0 {
                    outermost = pos;
                }
                depth += 1;
                pos += 1;
            }
            b')' => {
                let Some(d) = depth.checked_sub(1) else {
                    return Some(PgnErrorKind::Syntax(format!(
                        "unbalanced variation: the \")\" at byte {} of the movetext closes no \"(\"",
                        pos + 1
                    )));
                };
                depth = d;
                pos += 1;
            }
            b'.' | b'*' => pos += 1,
            b'{' => pos = (find(text, pos, b'}') + 1).min(text.len()),
            b';' => pos = find(text, pos, b'\n'),
            b'%' if pos == 0 => pos = find(text, pos, b'\n'),
            b'$' => {
                let digits = text[pos + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                pos += 1 + digits;
                if digits == 0 || text.get(pos).is_some_and(|&b| !ends_token(b)) {
                    return Some(PgnErrorKind::Token(token_at(text, token_start)));
                }
            }
            b'!' | b'?' => {
                let glyph = text[pos..]
                    .iter()
                    .take_while(|&&b| b == b'!' || b == b'?')
                    .count();
                pos += glyph;
                if !was_move || glyph > 2 {
                    return Some(PgnErrorKind::Token(token_at(text, token_start)));
                }
            }
            b'0'..=b'9' => match number_or_result(text, pos) {
                Some(end) => pos = end,
                None => {
                    // castling with zeros (0-0, 0-0-0) is a move
                    let end = token_end(text, pos);
                    let token = &text[pos..end];
                    if !matches!(
                        token,
                        b"0-0" | b"0-0+" | b"0-0#" | b"0-0-0" | b"0-0-0+" | b"0-0-0#"
                    ) {
                        return Some(PgnErrorKind::Token(token_at(text, token_start)));
                    }
                    pos = end;
                    after_move = true;
                }
            },
            b'\xc2' if text[pos..].starts_with("½-½".as_bytes()) => pos += "½-½".len(),
            _ => {
                let end = token_end(text, pos);
                if end == pos || SanPlus::from_ascii(&text[pos..end]).is_err() {
                    return Some(PgnErrorKind::Token(token_at(text, token_start)));
                }
                pos = end;
                after_move = true;
            }
        }
    }
    if depth > 0 {
        return Some(PgnErrorKind::Syntax(format!(
            "unbalanced variation: the \"(\" at byte {} of the movetext is never closed{}",
            outermost + 1,
            if depth > 1 {
                format!(" ({depth} variations open at the end)")
            } else {
                String::new()
            }
        )));
    }
    None
}

/// The end of the token starting at `pos` (at least one byte).
fn token_end(text: &[u8], pos: usize) -> usize {
    let len = text[pos..].iter().take_while(|&&b| !ends_token(b)).count();
    pos + len
}

/// The token starting at `pos`, up to the next blank, for an error message (which cuts a long
/// one: `crate::error::Quoted`).
fn token_at(text: &[u8], pos: usize) -> String {
    let len = text[pos..]
        .iter()
        .take_while(|&&b| !is_blank(b))
        .count()
        .max(1);
    String::from_utf8_lossy(&text[pos..(pos + len).min(text.len())]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid(movetext: &str) -> Option<String> {
        invalid_token(movetext.as_bytes()).map(|kind| match kind {
            PgnErrorKind::Token(t) => t,
            other => panic!("{other:?} for {movetext}"),
        })
    }

    fn syntax(movetext: &[u8]) -> String {
        match invalid_token(movetext) {
            Some(PgnErrorKind::Syntax(s)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn variations_must_be_balanced() {
        for ok in [
            "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 *",
            "1. e4 e5 {a ( in a comment} 2. Nf3 ; and ) here\n2... Nc6 *",
            "1. e4 ((((1. d4)))) e5 *",
        ] {
            assert_eq!(invalid_token(ok.as_bytes()), None, "{ok}");
        }
        assert_eq!(
            syntax(b"1. e4 (1. d4 d5 2. c4 e5 *"),
            "unbalanced variation: the \"(\" at byte 7 of the movetext is never closed"
        );
        assert_eq!(
            syntax(b"1. e4 e5) 2. Nf3 *"),
            "unbalanced variation: the \")\" at byte 9 of the movetext closes no \"(\""
        );
        assert_eq!(
            syntax(b"1. e4 (1. d4) ) e5"),
            "unbalanced variation: the \")\" at byte 15 of the movetext closes no \"(\""
        );
        // deep nesting is counted, not recursed into
        let deep = format!("1. e4 {} e5 *", "(".repeat(100_000));
        assert_eq!(
            syntax(deep.as_bytes()),
            "unbalanced variation: the \"(\" at byte 7 of the movetext is never closed \
             (100000 variations open at the end)"
        );
        let closed = format!(
            "1. e4 {}1. d4{} e5 *",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        assert_eq!(invalid_token(closed.as_bytes()), None);
    }

    #[test]
    fn pgn_tokens_are_accepted() {
        for ok in [
            "1. e4 e5 2. Nf3 Nc6 *",
            "1.e4 e5 2.Nf3 {a comment} (2. f4 exf4) 2... Nc6 $1 3. Bb5!? a6?! 1-0",
            "1. e4 e5 ; to the end of the line\n2. Qh5 Ke7?? 3. Qxe5# 1-0",
            "1. e4 e5 2. Bc4 Bc5 3. Nf3 Nf6 4. 0-0 0-0 1/2-1/2",
            "1. d4 d5 2. c4 dxc4 3. e4 b5 4. a4 c6 5. axb5 cxb5 6. Qf3 Nc6 7. Qxc6+ Bd7 0-1",
            "1. e4 e5\n%escaped line\n2. Nf3 ½-½",
            "12... Nf6 13. exd8=Q+ Kxd8 *",
            "",
        ] {
            assert_eq!(invalid(ok), None, "{ok}");
        }
    }

    #[test]
    fn every_token_that_is_not_pgn_is_reported() {
        for (text, token) in [
            ("1. e4 e5 2. Nf3 Zz Nc6 *", "Zz"),
            ("1. e4 N e5", "N"),
            ("1. e4 Q", "Q"),
            ("1. e4 + e5", "+"),
            ("1. e4 =Q", "=Q"),
            ("1. e4 e5 2. O-O-O-O", "O-O-O-O"),
            ("1. e4 e5 1-", "1-"),
            ("1. e4 ! e5", "!"),
            ("1. ! e4", "!"),
            ("1. e4!!! e5", "!!!"),
            ("1. e4 $x", "$x"),
            ("1. e4 e5 2x. Nf3", "2x."),
        ] {
            assert_eq!(invalid(text).as_deref(), Some(token), "{text}");
        }
    }

    #[test]
    fn games_are_split_where_pgn_reader_splits_them() {
        let text = b"[Event \"a ] b\"]\n[Site \"x\"]\n\n1. e4 {a\n\n[comment]} e5 1-0\n\n[Event \"2\"]\n1. d4 *\n\n\n";
        let games: Vec<_> = GameTexts::new(text).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(
            &games[0].text[games[0].movetext..],
            b"1. e4 {a\n\n[comment]} e5 1-0\n"
        );
        assert_eq!(&games[1].text[games[1].movetext..], b"1. d4 *\n");
        assert_eq!(GameTexts::new(b"  \n\n ").count(), 0);
        assert_eq!(GameTexts::new(b"1. e4 *").count(), 1);
    }
}
