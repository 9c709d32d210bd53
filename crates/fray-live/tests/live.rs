//! The live fight through its one interface, for every ruleset: the AI's suggestion taken at
//! every decision gives the plain fight; undo and redo; entered dice; refusals; the journal
//! restoring the same fight.

use fray_live::{Command, DiceMode, Journal, Pending, Session, Snapshot};
use proptest::prelude::*;

/// The examples directory (examples/compare holds copies of fights in every ruleset: skipped
/// here, the rulesets' own examples cover them).
const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");

/// Every shipped example of the five rulesets: its path and text.
fn examples() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for ruleset in ["fluid", "opend6", "hardboiled", "phasesix", "ticks"] {
        for entry in std::fs::read_dir(format!("{EXAMPLES}/{ruleset}")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).unwrap();
                files.push((path.display().to_string(), text));
            }
        }
    }
    files.sort();
    assert!(files.len() >= 16, "every example: {files:?}");
    files
}

/// A shorter fight for a test build: opend6's group fight's prompts weigh a dozen attacks each.
fn shortened(text: &str) -> String {
    text.replace("max_rounds = 60", "max_rounds = 3")
}

fn combatants(file: &str, text: &str) -> Vec<String> {
    fray_rules::load(file, text, &[]).unwrap().combatants()
}

/// The plain fight: nobody played by a person.
fn plain(file: &str, text: &str, seed: u64) -> Snapshot {
    let session = Session::open(file, text, vec![], seed, DiceMode::Fray, vec![]).unwrap();
    let snapshot = session.snapshot().clone();
    assert!(snapshot.pending.is_none() && snapshot.ending.is_some(), "{file}: the plain fight ends");
    snapshot
}

/// The first line where two logs part, for a short failure message.
#[track_caller]
fn same_log(got: &[fray_rules::Line], want: &[fray_rules::Line], what: &str) {
    if let Some(i) = (0..got.len().max(want.len())).find(|&i| got.get(i) != want.get(i)) {
        panic!("{what}: the logs part at line {i}:\n got  {:?}\n want {:?}", got.get(i), want.get(i));
    }
}

/// Answers every decision with the AI's suggestion, until the fight ends.
fn take_the_ai(session: &mut Session) {
    for _ in 0..5_000 {
        match session.snapshot().pending.clone() {
            None => return,
            Some(Pending::Decision { ai, .. }) => {
                session.command(Command::Answer(ai)).unwrap();
            }
            Some(roll @ Pending::Roll { .. }) => panic!("dice awaited with fray rolling: {roll:?}"),
        }
    }
    panic!("no end after 5,000 decisions");
}

/// The combatants whose menus do not offer their AI's choice yet (issue 25): Enter cannot
/// reproduce their AI's fight.
const MENUS_WITHOUT_THE_AI: &[&str] =
    &["raider_1", "raider_3", "assassin_1", "assassin_2", "Vito", "Sal", "The Shadow", "Knife", "Club", "Sap", "Fists"];

#[test]
fn the_ai_suggestion_at_every_decision_gives_the_plain_fight() {
    for (file, text) in examples() {
        let text = shortened(&text);
        let seed = 3;
        let want = plain(&file, &text, seed);
        for who in combatants(&file, &text) {
            if MENUS_WITHOUT_THE_AI.contains(&who.as_str()) {
                continue;
            }
            let mut session = Session::open(&file, &text, vec![], seed, DiceMode::Fray, vec![who.clone()]).unwrap();
            take_the_ai(&mut session);
            let got = session.snapshot();
            same_log(&got.log, &want.log, &format!("{file}: {who} played by a person taking the AI's suggestions"));
            assert_eq!(got.status, want.status, "{file}: {who}");
            assert_eq!(got.ending, want.ending, "{file}: {who}");
        }
    }
}

#[test]
fn answering_undoing_and_answering_again_gives_the_same_fight() {
    for (file, text) in examples().into_iter().filter(|(f, _)| !f.contains("opend6")) {
        let people: Vec<String> =
            combatants(&file, &text).into_iter().filter(|c| !MENUS_WITHOUT_THE_AI.contains(&c.as_str())).collect();
        if people.is_empty() {
            continue;
        }
        let want = plain(&file, &text, 5);
        let mut session = Session::open(&file, &text, vec![], 5, DiceMode::Fray, people).unwrap();
        let mut decisions = 0;
        while let Some(Pending::Decision { ai, choices, .. }) = session.snapshot().pending.clone() {
            decisions += 1;
            // Another choice first, then back, then the AI's.
            let other = (ai + 1) % choices.len();
            let before = session.snapshot().clone();
            session.command(Command::Answer(other)).unwrap();
            session.command(Command::Undo(1)).unwrap();
            assert_eq!(session.snapshot().log, before.log, "{file}: undo restores the log");
            assert_eq!(session.snapshot().status, before.status, "{file}: undo restores the board");
            assert_eq!(session.snapshot().can_redo, 1);
            session.command(Command::Answer(ai)).unwrap();
            assert_eq!(session.snapshot().can_redo, 0, "{file}: a new answer drops what was undone");
        }
        assert!(decisions > 0, "{file}: someone decided");
        same_log(&session.snapshot().log, &want.log, &file);
        // Undo everything, then redo everything: the same fight.
        let all = session.snapshot().can_undo as u32;
        session.command(Command::Undo(all)).unwrap();
        assert!(matches!(session.snapshot().pending, Some(Pending::Decision { .. })), "{file}: back to the start");
        session.command(Command::Redo(all)).unwrap();
        assert_eq!(session.snapshot().log, want.log, "{file}: redo");
    }
}

