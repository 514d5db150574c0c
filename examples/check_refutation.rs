//! Checks a SAT solver's refutation proof (DRAT, RUP or FRAT) of a DIMACS formula with sudokit's
//! two proof checkers: the forward DRAT checker writes the proof's LRAT form, which the LRAT
//! checker checks again; both must accept. Prints the verdict and the time it took.
//!
//! ```text
//! cargo run --release --example check_refutation -- FORMULA.cnf PROOF [drat|rup|frat]
//! ```
//!
//! Without arguments it checks the proofs of `tests/fixtures/proofs` against the 9×9 puzzle they
//! were written for: CaDiCaL's real proof (accepted), and the same proof cut in half (refused).

use std::io::BufReader;
use std::time::Instant;

use sudokit::external::certify::{ProofCheck, check_refutation};
use sudokit::format::clausal_proof::ProofFormat;
use sudokit::format::dimacs::{formula_excluding, read_cnf};

/// top95 line 1 with a 1 added at r1c4: unsatisfiable, and propagation alone does not say so.
const UNSAT: &str =
    "4..1..8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let checks: Vec<(String, sudokit::encode::Cnf, String, ProofFormat)> = match args.as_slice() {
        [] => {
            let cnf = formula_excluding(&UNSAT.parse()?, Default::default(), &[]);
            ["unsat_9x9.drat", "truncated.drat"]
                .iter()
                .map(|proof| {
                    (
                        format!("the 9×9 puzzle {UNSAT}"),
                        cnf.clone(),
                        format!("tests/fixtures/proofs/{proof}"),
                        ProofFormat::Drat,
                    )
                })
                .collect()
        }
        [formula, proof, rest @ ..] if rest.len() <= 1 => {
            let format = match rest.first() {
                Some(name) => name.parse::<ProofFormat>()?,
                None => ProofFormat::Drat,
            };
            let cnf = read_cnf(BufReader::new(std::fs::File::open(formula)?))?;
            vec![(formula.clone(), cnf, proof.clone(), format)]
        }
        _ => return Err("usage: check_refutation [FORMULA.cnf PROOF [drat|rup|frat]]".into()),
    };
    for (formula, cnf, proof, format) in checks {
        let started = Instant::now();
        let mut reader = BufReader::with_capacity(1 << 16, std::fs::File::open(&proof)?);
        let verdict = check_refutation(&cnf, format, &mut reader, &|| None);
        let seconds = started.elapsed().as_secs_f64();
        match verdict {
            ProofCheck::Accepted {
                steps,
                ignored_deletions,
            } => println!(
                "{proof}: refutes {formula}: accepted ({steps} steps, {ignored_deletions} deletions \
                 ignored) in {seconds:.3} s"
            ),
            ProofCheck::Rejected(why) => {
                println!("{proof}: refused in {seconds:.3} s: {why}")
            }
            ProofCheck::Stopped(reason) => println!("{proof}: stopped ({reason})"),
        }
    }
    Ok(())
}
