//! The streaming DIMACS CNF writer and the comments that describe an encoded puzzle.

use std::io::{self, Write};

use crate::encode::cnf::{Amo, blocking_clause, formula_size};
use crate::encode::cnf::{CnfOptions, CnfSize, Encoded, Encoding, VarMap, encode};
use crate::encode::{ClauseSink, Cnf, Counter, Lit, Var, x_of_index};
use crate::format::entry::{ExportFormat, digits};
use crate::grid::Grid;

/// A streaming DIMACS CNF writer; see the module docs.
pub struct DimacsWriter<W: Write> {
    out: W,
    buffer: Vec<u8>,
    header: (usize, usize),
    vars: usize,
    clauses: usize,
    literals: usize,
    error: Option<io::Error>,
}

const BUFFER: usize = 1 << 16;

impl<W: Write> DimacsWriter<W> {
    /// Writes `comments` (one `c` line each) and the header `p cnf vars clauses`.
    pub fn new(mut out: W, comments: &[String], vars: usize, clauses: usize) -> DimacsWriter<W> {
        let mut buffer = Vec::with_capacity(BUFFER + 64);
        for comment in comments {
            for line in comment.lines() {
                buffer.extend_from_slice(b"c ");
                buffer.extend_from_slice(line.as_bytes());
                buffer.push(b'\n');
            }
        }
        let _ = writeln!(buffer, "p cnf {vars} {clauses}");
        let error = out.write_all(&buffer).err();
        buffer.clear();
        DimacsWriter {
            out,
            buffer,
            header: (vars, clauses),
            vars: 0,
            clauses: 0,
            literals: 0,
            error,
        }
    }

    fn flush_buffer(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(&self.buffer)
        {
            self.error = Some(e);
        }
        self.buffer.clear();
    }

    /// Flushes, checks the counts against the header, and returns the output.
    ///
    /// # Errors
    /// The first I/O error met, or [`io::ErrorKind::InvalidData`] when the clauses or variables
    /// written differ from the header.
    pub fn finish(mut self) -> io::Result<W> {
        self.flush_buffer();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if (self.vars, self.clauses) != self.header {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "wrote {} variables and {} clauses under the header p cnf {} {}",
                    self.vars, self.clauses, self.header.0, self.header.1
                ),
            ));
        }
        self.out.flush()?;
        Ok(self.out)
    }

    /// Literal occurrences written so far.
    pub fn literals(&self) -> usize {
        self.literals
    }
}

/// Appends the decimal form of `x` (no allocation).
#[inline]
fn push_int(buffer: &mut Vec<u8>, x: i64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut m = x.unsigned_abs();
    loop {
        i -= 1;
        digits[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if x < 0 {
        buffer.push(b'-');
    }
    buffer.extend_from_slice(&digits[i..]);
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        for &l in clause {
            push_int(&mut self.buffer, l.to_dimacs());
            self.buffer.push(b' ');
        }
        self.buffer.extend_from_slice(b"0\n");
        self.clauses += 1;
        self.literals += clause.len();
        if self.buffer.len() >= BUFFER {
            self.flush_buffer();
        }
    }
}

/// What [`write_cnf`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CnfWritten {
    /// Variables, clauses, literals.
    pub size: CnfSize,
    /// The variable map and the encoder's notes.
    pub encoded: Encoded,
}

/// The comment lines that describe an encoded puzzle.
pub fn cnf_comments(puzzle: &Grid, options: CnfOptions, encoded: &Encoded) -> Vec<String> {
    let shape = puzzle.shape();
    let n = shape.order();
    let mut comments = vec![
        format!(
            "sudokit CNF: {shape}, {} givens, encoding {}, at-most-one {}",
            puzzle.filled(),
            options.encoding,
            options.amo
        ),
        "x(r,c,v) means cell (r,c) holds v; r, c, v are 1-based".to_string(),
        "solve: minisat FILE ANSWER (or picosat, cadical, kissat FILE > ANSWER)".to_string(),
        format!(
            "decode: sudokit decode PUZZLE --from minisat{} ANSWER (--from dimacs for 's'/'v' \
             lines; PUZZLE: the puzzle file)",
            if options.encoding == Encoding::Optimized {
                " --encoding optimized"
            } else {
                ""
            }
        ),
    ];
    match &encoded.map {
        VarMap::Direct { first, .. } => comments.push(format!(
            "x(r,c,v) = {}(r-1)*{} + (c-1)*{n} + v; variables above {} are auxiliary",
            if *first == 0 {
                String::new()
            } else {
                format!("{first} + ")
            },
            n * n,
            first + n * n * n
        )),
        VarMap::Sparse { slots, .. } => {
            comments.push(format!(
                "optimized (Kwon & Jain): {} open x variables numbered 1..; givens and the values \
                 their peers exclude are fixed; each line 'map VAR R C V' names one",
                encoded.map.x_vars()
            ));
            if encoded.dropped_box_pairs > 0 {
                comments.push(format!(
                    "{} box pairs that repeat a row or column pair are left out",
                    encoded.dropped_box_pairs
                ));
            }
            for (i, &slot) in slots.iter().enumerate().filter(|(_, s)| **s != 0) {
                let (r, c, v) = x_of_index(n, i);
                comments.push(format!("map {slot} {} {} {}", r + 1, c + 1, v + 1));
            }
        }
    }
    if encoded.trivially_unsat {
        comments.push("the givens leave no solution: the formula has an empty clause".into());
    }
    comments
}