/// Dice that give a seeded generator's faces and keep them.
struct Recorded(fray_engine::FromSource<fray_dice::RngSource<rand_chacha::ChaCha8Rng>>, Vec<u32>);

impl fray_engine::Dice for Recorded {
    fn roll(&mut self, sides: u32, reason: fray_engine::Reason) -> Result<u32, fray_dice::SourceError> {
        let face = self.0.roll(sides, reason)?;
        self.1.push(face);
        Ok(face)
    }
}

#[test]
fn entered_dice_give_the_fight_those_faces_give() {
    // Rulesets whose fights take every random number from the dice when no seed is given.
    for (file, text) in examples().into_iter().filter(|(f, _)| !f.contains("/ticks/") && !f.contains("opend6")) {
        let scenario = fray_rules::load(&file, &text, &[]).unwrap();
        let mut dice = Recorded(fray_engine::FromSource(fray_dice::seeded(9)), Vec::new());
        let mut want = Vec::new();
        scenario.fight(&mut dice, None, &[], &mut |_| None, &mut |line| want.push(line.clone())).unwrap();
        let mut faces = dice.1.into_iter();
        let mut session = Session::open(&file, &text, vec![], 0, DiceMode::Entered, vec![]).unwrap();
        let mut rolls = 0;
        while let Some(pending) = session.snapshot().pending.clone() {
            let Pending::Roll { dice, sides, .. } = pending else { panic!("{file}: a decision with nobody playing") };
            // The whole roll at once: as many faces as it says it takes.
            let roll: Vec<u32> = faces.by_ref().take(dice as usize).collect();
            assert!(roll.iter().all(|f| (1..=sides).contains(f)), "{file}: the faces fit a d{sides}");
            session.command(Command::Dice(roll)).unwrap_or_else(|e| panic!("{file}: {e}"));
            rolls += 1;
        }
        assert_eq!(faces.next(), None, "{file}: every face taken");
        assert_eq!(session.snapshot().log, want, "{file}: the log of the same faces");
        assert!(rolls * 2 <= session.journal().commands.len() * 2, "{file}");
    }
}

fn brawl() -> (String, String) {
    examples().into_iter().find(|(f, _)| f.ends_with("hardboiled/bar-room-brawl.toml")).unwrap()
}

#[test]
fn a_command_that_does_not_fit_is_refused_and_changes_nothing() {
    let (file, text) = brawl();
    let lou = combatants(&file, &text)[0].clone();
    let mut session = Session::open(&file, &text, vec![], 1, DiceMode::Fray, vec![lou.clone()]).unwrap();
    let before = session.snapshot().clone();
    let Some(Pending::Decision { choices, .. }) = &before.pending else { panic!("a decision of {lou}") };
    let refusals = [
        (Command::Answer(choices.len()), "no choice"),
        (Command::Dice(vec![3]), "not dice"),
        (Command::Undo(1), "cannot undo 1: 0 command(s)"),
        (Command::Redo(1), "cannot redo 1"),
        (Command::Control { who: "Nobody".into(), person: true }, "no combatant `Nobody`"),
        (Command::End { winner: Some("martians".into()) }, "no side `martians`"),
    ];
    for (command, why) in refusals {
        let error = session.command(command.clone()).unwrap_err().to_string();
        assert!(error.contains(why), "{command:?}: {error}");
        assert_eq!(session.snapshot(), &before, "{command:?} changed the fight");
        assert_eq!(session.version(), 0);
    }
    // Entered dice: an answer when dice are awaited, a face off the die.
    let mut session = Session::open(&file, &text, vec![], 1, DiceMode::Entered, vec![]).unwrap();
    let Some(Pending::Roll { sides, .. }) = session.snapshot().pending.clone() else { panic!("a roll") };
    let error = session.command(Command::Answer(0)).unwrap_err().to_string();
    assert!(error.contains("dice are awaited"), "{error}");
    let error = session.command(Command::Dice(vec![sides + 1])).unwrap_err().to_string();
    assert!(error.contains(&format!("a d{sides} shows 1 to {sides}")), "{error}");
    let error = session.command(Command::Dice(vec![])).unwrap_err().to_string();
    assert!(error.contains("expected from 1"), "{error}");
    assert_eq!(session.version(), 0);
}

