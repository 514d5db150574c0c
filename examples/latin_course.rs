//! The course example from the library: two 3×3 partial Latin squares carried through every
//! level of the chain — the square, its Sudoku, the Sudoku's CNF (varisat), 0-1 ILP (microlp),
//! exact cover (dancing links) and precoloured graph (DSATUR) — each answer checked at its level
//! and mapped back to the square; the course page drawn from the same results.
//!
//! `cargo run --example latin_course` (writes `course.html` in the current directory)

use sudokit::reduce::course::{CourseOptions, CourseVerdict, LevelAnswer, run_course};
use sudokit::render::course::{CoursePage, evidence_words, one_line};
use sudokit::text::{ShapeSpec, parse_line};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut page = CoursePage::new("Latin square completion through every formalism");
    for (index, square) in ["1.......3", "12...3..."].into_iter().enumerate() {
        let latin = parse_line(square, Some(ShapeSpec::Latin))?;
        let course = run_course(
            &latin,
            &CourseOptions::default(),
            &format!("square{}", index + 1),
        )?;
        println!("{square}:");
        for run in &course.levels {
            let answer = match &run.answer {
                LevelAnswer::Completed {
                    witness,
                    completion,
                    ..
                } => format!("{witness}; completion {}", one_line(completion)),
                LevelAnswer::NoCompletion(evidence) => format!("no: {}", evidence_words(evidence)),
                LevelAnswer::Unknown(reason) => format!("unknown ({reason})"),
                LevelAnswer::Skipped(why) => format!("not run ({why})"),
            };
            println!("  {} by {}: {answer}", run.instance, run.solver);
        }
        // The distinct completions: which completion each level found (a square with several
        // completions lets each solver pick its own), and how many there are, counted where cheap.
        let distinct = course.distinct_completions();
        match &course.verdict {
            CourseVerdict::Completed(_) if distinct.one_completion() => {
                println!(
                    "  every level: the same completion {}",
                    one_line(&distinct.completions[0])
                );
            }
            CourseVerdict::Completed(_) => println!(
                "  the levels found {} different completions",
                distinct.completions.len()
            ),
            CourseVerdict::NoCompletion => println!("  every level: no completion"),
            CourseVerdict::Unknown => println!("  undecided"),
        }
        if let Some(count) = course.completions {
            println!("  the square has {}", count.of("completion"));
        }
        if let Some(conflict) = &course.conflict {
            println!("  a minimal conflict: {}", one_line(&conflict.givens));
            if let Some(why) = conflict.hall_violation() {
                println!("  why: {why}");
            }
        }
        page.push(index + 1, index + 1, course);
    }
    std::fs::write("course.html", page.to_html())?;
    println!("course.html written");
    Ok(())
}
