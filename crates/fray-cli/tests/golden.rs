//! Golden fights: one committed fight log per shipped example, as text and as JSON (seed 1), so
//! that any change that alters a fight — a rule, an AI policy, a log line — shows in review.
//!
//! After a change meant to alter fights, look at the differences and accept them with
//! `INSTA_UPDATE=always cargo test -p fray-cli --test golden` (or `cargo insta review`).

mod common;

/// The repository's root: the examples are named from it, as a person would type them.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// Every shipped example of the five rulesets, as `examples/RULESET/NAME.toml`.
fn examples() -> Vec<String> {
    let mut files = Vec::new();
    for ruleset in ["fluid", "opend6", "hardboiled", "phasesix", "ticks"] {
        for entry in std::fs::read_dir(format!("{ROOT}/examples/{ruleset}")).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".toml") {
                files.push(format!("examples/{ruleset}/{name}"));
            }
        }
    }
    files.sort();
    assert!(files.len() >= 16, "{files:?}");
    files
}

fn fight(example: &str, json: bool) -> String {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_fray"));
    command.current_dir(ROOT).args(["fight", example, "--seed", "1"]);
    if json {
        command.arg("--json");
    }
    common::ok(&command.output().unwrap())
}

#[test]
fn every_example_fights_as_committed() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for example in examples() {
            let name = example.trim_start_matches("examples/").trim_end_matches(".toml").replace('/', "-");
            insta::assert_snapshot!(format!("{name}.text"), fight(&example, false), &example);
            insta::assert_snapshot!(format!("{name}.json"), fight(&example, true), &example);
        }
    });
}

#[test]
fn every_ruleset_ends_a_fight_with_the_same_fields() {
    for example in examples() {
        let out = fight(&example, true);
        let header: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        let end: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(end["event"], "end", "{example}");
        let unit = end["unit"].as_str().unwrap_or_else(|| panic!("{example}: {end}"));
        assert!(["rounds", "turns", "ticks"].contains(&unit), "{example}: {end}");
        assert!(end["length"].as_u64().is_some_and(|n| n >= 1) && end[unit] == end["length"], "{example}: {end}");
        // The winner is one of the sides, or null with no side standing or at the cap.
        let sides = header["sides"].as_array().unwrap();
        match &end["winner"] {
            serde_json::Value::Null => {
                let outcome = end["outcome"].as_str().unwrap();
                assert!(outcome == "mutual destruction" || outcome == "stalemate at the cap", "{example}: {end}");
            }
            winner => assert!(sides.contains(winner), "{example}: {end}"),
        }
    }
}
