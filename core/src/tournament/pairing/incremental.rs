//! A maximum-weight matching kept up to date while edge weights change. The bracket procedure
//! (module `dutch`) fixes its ordering decisions one at a time, each by changing the weights of
//! a few edges and asking for the best matching again; solving from scratch costs n/2 stages
//! of O(n²) each time, while the previous optimum is nearly always a few augmentations away.
//!
//! The primal-dual blossom algorithm of module `matching` (the same labels, blossoms and dual
//! updates; vertex duals stored doubled), with three changes that let it start from any state
//! that is dual feasible and complementary slack except that free vertices may have positive
//! duals:
//! * a stage grows a single alternating tree, from a free vertex with a positive dual;
//! * a tight edge from the tree to any other free vertex augments, and when the dual of an S
//!   vertex reaches zero the tree's path to it is alternated instead, which leaves that vertex
//!   free with a zero dual (optimal, as the LP for matchings that need not be perfect allows);
//! * after weights change, [`Matcher::solve`] first repairs the state: blossoms that
//!   contain a changed vertex are dissolved (their dual moved onto their vertices, which keeps
//!   every edge feasible), each changed vertex gets the smallest dual that keeps its edges
//!   feasible, and matched edges that are no longer tight are given up.
//!
//! Only the vertices set free start trees, so a few changed weights cost a few stages.
//!
//! The matcher stores no edges: a bracket's graph is complete but for the pairs that may not
//! meet, and its weights are a function of the two players and the bracket's state, so the
//! caller gives them as [`Weights`] at each solve and tells which edges changed. Its
//! memory is O(n) words of `N` limbs (about 300 + 32·N bytes a vertex, plus the blossoms'
//! least-slack lists of a stage) and a cache of rows of weights of at most `CACHE_BYTES`;
//! [`Matrix`] keeps the weights for the callers that set them one by one.

mod blossoms;
mod matrix;
#[cfg(test)]
mod tests;

use super::wide::Wide;

#[cfg(test)]
pub use matrix::MATRIX_LIMIT;
pub use matrix::{matrix_fits, EdgeBits, Matrix};

const NONE: usize = usize::MAX;
/// Bytes of rows of weights kept for the scans (see `Matcher::cache`), at most.
const CACHE_BYTES: usize = 32 << 20;
const NO_SLOT: u32 = u32::MAX;
const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;
/// Marks a blossom visited by `scan_blossom`.
const SEEN: u8 = 4;

/// An arc packs its ends: `near << ARC_SHIFT | far`.
const ARC_SHIFT: u32 = usize::BITS / 2;
const ARC_MASK: usize = (1 << ARC_SHIFT) - 1;

/// The edge weights of a graph, read by [`Matcher::solve`]: `weight(i, j)` (symmetric, `i != j`;
/// not positive: no edge). It is called in the search's inner loop, so it should be cheap.
pub trait Weights<const N: usize> {
    fn weight(&self, i: usize, j: usize) -> Wide<N>;

    /// Bit j (of word j / 64): whether `weight(i, j)` is positive, if the weights keep such
    /// bits (a scan then skips the non-edges without computing or loading their weights).
    #[inline]
    fn edges(&self, _i: usize) -> Option<&[u64]> {
        None
    }
}

fn arc(near: usize, far: usize) -> usize {
    near << ARC_SHIFT | far
}

/// What stopped a change of the duals.
enum Event {
    /// The dual of this S vertex reached zero.
    Zero(usize),
    /// This arc from an S vertex became tight.
    Tight(usize),
    /// The dual of this T blossom reached zero.
    Expand(usize),
}

