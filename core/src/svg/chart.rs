//! A line chart of ratings over time as an SVG picture: one line per player (the rating before
//! the player's first game, then the rating after each game), axes with labelled ticks (dates
//! under the plot, ratings left of it), a dot at each player's latest rating, and a legend above
//! the plot with one colour per player in the order the players are given.
//!
//! Dates are seconds counted like Unix time, read as wall-clock time (the caller chooses the
//! time zone); ticks fall on whole days, months or years of the proleptic Gregorian calendar.

use std::fmt;

use super::{close_document, escape, num, open_document};
use crate::error::{Classified, ErrorClass};

pub const MIN_DIMENSION: i32 = 100;
pub const MAX_DIMENSION: i32 = 4096;

pub const BACKGROUND: &str = "#ffffff";
/// The colours of the players' lines, in the order the players are given; after ten they repeat
/// dashed, then dotted.
pub const PALETTE: [&str; 10] = [
    "#1f6fb2", "#d1495b", "#2e933c", "#e08e0b", "#7b4fa0", "#1b998b", "#8c5a2b", "#c2185b",
    "#5f6b73", "#9a9a00",
];
const DASHES: [Option<&str>; 3] = [None, Some("7 4"), Some("2 3")];
const AXIS: &str = "#444444";
const GRID: &str = "#e6e6e6";
const LABEL: &str = "#333333";
const MUTED: &str = "#808080";

const FONT_SIZE: f64 = 11.0;
/// What a character of an 11-pixel sans-serif label takes, about: enough to keep labels apart.
const CHAR_WIDTH: f64 = 7.0;
const LEGEND_ROW: f64 = 16.0;
const MAX_NAME_CHARS: usize = 32;
const DAY: f64 = 86_400.0;
/// Ratings and dates beyond these are drawn at them (no rating or timestamp comes near).
const MAX_RATING: f64 = 1e15;
const MAX_SECONDS: f64 = 1e14;
/// The smallest span of the rating axis: a flat line sits in the middle of 20 points.
const MIN_RATING_SPAN: f64 = 20.0;

/// One player's line: `(seconds, rating)` points in the order they are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// A player's line from the player's games in order, each `(date in seconds, rating before,
    /// rating after)`: the rating before the first game, then the rating after every game.
    pub fn from_games<I>(name: impl Into<String>, games: I) -> Series
    where
        I: IntoIterator<Item = (f64, f64, f64)>,
    {
        let mut points = Vec::new();
        for (x, before, after) in games {
            if points.is_empty() {
                points.push((x, before));
            }
            points.push((x, after));
        }
        Series {
            name: name.into(),
            points,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartError {
    Width(i32),
    Height(i32),
    /// More players than [`MAX_CHART_PLAYERS`] (54000).
    TooManyPlayers(usize),
    /// A NULL among the players (22004).
    NullPlayer,
}

impl Classified for ChartError {
    fn class(&self) -> ErrorClass {
        match self {
            Self::TooManyPlayers(_) => ErrorClass::ProgramLimit,
            Self::NullPlayer => ErrorClass::NullValue,
            _ => ErrorClass::InvalidParameter,
        }
    }
}

impl fmt::Display for ChartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, v) = match self {
            Self::Width(v) => ("width", v),
            Self::Height(v) => ("height", v),
            Self::TooManyPlayers(n) => {
                return write!(
                    f,
                    "a chart shows at most {MAX_CHART_PLAYERS} players, not {n}"
                )
            }
            Self::NullPlayer => return write!(f, "players must not contain NULL"),
        };
        write!(
            f,
            "{what} must be between {MIN_DIMENSION} and {MAX_DIMENSION} pixels, got {v}"
        )
    }
}

impl std::error::Error for ChartError {}

/// The most players (duplicates included) a chart takes.
pub const MAX_CHART_PLAYERS: usize = 1000;

/// Each player of `players` (`count` of them) once, in the order given (which chooses the
/// colours): an error for a NULL, or for more than [`MAX_CHART_PLAYERS`].
pub fn chart_players<'a>(
    count: usize,
    players: impl IntoIterator<Item = Option<&'a str>>,
) -> Result<Vec<String>, ChartError> {
    if count > MAX_CHART_PLAYERS {
        return Err(ChartError::TooManyPlayers(count));
    }
    let mut names: Vec<String> = Vec::new();
    for p in players {
        crate::interrupt::check();
        let p = p.ok_or(ChartError::NullPlayer)?;
        if !names.iter().any(|n| n == p) {
            names.push(p.to_owned());
        }
    }
    Ok(names)
}

