//! The graphs the Burstein procedure matches: the whole field's, or one bracket's with a stand-in
//! vertex for the players below it. The procedure sets weights a vertex's edges at a time (the
//! edges of a player to a range of others, to its bracket, or to its possible opponents with a
//! priority each), so a graph keeps those settings as rules, O(1) a vertex but the priorities
//! (the players of one bracket, dropped when the player is paired): an edge's weight is what the
//! latest rule that covers it makes of the two players. The weights are also kept in a
//! [`Matrix`] while one fits ([`matrix_fits`]): reading one is then a load instead of a search of
//! the two players' rules, and memory is linear in the players plus at most that matrix.
//!
//! A rule changes the weights of many edges at once; the matcher is told of each edge that
//! changed, in the order the procedure lists them, which is the order of its repairs (it can
//! decide between equally good matchings): with or without the matrix, the same edges in the
//! same order.

use std::ops::Range;

use super::{weight, Field, Stuck, Weight};
use crate::tournament::pairing::incremental::{matrix_fits, Matcher, Matrix, Weights};

const NONE: usize = usize::MAX;

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
    matrix: Option<Matrix<2>>,
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
        let mut latest: Option<(u64, Weight)> = None;
        for (owner, other) in [(p, q), (q, p)] {
            let v = self.vertex(owner);
            if v == NONE {
                continue;
            }
            for rule in &self.rules[v] {
                if latest.is_some_and(|(t, _)| t > rule.time) {
                    continue;
                }
                if let Some(priority) = rule.cover.find(other) {
                    latest = Some((rule.time, self.apply(rule, owner, other, priority)));
                }
            }
        }
        latest.map_or(Weight::ZERO, |(_, w)| w)
    }
}

impl Weights<2> for Store<'_, '_> {
    #[inline]
    fn weight(&self, i: usize, j: usize) -> Weight {
        match &self.matrix {
            Some(m) => m.get(i, j),
            None => self.by_rules(self.position(i), self.position(j)),
        }
    }

    #[inline]
    fn edges(&self, i: usize) -> Option<&[u64]> {
        self.matrix.as_ref().and_then(|m| m.edges(i))
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
        let matrix = matrix_fits::<2>(n).then(|| Matrix::new(n));
        // (a matrix is a load already: no rows cached)
        let matcher = match matrix {
            Some(_) => Matcher::with_cache(n, 0),
            None => Matcher::new(n),
        };
        Graph {
            store: Store {
                field,
                position,
                vertex,
                rules: (0..n).map(|_| Vec::new()).collect(),
                clock: 0,
                matrix,
            },
            matcher,
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
        let stand_in = Kind::Fixed(weight(false, false, 0));
        for &f in floaters {
            g.set(
                f,
                Cover::Range {
                    range: m..m + 1,
                    extra: None,
                },
                stand_in,
                [m],
            );
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
        let before: Vec<Weight> = order
            .clone()
            .into_iter()
            .map(|u| match &store.matrix {
                Some(m) => m.get(store.vertex(owner), store.vertex(u)),
                None => store.by_rules(owner, u),
            })
            .collect();
        store.clock += 1;
        let rule = Rule {
            time: store.clock,
            cover,
            kind,
        };
        let v = store.vertex(owner);
        for (u, old) in order.into_iter().zip(before) {
            let priority = rule.cover.find(u);
            debug_assert!(priority.is_some(), "a player listed but not covered");
            let new = store.apply(&rule, owner, u, priority.unwrap_or(0));
            if new != old {
                let x = store.vertex(u);
                debug_assert!(!self.gone[x], "an edge of a paired player set");
                if let Some(m) = &mut store.matrix {
                    m.set(v, x, new);
                }
                self.matcher.changed_edge(v, x);
            }
        }
        store.rules[v].push(rule);
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
        let s = &self.store;
        s.weight(s.vertex(p), s.vertex(q))
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
        let mate = self.matcher.solve(&self.store);
        #[cfg(test)]
        self.check_matrix();
        mate
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
        #[cfg(test)]
        self.check_matrix();
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

    /// The matrix holds what the rules make of every edge between players still to pair (the
    /// small graphs of the tests).
    #[cfg(test)]
    fn check_matrix(&self) {
        let s = &self.store;
        let Some(matrix) = &s.matrix else { return };
        let n = self.gone.len();
        if n > 80 {
            return;
        }
        for i in (0..n).filter(|&i| !self.gone[i]) {
            for j in (0..n).filter(|&j| j != i && !self.gone[j]) {
                assert_eq!(
                    matrix.get(i, j),
                    s.by_rules(s.position(i), s.position(j)),
                    "edge {i}-{j}"
                );
            }
        }
    }
}
