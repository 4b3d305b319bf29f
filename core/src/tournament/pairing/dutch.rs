//! The bracket-by-bracket procedure of the Dutch system (C.04.3 articles 2–4) as a sequence of
//! maximum-weight matchings over all players still to pair.
//!
//! Every edge weight packs the criteria into fields, most important first (C.04.3 4.1–4.4):
//! completion and bye eligibility (C.4, C.5, C.6 via the bye assignee's score), pairs and
//! scores paired in the current bracket (C.6, C.7), in the next bracket (C.8), the unplayed
//! games of the bye assignee (C.9), colours (C.10–C.13), floats (C.14–C.21), and low-order room
//! for the ordering rules: which MDPs are paired (2.3), their opponents (3.3 of the
//! transposition order), the fewest and smallest exchanges (4.3, 4.4), and the S1 players'
//! opponents in transposition order. Each ordering decision is fixed one at a time by adding a
//! small bonus and solving again, so the result is the first pairing in the order of the rules
//! among the best ones. The bracket keeps its matching between these solves (module
//! `incremental`): each changes the weights of few players, so it costs a few augmentations
//! instead of a matching from scratch.
//!
//! No weight is stored: a pair's weight is its base weight (a function of the two players)
//! plus the bonus of the ordering step under way, and the steps either change one player's
//! edges (kept as that player's row while the step lasts) or change all the remainder's pairs
//! by a rule of a few numbers per player ([`State`]). Memory is O(b) for a bracket of b
//! players, the matcher's included.

use std::collections::HashMap;

use super::cardinality::{has_perfect_matching, Dense};
use super::colour_bracket;
use super::criteria::{colours_compatible, Entrant};
use super::incremental::{matrix_fits, Matcher, Matrix, Weights};
use super::weights::{pair_weight, ByeInfo, Flags, Layout, PairTable};
use super::wide::Wide;

/// What the procedure needs besides the players.
pub struct Context<'a> {
    /// Players to pair, by score (descending) then pairing number.
    pub players: &'a [Entrant],
    /// Per player, the sorted indices of the players it may not meet whatever the colours: met
    /// over the board or a forbidden pair (O(rounds) a player, not a bit a pair).
    pub barred: &'a [Vec<u32>],
    /// Rounds already played before this one.
    pub played_rounds: u32,
    /// Whether this is the last round (C.04.3 3.3 lets top scorers meet with the same
    /// absolute preference).
    pub last_round: bool,
    /// Whether a bracket the rules make plain may be paired without the matching (module
    /// `colour_bracket`; the tests compare both ways).
    pub shortcuts: bool,
}

impl Context<'_> {
    pub(super) fn n(&self) -> usize {
        self.players.len()
    }

    /// Whether i and j may meet (C.04.3 article 3).
    #[inline]
    pub(super) fn compatible(&self, i: usize, j: usize) -> bool {
        i != j && self.colours_allow(i, j) && !self.barred[i].contains(&(j as u32))
    }

    /// Whether the colours let i and j meet (C.04.3 3.3): a function of the players' classes
    /// (`weights::class_key`), folded into the weight tables.
    pub(super) fn colours_allow(&self, i: usize, j: usize) -> bool {
        let (a, b) = (&self.players[i], &self.players[j]);
        colours_compatible(a, b, self.last_round, self.played_rounds)
    }
}

/// The players still to pair and the pairs made so far.
struct Round<'a> {
    ctx: &'a Context<'a>,
    bye: ByeInfo,
    /// Players not yet paired (sorted indices).
    open: Vec<bool>,
    pairs: Vec<(usize, usize)>,
}

const NONE: usize = usize::MAX;
/// What the remainder's ordering steps (`Round::pair_remainder`) have made of its pairs'
/// weights, in the order they come.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Base weights.
    Base,
    /// Fewest and smallest exchanges: a bonus by the higher player's place in the remainder.
    Exchange,
    /// The roles fixed: base weights (the pairs against them zeroed).
    Roles,
    /// A bonus for leader i and follower j, (L - i)(K - j).
    Bias,
}

/// The bracket's weights as per-player state: the weight of members i < j is
/// [`Bracket::weight_in`] of it. Every field is O(1) a member but `rows`, which holds the
/// players whose edges an ordering step set one by one (one or two at a time).
#[derive(Clone)]
struct State<const N: usize> {
    /// Per member, what every weight reads of it (one load a member in the inner loop).
    hot: Vec<Hot>,
    /// Per MDP: units added to its edges to residents (which MDPs are paired, 4.2).
    mdp_bonus: Vec<u64>,
    phase: Phase,
    /// The size of S1.
    s1: usize,
    /// Whether the roles are fixed: the remainder's pairs not of a leader with a follower
    /// are zeroed ([`LEADS`]: whether each led a pair then).
    roles_fixed: bool,
    /// Per remainder member: its index among the leaders and among the followers (Phase::Bias),
    /// and their counts.
    leader: Vec<usize>,
    follower: Vec<usize>,
    counts: (u64, u64),
    /// Weights set pair by pair, by the lower member: row `rows[i][j]` for j > i.
    rows: Vec<Option<Box<[Option<Wide<N>>]>>>,
}

/// A member's place in the weight tables and the ordering rules' marks on it.
#[derive(Clone, Copy)]
struct Hot {
    /// Its class in `Grid::table`.
    class: u32,
    /// Its index in the remainder (`u32::MAX`: not in it).
    rem: u32,
    /// Its barred list, `Grid::barred[bar_from..bar_to]`.
    bar_from: u32,
    bar_to: u32,
    /// [`EXCHANGED`], [`PROMOTED`], [`LEADS`], [`ROW`].
    marks: u8,
}

/// An exchanged S1 player: its pairs with the remainder below it are zeroed.
const EXCHANGED: u8 = 1;
/// A promoted S2 player: its pairs with the remainder above it and the next scoregroup are
/// zeroed.
const PROMOTED: u8 = 2;
/// It led a pair when the roles were fixed.
const LEADS: u8 = 4;
/// It has a row in `State::rows`.
const ROW: u8 = 8;
const NOT_IN: u32 = u32::MAX;

