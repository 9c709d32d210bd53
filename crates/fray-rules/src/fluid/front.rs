//! The `fluid` scenario as the command line sees it: fights with a log, people at the table,
//! simulation batches.

use super::policy::{Ai, ai_choice, stance_split};
use super::setup::{DefenceSkill, Setup, Sheet};
use super::{CheckKind, Choice, Condition, DeclaredAttack, Event, Fluid, Intent, List, Plan, Request, State};
use crate::board::Played;
use crate::{AttackOdds, Front, Line, Prompt, Seats};
use fray_engine::{CombatantId, Decider, Dice, Fight, FightError, FnSink, Pending, PerCombatant, stream_key};
use fray_sim::{BatchDice, Ledger};

/// A loaded `fluid` scenario.
#[derive(Clone, Debug)]
pub struct FluidScenario(pub Setup);

/// The JSON Schema of the `fluid` log's events, the `end` among them.
pub fn events_schema() -> serde_json::Value {
    crate::events::schema::<Event>("fluid", "rounds", &[])
}

impl FluidScenario {
    /// The menu a person gets for `request`: the question, the labelled choices (the AI's choice
    /// `ai` among them, attacks on allies last, none on the dead), the index of the AI's choice,
    /// and the exact odds beside each choice when `shown`.
    #[allow(clippy::type_complexity)] // reason: the pieces of one prompt, taken apart at once
    fn menu(
        &self,
        setup: &Setup,
        state: &State,
        who: CombatantId,
        request: &Request,
        ai: Choice,
        shown: bool,
    ) -> (String, Vec<(String, Choice)>, usize, Vec<Option<crate::ChoiceOdds>>) {
        let (question, mut choices) = crate::building_prompt(shown, || self.prompt(state, who, request));
        // The AI's plan is always offered: a plan the menu's own lines do not list (a burst, a
        // blast aimed at a point, a shield with an attack…) is added, in words.
        if !choices.iter().any(|(_, c)| *c == ai) {
            choices.push((self.ai_label(who, &ai), ai.clone()));
        }
        // Attacks on allies last and marked, none on the dead; an empty answer takes the AI's choice.
        let side = setup.combatants[who.index()].side;
        let mut choices = crate::arrange_targets(
            choices,
            |c| match c {
                Choice::Plan(plan) | Choice::Revise(Some(plan)) => plan.attacks.first().map(|a| a.target),
                _ => None,
            },
            |t| setup.combatants[t.index()].side == side,
            |t| state.fighter(t).dead,
            |t| self.name(t),
        );
        let default = crate::ai_default(&mut choices, ai);
        let odds = crate::odds_beside(shown, &choices, |c| self.choice_odds(state, who, c));
        (question, choices, default, odds)
    }

    /// Each combatant's stream key under `dice_stream = per_combatant`: a hash of its id.
    fn stream_keys(&self) -> Vec<u64> {
        self.0.combatants.iter().map(|c| stream_key(&c.id)).collect()
    }
}

/// "success of m" or "failure of m", after `hit` or `miss`.
fn margin_text(margin: i32, hit: &str, miss: &str) -> String {
    if margin >= 0 { format!("{hit}success of {margin}") } else { format!("{miss}failure of {}", -margin) }
}

/// "parry with sword", "block unarmed", "dodge".
fn defence_name(sheet: &super::setup::Sheet, (skill, item): (DefenceSkill, Option<u8>)) -> String {
    let skill = format!("{skill:?}").to_lowercase();
    match item {
        _ if skill == "dodge" => skill,
        Some(i) => format!("{skill} with {}", sheet.items[usize::from(i)].id),
        None => format!("{skill} unarmed"),
    }
}

/// An exact probability for a prompt: the fraction and a rounded percentage.
fn chance(p: &fray_dice::BigRational) -> String {
    use num_traits::ToPrimitive;
    format!("{p} ≈ {:.1}%", p.to_f64().unwrap_or(f64::NAN) * 100.0)
}

/// Answers with a person's choices for some combatants, the AI for the others.
struct Table<'a> {
    scenario: &'a FluidScenario,
    seats: &'a mut dyn crate::Seats,
    /// The round the counts below are of.
    round: u32,
    /// Per combatant: how many times it has been asked to split Tactics and to declare this
    /// round (the first pass and the revision passes, FLUID-TAC-3, FLUID-ACT-1).
    asked: Vec<(u32, u32)>,
}

