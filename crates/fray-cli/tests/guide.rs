//! The user guide and the help: the generated pages under `docs/rulesets/` are current, `fray
//! rules` gives every option's meaning in 100 columns and as JSON, `fray check --json`, every
//! subcommand's help has examples and fits 100 columns, completions and the man page are
//! generated, errors start with `error:`, and `fray sim` warns when most fights reach the cap.

mod common;
use common::{TempScenario, fray, ok};

use serde_json::Value as Json;
use std::path::Path;

const SUBCOMMANDS: [&str; 9] = ["roll", "odds", "check", "fight", "sim", "rules", "docs", "completions", "man"];
const RULESETS: [&str; 5] = ["fluid", "opend6", "hardboiled", "phasesix", "ticks"];

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[track_caller]
fn assert_fits(text: &str, width: usize, what: &str) {
    for line in text.lines() {
        assert!(line.chars().count() <= width, "{what}: a line of {} characters:\n{line}", line.chars().count());
    }
}

#[test]
fn the_generated_ruleset_pages_are_current() {
    let out = std::env::temp_dir().join(format!("fray-docs-{}", std::process::id()));
    ok(&fray(&["docs", "--out", out.to_str().unwrap()]));
    let mut stale = Vec::new();
    for id in RULESETS {
        let fresh = std::fs::read_to_string(out.join(format!("rulesets/{id}.md"))).unwrap();
        let committed = std::fs::read_to_string(repo().join(format!("docs/rulesets/{id}.md"))).unwrap_or_default();
        if fresh != committed {
            stale.push(format!("docs/rulesets/{id}.md"));
        }
        // The JSON Schema of the fight events: a changed event type needs it regenerated.
        let schema = format!("schema/{id}.events.json");
        let fresh_schema = std::fs::read_to_string(out.join(&schema)).unwrap();
        if std::fs::read_to_string(repo().join("docs").join(&schema)).unwrap_or_default() != fresh_schema {
            stale.push(format!("docs/{schema}"));
        }
        assert!(fresh.contains("## Fight events (JSON)"), "{id}: no events section");
        // The page has every option with its meaning and every policy.
        let info: Json = serde_json::from_str(&ok(&fray(&["rules", id, "--json"]))).unwrap();
        let options_section = fresh.split("## Options").nth(1).unwrap_or_default();
        for option in info["options"].as_array().unwrap() {
            let row = format!("| `{}` |", option["name"].as_str().unwrap());
            let line =
                options_section.lines().find(|l| l.starts_with(&row)).unwrap_or_else(|| panic!("{id}: no row {row}"));
            assert!(line.contains(option["meaning"].as_str().unwrap()), "{id}: {row} without its meaning");
        }
        for section in ["## How a fight goes", "## Scenario fields", "## Options", "## AI policies"] {
            assert!(fresh.contains(section), "{id}: no {section}");
        }
        assert!(!fresh.contains("shared/"), "{id}: the page points outside the repository");
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        stale.is_empty(),
        "{} differ from what `fray docs` writes; regenerate them with `cargo run -p fray-cli -- docs --out docs/`",
        stale.join(", ")
    );
}

#[test]
fn rules_shows_every_meaning_in_100_columns_with_clauses_aside() {
    for id in RULESETS {
        let text = ok(&fray(&["rules", id]));
        assert_fits(&text, 100, &format!("fray rules {id}"));
        let info: Json = serde_json::from_str(&ok(&fray(&["rules", id, "--json"]))).unwrap();
        let options = info["options"].as_array().unwrap();
        assert!(options.len() >= 40, "{id}: {} options", options.len());
        // Text is wrapped, so compare with whitespace collapsed.
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for option in options {
            let (name, meaning) = (option["name"].as_str().unwrap(), option["meaning"].as_str().unwrap());
            assert!(!meaning.is_empty(), "{id}: `{name}` has no meaning");
            assert!(flat.contains(meaning), "{id}: `{name}`'s meaning is not shown");
            let clauses = option["clauses"].as_str().unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(flat.contains(&format!("from the rulebook: {clauses}")), "{id}: `{name}`'s clauses");
        }
        for policy in info["policies"].as_array().unwrap() {
            assert!(policy["meaning"].is_string(), "{id}: policy {} has no meaning", policy["field"]);
        }
        assert!(info["fields"].as_array().unwrap().len() >= 20, "{id}: scenario fields in --json");
    }
    let list: Json = serde_json::from_str(&ok(&fray(&["rules", "--json"]))).unwrap();
    let ids: Vec<&str> = list.as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, RULESETS);
    assert_fits(&ok(&fray(&["rules"])), 100, "fray rules");
}

#[test]
fn check_json_gives_the_summary_options_and_trial() {
    let file = repo().join("examples/hardboiled/gunfight.toml");
    let args = ["check", file.to_str().unwrap(), "--set", "moving_shot_penalty=0", "--json"];
    let doc: Json = serde_json::from_str(&ok(&fray(&args))).unwrap();
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["ruleset"], "hardboiled");
    assert_eq!(doc["sides"], serde_json::json!(["Lou", "hoods"]));
    assert_eq!(doc["options"]["moving_shot_penalty"], "0 (--set)");
    assert_eq!(doc["cap"]["unit"], "turns");
    let trial = &doc["trial"];
    assert_eq!(trial["fights"], 200);
    let total: f64 = trial["outcomes"].as_object().unwrap().values().map(|v| v.as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "the rates add up to 1: {total}");
    assert!(trial["warning"].is_null());
}