/// A maximum-weight matching of a graph with a fixed number of vertices whose edge weights
/// change between calls of [`Matcher::solve`] (the caller notes each changed edge with
/// [`Matcher::changed_edge`]); vertices can be removed.
///
/// Edges are directed internally as arcs (`near`, `far`) packed in one word; the matching, the
/// labels and the blossom cycles store arcs whose `near` end lies on the side that owns the
/// entry.
pub struct Matcher<const N: usize> {
    n: usize,
    active: Vec<bool>,
    /// Vertices with a changed edge (or removed) since the last solve.
    changed: Vec<usize>,
    is_changed: Vec<bool>,
    /// Nothing solved yet: start from duals of half the heaviest edge instead of repairing.
    fresh: bool,
    /// Per vertex: the arc to its mate, or NONE.
    mate: Vec<usize>,
    /// Top-level blossom of each vertex; blossoms are numbered n..2n.
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    /// The sub-blossoms of a blossom around its cycle, from the one with the base.
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    /// `blossomendps[b][i]`: the arc between child i (its far end) and child i + 1 (near end).
    blossomendps: Vec<Vec<usize>>,
    unusedblossoms: Vec<usize>,
    /// Doubled duals of vertices (slack of {i, j}: `dual[i] + dual[j] - twice[i, j]`), duals of
    /// blossoms.
    dualvar: Vec<Wide<N>>,
    // The state of a stage.
    label: Vec<u8>,
    /// The arc through which a vertex or blossom got its label (far end: the labelling one).
    labelend: Vec<usize>,
    /// Per unlabelled vertex: its least-slack arc to an S vertex; per S blossom: its
    /// least-slack arc to another S blossom.
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    /// The slack of `bestedge[x]` as last computed: the arc, the value, and the `epoch` of the
    /// duals it was computed with. Vertex duals change only between epochs, so a matching
    /// arc and epoch give the slack without loading the arc's weight (a cache miss each time).
    best_arc: Vec<usize>,
    best_slack: Vec<Wide<N>>,
    best_epoch: Vec<u32>,
    epoch: u32,
    /// Per vertex: the far ends of its edges found tight in this stage (both ends list an
    /// edge). The vertices with any are listed in `allowed_set` and cleared when the next stage
    /// starts: a stage allows few edges, O(n) (each labels a vertex, makes a blossom or
    /// augments), so these lists stay short.
    allowed: Vec<Vec<u32>>,
    allowed_set: Vec<usize>,
    allowed_mark: Vec<bool>,
    queue: Vec<usize>,
    /// The doubled weights of the edges of some vertices (zero: no edge), row after row, at
    /// most `CACHE_BYTES` (all rows when they fit): a scan reads its vertex's row like a
    /// matrix row instead of computing n weights, and the same vertices are scanned again and
    /// again across the solves of a bracket. A solve first brings the rows up to date: the
    /// changed edges (`pending`) are computed again, or, when too many changed
    /// (`pending_overflow`), the changed vertices' columns, their own rows dropped.
    cache: Vec<Wide<N>>,
    rows_max: usize,
    pending: Vec<(u32, u32)>,
    pending_overflow: bool,
    /// Per vertex: its row's slot, or `NO_SLOT`; per slot: its vertex (NONE: free) and
    /// whether it was read since the clock hand last passed (the hand, `next_slot`, replaces
    /// the first slot not read: the rows in use stay).
    slot_of: Vec<u32>,
    owner: Vec<usize>,
    used: Vec<bool>,
    next_slot: usize,
}

impl<const N: usize> Matcher<N> {
    /// A graph of `n` vertices (nothing solved yet: the first solve reads all the weights).
    pub fn new(n: usize) -> Self {
        let row = n.max(1) * std::mem::size_of::<Wide<N>>();
        Self::with_cache(n, (CACHE_BYTES / row).clamp(1, n.max(1)))
    }