/// Encodes `puzzle` and streams it as DIMACS CNF to `out`; see the module docs.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_cnf(puzzle: &Grid, options: CnfOptions, out: impl Write) -> io::Result<CnfWritten> {
    write_cnf_excluding(puzzle, options, &[], out)
}

/// [`write_cnf`] with one blocking clause per grid of `excluded` (solutions already found),
/// after the encoding's clauses: the formula's models are the other solutions.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_cnf_excluding(
    puzzle: &Grid,
    options: CnfOptions,
    excluded: &[Grid],
    out: impl Write,
) -> io::Result<CnfWritten> {
    let mut counter = Counter::default();
    let encoded = encode(puzzle, options, &mut counter);
    let blocking: Vec<Vec<Lit>> = excluded
        .iter()
        .map(|grid| blocking_clause(puzzle, &encoded.map, grid))
        .collect();
    for clause in &blocking {
        counter.add_clause(clause);
    }
    let mut comments = cnf_comments(puzzle, options, &encoded);
    if !excluded.is_empty() {
        comments.push(format!(
            "the last {} clauses rule out solutions already found",
            excluded.len()
        ));
    }
    let mut writer = DimacsWriter::new(out, &comments, counter.vars, counter.clauses);
    let again = encode(puzzle, options, &mut writer);
    debug_assert_eq!(again, encoded);
    for clause in &blocking {
        writer.add_clause(clause);
    }
    writer.finish()?;
    Ok(CnfWritten {
        size: CnfSize {
            vars: counter.vars,
            clauses: counter.clauses,
            literals: counter.literals,
        },
        encoded,
    })
}

/// The formula [`write_cnf_excluding`] writes, in memory: the encoding's clauses, then one
/// blocking clause per grid of `excluded` (what a refutation proof of the file is checked
/// against: the formula sudokit wrote, not the file, which the solver could have changed).
pub fn formula_excluding(puzzle: &Grid, options: CnfOptions, excluded: &[Grid]) -> Cnf {
    let mut cnf = Cnf::new();
    let encoded = encode(puzzle, options, &mut cnf);
    for grid in excluded {
        cnf.add_clause(&blocking_clause(puzzle, &encoded.map, grid));
    }
    cnf
}

/// Writes an in-memory formula.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_formula(cnf: &Cnf, comments: &[String], out: impl Write) -> io::Result<()> {
    let mut writer = DimacsWriter::new(out, comments, cnf.vars(), cnf.len());
    cnf.replay(&mut writer);
    writer.finish().map(|_| ())
}

/// The variable map `encoding` gives `puzzle`, without writing the clauses (for decoding).
pub fn var_map(puzzle: &Grid, encoding: Encoding) -> VarMap {
    let mut counter = Counter::default();
    encode(
        puzzle,
        CnfOptions {
            encoding,
            ..CnfOptions::default()
        },
        &mut counter,
    )
    .map
}

/// The `cnf` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "cnf",
    aliases: &[],
    extension: "cnf",
    comment: "c",
    comment_end: "",
    first_line_fixed: false,
    summary: "DIMACS CNF (minisat, picosat, cadical, kissat, ...); --encoding and --amo choose the encoding",
    takes_cnf_options: true,
    takes_smt_encoding: false,
    answers: &["dimacs", "minisat"],
    companion: None,
    write: |puzzle, options, out| {
        let cnf = options.cnf;
        let written = write_cnf(puzzle, cnf, out)?;
        let mut text = format!(
            "cnf {}/{}: {} variables, {} clauses, {} literals",
            cnf.encoding, cnf.amo, written.size.vars, written.size.clauses, written.size.literals
        );
        if cnf.encoding == Encoding::Optimized {
            text.push_str(&format!(
                ", {} open x variables; dropped {} box pairs that repeat a row or column pair",
                written.encoded.map.x_vars(),
                written.encoded.dropped_box_pairs,
            ));
            if cnf.amo != Amo::Pairwise {
                text.push_str(" (only pairwise AMO drops pairs)");
            }
        }
        Ok(text)
    },
    exclude: Some(|puzzle, options, excluded, out| {
        write_cnf_excluding(puzzle, options.cnf, excluded, out).map(|_| ())
    }),
    estimate: |puzzle, options| {
        let shape = puzzle.shape();
        let n = shape.order() as u128;
        // The optimized encoding is estimated by the extended one it simplifies (an upper bound).
        let bound = CnfOptions {
            encoding: match options.cnf.encoding {
                Encoding::Optimized => Encoding::Extended,
                other => other,
            },
            amo: options.cnf.amo,
        };
        let size = formula_size(shape, bound, puzzle.filled()).expect("closed form");
        let (vars, clauses, literals) = (
            size.vars as u128,
            size.clauses as u128,
            size.literals as u128,
        );
        let map = if options.cnf.encoding == Encoding::Optimized {
            // One `c map VAR R C V` line per x variable.
            n * n * n * (7 + digits(vars) + 3 * digits(n))
        } else {
            0
        };
        u64::try_from(literals * (digits(vars) + 2) + clauses * 2 + map).unwrap_or(u64::MAX)
    },
};
