//! When a tournament started: the date of its first game. A change of one game moves it only when
//! that game was the first or comes before it; otherwise the start stays and nothing is read.

/// Whether the start (`started_at`, microseconds; `None` before the first game) stays after a game
/// dated `game_date` was added (`added`) or removed; `date_was`: the game's date before a change of
/// its date. When it does not stay, the start is the first game's date, read again.
pub fn start_stays(
    added: bool,
    game_date: i64,
    date_was: Option<i64>,
    started_at: Option<i64>,
) -> bool {
    if added {
        // not before the start, and not the game that was the start before it moved
        started_at.is_some_and(|s| game_date >= s) && date_was.is_none_or(|d| Some(d) != started_at)
    } else {
        // a removed game that was not the start (by either of its dates)
        started_at.is_none_or(|s| game_date != s && date_was != Some(s))
    }
}

#[cfg(test)]
mod tests {
    use super::start_stays;

    #[test]
    fn an_added_game_moves_the_start_only_from_before_it() {
        assert!(start_stays(true, 20, None, Some(10)));
        assert!(start_stays(true, 10, None, Some(10)));
        assert!(!start_stays(true, 5, None, Some(10)));
        // the first game of a tournament
        assert!(!start_stays(true, 5, None, None));
        // the start itself moved later: the next game may now be first
        assert!(!start_stays(true, 30, Some(10), Some(10)));
        assert!(start_stays(true, 30, Some(20), Some(10)));
    }

    #[test]
    fn a_removed_game_moves_the_start_only_if_it_was_the_start() {
        assert!(start_stays(false, 20, None, Some(10)));
        assert!(!start_stays(false, 10, None, Some(10)));
        assert!(!start_stays(false, 20, Some(10), Some(10)));
        assert!(start_stays(false, 20, None, None));
    }
}