    /// The same with a cache of `rows` rows (zero: none, for weights that are a load already).
    pub fn with_cache(n: usize, rows: usize) -> Self {
        assert!(n <= ARC_MASK, "too many vertices for an arc");
        Matcher {
            n,
            active: vec![true; n],
            changed: Vec::new(),
            is_changed: vec![false; n],
            fresh: true,
            mate: vec![NONE; n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar: vec![Wide::ZERO; 2 * n],
            label: vec![FREE; 2 * n],
            labelend: vec![NONE; 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            best_arc: vec![NONE; 2 * n],
            best_slack: vec![Wide::ZERO; 2 * n],
            best_epoch: vec![0; 2 * n],
            epoch: 1,
            allowed: vec![Vec::new(); n],
            allowed_mark: vec![false; n],
            allowed_set: Vec::new(),
            queue: Vec::new(),
            cache: Vec::new(),
            rows_max: rows,
            pending: Vec::new(),
            pending_overflow: false,
            slot_of: vec![NO_SLOT; n],
            owner: Vec::new(),
            used: Vec::new(),
            next_slot: 0,
        }
    }

    /// Notes that the weight of edge {i, j} changed since the last solve (marks i as
    /// [`Matcher::changed`] does).
    pub fn changed_edge(&mut self, i: usize, j: usize) {
        self.changed(i);
        if !self.pending_overflow {
            if self.pending.len() < self.n {
                self.pending.push((i as u32, j as u32));
            } else {
                self.pending_overflow = true;
                self.pending = Vec::new();
            }
        }
    }

    /// Removes vertex v and its edges from the graph.
    pub fn remove(&mut self, v: usize) {
        if self.active[v] {
            self.active[v] = false;
            self.changed(v);
        }
    }

    /// Notes that edges of v changed weight since the last solve (one end of each changed edge
    /// is enough: repairing a vertex settles all its edges). The order of the calls is the
    /// order of the repairs, which can decide between equally good matchings.
    fn changed(&mut self, v: usize) {
        if !self.is_changed[v] {
            self.is_changed[v] = true;
            self.changed.push(v);
        }
    }

    /// The mate of every vertex in a maximum-weight matching of the graph `w`.
    pub fn solve<W: Weights<N>>(&mut self, w: &W) -> Vec<Option<usize>> {
        crate::interrupt::check();
        if self.fresh {
            self.fresh = false;
            self.start_afresh(w);
        } else {
            self.repair(w);
        }
        // (weights and duals changed since the last stage)
        self.new_epoch();
        while let Some(root) = (0..self.n).find(|&v| self.is_root(v)) {
            // a stage is O(n²) at worst: the host may cancel between stages
            crate::interrupt::check();
            self.grow(w, root);
        }
        self.mate
            .iter()
            .map(|&a| (a != NONE).then(|| self.far(a)))
            .collect()
    }

    fn near(&self, a: usize) -> usize {
        a >> ARC_SHIFT
    }

    fn far(&self, a: usize) -> usize {
        a & ARC_MASK
    }

    fn reverse(&self, a: usize) -> usize {
        arc(self.far(a), self.near(a))
    }

    /// Notes that the edge of arc a is tight in this stage.
    fn allow(&mut self, a: usize) {
        let (i, j) = (self.near(a), self.far(a));
        for (x, y) in [(i, j), (j, i)] {
            if !self.allowed[x].contains(&(y as u32)) {
                if self.allowed[x].is_empty() {
                    self.allowed_set.push(x);
                }
                self.allowed[x].push(y as u32);
            }
        }
    }

    /// `row`, unless the matcher keeps no rows (`rows_max` zero).
    fn row_if_cached<W: Weights<N>>(&mut self, wt: &W, v: usize) -> Option<usize> {
        (self.rows_max > 0).then(|| self.row(wt, v))
    }

    /// Where v's row of doubled weights starts in `cache`, computing it if it is not there.
    fn row<W: Weights<N>>(&mut self, wt: &W, v: usize) -> usize {
        let n = self.n;
        if self.slot_of[v] != NO_SLOT {
            let slot = self.slot_of[v] as usize;
            self.used[slot] = true;
            return slot * n;
        }
        let slot = if self.owner.len() < self.rows_max {
            self.owner.push(v);
            self.used.push(true);
            self.cache.resize(self.owner.len() * n, Wide::ZERO);
            self.owner.len() - 1
        } else {
            let mut slot = self.next_slot;
            while self.used[slot] && self.owner[slot] != NONE {
                self.used[slot] = false;
                slot = (slot + 1) % self.owner.len();
            }
            self.next_slot = (slot + 1) % self.owner.len();
            self.used[slot] = true;
            if self.owner[slot] != NONE {
                self.slot_of[self.owner[slot]] = NO_SLOT;
            }
            self.owner[slot] = v;
            slot
        };
        self.slot_of[v] = slot as u32;
        let start = slot * n;
        match wt.edges(v) {
            // (weights that keep bits of their edges: only those are read)
            Some(edges) => {
                self.cache[start..start + n].fill(Wide::ZERO);
                for (k, &word) in edges.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let x = k * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        self.cache[start + x] = self.edge_twice(wt, v, x).unwrap_or(Wide::ZERO);
                    }
                }
            }
            None => {
                for x in 0..n {
                    self.cache[start + x] = self.edge_twice(wt, v, x).unwrap_or(Wide::ZERO);
                }
            }
        }
        start
    }