impl<const N: usize> State<N> {
    fn new(size: usize) -> Self {
        State {
            hot: vec![
                Hot {
                    class: 0,
                    rem: NOT_IN,
                    bar_from: 0,
                    bar_to: 0,
                    marks: 0,
                };
                size
            ],
            mdp_bonus: vec![0; size],
            phase: Phase::Base,
            s1: 0,
            roles_fixed: false,
            leader: vec![NONE; size],
            follower: vec![NONE; size],
            counts: (0, 0),
            rows: vec![None; size],
        }
    }

    fn mark(&mut self, x: usize, mark: u8, on: bool) {
        if on {
            self.hot[x].marks |= mark;
        } else {
            self.hot[x].marks &= !mark;
        }
    }

    fn clear_row(&mut self, x: usize) {
        self.rows[x] = None;
        self.mark(x, ROW, false);
    }

    fn row_mut(&mut self, x: usize, size: usize) -> &mut [Option<Wide<N>>] {
        self.mark(x, ROW, true);
        self.rows[x].get_or_insert_with(|| vec![None; size].into_boxed_slice())
    }
}

/// The bracket's players and the data their weights come from.
struct Grid<const N: usize> {
    layout: Layout,
    /// Sorted indices of the bracket's players: MDPs, residents, next scoregroup.
    members: Vec<usize>,
    mdps: usize,
    residents_end: usize,
    /// C.9 as it stood when the bracket started (its base weights keep it).
    single_downfloater: bool,
    /// The base weights by classes of alike members (zero for classes the colours keep apart).
    table: PairTable<N>,
    /// Per member, the positions of the members it may not meet whatever the colours (the
    /// context's lists, by position; `Hot::bar_from` and `bar_to` say where).
    barred: Vec<u32>,
}

/// The weights of the current bracket (players of the bracket and of the next scoregroup).
struct Bracket<const N: usize> {
    g: Grid<N>,
    st: State<N>,
    /// Position of each player in `members` (usize::MAX: not a member).
    position: Vec<usize>,
    /// The current weights, `i * size + j` and `j * size + i` for members i and j, when the
    /// bracket's matrix fits ([`matrix_fits`]): the weights of a bracket's state are
    /// then read with a load, as every ordering step changes them (`Round::set`,
    /// `Round::restate`), instead of being computed again in each of the matcher's scans.
    matrix: Option<Matrix<N>>,
    /// The best matching of the bracket's pairs, kept between the many solves of a bracket
    /// (each changes few weights).
    matching: Matcher<N>,
    /// Answers of `Round::completable` by the players the bracket's matching leaves unpaired
    /// (the players outside the bracket do not change while it is paired).
    completable: HashMap<Vec<usize>, bool>,
    /// The graph of all open players once `Round::solve_all` needs it, the bracket's state
    /// its weights were last brought up to, and the completion weights by classes.
    whole: Option<(Matcher<N>, State<N>, PairTable<N>)>,
}

/// The weights of a bracket's pairs, by member positions.
struct View<'a, const N: usize> {
    ctx: &'a Context<'a>,
    bye: &'a ByeInfo,
    g: &'a Grid<N>,
    st: &'a State<N>,
    matrix: Option<&'a Matrix<N>>,
}

impl<const N: usize> Weights<N> for View<'_, N> {
    #[inline]
    fn weight(&self, i: usize, j: usize) -> Wide<N> {
        match self.matrix {
            Some(m) => m.get(i, j),
            None => self.g.weight_in(self.ctx, self.bye, self.st, i, j),
        }
    }

    #[inline]
    fn edges(&self, i: usize) -> Option<&[u64]> {
        self.matrix.and_then(|m| m.edges(i))
    }
}

/// The weights of all players' pairs (`Round::solve_all`): the bracket's and completion.
struct WholeView<'a, const N: usize> {
    bracket: View<'a, N>,
    position: &'a [usize],
    shift: u32,
    table: &'a PairTable<N>,
}

impl<const N: usize> Weights<N> for WholeView<'_, N> {
    fn weight(&self, i: usize, j: usize) -> Wide<N> {
        let b = &self.bracket;
        let (i, j) = (i.min(j), i.max(j));
        let (pi, pj) = (self.position[i], self.position[j]);
        if pi != NONE && pj != NONE {
            let w = b.weight(pi, pj);
            return if w > Wide::ZERO {
                w.add(Wide::from_u64(top(b.ctx, b.bye, i, j)).shl(self.shift))
            } else {
                Wide::ZERO
            };
        }
        if i == j || b.ctx.barred[i].contains(&(j as u32)) {
            return Wide::ZERO;
        }
        self.table.get_members(i, j).unwrap_or_else(|| {
            if !b.ctx.colours_allow(i, j) {
                return Wide::ZERO;
            }
            let ps = b.ctx.players;
            let f = whole_flags(b.bye);
            pair_weight(b.ctx, &b.g.layout, b.bye, &ps[i], &ps[j], &f)
        })
    }
}

/// The flags of the pairs of the whole graph outside the bracket.
fn whole_flags(bye: &ByeInfo) -> Flags {
    Flags {
        with_top: true,
        in_current: false,
        in_next: false,
        single_downfloater: bye.start_single_downfloater,
    }
}

/// The pairs of `remainder` in the order the ordering steps set them: (x, y), x above y.
fn pairs_of(remainder: &[usize]) -> impl Iterator<Item = (usize, usize)> + '_ {
    remainder
        .iter()
        .enumerate()
        .flat_map(move |(xi, &x)| remainder[xi + 1..].iter().map(move |&y| (x, y)))
}