#[test]
fn the_gm_ends_a_fight_and_nothing_comes_after() {
    let (file, text) = brawl();
    let lou = combatants(&file, &text)[0].clone();
    let mut session = Session::open(&file, &text, vec![], 1, DiceMode::Fray, vec![lou]).unwrap();
    let sides = fray_rules::load(&file, &text, &[]).unwrap().sides();
    session.command(Command::End { winner: Some(sides[0].clone()) }).unwrap();
    let ending = session.snapshot().ending.clone().unwrap();
    assert!(ending.by_gm && ending.winner.as_deref() == Some(sides[0].as_str()), "{ending:?}");
    assert!(session.snapshot().pending.is_none());
    assert!(session.snapshot().log.last().unwrap().text.as_deref().unwrap().contains("The GM ends the fight"));
    let error = session.command(Command::Answer(0)).unwrap_err().to_string();
    assert!(error.contains("the fight is over"), "{error}");
    // Undone, the fight goes on.
    session.command(Command::Undo(1)).unwrap();
    assert!(session.snapshot().ending.is_none() && session.snapshot().pending.is_some());
}

#[test]
fn control_passes_to_the_ai_and_back() {
    let (file, text) = brawl();
    let want = plain(&file, &text, 2);
    let lou = combatants(&file, &text)[0].clone();
    let mut session = Session::open(&file, &text, vec![], 2, DiceMode::Fray, vec![lou.clone()]).unwrap();
    assert_eq!(session.snapshot().people, vec![lou.clone()]);
    // The AI takes Lou over at once: the fight then plays as the plain one.
    session.command(Command::Control { who: lou.clone(), person: false }).unwrap();
    assert_eq!(session.snapshot().log, want.log);
    assert!(session.snapshot().people.is_empty());
}

/// A random command for a fight at `snapshot`: mostly a legal answer or roll, sometimes an undo,
/// a redo, a change of control or something that does not fit.
fn random_command(snapshot: &Snapshot, names: &[String], r: u64) -> Command {
    match (r % 16, &snapshot.pending) {
        (0, _) => Command::Undo(1 + (r >> 8) as u32 % 3),
        (1, _) => Command::Redo(1),
        (2, _) => Command::Control { who: names[(r >> 8) as usize % names.len()].clone(), person: (r >> 12) % 2 == 0 },
        (3, _) => Command::Answer((r >> 8) as usize % 40),
        (_, Some(Pending::Decision { choices, .. })) => Command::Answer((r >> 8) as usize % choices.len()),
        (_, Some(Pending::Roll { dice, sides, .. })) => {
            Command::Dice((0..*dice).map(|k| 1 + ((r >> (8 + 4 * k)) as u32) % sides).collect())
        }
        (_, None) => Command::Undo(1),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random play (answers, entered faces, undos, redos, control changes, refused commands) →
    /// journal → restore: the same log, status board and pending request.
    #[test]
    fn a_journal_restores_the_same_fight(example in 0usize..16, seed in 0u64..1_000, entered: bool, picks in prop::collection::vec(any::<u64>(), 1..60)) {
        let (file, text) = examples().into_iter().filter(|(f, _)| !f.contains("opend6")).cycle().nth(example).unwrap();
        let names = combatants(&file, &text);
        let dice = if entered { DiceMode::Entered } else { DiceMode::Fray };
        let mut session = Session::open(&file, &text, vec![], seed, dice, names.clone()).unwrap();
        for r in picks {
            let command = random_command(session.snapshot(), &names, r);
            let before = session.snapshot().clone();
            if session.command(command).is_err() {
                prop_assert_eq!(session.snapshot(), &before);
            }
        }
        let json = session.journal_json();
        let journal: Journal = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&journal, session.journal());
        let restored = Session::restore(journal).unwrap();
        prop_assert_eq!(restored.snapshot(), session.snapshot());
    }
}

#[test]
fn a_sides_own_decision_calls_a_combatant_hidden_from_it_someone() {
    let file = format!("{EXAMPLES}/hardboiled/bar-room-brawl.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut session = Session::open(&file, &text, vec![], 1, DiceMode::Fray, vec!["Joe Bruno".into()]).unwrap();
    let Some(Pending::Decision { choices: before, .. }) = session.snapshot().view("Joe").pending else { panic!() };
    assert!(before.iter().any(|c| c.contains("Docker")), "{before:?}");
    session.command(Command::Hide { who: "Docker".into(), hidden: true }).unwrap();
    let view = session.snapshot().view("Joe");
    let Some(Pending::Decision { choices, ai, .. }) = &view.pending else { panic!("{view:?}") };
    // The same choices in the same order, the hidden combatant unnamed.
    assert_eq!(choices.len(), before.len());
    assert_eq!(*choices, before.iter().map(|c| c.replace("Docker", "someone")).collect::<Vec<_>>());
    assert!(!serde_json::to_string(&view).unwrap().contains("Docker"));
    assert_eq!(Some(*ai), session.snapshot().pending.as_ref().and_then(Pending::ai));
}
