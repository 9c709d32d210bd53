//! The `fray` binary end to end: output shapes scripts rely on, exit codes, and every icepool
//! reference distribution reproduced through `fray odds --json`.

mod common;
use common::fray;

use serde_json::Value as Json;
use std::path::Path;

fn json(args: &[&str]) -> Json {
    let out = fray(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn reference(file: &str) -> Vec<Json> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fray-dice/tests/data/reference").join(file);
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["cases"].as_array().unwrap().clone()
}

#[test]
fn odds_json_reproduces_every_reference_distribution() {
    // rule: OD6-DICE-4, P6-DICE-2
    let files = [
        ("sums.json", None),
        ("keep.json", None),
        ("opend6_wild_complication.json", Some("Dc{20}")),
        ("pool_counts.json", None),
        ("pool_hits_crits.json", Some("d6!!cs>=5cs>=11")),
        ("contest.json", Some("max(0, d10+3 vs d8+2)")),
    ];
    let mut checked = 0;
    for (file, rewrite) in files {
        for case in reference(file) {
            let hint = case["fray"].as_str().unwrap();
            let expr = match (file, rewrite) {
                (_, None) => hint.to_owned(),
                ("contest.json", Some(expr)) => expr.to_owned(),
                (_, Some(suffix)) => {
                    let count: String = hint.chars().take_while(char::is_ascii_digit).collect();
                    format!("{count}{suffix}")
                }
            };
            let doc = json(&["odds", &expr, "--json"]);
            assert_eq!(doc["expr"], Json::from(expr.as_str()));
            assert_eq!(doc["outcomes"], case["outcomes"], "{file}: {}", case["name"]);
            assert_eq!(doc["residual"], "0/1", "{expr}");
            if let Some(mean) = case.get("mean") {
                assert_eq!(&doc["mean"], mean, "{expr}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 60);
}

#[test]
fn odds_json_has_the_documented_shape() {
    let doc = json(&["odds", "3d6+5 >= 15", "--json", "--at-least", "1"]);
    let keys: Vec<&str> = doc.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["expr", "outcomes", "mean", "residual", "at_least"]);
    let text = String::from_utf8(fray(&["odds", "3d6+5 >= 15", "--json", "--at-least", "1"]).stdout).unwrap();
    assert!(text.starts_with(r#"{"expr":"3d6+5 >= 15","outcomes":[{"value":0,"p":"3/8"},"#), "{text}");
    assert_eq!(doc["outcomes"], serde_json::json!([{"value": 0, "p": "3/8"}, {"value": 1, "p": "5/8"}]));
    assert_eq!(doc["at_least"], serde_json::json!({"threshold": 1, "p": "5/8"}));
    assert_eq!(doc["mean"], "5/8");
    // An unlimited explosion: the table is truncated with its residual, the event is exact.
    let doc = json(&["odds", "d6!!", "--json", "--at-least", "15", "--depth", "3"]);
    assert_eq!(doc["residual"], "1/1296");
    assert_eq!(doc["mean"], "21/5");
    assert_eq!(doc["at_least"], serde_json::json!({"threshold": 15, "p": "1/54"}));
    assert_eq!(doc["outcomes"].as_array().unwrap().len(), 20);
    let doc = json(&["odds", "3D", "--json", "--at-most", "1"]);
    assert_eq!(doc["at_most"]["p"], "11/216");
}

#[test]
fn odds_table_shows_columns_mean_and_events() {
    let out = fray(&["odds", "3d6", "--at-least", "10"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("P(=)") && text.contains("P(≥)") && text.contains("P(≤)"), "{text}");
    assert!(text.contains("mean 21/2 ≈ 10.5000"), "{text}");
    assert!(text.contains("P(value ≥ 10) = 5/8"), "{text}");
    assert!(text.lines().any(|l| l.trim_start().starts_with("10 ") && l.contains("█") && l.contains("1/8")), "{text}");
}

#[test]
fn roll_is_reproducible_and_shows_every_die() {
    let a = json(&["roll", "4d6kh3 + 4D", "--seed", "99", "--json"]);
    let b = json(&["roll", "4d6kh3 + 4D", "--seed", "99", "--json"]);
    assert_eq!(a, b);
    assert_eq!(a["generator"], "ChaCha8");
    assert_eq!(a["seed"], 99);
    assert_eq!(a["groups"][0]["dice"].as_array().unwrap().len(), 4);
    assert_eq!(a["groups"][0]["dice"].as_array().unwrap().iter().filter(|d| d["kept"] == false).count(), 1);
    assert_eq!(a["groups"][1]["dice"][3]["role"], "wild");
    let text = String::from_utf8(fray(&["roll", "4D", "--seed", "99"]).stdout).unwrap();
    assert!(text.contains(" W") && text.contains("(seed 99, ChaCha8)"), "{text}");
}

#[test]
fn bad_input_exits_2_with_a_caret() {
    for (args, want) in [
        (vec!["odds", "3d+2"], "  3d+2\n    ^"),
        (vec!["roll", "2d6 +"], "  2d6 +\n       ^"),
        (vec!["odds", "1000000000d6"], "number of dice 1000000000 is over the limit of 1000"),
        (vec!["odds", "6d6!!cs>=5cs>=11", "--at-least", "2"], "single-number expression"),
    ] {
        let out = fray(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{args:?}: {err}");
    }
    assert_eq!(fray(&["odds"]).status.code(), Some(2));
    assert_eq!(fray(&["frobnicate"]).status.code(), Some(2));
}