/// The chart of a ledger's players (from [`chart_players`]) in a scope ('': none), each with
/// their games in order (see [`Series::from_games`]; none: "(no games)").
pub fn ledger_chart(
    ledger: &str,
    scope: &str,
    players: Vec<String>,
    mut games: std::collections::HashMap<String, Vec<(f64, f64, f64)>>,
    width: i32,
    height: i32,
) -> Result<String, ChartError> {
    let series: Vec<Series> = players
        .into_iter()
        .map(|name| {
            let g = games.remove(&name).unwrap_or_default();
            Series::from_games(name, g)
        })
        .collect();
    let title = match scope {
        "" => format!("Ratings in ledger \"{ledger}\""),
        _ => format!("Ratings in ledger \"{ledger}\", scope \"{scope}\""),
    };
    rating_chart(&title, &series, width, height)
}

/// Checks a chart's size in pixels.
pub fn check_dimensions(width: i32, height: i32) -> Result<(), ChartError> {
    let ok = |v: i32| (MIN_DIMENSION..=MAX_DIMENSION).contains(&v);
    if !ok(width) {
        return Err(ChartError::Width(width));
    }
    if !ok(height) {
        return Err(ChartError::Height(height));
    }
    Ok(())
}

/// The colour and dash pattern of the `i`-th player (from 0).
pub fn series_style(i: usize) -> (&'static str, Option<&'static str>) {
    (
        PALETTE[i % PALETTE.len()],
        DASHES[(i / PALETTE.len()) % DASHES.len()],
    )
}

// ---- calendar ----------------------------------------------------------------------------

/// Days since 1970-01-01 of a date of the proleptic Gregorian calendar (`month` 1..=12).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    // Years counted from March, so that the leap day ends a year; 400-year eras of 146,097 days.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y.rem_euclid(400);
    let month_from_march = i64::from((month + 9) % 12);
    let day_of_year = (153 * month_from_march + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date `(year, month, day)` of a day counted from 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Months since January of year 0 of a day.
fn month_index(days: i64) -> i64 {
    let (y, m, _) = civil_from_days(days);
    y * 12 + i64::from(m) - 1
}

fn month_start(index: i64) -> i64 {
    days_from_civil(index.div_euclid(12), (index.rem_euclid(12) + 1) as u32, 1)
}

// ---- ticks -------------------------------------------------------------------------------

fn pow10(e: i32) -> f64 {
    let mut p = 1.0;
    for _ in 0..e.unsigned_abs() {
        p *= 10.0;
    }
    if e < 0 {
        1.0 / p
    } else {
        p
    }
}

/// Ticks of the rating axis: `(first + i) * step` for `i` in `0..count`; the axis runs from the
/// first to the last, which enclose the data.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ValueTicks {
    first: f64,
    count: usize,
    step: f64,
    decimals: usize,
}

impl ValueTicks {
    fn value(&self, i: usize) -> f64 {
        (self.first + i as f64) * self.step
    }
    fn low(&self) -> f64 {
        self.value(0)
    }
    fn high(&self) -> f64 {
        self.value(self.count - 1)
    }
    fn label(&self, i: usize) -> String {
        let s = format!("{:.*}", self.decimals, self.value(i));
        match s.strip_prefix('-') {
            Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_owned(),
            _ => s,
        }
    }
}

