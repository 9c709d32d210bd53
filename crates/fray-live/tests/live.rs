//! The live fight through its one interface, for every ruleset: the AI's suggestion taken at
//! every decision gives the plain fight; undo and redo; entered dice; refusals; the journal
//! restoring the same fight.

use fray_live::{Command, DiceMode, Journal, Pending, Session, Snapshot};
use fray_rules::board::{Adjustable, Adjustment};
use proptest::prelude::*;

mod common;
use common::examples;

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

#[test]
fn the_ai_suggestion_at_every_decision_gives_the_plain_fight() {
    for (file, text) in examples() {
        let text = shortened(&text);
        let seed = 3;
        let want = plain(&file, &text, seed);
        for who in combatants(&file, &text) {
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
    for (file, text) in examples() {
        let text = shortened(&text);
        let people = combatants(&file, &text);
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
    // Without a seed, every random number of a fight comes from its dice.
    for (file, text) in examples() {
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
fn random_command(snapshot: &Snapshot, names: &[String], tracks: &[Adjustable], block: &str, r: u64) -> Command {
    let who = names[(r >> 8) as usize % names.len()].clone();
    match (r % 18, &snapshot.pending) {
        // A newcomer: a copy of the last combatant, under a new name (or one already taken).
        (6, _) if (r >> 32) % 2 == 0 => {
            Command::Join { stats: block.replace("NEWCOMER", &format!("N{}", (r >> 40) % 4)) }
        }
        (4, _) if !tracks.is_empty() => {
            let track = &tracks[(r >> 16) as usize % tracks.len()];
            // Per-item tracks name the combatant's first ammunition line's item, or none.
            let item = track.per_item.then(|| first_item(snapshot, &who)).flatten();
            let value = (r >> 24) as i64 % 16 - 3;
            Command::Adjust(Adjustment::Set { who, field: track.key.to_owned(), item, value })
        }
        (5, _) if (r >> 32) % 4 == 0 => Command::Adjust(Adjustment::Out { who }),
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

/// The item of the first line of `who`'s ammunition on the status board, if any.
fn first_item(snapshot: &Snapshot, who: &str) -> Option<String> {
    let status = snapshot.status.iter().find(|c| c.name == who)?;
    let ammo = status.fields.iter().find(|f| f.key == "ammo")?;
    let line = ammo.value.as_array()?.first()?.as_str()?;
    line.rsplit_once(' ').map(|(item, _)| item.to_owned())
}

/// The tracks the ruleset of a scenario lets the GM set.
fn tracks(file: &str, text: &str) -> &'static [Adjustable] {
    let ruleset = fray_rules::load(file, text, &[]).unwrap().ruleset();
    fray_rules::ruleset_info(ruleset).unwrap().adjustable
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random play (answers, entered faces, undos, redos, control changes, adjustments,
    /// combatants joining, refused commands) → journal → restore: the same log, status board and
    /// pending request.
    #[test]
    fn a_journal_restores_the_same_fight(example in 0usize..16, seed in 0u64..1_000, entered: bool, picks in prop::collection::vec(any::<u64>(), 1..60)) {
        let (file, text) = examples().into_iter().cycle().nth(example).unwrap();
        let text = shortened(&text);
        let names = combatants(&file, &text);
        let tracks = tracks(&file, &text);
        let dice = if entered { DiceMode::Entered } else { DiceMode::Fray };
        let mut session = Session::open(&file, &text, vec![], seed, dice, names.clone()).unwrap();
        // hardboiled rolls HP at the start: a newcomer brings its own.
        let block = session.stat_block(names.last().unwrap(), "NEWCOMER").unwrap() + "hp_max = 9\n";
        let block = if block.matches("hp_max").count() > 1 || !text.contains("hardboiled") {
            block.trim_end_matches("hp_max = 9\n").to_owned()
        } else {
            block
        };
        for r in picks {
            let command = random_command(session.snapshot(), &names, tracks, &block, r);
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

/// Every string in a JSON value, for checking a view field by field.
fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(map) => map.iter().for_each(|(k, v)| {
            out.push(k.clone());
            strings(v, out);
        }),
        _ => {}
    }
}

/// Checks that `view` of `side` shows nothing of a combatant hidden from it and none of a secret
/// side's numbers, on its JSON, field by field.
fn check_view(session: &Session, side: &str, what: &str) {
    let snapshot = session.snapshot();
    let view = snapshot.view(side);
    let mut json = serde_json::to_value(&view).unwrap();
    // How the fight ended is for everyone (a side may bear a hidden combatant's name).
    assert_eq!(view.ending, snapshot.ending, "{what}");
    json.as_object_mut().unwrap().remove("ending");
    let mut texts = Vec::new();
    strings(&json, &mut texts);
    for c in &snapshot.status {
        let hidden = c.side != side && (c.hidden || snapshot.hidden.contains(&c.name));
        if hidden {
            let named: Vec<&String> = texts.iter().filter(|t| t.contains(&c.name)).collect();
            assert!(named.is_empty(), "{what}: {side}'s view names hidden {}: {named:?}", c.name);
        }
        if c.side != side && snapshot.secret.contains(&c.side) && !hidden {
            let shown = view.status.iter().find(|s| s.name == c.name).unwrap();
            assert!(shown.fields.iter().all(|f| !f.secret), "{what}: {side} sees {}'s numbers", c.name);
            for line in &view.log {
                let mut keys = Vec::new();
                strings(&line.json, &mut keys);
                let about = keys.iter().any(|k| k.contains(&c.name));
                assert!(!(about && line.json.get("hp").is_some()), "{what}: {side} sees {}'s HP in {line:?}", c.name);
            }
        }
    }
    match (&snapshot.pending, &view.pending) {
        (Some(Pending::Decision { side: own, .. }), Some(_)) => assert_eq!(own, side, "{what}"),
        (_, Some(p)) => panic!("{what}: {side} sees another's request {p:?}"),
        _ => {}
    }
}

#[test]
fn a_hidden_approach_is_not_in_the_other_sides_view() {
    // rule: FLUID-ROUND-3 — fluid: the assassins approach hidden: the player's view has no trace
    // of them while they are hidden, the assassins' view has everything of their own.
    let (file, text) = examples().into_iter().find(|(f, _)| f.ends_with("fluid/two-assassins.toml")).unwrap();
    let sets = vec![("assassin_1.hidden".into(), "true".into()), ("assassin_2.hidden".into(), "true".into())];
    let mut session = Session::open(&file, &text, sets, 1, DiceMode::Fray, vec!["player".into()]).unwrap();
    let snapshot = session.snapshot().clone();
    let hidden: Vec<&str> = snapshot.status.iter().filter(|c| c.hidden).map(|c| c.name.as_str()).collect();
    assert_eq!(hidden, ["assassin_1", "assassin_2"], "hidden at the start");
    let player = snapshot.view("player");
    assert_eq!(player.status.len(), 1, "{player:?}");
    assert!(player.pending.is_some(), "the player's own decision");
    check_view(&session, "player", "two-assassins");
    let assassins = snapshot.view("assassins");
    assert_eq!(assassins.status.len(), 3);
    assert!(assassins.pending.is_none() && assassins.waiting_for.as_deref() == Some("player"));
    take_the_ai(&mut session);
    check_view(&session, "player", "two-assassins at the end");
}

#[test]
fn the_gm_hides_a_combatant_and_keeps_a_sides_numbers() {
    let (file, text) = examples().into_iter().find(|(f, _)| f.ends_with("hardboiled/thug-gang.toml")).unwrap();
    let names = combatants(&file, &text);
    let scenario = fray_rules::load(&file, &text, &[]).unwrap();
    let sides = scenario.sides();
    let (hero, thugs) =
        (&sides[scenario.side_of(0)], sides.iter().find(|s| **s != sides[scenario.side_of(0)]).unwrap());
    let mut session = Session::open(&file, &text, vec![], 4, DiceMode::Fray, vec![names[0].clone()]).unwrap();
    session.command(Command::Hide { who: names[4].clone(), hidden: true }).unwrap();
    session.command(Command::Secret { side: thugs.clone(), secret: true }).unwrap();
    check_view(&session, hero, "thug-gang");
    let view = session.snapshot().view(hero);
    assert!(view.status.iter().all(|c| c.name != names[4]), "the hidden thug is not on the board");
    let thug = view.status.iter().find(|c| c.side == *thugs).unwrap();
    assert!(thug.fields.iter().all(|f| f.key != "hp") && thug.condition == "unhurt", "{thug:?}");
    take_the_ai(&mut session);
    check_view(&session, hero, "thug-gang at the end");
    check_view(&session, thugs, "thug-gang at the end");
    // Shown again: the thug is back in the view.
    session.command(Command::Undo(session.snapshot().can_undo as u32)).unwrap();
    session.command(Command::Hide { who: names[4].clone(), hidden: false }).unwrap();
    assert!(session.snapshot().view(hero).status.iter().any(|c| c.name == names[4]));
}

#[test]
fn a_scenario_keeps_a_sides_numbers_and_hides_a_combatant_from_the_start() {
    let (file, text) = examples().into_iter().find(|(f, _)| f.ends_with("hardboiled/thug-gang.toml")).unwrap();
    let text = format!("{text}\n[visibility]\nsecret = [\"gang\"]\nhidden = [\"Fists\"]\n");
    let mut session = Session::open(&file, &text, vec![], 4, DiceMode::Fray, vec!["The Shadow".into()]).unwrap();
    let snapshot = session.snapshot();
    assert_eq!((&snapshot.secret[..], &snapshot.hidden[..]), (&["gang".to_owned()][..], &["Fists".to_owned()][..]));
    // The hero's view at the first decision: no Fists anywhere, no number of a thug's.
    assert!(matches!(snapshot.pending, Some(Pending::Decision { .. })), "{:?}", snapshot.pending);
    check_view(&session, "hero", "thug-gang at the start");
    let view = snapshot.view("hero");
    let json = serde_json::to_string(&view).unwrap();
    assert!(!json.contains("Fists"), "the hidden thug is in the hero's view: {json}");
    assert!(view.status.iter().any(|c| c.name == "Knife"), "the other thugs are on the board");
    for thug in view.status.iter().filter(|c| c.side == "gang") {
        assert!(thug.fields.iter().all(|f| !f.secret && f.key != "hp"), "{thug:?}");
    }
    // The gang sees its own numbers, and the GM can still show what the scenario hides.
    let own = snapshot.view("gang");
    assert!(own.status.iter().any(|c| c.name == "Fists" && c.fields.iter().any(|f| f.key == "hp")), "{own:?}");
    session.command(Command::Hide { who: "Fists".into(), hidden: false }).unwrap();
    session.command(Command::Secret { side: "gang".into(), secret: false }).unwrap();
    let view = session.snapshot().view("hero");
    assert!(view.status.iter().any(|c| c.name == "Fists" && c.fields.iter().any(|f| f.key == "hp")), "{view:?}");
    // Undone, the scenario's visibility is back; the journal restores it.
    session.command(Command::Undo(2)).unwrap();
    assert!(session.snapshot().view("hero").status.iter().all(|c| c.name != "Fists"));
    let restored = Session::from_json(&session.journal_json()).unwrap();
    assert_eq!(restored.snapshot(), session.snapshot());
}

#[test]
fn visibility_names_only_the_scenarios_sides_and_combatants() {
    let (file, text) = brawl();
    for (section, line, wanted) in [
        ("secret = [\"gang\"]", "secret = [\"gang\"]", "unknown side `gang`"),
        ("hidden = [\"Joe Brno\"]", "hidden = [\"Joe Brno\"]", "did you mean `Joe Bruno`?"),
        ("hiden = []", "hiden = []", "unknown field `hiden`"),
    ] {
        let text = format!("{text}\n[visibility]\n{section}\n");
        let Err(fray_live::LiveError::Scenario(e)) = Session::open(&file, &text, vec![], 1, DiceMode::Fray, vec![])
        else {
            panic!("{section}: accepted")
        };
        assert!(e.message.contains(wanted), "{section}: {}", e.message);
        assert_eq!(e.line, text.lines().count(), "{section}: {e}");
        assert_eq!(e.source_line, line, "{section}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Over random fights with random hiding and secrets, no side's view holds a hidden
    /// combatant's name or a secret side's numbers.
    #[test]
    fn a_view_never_shows_what_is_kept_from_it(example in 0usize..16, seed in 0u64..1_000, picks in prop::collection::vec(any::<u64>(), 1..40)) {
        let (file, text) = examples().into_iter().cycle().nth(example).unwrap();
        let text = shortened(&text);
        let names = combatants(&file, &text);
        let scenario = fray_rules::load(&file, &text, &[]).unwrap();
        let sides = scenario.sides();
        let mut session = Session::open(&file, &text, vec![], seed, DiceMode::Fray, names.clone()).unwrap();
        for r in picks {
            let command = match r % 7 {
                0 => Command::Hide { who: names[(r >> 8) as usize % names.len()].clone(), hidden: (r >> 16) % 3 != 0 },
                1 => Command::Secret { side: sides[(r >> 8) as usize % sides.len()].clone(), secret: (r >> 16) % 3 != 0 },
                _ => random_command(session.snapshot(), &names, tracks(&file, &text), "", r),
            };
            let _ = session.command(command);
            for side in &sides {
                check_view(&session, side, &file);
            }
        }
    }
}

#[test]
fn choices_come_as_structured_data_with_the_odds_beside_each_attack() {
    // The brawl: Joe's declaration lists attacks on Docker (combatant 1), with the exact odds the
    // label gives, as fields.
    let (file, text) = brawl();
    let session = Session::open(&file, &text, vec![], 3, DiceMode::Fray, vec!["Joe Bruno".into()]).unwrap();
    let Some(Pending::Decision { choices, data, odds, ai, .. }) = session.snapshot().pending.clone() else {
        panic!("Joe's declaration")
    };
    assert_eq!((choices.len(), data.len(), odds.len()), (choices.len(), choices.len(), choices.len()));
    assert_eq!(data[ai]["Intent"]["Attack"]["target"], 1, "{}", data[ai]);
    assert_eq!(data[ai]["Intent"]["Attack"]["fists"], true, "{}", data[ai]);
    let attack = odds[ai].as_ref().expect("odds beside the attack");
    assert_eq!(attack.hit, "11/20");
    assert!(choices[ai].contains(&format!("hit 55.0% ({})", attack.hit)), "{}", choices[ai]);
    assert!((attack.down_chance - 0.08).abs() < 1e-9, "{attack:?}");
    // No odds beside a choice that is no attack.
    let nothing = choices.iter().position(|c| c == "declare nothing").unwrap();
    assert_eq!(odds[nothing], None);
    assert_eq!(data[nothing], serde_json::json!({ "Intent": null }));
}

/// A duel of `ruleset` with its first combatant played by a person.
fn duel(ruleset: &str, name: &str) -> (Session, Vec<String>) {
    let (file, text) = examples().into_iter().find(|(f, _)| f.ends_with(&format!("{ruleset}/{name}"))).unwrap();
    let names = combatants(&file, &text);
    let session = Session::open(&file, &text, vec![], 3, DiceMode::Fray, vec![names[0].clone()]).unwrap();
    (session, names)
}

/// The status field `key` of combatant `who`, as text.
fn field(snapshot: &Snapshot, who: &str, key: &str) -> String {
    let status = snapshot.status.iter().find(|c| c.name == who).unwrap();
    status.fields.iter().find(|f| f.key == key).map(|f| f.text.clone()).unwrap_or_else(|| panic!("{who}: no {key}"))
}

fn set(who: &str, field: &str, value: i64) -> Command {
    Command::Adjust(Adjustment::Set { who: who.into(), field: field.into(), item: None, value })
}

#[test]
fn the_gm_sets_a_track_and_the_rules_follow_it() {
    // rule: FLUID-TRACK-5
    // rule: FLUID-ROUND-4
    let (mut session, names) = duel("fluid", "barbarian-vs-marauder.toml");
    let foe = &names[1];
    let lines = session.snapshot().log.len();
    session.command(set(foe, "w", 2)).unwrap();
    let snapshot = session.snapshot().clone();
    let new: Vec<&str> = snapshot.log[lines..].iter().filter_map(|l| l.text.as_deref()).collect();
    assert_eq!(new[..1], [format!("The GM sets {foe}'s W to 2.")], "{new:?}");
    assert!(field(&snapshot, foe, "w").starts_with("2 of"), "{:?}", field(&snapshot, foe, "w"));
    assert!(snapshot.pending.is_some(), "the same decision is asked again");
    // The journal restores it; undo takes it back.
    let restored = Session::from_json(&session.journal_json()).unwrap();
    assert_eq!(restored.snapshot(), session.snapshot());
    session.command(Command::Undo(1)).unwrap();
    assert_eq!(session.snapshot().log.len(), lines);
    // W at 0 or below is Dying (FLUID-TRACK-5), out of the fight under the default
    // `side_out_when = incapacitated` (FLUID-ROUND-4): the fight ends there.
    session.command(set(foe, "w", -1)).unwrap();
    let snapshot = session.snapshot().clone();
    let new: Vec<&str> = snapshot.log[lines..].iter().filter_map(|l| l.text.as_deref()).collect();
    assert_eq!(new[..2], [format!("The GM sets {foe}'s W to -1."), format!("{foe} is now dying")], "{new:?}");
    assert!(field(&snapshot, foe, "conditions").contains("Dying"));
    assert!(snapshot.ending.as_ref().is_some_and(|e| e.winner.is_some() && !e.by_gm), "{:?}", snapshot.ending);
    session.command(Command::Undo(1)).unwrap();
    // Refusals say what is wrong and change nothing.
    for (command, why) in [
        (set(foe, "hp", 3), "no track `hp`"),
        (set(foe, "w", 1_000), "w takes a whole number from -999 to"),
        (set("Nobody", "w", 3), "no combatant `Nobody`"),
        (set(foe, "stunned", 2), "stunned takes a whole number from 0 to 1"),
        (
            Command::Adjust(Adjustment::Set { who: foe.clone(), field: "ammo".into(), item: None, value: 3 }),
            "name the item",
        ),
    ] {
        let before = session.snapshot().clone();
        let error = session.command(command).unwrap_err().to_string();
        assert!(error.contains(why), "{error}");
        assert_eq!(session.snapshot(), &before);
    }
}

#[test]
fn the_gm_takes_a_combatant_out_and_the_fight_ends() {
    for (ruleset, example) in [
        ("fluid", "barbarian-vs-marauder.toml"),
        ("opend6", "blaster-duel.toml"),
        ("hardboiled", "bar-room-brawl.toml"),
        ("phasesix", "sword-and-shield.toml"),
        ("ticks", "pistol-duel.toml"),
    ] {
        let (mut session, names) = duel(ruleset, example);
        let sides = session.scenario().sides();
        let foes: Vec<String> = names
            .iter()
            .enumerate()
            .filter(|(i, _)| session.scenario().side_of(*i) != session.scenario().side_of(0))
            .map(|(_, n)| n.clone())
            .collect();
        for foe in &foes {
            if session.snapshot().ending.is_some() {
                break;
            }
            session.command(Command::Adjust(Adjustment::Out { who: foe.clone() })).unwrap();
            let status = session.snapshot().status.iter().find(|c| &c.name == foe).unwrap().clone();
            assert!(!status.standing, "{ruleset}: {foe} taken out still stands");
        }
        // The fight plays on (the person's decisions answered by the AI) to its end: the person's
        // side wins.
        take_the_ai(&mut session);
        let ending = session.snapshot().ending.clone().unwrap();
        let own = &sides[session.scenario().side_of(0)];
        assert_eq!(ending.winner.as_deref(), Some(own.as_str()), "{ruleset}: {ending:?}");
        let text: Vec<&str> = session.snapshot().log.iter().filter_map(|l| l.text.as_deref()).collect();
        assert!(text.iter().any(|t| t.contains("The GM takes")), "{ruleset}");
        let restored = Session::from_json(&session.journal_json()).unwrap();
        assert_eq!(restored.snapshot(), session.snapshot(), "{ruleset}");
    }
}

#[test]
fn the_guide_lists_every_track_each_ruleset_lets_the_gm_set() {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/live.md")).unwrap();
    for ruleset in fray_rules::RULESETS {
        let row = guide
            .lines()
            .find(|l| l.starts_with(&format!("| {} |", ruleset.id)))
            .unwrap_or_else(|| panic!("docs/live.md: no row for {} in the table of adjustments", ruleset.id));
        for track in ruleset.adjustable {
            assert!(row.contains(&format!("`{}", track.key)), "docs/live.md: {} lacks `{}`", ruleset.id, track.key);
        }
    }
}

#[test]
fn deferred_odds_leave_the_fight_the_same_and_come_when_worked_out() {
    let (file, text) = examples().into_iter().find(|(f, _)| f.ends_with("opend6/blaster-duel.toml")).unwrap();
    let names = combatants(&file, &text);
    let mut plain = Session::open(&file, &text, vec![], 4, DiceMode::Fray, names.clone()).unwrap();
    let mut deferred = Session::open(&file, &text, vec![], 4, DiceMode::Fray, names).unwrap();
    deferred.defer_odds(true);
    let mut compared = 0;
    for _ in 0..12 {
        let Some(ai) = plain.snapshot().pending.as_ref().and_then(Pending::ai) else { break };
        plain.command(Command::Answer(ai)).unwrap();
        deferred.command(Command::Answer(ai)).unwrap();
        let (want, got) = (plain.snapshot(), deferred.snapshot());
        assert_eq!((&got.log, &got.status), (&want.log, &want.status));
        if let Some(Pending::Decision { odds, .. }) = &got.pending {
            assert!(!got.odds_worked_out && odds.iter().all(Option::is_none), "no odds before they are worked out");
            assert!(deferred.work_out_odds());
            compared += usize::from(
                matches!(&want.pending, Some(Pending::Decision { odds, .. }) if odds.iter().any(Option::is_some)),
            );
        }
        assert_eq!(deferred.snapshot(), plain.snapshot());
        assert!(!deferred.work_out_odds(), "worked out once");
    }
    assert!(compared > 0, "some decision offered an attack with its odds");
}

#[test]
fn a_combatant_shown_again_stays_out_of_what_it_did_while_hidden() {
    let (file, text) = examples().into_iter().find(|(f, _)| f.ends_with("hardboiled/thug-gang.toml")).unwrap();
    let names = combatants(&file, &text);
    let scenario = fray_rules::load(&file, &text, &[]).unwrap();
    let hero = scenario.sides()[scenario.side_of(0)].clone();
    let thug = names[4].clone();
    let mut session = Session::open(&file, &text, vec![], 4, DiceMode::Fray, vec![names[0].clone()]).unwrap();
    let answer = |session: &mut Session, n: usize| {
        for _ in 0..n {
            if let Some(Pending::Decision { ai, .. }) = session.snapshot().pending.clone() {
                session.command(Command::Answer(ai)).unwrap();
            }
        }
    };
    answer(&mut session, 1);
    session.command(Command::Hide { who: thug.clone(), hidden: true }).unwrap();
    let from = session.snapshot().log.len();
    answer(&mut session, 6);
    session.command(Command::Hide { who: thug.clone(), hidden: false }).unwrap();
    let to = session.snapshot().log.len();
    take_the_ai(&mut session);
    let log = &session.snapshot().log;
    let names_thug = |l: &fray_rules::Line| {
        l.text.as_deref().is_some_and(|t| t.contains(&thug)) || l.json.to_string().contains(&thug)
    };
    assert!(log[from..to].iter().any(names_thug), "the thug acts while hidden");
    assert!(log[..from].iter().any(names_thug) && log[to..].iter().any(names_thug), "and before and after");
    // The hero's side sees the thug before and after, not in between.
    let want: Vec<_> = log
        .iter()
        .enumerate()
        .filter(|(i, l)| !((from..to).contains(i) && names_thug(l)))
        .map(|(_, l)| l.clone())
        .collect();
    assert_eq!(session.snapshot().view(&hero).log, want);
    // The thugs' own side sees everything.
    let thugs = scenario.sides()[scenario.side_of(4)].clone();
    assert_eq!(&session.snapshot().view(&thugs).log, log);
    // And a restored journal hides the same.
    let restored = Session::from_json(&session.journal_json()).unwrap();
    assert_eq!(restored.snapshot().view(&hero).log, want);
}

#[test]
fn odds_worked_out_on_another_thread_are_those_of_the_replay_for_every_example() {
    let mut compared = 0;
    for (file, text) in examples() {
        let names = combatants(&file, &text);
        let mut plain = Session::open(&file, &text, vec![], 3, DiceMode::Fray, names.clone()).unwrap();
        let mut deferred = Session::open(&file, &text, vec![], 3, DiceMode::Fray, names).unwrap();
        deferred.defer_odds(true);
        for _ in 0..6 {
            let Some(ai) = plain.snapshot().pending.as_ref().and_then(Pending::ai) else { break };
            plain.command(Command::Answer(ai)).unwrap();
            deferred.command(Command::Answer(ai)).unwrap();
            if let Some(work) = deferred.odds_work() {
                assert_eq!(work.version(), deferred.version());
                let worked = std::thread::spawn(move || work.run()).join().unwrap();
                // Odds for another version are dropped.
                let stale = fray_live::WorkedOdds { version: worked.version + 1, odds: worked.odds.clone() };
                assert!(!deferred.put_odds(stale), "{file}");
                assert!(deferred.put_odds(worked), "{file}");
                compared += 1;
            }
            assert_eq!(deferred.snapshot(), plain.snapshot(), "{file}");
        }
    }
    assert!(compared > 20, "decisions with deferred odds: {compared}");
}