impl Table<'_> {
    /// Which pass of the round's tactics split or declaration this request of `who` is, and how
    /// many there are, counting this one; `None` for other requests.
    fn pass(&mut self, setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Option<(u32, u32)> {
        if state.round != self.round {
            self.round = state.round;
            self.asked.iter_mut().for_each(|a| *a = (0, 0));
        }
        let asked = &mut self.asked[who.index()];
        let (count, passes) = match request {
            Request::Tactics { .. } => (&mut asked.0, setup.options.tactics_passes),
            Request::Declare { .. } => (&mut asked.1, setup.options.declare_passes),
            _ => return None,
        };
        *count += 1;
        Some((*count, passes + 1))
    }
}

impl Decider<Fluid> for Table<'_> {
    const INTERJECTS: bool = true;

    fn interject(&mut self, setup: &Setup, state: &State, who: CombatantId) -> Vec<Event> {
        crate::interjection(self.seats, who, |a| super::status::adjust_events(setup, state, a))
    }

    fn decide(&mut self, setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Result<Choice, Pending> {
        // A combatant the game master took out is no one's to play: its AI answers.
        if !self.seats.person(who) || state.fighter(who).removed {
            return Ok(ai_choice(setup, state, who, request));
        }
        let shown = self.seats.shown();
        // The split and the declaration are asked once and again in each revision pass: the
        // question says which pass this is (FLUID-TAC-3, FLUID-ACT-1).
        let pass = self.pass(setup, state, who, request);
        // In a revision pass the AI passes (keeps its split or plan): so does an empty answer.
        let revising = pass.is_some_and(|(n, _)| n > 1) && super::policy::ai_passes(setup, who, request);
        let fighter = state.fighter(who);
        let ai = match request {
            Request::Tactics { .. } if revising => Choice::Split { ot: fighter.ot, dt: fighter.dt },
            Request::Declare { .. } if revising => Choice::Plan(fighter.plan.clone()),
            _ => ai_choice(setup, state, who, request),
        };
        if !shown && self.seats.defers_odds() {
            let (scenario, state, request, ai) = (self.scenario.clone(), state.clone(), request.clone(), ai.clone());
            self.seats.deferred_odds(Box::new(move || {
                let (_, choices, _, odds) = scenario.menu(&scenario.0, &state, who, &request, ai, true);
                crate::PromptOdds { options: choices.into_iter().map(|(label, _)| label).collect(), odds }
            }));
        }
        let (mut question, choices, default, odds) = self.scenario.menu(setup, state, who, request, ai, shown);
        if let Some((n, of)) = pass.filter(|&(_, of)| of > 1) {
            question += &format!(" ({}pass {n} of {of})", if n > 1 { "revision " } else { "" });
        }
        let mut choice = crate::ask_person(self.seats, self.scenario.name(who), question, choices, default, odds)?;
        // Under `defense_choice = per_round` a person names the round's defence with the plan
        // (FLUID-DEF-4); the default policy's pick is listed first.
        if let Choice::Plan(plan) = &mut choice
            && setup.options.defense_per_round
        {
            let nameable = super::attack::nameable_defences(setup, state, who);
            let sheet = &setup.combatants[who.index()];
            let options = nameable
                .iter()
                .map(|&(named, tn)| format!("{} (TN {tn} against a medium weapon)", defence_name(sheet, named)))
                .collect();
            let data = nameable.iter().map(|&(named, tn)| serde_json::json!({ "Defence": named, "tn": tn })).collect();
            let prompt = Prompt {
                who: self.scenario.name(who).to_owned(),
                question: "name your defence for the round".to_owned(),
                options,
                default: 0,
                data,
                odds: vec![None; nameable.len()],
            };
            let pick = self.seats.ask(&prompt).ok_or(Pending)?.min(nameable.len().saturating_sub(1));
            plan.defence = nameable.get(pick).map(|d| d.0);
        }
        Ok(choice)
    }

    /// The AI-controlled combatants never revise; people are always asked.
    fn passes_optional(&self, setup: &Setup, who: CombatantId, request: &Request) -> bool {
        !self.seats.person(who) && super::policy::ai_passes(setup, who, request)
    }
}

