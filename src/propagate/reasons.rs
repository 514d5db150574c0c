//! Why a matching-based removal is right, in the words of a human solver: a **Hall set**.
//!
//! Every filter of [`super::hac`], [`super::bounds`] and [`super::redundant`] works on a
//! bipartite graph with as many nodes on each side (cells × values of a unit, rows × columns of
//! one value, rows × boxes of a band) in which every solution is a perfect matching. An edge
//! `(x, v)` lies in no perfect matching exactly when there is a **tight set** explaining it
//! (Hall's theorem, applied to the graph without `x` and `v`):
//! - a set `S` of left nodes without `x` whose neighbours are exactly `|S|` right nodes, `v`
//!   among them: `S` uses up those right nodes, so `x` cannot take `v` (a "naked pair" when `S`
//!   is two cells of a unit, an "X-wing" when `S` is two rows of one value);
//! - or a set `W` of right nodes without `v` whose neighbours are exactly `|W|` left nodes, `x`
//!   among them: `W` needs all of those left nodes, so `x` is taken by `W` (a "hidden pair").
//!
//! [`tight_sets`] looks for the smallest such set, cells before values (or on one side only,
//! [`tight_sets_on`]: range exhaustion finds only sets of cells): sets of up to four nodes
//! by enumeration (a naked or hidden single, pair, triple, quad; an X-wing, a swordfish, a
//! jellyfish), and beyond that the two sets one perfect matching `M` gives: `S` the left nodes
//! reachable from `M⁻¹(v)` (from a left node to the mates of its neighbours), `W` the right nodes
//! reachable from `M(x)`; `x ∉ S` and `v ∉ W` hold exactly when `(x, v)` is on no alternating
//! cycle, Régin's criterion. Every other removal the set rules out is grouped with it. (Either
//! closure always works on its own: if `x` were reachable from `M⁻¹(v)`, the edge `(x, v)` would
//! close an alternating cycle.)
//!
//! When the graph has **no** perfect matching, [`hall_violation`] names why: a set of left nodes
//! with fewer neighbours than members (k cells that can take only k − 1 values), or the same on
//! the right (k values with fewer than k places), the smallest found by enumeration up to four
//! nodes, else the alternating closure of an unmatched node (König's proof of Hall's theorem).
//!
//! # Complexity
//! O(k³) for a graph of k nodes per side (a matching by augmenting paths, a closure per set),
//! plus the enumeration of the sets of up to four nodes of degree at most four: meant for
//! explanations, not for the propagation loop.
//!
//! # References
//! - P. Hall, "On representatives of subsets", J. London Math. Soc. 10, 1935.
//! - J.-C. Régin, "A filtering algorithm for constraints of difference in CSPs", AAAI 1994.

/// Which side a tight set is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Left nodes (cells, rows, lines) that use up as many right nodes.
    Left,
    /// Right nodes (values, columns, boxes) that need as many left nodes.
    Right,
}

/// One tight set and the removed edges it explains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TightSet {
    /// The side of the set.
    pub side: Side,
    /// The left nodes involved: the set itself (`Left`), or its neighbours (`Right`).
    pub left: Vec<usize>,
    /// The right nodes involved: the set's neighbours (`Left`), or the set itself (`Right`).
    pub right: Vec<usize>,
    /// The removed edges `(left, right)` it explains.
    pub removed: Vec<(usize, usize)>,
}

impl TightSet {
    /// The number of nodes in the set.
    pub fn size(&self) -> usize {
        self.left.len()
    }
}

/// Groups the removed edges of the bipartite graph `adj` (left node → its right neighbours, `k`
/// nodes per side, the removed edges still in it) by the smallest tight set that explains each;
/// see the module docs. `None` when the graph has no perfect matching (the step failed) or an
/// edge has no explanation (it lies in a perfect matching: the removal needed more than this
/// graph, as a removal of several constraints together does).
pub fn tight_sets(adj: &[Vec<usize>], removed: &[(usize, usize)]) -> Option<Vec<TightSet>> {
    tight_sets_on(adj, removed, Sides::Both)
}

/// Which sides [`tight_sets_on`] may take its sets from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sides {
    /// Left sets only (sets of cells: what range exhaustion finds).
    Left,
    /// Right sets only (sets of values: the dual variables' range exhaustion).
    Right,
    /// Either side, the smaller set first (left on ties).
    Both,
}

