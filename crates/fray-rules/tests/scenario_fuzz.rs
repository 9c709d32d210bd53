//! Bad scenario files are answered, never panicked on: the shipped examples, mutated at random
//! (numbers replaced by extreme values, lines deleted or duplicated, bytes cut or inserted),
//! must load or fail with an error, and those that load must fight to an end.

use fray_engine::FightError;
use proptest::prelude::*;
use std::sync::LazyLock;

mod common;

static EXAMPLES: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let files = common::example_files();
    files.into_iter().map(|p| (p.display().to_string(), std::fs::read_to_string(&p).expect("example"))).collect()
});

/// One change to a scenario's text.
#[derive(Clone, Debug)]
enum Mutation {
    /// Replace the n-th number with this one.
    Number(usize, String),
    /// Delete the n-th line.
    DeleteLine(usize),
    /// Repeat the n-th line.
    RepeatLine(usize),
    /// Cut the text at a fraction of its length.
    Truncate(f64),
    /// Insert a string at a fraction of the length.
    Insert(f64, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let number = prop_oneof![
        Just("0".to_owned()),
        Just("-1".to_owned()),
        Just("-9223372036854775808".to_owned()),
        Just("4294967296".to_owned()),
        Just("1e308".to_owned()),
        Just("nan".to_owned()),
        Just("inf".to_owned()),
        Just("\"3d6\"".to_owned()),
        Just("\"1000d1000\"".to_owned()),
        (-1000i64..100_000).prop_map(|n| n.to_string()),
        (0i64..30).prop_map(|n| n.to_string()),
        (0i64..30).prop_map(|n| n.to_string()),
    ];
    prop_oneof![
        4 => (0usize..200, number).prop_map(|(n, s)| Mutation::Number(n, s)),
        2 => (0usize..200).prop_map(Mutation::DeleteLine),
        1 => (0usize..200).prop_map(Mutation::RepeatLine),
        1 => (0.0f64..1.0).prop_map(Mutation::Truncate),
        1 => (0.0f64..1.0, "[\\[\\]{}=\",.a-z0-9 \n-]{1,12}").prop_map(|(at, s)| Mutation::Insert(at, s)),
    ]
}

fn apply(text: &str, mutation: &Mutation) -> String {
    let at = |f: f64| text.char_indices().map(|(i, _)| i).nth((f * text.chars().count() as f64) as usize);
    match mutation {
        Mutation::Number(n, value) => {
            let spans: Vec<(usize, usize)> = {
                let bytes = text.as_bytes();
                let mut out = Vec::new();
                let mut i = 0;
                while i < bytes.len() {
                    if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
                        let start = i;
                        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                            i += 1;
                        }
                        out.push((start, i));
                    } else {
                        i += 1;
                    }
                }
                out
            };
            match spans.get(n % spans.len().max(1)) {
                Some(&(s, e)) => format!("{}{value}{}", &text[..s], &text[e..]),
                None => text.to_owned(),
            }
        }
        Mutation::DeleteLine(n) | Mutation::RepeatLine(n) => {
            let mut lines: Vec<&str> = text.lines().collect();
            let i = n % lines.len().max(1);
            if i < lines.len() {
                if matches!(mutation, Mutation::DeleteLine(_)) {
                    lines.remove(i);
                } else {
                    lines.insert(i, lines[i]);
                }
            }
            lines.join("\n")
        }
        Mutation::Truncate(f) => text[..at(*f).unwrap_or(text.len())].to_owned(),
        Mutation::Insert(f, s) => {
            let i = at(*f).unwrap_or(text.len());
            format!("{}{s}{}", &text[..i], &text[i..])
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_scenarios_load_or_fail_cleanly(
        file in 0usize..32,
        mutations in prop::collection::vec(mutation(), 1..4),
        sets in prop::collection::vec((0usize..64, 0usize..8), 0..3),
        seed in any::<u64>(),
    ) {
        let (name, text) = &EXAMPLES[file % EXAMPLES.len()];
        let text = mutations.iter().fold(text.clone(), |t, m| apply(&t, m));
        // Options set from the command line: a listed option with its default, its alternative
        // or a wrong value.
        let ruleset = ["opend6", "hardboiled", "phasesix", "ticks"].into_iter().find(|r| name.contains(r)).unwrap_or("fluid");
        let options = fray_rules::RULESETS.iter().find(|r| r.id == ruleset).expect("a ruleset").options;
        let sets: Vec<(String, String)> = sets
            .iter()
            .map(|&(o, v)| {
                let info = &options[o % options.len()];
                let value = match v % 4 {
                    0 => info.default.to_owned(),
                    1 | 2 => info.alternatives.split(['|', ',']).next().unwrap_or("").trim().to_owned(),
                    _ => "bogus".to_owned(),
                };
                (info.name.to_owned(), value)
            })
            .collect();
        match fray_rules::load(name, &text, &sets) {
            Ok(scenario) => {
                // A fight ends: a winner, a draw or the round limit; a fight error is an answer too,
                // but never an illegal choice: with nobody at the table every choice is the AI's,
                // and this debug build checks each one against the rules.
                let illegal = |r: Option<&FightError>| matches!(r, Some(FightError::IllegalChoice { .. }));
                let mut dice = fray_engine::FromSource(fray_dice::seeded(seed));
                let fought = scenario.fight(&mut dice, Some(seed), &[], &mut |_| Some(0), &mut |_| ());
                prop_assert!(!illegal(fought.as_ref().err()), "{fought:?}\n{text}");
                // And so does a batch of simulated fights in one reused state.
                let mut ledger = fray_sim::Ledger::new(scenario.combatants().len());
                let batch = scenario.run_batch(&mut fray_sim::batch_dice(seed, 0), 3, &mut ledger);
                prop_assert!(!illegal(batch.as_ref().err()), "{batch:?}\n{text}");
            }
            Err(error) => {
                // The error names where: the file, or the `--set` that is wrong.
                let shown = error.to_string();
                prop_assert!(shown.contains(name.as_str()) || shown.starts_with("--set"), "{shown}");
            }
        }
    }
}