/// At most `max_ticks` (>= 2) round values (a step of 1, 2 or 5 times a power of ten) from at or
/// below `lo` to at or above `hi`.
fn value_ticks(lo: f64, hi: f64, max_ticks: usize) -> ValueTicks {
    let (lo, hi) = if hi - lo < MIN_RATING_SPAN {
        let mid = lo / 2.0 + hi / 2.0;
        (mid - MIN_RATING_SPAN / 2.0, mid + MIN_RATING_SPAN / 2.0)
    } else {
        (lo, hi)
    };
    let raw = (hi - lo) / (max_ticks.max(2) - 1) as f64;
    let mut e = 0;
    while pow10(e + 1) <= raw {
        e += 1;
    }
    while pow10(e) > raw {
        e -= 1;
    }
    loop {
        for m in [1.0, 2.0, 5.0] {
            let step = m * pow10(e);
            let (k0, k1) = ((lo / step).floor(), (hi / step).ceil());
            if k1 - k0 + 1.0 <= max_ticks as f64 {
                return ValueTicks {
                    first: k0,
                    count: (k1 - k0) as usize + 1,
                    step,
                    decimals: if e >= 0 { 0 } else { e.unsigned_abs() as usize },
                };
            }
        }
        e += 1;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DateLabel {
    Day,
    Month,
    Year,
}

/// Ticks of the date axis: days counted from 1970-01-01, the first and the last being the ends
/// of the axis.
#[derive(Clone, Debug, PartialEq, Eq)]
struct DateTicks {
    days: Vec<i64>,
    label: DateLabel,
}

impl DateTicks {
    fn label(&self, day: i64) -> String {
        let (y, m, d) = civil_from_days(day);
        match self.label {
            DateLabel::Day => format!("{y:04}-{m:02}-{d:02}"),
            DateLabel::Month => format!("{y:04}-{m:02}"),
            DateLabel::Year => format!("{y:04}"),
        }
    }
}

/// At most `max_ticks` (>= 2) whole days, weeks (from Monday), month starts or year starts, the
/// first at or before `lo`, the last at or after `hi` (seconds).
fn date_ticks(lo: f64, hi: f64, max_ticks: usize) -> DateTicks {
    let max_ticks = max_ticks.max(2) as i64;
    let first = (lo / DAY).floor() as i64;
    let mut last = (hi / DAY).ceil() as i64;
    if last <= first {
        last = first + 1;
    }
    for step in [1, 2, 7, 14] {
        // weeks start on Mondays (1970-01-05 was one)
        let start = if step >= 7 {
            first - (first - 4).rem_euclid(7)
        } else {
            first
        };
        let n = (last - start + step - 1) / step;
        if n < max_ticks {
            return DateTicks {
                days: (0..=n).map(|i| start + i * step).collect(),
                label: DateLabel::Day,
            };
        }
    }
    let (m_lo, m_hi) = {
        let hi_month = month_index(last);
        let hi_month = if month_start(hi_month) < last {
            hi_month + 1
        } else {
            hi_month
        };
        (month_index(first), hi_month)
    };
    // months, then 1, 2, 5, 10, 20, 50, ... years (up to a million: PostgreSQL's range)
    let mut steps = vec![1_i64, 2, 3, 6];
    let mut years = 1_i64;
    for _ in 0..7 {
        steps.extend([12 * years, 24 * years, 60 * years]);
        years *= 10;
    }
    for step in steps {
        let (k0, k1) = (m_lo.div_euclid(step), -(-m_hi).div_euclid(step));
        if k1 - k0 < max_ticks {
            return DateTicks {
                days: (k0..=k1).map(|k| month_start(k * step)).collect(),
                label: if step % 12 == 0 {
                    DateLabel::Year
                } else {
                    DateLabel::Month
                },
            };
        }
    }
    DateTicks {
        days: vec![first, last],
        label: DateLabel::Day,
    }
}

// ---- layout ------------------------------------------------------------------------------

fn text_width(chars: usize) -> f64 {
    chars as f64 * CHAR_WIDTH
}

/// A name as the legend shows it: at most [`MAX_NAME_CHARS`] characters.
fn legend_name(name: &str) -> String {
    if name.chars().count() > MAX_NAME_CHARS {
        let mut s: String = name.chars().take(MAX_NAME_CHARS - 1).collect();
        s.push('…');
        s
    } else {
        name.to_owned()
    }
}

/// One legend entry: the player's index, the text shown, and where it goes.
struct LegendItem {
    series: Option<usize>,
    text: String,
    x: f64,
    row: usize,
}

/// The legend's entries in rows from the left edge, at most `max_rows` rows; what does not fit is
/// counted in a last entry `+N more`.
fn legend(series: &[Series], has_points: &[bool], width: f64, max_rows: usize) -> Vec<LegendItem> {
    const SWATCH: f64 = 18.0;
    const GAP: f64 = 14.0;
    let (left, right) = (10.0, width - 10.0);
    let item_width = |text: &str| SWATCH + 4.0 + text_width(text.chars().count()) + GAP;
    let mut items: Vec<LegendItem> = Vec::new();
    let (mut x, mut row) = (left, 0);
    for (i, s) in series.iter().enumerate() {
        let mut text = legend_name(&s.name);
        if !has_points[i] {
            text.push_str(" (no games)");
        }
        let w = item_width(&text);
        if x > left && x + w - GAP > right {
            x = left;
            row += 1;
        }
        items.push(LegendItem {
            series: Some(i),
            text,
            x,
            row,
        });
        x += w;
    }
    if row < max_rows {
        return items;
    }
    // too many rows: keep the first rows, and room for "+N more" at the end of the last
    items.retain(|it| it.row < max_rows);
    loop {
        let more = format!("+{} more", series.len() - items.len());
        let x = match items.last() {
            Some(it) if it.row == max_rows - 1 => it.x + item_width(&it.text),
            _ => left,
        };
        if items.is_empty() || x + text_width(more.chars().count()) <= right {
            items.push(LegendItem {
                series: None,
                text: more,
                x,
                row: max_rows - 1,
            });
            return items;
        }
        items.pop();
    }
}

/// Where the plot goes and what its axes show.
struct Plot {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    x0: f64,
    x1: f64,
    y: ValueTicks,
    x: DateTicks,
}

impl Plot {
    fn px(&self, x: f64) -> f64 {
        self.left + (x - self.x0) / (self.x1 - self.x0) * (self.right - self.left)
    }
    fn py(&self, y: f64) -> f64 {
        self.bottom - (y - self.y.low()) / (self.y.high() - self.y.low()) * (self.bottom - self.top)
    }
}

fn clamp_point((x, y): (f64, f64)) -> Option<(f64, f64)> {
    (x.is_finite() && y.is_finite()).then(|| {
        (
            x.clamp(-MAX_SECONDS, MAX_SECONDS),
            y.clamp(-MAX_RATING, MAX_RATING),
        )
    })
}

fn pixels(v: f64) -> usize {
    v.max(0.0) as usize
}

/// The chart of `series` (one line each, in their order), `width` x `height` pixels, titled
/// `title` (the document's `<title>`, not drawn). Points that are not finite are left out; a
/// player without points is in the legend, marked "(no games)", with no line; without any point
/// the plot says "no games".
pub fn rating_chart(
    title: &str,
    series: &[Series],
    width: i32,
    height: i32,
) -> Result<String, ChartError> {
    check_dimensions(width, height)?;
    let (w, h) = (f64::from(width), f64::from(height));
    let lines: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|s| s.points.iter().copied().filter_map(clamp_point).collect())
        .collect();
    let has_points: Vec<bool> = lines.iter().map(|l| !l.is_empty()).collect();
    let max_rows = usize::try_from((height - 80) / 32).unwrap_or(0).max(1);
    let items = legend(series, &has_points, w, max_rows);
    let rows = items.iter().map(|it| it.row + 1).max().unwrap_or(0);
    let top = 10.0 + rows as f64 * LEGEND_ROW + 10.0;
    let bottom = h - 24.0;
    let all = lines.iter().flatten();
    let (mut x_lo, mut x_hi, mut y_lo, mut y_hi) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y) in all {
        x_lo = x_lo.min(x);
        x_hi = x_hi.max(x);
        y_lo = y_lo.min(y);
        y_hi = y_hi.max(y);
    }

    let mut out = String::with_capacity(4096 + 64 * lines.iter().map(Vec::len).sum::<usize>());
    open_document(&mut out, width, height, w, h, title);
    out.push_str(&format!(
        "<rect width=\"{width}\" height=\"{height}\" fill=\"{BACKGROUND}\"/>\n"
    ));
    out.push_str(&format!(
        "<g font-family=\"sans-serif\" font-size=\"{}\" fill=\"{LABEL}\">\n",
        num(FONT_SIZE)
    ));
    if x_lo > x_hi {
        // no point at all: a frame that says so
        let (left, right) = (10.0, w - 10.0);
        out.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{AXIS}\"/>\n",
            num(left),
            num(top),
            num(right - left),
            num((bottom - top).max(0.0))
        ));
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{MUTED}\">no games</text>\n",
            num(w / 2.0),
            num((top + bottom) / 2.0 + 4.0)
        ));
    } else {
        let y = value_ticks(y_lo, y_hi, (pixels(bottom - top) / 28).clamp(2, 8));
        let label_chars = (0..y.count).map(|i| y.label(i).len()).max().unwrap_or(1);
        let left = (10.0 + text_width(label_chars) + 6.0).max(40.0);
        let right = (w - 40.0).max(left + 10.0);
        let x = date_ticks(x_lo, x_hi, (pixels(right - left) / 80).clamp(2, 10));
        let plot = Plot {
            left,
            right,
            top,
            bottom,
            x0: x.days[0] as f64 * DAY,
            x1: x.days[x.days.len() - 1] as f64 * DAY,
            y,
            x,
        };
        draw_axes(&mut out, &plot);
        for (i, line) in lines.iter().enumerate() {
            draw_line(&mut out, &plot, line, i);
        }
    }
    out.push_str("</g>\n");
    draw_legend(&mut out, &items);
    close_document(&mut out);
    Ok(out)
}

