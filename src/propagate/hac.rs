//! Hyper-arc (domain) consistency of `alldifferent` (`HAC`), by Régin's matching method, and the
//! bipartite matcher the redundant constraints share.
//!
//! A unit of a Sudoku has as many cells as values, so every solution is a **perfect matching** of
//! the bipartite graph cells × values (an edge per candidate). A candidate `v` of cell `x` belongs
//! to some solution of the unit's `alldifferent` exactly when the edge `(x, v)` lies in some
//! perfect matching: take one perfect matching `M`; an edge outside `M` is in another perfect
//! matching iff it lies on an `M`-alternating cycle (Berge; with no free vertex there are no
//! alternating paths to consider). Orient the graph on cells: `x → y` when `x` has the value
//! `M(y)`; then `(x, M(y))` is on an alternating cycle iff `x` and `y` are in the same strongly
//! connected component. So one matching and one SCC decomposition remove every unsupported value.
//!
//! The same [`Matcher`] serves the colored-matrix constraint (rows × columns for one value) and the
//! rows–boxes constraint (rows × boxes of a band for one value) in [`super::redundant`].
//!
//! The matching is found by augmenting paths (Kuhn's method) warm-started from the unit's previous
//! matching, whose edges mostly survive from one call to the next, so usually no or one augmenting
//! path is needed; Hopcroft–Karp's phases would only pay on large graphs built from scratch. The SCCs
//! come from Tarjan's algorithm. Both run on arrays allocated once per engine.
//!
//! # Complexity
//! Per revision of a unit of order n: O(n·⌈n/64⌉) to build the graph, O(a·n²) for `a` augmenting
//! paths (a = 0 or 1 in the common incremental case, at most n), O(n²) for Tarjan and the filtering.
//!
//! # References
//! - J.-C. Régin, "A filtering algorithm for constraints of difference in CSPs", AAAI 1994.
//! - J. E. Hopcroft, R. M. Karp, "An n^5/2 algorithm for maximum matchings in bipartite graphs",
//!   SIAM J. Comput. 2(4), 1973 (augmenting paths; the phases are not used here).
//! - R. E. Tarjan, "Depth-first search and linear graph algorithms", SIAM J. Comput. 1(2), 1972.
//! - H. Simonis, "Sudoku as a constraint problem", 2005 (HAC in the lattice of schemes).

use super::{Domains, Failure, Propagator, iter_bits};

const NONE: u32 = u32::MAX;

/// A square bipartite graph (`k` left × `k` right nodes, adjacency as bitsets) with a perfect
/// matching finder and the set of edges that lie in some perfect matching.
#[derive(Debug, Clone)]
pub struct Matcher {
    words: usize,
    k: usize,
    adj: Vec<u64>,
    mate_l: Vec<u32>,
    mate_r: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    comp: Vec<u32>,
    next_index: u32,
    comps: u32,
    allowed: Vec<u64>,
}

impl Matcher {
    /// A matcher for graphs of up to `capacity` nodes per side.
    pub fn new(capacity: usize) -> Matcher {
        let words = capacity.div_ceil(64).max(1);
        Matcher {
            words,
            k: 0,
            adj: vec![0; capacity * words],
            mate_l: vec![NONE; capacity],
            mate_r: vec![NONE; capacity],
            seen: vec![0; capacity],
            stamp: 0,
            index: vec![NONE; capacity],
            low: vec![0; capacity],
            on_stack: vec![false; capacity],
            stack: Vec::with_capacity(capacity),
            comp: vec![0; capacity],
            next_index: 0,
            comps: 0,
            allowed: vec![0; capacity * words],
        }
    }

    /// Starts a graph of `k` nodes per side with no edge; the previous matching is kept as a hint.
    pub fn begin(&mut self, k: usize) {
        assert!(k <= self.mate_l.len(), "graph larger than the matcher");
        self.k = k;
        self.adj[..k * self.words].fill(0);
    }

    /// Adds the edge `(left, right)`.
    #[inline]
    pub fn add_edge(&mut self, left: usize, right: usize) {
        self.adj[left * self.words + right / 64] |= 1u64 << (right % 64);
    }

