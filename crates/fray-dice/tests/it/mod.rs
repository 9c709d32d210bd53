//! Test modules.

mod catalogue;
mod errors;
mod oracle;
mod reference;
mod sampling;

use fray_dice::{Event, Options, Program, fraction};

/// P(expr ≥ t), exact, as `num/den`.
#[track_caller]
pub fn at_least(expr: &str, t: i64) -> String {
    let program = Program::parse(expr).unwrap_or_else(|e| panic!("{e}"));
    let p = program.probability(Event::AtLeast(t), &Options::default()).unwrap();
    assert_eq!(fraction(&p.residual), "0/1", "{expr} >= {t} is not exact");
    fraction(&p.p)
}

/// The exact mean, as `num/den`.
#[track_caller]
pub fn mean(expr: &str) -> String {
    let program = Program::parse(expr).unwrap_or_else(|e| panic!("{e}"));
    fraction(&program.mean(&Options::default()).unwrap().expect("an exact mean"))
}

/// P(expr = v) from the full distribution, as `num/den`.
#[track_caller]
pub fn p_eq(expr: &str, v: i64) -> String {
    let program = Program::parse(expr).unwrap_or_else(|e| panic!("{e}"));
    let dist = program.distribution(&Options::default()).unwrap();
    fraction(&dist.probability(&fray_dice::Value::Int(v)))
}
