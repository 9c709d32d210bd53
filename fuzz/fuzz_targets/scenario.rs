//! Fuzz target: any text given as a scenario file (of any ruleset) is loaded; whatever loads is
//! explained, its odds in context asked for (from the file's positions and at a distance), and
//! fought once with seeded dice and in a short simulated batch; a last line `# FIELD=VALUE`
//! also edits the first combatant (`--set NAME.FIELD=VALUE`). Nothing may panic or hang, and
//! the AI may never choose an illegal action.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(scenario) = fray_rules::load("fuzz.toml", text, &[]) else { return };
    let _ = scenario.explain();
    let names = scenario.combatants();
    if names.len() >= 2 {
        let _ = scenario.attack_odds(&names[0], &names[1]);
        // And at a distance the input picks (negative, fractional and absurd ones included).
        let distance = f64::from(i16::from_le_bytes([data[0], data[data.len() - 1]])) / 8.0;
        let _ = scenario.attack_odds_at(&names[1], &names[0], Some(distance));
    }
    // With nobody at the table every choice is the AI's, checked against its request: the AI
    // must only ever choose what the rules allow.
    let mut dice = fray_engine::FromSource(fray_dice::seeded(1));
    if let Err(e @ fray_engine::FightError::IllegalChoice { .. }) =
        scenario.fight(&mut dice, Some(1), &[], &mut |_| Some(0), &mut |_| ())
    {
        panic!("the AI chose what the rules do not allow: {e}");
    }
    let mut ledger = fray_sim::Ledger::new(names.len());
    let _ = scenario.run_batch(&mut fray_sim::batch_dice(1, 0), 2, &mut ledger);
    // A last line `# FIELD=VALUE` (a comment, so the file still loads) edits the first
    // combatant's entry: `--set NAME.FIELD=VALUE`. Whatever loads after the edit is run too.
    if let (Some(name), Some(edit)) = (names.first(), text.lines().last().and_then(|l| l.strip_prefix('#')))
        && let Some((field, value)) = edit.split_once('=')
    {
        let set = (format!("{name}.{}", field.trim()), value.trim().to_owned());
        if let Ok(edited) = fray_rules::load("fuzz.toml", text, &[set]) {
            let _ = edited.explain();
            let mut ledger = fray_sim::Ledger::new(edited.combatants().len());
            let _ = edited.run_batch(&mut fray_sim::batch_dice(1, 0), 1, &mut ledger);
        }
    }
});