/// The top field of a pair: pairing everyone, the unpaired player a bye candidate.
fn top(ctx: &Context, bye: &ByeInfo, i: usize, j: usize) -> u64 {
    let ps = ctx.players;
    1 + u64::from(!bye.candidate(&ps[i])) + u64::from(!bye.candidate(&ps[j]))
}

impl<const N: usize> Grid<N> {
    /// Whether the ordering rules zeroed the base weight of members i < j.
    #[inline]
    fn zeroed(&self, st: &State<N>, j: usize, a: Hot, b: Hot) -> bool {
        let both = a.rem != NOT_IN && b.rem != NOT_IN;
        (both && (a.marks & EXCHANGED != 0 || b.marks & PROMOTED != 0))
            || (a.marks & PROMOTED != 0 && j >= self.residents_end)
            || (both && st.roles_fixed && (a.marks & LEADS == 0 || b.marks & LEADS != 0))
    }

    /// The base weight of members i and j (before the ordering rules' bonuses): the quality
    /// criteria, or zero when the ordering rules ruled the pair out.
    fn base(&self, ctx: &Context, bye: &ByeInfo, st: &State<N>, i: usize, j: usize) -> Wide<N> {
        let (i, j) = if i < j { (i, j) } else { (j, i) };
        self.base_of(ctx, bye, st, i, j, st.hot[i], st.hot[j])
    }

    /// `base` of members i < j whose `Hot` are a and b.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn base_of(
        &self,
        ctx: &Context,
        bye: &ByeInfo,
        st: &State<N>,
        i: usize,
        j: usize,
        a: Hot,
        b: Hot,
    ) -> Wide<N> {
        if self.zeroed(st, j, a, b) || self.is_barred(a, j) {
            return Wide::ZERO;
        }
        self.table.get(a.class, b.class).unwrap_or_else(|| {
            let (hi, lo) = (self.members[i], self.members[j]);
            if !ctx.colours_allow(hi, lo) {
                return Wide::ZERO;
            }
            let f = self.flags(j >= self.residents_end);
            pair_weight(
                ctx,
                &self.layout,
                bye,
                &ctx.players[hi],
                &ctx.players[lo],
                &f,
            )
        })
    }

    #[inline]
    fn is_barred(&self, a: Hot, j: usize) -> bool {
        a.bar_from != a.bar_to
            && self.barred[a.bar_from as usize..a.bar_to as usize].contains(&(j as u32))
    }

    /// The flags of a pair of members whose later one is in the next scoregroup or not.
    fn flags(&self, next: bool) -> Flags {
        Flags {
            with_top: false,
            in_current: !next,
            in_next: next,
            single_downfloater: self.single_downfloater,
        }
    }

    /// The weight of members i and j in state `st`.
    #[inline]
    fn weight_in(
        &self,
        ctx: &Context,
        bye: &ByeInfo,
        st: &State<N>,
        i: usize,
        j: usize,
    ) -> Wide<N> {
        let (i, j) = if i < j { (i, j) } else { (j, i) };
        let (hi, hj) = (st.hot[i], st.hot[j]);
        if hi.marks & ROW != 0 {
            if let Some(w) = st.rows[i].as_ref().and_then(|r| r[j]) {
                return w;
            }
        }
        let b = self.base_of(ctx, bye, st, i, j, hi, hj);
        if b.is_zero() {
            return b;
        }
        if i < self.mdps && j >= self.mdps && j < self.residents_end {
            let bonus = st.mdp_bonus[i];
            return if bonus == 0 {
                b
            } else {
                b.add(self.layout.unit(bonus))
            };
        }
        if hi.rem == NOT_IN || hj.rem == NOT_IN {
            return b;
        }
        match st.phase {
            Phase::Base | Phase::Roles => b,
            Phase::Exchange => b.add(self.exchange_addend(st, hi.rem as usize)),
            Phase::Bias => {
                let (li, fj) = (st.leader[i], st.follower[j]);
                if li == NONE || fj == NONE {
                    return b;
                }
                let (l, k) = st.counts;
                b.add(Wide::from_u64((l - li as u64) * (k - fj as u64)))
            }
        }
    }

    /// Fewest exchanges: a pair led by an S1 player weighs more; smallest exchanges: the lower
    /// the leading player (remainder index xi), the less.
    fn exchange_addend(&self, st: &State<N>, xi: usize) -> Wide<N> {
        Wide::<N>::from_u64(u64::from(xi < st.s1))
            .shl(2 * self.layout.count)
            .sub(Wide::from_u64(xi as u64))
            .shl(1 + self.layout.bias)
    }
}

impl<const N: usize> Bracket<N> {
    fn view<'a>(&'a self, ctx: &'a Context<'a>, bye: &'a ByeInfo) -> View<'a, N> {
        View {
            ctx,
            bye,
            g: &self.g,
            st: &self.st,
            matrix: self.matrix.as_ref(),
        }
    }
    /// The bracket position of member k's partner in `m`.
    fn pair_of(&self, m: &[Option<usize>], k: usize) -> Option<usize> {
        m[self.g.members[k]]
            .map(|o| self.position[o])
            .filter(|&o| o != usize::MAX)
    }
    /// Whether member k is the higher player of a pair inside the bracket.
    fn leads_pair(&self, m: &[Option<usize>], k: usize) -> bool {
        self.pair_of(m, k)
            .is_some_and(|o| o > k && o < self.g.residents_end)
    }
    fn paired_to_resident(&self, m: &[Option<usize>], k: usize) -> bool {
        self.pair_of(m, k)
            .is_some_and(|o| o >= self.g.mdps && o < self.g.residents_end)
    }
}

/// A bracket to pair: its layout, members, MDP count, residents' end, next scoregroup's score.
type BracketArgs = (Layout, Vec<usize>, usize, usize, Option<i32>);

