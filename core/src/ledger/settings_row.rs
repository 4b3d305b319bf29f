//! A `ledgers` row read into [`LedgerSettings`], the same way for a row the glue selected and a
//! row given to a trigger: which columns are settings, which may be NULL, what a column that a
//! schema before 0.13.0 lacks means, and how an interval becomes a period.

use crate::clock::Interval;

use super::LedgerSettings;

/// The kind of value a settings column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// double precision
    Number,
    /// integer
    Integer,
    Text,
    Interval,
}

/// A settings column's value as the glue read it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// NULL, or a column the row lacks (a schema before 0.13.0).
    Null,
    Number(f64),
    Integer(i32),
    Text(String),
    Interval(Interval),
}

/// The columns of a `ledgers` row that are settings and the kind of each: what the glue reads,
/// in this order, for [`LedgerSettings::from_values`].
pub const SETTINGS_COLUMNS: [(&str, Kind); 20] = [
    ("rating_system", Kind::Text),
    ("starting_rating", Kind::Number),
    ("k_factor", Kind::Number),
    ("starting_rd", Kind::Number),
    ("starting_volatility", Kind::Number),
    ("tau", Kind::Number),
    ("rating_period", Kind::Interval),
    ("max_change", Kind::Number),
    ("rating_floor", Kind::Number),
    ("provisional_games", Kind::Integer),
    ("provisional_rd", Kind::Number),
    ("glicko2_rule", Kind::Text),
    ("min_rd", Kind::Number),
    ("max_rd", Kind::Number),
    ("max_volatility", Kind::Number),
    ("volatility_epsilon", Kind::Number),
    ("rd_growth", Kind::Text),
    ("max_change_policy", Kind::Text),
    ("max_period_change", Kind::Number),
    ("change_period", Kind::Interval),
];

/// A rating period's length in microseconds; 0 (which [`LedgerSettings::rules`] refuses) for an
/// interval that is not a period ([`Interval::period_micros`]).
pub fn period_micros(i: Interval) -> i64 {
    i.period_micros().unwrap_or(0)
}

/// A period of fixed length in microseconds (`change_period`: consecutive windows from Monday
/// 2000-01-03); 0, which the settings' check refuses, for one with months (of no fixed length).
pub fn fixed_micros(i: Interval) -> i64 {
    if i.months != 0 {
        0
    } else {
        period_micros(i)
    }
}

/// The values of [`SETTINGS_COLUMNS`], looked up by column name.
struct Row<'v>(&'v [Value; 20]);

impl Row<'_> {
    fn value(&self, column: &str) -> &Value {
        let i = SETTINGS_COLUMNS.iter().position(|(c, _)| *c == column);
        i.map_or(&Value::Null, |i| &self.0[i])
    }
    fn number(&self, column: &str) -> Option<f64> {
        match self.value(column) {
            Value::Number(x) => Some(*x),
            _ => None,
        }
    }
    fn text(&self, column: &str) -> Option<String> {
        match self.value(column) {
            Value::Text(x) => Some(x.clone()),
            _ => None,
        }
    }
    fn interval(&self, column: &str) -> Option<Interval> {
        match self.value(column) {
            Value::Interval(x) => Some(*x),
            _ => None,
        }
    }
}

