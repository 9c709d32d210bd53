//! The exact evaluator against the naive enumerator, on random small expressions (property
//! tests), and unlimited explosions against their own truncations.

use fray_dice::{BigRational, Event, Options, Program, Value, fraction, naive};
use num_traits::Zero;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn cmp_op() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![">=", ">", "<=", "<", "==", "!="])
}

fn pool() -> impl Strategy<Value = String> {
    (0u32..=3, 1u32..=4, 0u8..=2, 0u32..=2, 0u8..=4, 0u32..=3, cmp_op(), 0i64..=7).prop_map(
        |(count, sides, explode, depth, modifier, n, op, threshold)| {
            let mut s = format!("{count}d{sides}");
            let explodes = sides >= 2 && explode > 0;
            if explodes {
                s += if explode == 1 { "!" } else { "!!" };
                s += &format!("{{{depth}}}");
            }
            let n = n.min(count);
            match modifier {
                1 if !(explodes && explode == 1) => s += &format!("kh{n}"),
                2 if !(explodes && explode == 1) => s += &format!("kl{n}"),
                3 if !(explodes && explode == 1) => s += &format!("dh{n}"),
                4 => s += &format!("cs{op}{threshold}"),
                _ => {}
            }
            s
        },
    )
}

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        (-3i64..=5).prop_map(|v| if v < 0 { format!("({v})") } else { v.to_string() }),
        pool(),
        (0u32..=3, any::<bool>(), 0u32..=2).prop_map(|(k, c, d)| format!("{k}D{}{{{d}}}", if c { "c" } else { "" })),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    leaf().prop_recursive(3, 8, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) + ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) - ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) * ({b})")),
            (inner.clone(), prop::sample::select(vec![-3i64, -2, 2, 3])).prop_map(|(a, c)| format!("({a}) / ({c})")),
            inner.clone().prop_map(|a| format!("-({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) vs ({b})")),
            (inner.clone(), cmp_op(), inner.clone()).prop_map(|(a, op, b)| format!("({a}) {op} ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            inner.prop_map(|a| format!("abs({a})")),
        ]
    })
}

fn exact(program: &Program) -> BTreeMap<Value, BigRational> {
    let dist = program.distribution(&Options::default()).unwrap();
    assert!(dist.residual().is_zero(), "{}: written depths leave no residual", program.source());
    dist.outcomes().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn exact_matches_naive_enumeration(source in expr()) {
        let program = Program::parse(&source).unwrap_or_else(|e| panic!("{e}"));
        let Ok(oracle) = naive::enumerate(&program, 20_000) else { return Ok(()) };
        prop_assert_eq!(exact(&program), oracle.clone(), "{}", source);
        // Windowed events agree with the oracle's tails for thresholds around the support.
        let values: Vec<i64> = oracle.keys().filter_map(|v| v.as_int()).collect();
        let (lo, hi) = (values[0] - 1, values[values.len() - 1] + 1);
        for t in [lo, values[values.len() / 2], hi] {
            let ge: BigRational = oracle.iter().filter(|(v, _)| v.as_int().unwrap() >= t).map(|(_, p)| p).sum();
            let le: BigRational = oracle.iter().filter(|(v, _)| v.as_int().unwrap() <= t).map(|(_, p)| p).sum();
            let got = program.probability(Event::AtLeast(t), &Options::default()).unwrap();
            prop_assert_eq!(fraction(&got.p), fraction(&ge), "{} >= {}", source, t);
            let got = program.probability(Event::AtMost(t), &Options::default()).unwrap();
            prop_assert_eq!(fraction(&got.p), fraction(&le), "{} <= {}", source, t);
        }
    }

    #[test]
    fn tuple_counts_match_naive_enumeration(
        count in 0u32..=4, sides in 2u32..=6, depth in 0u32..=2, compound in any::<bool>(),
        a in (cmp_op(), 0i64..=9), b in (cmp_op(), 0i64..=9),
    ) {
        let explode = if compound { format!("!!{{{depth}}}") } else { String::new() };
        let source = format!("{count}d{sides}{explode}cs{}{}cs{}{}", a.0, a.1, b.0, b.1);
        let program = Program::parse(&source).unwrap();
        let Ok(oracle) = naive::enumerate(&program, 50_000) else { return Ok(()) };
        prop_assert_eq!(exact(&program), oracle, "{}", source);
    }

    #[test]
    fn unlimited_explosions_are_exact_under_windows(
        count in 1u32..=3, sides in 2u32..=6, t in 0i64..=30, bonus in -3i64..=3, code in any::<bool>(),
    ) {
        // The exact P(X ≥ t) of an unlimited explosion must lie within what its truncation at
        // depth d places: [P(truncated X ≥ t), P(truncated X ≥ t) + residual], for any d.
        let source = if code { format!("{count}D + {bonus}") } else { format!("{count}d{sides}!! + {bonus}") };
        let program = Program::parse(&source).unwrap();
        let exact = program.probability(Event::AtLeast(t), &Options::default()).unwrap();
        prop_assert!(exact.residual.is_zero());
        for depth in [0, 2, 6] {
            let dist = program.distribution(&Options { depth }).unwrap();
            let ge: BigRational = dist.outcomes().filter(|(v, _)| v.as_int().unwrap() >= t).map(|(_, p)| p).sum();
            prop_assert!(ge <= exact.p && exact.p <= ge.clone() + dist.residual(), "{} >= {} at depth {}", source, t, depth);
        }
    }
}

#[test]
fn differences_of_unlimited_explosions_are_bounded_not_exact() {
    // A difference of two unlimited explosions has no finite window: the answer is a bound whose
    // width is the residual, and a deeper truncation narrows it.
    let program = Program::parse("d6!! vs d6!!").unwrap();
    let shallow = program.probability(Event::AtLeast(1), &Options { depth: 3 }).unwrap();
    let deep = program.probability(Event::AtLeast(1), &Options { depth: 12 }).unwrap();
    assert!(!shallow.residual.is_zero());
    assert!(deep.residual < shallow.residual);
    assert!(shallow.p <= deep.p && deep.p.clone() + deep.residual.clone() <= shallow.p + shallow.residual);
    // By symmetry P(win) = (1 − P(tie))/2 = 3/7 with P(tie) = 1/7 (Phase Six R25).
    let three_sevenths = BigRational::new(3.into(), 7.into());
    assert!(deep.p <= three_sevenths && three_sevenths <= deep.p + deep.residual);
}