impl FluidScenario {
    /// The exact odds of a plan's attacks, as its label gives them: each of its attacks on its
    /// first target with its first item (a blast's spread over several victims is not
    /// summarised).
    fn choice_odds(&self, state: &State, who: CombatantId, choice: &Choice) -> Option<crate::ChoiceOdds> {
        let (Choice::Plan(plan) | Choice::Revise(Some(plan))) = choice else { return None };
        let first = plan.attacks.first()?;
        let item = usize::from(first.item);
        if self.0.combatants[who.index()].items[item].kind == super::setup::ItemKind::Area {
            return None;
        }
        let count = plan.attacks.iter().filter(|a| a.target == first.target && a.item == first.item).count();
        let odds = super::odds::odds_in_state(
            &self.0,
            state,
            who,
            first.target,
            item,
            count as i32,
            first.intent,
            super::odds::Fire::SINGLE,
        );
        Some(crate::ChoiceOdds::new(&odds.hit, &odds.down))
    }

    /// The AI's choice as a menu line, for a choice the menu does not list otherwise: a plan in
    /// words with its fire modes and blast points.
    fn ai_label(&self, who: CombatantId, choice: &Choice) -> String {
        match choice {
            Choice::Plan(plan) | Choice::Revise(Some(plan)) => {
                let fire: Vec<String> = plan
                    .attacks
                    .iter()
                    .filter_map(|a| {
                        let mode = match (a.rounds, a.spray) {
                            (0 | 1, _) => String::new(),
                            (r, false) => format!("a burst of {r}"),
                            (r, true) => format!("a spray of {r}"),
                        };
                        let blast = a.blast.map_or(String::new(), |p| format!("blast at ({:.1}, {:.1})", p.x, p.y));
                        let parts: Vec<&str> =
                            [mode.as_str(), blast.as_str()].into_iter().filter(|s| !s.is_empty()).collect();
                        (!parts.is_empty()).then(|| format!("{}: {}", self.name(a.target), parts.join(", ")))
                    })
                    .collect();
                let fire = if fire.is_empty() { String::new() } else { format!(" ({})", fire.join("; ")) };
                format!("{}{fire} (the AI's plan)", self.plan_text(who, plan))
            }
            other => format!("{other:?} (the AI's choice)"),
        }
    }

    /// A plan in words, as the log and the prompts show it.
    fn plan_text(&self, who: CombatantId, plan: &Plan) -> String {
        let sheet = &self.0.combatants[who.index()];
        let list: Vec<String> = plan
            .attacks
            .iter()
            .map(|a| {
                format!(
                    "{} {} with {}",
                    if a.intent == Intent::Lethal { "attack" } else { "stun" },
                    self.name(a.target),
                    sheet.items[a.weapon()].id
                )
            })
            .collect();
        let move_text = plan.movement.map_or(String::new(), |m| {
            let to = match m.to {
                super::Destination::Point(p) => format!("({:.1}, {:.1})", p.x, p.y),
                super::Destination::Toward(c) => format!("towards {}", self.name(c)),
            };
            format!("{} {to}, then ", format!("{:?}", m.mode).to_lowercase())
        });
        let what = if plan.full_defense {
            "Full Defense".to_owned()
        } else if list.is_empty() {
            "nothing".to_owned()
        } else {
            list.join(", ")
        };
        let named = plan.defence.map(|d| defence_name(sheet, d));
        let shield = plan.shield.map_or(String::new(), |c| format!("; shields {}'s body", self.name(c)));
        move_text + &what + &named.as_ref().map_or(String::new(), |d| format!("; defends by {d}")) + &shield
    }