impl LedgerSettings {
    /// The settings of a row whose [`SETTINGS_COLUMNS`] `read` gives, each by its name and kind
    /// (`None`: NULL, or a column the row lacks), as [`Self::from_values`] takes them.
    pub fn from_columns(read: impl Fn(&str, Kind) -> Option<Value>) -> Result<Self, &'static str> {
        let values =
            SETTINGS_COLUMNS.map(|(column, kind)| read(column, kind).unwrap_or(Value::Null));
        Self::from_values(&values)
    }

    /// The settings of a row whose [`SETTINGS_COLUMNS`] hold `values`; `Err(column)` names a NOT
    /// NULL setting that is NULL (in a BEFORE trigger's new row its constraint reports it after
    /// the trigger). A column 0.13.0 added (a schema 0.3.0-0.12.0 has none) means what those
    /// ledgers did: the lichess rule, RD grown by the time elapsed, changes clamped, no other
    /// bound. A value of another kind than its column's reads as NULL.
    pub fn from_values(values: &[Value; 20]) -> Result<Self, &'static str> {
        fn required<T>(value: Option<T>, column: &'static str) -> Result<T, &'static str> {
            value.ok_or(column)
        }
        let row = Row(values);
        let number = |column: &'static str| required(row.number(column), column);
        let since_0_13 = |column: &str, before: &str| row.text(column).unwrap_or(before.into());
        let provisional_games = match row.value("provisional_games") {
            Value::Integer(x) => Some(*x),
            _ => None,
        };
        Ok(Self {
            rating_system: required(row.text("rating_system"), "rating_system")?,
            starting_rating: number("starting_rating")?,
            k_factor: number("k_factor")?,
            starting_rd: number("starting_rd")?,
            starting_volatility: number("starting_volatility")?,
            tau: number("tau")?,
            rating_period: row.interval("rating_period").map(period_micros),
            max_change: row.number("max_change"),
            rating_floor: row.number("rating_floor"),
            provisional_games: required(provisional_games, "provisional_games")?,
            provisional_rd: row.number("provisional_rd"),
            glicko2_rule: since_0_13("glicko2_rule", "lichess"),
            min_rd: row.number("min_rd"),
            max_rd: row.number("max_rd"),
            max_volatility: row.number("max_volatility"),
            volatility_epsilon: row.number("volatility_epsilon"),
            rd_growth: since_0_13("rd_growth", "elapsed"),
            max_change_policy: since_0_13("max_change_policy", "clamp"),
            max_period_change: row.number("max_period_change"),
            change_period: row.interval("change_period").map(fixed_micros),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values by column name, NULL for any other.
    fn values(given: &[(&str, Value)]) -> [Value; 20] {
        SETTINGS_COLUMNS.map(|(column, _)| {
            let v = given.iter().find(|(c, _)| *c == column);
            v.map_or(Value::Null, |(_, v)| v.clone())
        })
    }

    /// A row of a 0.12.0 schema: none of the columns 0.13.0 added.
    fn row_of_0_12() -> Vec<(&'static str, Value)> {
        Vec::from([
            ("rating_system", Value::Text("glicko2".into())),
            ("starting_rating", Value::Number(1500.0)),
            ("k_factor", Value::Number(20.0)),
            ("starting_rd", Value::Number(350.0)),
            ("starting_volatility", Value::Number(0.06)),
            ("tau", Value::Number(0.5)),
            ("provisional_games", Value::Integer(0)),
            (
                "rating_period",
                Value::Interval(Interval::from_seconds(86_400)),
            ),
        ])
    }

    fn settings(row: &[(&str, Value)]) -> Result<LedgerSettings, &'static str> {
        LedgerSettings::from_values(&values(row))
    }

    #[test]
    fn settings_are_read_column_by_column() {
        let row = row_of_0_12();
        let read = |column: &str, kind: Kind| {
            let value = row
                .iter()
                .find(|(c, _)| *c == column)
                .map(|(_, v)| v.clone());
            assert_eq!(
                SETTINGS_COLUMNS
                    .iter()
                    .find(|(c, _)| *c == column)
                    .map(|c| c.1),
                Some(kind)
            );
            value
        };
        assert_eq!(LedgerSettings::from_columns(read), settings(&row));
        let without_k =
            |column: &str, kind| (column != "k_factor").then(|| read(column, kind)).flatten();
        assert_eq!(LedgerSettings::from_columns(without_k), Err("k_factor"));
    }

    #[test]
    fn columns_of_0_13_missing_mean_what_earlier_ledgers_did() {
        let s = settings(&row_of_0_12()).unwrap();
        assert_eq!(
            (
                s.glicko2_rule.as_str(),
                s.rd_growth.as_str(),
                s.max_change_policy.as_str()
            ),
            ("lichess", "elapsed", "clamp")
        );
        assert_eq!(s.rating_period, Some(86_400_000_000));
        assert_eq!(
            (s.min_rd, s.change_period, s.max_change),
            (None, None, None)
        );
        assert!(s.rules().is_ok());
    }

    #[test]
    fn a_null_required_setting_is_named() {
        let mut row = row_of_0_12();
        row.retain(|(c, _)| *c != "tau");
        assert_eq!(settings(&row), Err("tau"));
        row.retain(|(c, _)| *c != "rating_system");
        assert_eq!(settings(&row), Err("rating_system"));
        // a value of another kind reads as NULL
        row.push(("rating_system", Value::Number(1.0)));
        assert_eq!(settings(&row), Err("rating_system"));
    }

    #[test]
    fn an_interval_that_is_no_period_becomes_zero_which_the_rules_refuse() {
        let mut row = row_of_0_12();
        row.retain(|(c, _)| *c != "rating_period");
        row.push(("rating_period", Value::Interval(Interval::ZERO)));
        let s = settings(&row).unwrap();
        assert_eq!(s.rating_period, Some(0));
        assert!(s.rules().is_err());
        let month = Interval {
            months: 1,
            days: 0,
            micros: 0,
        };
        assert_eq!(fixed_micros(month), 0);
        assert_eq!(fixed_micros(Interval::from_seconds(60)), 60_000_000);
        assert_eq!(period_micros(month), 30 * 86_400_000_000);
    }
}
