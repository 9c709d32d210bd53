//! Limits that are the same in every ruleset and said: the number of combatants a scenario may
//! have (refused with the count, the limit and a caret at the list).

mod common;
use common::{TempScenario, fray, ok};

const EXAMPLES: [(&str, &str); 5] = [
    ("fluid", "barbarian-vs-marauder.toml"),
    ("opend6", "brawl.toml"),
    ("hardboiled", "bar-room-brawl.toml"),
    ("phasesix", "sword-and-shield.toml"),
    ("ticks", "knife-fight.toml"),
];

/// The example with its last combatant's entry copied until the file has `n` combatants.
fn with_combatants(id: &str, file: &str, n: usize) -> String {
    let path = format!("{}/../../examples/{id}/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.rfind("\n[[combatants]]").unwrap();
    let last = &text[start..];
    let have = text.matches("\n[[combatants]]").count();
    let key = if id == "fluid" { "id" } else { "name" };
    let mut out = text.clone();
    for i in have..n {
        let mut copy = String::new();
        let mut renamed = false;
        for line in last.lines() {
            if !renamed && line.starts_with(&format!("{key} = ")) {
                copy.push_str(&format!("{key} = \"extra {i}\"\n"));
                renamed = true;
            } else {
                copy.push_str(line);
                copy.push('\n');
            }
        }
        assert!(renamed, "{id}: no `{key}` in the last combatant");
        out.push_str(&copy);
    }
    out
}

#[test]
fn every_ruleset_refuses_more_than_64_combatants_with_the_count_and_a_caret() {
    for (id, file) in EXAMPLES {
        let scenario = TempScenario::new(&with_combatants(id, file, 65));
        let out = fray(&["check", scenario.path()]);
        assert_eq!(out.status.code(), Some(2), "{id}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("65 combatants; a scenario may have at most 64 (in every ruleset)"), "{id}: {err}");
        assert!(err.contains("| [[combatants]]") && err.contains("| ^^^^^^^^^^^^^^"), "{id}: {err}");
    }
}

#[test]
fn sixty_four_combatants_are_accepted_in_fluid_which_had_no_limit() {
    let scenario = TempScenario::new(&with_combatants("fluid", "barbarian-vs-marauder.toml", 64));
    let text = ok(&fray(&["check", scenario.path()]));
    assert!(text.contains("64 combatants"), "{text}");
}