fn draw_axes(out: &mut String, p: &Plot) {
    out.push_str(&format!("<g stroke=\"{GRID}\" stroke-width=\"1\">\n"));
    for i in 0..p.y.count {
        let y = num(p.py(p.y.value(i)));
        out.push_str(&format!(
            "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\"/>\n",
            num(p.left),
            num(p.right)
        ));
    }
    for &d in &p.x.days {
        let x = num(p.px(d as f64 * DAY));
        out.push_str(&format!(
            "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\"/>\n",
            num(p.top),
            num(p.bottom)
        ));
    }
    out.push_str("</g>\n");
    out.push_str(&format!(
        "<path d=\"M{} {}V{}H{}\" fill=\"none\" stroke=\"{AXIS}\" stroke-width=\"1\"/>\n",
        num(p.left),
        num(p.top),
        num(p.bottom),
        num(p.right)
    ));
    for i in 0..p.y.count {
        let y = p.py(p.y.value(i));
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
            num(p.left - 6.0),
            num(y + 4.0),
            p.y.label(i)
        ));
    }
    for &d in &p.x.days {
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            num(p.px(d as f64 * DAY)),
            num(p.bottom + 15.0),
            p.x.label(d)
        ));
    }
}

fn draw_line(out: &mut String, p: &Plot, line: &[(f64, f64)], i: usize) {
    let Some(&(lx, ly)) = line.last() else {
        return;
    };
    let (colour, dash) = series_style(i);
    let points: Vec<String> = line
        .iter()
        .map(|&(x, y)| format!("{},{}", num(p.px(x)), num(p.py(y))))
        .collect();
    out.push_str(&format!(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" \
         stroke-linejoin=\"round\" stroke-linecap=\"round\"{}/>\n",
        points.join(" "),
        dash.map(|d| format!(" stroke-dasharray=\"{d}\""))
            .unwrap_or_default()
    ));
    out.push_str(&format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{colour}\"/>\n",
        num(p.px(lx)),
        num(p.py(ly))
    ));
}