/// The result of the procedure: pairs and the bye, as sorted indices.
pub struct Paired {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// Why no pairing exists.
pub struct NoPairing;

/// Pairs `ctx.players` by the Dutch system.
pub fn pair(ctx: &Context) -> Result<Paired, NoPairing> {
    let n = ctx.n();
    let mut round = Round {
        ctx,
        bye: ByeInfo {
            score: None,
            single_downfloater: false,
            start_single_downfloater: false,
            unplayed_rank: HashMap::new(),
        },
        open: vec![true; n],
        pairs: Vec::new(),
    };
    round.settle_bye()?;
    let groups = score_groups(ctx.players);
    let mut g = 1;
    let mut members: Vec<usize> = groups.first().cloned().unwrap_or_default();
    let mut mdps = 0;
    while members.len() > 1 || g < groups.len() {
        if ctx.shortcuts
            && g < groups.len()
            && round.bye.score.is_none()
            && round.closed(&members, &groups[g])
        {
            // A bracket that can pair within itself (but for one player when odd) while the
            // players below pair among themselves (with any one of its players): every pairing
            // best by C.6 (the most pairs in the bracket) pairs it within itself and leaves the
            // next scoregroup whole (with any one downfloater, who can meet one of it while the
            // rest of it pairs among itself), so C.4 and C.8 (the next bracket's pairs and scores)
            // are the same for all of them and the next scoregroup adds nothing but size to the
            // bracket's graph: it is left out (see `closed`). MDPs change none of this: C.7
            // decides within the bracket which of its players floats down.
            let end = members.len();
            let (carried, _) = round.pair_bracket(members, mdps, end, None);
            // The players left over float down as MDPs. One alone would pair nobody in a
            // bracket of MDPs of its own: the next scoregroup joins at once.
            mdps = carried.len();
            members = carried;
            if mdps <= 1 {
                members.extend(groups[g].iter().copied());
                g += 1;
            }
            continue;
        }
        let residents_end = members.len();
        let mut next_score = None;
        if let Some(next) = groups.get(g) {
            next_score = Some(ctx.players[next[0]].score);
            members.extend(next.iter().copied());
            g += 1;
        }
        let before = members.len();
        let (carried, carried_mdps) = round.pair_bracket(members, mdps, residents_end, next_score);
        if next_score.is_none() && carried.len() == before {
            break; // nothing more can be paired
        }
        members = carried;
        mdps = carried_mdps;
    }
    let open: Vec<usize> = (0..n).filter(|&i| round.open[i]).collect();
    match open.as_slice() {
        [] => Ok(Paired {
            pairs: round.pairs,
            bye: None,
        }),
        [one] if ctx.players[*one].bye_eligible => Ok(Paired {
            pairs: round.pairs,
            bye: Some(*one),
        }),
        _ => Err(NoPairing),
    }
}

/// The players grouped by score (sorted indices).
fn score_groups(players: &[Entrant]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if players[g[0]].score == p.score => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    groups
}

impl Round<'_> {
    /// The base weight of members i and j of the bracket (before the ordering rules' bonuses).
    fn base<const N: usize>(&self, br: &Bracket<N>, i: usize, j: usize) -> Wide<N> {
        br.g.base(self.ctx, &self.bye, &br.st, i, j)
    }

    /// The current weight of members i and j.
    fn weight<const N: usize>(&self, br: &Bracket<N>, i: usize, j: usize) -> Wide<N> {
        br.view(self.ctx, &self.bye).weight(i, j)
    }

    /// Sets the weight of members x < y to w (x's row), noting x changed if it did.
    fn set<const N: usize>(&self, br: &mut Bracket<N>, x: usize, y: usize, w: Wide<N>) {
        debug_assert!(x < y, "rows are by the lower member");
        if self.weight(br, x, y) != w {
            br.matching.changed_edge(x, y);
        }
        let size = br.g.members.len();
        br.st.row_mut(x, size)[y] = Some(w);
        if let Some(m) = &mut br.matrix {
            m.set(x, y, w);
        }
    }

    /// Moves the bracket to state `new`, noting as changed the lower member of each of `pairs`
    /// (x < y, in their order) whose weight it changes: what setting them one by one would.
    /// The other pairs' weights must stay the same.
    fn restate<const N: usize>(
        &self,
        br: &mut Bracket<N>,
        new: State<N>,
        pairs: impl Iterator<Item = (usize, usize)>,
    ) {
        let (ctx, bye) = (self.ctx, &self.bye);
        for (k, (x, y)) in pairs.enumerate() {
            if k % 4096 == 0 {
                crate::interrupt::check();
            }
            let w = br.g.weight_in(ctx, bye, &new, x, y);
            let changed = match &mut br.matrix {
                Some(m) => m.set(x, y, w),
                None => br.g.weight_in(ctx, bye, &br.st, x, y) != w,
            };
            if changed {
                br.matching.changed_edge(x, y);
            }
        }
        br.st = new;
    }

    /// The best matching of all open players: bracket weights for pairs of bracket members,
    /// completion weights for the others.
    ///
    /// Players outside the bracket only add completion (the top field) to the weights, so the
    /// best matching of the bracket members alone is the answer whenever the players it leaves
    /// unpaired can be paired with the others (a cheap cardinality check); only when they
    /// cannot is the whole graph solved.
    fn solve<const N: usize>(&self, br: &mut Bracket<N>) -> Vec<Option<usize>> {
        let ctx = self.ctx;
        if !self.bye.start_single_downfloater {
            let size = br.g.members.len();
            // (`finalize` removes the closed members from br.matching)
            let view = View {
                ctx,
                bye: &self.bye,
                g: &br.g,
                st: &br.st,
                matrix: br.matrix.as_ref(),
            };
            let mates = br.matching.solve(&view);
            let open = |k: usize| self.open[br.g.members[k]];
            let left: Vec<usize> = (0..size)
                .filter(|&k| open(k) && mates[k].is_none())
                .map(|k| br.g.members[k])
                .collect();
            let completable = match br.completable.get(&left) {
                Some(&known) => known,
                None => {
                    let answer = self.completable(br, &left);
                    br.completable.insert(left, answer);
                    answer
                }
            };
            if completable {
                let mut out = vec![None; ctx.n()];
                for (k, m) in mates.iter().enumerate().filter(|&(k, _)| open(k)) {
                    out[br.g.members[k]] = m.map(|o| br.g.members[o]);
                }
                return out;
            }
        }
        self.solve_all(br)
    }