impl Sides {
    fn allows(self, side: Side) -> bool {
        matches!(
            (self, side),
            (Sides::Both, _) | (Sides::Left, Side::Left) | (Sides::Right, Side::Right)
        )
    }
}

/// [`tight_sets`] with the sets taken from `sides` only.
pub fn tight_sets_on(
    adj: &[Vec<usize>],
    removed: &[(usize, usize)],
    sides: Sides,
) -> Option<Vec<TightSet>> {
    let k = adj.len();
    let mate_right = perfect_matching(adj)?; // right → left
    let mut mate_left = vec![0; k];
    for (r, &l) in mate_right.iter().enumerate() {
        mate_left[l] = r;
    }
    let mut by_right: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (l, rights) in adj.iter().enumerate() {
        for &r in rights {
            by_right[r].push(l);
        }
    }
    let mut sets: Vec<TightSet> = Vec::new();
    let mut left_over = removed.to_vec();
    while let Some(&(x, v)) = left_over.first() {
        let set = match smallest(adj, &by_right, x, v, sides) {
            Some(set) => set,
            None => {
                // Larger sets: the closures of one perfect matching (Régin's criterion).
                let left = closure(mate_right[v], |l| adj[l].iter().map(|&r| mate_right[r]));
                let right = closure(mate_left[x], |r| by_right[r].iter().map(|&l| mate_left[l]));
                let (left_ok, right_ok) = (
                    !left.contains(&x) && sides.allows(Side::Left),
                    !right.contains(&v) && sides.allows(Side::Right),
                );
                match (left_ok, right_ok) {
                    (true, true) if left.len() <= right.len() => left_set(left, &mate_left),
                    (true, _) => left_set(left, &mate_left),
                    (false, true) => right_set(right, &mate_right),
                    (false, false) => return None,
                }
            }
        };
        let (explained, rest): (Vec<_>, Vec<_>) =
            left_over.iter().partition(|&&(x, v)| set.explains(x, v));
        left_over = rest;
        sets.push(TightSet {
            removed: explained,
            ..set
        });
    }
    Some(sets)
}

impl TightSet {
    /// Whether the set rules out the edge `(x, v)`.
    fn explains(&self, x: usize, v: usize) -> bool {
        match self.side {
            Side::Left => !self.left.contains(&x) && self.right.contains(&v),
            Side::Right => self.left.contains(&x) && !self.right.contains(&v),
        }
    }
}

/// The largest tight sets [`smallest`] looks for by enumeration.
const ENUMERATED: usize = 4;

/// The smallest tight set of at most [`ENUMERATED`] nodes (and at most half of them: the
/// complement of a tight set is tight on the other side) that rules out `(x, v)`, cells
/// before values at equal size.
fn smallest(
    adj: &[Vec<usize>],
    by_right: &[Vec<usize>],
    x: usize,
    v: usize,
    sides: Sides,
) -> Option<TightSet> {
    let k = adj.len();
    // With one side only, the complement trick does not apply: sizes up to the whole graph.
    let most = if sides == Sides::Both { k / 2 } else { k };
    for size in 1..=ENUMERATED.min(most) {
        for (side, nodes, avoid, must) in [(Side::Left, adj, x, v), (Side::Right, by_right, v, x)] {
            if !sides.allows(side) {
                continue;
            }
            let pool: Vec<usize> = (0..k)
                .filter(|&i| i != avoid && !nodes[i].is_empty() && nodes[i].len() <= size)
                .collect();
            let mut chosen = Vec::with_capacity(size);
            if let Some(union) = find_combination(nodes, &pool, size, must, &mut chosen) {
                let (left, right) = match side {
                    Side::Left => (chosen, union),
                    Side::Right => (union, chosen),
                };
                return Some(TightSet {
                    side,
                    left,
                    right,
                    removed: Vec::new(),
                });
            }
        }
    }
    None
}

/// A combination of `size` nodes of `pool` (in `chosen`) whose neighbours are exactly `size`
/// nodes, `must` among them; returns those neighbours, sorted.
fn find_combination(
    nodes: &[Vec<usize>],
    pool: &[usize],
    size: usize,
    must: usize,
    chosen: &mut Vec<usize>,
) -> Option<Vec<usize>> {
    if chosen.len() == size {
        let mut union: Vec<usize> = chosen
            .iter()
            .flat_map(|&i| nodes[i].iter().copied())
            .collect();
        union.sort_unstable();
        union.dedup();
        return (union.len() == size && union.contains(&must)).then_some(union);
    }
    for (i, &node) in pool.iter().enumerate() {
        chosen.push(node);
        if let Some(union) = find_combination(nodes, &pool[i + 1..], size, must, chosen) {
            return Some(union);
        }
        chosen.pop();
    }
    None
}