#[test]
fn check_json_and_sim_warn_when_most_fights_reach_the_cap() {
    // Two fighters far out of reach who hold their ground: every fight is a stalemate.
    let scenario = TempScenario::new(
        r#"
[rules]
ruleset = "hardboiled"
max_turns = 5

[[combatants]]
name = "A"
side = "a"
action = 6
wits = 8
ego = 10
weapon = "knife"
position = 0.0
policy = { move = "hold" }

[[combatants]]
name = "B"
side = "b"
action = 6
wits = 8
ego = 10
weapon = "knife"
position = 50.0
policy = { move = "hold" }
"#,
    );
    let doc: Json = serde_json::from_str(&ok(&fray(&["check", scenario.path(), "--json"]))).unwrap();
    let warning = doc["trial"]["warning"].as_str().expect("a warning");
    assert!(warning.starts_with("warning: 100% of the trial fights reached the turn cap (5 turns)"), "{warning}");
    let out = fray(&["sim", scenario.path(), "-n", "300"]);
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    ok(&out);
    assert!(
        stderr.contains("warning: 100% of the fights reached the turn cap (5 turns) with no winner; check positions"),
        "{stderr}"
    );
    // With a variant, each run's warning says which run it is.
    let out = fray(&["sim", scenario.path(), "-n", "300", "--compare", "moving_shot_penalty=0"]);
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(stderr.lines().nth(1).unwrap().ends_with("policies — set moving_shot_penalty=0"), "{stderr}");
    // The JSON report stays clean on stdout; the warning goes to stderr.
    let out = fray(&["sim", scenario.path(), "-n", "300", "--json"]);
    serde_json::from_slice::<Json>(&out.stdout).unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning:"));
    // A scenario with winners gives no warning.
    let file = repo().join("examples/hardboiled/gunfight.toml");
    let out = fray(&["sim", file.to_str().unwrap(), "-n", "300"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"), "no warning when fights end");
}

#[test]
fn every_subcommand_help_has_examples_and_fits_100_columns() {
    for sub in SUBCOMMANDS {
        let help = ok(&fray(&[sub, "--help"]));
        let examples = help.split("Examples:\n").nth(1).unwrap_or_else(|| panic!("fray {sub} --help: no examples"));
        let n = examples.lines().filter(|l| l.starts_with("  fray ") || l.starts_with("  cargo ")).count();
        assert!((2..=4).contains(&n), "fray {sub} --help: {n} examples");
        assert_fits(&help, 100, &format!("fray {sub} --help"));
    }
    let help = ok(&fray(&["--help"]));
    assert!(help.contains("Examples:"));
    assert_fits(&help, 100, "fray --help");
}

#[test]
fn completions_and_man_page_are_generated() {
    let bash = ok(&fray(&["completions", "bash"]));
    for sub in SUBCOMMANDS {
        assert!(bash.contains(sub), "bash completion without `{sub}`");
    }
    assert!(bash.contains("complete -F _fray"), "a bash completion function");
    assert!(ok(&fray(&["completions", "zsh"])).starts_with("#compdef fray"));
    assert!(ok(&fray(&["completions", "fish"])).contains("complete -c fray"));
    let man = ok(&fray(&["man"]));
    assert!(man.contains(".TH fray 1"), "a man page header");
    for sub in ["fray\\-sim", "fray\\-rules", "fray\\-check"] {
        assert!(man.contains(sub), "the man page lists {sub}");
    }
    let out = fray(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn every_error_starts_with_error() {
    for args in [
        &["odds", "3d+2"][..],
        &["rules", "fluidd"],
        &["check", "no-such-file.toml"],
        &["sim", "no-such-file.toml"],
        &["roll", "4d6kh"],
    ] {
        let out = fray(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(!stderr.starts_with("error: error:"), "{args:?}: {stderr}");
    }
    let stderr = String::from_utf8(fray(&["rules", "fluidd"]).stderr).unwrap();
    assert!(stderr.starts_with("error: unknown ruleset `fluidd`; did you mean `fluid`?"), "{stderr}");
}

#[test]
fn the_json_page_lists_every_kind_of_fight_line_from_the_schemas() {
    let page = std::fs::read_to_string(repo().join("docs/json.md")).unwrap();
    for id in RULESETS {
        let schema: Json = serde_json::from_str(
            &std::fs::read_to_string(repo().join(format!("docs/schema/{id}.events.json"))).unwrap(),
        )
        .unwrap();
        let kinds: Vec<String> = schema["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| format!("`{}`", v["properties"]["event"]["const"].as_str().unwrap()))
            .collect();
        let row = page
            .lines()
            .find(|l| l.starts_with(&format!("| [`{id}`]")))
            .unwrap_or_else(|| panic!("docs/json.md: no row for {id}"));
        let listed = row.rsplit('|').nth(1).unwrap().trim();
        assert_eq!(listed, kinds.join(", "), "docs/json.md's row for {id} against its schema");
    }
}
