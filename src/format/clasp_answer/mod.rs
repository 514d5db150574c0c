//! Reading the answers of clasp and clingo: the pseudo-Boolean form (`s` and `v` lines, for the
//! OPB export; RoundingSat and Exact write the same), the answer-set form (`Answer: 1`, a line
//! of atoms, `SATISFIABLE`, for the ASP export), and the JSON both write with `--outf=2`.
//!
//! - **OPB**: `c` comment lines (clasp's `c Answer: 1` among them), one status line
//!   `s SATISFIABLE` / `s OPTIMUM FOUND` / `s UNSATISFIABLE` / `s UNKNOWN`, and `v` lines of
//!   literals `xK` (true) and `-xK` (false); variable K is x(r,c,v) of the OPB export. clasp
//!   prints the `v` lines of its last model only, whatever `-n`: to read every model of an
//!   enumeration of the OPB export, run it with `--outf=2`.
//! - **ASP**: each `Answer: K` line is followed by the atoms of that answer set; the `x(R,C,V)`
//!   atoms set the cells (other predicates are ignored). Every answer set is a model of the
//!   answer, read as soon as its line is. A status line `SATISFIABLE`, `OPTIMUM FOUND`,
//!   `UNSATISFIABLE` or `UNKNOWN` follows, and `Models : N` says the enumeration ran to its end
//!   (`Models : N+`: it stopped at the `-n` limit, and there may be more). Version, `Reading
//!   from`, `Solving...` and the statistics are skipped.
//! - **JSON** (`--outf=2`, both programs): the `Witnesses` of each call, each a `Value` list of
//!   signed OPB variables or of atoms; `Result`; `Models` with `More` (`no`: the enumeration is
//!   complete). It is read as a stream: each witness is handed on as soon as it is parsed.
//!
//! A variable or an atom outside the puzzle's order is an error (the answer is not for this
//! puzzle); a model that leaves a cell without a value, or gives it two, is not a grid.
//!
//! # Complexity
//! Linear in the answer; memory is one model.
//!
//! # References
//! - Potassco guide, clasp and clingo output (text and `--outf=2`); PB competition output
//!   format (`s`, `v` lines).

use std::io::BufRead;

mod json;
mod text;

use self::json::read_json;
use self::text::read_text;
use crate::format::entry::{AnswerError, AnswerReader, Claim, answer_error, claim_of_cells};
use crate::grid::Grid;

/// The claim of the true OPB variables (1-based) of a model.
fn opb_claim(puzzle: &Grid, vars: &[usize]) -> Claim {
    let n = puzzle.shape().order();
    claim_of_cells(
        puzzle,
        vars.iter().map(|&k| crate::encode::x_of_index(n, k - 1)),
    )
}

/// Reads a clasp or clingo answer to `puzzle`, handing each model and the final word to
/// `each`; see the module docs.
///
/// # Errors
/// [`AnswerError`] with the place of the first problem.
pub fn read_clasp(
    puzzle: &Grid,
    input: &mut dyn BufRead,
    each: &mut dyn FnMut(Claim) -> bool,
) -> Result<(), AnswerError> {
    // The first character that is not a blank says JSON or text.
    let json = loop {
        let buffer = input
            .fill_buf()
            .map_err(|e| answer_error(1, 1, format!("read error: {e}")))?;
        match buffer.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) => break buffer[i] == b'{',
            None if buffer.is_empty() => break false,
            None => {
                let len = buffer.len();
                input.consume(len);
            }
        }
    };
    if json {
        read_json(puzzle, input, each)
    } else {
        read_text(puzzle, input, each)
    }
}

/// The 0-based cell and value of an atom `x(R,C,V)` of an order-`n` puzzle.
fn atom_cell(token: &str, n: usize) -> Result<(usize, usize, usize), String> {
    let numbers: Option<Vec<usize>> = token
        .strip_prefix("x(")
        .and_then(|rest| rest.strip_suffix(')'))
        .map(|inner| inner.split(',').map(|a| a.parse().ok()).collect())
        .unwrap_or(None);
    match numbers.as_deref() {
        Some(&[r, c, v]) if [r, c, v].iter().all(|&x| (1..=n).contains(&x)) => {
            Ok((r - 1, c - 1, v - 1))
        }
        Some(&[r, c, v]) => Err(format!(
            "x({r},{c},{v}) is outside the {n}×{n} grid: an answer to another puzzle?"
        )),
        _ => Err(format!(
            "'{token}' is not an atom x(R,C,V) with three numbers"
        )),
    }
}