/// A Hall violation of a bipartite graph with `k` nodes per side and no perfect matching: a set
/// of nodes of one side with fewer neighbours than members; see the module docs. `None` when the
/// graph has a perfect matching.
pub fn hall_violation(adj: &[Vec<usize>]) -> Option<TightSet> {
    let k = adj.len();
    let mut by_right: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (l, rights) in adj.iter().enumerate() {
        for &r in rights {
            by_right[r].push(l);
        }
    }
    let (mate_right, free_left) = maximum_matching(adj);
    let free_left = free_left?;
    // Small violations first (one node with no neighbour, two with one, ...).
    for size in 1..=ENUMERATED.min(k) {
        for (side, nodes) in [(Side::Left, adj), (Side::Right, by_right.as_slice())] {
            let pool: Vec<usize> = (0..k).filter(|&i| nodes[i].len() < size).collect();
            let mut chosen = Vec::with_capacity(size);
            if let Some(union) = deficient(nodes, &pool, size, &mut chosen) {
                let (left, right) = match side {
                    Side::Left => (chosen, union),
                    Side::Right => (union, chosen),
                };
                return Some(TightSet {
                    side,
                    left,
                    right,
                    removed: Vec::new(),
                });
            }
        }
    }
    // The alternating closure of an unmatched left node: its neighbours are all matched, to
    // the other nodes of the closure.
    let mut left = closure(free_left, |l| {
        adj[l]
            .iter()
            .filter_map(|&r| (mate_right[r] != usize::MAX).then_some(mate_right[r]))
            .collect::<Vec<_>>()
            .into_iter()
    });
    left.sort_unstable();
    let mut right: Vec<usize> = left.iter().flat_map(|&l| adj[l].iter().copied()).collect();
    right.sort_unstable();
    right.dedup();
    Some(TightSet {
        side: Side::Left,
        left,
        right,
        removed: Vec::new(),
    })
}

/// A combination of `size` nodes of `pool` whose neighbours are fewer than `size`.
fn deficient(
    nodes: &[Vec<usize>],
    pool: &[usize],
    size: usize,
    chosen: &mut Vec<usize>,
) -> Option<Vec<usize>> {
    if chosen.len() == size {
        let mut union: Vec<usize> = chosen
            .iter()
            .flat_map(|&i| nodes[i].iter().copied())
            .collect();
        union.sort_unstable();
        union.dedup();
        return (union.len() < size).then_some(union);
    }
    for (i, &node) in pool.iter().enumerate() {
        chosen.push(node);
        if let Some(union) = deficient(nodes, &pool[i + 1..], size, chosen) {
            return Some(union);
        }
        chosen.pop();
    }
    None
}

fn left_set(mut left: Vec<usize>, mate_left: &[usize]) -> TightSet {
    left.sort_unstable();
    let mut right: Vec<usize> = left.iter().map(|&l| mate_left[l]).collect();
    right.sort_unstable();
    TightSet {
        side: Side::Left,
        left,
        right,
        removed: Vec::new(),
    }
}

fn right_set(mut right: Vec<usize>, mate_right: &[usize]) -> TightSet {
    right.sort_unstable();
    let mut left: Vec<usize> = right.iter().map(|&r| mate_right[r]).collect();
    left.sort_unstable();
    TightSet {
        side: Side::Right,
        left,
        right,
        removed: Vec::new(),
    }
}

/// The nodes reachable from `start` by `next`.
fn closure<I: Iterator<Item = usize>>(start: usize, next: impl Fn(usize) -> I) -> Vec<usize> {
    let mut seen = vec![start];
    let mut i = 0;
    while i < seen.len() {
        for m in next(seen[i]) {
            if !seen.contains(&m) {
                seen.push(m);
            }
        }
        i += 1;
    }
    seen
}

/// A perfect matching as right → left, by augmenting paths; `None` if there is none.
fn perfect_matching(adj: &[Vec<usize>]) -> Option<Vec<usize>> {
    match maximum_matching(adj) {
        (mate_right, None) => Some(mate_right),
        _ => None,
    }
}