    /// Sets the neighbours of `left` from a bitset (`words` may be shorter than the matcher's).
    #[inline]
    pub fn set_row(&mut self, left: usize, words: &[u64]) {
        let w = self.words;
        let row = &mut self.adj[left * w..(left + 1) * w];
        row.fill(0);
        row[..words.len()].copy_from_slice(words);
    }

    /// Whether `(left, right)` is an edge.
    #[inline]
    pub fn has_edge(&self, left: usize, right: usize) -> bool {
        self.adj[left * self.words + right / 64] & (1u64 << (right % 64)) != 0
    }

    /// Sets the matching hint: left `i` was matched to `hint[i]` (any value; checked later).
    pub fn set_hint(&mut self, hint: &[u32]) {
        self.mate_l[..hint.len()].copy_from_slice(hint);
    }

    /// The current matching, left → right (valid after [`Matcher::perfect_matching`] succeeds).
    pub fn mates(&self) -> &[u32] {
        &self.mate_l[..self.k]
    }

    /// Finds a perfect matching; `false` if the graph has none.
    pub fn perfect_matching(&mut self) -> bool {
        let k = self.k;
        self.mate_r[..k].fill(NONE);
        for i in 0..k {
            let j = self.mate_l[i];
            if j != NONE
                && (j as usize) < k
                && self.mate_r[j as usize] == NONE
                && self.has_edge(i, j as usize)
            {
                self.mate_r[j as usize] = i as u32;
            } else {
                self.mate_l[i] = NONE;
            }
        }
        // Greedy: a free right neighbour, if any.
        let w = self.words;
        for i in 0..k {
            if self.mate_l[i] != NONE {
                continue;
            }
            for wi in 0..w {
                let mut word = self.adj[i * w + wi];
                while word != 0 {
                    let j = wi * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    if self.mate_r[j] == NONE {
                        self.mate_r[j] = i as u32;
                        self.mate_l[i] = j as u32;
                        break;
                    }
                }
                if self.mate_l[i] != NONE {
                    break;
                }
            }
        }
        for i in 0..k {
            if self.mate_l[i] == NONE {
                self.stamp = self.stamp.wrapping_add(1);
                if self.stamp == 0 {
                    self.seen.fill(0);
                    self.stamp = 1;
                }
                if !self.augment(i) {
                    return false;
                }
            }
        }
        true
    }

    /// Kuhn's augmenting path from the free left node `i`.
    fn augment(&mut self, i: usize) -> bool {
        let w = self.words;
        for wi in 0..w {
            let mut word = self.adj[i * w + wi];
            while word != 0 {
                let j = wi * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                if self.seen[j] == self.stamp {
                    continue;
                }
                self.seen[j] = self.stamp;
                let other = self.mate_r[j];
                if other == NONE || self.augment(other as usize) {
                    self.mate_l[i] = j as u32;
                    self.mate_r[j] = i as u32;
                    return true;
                }
            }
        }
        false
    }

    /// After a perfect matching: computes, for every left node, the right nodes whose edge lies
    /// in some perfect matching (see the module docs); read them with [`Matcher::allowed`].
    pub fn compute_allowed(&mut self) {
        let (k, w) = (self.k, self.words);
        self.index[..k].fill(NONE);
        self.on_stack[..k].fill(false);
        self.stack.clear();
        self.next_index = 0;
        self.comps = 0;
        for i in 0..k {
            if self.index[i] == NONE {
                self.strong_connect(i);
            }
        }
        for i in 0..k {
            for wi in 0..w {
                let mut keep = 0u64;
                let mut word = self.adj[i * w + wi];
                while word != 0 {
                    let bit = word.trailing_zeros();
                    word &= word - 1;
                    let j = wi * 64 + bit as usize;
                    let owner = self.mate_r[j] as usize;
                    if owner == i || self.comp[owner] == self.comp[i] {
                        keep |= 1u64 << bit;
                    }
                }
                self.allowed[i * w + wi] = keep;
            }
        }
    }