    /// A request as a question with labelled legal choices.
    pub fn prompt(&self, state: &State, who: CombatantId, request: &Request) -> (String, Vec<(String, Choice)>) {
        let setup = &self.0;
        match request {
            Request::Tactics { tactics } => {
                // The legal splits (FLUID-TAC-5): a negative value gives 0 / 0, or under
                // `negative_tactics = split` every split with both parts ≤ 0.
                let splits: Vec<(i32, i32)> = match (*tactics < 0, setup.options.negative_tactics_split) {
                    (true, false) => vec![(0, 0)],
                    (true, true) => (*tactics..=0).rev().map(|ot| (ot, tactics - ot)).collect(),
                    (false, _) => (0..=*tactics).rev().map(|ot| (ot, tactics - ot)).collect(),
                };
                let normal = stance_split(setup, *tactics, "normal");
                let options = splits
                    .into_iter()
                    .map(|(ot, dt)| {
                        let note = if (ot, dt) == normal { " (normal)" } else { "" };
                        (format!("oT {ot} / dT {dt}{note}"), Choice::Split { ot, dt })
                    })
                    .collect();
                (format!("split Tactics {tactics}"), options)
            }
            Request::Declare { options, max_per_item, rounds, .. } => {
                let sheet = &setup.combatants[who.index()];
                let mut out = Vec::new();
                out.extend([
                    ("no attack".to_owned(), Choice::Plan(Plan::default())),
                    (
                        "Full Defense (attacks on you are Inferior +1)".to_owned(),
                        Choice::Plan(Plan {
                            attacks: List::new(),
                            full_defense: true,
                            movement: None,
                            ..Plan::default()
                        }),
                    ),
                ]);
                for &(target, item) in options {
                    for intent in [Intent::Lethal, Intent::Stunning] {
                        let max = max_per_item[item];
                        for count in 1..=max {
                            let attacks: List<DeclaredAttack, 4> =
                                smallvec::smallvec![DeclaredAttack::single(target, item as u8, intent); count as usize];
                            // Exact odds beside a single-target attack; a blast's spread over
                            // several victims is not summarised here.
                            let odds = if !crate::odds_shown() {
                                String::new()
                            } else if sheet.items[item].kind == super::setup::ItemKind::Area {
                                " (a blast: see each victim's roll)".to_owned()
                            } else {
                                let odds = super::odds::odds_in_state(
                                    setup,
                                    state,
                                    who,
                                    target,
                                    item,
                                    count as i32,
                                    intent,
                                    super::odds::Fire::SINGLE,
                                );
                                let alone = super::odds::roll_odds_in_state(
                                    setup,
                                    state,
                                    who,
                                    target,
                                    item,
                                    count as i32,
                                    intent,
                                    super::odds::Fire::SINGLE,
                                );
                                if alone.hit == odds.hit && alone.down == odds.down {
                                    format!(" (each: hit {}, takes out {})", chance(&odds.hit), chance(&odds.down))
                                } else {
                                    // A sunder the AI would make on a Block (FLUID-SUNDER-7); the
                                    // person decides it.
                                    format!(
                                        " (each: hit {}, takes out {} as the AI would play it, sundering a Block; \
                                         the roll alone: takes out {})",
                                        chance(&odds.hit),
                                        chance(&odds.down),
                                        chance(&alone.down)
                                    )
                                }
                            };
                            let label = format!(
                                "{count} × {} {} with {}{odds}",
                                if intent == Intent::Lethal { "lethal attack on" } else { "stunning attack on" },
                                self.name(target),
                                sheet.items[item].id,
                            );
                            out.push((
                                label,
                                Choice::Plan(Plan { attacks, full_defense: false, movement: None, ..Plan::default() }),
                            ));
                        }
                    }
                }
                // Shielding the body of an incapacitated ally within Nearby from far shots while it is
                // stunned or unconscious (FLUID-DEF-15).
                for c in (0..setup.combatants.len()).map(|i| CombatantId(i as u16)) {
                    if super::run::can_shield(setup, state, who, c) {
                        let plan = Plan { shield: Some(c), ..Plan::default() };
                        out.push((format!("shield {}'s body from far shots", self.name(c)), Choice::Plan(plan)));
                    }
                }
                // Closing with an out-of-reach foe: the AI's move, then one attack (FLUID-MOVE-2).
                for &(target, item) in options {
                    if sheet.items[item].kind == super::setup::ItemKind::Melee
                        && state.distance(who, target) > self.0.options.reach_m + 1e-9
                        && let Some(movement) = super::policy::closing_move(setup, state, who, target, 1)
                    {
                        let label = format!(
                            "{:?} towards {} ({:.1} m) and attack with {}",
                            movement.mode,
                            self.name(target),
                            state.distance(who, target),
                            sheet.items[item].id
                        )
                        .to_lowercase();
                        let attack = DeclaredAttack::single(target, item as u8, Intent::Lethal);
                        let plan = Plan {
                            attacks: smallvec::smallvec![attack],
                            full_defense: false,
                            movement: Some(movement),
                            ..Plan::default()
                        };
                        out.push((label, Choice::Plan(plan)));
                    }
                }
                // Bursts and sprays at the weapon's maximum (FLUID-SPECIAL-5, -8).
                for &(target, item) in options {
                    let (burst, spray) = rounds.get(item).copied().unwrap_or((1, 0));
                    for (r, is_spray) in [(burst, false), (spray, true)] {
                        if r >= 2 {
                            let attack = DeclaredAttack {
                                target,
                                item: item as u8,
                                intent: Intent::Lethal,
                                rounds: r as u8,
                                spray: is_spray,
                                blast: None,
                            };
                            let label = format!(
                                "{} of {r} at {} with {}",
                                if is_spray { "spray" } else { "burst" },
                                self.name(target),
                                sheet.items[item].id
                            );
                            out.push((
                                label,
                                Choice::Plan(Plan {
                                    attacks: smallvec::smallvec![attack],
                                    full_defense: false,
                                    movement: None,
                                    ..Plan::default()
                                }),
                            ));
                        }
                    }
                }
                // A revision pass: the plan already declared is marked where it is listed, or
                // else listed last, so that the other choices keep their first pass's numbers.
                let current = &state.fighter(who).plan;
                let listed = out.iter_mut().find(|(_, c)| matches!(c, Choice::Plan(p) if p == current));
                if let Some((label, _)) = listed.filter(|_| *current != Plan::default()) {
                    label.push_str(" (your plan)");
                } else if *current != Plan::default() {
                    out.push((
                        format!("keep your plan: {}", self.plan_text(who, current)),
                        Choice::Plan(current.clone()),
                    ));
                }
                ("declare the round's actions".to_owned(), out)
            }
            Request::Defend { attacker, options } => {
                let dt = state.fighter(who).dt;
                let defender = &setup.combatants[who.index()];
                let mut out = vec![(format!("no defence (TN 10 + dT {dt})"), Choice::Defence(None))];
                for (i, option) in options.iter().enumerate() {
                    let with = option.item.map_or("unarmed".to_owned(), |i| defender.items[usize::from(i)].id.clone());
                    let label = match option.skill {
                        DefenceSkill::Dodge => format!("dodge (TN {} + dT {dt})", option.tn),
                        skill => format!(
                            "{} with {with} (TN {} + dT {dt}, attacker +{} for size)",
                            if skill == DefenceSkill::Parry { "parry" } else { "block" },
                            option.tn,
                            option.size_bonus
                        ),
                    };
                    out.push((label, Choice::Defence(Some(i))));
                }
                (format!("defend against {}", self.name(*attacker)), out)
            }
            Request::Guard { target, attacker, options } => {
                let ally = &setup.combatants[who.index()];
                let mut out = vec![("let it be".to_owned(), Choice::Defence(None))];
                for (i, option) in options.iter().enumerate() {
                    let with = option.item.map_or("unarmed".to_owned(), |i| ally.items[usize::from(i)].id.clone());
                    let skill = if option.skill == DefenceSkill::Parry { "parry" } else { "block" };
                    out.push((format!("{skill} with {with} (TN {})", option.tn), Choice::Defence(Some(i))));
                }
                (format!("guard {} against {}?", self.name(*target), self.name(*attacker)), out)
            }
            Request::TieOrder { tied } => {
                let mut out = vec![("let the usual tie-break decide".to_owned(), Choice::Order(List::new()))];
                for first in tied {
                    let mut order: List<CombatantId, 8> = smallvec::smallvec![*first];
                    order.extend(tied.iter().copied().filter(|c| c != first));
                    let names: Vec<&str> = order.iter().map(|c| self.name(*c)).collect();
                    out.push((names.join(", "), Choice::Order(order)));
                }
                ("players tied on initiative: choose your order".to_owned(), out)
            }
            Request::Revise { step, remaining, full_defense_allowed } => {
                let mut out = vec![("keep the plan".to_owned(), Choice::Revise(None))];
                if !remaining.is_empty() {
                    out.push(("drop the remaining attacks".to_owned(), Choice::Revise(Some(Plan::default()))));
                }
                if *full_defense_allowed {
                    let plan = Plan { full_defense: true, ..Plan::default() };
                    out.push(("switch to Full Defense (−1 per changed action)".to_owned(), Choice::Revise(Some(plan))));
                }
                (format!("{}'s step begins: change your plan?", self.name(*step)), out)
            }
            Request::SunderAttack { target, .. } => (
                format!("{} blocks: put the attack into the blocking item (sunder attack)?", self.name(*target)),
                vec![("no".into(), Choice::Sunder(false)), ("yes".into(), Choice::Sunder(true))],
            ),
            Request::Pain { cp } => (
                format!("CP {cp}: make the NER check to ignore pain?"),
                vec![("yes".into(), Choice::Pain(true)), ("no".into(), Choice::Pain(false))],
            ),
        }
    }

