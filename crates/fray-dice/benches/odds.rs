//! Exact distributions of the reference cases, parse included (`cargo bench -p fray-dice`).
//! `bench/icepool_bench.py` times icepool on the same cases; BENCHMARKS.md has both.

use fray_dice::{Options, Program};

fn main() {
    divan::main();
}

/// Every case, in fray notation (the order of bench/icepool_bench.py).
const CASES: &[&str] = &[
    "3d6",
    "30d6",
    "3d6kh3",
    "4d6kh3",
    "5d6kh3",
    "6d6kh3",
    "4d6kl3",
    "5d6kl3",
    "6d6kl3",
    "1Dc{20}",
    "2Dc{20}",
    "4Dc{20}",
    "8Dc{20}",
    "12Dc{20}",
    "1d6!!cs>=5cs>=11",
    "5d6!!cs>=5cs>=11",
    "10d6!!cs>=5cs>=11",
    "20d6!!cs>=5cs>=11",
    "40d6!!cs>=5cs>=11",
    "20d6!!cs>=5",
    "40d6!!cs>=11",
    "max(0, d10+3 vs d8+2)",
];

#[divan::bench(args = CASES)]
fn distribution(bencher: divan::Bencher, expr: &str) {
    bencher.bench(|| {
        let program = Program::parse(divan::black_box(expr)).unwrap();
        program.distribution(&Options::default()).unwrap()
    });
}

/// Exact P(X ≥ T) of unlimited explosions through windows.
#[divan::bench(args = ["12D >= 40", "6d6!! >= 30", "40d6!!cs>=5 >= 14"])]
fn at_least(bencher: divan::Bencher, expr: &str) {
    bencher.bench(|| {
        let program = Program::parse(divan::black_box(expr)).unwrap();
        program.probability(fray_dice::Event::AtLeast(1), &Options::default()).unwrap()
    });
}