    /// The right nodes of `left` in some perfect matching (after [`Matcher::compute_allowed`]).
    #[inline]
    pub fn allowed(&self, left: usize) -> &[u64] {
        &self.allowed[left * self.words..(left + 1) * self.words]
    }

    /// Whether every edge of `left` is allowed.
    #[inline]
    pub fn all_allowed(&self, left: usize) -> bool {
        let w = self.words;
        self.adj[left * w..(left + 1) * w] == self.allowed[left * w..(left + 1) * w]
    }

    /// Tarjan's SCC step on the graph `i → mate_r[j]` for every non-matching edge `(i, j)`.
    fn strong_connect(&mut self, i: usize) {
        let w = self.words;
        self.index[i] = self.next_index;
        self.low[i] = self.next_index;
        self.next_index += 1;
        self.stack.push(i as u32);
        self.on_stack[i] = true;
        for wi in 0..w {
            let mut word = self.adj[i * w + wi];
            while word != 0 {
                let j = wi * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let t = self.mate_r[j] as usize;
                if t == i {
                    continue;
                }
                if self.index[t] == NONE {
                    self.strong_connect(t);
                    self.low[i] = self.low[i].min(self.low[t]);
                } else if self.on_stack[t] {
                    self.low[i] = self.low[i].min(self.index[t]);
                }
            }
        }
        if self.low[i] == self.index[i] {
            loop {
                let t = self.stack.pop().expect("tarjan stack") as usize;
                self.on_stack[t] = false;
                self.comp[t] = self.comps;
                if t == i {
                    break;
                }
            }
            self.comps += 1;
        }
    }
}

/// The values of one `alldifferent` over explicit domains that appear in some solution of it,
/// by brute force; for tests and for checking [`Propagator`]'s HAC on small cases.
///
/// `domains[i]` is the candidate bitset of variable `i` (values below 64). Returns the supported
/// subsets, or `None` if the constraint has no solution.
///
/// # Complexity
/// O(product of the domain sizes): small cases only.
pub fn brute_force_supports(domains: &[u64]) -> Option<Vec<u64>> {
    fn walk(
        domains: &[u64],
        i: usize,
        used: u64,
        chosen: &mut Vec<usize>,
        out: &mut [u64],
    ) -> bool {
        if i == domains.len() {
            for (var, &v) in chosen.iter().enumerate() {
                out[var] |= 1u64 << v;
            }
            return true;
        }
        let mut any = false;
        for v in iter_bits(std::slice::from_ref(&domains[i])) {
            if used & (1u64 << v) == 0 {
                chosen.push(v);
                any |= walk(domains, i + 1, used | (1u64 << v), chosen, out);
                chosen.pop();
            }
        }
        any
    }
    let mut out = vec![0u64; domains.len()];
    walk(domains, 0, 0, &mut Vec::new(), &mut out).then_some(out)
}

impl Propagator {
    /// Makes unit `u` hyper-arc consistent.
    pub(super) fn hac(&mut self, d: &mut Domains, u: usize) -> Result<(), Failure> {
        let n = self.n;
        self.matcher.begin(n);
        for i in 0..n {
            let cell = self.unit_cells[u * n + i] as usize;
            self.matcher.set_row(i, d.cell_words(cell));
        }
        self.matcher.set_hint(&self.unit_mates[u * n..(u + 1) * n]);
        if !self.matcher.perfect_matching() {
            return Err(Failure);
        }
        self.unit_mates[u * n..(u + 1) * n].copy_from_slice(self.matcher.mates());
        self.matcher.compute_allowed();
        let mut keep = std::mem::take(&mut self.scratch);
        let mut result = Ok(());
        for i in 0..n {
            if self.matcher.all_allowed(i) {
                continue;
            }
            keep.copy_from_slice(&self.matcher.allowed(i)[..self.words]);
            let cell = self.unit_cells[u * n + i] as usize;
            if let Err(f) = self.restrict(d, cell, &keep) {
                result = Err(f);
                break;
            }
        }
        self.scratch = keep;
        result
    }
}
