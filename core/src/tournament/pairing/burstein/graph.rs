//! The graphs the Burstein procedure matches: the whole field's, or one bracket's with a stand-in
//! vertex for the players below it. The procedure sets weights a vertex's edges at a time (the
//! edges of a player to a range of others, to its bracket, or to its possible opponents with a
//! priority each), so a graph keeps those settings as rules, O(1) a vertex but the priorities
//! (the players of one bracket, dropped when the player is paired): an edge's weight is what the
//! latest rule that covers it makes of the two players. The matcher reads them through a cache of
//! rows ([`ROW_CACHE_BYTES`]) and a bit a pair for which edges exist ([`BITS_VERTICES`]), so
//! memory is linear in the players plus at most those (a matrix of the weights took 16 bytes a
//! pair: 401 MiB at 5,000 players).
//!
//! A rule changes the weights of many edges at once; the matcher is told of each edge that
//! changed, in the order the procedure lists them, which is the order of its repairs (it can
//! decide between equally good matchings).

use std::ops::Range;

use super::{weight, Field, Stuck, Weight};
use crate::tournament::pairing::incremental::{EdgeBits, Matcher, Weights};

const NONE: usize = usize::MAX;
/// The most vertices whose [`EdgeBits`] a graph keeps (64 MiB): the matcher then skips the pairs
/// that may not meet or are in scoregroups too far apart instead of searching their rules.
const BITS_VERTICES: usize = 23_168;
/// The most bytes of rows of weights the matcher caches. Round 9 of 5,000 players
/// (`bench/pairing.sh`, the whole field matched): 46 s with 32 MiB, 22 s with 128 MiB (151 MiB
/// peak), as fast as a matrix of all the weights (21 s, 401 MiB).
const ROW_CACHE_BYTES: usize = 128 << 20;

#[cfg(test)]
thread_local! {
    /// Rows the matcher caches at most, in this thread (the tests evict rows too).
    pub(super) static CACHE_ROWS: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
    /// Whether graphs keep no [`EdgeBits`] in this thread (as above `BITS_VERTICES`).
    pub(super) static NO_BITS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Which other vertices (by sorted position; the stand-in is position m) a rule covers.
enum Cover {
    /// The positions of a range, and one more.
    Range {
        range: Range<usize>,
        extra: Option<usize>,
    },
    /// These positions, sorted, each with the priority added to its edge.
    Listed(Vec<(usize, u64)>),
}

impl Cover {
    /// Whether this cover holds every position of `other`.
    fn contains(&self, other: &Cover) -> bool {
        match (self, other) {
            (Cover::Range { range, extra }, Cover::Range { range: r, extra: e }) => {
                let holds = |p: usize| range.contains(&p) || *extra == Some(p);
                (r.is_empty() || (range.start <= r.start && r.end <= range.end))
                    && e.is_none_or(holds)
            }
            (_, Cover::Listed(listed)) => listed.iter().all(|&(p, _)| self.find(p).is_some()),
            (Cover::Listed(_), Cover::Range { .. }) => false,
        }
    }

    /// Whether the rule covers position `p`, and the priority it lists for it.
    fn find(&self, p: usize) -> Option<u64> {
        match self {
            Cover::Range { range, extra } => (range.contains(&p) || *extra == Some(p)).then_some(0),
            Cover::Listed(listed) => listed
                .binary_search_by_key(&p, |&(q, _)| q)
                .ok()
                .map(|k| listed[k].1),
        }
    }
}

/// Whether an edge counts as a pair within a bracket.
#[derive(Clone, Copy)]
pub(super) enum Same {
    /// When the other player's position is at least this one.
    From(usize),
    Is(bool),
}

/// What a rule makes the weight of an edge between its owner and another player.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    /// [`Field::edge`] of the two (plus the priority a listed cover gives the other).
    Edge { same: Same, colours: bool },
    /// This weight, whoever the other is (edges to the stand-in).
    Fixed(Weight),
}

struct Rule {
    /// When it was set: the latest rule that covers an edge decides its weight.
    time: u64,
    cover: Cover,
    kind: Kind,
}

/// The weights of a graph (its vertices numbered apart from the players' positions).
struct Store<'f, 'a> {
    field: &'f Field<'a>,
    /// Per vertex its position, per position (m + 1) its vertex or NONE; empty for the whole
    /// field (the positions are the vertices).
    position: Vec<usize>,
    vertex: Vec<usize>,
    /// Per vertex, the rules set for its edges.
    rules: Vec<Vec<Rule>>,
    clock: u64,
    /// Which edges exist (up to [`BITS_VERTICES`]).
    bits: Option<EdgeBits>,
}