/// The `clasp` answer reader.
pub const CLASP_READER: AnswerReader = AnswerReader {
    name: "clasp",
    format: "opb",
    summary: "clasp or clingo output: 's'/'v' lines for OPB (also RoundingSat, Exact), answer sets of x(R,C,V) for ASP (every model of -n 0), or the JSON of --outf=2",
    read: |puzzle, _, input, each| read_clasp(puzzle, input, each),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    /// Every claim of an answer.
    fn read_all(puzzle: &str, text: &str) -> Result<Vec<Claim>, AnswerError> {
        let mut claims = Vec::new();
        read_clasp(
            &parse_line(puzzle, None).unwrap(),
            &mut text.as_bytes(),
            &mut |c| {
                claims.push(c);
                true
            },
        )?;
        Ok(claims)
    }

    fn read(puzzle: &str, text: &str) -> Result<Claim, AnswerError> {
        Ok(read_all(puzzle, text)?.remove(0))
    }

    const OPB: &str = "c clasp version 3.3.5\nc Reading from p.opb\nc Solving...\nc Answer: 1\n\
        v x1 -x2 -x3 -x4 -x5 -x6 x7 -x8 -x9 -x10 -x11 x12 -x13 x14 -x15 -x16\ns SATISFIABLE\n\
        c Models : 1\n";

    #[test]
    fn opb_answers_decode_to_cells() {
        // 1×2 boxes: order 2, variables x1..x8, so x12 is outside: not an answer to it.
        let error = read("1...", OPB).unwrap_err().to_string();
        assert!(
            error.starts_with("line 5, column 33: x9 is not a variable"),
            "{error}"
        );
        let two = "c\nv x1 -x2 -x3 x4\nv -x5 x6 x7 -x8\ns SATISFIABLE\n";
        let Claim::Grid(grid) = read("1...", two).unwrap() else {
            panic!()
        };
        assert_eq!(crate::text::to_text(&grid), "1221");
        assert_eq!(read("1...", "s UNSATISFIABLE\n").unwrap(), Claim::Unsat);
        assert_eq!(read("1...", "s UNKNOWN\n").unwrap(), Claim::Unknown);
    }

    #[test]
    fn answer_sets_decode_to_cells_one_by_one() {
        let text = "clingo version 5.4.1\nReading from p.asp\nSolving...\nAnswer: 1\n\
            x(1,1,1) x(1,2,2) done x(2,1,2) x(2,2,1)\nSATISFIABLE\n\nModels       : 1+\n";
        let claims = read_all("1...", text).unwrap();
        assert_eq!(claims.len(), 1, "one model, and nothing said of others");
        let Claim::Grid(grid) = &claims[0] else {
            panic!()
        };
        assert_eq!(crate::text::to_text(grid), "1221");
        let partial = text.replace(" x(2,2,1)", "");
        assert!(
            matches!(read("1...", &partial), Ok(Claim::NotAGrid(why)) if why.contains("(2,2)"))
        );
        assert_eq!(read("1...", "UNSATISFIABLE\n").unwrap(), Claim::Unsat);
        // An enumeration that ran to its end: the models, then "no other".
        let all = "Answer: 1\nx(1,1,1) x(1,2,2) x(2,1,2) x(2,2,1)\nAnswer: 2\nx(1,1,2) x(1,2,1) x(2,1,1) x(2,2,2)\nSATISFIABLE\n\nModels       : 2\n";
        let claims = read_all("....", all).unwrap();
        assert_eq!(claims.len(), 3);
        assert_eq!(claims[2], Claim::Unsat);
        // Stopping after the first model reads no further.
        let mut seen = 0;
        read_clasp(
            &parse_line("....", None).unwrap(),
            &mut all.as_bytes(),
            &mut |_| {
                seen += 1;
                false
            },
        )
        .unwrap();
        assert_eq!(seen, 1);
    }

    #[test]
    fn contradictory_answers_are_refused_with_their_places() {
        // 1... is of order 2: xK is x(r,c,v) numbered from 1 in that order, x1 = x(1,1,1).
        let cases = [
            // The OPB form: a model, then unsatisfiable.
            (
                "v x1 -x2 -x3 x4 -x5 x6 x7 -x8\ns UNSATISFIABLE\n",
                "line 2, column 3: UNSATISFIABLE after 1 model: the answer contradicts itself",
            ),
            // A variable set both ways.
            (
                "s SATISFIABLE\nv x1 -x2 -x3 x4\nv -x1 x6 x7 -x8\n",
                "line 3, column 3: x1 is both true and false",
            ),
            // Answer sets: the same one twice, a count that differs, unsatisfiable after one.
            (
                "Answer: 1\nx(1,1,1) x(1,2,2) x(2,1,2) x(2,2,1)\nAnswer: 2\n\
                 x(2,2,1) x(1,1,1) x(1,2,2) x(2,1,2)\nSATISFIABLE\n",
                "line 4, column 1: model 2 repeats model 1 (line 2): the same solution given \
                 twice",
            ),
            (
                "Answer: 1\nx(1,1,1) x(1,2,2) x(2,1,2) x(2,2,1)\nSATISFIABLE\n\n\
                 Models       : 3\n",
                "line 5, column 16: 'Models' says 3 models, the answer gives 1",
            ),
            (
                "Answer: 1\nx(1,1,1) x(1,2,2) x(2,1,2) x(2,2,1)\nUNSATISFIABLE\n",
                "line 3, column 1: UNSATISFIABLE after 1 model: the answer contradicts itself",
            ),
            // JSON: a witness twice, a number of models that differs, unsatisfiable with a
            // witness, a variable both ways.
            (
                "{\"Call\": [{\"Witnesses\": [\n{\"Value\": [1, -2, -3, 4, -5, 6, 7, -8]},\n\
                 {\"Value\": [1, -2, -3, 4, -5, 6, 7, -8]}\n]}], \"Result\": \"SATISFIABLE\"}\n",
                "line 4, column 1: model 2 repeats model 1 (line 2): the same solution given \
                 twice",
            ),
            (
                "{\"Call\": [{\"Witnesses\": [\n{\"Value\": [1, -2, -3, 4, -5, 6, 7, -8]}\n]}],\n\
                 \"Result\": \"SATISFIABLE\",\n\"Models\": {\"Number\": 5, \"More\": \"no\"}}\n",
                "line 5, column 38: \"Models\": \"Number\" says 5 models, the answer gives 1",
            ),
            (
                "{\"Call\": [{\"Witnesses\": [\n{\"Value\": [1, -2, -3, 4, -5, 6, 7, -8]}\n]}],\n\
                 \"Result\": \"UNSATISFIABLE\"}\n",
                "line 4, column 26: \"Result\": UNSATISFIABLE after 1 model: the answer \
                 contradicts itself",
            ),
            (
                "{\"Call\": [{\"Witnesses\": [\n{\"Value\": [1, -2, -1]}]}]}\n",
                "line 2, column 23: variable 1 is both true and false in a witness",
            ),
        ];
        for (text, message) in cases {
            let error = read_all("1...", text).unwrap_err().to_string();
            assert_eq!(error, message, "{text}");
        }
    }

    #[test]
    fn json_witnesses_are_models() {
        let json = r#"{
  "Solver": "clingo version 5.4.1",
  "Call": [
    {
      "Witnesses": [
        { "Value": [ "x(1,1,1)", "x(1,2,2)", "x(2,1,2)", "x(2,2,1)" ] },
        { "Value": [ "x(1,1,2)", "x(1,2,1)", "x(2,1,1)", "x(2,2,2)" ] }
      ]
    }
  ],
  "Result": "SATISFIABLE",
  "Models": { "Number": 2, "More": "no" }
}"#;
        let claims = read_all("....", json).unwrap();
        assert_eq!(claims.len(), 3);
        assert!(matches!(claims[0], Claim::Grid(_)) && matches!(claims[1], Claim::Grid(_)));
        assert_eq!(claims[2], Claim::Unsat);
        let opb = r#"{"Call": [{"Witnesses": [{"Value": [1, -2, -3, 4, -5, 6, 7, -8]}]}], "Result": "SATISFIABLE", "Models": {"Number": 1, "More": "yes"}}"#;
        let claims = read_all("1...", opb).unwrap();
        assert_eq!(claims.len(), 1);
        let unsat =
            r#"{"Call": [{}], "Result": "UNSATISFIABLE", "Models": {"Number": 0, "More": "no"}}"#;
        assert_eq!(read_all("1...", unsat).unwrap(), vec![Claim::Unsat]);
        let error = read("1...", r#"{"Call": [{"Witnesses": [{"Value": [1, 99]}]}]}"#)
            .unwrap_err()
            .to_string();
        assert!(error.contains("99 is not a literal"), "{error}");
        let error = read("1...", "{\"Call\": [").unwrap_err().to_string();
        assert!(error.starts_with("line 1"), "{error}");
    }

    #[test]
    fn errors_have_places() {
        let cases = [
            ("", "line 1, column 1: no status line"),
            ("s MAYBE\n", "line 1, column 3: unknown status 'MAYBE'"),
            (
                "v x1 y2\ns SATISFIABLE\n",
                "line 1, column 6: 'y2' is not a literal",
            ),
            (
                "Answer: 1\nx(1,1)\nSATISFIABLE\n",
                "line 2, column 1: 'x(1,1)' is not an atom",
            ),
            (
                "Answer: 1\nx(1,1,3)\nSATISFIABLE\n",
                "line 2, column 1: x(1,1,3) is outside the 2×2 grid",
            ),
            (
                "SATISFIABLE\n",
                "line 2, column 1: a satisfiable answer without its model",
            ),
        ];
        for (text, message) in cases {
            let error = read("1...", text).unwrap_err().to_string();
            assert!(error.starts_with(message), "{error}");
        }
    }
}
