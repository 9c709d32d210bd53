//! `fray sim --precision`: rounds of batches until every outcome's 95% interval is narrow enough,
//! the number of fights the same for any thread count.

mod common;
use common::{fray, ok};

use serde_json::Value as Json;

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/fluid/barbarian-vs-marauder.toml");
const PISTOLS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ticks/pistol-duel.toml");

fn run(args: &[&str]) -> Json {
    let mut doc: Json = serde_json::from_str(&ok(&fray(&[&["sim"][..], args, &["--json"]].concat()))).unwrap();
    doc.as_object_mut().unwrap().remove("fights_per_second");
    doc
}

/// The widest half-width of the outcomes of one report.
fn widest(report: &Json) -> f64 {
    report["outcomes"]
        .as_object()
        .unwrap()
        .values()
        .map(|o| (o["ci95"][1].as_f64().unwrap() - o["ci95"][0].as_f64().unwrap()) / 2.0)
        .fold(0.0, f64::max)
}

#[test]
fn precision_is_reached_with_the_same_fights_on_1_and_2_threads() {
    for (file, target) in [(EXAMPLE, "0.005"), (PISTOLS, "0.004")] {
        let one = run(&[file, "--precision", target, "--threads", "1", "--seed", "5"]);
        let two = run(&[file, "--precision", target, "--threads", "2", "--seed", "5"]);
        assert_eq!(one.to_string(), two.to_string(), "{file}");
        let fights = one["fights"].as_u64().unwrap();
        let target: f64 = target.parse().unwrap();
        assert!(widest(&one) <= target, "{file}: {}", widest(&one));
        assert_eq!(one["precision"]["met"], true);
        assert_eq!(one["precision"]["fights"], fights);
        assert!((one["precision"]["half_width"].as_f64().unwrap() - widest(&one)).abs() < 1e-12);
        // Whole batches, and more than the first round's 10,000 fights here.
        assert!(fights % 1000 == 0 && fights > 10_000, "{file}: {fights}");
        // The numbers are those of a plain run of that many fights.
        let plain = run(&[file, "-n", &fights.to_string(), "--seed", "5"]);
        let mut bare = one.clone();
        bare.as_object_mut().unwrap().remove("precision");
        assert_eq!(plain.to_string(), bare.to_string(), "{file}");
        // Stopping is decided at each checkpoint: the one before the last was not precise enough.
        let checkpoints: Vec<u64> =
            one["precision"]["checkpoints"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
        assert_eq!((checkpoints[0], checkpoints.last()), (10_000, Some(&fights)), "{checkpoints:?}");
        let before = checkpoints[checkpoints.len() - 2];
        let less = run(&[file, "-n", &before.to_string(), "--seed", "5"]);
        assert!(widest(&less) > target, "{file}: {before} fights: {}", widest(&less));
    }
}

#[test]
fn a_tighter_precision_takes_more_fights_and_a_budget_says_when_it_is_not_reached() {
    let loose = run(&[PISTOLS, "--precision", "0.01"]);
    let tight = run(&[PISTOLS, "--precision", "0.003"]);
    let (a, b) = (loose["fights"].as_u64().unwrap(), tight["fights"].as_u64().unwrap());
    assert!(b > 4 * a, "{a} → {b}");
    // A budget too small: the run stops there and says so.
    let capped = run(&[PISTOLS, "--precision", "0.001", "--max-fights", "25500"]);
    assert_eq!(capped["fights"], 25_500);
    assert_eq!(capped["precision"]["met"], false);
    assert!(capped["precision"]["half_width"].as_f64().unwrap() > 0.001);
    let text = ok(&fray(&["sim", PISTOLS, "--precision", "0.001", "--max-fights", "25500"]));
    assert!(text.contains("precision NOT reached") && text.contains("after 25500 fights"), "{text}");
    let text = ok(&fray(&["sim", PISTOLS, "--precision", "0.01"]));
    assert!(text.contains(&format!("within ±1.00 points after {a} fights")), "{text}");
}

#[test]
fn a_sweep_runs_every_value_until_each_is_precise() {
    let sweep = run(&[EXAMPLE, "--sweep", "marauder.pc=12,30", "--precision", "0.006", "--threads", "2"]);
    let fights = sweep["fights"].as_u64().unwrap();
    for point in sweep["points"].as_array().unwrap() {
        assert_eq!(point["report"]["fights"], fights);
        assert!(widest(&point["report"]) <= 0.006);
    }
    assert_eq!(sweep["precision"]["met"], true);
}

#[test]
fn bad_precisions_are_refused() {
    for (args, want) in [
        (&["--precision", "0"][..], "expected a half-width between 0 and 0.5"),
        (&["--precision", "0.7"], "expected a half-width between 0 and 0.5"),
        (&["--precision", "nan"], "expected a half-width between 0 and 0.5"),
        (&["--precision", "0.01", "--max-fights", "0"], "--max-fights 0"),
    ] {
        let out = fray(&[&["sim", PISTOLS][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("error: ") && err.contains(want), "{args:?}: {err}");
    }
}