    /// Where v's row starts in `cache` if it is there.
    pub(super) fn cached_row(&self, v: usize) -> Option<usize> {
        let slot = self.slot_of[v];
        (slot != NO_SLOT).then(|| slot as usize * self.n)
    }

    /// Brings the cached rows up to date with the changed edges, or all the edges of the
    /// `changed` vertices when too many changed. (A removed vertex's entries need not change:
    /// every reader skips inactive vertices.)
    fn refresh_rows<W: Weights<N>>(&mut self, wt: &W, changed: &[usize]) {
        let overflow = std::mem::take(&mut self.pending_overflow);
        let pending = std::mem::take(&mut self.pending);
        if self.owner.is_empty() {
            return;
        }
        let n = self.n;
        if !overflow {
            for (i, j) in pending {
                let (i, j) = (i as usize, j as usize);
                for (v, x) in [(i, j), (j, i)] {
                    let slot = self.slot_of[v];
                    if slot != NO_SLOT {
                        self.cache[slot as usize * n + x] =
                            self.edge_twice(wt, v, x).unwrap_or(Wide::ZERO);
                    }
                }
            }
            return;
        }
        for &x in changed {
            let slot = self.slot_of[x];
            if slot != NO_SLOT {
                self.owner[slot as usize] = NONE;
                self.slot_of[x] = NO_SLOT;
            }
        }
        for (k, &x) in changed.iter().enumerate() {
            if k % 64 == 0 {
                crate::interrupt::check();
            }
            for slot in 0..self.owner.len() {
                let v = self.owner[slot];
                if v != NONE {
                    self.cache[slot * n + x] = self.edge_twice(wt, v, x).unwrap_or(Wide::ZERO);
                }
            }
        }
    }

    /// Twice the weight of {i, j} (vertex duals are doubled).
    #[inline]
    fn twice<W: Weights<N>>(w: &W, i: usize, j: usize) -> Wide<N> {
        let x = w.weight(i, j);
        x.add(x)
    }