fn draw_legend(out: &mut String, items: &[LegendItem]) {
    out.push_str(&format!(
        "<g font-family=\"sans-serif\" font-size=\"{}\" fill=\"{LABEL}\">\n",
        num(FONT_SIZE)
    ));
    for it in items {
        let baseline = 10.0 + FONT_SIZE + it.row as f64 * LEGEND_ROW;
        let mut text_x = it.x;
        let mut fill = "";
        if let Some(i) = it.series {
            let (colour, dash) = series_style(i);
            let y = num(baseline - 4.0);
            out.push_str(&format!(
                "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{colour}\" \
                 stroke-width=\"3\"{}/>\n",
                num(it.x),
                num(it.x + 18.0),
                dash.map(|d| format!(" stroke-dasharray=\"{d}\""))
                    .unwrap_or_default()
            ));
            text_x += 22.0;
            if it.text.ends_with(" (no games)") {
                fill = MUTED;
            }
        } else {
            fill = MUTED;
        }
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\"{}>{}</text>\n",
            num(text_x),
            num(baseline),
            if fill.is_empty() {
                String::new()
            } else {
                format!(" fill=\"{fill}\"")
            },
            escape(&it.text)
        ));
    }
    out.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::super::test_xml::{svg_document, Element};
    use super::*;

    fn at(y: i64, m: u32, d: u32, hour: f64) -> f64 {
        days_from_civil(y, m, d) as f64 * DAY + hour * 3600.0
    }

    fn polylines(e: &[Element]) -> Vec<(String, Vec<(f64, f64)>)> {
        e.iter()
            .filter(|e| e.name == "polyline")
            .map(|e| {
                let pts = e
                    .attr("points")
                    .unwrap()
                    .split(' ')
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                (e.attr("stroke").unwrap().to_owned(), pts)
            })
            .collect()
    }

    fn text<'a>(e: &'a [Element], t: &str) -> &'a Element {
        e.iter()
            .find(|e| e.name == "text" && e.text == t)
            .unwrap_or_else(|| panic!("no text {t:?}"))
    }

    fn xy(e: &Element) -> (f64, f64) {
        (
            e.attr("x").unwrap().parse().unwrap(),
            e.attr("y").unwrap().parse().unwrap(),
        )
    }

    #[test]
    fn calendar() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2025, 1, 1), 20089);
        assert_eq!(days_from_civil(2000, 3, 1), 11017);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(civil_from_days(20089), (2025, 1, 1));
        assert_eq!(civil_from_days(11016), (2000, 2, 29));
        assert_eq!(civil_from_days(-719_468), (0, 3, 1));
        for d in (-1_000_000..1_000_000).step_by(997) {
            let (y, m, day) = civil_from_days(d);
            assert_eq!(days_from_civil(y, m, day), d);
        }
        assert_eq!(month_index(20089), 2025 * 12);
        assert_eq!(month_start(2025 * 12 + 1), days_from_civil(2025, 2, 1));
    }

    #[test]
    fn from_games_starts_with_the_rating_before() {
        let s = Series::from_games("a", [(10.0, 1500.0, 1510.0), (20.0, 1510.0, 1502.5)]);
        assert_eq!(s.points, [(10.0, 1500.0), (10.0, 1510.0), (20.0, 1502.5)]);
        assert!(Series::from_games("b", []).points.is_empty());
    }

    #[test]
    fn ticks_are_round_and_enclose_the_data() {
        let t = value_ticks(1487.3, 1532.9, 7);
        assert_eq!((t.low(), t.high(), t.step), (1480.0, 1540.0, 10.0));
        assert_eq!(t.label(0), "1480");
        // a flat line gets 20 points around it
        let t = value_ticks(1500.0, 1500.0, 5);
        assert!(t.low() <= 1490.0 && t.high() >= 1510.0 && t.count <= 5);
        let t = value_ticks(-3.0, 17.0, 3);
        assert_eq!((t.low(), t.high(), t.count), (-20.0, 20.0, 3));
        assert_eq!(t.label(1), "0");
        // dates: days, weeks from Monday, months, years
        let d = date_ticks(at(2025, 1, 1, 10.0), at(2025, 1, 3, 10.0), 8);
        assert_eq!(d.days, [20089, 20090, 20091, 20092]);
        assert_eq!(d.label(20089), "2025-01-01");
        let d = date_ticks(at(2025, 1, 1, 10.0), at(2025, 1, 1, 11.0), 8);
        assert_eq!(d.days, [20089, 20090]);
        let d = date_ticks(at(2025, 1, 1, 10.0), at(2025, 2, 10, 0.0), 8);
        assert_eq!(d.days.len(), 7);
        assert_eq!(d.label(d.days[0]), "2024-12-30");
        let labels = |d: &DateTicks| d.days.iter().map(|&x| d.label(x)).collect::<Vec<_>>();
        let d = date_ticks(at(2024, 11, 15, 0.0), at(2025, 5, 2, 0.0), 5);
        assert_eq!(d.label, DateLabel::Month);
        assert_eq!(
            labels(&d),
            ["2024-11", "2025-01", "2025-03", "2025-05", "2025-07"]
        );
        let d = date_ticks(at(2024, 11, 15, 0.0), at(2025, 5, 2, 0.0), 4);
        assert_eq!(labels(&d), ["2024-10", "2025-01", "2025-04", "2025-07"]);
        let d = date_ticks(at(1990, 6, 1, 0.0), at(2025, 5, 2, 0.0), 6);
        assert_eq!(d.label, DateLabel::Year);
        assert_eq!(d.label(d.days[0]), "1990");
        assert!(d.days.len() <= 6);
        // the extremes of PostgreSQL's timestamps
        let d = date_ticks(-2.1e11, 9.2e12, 10);
        assert!(d.days.len() >= 2 && d.days.len() <= 10);
    }

    #[test]
    fn known_points_land_on_their_ticks() {
        // A: 1500 before the first game (2025-01-01 00:00), 1520 after it, 1480 after the
        // second (2025-01-03 00:00); the ticks include the first day and 1500.
        let a = Series::from_games(
            "A",
            [
                (at(2025, 1, 1, 0.0), 1500.0, 1520.0),
                (at(2025, 1, 3, 0.0), 1520.0, 1480.0),
            ],
        );
        let svg = rating_chart("t", &[a], 640, 320).unwrap();
        let e = svg_document(&svg, 640, 320);
        assert_eq!(e[0].attr("viewBox"), Some("0 0 640 320"));
        let lines = polylines(&e);
        assert_eq!(lines.len(), 1);
        let (colour, pts) = &lines[0];
        assert_eq!(colour, PALETTE[0]);
        assert_eq!(pts.len(), 3);
        // the first point is on the 2025-01-01 tick and the 1500 tick
        let day = xy(text(&e, "2025-01-01"));
        let r1500 = xy(text(&e, "1500"));
        assert_eq!(pts[0].0, day.0);
        assert_eq!(pts[0].1, r1500.1 - 4.0);
        assert_eq!(pts[1].0, pts[0].0);
        assert_eq!(pts[2].0, xy(text(&e, "2025-01-03")).0);
        assert_eq!(pts[1].1, xy(text(&e, "1520")).1 - 4.0);
        assert_eq!(pts[2].1, xy(text(&e, "1480")).1 - 4.0);
        // the layout of this chart: plot from x 44 to 600, from y 36 (1520) to 296 (1480)
        assert_eq!(pts[0], (44.0, 166.0));
        assert_eq!(pts[1], (44.0, 36.0));
        assert_eq!(pts[2], (600.0, 296.0));
        // the latest rating has a dot
        let dot = e.iter().find(|e| e.name == "circle").unwrap();
        assert_eq!(
            (dot.attr("cx"), dot.attr("cy"), dot.attr("fill")),
            (Some("600"), Some("296"), Some(PALETTE[0]))
        );
        // the background
        assert_eq!(e[2].name, "rect");
        assert_eq!(e[2].attr("fill"), Some(BACKGROUND));
    }

    #[test]
    fn one_colour_per_player_and_a_legend() {
        let mk =
            |n: &str, d: f64| Series::from_games(n, [(at(2025, 3, 1, 12.0), 1500.0, 1500.0 + d)]);
        let series = vec![
            mk("alice", 8.0),
            Series::from_games("nobody", []),
            mk("bob", -8.0),
        ];
        let svg = rating_chart("ledger", &series, 500, 300).unwrap();
        let e = svg_document(&svg, 500, 300);
        let lines = polylines(&e);
        // one line each for the players with games, in their colours by position
        assert_eq!(
            lines.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>(),
            [PALETTE[0], PALETTE[2]]
        );
        assert_eq!(e.iter().filter(|e| e.name == "circle").count(), 2);
        // the legend: a swatch and a name for each, the player without games marked
        let swatches: Vec<&str> = e
            .iter()
            .filter(|e| e.name == "line" && e.attr("stroke-width") == Some("3"))
            .map(|e| e.attr("stroke").unwrap())
            .collect();
        assert_eq!(swatches, [PALETTE[0], PALETTE[1], PALETTE[2]]);
        assert_eq!(text(&e, "nobody (no games)").attr("fill"), Some(MUTED));
        let (a, b) = (xy(text(&e, "alice")), xy(text(&e, "bob")));
        assert_eq!(a.1, b.1);
        assert!(a.0 < b.0);
        // same input, same bytes
        assert_eq!(svg, rating_chart("ledger", &series, 500, 300).unwrap());
        // past ten players the colours come back dashed
        assert_eq!(series_style(10), (PALETTE[0], Some("7 4")));
        assert_eq!(series_style(21), (PALETTE[1], Some("2 3")));
        assert_eq!(series_style(30), (PALETTE[0], None));
    }

    #[test]
    fn names_are_escaped_and_shortened() {
        let name = r#"<b>Tom & "Jerry" O'Neil</b>"#;
        let series = vec![Series::from_games(
            name,
            [(at(2025, 1, 1, 0.0), 1500.0, 1510.0)],
        )];
        let svg = rating_chart("Ratings in ledger \"<x>\"", &series, 640, 320).unwrap();
        assert!(!svg.contains("<b>"));
        assert!(svg.contains("&lt;b&gt;Tom &amp; &quot;Jerry&quot; O&apos;Neil&lt;/b&gt;"));
        let e = svg_document(&svg, 640, 320);
        assert_eq!(e[1].text, "Ratings in ledger \"<x>\"");
        text(&e, name);
        let long = "x".repeat(40);
        let svg = rating_chart("t", &[Series::from_games(long.as_str(), [])], 640, 320).unwrap();
        let e = svg_document(&svg, 640, 320);
        text(&e, &format!("{}… (no games)", "x".repeat(31)));
        let svg = rating_chart("t", &[Series::from_games("a\u{7}b", [])], 640, 320).unwrap();
        svg_document(&svg, 640, 320);
    }

    #[test]
    fn no_points_and_many_players() {
        let svg = rating_chart("t", &[], 100, 100).unwrap();
        let e = svg_document(&svg, 100, 100);
        text(&e, "no games");
        assert_eq!(polylines(&e).len(), 0);
        // non-finite points are left out
        let s = Series {
            name: "p".into(),
            points: vec![(f64::NAN, 1500.0), (f64::INFINITY, 1.0), (0.0, f64::NAN)],
        };
        let svg = rating_chart("t", &[s], 200, 150).unwrap();
        text(&svg_document(&svg, 200, 150), "no games");
        // 200 players in a small chart: the legend keeps its rows and counts the rest
        let many: Vec<Series> = (0..200)
            .map(|i| {
                Series::from_games(
                    format!("player {i}"),
                    [(at(2025, 1, 1, f64::from(i)), 1500.0, 1500.0 + f64::from(i))],
                )
            })
            .collect();
        let svg = rating_chart("t", &many, 300, 200).unwrap();
        let e = svg_document(&svg, 300, 200);
        assert_eq!(polylines(&e).len(), 200);
        let more = e
            .iter()
            .find(|e| e.name == "text" && e.text.ends_with(" more"))
            .expect("+N more");
        let shown = e
            .iter()
            .filter(|e| e.name == "text" && e.text.starts_with("player "))
            .count();
        assert_eq!(more.text, format!("+{} more", 200 - shown));
        assert!(xy(more).1 <= 10.0 + FONT_SIZE + 2.0 * LEGEND_ROW);
    }

    #[test]
    fn dimensions_are_checked() {
        for (w, h) in [(99, 320), (4097, 320), (i32::MIN, 320)] {
            assert_eq!(rating_chart("t", &[], w, h), Err(ChartError::Width(w)));
        }
        for (w, h) in [(640, 99), (640, 4097), (640, -1)] {
            assert_eq!(rating_chart("t", &[], w, h), Err(ChartError::Height(h)));
        }
        assert!(rating_chart("t", &[], 100, 100).is_ok());
        assert!(rating_chart("t", &[], 4096, 4096).is_ok());
        assert_eq!(
            ChartError::Width(50).to_string(),
            "width must be between 100 and 4096 pixels, got 50"
        );
    }

    #[test]
    fn a_ledger_chart_takes_each_player_once_and_names_its_scope() {
        let players = chart_players(3, [Some("b"), Some("a"), Some("b")]).unwrap();
        assert_eq!(players, ["b", "a"]);
        assert_eq!(
            chart_players(1, [None]).unwrap_err().class(),
            ErrorClass::NullValue
        );
        let many = chart_players(MAX_CHART_PLAYERS + 1, []).unwrap_err();
        assert_eq!(many.class(), ErrorClass::ProgramLimit);
        assert_eq!(
            many.to_string(),
            "a chart shows at most 1000 players, not 1001"
        );
        let games =
            std::collections::HashMap::from([("a".to_owned(), vec![(0.0, 1500.0, 1510.0)])]);
        let svg = ledger_chart("club", "blitz", players, games, 300, 200).unwrap();
        assert!(svg.contains("Ratings in ledger &quot;club&quot;, scope &quot;blitz&quot;"));
        assert!(svg.contains("b (no games)"));
    }
}
