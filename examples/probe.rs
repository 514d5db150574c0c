use sudokit::solve::{Limits, Native, Solver};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let grids: Vec<_> = text
        .lines()
        .take(2000)
        .map(|l| sudokit::text::parse_line(l, None).unwrap())
        .collect();
    let t = std::time::Instant::now();
    let (mut nodes, mut guesses, mut props) = (0, 0, 0);
    for _ in 0..5 {
        for g in &grids {
            let r = Native.solve(g, &Limits::none()).unwrap();
            nodes += r.stats.nodes;
            guesses += r.stats.guesses;
            props += r.stats.propagations;
        }
    }
    let n = 5 * grids.len() as u64;
    println!(
        "{:.2} us/puzzle nodes {:.1} guesses {:.1} props {:.1}",
        t.elapsed().as_secs_f64() * 1e6 / n as f64,
        nodes as f64 / n as f64,
        guesses as f64 / n as f64,
        props as f64 / n as f64
    );
}
