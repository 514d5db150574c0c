//! A model given as DIMACS literals (a SAT library's model: a list of signed integers) mapped
//! back to the puzzle whose CNF it satisfies and checked by the certificate verifier:
//! [`decode_literals`].

use super::entry::Decoded;
use crate::encode::cnf::{CnfOptions, encode};
use crate::encode::{Counter, Lit, Model};
use crate::grid::Grid;

/// The grid a model of `puzzle`'s CNF (encoded with `options`) names, as literals (`0`s are
/// ignored): a verified [`Decoded::Solution`], an [`Decoded::Invalid`] grid with the rule it
/// breaks, or [`Decoded::NotAGrid`] saying which encoding the model was read with (a model of
/// other clauses needs theirs). O(n³) to rebuild the variable map, plus the model's length.
pub fn decode_literals(puzzle: &Grid, options: CnfOptions, literals: &[i64]) -> Decoded {
    let mut lits = Vec::with_capacity(literals.len());
    let mut read = Ok(());
    for &l in literals.iter().filter(|&&l| l != 0) {
        if l.unsigned_abs() >= i32::MAX as u64 {
            read = Err(format!("{l} is not a DIMACS literal"));
            break;
        }
        lits.push(Lit::from_dimacs(l));
    }
    let map = encode(puzzle, options, &mut Counter::default()).map;
    let grid = read.and_then(|()| {
        let model = Model::from_lits(lits);
        map.decode(puzzle, &model).map_err(|e| e.to_string())
    });
    match grid {
        Ok(candidate) => match crate::verify::verify(puzzle, &candidate) {
            Ok(()) => Decoded::Solution(candidate),
            Err(v) => Decoded::Invalid(candidate, v),
        },
        Err(e) => Decoded::NotAGrid(format!(
            "{e} (the model was read as one of the encoding {}:{}; a model of other clauses \
             is decoded with the encoding and at-most-one they were written with)",
            options.encoding.name(),
            options.amo.name()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Cnf;
    use crate::text::parse_line;

    fn puzzle() -> Grid {
        parse_line("...3..4114..3...", None).unwrap()
    }

    /// The literals of `grid`'s values under `puzzle`'s variable map (true for each value).
    fn model_of(puzzle: &Grid, grid: &Grid) -> Vec<i64> {
        let options = CnfOptions::default();
        let map = encode(puzzle, options, &mut Cnf::new()).map;
        let n = grid.shape().order();
        let cells = (0..n).flat_map(|r| (0..n).map(move |c| (r, c)));
        let vars = cells.filter_map(|(r, c)| map.var(r, c, grid.at(r, c)?));
        vars.map(|v| v.to_dimacs() as i64).collect()
    }

    #[test]
    fn a_model_of_the_solution_decodes_to_it() {
        let solution = parse_line("4123234114323214", None).unwrap();
        let model = model_of(&puzzle(), &solution);
        let decoded = decode_literals(&puzzle(), CnfOptions::default(), &model);
        assert!(matches!(decoded, Decoded::Solution(g) if g == solution));
    }

    #[test]
    fn a_literal_out_of_range_is_no_grid() {
        let decoded = decode_literals(&puzzle(), CnfOptions::default(), &[i64::MAX]);
        let Decoded::NotAGrid(reason) = decoded else {
            panic!("expected no grid");
        };
        assert!(reason.starts_with("9223372036854775807 is not a DIMACS literal (the model"));
    }
}
