//! The icepool reference distributions of ../shared/reference, reproduced exactly.
//! A copy lives in tests/data/reference; a test checks it against ../shared when present.

use fray_dice::{Options, Program, Value, fraction};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference")
}

fn cases(file: &str) -> Vec<Json> {
    let text = std::fs::read_to_string(data_dir().join(file)).unwrap();
    let json: Json = serde_json::from_str(&text).unwrap();
    json["cases"].as_array().unwrap().clone()
}

/// Our notation for each reference case, from its `fray` hint.
pub fn notation(file: &str, case: &Json) -> String {
    let hint = case["fray"].as_str().unwrap();
    match file {
        "opend6_wild_complication.json" => {
            let k = hint.split('D').next().unwrap();
            format!("{k}Dc{{20}}")
        }
        "pool_hits_crits.json" => {
            let n = hint.split('d').next().unwrap();
            format!("{n}d6!!cs>=5cs>=11")
        }
        "contest.json" => "max(0, d10+3 vs d8+2)".to_owned(),
        _ => hint.to_owned(),
    }
}

fn value(json: &Json) -> Value {
    match json {
        Json::Array(items) => {
            let v: Vec<i64> = items.iter().map(|x| x.as_i64().unwrap()).collect();
            Value::Counts(fray_dice::Counts::from_slice(&v))
        }
        other => Value::Int(other.as_i64().unwrap()),
    }
}

pub const FILES: [&str; 6] = [
    "sums.json",
    "keep.json",
    "opend6_wild_complication.json",
    "pool_counts.json",
    "pool_hits_crits.json",
    "contest.json",
];

#[test]
fn every_reference_distribution_is_reproduced_exactly() {
    // rule: OD6-DICE-3, OD6-DICE-4, P6-DICE-1, P6-DICE-2, FLUID-DICE-7
    let mut checked = 0;
    for file in FILES {
        for case in cases(file) {
            let expr = notation(file, &case);
            let program = Program::parse(&expr).unwrap_or_else(|e| panic!("{e}"));
            let dist = program.distribution(&Options::default()).unwrap();
            let want: Vec<(Value, String)> = case["outcomes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| (value(&o["value"]), o["p"].as_str().unwrap().to_owned()))
                .collect();
            let got: Vec<(Value, String)> = dist.outcomes().map(|(v, p)| (v, fraction(&p))).collect();
            assert_eq!(got, want, "{file}: {}", case["name"]);
            assert_eq!(fraction(&dist.residual()), "0/1", "{expr}");
            if let Some(mean) = case.get("mean").and_then(Json::as_str) {
                let ours = program.mean(&Options::default()).unwrap().expect("a mean");
                assert_eq!(fraction(&ours), mean, "{file}: {} mean", case["name"]);
            }
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} cases");
}

#[test]
fn the_copy_matches_the_shared_reference() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/reference");
    if !shared.exists() {
        return; // a checkout without shared/ beside it: the copy stands on its own
    }
    for file in FILES {
        let ours = std::fs::read(data_dir().join(file)).unwrap();
        let theirs = std::fs::read(shared.join(file)).unwrap();
        assert!(ours == theirs, "tests/data/reference/{file} differs from shared/reference/{file}");
    }
}
