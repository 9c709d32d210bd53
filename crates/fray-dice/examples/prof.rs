//! Profiling helper: `cargo run --release --example prof -- EXPR N` times N exact distributions.
fn main() {
    let expr = std::env::args().nth(1).expect("an expression");
    let n: u32 = std::env::args().nth(2).map_or(1000, |s| s.parse().expect("a count"));
    let t = std::time::Instant::now();
    for _ in 0..n {
        let p = fray_dice::Program::parse(&expr).expect("a valid expression");
        std::hint::black_box(p.distribution(&fray_dice::Options::default()).expect("a distribution"));
    }
    eprintln!("{:?} per run", t.elapsed() / n);
}