    /// Whether `left` and the open players outside the bracket can all be paired (but for one
    /// bye candidate when their number is odd).
    fn completable<const N: usize>(&self, br: &Bracket<N>, left: &[usize]) -> bool {
        let ctx = self.ctx;
        let mut vertices: Vec<usize> = (0..ctx.n())
            .filter(|&i| self.open[i] && br.position[i] == usize::MAX)
            .collect();
        vertices.extend_from_slice(left);
        let candidate = |i: usize| self.bye.candidate(&ctx.players[i]);
        let odd = vertices.len() % 2 == 1;
        self.perfect(&vertices, odd.then_some(&candidate))
    }

    /// The best matching of the whole graph of open players: bracket weights and completion for
    /// pairs of bracket members, completion weights for the others. Its matching is kept
    /// between calls like the bracket's; only the bracket's pairs change weight, and those
    /// whose weight changed since the last call (from the state then to the state now) are
    /// noted as changed.
    fn solve_all<const N: usize>(&self, br: &mut Bracket<N>) -> Vec<Option<usize>> {
        let ctx = self.ctx;
        let n = ctx.n();
        let (mut whole, seen, table) = br.whole.take().unwrap_or_else(|| {
            let table = PairTable::new(
                ctx,
                &br.g.layout,
                &self.bye,
                0..n,
                |_| false,
                |_| whole_flags(&self.bye),
            );
            (Matcher::new(n), br.st.clone(), table)
        });
        for i in (0..n).filter(|&i| !self.open[i]) {
            whole.remove(i);
        }
        let size = br.g.members.len();
        for pj in 0..size {
            crate::interrupt::check();
            for pi in 0..pj {
                // (a closed player's weights no longer matter: it left the graph)
                let (i, j) = (br.g.members[pi], br.g.members[pj]);
                if self.open[i]
                    && self.open[j]
                    && br.g.weight_in(ctx, &self.bye, &seen, pi, pj)
                        != br.g.weight_in(ctx, &self.bye, &br.st, pi, pj)
                {
                    whole.changed_edge(i, j);
                }
            }
        }
        let view = WholeView {
            bracket: br.view(ctx, &self.bye),
            position: &br.position,
            shift: br.g.layout.top_shift(ctx.played_rounds),
            table: &table,
        };
        let mates = whole.solve(&view);
        br.whole = Some((whole, br.st.clone(), table));
        mates
    }

    /// Sets the weights of member x's edges to `changes` and solves again unless the matching
    /// `m` stays a best one: every matching uses at most one edge of x, so if m's edge at x
    /// gains at least as much as any other edge of x (and nothing), m is still optimal.
    fn reweigh<const N: usize>(
        &self,
        br: &mut Bracket<N>,
        m: &mut Vec<Option<usize>>,
        x: usize,
        changes: &[(usize, Wide<N>)],
    ) {
        let mate = br.pair_of(m, x);
        let mut best_gain = Wide::ZERO;
        let mut mate_gain = Wide::ZERO;
        for &(y, w) in changes {
            let gain = w.sub(self.weight(br, x, y));
            if gain > best_gain {
                best_gain = gain;
            }
            if Some(y) == mate {
                mate_gain = gain;
            }
            self.set(br, x, y, w);
        }
        if mate_gain < best_gain || mate_gain < Wide::ZERO {
            *m = self.solve(br);
        }
    }

    /// Whether the bracket `members` (MDPs first) can be paired without the next
    /// scoregroup `next` in its bracket's graph (an even count of players: no bye):
    /// * even: `members` can all be paired among themselves, the other open players too;
    /// * odd: `members` can be paired among themselves but for one; `next` (even) can be paired among itself and every member can meet one of `next`
    ///   (the next bracket pairs as many, and the same scores, whoever floats down, C.8), or
    ///   `next` is odd and the last scoregroup; and the other open players have a matching
    ///   leaving one player alone whom every member can meet (so any downfloater leaves a
    ///   complete pairing, C.4, which for the last scoregroup is also C.8).
    fn closed(&self, members: &[usize], next: &[usize]) -> bool {
        let ctx = self.ctx;
        let mut inside = vec![false; ctx.n()];
        for &i in members {
            inside[i] = true;
        }
        let outside: Vec<usize> = (0..ctx.n())
            .filter(|&i| self.open[i] && !inside[i])
            .collect();
        if members.len().is_multiple_of(2) {
            return self.pairable_set(members) && self.pairable_set(&outside);
        }
        // The bracket must pair within itself but for one player: three MDPs who all met pair
        // nobody, and would float down again and again to the same bracket.
        if members.len() == 1 || !self.pairable_but_one(members) {
            return false;
        }
        if next.len() % 2 == 1 {
            // The last scoregroup: any downfloater completes it (the check below), so the next
            // bracket pairs all its players whoever floats down.
            if outside.len() != next.len() {
                return false;
            }
        } else if !members
            .iter()
            .all(|&d| next.iter().any(|&x| ctx.compatible(d, x)))
            || !self.pairable_set(next)
        {
            return false;
        }
        // The outside (odd) and a dummy vertex that only the players every member can meet
        // may pair: a perfect matching leaves one of them alone in the outside.
        let every_member_meets = |u: usize| {
            crate::interrupt::check();
            members.iter().all(|&d| ctx.compatible(d, u))
        };
        self.perfect(&outside, Some(&every_member_meets))
    }