/// A maximum matching as right → left (`usize::MAX` for an unmatched right node), and the first
/// left node it leaves unmatched, if any.
fn maximum_matching(adj: &[Vec<usize>]) -> (Vec<usize>, Option<usize>) {
    let k = adj.len();
    let mut mate_right = vec![usize::MAX; k];
    let mut free = None;
    for l in 0..k {
        let mut seen = vec![false; k];
        if !augment(adj, l, &mut mate_right, &mut seen) && free.is_none() {
            free = Some(l);
        }
    }
    (mate_right, free)
}

fn augment(adj: &[Vec<usize>], l: usize, mate_right: &mut [usize], seen: &mut [bool]) -> bool {
    for &r in &adj[l] {
        if seen[r] {
            continue;
        }
        seen[r] = true;
        if mate_right[r] == usize::MAX || augment(adj, mate_right[r], mate_right, seen) {
            mate_right[r] = l;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_naked_pair_and_a_hidden_pair() {
        // Cells 0 and 1 hold {0, 1} only: a naked pair; cells 2, 3 lose 0 and 1.
        let adj = vec![vec![0, 1], vec![0, 1], vec![0, 1, 2, 3], vec![1, 2, 3]];
        let sets = tight_sets(&adj, &[(2, 0), (2, 1), (3, 1)]).unwrap();
        assert_eq!(sets.len(), 1);
        assert_eq!((sets[0].side, &sets[0].left[..]), (Side::Left, &[0, 1][..]));
        assert_eq!(sets[0].removed.len(), 3);
        // Values 2 and 3 fit only in cells 2 and 3: a hidden pair; those cells lose 0 and 1.
        let adj = vec![vec![0, 1], vec![0, 1], vec![0, 1, 2, 3], vec![0, 1, 2, 3]];
        let sets = tight_sets(&adj, &[(2, 0), (3, 1)]).unwrap();
        assert!(sets.iter().all(|s| s.size() == 2));
        // An edge in a perfect matching has no explanation.
        assert_eq!(tight_sets(&adj, &[(0, 0)]), None);
        // One side only: the removal of the naked pair has a left set, not a right one of size
        // two, but the right closure (values 2, 3 need cells 2, 3) explains it as well.
        let adj = vec![vec![0, 1], vec![0, 1], vec![0, 1, 2, 3], vec![1, 2, 3]];
        let left = tight_sets_on(&adj, &[(2, 0)], Sides::Left).unwrap();
        assert_eq!(left[0].side, Side::Left);
        let right = tight_sets_on(&adj, &[(2, 0)], Sides::Right).unwrap();
        assert_eq!(
            (right[0].side, &right[0].right[..]),
            (Side::Right, &[2, 3][..])
        );
    }

    #[test]
    fn hall_violations_on_either_side() {
        // Three cells that can take only two values: then the two other values have one place,
        // the smaller violation.
        let adj = vec![vec![0, 1], vec![0, 1], vec![1, 0], vec![0, 1, 2, 3]];
        let v = hall_violation(&adj).unwrap();
        assert_eq!(
            (v.side, &v.right[..], &v.left[..]),
            (Side::Right, &[2, 3][..], &[3][..])
        );
        // Five cells, three of them on two values and the others open: the three cells.
        let adj = vec![
            vec![0, 1],
            vec![0, 1],
            vec![0, 1],
            vec![0, 1, 2, 3, 4],
            vec![0, 1, 2, 3, 4],
        ];
        let v = hall_violation(&adj).unwrap();
        assert_eq!(
            (v.side, &v.left[..], &v.right[..]),
            (Side::Left, &[0, 1, 2][..], &[0, 1][..])
        );
        // A value with no place at all is the smallest violation (one value, no cell).
        let adj = vec![vec![0, 1], vec![0, 1], vec![0, 1, 2], vec![0, 1, 2]];
        let v = hall_violation(&adj).unwrap();
        assert_eq!(
            (v.side, &v.right[..], v.left.len()),
            (Side::Right, &[3][..], 0)
        );
        // A graph with a perfect matching has none.
        assert_eq!(hall_violation(&[vec![1], vec![0]]), None);
        // Larger than the enumeration: six cells over five values (and seven values over the
        // six other cells), found by the closure.
        let adj: Vec<Vec<usize>> = (0..12)
            .map(|i| {
                if i < 6 {
                    (0..5).collect()
                } else {
                    (0..12).collect()
                }
            })
            .collect();
        let v = hall_violation(&adj).unwrap();
        let mut union: Vec<usize> = v.left.iter().flat_map(|&l| adj[l].clone()).collect();
        union.sort_unstable();
        union.dedup();
        assert!(union.len() < v.left.len() && union == v.right);
    }
}