impl Store<'_, '_> {
    fn position(&self, v: usize) -> usize {
        if self.position.is_empty() {
            v
        } else {
            self.position[v]
        }
    }

    fn vertex(&self, p: usize) -> usize {
        if self.vertex.is_empty() {
            p
        } else {
            self.vertex[p]
        }
    }

    /// What `rule`, set for the player at position `owner`, makes of its edge to `other`.
    fn apply(&self, rule: &Rule, owner: usize, other: usize, priority: u64) -> Weight {
        match rule.kind {
            Kind::Fixed(w) => w,
            Kind::Edge { same, colours } => {
                let same = match same {
                    Same::From(from) => other >= from,
                    Same::Is(same) => same,
                };
                let w = self.field.edge(other, owner, same, colours);
                if priority == 0 || w.is_zero() {
                    w
                } else {
                    w.add(Weight::from_u64(priority))
                }
            }
        }
    }

    /// The weight of the edge between positions p and q by their rules (zero: none).
    fn by_rules(&self, p: usize, q: usize) -> Weight {
        if p == q {
            return Weight::ZERO;
        }
        // (each vertex's rules are in the order they were set: its latest that covers the
        // other, and of the two the later)
        let latest = |owner: usize, other: usize| {
            let v = self.vertex(owner);
            let rules = if v == NONE {
                &[][..]
            } else {
                &self.rules[v][..]
            };
            rules
                .iter()
                .rev()
                .find_map(|r| r.cover.find(other).map(|priority| (r, priority)))
        };
        match (latest(p, q), latest(q, p)) {
            (Some((r, k)), Some((s, _))) if r.time > s.time => self.apply(r, p, q, k),
            (_, Some((s, k))) => self.apply(s, q, p, k),
            (Some((r, k)), None) => self.apply(r, p, q, k),
            (None, None) => Weight::ZERO,
        }
    }
}

impl Weights<2> for Store<'_, '_> {
    #[inline]
    fn weight(&self, i: usize, j: usize) -> Weight {
        self.by_rules(self.position(i), self.position(j))
    }

    #[inline]
    fn edges(&self, i: usize) -> Option<&[u64]> {
        self.bits.as_ref().map(|b| b.row(i))
    }
}

/// A graph of the field's players and its maximum-weight matching, kept up to date.
pub(super) struct Graph<'f, 'a> {
    store: Store<'f, 'a>,
    matcher: Matcher<2>,
    /// Per vertex: removed (paired).
    gone: Vec<bool>,
}

impl<'f, 'a> Graph<'f, 'a> {
    fn new(field: &'f Field<'a>, position: Vec<usize>, vertex: Vec<usize>, n: usize) -> Self {
        let row = std::mem::size_of::<Weight>() * n.max(1);
        let rows = (ROW_CACHE_BYTES / row).clamp(1, n.max(1));
        #[cfg(test)]
        let rows = rows.min(CACHE_ROWS.with(|c| c.get()));
        let bits = n <= BITS_VERTICES;
        #[cfg(test)]
        let bits = bits && !NO_BITS.with(|c| c.get());
        Graph {
            store: Store {
                field,
                position,
                vertex,
                rules: (0..n).map(|_| Vec::new()).collect(),
                clock: 0,
                bits: bits.then(|| EdgeBits::new(n)),
            },
            matcher: Matcher::with_cache(n, rows),
            gone: vec![false; n],
        }
    }

    /// The whole field, no edges yet.
    pub fn whole(field: &'f Field<'a>) -> Self {
        Self::new(field, Vec::new(), Vec::new(), field.players.len())
    }

    /// One bracket (`bracket`: its positions) with a stand-in vertex (position m) for the players
    /// below, joined to those who may float there (`floaters`).
    pub fn bracket(field: &'f Field<'a>, bracket: &[usize], floaters: &[usize]) -> Self {
        let m = field.players.len();
        let mut position = bracket.to_vec();
        if !floaters.is_empty() {
            position.push(m);
        }
        let mut vertex = vec![NONE; m + 1];
        for (v, &p) in position.iter().enumerate() {
            vertex[p] = v;
        }
        let n = position.len();
        let mut g = Self::new(field, position, vertex, n);
        for &f in floaters {
            g.set_fixed(f, m..m + 1, weight(false, false, 0));
        }
        g
    }

