//! Bad input: every error names what is wrong and points at it; limits are refused at once;
//! no input makes the library panic.

use fray_dice::{ErrorKind, Event, Options, Program, Scripted, seeded};
use proptest::prelude::*;
use std::time::Instant;

/// The error an expression gives, as the terminal shows it.
#[track_caller]
fn check_err(expr: &str, want: &str) {
    let err = Program::parse(expr).err().unwrap_or_else(|| panic!("{expr} parsed"));
    assert_eq!(err.to_string(), want.trim_start_matches('\n'), "{expr}");
}

#[test]
fn syntax_errors_point_at_the_problem() {
    check_err(
        "3d+2",
        "
error: expected the number of sides after `d`, e.g. `d6` or `d%`
  3d+2
    ^",
    );
    check_err(
        "3d6 +",
        "
error: expected a number, dice, `(` or a function
  3d6 +
       ^",
    );
    check_err(
        "(2d6 + 3",
        "
error: expected `)` to close this parenthesis
  (2d6 + 3
  ^",
    );
    check_err(
        "2d6 ) ",
        "
error: unexpected `)`
  2d6 ) 
      ^",
    );
    check_err(
        "4D6",
        "
error: `D` writes an OpenD6 die code (`4D` is three d6 and a Wild Die); for plain dice write `4d6`
  4D6
  ^^",
    );
    check_err(
        "4d6x3",
        "
error: unknown dice modifier; expected `!`, `!!`, `kh`, `kl`, `dh`, `dl` or `cs`
  4d6x3
     ^",
    );
    check_err(
        "foo(3)",
        "
error: unknown name `foo`; expected dice (`3d6`, `4D`) or one of max, min, abs
  foo(3)
  ^^^",
    );
    check_err(
        "1 < 2 < 3",
        "
error: comparisons cannot be chained; use parentheses
  1 < 2 < 3
        ^",
    );
    check_err(
        "6d6cs",
        "
error: expected a comparison after `cs`, e.g. `cs>=5`
  6d6cs
       ^",
    );
    check_err(
        "2d6 + ½",
        "
error: expected a number, dice, `(` or a function
  2d6 + ½
        ^",
    );
}

#[test]
fn meaning_errors_point_at_the_problem() {
    check_err(
        "3d6kh4",
        "
error: cannot keep 4 of 3 dice
  3d6kh4
  ^^^^^^",
    );
    check_err(
        "d1!",
        "
error: a one-sided die cannot explode: it would never stop
  d1!
  ^^^",
    );
    check_err(
        "2d6 / (3 - 3)",
        "
error: division by zero
  2d6 / (3 - 3)
        ^^^^^^^",
    );
    check_err(
        "10 / d6",
        "
error: the divisor must be a constant (no dice)
  10 / d6
       ^^",
    );
    check_err(
        "1 + 6d6!!cs>=5cs>=11",
        "
error: a pool with several `cs` counts gives a tuple; it must be the whole expression
  1 + 6d6!!cs>=5cs>=11
      ^^^^^^^^^^^^^^^^",
    );
    check_err(
        "4d6!kh3",
        "
error: keep/drop with `!` is ambiguous (each explosion adds a die); use compounding `!!`
  4d6!kh3
  ^^^^^^^",
    );
    check_err(
        "max(3)",
        "
error: `max` takes at least two arguments, found 1
  max(3)
  ^^^^^^",
    );
}

#[test]
fn absurd_requests_are_refused_at_once() {
    let started = Instant::now();
    for (expr, what) in [
        ("1000000000d6", "number of dice"),
        ("d1000000000", "number of sides"),
        ("9999999999", "number"),
        ("d6!!{1000}", "explosion depth"),
        ("6d6cs>=1cs>=2cs>=3cs>=4cs>=5", "number of counts"),
    ] {
        let err = Program::parse(expr).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Limit { what: w, .. } if *w == what), "{expr}: {err}");
    }
    // Past 64 bits a number is named as written.
    let err = Program::parse("99999999999999999999").unwrap_err();
    assert!(err.to_string().contains("number 99999999999999999999 is over the limit of 1000000000"), "{err}");
    let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
    assert!(matches!(Program::parse(&deep).unwrap_err().kind(), ErrorKind::Limit { what: "nesting depth", .. }));
    let long = "1+".repeat(600) + "1";
    assert!(matches!(Program::parse(&long).unwrap_err().kind(), ErrorKind::Limit { what: "expression length", .. }));
    // Supports and work too large to hold are typed errors, not hangs.
    for expr in ["1000d10000", "1000d6!! * 1000d6!!", "1000d1000kh500", "d10000 * d10000 * d10000"] {
        let program = Program::parse(expr).unwrap();
        let err = program.distribution(&Options::default()).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::TooLarge(_)), "{expr}: {err}");
    }
    let err = Program::parse("2d6").unwrap().distribution(&Options { depth: 5000 }).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Limit { what: "truncation depth", .. }));
    assert!(started.elapsed().as_secs() < 30, "limits took {:?}", started.elapsed());
}