    /// Whether the players `set` can all be paired among themselves, with one more vertex when
    /// `dummy` is given: the players it says true for may pair with it. The graph is read from
    /// who may meet whom ([`Context::compatible`]), never copied into lists (8 bytes a pair of
    /// players).
    fn perfect(&self, set: &[usize], dummy: Option<&dyn Fn(usize) -> bool>) -> bool {
        let ctx = self.ctx;
        let to_dummy: Vec<bool> =
            dummy.map_or_else(Vec::new, |f| set.iter().map(|&i| f(i)).collect());
        let d = set.len();
        let graph = Dense {
            n: d + usize::from(dummy.is_some()),
            edge: |a: usize, b: usize| {
                if a == d {
                    to_dummy[b]
                } else if b == d {
                    to_dummy[a]
                } else {
                    ctx.compatible(set[a], set[b])
                }
            },
        };
        has_perfect_matching(&graph)
    }

    /// Whether the players `set` can all be paired among themselves.
    fn pairable_set(&self, set: &[usize]) -> bool {
        self.perfect(set, None)
    }

    /// Whether the players `set` (an odd number) can all be paired among themselves but for one.
    fn pairable_but_one(&self, set: &[usize]) -> bool {
        self.perfect(set, Some(&|_| true))
    }

    /// Whether all players can be paired when the bye may go only to `bye_to` players.
    fn pairable(&self, bye_to: impl Fn(&Entrant) -> bool) -> bool {
        let ctx = self.ctx;
        let all: Vec<usize> = (0..ctx.n()).collect();
        let to = |i: usize| bye_to(&ctx.players[i]);
        self.perfect(&all, (all.len() % 2 == 1).then_some(&to))
    }

