//! The roller: value stability (a fixed seed gives fixed faces) and goodness of fit against the
//! exact distribution.

use fray_dice::{Options, Program, Value, seeded};
use num_traits::ToPrimitive;
use std::collections::BTreeMap;

#[test]
fn a_seed_gives_the_same_faces_everywhere() {
    // ChaCha8 seeded with 42, through fray's own unbiased range reduction: pinned for good.
    let mut source = seeded(42);
    let faces: Vec<u32> = (0..20).map(|_| source.uniform(6)).collect();
    assert_eq!(faces, [2, 5, 1, 6, 5, 3, 3, 4, 5, 2, 4, 1, 2, 2, 1, 5, 4, 5, 5, 2]);
    let mut source = seeded(7);
    let faces: Vec<u32> = (0..8).map(|_| source.uniform(20)).collect();
    assert_eq!(faces, [3, 4, 4, 4, 6, 15, 1, 15]);
}

#[test]
fn a_seed_gives_the_same_roll_everywhere() {
    let program = Program::parse("4d6kh3 + 4D + 6d6!!cs>=5").unwrap();
    let roll = program.roll(&mut seeded(2024)).unwrap();
    let faces: Vec<Vec<u32>> = roll.groups.iter().flat_map(|g| g.dice.iter().map(|d| d.tosses.clone())).collect();
    assert_eq!(
        (roll.value, faces),
        (
            Value::Int(40),
            vec![
                vec![5],
                vec![2],
                vec![6],
                vec![6],
                vec![5],
                vec![5],
                vec![3],
                vec![6, 2],
                vec![5],
                vec![2],
                vec![3],
                vec![6, 1],
                vec![4],
                vec![2]
            ]
        )
    );
    // Sampling without provenance gives the same value from the same seed.
    assert_eq!(program.sample(&mut seeded(2024)).unwrap(), roll.value);
}

/// Pearson's chi-square of `n` samples against the exact distribution, with bins of small
/// expectation merged; returns (statistic, degrees of freedom).
fn chi_square(expr: &str, n: u32, seed: u64) -> (f64, usize) {
    let program = Program::parse(expr).unwrap();
    let dist = program.distribution(&Options { depth: 30 }).unwrap();
    let mut observed: BTreeMap<Value, u32> = BTreeMap::new();
    let mut source = seeded(seed);
    for _ in 0..n {
        *observed.entry(program.sample(&mut source).unwrap()).or_default() += 1;
    }
    let mut bins: Vec<(f64, f64)> = Vec::new();
    let (mut e_acc, mut o_acc) = (0.0, 0.0);
    for (value, p) in dist.outcomes() {
        e_acc += p.to_f64().unwrap() * f64::from(n);
        o_acc += f64::from(observed.remove(&value).unwrap_or(0));
        if e_acc >= 10.0 {
            bins.push((e_acc, o_acc));
            (e_acc, o_acc) = (0.0, 0.0);
        }
    }
    assert!(observed.is_empty(), "{expr}: sampled values outside the support: {observed:?}");
    let last = bins.last_mut().unwrap();
    last.0 += e_acc;
    last.1 += o_acc;
    let stat = bins.iter().map(|(e, o)| (o - e) * (o - e) / e).sum();
    (stat, bins.len() - 1)
}

#[test]
fn samples_fit_the_exact_distribution() {
    for (i, expr) in [
        "3d6",
        "4d6kh3",
        "5d6kl3",
        "4D",
        "3Dc",
        "6d6!!cs>=5",
        "5d6!!cs>=5cs>=11",
        "d10+3 vs d8+2",
        "max(0, d10+3 vs d8+2)",
        "2d6! + 1",
        "3d4!cs>=4",
        "(d6 + 2) / 3",
    ]
    .into_iter()
    .enumerate()
    {
        let (stat, df) = chi_square(expr, 20_000, 1000 + i as u64);
        // Far beyond the 1e-6 quantile of chi-square for these degrees of freedom; a biased
        // roller (an off-by-one face, a wrong explosion) lands in the hundreds or thousands.
        let bound = df as f64 + 10.0 * (2.0 * df as f64).sqrt() + 20.0;
        assert!(stat < bound, "{expr}: chi-square {stat:.1} with {df} degrees of freedom");
    }
}

#[test]
fn a_biased_roller_would_fail_the_fit() {
    // The test above can fail: the same statistic on a wrong model is huge.
    let program = Program::parse("3d6").unwrap();
    let wrong = Program::parse("3d6 + 1").unwrap();
    let dist = wrong.distribution(&Options::default()).unwrap();
    let mut source = seeded(5);
    let mut counts: BTreeMap<Value, f64> = BTreeMap::new();
    for _ in 0..20_000 {
        *counts.entry(program.sample(&mut source).unwrap()).or_default() += 1.0;
    }
    let stat: f64 = dist
        .outcomes()
        .map(|(v, p)| {
            let e = p.to_f64().unwrap() * 20_000.0;
            let o = counts.get(&v).copied().unwrap_or(0.0);
            (o - e) * (o - e) / e
        })
        .sum();
    assert!(stat > 1000.0, "{stat}");
}