#[test]
fn ordinary_big_sums_answer_and_a_hostile_one_is_refused_at_once() {
    // Sums of many like dice are a sliding window per die: work in proportion to the result.
    for (expr, mean) in [("100d100", 5050), ("200d6", 700)] {
        let dist = Program::parse(expr).unwrap().distribution(&Options::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(dist.mean_of_outcomes(), [num_rational::BigRational::from_integer(mean.into())], "{expr}");
        assert_eq!(dist.len(), if expr == "100d100" { 9901 } else { 1001 }, "{expr}");
    }
    let started = Instant::now();
    for expr in ["1000d1000", "1000d10000"] {
        let err = Program::parse(expr).unwrap().distribution(&Options::default()).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::TooLarge(_)), "{expr}: {err}");
    }
    assert!(started.elapsed().as_secs() < 5, "refusing took {:?}", started.elapsed());
}

#[test]
fn long_chains_do_not_overflow_the_stack() {
    let chain = "d6+".repeat(320) + "1";
    let program = Program::parse(&chain).unwrap();
    assert!(program.roll(&mut seeded(1)).is_ok());
    assert!(program.probability(Event::AtLeast(1200), &Options::default()).is_ok());
    assert_eq!(program.to_string().matches("1d6").count(), 320);
}

#[test]
fn rolling_reports_source_and_overflow_errors() {
    let program = Program::parse("3d6").unwrap();
    let err = program.roll(&mut Scripted::new([1, 2])).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Source(_)), "{err}");
    let err = program.roll(&mut Scripted::new([1, 7, 2])).unwrap_err();
    assert!(err.to_string().contains("does not fit a d6"), "{err}");
    let big = Program::parse("1000000000 * 1000000000 * 1000000000").unwrap();
    assert_eq!(big.roll(&mut Scripted::new([])).unwrap_err().kind(), &ErrorKind::Overflow);
    assert!(matches!(big.distribution(&Options::default()).unwrap_err().kind(), ErrorKind::Overflow));
}

#[test]
fn printing_round_trips() {
    for expr in
        ["4d6kh3", "6d6!!{10}cs>=5cs>=11", "max(0, d10 + 3 vs d8 + 2)", "4Dc{20} + 2", "-(2d6 - 1) / 2 >= -3", "d%"]
    {
        let once = Program::parse(expr).unwrap().to_string();
        let twice = Program::parse(&once).unwrap().to_string();
        assert_eq!(once, twice, "{expr}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,40}") {
        let _ = Program::parse(&text);
    }

    #[test]
    fn dice_like_text_never_panics(text in "[0-9dDkhlcs!{}()+*/<>=, vmaxinb%-]{0,24}") {
        if let Ok(program) = Program::parse(&text) {
            let _ = program.roll(&mut seeded(3));
            let small = Options { depth: 3 };
            let _ = program.distribution(&small);
            let _ = program.probability(Event::AtLeast(4), &small);
            let _ = program.mean(&small);
        }
    }
}

#[test]
fn values_near_the_64_bit_edge_are_typed_overflows() {
    // Found in review: a difference of huge constants, bounds beyond i128, zero times an overflow.
    // Comparing rolls the sides without subtracting; the exact odds work on the difference, which
    // overflows: a typed error, never a wrapped (wrong) answer.
    let compare = Program::parse("1000000000*1000000000*9 >= -(1000000000*1000000000)").unwrap();
    assert_eq!(compare.roll(&mut seeded(1)).unwrap().value, fray_dice::Value::Int(1));
    assert_eq!(compare.distribution(&Options::default()).unwrap_err().kind(), &ErrorKind::Overflow);
    for expr in [
        "1000000000*1000000000*5 + 1000000000*1000000000*5",
        "1000000000*1000000000*1000000000*1000000000*1000000000",
        "1000000000*1000000000*1000000000*0",
    ] {
        let program = Program::parse(expr).unwrap();
        assert_eq!(program.roll(&mut seeded(1)).unwrap_err().kind(), &ErrorKind::Overflow, "{expr}: roll");
        let err = program.distribution(&Options::default()).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::Overflow, "{expr}: distribution");
    }
}

#[test]
fn means_use_linearity_where_the_full_table_is_too_large() {
    // 60 compounding d6 followed 10 tosses deep is too much work in full; linearity still gives
    // 60 · 21/5 = 252. A compounding count is 0 or 1 per die, never the `!` formula.
    let mean =
        |expr: &str| Program::parse(expr).unwrap().mean(&Options::default()).unwrap().map(|m| fray_dice::fraction(&m));
    assert_eq!(mean("60d6!!").as_deref(), Some("252/1"));
    assert_eq!(mean("30d6!! + 30d6!!").as_deref(), Some("252/1"));
    assert_ne!(mean("1d6!!cs<=20000").as_deref(), Some("6/5"));
}