    /// The vertex duals or the weights changed: cached slacks are stale.
    fn new_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.best_epoch.fill(0);
            self.epoch = 1;
        }
    }

    /// The slack of `bestedge[x]` (not NONE).
    #[inline]
    fn best_slack<W: Weights<N>>(&mut self, w: &W, x: usize) -> Wide<N> {
        let a = self.bestedge[x];
        if self.best_arc[x] == a && self.best_epoch[x] == self.epoch {
            return self.best_slack[x];
        }
        let s = self.slack(w, a);
        self.best_arc[x] = a;
        self.best_slack[x] = s;
        self.best_epoch[x] = self.epoch;
        s
    }

    /// Sets `bestedge[x]` to arc a of slack s (computed with the current duals).
    #[inline]
    fn set_best(&mut self, x: usize, a: usize, s: Wide<N>) {
        self.bestedge[x] = a;
        self.best_arc[x] = a;
        self.best_slack[x] = s;
        self.best_epoch[x] = self.epoch;
    }

    #[inline]
    fn slack<W: Weights<N>>(&self, w: &W, a: usize) -> Wide<N> {
        let (i, j) = (self.near(a), self.far(a));
        self.dualvar[i]
            .add(self.dualvar[j])
            .sub(Self::twice(w, i, j))
    }

    /// Twice the weight of {v, x} if it is an edge of the active graph (v active).
    #[inline]
    fn edge_twice<W: Weights<N>>(&self, w: &W, v: usize, x: usize) -> Option<Wide<N>> {
        if v == x || !self.active[x] {
            return None;
        }
        let t = Self::twice(w, v, x);
        (t > Wide::ZERO).then_some(t)
    }

    fn is_root(&self, v: usize) -> bool {
        self.active[v] && self.mate[v] == NONE && self.dualvar[v] > Wide::ZERO
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.blossomchilds[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    /// The first solve: every vertex starts free with half its heaviest edge as its (real) dual,
    /// which is feasible, and pairs whose edge is then tight (the heaviest of both) are matched
    /// at once.
    fn start_afresh<W: Weights<N>>(&mut self, wt: &W) {
        let n = self.n;
        for x in std::mem::take(&mut self.changed) {
            self.is_changed[x] = false;
        }
        self.pending = Vec::new();
        self.pending_overflow = false;
        for v in 0..n {
            crate::interrupt::check();
            let heaviest = (0..n)
                .filter(|_| self.active[v])
                .filter_map(|w| self.edge_twice(wt, v, w))
                .max()
                .unwrap_or(Wide::ZERO);
            self.dualvar[v] = heaviest.half();
        }
        for v in (0..n).filter(|&v| self.active[v]) {
            if self.mate[v] != NONE {
                continue;
            }
            crate::interrupt::check();
            let partner = (v + 1..n).find(|&w| {
                self.mate[w] == NONE
                    && self.edge_twice(wt, v, w).is_some()
                    && self.slack(wt, arc(v, w)).is_zero()
            });
            if let Some(w) = partner {
                self.mate[v] = arc(v, w);
                self.mate[w] = arc(w, v);
            }
        }
    }

    /// Makes the state valid for the changed weights (see the module comment).
    fn repair<W: Weights<N>>(&mut self, w: &W) {
        let changed = std::mem::take(&mut self.changed);
        self.refresh_rows(w, &changed);
        for &x in &changed {
            self.is_changed[x] = false;
            while self.inblossom[x] != x {
                self.dissolve(self.inblossom[x]);
            }
        }
        for &x in &changed {
            // (each is O(n), and a bracket's rules may change every vertex at once)
            crate::interrupt::check();
            if self.active[x] {
                self.settle_dual(w, x);
            } else {
                if self.mate[x] != NONE {
                    self.unmatch(x);
                }
                self.dualvar[x] = Wide::ZERO;
            }
        }
    }

    /// Removes top-level blossom b, adding its dual to its vertices' (edges inside b keep
    /// their slack, edges leaving it gain); its base's matched edge, no longer tight, is given
    /// up.
    fn dissolve(&mut self, b: usize) {
        let z = self.dualvar[b];
        if !z.is_zero() {
            for leaf in self.leaves_of(b) {
                self.dualvar[leaf] = self.dualvar[leaf].add(z);
            }
            let base = self.blossombase[b];
            if self.mate[base] != NONE {
                self.unmatch(base);
            }
            self.dualvar[b] = Wide::ZERO;
        }
        for child in std::mem::take(&mut self.blossomchilds[b]) {
            self.blossomparent[child] = NONE;
            for leaf in self.leaves_of(child) {
                self.inblossom[leaf] = child;
            }
        }
        self.release(b);
    }

    fn release(&mut self, b: usize) {
        self.label[b] = FREE;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn unmatch(&mut self, v: usize) {
        let w = self.far(self.mate[v]);
        self.mate[v] = NONE;
        self.mate[w] = NONE;
    }

    /// Gives x (in no blossom) the smallest dual that keeps its edges feasible, and keeps its
    /// matched edge if that dual can make it tight.
    fn settle_dual<W: Weights<N>>(&mut self, wt: &W, x: usize) {
        let n = self.n;
        let y = if self.mate[x] == NONE {
            NONE
        } else {
            self.far(self.mate[x])
        };
        let mut low = Wide::ZERO;
        let row = self.row_if_cached(wt, x);
        for w in 0..n {
            let t = match row {
                Some(r) => self.cache[r + w],
                None => Self::twice(wt, x, w),
            };
            if w != y && t > Wide::ZERO && self.active[w] {
                low = low.max(t.sub(self.dualvar[w]));
            }
        }
        if y != NONE {
            let tight = Self::twice(wt, x, y).sub(self.dualvar[y]);
            if self.edge_twice(wt, x, y).is_some() {
                if tight >= low {
                    self.dualvar[x] = tight;
                    return;
                }
                low = low.max(tight);
            }
            self.unmatch(x);
        }
        self.dualvar[x] = low;
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == S {
            let l = self.leaves_of(b);
            self.queue.extend(l);
        } else if t == T {
            let mb = self.mate[self.blossombase[b]];
            self.assign_label(self.far(mb), S, self.reverse(mb));
        }
    }

    /// One stage: grows the alternating tree of `root` until it augments or a vertex of it is
    /// left free with a zero dual.
    fn grow<W: Weights<N>>(&mut self, w: &W, root: usize) {
        let n = self.n;
        for v in std::mem::take(&mut self.allowed_set) {
            self.allowed[v].clear();
        }
        self.label.fill(FREE);
        self.labelend.fill(NONE);
        self.bestedge.fill(NONE);
        for b in n..2 * n {
            self.blossombestedges[b] = None;
        }
        self.queue.clear();
        self.assign_label(root, S, NONE);
        'stage: loop {
            while let Some(v) = self.queue.pop() {
                // (a scan is O(n): the host may cancel between scans, not only between stages)
                crate::interrupt::check();
                if self.scan(w, v) {
                    break 'stage;
                }
            }
            // No tight edge leads further: change the duals.
            crate::interrupt::check();
            match self.change_duals(w) {
                Event::Zero(v) => {
                    self.expose(v);
                    break 'stage;
                }
                Event::Tight(a) => {
                    self.allow(a);
                    let (i, j) = (self.near(a), self.far(a));
                    let s = if self.label[self.inblossom[i]] == S {
                        i
                    } else {
                        j
                    };
                    self.queue.push(s);
                }
                Event::Expand(b) => self.expand_blossom(b, false),
            }
        }
        for b in n..2 * n {
            if self.blossomparent[b] == NONE
                && self.blossombase[b] != NONE
                && self.label[b] == S
                && self.dualvar[b].is_zero()
            {
                self.expand_blossom(b, true);
            }
        }
    }

    /// Changes the duals by the largest amount that keeps them feasible (the four kinds of
    /// limit of module `matching`, the first one for any S vertex), and tells what stopped it.
    fn change_duals<W: Weights<N>>(&mut self, w: &W) -> Event {
        let n = self.n;
        let mut delta = Wide::ZERO;
        let mut event = None;
        for v in 0..n {
            if self.active[v]
                && self.label[self.inblossom[v]] == S
                && (event.is_none() || self.dualvar[v] < delta)
            {
                delta = self.dualvar[v];
                event = Some(Event::Zero(v));
            }
        }
        for v in 0..n {
            if self.label[self.inblossom[v]] == FREE && self.bestedge[v] != NONE {
                let d = self.best_slack(w, v);
                if d < delta {
                    delta = d;
                    event = Some(Event::Tight(self.bestedge[v]));
                }
            }
        }
        for b in 0..2 * n {
            if self.blossomparent[b] == NONE && self.label[b] == S && self.bestedge[b] != NONE {
                let d = self.best_slack(w, b).half();
                if d < delta {
                    delta = d;
                    event = Some(Event::Tight(self.bestedge[b]));
                }
            }
        }
        for b in n..2 * n {
            if self.blossombase[b] != NONE
                && self.blossomparent[b] == NONE
                && self.label[b] == T
                && self.dualvar[b] < delta
            {
                delta = self.dualvar[b];
                event = Some(Event::Expand(b));
            }
        }
        for v in 0..n {
            match self.label[self.inblossom[v]] {
                S => self.dualvar[v] = self.dualvar[v].sub(delta),
                T => self.dualvar[v] = self.dualvar[v].add(delta),
                _ => {}
            }
        }
        for b in n..2 * n {
            if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                match self.label[b] {
                    S => self.dualvar[b] = self.dualvar[b].add(delta),
                    T => self.dualvar[b] = self.dualvar[b].sub(delta),
                    _ => {}
                }
            }
        }
        self.new_epoch();
        event.expect("the tree has an S vertex")
    }

    /// Scans the edges of S vertex v; true when it augmented the matching. (v's allowed edges
    /// are marked in `allowed_mark` for the scan: a list may be long, and a lookup in it for
    /// each edge would cost its length; edges allowed during the scan are its current one's.)
    fn scan<W: Weights<N>>(&mut self, wt: &W, v: usize) -> bool {
        for k in 0..self.allowed[v].len() {
            self.allowed_mark[self.allowed[v][k] as usize] = true;
        }
        let augmented = self.scan_marked(wt, v);
        // (the list may have grown: those entries were never marked)
        for k in 0..self.allowed[v].len() {
            self.allowed_mark[self.allowed[v][k] as usize] = false;
        }
        augmented
    }

    fn scan_marked<W: Weights<N>>(&mut self, wt: &W, v: usize) -> bool {
        let n = self.n;
        let row = self.row_if_cached(wt, v);
        let edges = wt.edges(v);
        // (scanning changes no vertex dual)
        let dual_v = self.dualvar[v];
        for w in 0..n {
            if edges.is_some_and(|e| e[w / 64] >> (w % 64) & 1 == 0) {
                continue;
            }
            if w == v || !self.active[w] {
                continue;
            }
            let bw = self.inblossom[w];
            if self.inblossom[v] == bw {
                continue;
            }
            let allowed = self.allowed_mark[w];
            if !allowed && self.label[bw] == T && self.label[w] != FREE {
                // Whether tight or not, nothing follows from an edge to a labelled vertex of a
                // T blossom: not even its allowed bit, which a later scan of v sets as well
                // (the slack of an edge from an S vertex never grows within a stage).
                continue;
            }
            let twice = match row {
                Some(r) => self.cache[r + w],
                None => Self::twice(wt, v, w),
            };
            if twice <= Wide::ZERO {
                continue;
            }
            let a = arc(v, w);
            let mut kslack = Wide::ZERO;
            let mut tight = allowed;
            if !allowed {
                kslack = dual_v.add(self.dualvar[w]).sub(twice);
                if kslack <= Wide::ZERO {
                    self.allow(a);
                    tight = true;
                }
            }
            if tight {
                if self.label[bw] == FREE {
                    if self.mate[self.blossombase[bw]] == NONE {
                        // another free vertex: an augmenting path
                        self.augment(a);
                        return true;
                    }
                    self.assign_label(w, T, self.reverse(a));
                } else if self.label[bw] == S {
                    // (one tree: the two S vertices have a common ancestor)
                    let base = self.scan_blossom(v, w);
                    self.add_blossom(wt, base, a);
                } else if self.label[w] == FREE {
                    self.label[w] = T;
                    self.labelend[w] = self.reverse(a);
                }
            } else if self.label[bw] == S {
                let b = self.inblossom[v];
                if self.bestedge[b] == NONE || kslack < self.best_slack(wt, b) {
                    self.set_best(b, a, kslack);
                }
            } else if self.label[w] == FREE
                && (self.bestedge[w] == NONE || kslack < self.best_slack(wt, w))
            {
                self.set_best(w, a, kslack);
            }
        }
        false
    }
}