    /// One event as a line of the blow-by-blow log and as JSON.
    pub fn line(&self, event: &Event) -> Line {
        let n = |who: &CombatantId| self.name(*who).to_owned();
        // "[f,f,f] natural N (crit …) +B": a check's dice and arithmetic, as every check line shows them.
        let rolled = |check: &super::check::Check, roll: &super::check::CheckRoll| {
            let faces: Vec<String> = roll.faces.as_slice().iter().map(|f| f.to_string()).collect();
            let crit = match roll.crit {
                0 => String::new(),
                c if c > 0 => format!(" (crit level {c}, e {})", roll.effective),
                c => format!(" (blunder level {}, e {})", -c, roll.effective),
            };
            // Under edge_mode = extra_die, the highest extra die's signed part.
            let extra =
                if roll.extra == 0 { String::new() } else { format!(" {} (extra die)", crate::Signed(roll.extra)) };
            format!("[{}] natural {}{crit}{extra} {}", faces.join(","), roll.natural, crate::Signed(check.bonus))
        };
        let text = match event {
            Event::RoundStarted { round } => Some(format!("— round {round} (t = {} s) —", (round - 1) * 3)),
            Event::Check { who, kind, check, roll } => {
                let what = match kind {
                    CheckKind::Bod => "BOD test",
                    CheckKind::Act => "NER act test",
                    CheckKind::Pain => "NER pain check",
                    CheckKind::Heal => "Heal check",
                };
                let result = margin_text(roll.margin, "", "");
                Some(format!("{} {what}: {} vs {} → {result}", n(who), rolled(check, roll), check.tn))
            }
            Event::TacticsSet { who, ot, dt } => Some(format!("{} splits tactics: oT {ot}, dT {dt}", n(who))),
            Event::Declared { who, plan } => Some(format!("{} declares: {}", n(who), self.plan_text(*who, plan))),
            Event::Initiative { who, faces, total } => {
                Some(format!("{} initiative: [{},{},{}] + tactics = {total}", n(who), faces[0], faces[1], faces[2]))
            }
            Event::TieBreak { who, face } => Some(format!("{} tie-break d6: {face}", n(who))),
            Event::Step { .. } => None,
            Event::AttackDone { .. } => None,
            Event::Revised { who, plan, changes, .. } => Some(format!(
                "{} changes plans: {}{}",
                n(who),
                if plan.full_defense {
                    "Full Defense".to_owned()
                } else {
                    format!("{} attack(s) left", plan.attacks.len())
                },
                if *changes > 0 { format!(" (−{changes} on checks this round)") } else { String::new() }
            )),
            Event::RunCheck { who, check, roll } => Some(format!(
                "{} Run check: {} vs {} → margin {} m",
                n(who),
                rolled(check, roll),
                check.tn,
                crate::Signed(roll.margin)
            )),
            Event::Shielded { who, target } => {
                Some(format!("{} shields {}'s body and takes the shot", n(who), n(target)))
            }
            Event::Moved { who, mode, from, to, charge } => {
                let moved = from.distance(*to);
                let charge_text = charge.map_or(String::new(), |(t, b)| format!(", charging {} (+{b}W)", n(&t)));
                Some(format!(
                    "{} {} {moved:.1} m to ({:.1}, {:.1}){charge_text}",
                    n(who),
                    format!("{mode:?}").to_lowercase() + "s",
                    to.x,
                    to.y
                ))
            }
            Event::AmmoSpent { who, item } => {
                let weapon = &self.0.combatants[who.index()].items[*item].id;
                Some(format!("{}'s {weapon} loses an ammunition count", n(who)))
            }
            Event::Order { order } => {
                let names: Vec<String> = order.iter().map(n).collect();
                Some(format!("order: {}", names.join(", ")))
            }
            Event::Attack { attacker, target, item, rounds, defence, check, terms, roll, .. } => {
                let weapon = &self.0.combatants[attacker.index()].items[*item].id;
                let defence_text = match defence {
                    None => "no defence".to_owned(),
                    Some(d) => format!("{:?}", d.skill).to_lowercase(),
                };
                let result = margin_text(roll.margin, "hit, ", "miss, ");
                Some(format!(
                    "{} attacks {} with {weapon}{} ({defence_text}, TN {}): {}{} → {result}",
                    n(attacker),
                    n(target),
                    if *rounds > 1 { format!(" ({rounds}-round burst)") } else { String::new() },
                    check.tn,
                    rolled(check, roll),
                    crate::terms_text(terms.named_for(check.bonus))
                ))
            }
            Event::Damage { target, before, av, w, s, .. } => {
                Some(format!("{} takes {w}W {s}S ({}W {}S before AV {av})", n(target), before.0, before.1))
            }
            Event::Sunder { who, quality, check, roll, loss } => {
                let sheet = &self.0.combatants[who.index()];
                let (item, what) = match quality {
                    super::Quality::Oq(i) => (sheet.items[*i].id.clone(), "offense"),
                    super::Quality::Dq(i) => (sheet.items[*i].id.clone(), "defense"),
                    super::Quality::Av => (sheet.armor.as_ref().map_or(String::new(), |a| a.name.clone()), "armor"),
                };
                let result = if *loss > 0 { format!("Sunder (−{loss} {what})") } else { "no loss".to_owned() };
                Some(format!("{}'s {item} sunder check: {} vs {} → {result}", n(who), rolled(check, roll), check.tn))
            }
            Event::Condition { who, condition, gained } => {
                let name = match condition {
                    Condition::Dying => "dying",
                    Condition::Dead => "dead",
                    Condition::Unconscious => "unconscious",
                    Condition::Stunned => "stunned",
                    Condition::Stabilized => "stabilized",
                    Condition::Hidden => "hidden",
                };
                Some(format!("{} {} {name}", n(who), if *gained { "is now" } else { "is no longer" }))
            }
            Event::Adjusted { who, change } => Some(self.adjusted_text(*who, change)),
            Event::Ended { .. } => None, // the shared end line (`Front::log_line`)
        };
        self.log_line(event, text)
    }
}