    /// Checks that a pairing exists and, for an odd number of players, which score gets the
    /// bye (C.04.3 2.4: the lowest possible scoregroup) and whether C.9 applies at once.
    fn settle_bye(&mut self) -> Result<(), NoPairing> {
        let ctx = self.ctx;
        let n = ctx.n();
        if n.is_multiple_of(2) {
            return if self.pairable(|_| false) {
                Ok(())
            } else {
                Err(NoPairing)
            };
        }
        let groups = score_groups(ctx.players);
        let top = ctx.players.first().map_or(0, |p| p.score);
        let bye_score = groups
            .iter()
            .rev()
            .map(|g| ctx.players[g[0]].score)
            .find(|&s| self.pairable(|p| p.bye_eligible && p.score == s))
            .ok_or(NoPairing)?;
        self.bye.score = Some(bye_score);
        // C.9 applies at once when the bye comes from the top scoregroup and it pairs within
        // itself otherwise.
        let single = bye_score >= top && self.top_group_pairs_itself(top);
        self.bye.single_downfloater = single;
        self.bye.start_single_downfloater = single;
        let mut games: Vec<u32> = ctx
            .players
            .iter()
            .filter(|p| p.score == bye_score)
            .map(|p| p.played_games)
            .collect();
        games.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, g) in games.into_iter().enumerate() {
            self.bye.unplayed_rank.insert(g, rank as u64);
        }
        Ok(())
    }

    /// Whether some complete pairing gives the bye to a top scorer and pairs the other top
    /// scorers among themselves.
    fn top_group_pairs_itself(&self, top: i32) -> bool {
        let ctx = self.ctx;
        let in_top = |i: usize| ctx.players[i].score >= top;
        let n = ctx.n();
        let graph = Dense {
            n: n + 1,
            edge: |i: usize, j: usize| {
                if i == n {
                    in_top(j) && ctx.players[j].bye_eligible
                } else if j == n {
                    in_top(i) && ctx.players[i].bye_eligible
                } else {
                    ctx.compatible(i, j) && in_top(i) == in_top(j)
                }
            },
        };
        has_perfect_matching(&graph)
    }

    fn finalize<const N: usize>(&mut self, br: &mut Bracket<N>, a: usize, b: usize) {
        br.matching.remove(a);
        br.matching.remove(b);
        // (a closed player's weights no longer matter)
        br.st.clear_row(a);
        br.st.clear_row(b);
        let (x, y) = (br.g.members[a], br.g.members[b]);
        self.open[x] = false;
        self.open[y] = false;
        self.pairs.push((x.min(y), x.max(y)));
    }

    /// Pairs one bracket: `members` are its MDPs (`..mdps`), residents (`..residents_end`) and
    /// the next scoregroup. Returns the players carried to the next bracket and how many of them
    /// are its MDPs.
    fn pair_bracket(
        &mut self,
        members: Vec<usize>,
        mdps: usize,
        residents_end: usize,
        next_score: Option<i32>,
    ) -> (Vec<usize>, usize) {
        if next_score.is_none() && self.bye.score.is_none() && self.ctx.shortcuts {
            if let Some((pairs, left_out)) = colour_bracket::pair(self.ctx, &members, mdps) {
                #[cfg(test)]
                colour_bracket::TAKEN.with(|c| c.set(c.get() + 1 + (mdps << 16)));
                for (x, y) in pairs {
                    self.open[x] = false;
                    self.open[y] = false;
                    self.pairs.push((x.min(y), x.max(y)));
                }
                self.bye.single_downfloater = false;
                let carried: Vec<usize> = left_out.into_iter().collect();
                let count = carried.len();
                return (carried, count);
            }
        }
        let scores: Vec<i32> = members.iter().map(|&i| self.ctx.players[i].score).collect();
        let layout = Layout::new(self.ctx.n(), &scores);
        let args = (layout, members, mdps, residents_end, next_score);
        match args.0.total_bits().div_ceil(64) {
            0..=2 => self.pair_bracket_n::<2>(args),
            3 => self.pair_bracket_n::<3>(args),
            4 => self.pair_bracket_n::<4>(args),
            5 => self.pair_bracket_n::<5>(args),
            6 => self.pair_bracket_n::<6>(args),
            7 | 8 => self.pair_bracket_n::<8>(args),
            9..=16 => self.pair_bracket_n::<16>(args),
            _ => self.pair_bracket_n::<64>(args),
        }
    }

    fn pair_bracket_n<const N: usize>(
        &mut self,
        (layout, members, mdps, residents_end, next_score): BracketArgs,
    ) -> (Vec<usize>, usize) {
        let ctx = self.ctx;
        let size = members.len();
        let mut position = vec![usize::MAX; ctx.n()];
        for (k, &p) in members.iter().enumerate() {
            position[p] = k;
        }
        let single_downfloater = self.bye.single_downfloater;
        let table = PairTable::new(
            ctx,
            &layout,
            &self.bye,
            members.iter().copied(),
            |k| k >= residents_end,
            |next| Flags {
                with_top: false,
                in_current: !next,
                in_next: next,
                single_downfloater,
            },
        );
        let mut st = State::new(size);
        let mut barred = Vec::new();
        for (k, &p) in members.iter().enumerate() {
            let from = barred.len() as u32;
            barred.extend(
                ctx.barred[p]
                    .iter()
                    .map(|&o| position[o as usize])
                    .filter(|&k| k != usize::MAX)
                    .map(|k| k as u32),
            );
            st.hot[k].class = table.class(k);
            st.hot[k].bar_from = from;
            st.hot[k].bar_to = barred.len() as u32;
        }
        let with_matrix = matrix_fits::<N>(size);
        let mut br = Bracket::<N> {
            g: Grid {
                layout,
                members,
                mdps,
                residents_end,
                single_downfloater,
                table,
                barred,
            },
            st,
            position,
            matrix: None,
            // (its first solve reads the base weights; a matrix needs no rows cached)
            matching: if with_matrix {
                Matcher::with_cache(size, 0)
            } else {
                Matcher::new(size)
            },
            completable: HashMap::new(),
            whole: None,
        };
        if with_matrix {
            let view = View {
                matrix: None,
                ..br.view(ctx, &self.bye)
            };
            let mut weights = Matrix::new(size);
            for i in 0..size {
                crate::interrupt::check();
                for j in i + 1..size {
                    weights.set(i, j, view.weight(i, j));
                }
            }
            br.matrix = Some(weights);
        }
        let mut m = self.solve(&mut br);
        let mut matched = vec![false; size];
        self.choose_paired_mdps(&mut br, &mut m, &mut matched);
        self.pair_mdps(&mut br, &mut m, &mut matched);
        self.pair_remainder(&mut br, &mut m, &mut matched);

        // C.9 applies to the next bracket only if the bye assignee comes from it or lower.
        let mut single = self.bye.score.is_some()
            && next_score.is_some_and(|s| self.bye.score.is_some_and(|b| b >= s));
        if single {
            // Where the carried players would be paired needs the whole graph.
            m = self.solve_all(&mut br);
        }
        let mut carried = Vec::new();
        let mut carried_mdps = 0;
        for k in 0..size {
            let p = br.g.members[k];
            if !self.open[p] {
                continue;
            }
            carried.push(p);
            if k < residents_end {
                carried_mdps += 1;
            }
            if let Some(s) = next_score {
                let partner_score = m[p].map_or(ctx.players[p].score, |o| ctx.players[o].score);
                if partner_score < s {
                    single = false;
                }
            }
        }
        self.bye.single_downfloater = single;
        (carried, carried_mdps)
    }

    /// Which MDPs are paired in the bracket: of each score, the highest-ranked possible
    /// (C.04.3 4.2, the order of 4.3.2).
    fn choose_paired_mdps<const N: usize>(
        &self,
        br: &mut Bracket<N>,
        m: &mut Vec<Option<usize>>,
        matched: &mut [bool],
    ) {
        let (mdps, residents_end) = (br.g.mdps, br.g.residents_end);
        let score = |br: &Bracket<N>, k: usize| self.ctx.players[br.g.members[k]].score;
        let mut k = 0;
        while k < mdps {
            let s = score(br, k);
            let group_end = (k..mdps).find(|&x| score(br, x) < s).unwrap_or(mdps);
            let mut remaining = group_end - k;
            let mut remaining_paired = (k..group_end)
                .filter(|&x| br.paired_to_resident(m, x))
                .count();
            #[allow(clippy::needless_range_loop)] // x is a bracket position, not just an index
            for x in k..group_end {
                if remaining_paired == 0 {
                    continue;
                }
                if remaining <= remaining_paired {
                    matched[x] = true;
                    continue;
                }
                remaining -= 1;
                if !br.paired_to_resident(m, x) {
                    let changes: Vec<(usize, Wide<N>)> = (mdps..residents_end)
                        .filter(|&r| !self.base(br, x, r).is_zero())
                        .map(|r| (r, self.base(br, x, r).add(br.g.layout.unit(1))))
                        .collect();
                    self.reweigh(br, m, x, &changes);
                    // (the row set is the rule of `mdp_bonus` 1: kept as that)
                    br.st.clear_row(x);
                    br.st.mdp_bonus[x] = 1;
                }
                if br.paired_to_resident(m, x) {
                    matched[x] = true;
                    remaining_paired -= 1;
                    let mut new = br.st.clone();
                    new.mdp_bonus[x] = (residents_end - mdps) as u64 + 1;
                    self.restate(br, new, (mdps..residents_end).map(|r| (x, r)));
                }
            }
            k = group_end;
        }
    }

    /// The opponents of the paired MDPs: the highest resident possible, MDPs in order.
    fn pair_mdps<const N: usize>(
        &mut self,
        br: &mut Bracket<N>,
        m: &mut Vec<Option<usize>>,
        matched: &mut [bool],
    ) {
        for x in 0..br.g.mdps {
            if !matched[x] {
                continue;
            }
            let mut addend = br.g.members.len() as u64;
            let mut changes = Vec::new();
            for r in (br.g.mdps..br.g.residents_end).rev() {
                let b = self.base(br, x, r);
                if matched[r] || b.is_zero() {
                    continue;
                }
                changes.push((r, b.add(br.g.layout.unit(addend))));
                addend += 1;
            }
            self.reweigh(br, m, x, &changes);
            if let Some(o) = br.pair_of(m, x) {
                matched[o] = true;
                self.finalize(br, x, o);
            }
        }
    }

    /// The remainder: S1 and S2 with the fewest, then smallest, exchanges (C.04.3 4.3, 4.4),
    /// then the S1 players' opponents in transposition order.
    fn pair_remainder<const N: usize>(
        &mut self,
        br: &mut Bracket<N>,
        m: &mut Vec<Option<usize>>,
        matched: &mut [bool],
    ) {
        let (mdps, residents_end, size) = (br.g.mdps, br.g.residents_end, br.g.members.len());
        let remainder: Vec<usize> = (mdps..residents_end)
            .filter(|&r| self.open[br.g.members[r]] && br.pair_of(m, r).is_none_or(|o| o >= mdps))
            .collect();
        let s1 = remainder
            .iter()
            .filter(|&&r| br.pair_of(m, r).is_some_and(|o| o < r && o >= mdps))
            .count();
        // Fewest exchanges: a pair led by an S1 player weighs more; smallest exchanges: the
        // lower the leading players, the less (`Grid::exchange_addend`).
        let mut new = br.st.clone();
        new.phase = Phase::Exchange;
        new.s1 = s1;
        for (xi, &x) in remainder.iter().enumerate() {
            new.hot[x].rem = xi as u32;
            new.clear_row(x);
        }
        self.restate(br, new, pairs_of(&remainder));
        *m = self.solve(br);
        let exchanges = remainder[..s1]
            .iter()
            .filter(|&&x| !br.leads_pair(m, x))
            .count();
        let unit = br.g.layout.unit::<N>(1);

        // Exchange the lowest S1 players possible...
        let mut left = exchanges;
        for xi in (0..s1).rev() {
            if left == 0 {
                break;
            }
            let x = remainder[xi];
            if br.leads_pair(m, x) {
                let changes: Vec<(usize, Wide<N>)> = remainder[xi + 1..]
                    .iter()
                    .map(|&y| (y, self.weight(br, x, y)))
                    .filter(|(_, w)| !w.is_zero())
                    .map(|(y, w)| (y, w.sub(unit)))
                    .collect();
                self.reweigh(br, m, x, &changes);
            }
            let exchanged = !br.leads_pair(m, x);
            if exchanged {
                left -= 1;
            }
            // x's edges back to the rule, its pairs below zeroed if it was exchanged
            let mut new = br.st.clone();
            new.clear_row(x);
            if exchanged {
                new.mark(x, EXCHANGED, true);
            }
            self.restate(br, new, remainder[xi + 1..].iter().map(|&y| (x, y)));
        }
        // ...for the highest S2 players possible.
        let mut left = exchanges;
        for yi in s1..remainder.len() {
            if left <= 1 {
                break;
            }
            let y = remainder[yi];
            let already = br.leads_pair(m, y);
            if !already {
                let changes: Vec<(usize, Wide<N>)> = remainder[yi + 1..]
                    .iter()
                    .map(|&z| (z, self.weight(br, y, z)))
                    .filter(|(_, w)| !w.is_zero())
                    .map(|(z, w)| (z, w.add(unit)))
                    .collect();
                self.reweigh(br, m, y, &changes);
            }
            if br.leads_pair(m, y) {
                left -= 1;
                let mut new = br.st.clone();
                new.mark(y, PROMOTED, true);
                let above = remainder[..yi].iter().map(|&z| (z, y));
                self.restate(br, new, above.chain((residents_end..size).map(|g| (y, g))));
            }
            if !already {
                let mut new = br.st.clone();
                new.clear_row(y);
                self.restate(br, new, remainder[yi + 1..].iter().map(|&z| (y, z)));
            }
        }
        // Fix the roles: only a leading player may pair a lower one in the remainder.
        let mut new = br.st.clone();
        new.phase = Phase::Roles;
        new.roles_fixed = true;
        for &x in &remainder {
            new.mark(x, LEADS, br.leads_pair(m, x));
            new.clear_row(x);
        }
        self.restate(br, new, pairs_of(&remainder));
        // Bias towards the natural pairing, then the S1 players' opponents in transposition
        // order: the highest possible first.
        let leaders: Vec<usize> = remainder
            .iter()
            .copied()
            .filter(|&x| br.leads_pair(m, x))
            .collect();
        let followers: Vec<usize> = remainder
            .iter()
            .copied()
            .filter(|&y| !br.leads_pair(m, y))
            .collect();
        // (L - i)(K - j) for leader i and follower j: the sorted pairing weighs most, and a
        // higher leader gains more from a higher follower (like the transposition order).
        let mut new = br.st.clone();
        new.phase = Phase::Bias;
        new.counts = (leaders.len() as u64, followers.len() as u64);
        for (i, &x) in leaders.iter().enumerate() {
            new.leader[x] = i;
        }
        for (j, &y) in followers.iter().enumerate() {
            new.follower[y] = j;
        }
        let biased = leaders.iter().flat_map(|&x| {
            followers
                .iter()
                .filter(move |&&y| y > x)
                .map(move |&y| (x, y))
        });
        self.restate(br, new, biased);
        if !leaders.is_empty() {
            *m = self.solve(br);
        }
        for &x in &leaders {
            if !br.leads_pair(m, x) {
                continue;
            }
            let mut addend = 0u64;
            let mut changes = Vec::new();
            for &y in remainder.iter().rev() {
                if y <= x || matched[y] {
                    continue;
                }
                let b = self.base(br, x, y);
                if !b.is_zero() {
                    changes.push((y, b.add(br.g.layout.unit(addend))));
                }
                addend += 1;
            }
            self.reweigh(br, m, x, &changes);
            if let Some(o) = br.pair_of(m, x) {
                matched[x] = true;
                matched[o] = true;
                self.finalize(br, x, o);
            }
        }
    }
}