    /// Sets the edges of `owner` to the players of `cover` by `kind`, telling the matcher of
    /// each changed edge in the order of `order` (every covered player whose edge may change).
    fn set(
        &mut self,
        owner: usize,
        cover: Cover,
        kind: Kind,
        order: impl IntoIterator<Item = usize> + Clone,
    ) {
        let store = &mut self.store;
        // (a rule can cover the whole field, and the merges of `pair` set one a player)
        let before: Vec<Weight> = order
            .clone()
            .into_iter()
            .enumerate()
            .map(|(k, u)| {
                if k % 1024 == 1023 {
                    crate::interrupt::check();
                }
                store.by_rules(owner, u)
            })
            .collect();
        store.clock += 1;
        let rule = Rule {
            time: store.clock,
            cover,
            kind,
        };
        let v = store.vertex(owner);
        for (k, (u, old)) in order.into_iter().zip(before).enumerate() {
            if k % 1024 == 1023 {
                crate::interrupt::check();
            }
            let priority = rule.cover.find(u);
            debug_assert!(priority.is_some(), "a player listed but not covered");
            let new = store.apply(&rule, owner, u, priority.unwrap_or(0));
            if new != old {
                let x = store.vertex(u);
                debug_assert!(!self.gone[x], "an edge of a paired player set");
                if let Some(bits) = &mut store.bits {
                    bits.set(v, x, new > Weight::ZERO);
                }
                self.matcher.changed_edge(v, x);
            }
        }
        // (a rule hides the older ones of its vertex whose players it covers all)
        let rules = &mut store.rules[v];
        rules.retain(|old| !rule.cover.contains(&old.cover));
        rules.push(rule);
    }

    /// Edges of `owner` to the positions of `range` (and `extra`) by [`Kind::Edge`].
    pub fn set_edges(
        &mut self,
        owner: usize,
        range: Range<usize>,
        extra: Option<usize>,
        same: Same,
        colours: bool,
        order: impl IntoIterator<Item = usize> + Clone,
    ) {
        self.set(
            owner,
            Cover::Range { range, extra },
            Kind::Edge { same, colours },
            order,
        );
    }

    /// Edges of `owner` to the positions of `range` of weight `w`.
    pub fn set_fixed(&mut self, owner: usize, range: Range<usize>, w: Weight) {
        self.set(
            owner,
            Cover::Range {
                range: range.clone(),
                extra: None,
            },
            Kind::Fixed(w),
            range,
        );
    }

    /// Edges of `owner` to the players of `priorities`, in that order: their edge within the
    /// bracket with due colours plus the priority given (the edges that exist).
    pub fn set_priorities(&mut self, owner: usize, priorities: &[(usize, u64)]) {
        let mut listed = priorities.to_vec();
        listed.sort_unstable();
        let order = priorities.iter().map(|&(u, _)| u);
        let kind = Kind::Edge {
            same: Same::Is(true),
            colours: true,
        };
        self.set(owner, Cover::Listed(listed), kind, order);
    }

    /// The weight of the edge between positions p and q.
    pub fn weight(&self, p: usize, q: usize) -> Weight {
        self.store.by_rules(p, q)
    }

    /// Removes the player at position p (paired) and its edges.
    pub fn remove(&mut self, p: usize) {
        let v = self.store.vertex(p);
        self.matcher.remove(v);
        self.gone[v] = true;
        // (its rules, a bracket's priorities among them, are read no more)
        self.store.rules[v] = Vec::new();
    }

    /// The mate of every position (m entries) in a best matching of the whole field's graph.
    pub fn solve_field(&mut self) -> Vec<Option<usize>> {
        debug_assert!(self.store.position.is_empty(), "the whole field");
        self.matcher.solve(&self.store)
    }

    /// The mates by position (m + 1 entries, the stand-in last); `Err(NotPlain)` when a
    /// bracket alone leaves an unpaired player (or the stand-in) without a mate.
    pub fn solve(&mut self, m: usize) -> Result<Vec<Option<usize>>, Stuck> {
        if self.store.position.is_empty() {
            let mut mate = self.solve_field();
            mate.push(None);
            return Ok(mate);
        }
        let local = self.matcher.solve(&self.store);
        let mut mate = vec![None; m + 1];
        for (v, w) in local.iter().enumerate() {
            match w {
                Some(w) => mate[self.store.position[v]] = Some(self.store.position[*w]),
                None if !self.gone[v] => return Err(Stuck::NotPlain),
                None => {}
            }
        }
        Ok(mate)
    }
}