impl Front for FluidScenario {
    type Rules = Fluid;
    type Sheet = Sheet;
    type Ai = Ai;

    fn setup(&self) -> &Setup {
        &self.0
    }

    fn roster(&self) -> crate::Roster<'_, Sheet> {
        crate::Roster::new(&self.0.combatants, &self.0.sides, self.0.max_rounds, |c| &c.id, |c| c.side)
    }

    fn item_name(&self, who: CombatantId, item: u8) -> &str {
        &self.0.combatants[who.index()].items[usize::from(item)].id
    }

    fn run_batch(&self, dice: &mut BatchDice, fights: u64, ledger: &mut Ledger) -> Result<(), FightError> {
        if self.0.options.dice_per_combatant {
            // Each fight's streams are seeded from a draw of the batch's generator (FLUID-DICE-10).
            let dice = PerCombatant::new(fray_engine::FromSource(dice), 0, self.stream_keys());
            fray_sim::run_fights::<Fluid, _, _>(&self.0, dice, Ai, fights, ledger, |dice| {
                let seed = dice.base().0.next_u64();
                dice.reseed(seed);
            })
        } else {
            fray_sim::run_fights::<Fluid, _, _>(&self.0, fray_engine::FromSource(dice), Ai, fights, ledger, |_| ())
        }
    }

    fn join_late(&mut self, n: usize) {
        self.0.joins_late = n;
    }

    fn explain_combatant(&self, c: &Sheet) -> String {
        let setup = &self.0;
        let amount = |a: &super::setup::Amount| match a {
            super::setup::Amount::Fixed(n) => n.to_string(),
            super::setup::Amount::Dice(p) => p.source().to_owned(),
        };
        let mut out = String::new();
        out += &format!(
            "  {} ({}{}) at ({}, {}): PC {}, W {}, S {}, tactics {}, move {} m{}{}\n    policy {}\n",
            c.id,
            setup.sides[c.side.index()],
            if c.player { ", player" } else { "" },
            c.position.x,
            c.position.y,
            c.pc,
            c.w,
            c.s,
            c.tactics,
            c.move_m,
            if c.hidden { ", hidden" } else { "" },
            if c.stabilized { ", stabilized" } else { "" },
            crate::policy_text(super::policy::POLICIES, |i| c.policy.name(i))
        );
        // The defence values a TN starts from (FLUID-DEF-1, FLUID-DEF-3).
        let defence = |skill| c.defence_value(skill, &setup.options);
        out += &format!(
            "    defence skills: dodge {}, parry {}, block {} (a defence TN adds the item's DQ)\n",
            defence(super::setup::DefenceSkill::Dodge),
            defence(super::setup::DefenceSkill::Parry),
            defence(super::setup::DefenceSkill::Block)
        );
        for (i, item) in c.items.iter().enumerate() {
            let skill = match (&item.skill, c.item_skill(i)) {
                (None, _) => String::new(),
                (Some(name), super::setup::SkillRef::Untrained) => {
                    format!(", skill {name} {} (untrained)", c.attack_value(i, &setup.options))
                }
                (Some(name), _) => format!(", skill {name} {}", c.attack_value(i, &setup.options)),
            };
            let ammo = item.ammo.map_or(String::new(), |a| format!(", ammunition {a}"));
            let damage = if item.kind == super::setup::ItemKind::Shield {
                String::new()
            } else {
                format!("damage W {} S {}, ", amount(&item.damage_w), amount(&item.damage_s))
            };
            out += &format!(
                "    {} ({:?}{}){skill}: {damage}OQ {}, DQ {}, sizes {:?}{ammo}\n",
                item.id,
                item.kind,
                if item.fire == super::setup::Fire::Single { String::new() } else { format!(", {:?}", item.fire) },
                crate::Signed(item.oq),
                crate::Signed(item.dq),
                item.sizes
            );
        }
        if let Some(armor) = &c.armor {
            out += &format!("    armour {}: AV {}, size {}\n", armor.name, armor.av, armor.size);
        }
        out
    }

    fn attack_odds_at(&self, attacker: &str, defender: &str, distance: Option<f64>) -> Result<AttackOdds, String> {
        super::odds::attack_odds_at(&self.0, attacker, defender, distance)
    }

    fn play(
        &self,
        dice: &mut dyn Dice,
        seed: Option<u64>,
        seats: &mut dyn Seats,
        out: &mut dyn FnMut(&Line),
    ) -> Played {
        let table = Table { scenario: self, seats, round: 0, asked: vec![(0, 0); self.0.combatants.len()] };
        let sink = FnSink(|event: &Event| out(&self.line(event)));
        match seed.filter(|_| self.0.options.dice_per_combatant) {
            // Streams seeded from the scenario seed and each id (FLUID-DICE-10).
            Some(seed) => {
                let dice = PerCombatant::new(dice, seed, self.stream_keys());
                let mut fight = Fight::<Fluid, _, _, _>::new(&self.0, dice, table, sink);
                let result = fight.run();
                crate::board::Played { result, status: self.board(fight.state()) }
            }
            None => {
                let mut fight = Fight::<Fluid, _, _, _>::new(&self.0, dice, table, sink);
                let result = fight.run();
                crate::board::Played { result, status: self.board(fight.state()) }
            }
        }
    }
}
