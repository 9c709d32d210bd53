//! The `opend6` scenario as the command line sees it: fights with a log, people at the table,
//! simulation batches.

use super::policy::{Ai, illegal_action};
use super::setup::{Level, Posture, Setup, Sheet};
use super::{
    Action, AttackPlan, Called, Choice, DamageCause, DefKind, Event, Loc, Mode, OpenD6, Ready, Request, Rolled, State,
};
use crate::board::Played;
use crate::{AttackOdds, Front, Line, Seats};
use fray_engine::{CombatantId, Dice};

/// A loaded `opend6` scenario.
#[derive(Clone, Debug)]
pub struct OpenD6Scenario(pub Setup);

/// The JSON Schema of the `opend6` log's events, the `end` among them.
pub fn events_schema() -> serde_json::Value {
    crate::events::schema::<Event>("opend6", "rounds", &[])
}

impl OpenD6Scenario {
    fn weapon(&self, who: CombatantId, w: u8) -> &str {
        &self.0.combatants[who.index()].weapons[w as usize].name
    }
}

/// A roll as the log shows it: `3D+2 [4,2] W[5] = 13`, with CP dice and a Critical Failure.
pub fn rolled_text(r: &Rolled) -> String {
    if r.regular == 0 && r.wild == 0 && r.cp == 0 {
        return format!("{} = {}", r.code, r.total);
    }
    let (reg, wild) = (r.regular as usize, r.wild as usize);
    let list = |f: &[u8]| f.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    let mut s = format!(
        "{}{} [{}] W[{}]",
        r.code,
        if r.fate { " (Fate Point)" } else { "" },
        list(&r.faces[..reg]),
        list(&r.faces[reg..reg + wild])
    );
    if r.cp > 0 {
        s += &format!(" CP[{}]", list(&r.faces[reg + wild..]));
    }
    if r.critical_failure {
        s += " (Critical Failure: the Wild Die and the highest die drop)";
    }
    if r.complication {
        s += " (complication)";
    }
    s + &format!(" = {}", r.total)
}

fn level_name(l: Level) -> String {
    l.name().replace('_', " ")
}

/// The modes and called shot of a plan, as the log and the odds print them (" (full auto, at the head)").
pub(super) fn mode_text(plan: &AttackPlan) -> String {
    let mut parts = Vec::new();
    for mode in [plan.mode, plan.mode2] {
        let m = match mode {
            Mode::Normal => continue,
            Mode::BurstSingle => "burst fire as single".to_owned(),
            Mode::FullAuto => "full auto".to_owned(),
            Mode::Multi(e) => format!("single fire as multi (+{e})"),
            Mode::SweepRanged | Mode::SweepClose => "sweep".to_owned(),
            Mode::AllOut => "all-out".to_owned(),
            Mode::Lunge => "lunge".to_owned(),
            Mode::Knockdown => "knockdown".to_owned(),
            Mode::Push => "push".to_owned(),
            Mode::Grab => "grab".to_owned(),
            Mode::Tackle => "tackle".to_owned(),
        };
        parts.push(m);
    }
    match plan.called {
        Called::None => {}
        Called::Small { size, disarm } => {
            parts.push(format!("called shot (size {size}{})", if disarm { ", disarm" } else { "" }))
        }
        Called::Location(loc) => parts.push(format!("at the {}", format!("{loc:?}").to_lowercase())),
        Called::Knockout => parts.push("knockout".to_owned()),
    }
    if parts.is_empty() { String::new() } else { format!(" ({})", parts.join(", ")) }
}

/// An exact probability for a prompt.
impl OpenD6Scenario {
    /// The legal actions of `who`, labelled, with the exact odds beside every attack.
    /// The labelled legal actions of `who` at `request`, with `ai`, the AI's action (worked out
    /// here when `None`).
    fn action_options(
        &self,
        state: &State,
        who: CombatantId,
        request: &Request,
        ai: Option<Action>,
    ) -> Vec<(String, Action)> {
        let setup = &self.0;
        let Request::Act { move_m, free_move_m, held, defend_only, only, .. } = request else { return Vec::new() };
        let attacks = if *held || *defend_only {
            super::List::new()
        } else {
            super::attack::attack_options(setup, state, who, *only)
        };
        let sheet = &setup.combatants[who.index()];
        let me = state.fighter(who);
        let mut candidates: Vec<Action> = Vec::new();
        for &(target, weapon, _) in &attacks {
            let base = AttackPlan::new(target, weapon);
            let modes = [
                Mode::Normal,
                Mode::BurstSingle,
                Mode::FullAuto,
                Mode::Multi(1),
                Mode::SweepRanged,
                Mode::AllOut,
                Mode::Lunge,
                Mode::SweepClose,
                Mode::Knockdown,
                Mode::Push,
                Mode::Grab,
                Mode::Tackle,
            ];
            for mode in modes {
                candidates.push(Action::Attack(AttackPlan { mode, ..base }));
            }
            for called in [
                Called::Location(Loc::Head),
                Called::Location(Loc::Arm),
                Called::Knockout,
                Called::Small { size: 1, disarm: true },
            ] {
                candidates.push(Action::Attack(AttackPlan { called, ..base }));
            }
        }
        for full in [false, true] {
            candidates.push(Action::Defend { kind: DefKind::Dodge, full });
            candidates.push(Action::Defend { kind: DefKind::Block(None), full });
            for w in 0..sheet.weapons.len() {
                candidates.push(Action::Defend { kind: DefKind::Block(Some(w as u8)), full });
            }
        }
        candidates.push(Action::Wait);
        let enemies: Vec<CombatantId> = (0..setup.combatants.len())
            .filter(|&i| setup.combatants[i].side != sheet.side && !state.fighters[i].out(&setup.options))
            .map(|i| CombatantId(i as u16))
            .collect();
        for &e in &enemies {
            let d = state.distance(who, e);
            let dir = (state.fighter(e).pos - me.pos).signum();
            for (limit, free) in [(*free_move_m, true), (*move_m, false)] {
                if limit > 0 && d > 0 {
                    candidates.push(Action::Move { to: me.pos + dir * limit.min((d - 1).max(1)), free });
                    candidates.push(Action::Move { to: me.pos - dir.max(1) * limit, free });
                }
            }
            candidates.push(Action::Aim(e));
        }
        for w in 0..sheet.weapons.len() {
            for what in [Ready::Draw, Ready::Reload, Ready::Switch] {
                candidates.push(Action::Ready(w as u8, what));
            }
        }
        candidates.extend([
            Action::StandUp,
            Action::Posture(Posture::Standing),
            Action::Posture(Posture::Crouching),
            Action::Posture(Posture::Prone),
            Action::Escape,
            Action::Squeeze,
            Action::Recover,
        ]);
        // Not one the GM added that has not joined yet.
        for i in (0..setup.combatants.len()).filter(|&i| !state.fighters[i].absent) {
            candidates.push(Action::FirstAid(CombatantId(i as u16)));
            candidates.push(Action::Revive(CombatantId(i as u16)));
        }
        candidates.push(Action::Pass);
        // What the AI would do, so that it is always offered (listed above as a rule).
        match ai {
            Some(action) => candidates.push(action),
            None => {
                if let Choice::Act(action) = super::policy::ai_choice(setup, state, who, request) {
                    candidates.push(action);
                }
            }
        }
        let mut seen = Vec::new();
        candidates
            .into_iter()
            .filter(|a| {
                let fresh = !seen.contains(a);
                seen.push(*a);
                fresh && illegal_action(setup, state, who, request, a).is_none()
            })
            .map(|a| (self.action_label(state, who, &a), a))
            .collect()
    }

    fn action_label(&self, state: &State, who: CombatantId, action: &Action) -> String {
        let setup = &self.0;
        let sheet = &setup.combatants[who.index()];
        match *action {
            Action::Attack(plan) => {
                let odds = crate::odds_shown().then(|| super::odds::odds_in_state(setup, state, who, &plan)).flatten();
                let odds = odds.map_or(String::new(), |o| {
                    let down = &o.hit * &o.down_given_hit;
                    let played = format!(
                        " — hit {} ({}), takes out {}",
                        crate::chance(&o.hit),
                        fray_dice::fraction(&o.hit),
                        crate::chance(&down)
                    );
                    // The Character Points the AI would spend on a roll below the difficulty
                    // (OD6-RES-1): a person decides them after the roll.
                    match super::odds::roll_odds_in_state(setup, state, who, &plan) {
                        Some(alone) if alone != o => format!(
                            "{played} as the AI would play it (Character Points below the difficulty); the roll alone: \
                             hit {}, takes out {}",
                            crate::chance(&alone.hit),
                            crate::chance(&(&alone.hit * &alone.down_given_hit))
                        ),
                        _ => played,
                    }
                });
                format!(
                    "attack {} with {}{}{odds}",
                    self.name(plan.target),
                    self.weapon(who, plan.weapon),
                    mode_text(&plan)
                )
            }
            Action::Defend { kind, full } => {
                let what = match kind {
                    DefKind::Dodge => "dodge".to_owned(),
                    DefKind::Block(None) => "block (brawling)".to_owned(),
                    DefKind::Block(Some(w)) => format!("parry with {}", self.weapon(who, w)),
                };
                if full {
                    format!("full defence: {what} + 10, nothing else this round")
                } else {
                    format!("{what} (partial defence)")
                }
            }
            Action::Wait => "wait (interrupt or act later)".to_owned(),
            Action::Move { to, free } => {
                format!("{} to {to} m (now {} m)", if free { "free half move" } else { "move" }, state.fighter(who).pos)
            }
            Action::Aim(t) => format!("aim at {}", self.name(t)),
            Action::Ready(w, what) => {
                format!("{} {}", format!("{what:?}").to_lowercase(), sheet.weapons[w as usize].name)
            }
            Action::StandUp => "stand up".to_owned(),
            Action::Posture(p) => format!("go {}", format!("{p:?}").to_lowercase()),
            Action::Escape => "try to escape the hold".to_owned(),
            Action::Squeeze => "squeeze (Strength Damage)".to_owned(),
            Action::FirstAid(p) => format!("first aid on {}", self.name(p)),
            Action::Revive(p) => format!("first aid to wake {}", self.name(p)),
            Action::MoveUp => "move up".to_owned(),
            Action::Recover => "shake off the massive damage (Easy roll)".to_owned(),
            Action::Pass => "end the turn".to_owned(),
        }
    }

    /// One event as a line of the blow-by-blow log and as JSON.
    pub fn line(&self, event: &Event) -> Line {
        let n = |who: &CombatantId| self.name(*who).to_owned();
        let text = match event {
            Event::RoundStarted { round } => Some(format!("— round {round} (t = {} s) —", (round - 1) * 5)),
            Event::Initiative { who, members, roll, bonus, total } => {
                let names: Vec<String> = members.iter().map(n).collect();
                let group = if members.len() > 1 { format!(" for {}", names.join(", ")) } else { String::new() };
                let text = match roll {
                    Some(r) => {
                        format!("{} initiative{group}: {} {} = {total}", n(who), rolled_text(r), crate::Signed(*bonus))
                    }
                    None => format!("{} initiative{group}: {total}", n(who)),
                };
                Some(text)
            }
            Event::Order { order } => Some(crate::order_text(order, |who| self.name(who))),
            Event::TurnLost { who } => Some(format!("{} cannot act and loses the turn", n(who))),
            Event::TurnStarted { .. } => None,
            Event::SurpriseUsed { .. } => None,
            Event::Declared { who, n: count } => {
                let penalty = (i32::from(*count) - self.0.combatants[who.index()].allotment).max(0);
                let p = if penalty > 0 { format!(" (−{penalty}D on every roll this round)") } else { String::new() };
                Some(format!("{} declares {count} action(s){p}", n(who)))
            }
            Event::Forfeit { who, why } => Some(format!("{}: {why}", n(who))),
            Event::Acted { who, action: Action::Wait } => Some(format!("{} waits", n(who))),
            Event::Acted { .. } => None,
            Event::DefenceSet { .. } => None,
            Event::Out { who } => Some(format!("{} is out of the fight", n(who))),
            Event::Resumed { who, interrupting } => Some(match interrupting {
                Some((a, total)) => format!("{} interrupts {} (who rolled {total})", n(who), n(a)),
                None => format!("{} resumes", n(who)),
            }),
            Event::Points { who, cp, fp } => Some(match (cp, fp) {
                (0, 2) => format!("{} spends the climactic Fate Point", n(who)),
                (0, _) => format!("{} spends a Fate Point", n(who)),
                _ => format!("{} spends {cp} Character Point(s)", n(who)),
            }),
            Event::Defence { who, kind, full, roll, value } => {
                let what = match kind {
                    DefKind::Dodge => "dodges".to_owned(),
                    DefKind::Block(None) => "blocks".to_owned(),
                    DefKind::Block(Some(w)) => format!("parries with {}", self.weapon(*who, *w)),
                };
                let full_text = if *full { " + 10 (full defence)" } else { "" };
                Some(format!("{} {what}: {}{full_text} → defence {value}", n(who), rolled_text(roll)))
            }
            Event::DefenceEnded { .. } => None,
            Event::Attack { attacker, target, weapon, plan, roll, base, difficulty, terms, hit } => {
                let diff = if *difficulty == i32::MAX {
                    "out of reach".to_owned()
                } else {
                    let list = crate::terms_list(terms.named());
                    format!("difficulty {difficulty} (base {base}{}{list})", if list.is_empty() { "" } else { ", " })
                };
                Some(format!(
                    "{} attacks {} with {}{}: {} vs {diff} → {}",
                    n(attacker),
                    n(target),
                    self.weapon(*attacker, *weapon),
                    mode_text(plan),
                    rolled_text(roll),
                    if *hit { format!("hit by {}", roll.total - difficulty) } else { "miss".to_owned() }
                ))
            }
            Event::Ammo { .. } => None,
            Event::Damage { cause, by, target, roll, fixed, bonus, total } => Some(format!(
                "damage to {}{}{}: {}{}{}{}",
                n(target),
                by.map_or(String::new(), |b| format!(" by {}", n(&b))),
                match cause {
                    DamageCause::Hit => "",
                    DamageCause::ParryCut => " (a sharp weapon parried bare hands: its listed damage)",
                    DamageCause::BodyBlock => " (a blade blocked bare-handed: its listed damage)",
                    DamageCause::Squeeze => " (a squeeze: Strength Damage)",
                },
                rolled_text(roll),
                if *fixed != 0 { format!(" {} (location)", crate::Signed(*fixed)) } else { String::new() },
                if *bonus != 0 { format!(" {} (bonus)", crate::Signed(*bonus)) } else { String::new() },
                if *fixed != 0 || *bonus != 0 { format!(" = {total}") } else { String::new() }
            )),
            Event::Resist { who, roll, total } => Some(match roll {
                Some(r) => {
                    format!("{} resists: {}", n(who), rolled_text(r))
                        + &if r.total != *total { format!(" → {total}") } else { String::new() }
                }
                None => format!("{} resists with nothing: 0", n(who)),
            }),
            Event::Wound { who, margin, incoming, from, to, bp, .. } => {
                let track = if self.0.options.body_points { format!(", {bp} BP left") } else { String::new() };
                Some(format!(
                    "{}: injury {margin} → {} ({} → {}){track}",
                    n(who),
                    level_name(*incoming),
                    level_name(*from),
                    level_name(*to)
                ))
            }
            Event::StunWindow { who, until } => {
                Some(format!("{} is stunned: −1D on actions through round {until}", n(who)))
            }
            Event::StayUp { who, roll, difficulty, ok } => Some(format!(
                "{} stay-up roll: {} vs {difficulty} → {}",
                n(who),
                rolled_text(roll),
                if *ok { "stays conscious (−3D)" } else { "falls unconscious" }
            )),
            Event::Unconscious { who, until } => Some(if *until == u32::MAX {
                format!("{} is unconscious for the rest of the fight", n(who))
            } else {
                format!("{} is unconscious through round {until}", n(who))
            }),
            Event::Woke { who } => Some(format!("{} wakes up", n(who))),
            Event::Survival { who, roll, need, died } => Some(format!(
                "{} survival check: {} vs {need} → {}",
                n(who),
                rolled_text(roll),
                if *died { "dies" } else { "hangs on" }
            )),
            Event::Moved { who, from, to, free } => {
                Some(format!("{} {} from {from} m to {to} m", n(who), if *free { "moves (free)" } else { "moves" }))
            }
            Event::Aimed { who, target, rounds } => {
                Some(format!("{} aims at {} ({rounds} round(s), +{}D)", n(who), n(target), rounds.min(&3)))
            }
            Event::AimEnded { .. } => None,
            Event::Readied { who, weapon, what } => Some(format!(
                "{} {} {}",
                n(who),
                match what {
                    Ready::Draw => "draws",
                    Ready::Reload => "reloads",
                    Ready::Switch => "switches the setting of",
                },
                self.weapon(*who, *weapon)
            )),
            Event::Dropped { who, weapon } => Some(format!("{} drops {}", n(who), self.weapon(*who, *weapon))),
            Event::PostureChanged { who, posture, forced } => Some(format!(
                "{} {} {}",
                n(who),
                if *forced { "is knocked" } else { "goes" },
                format!("{posture:?}").to_lowercase()
            )),
            Event::KnockPenalty { who, pending } => {
                pending.then(|| format!("{} takes −2D on the next Agility roll", n(who)))
            }
            Event::Held { who, by } => Some(match by {
                Some(h) => format!("{} is held by {}", n(who), n(h)),
                None => format!("{} is free", n(who)),
            }),
            Event::Opposed { who, what, roll, against, ok } => Some(format!(
                "{} {what}: {} vs {against} → {}",
                n(who),
                rolled_text(roll),
                if *ok { "succeeds" } else { "fails" }
            )),
            Event::Aid { who, patient, roll, difficulty, to, ok } => Some(format!(
                "{} gives {} first aid: {} vs {difficulty} → {}",
                n(who),
                n(patient),
                rolled_text(roll),
                if *ok { format!("now {}", level_name(*to)) } else { "no effect".to_owned() }
            )),
            Event::Restricted { who, from, until, recovered } => Some(if until < from {
                format!("{} shakes off the massive damage", n(who))
            } else if *recovered {
                format!("{} recovers from the massive damage: normal actions from round {}", n(who), until + 1)
            } else {
                format!("{} reels from massive damage: defence and moving away only in rounds {from}–{until}", n(who))
            }),
            Event::Recovery { who, roll, difficulty, ok } => Some(format!(
                "{} recovery roll: {} vs {difficulty} → {}",
                n(who),
                rolled_text(roll),
                if *ok { "success" } else { "failure" }
            )),
            Event::LocationEffect { who, loc } => {
                Some(format!("{}'s {} wound has a lasting effect", n(who), format!("{loc:?}").to_lowercase()))
            }
            Event::DifficultyPenalty { who, penalty } => {
                Some(format!("{} rolls at +{penalty} difficulty until healed", n(who)))
            }
            Event::Recovered { who } => Some(format!("{} is no longer stunned", n(who))),
            Event::BodyPoints { who, roll, max } => {
                Some(format!("{} Body Points: 20 + {} = {max}", n(who), rolled_text(roll)))
            }
            Event::QuickDrawn { who, draw } => Some(format!(
                "{} quick-draws {}: {} action(s), {}D moved to initiative",
                n(who),
                self.weapon(*who, draw.weapon),
                draw.n,
                draw.k
            )),
            Event::Ended { .. } => None, // the shared end line (`Front::log_line`)
            Event::Adjusted { who, change } => Some(self.adjusted_text(*who, change)),
        };
        self.log_line(event, text)
    }
}

impl crate::Prompts<OpenD6> for OpenD6Scenario {
    /// A request as a question with labelled legal choices.
    fn prompt(
        &self,
        state: &State,
        who: CombatantId,
        request: &Request,
        ai: &Choice,
    ) -> (String, Vec<(String, Choice)>) {
        let setup = &self.0;
        match request {
            Request::QuickDraw => {
                let sheet = &setup.combatants[who.index()];
                let mut out = vec![("no quick draw".to_owned(), Choice::QuickDraw(None))];
                for (w, weapon) in sheet.weapons.iter().enumerate().take(sheet.weapons.len() - 1) {
                    let skill = sheet.skill(weapon.skill).dice;
                    for n in 1..=2u8 {
                        let left = skill - (i32::from(n) - sheet.allotment).max(0);
                        for k in 1..left {
                            let draw = super::QuickDraw { weapon: w as u8, n, k: k as u8 };
                            let label = format!(
                                "quick draw {} with {n} action(s): +{k}D initiative, attacks at {}D",
                                weapon.name,
                                left - k
                            );
                            out.push((label, Choice::QuickDraw(Some(draw))));
                        }
                    }
                }
                ("declare a quick draw before initiative?".to_owned(), out)
            }
            Request::Declare { max } => {
                let sheet = &setup.combatants[who.index()];
                let options = (1..=(*max).min(5))
                    .map(|n| {
                        let penalty = (i32::from(n) - sheet.allotment).max(0);
                        let label = if penalty > 0 {
                            format!("{n} actions (−{penalty}D on every roll this round)")
                        } else {
                            format!("{n} action{}", if n > 1 { "s" } else { "" })
                        };
                        (label, Choice::Count(n))
                    })
                    .collect();
                ("how many actions this round?".to_owned(), options)
            }
            Request::Act { remaining, .. } => {
                let ai = match ai {
                    Choice::Act(action) => Some(*action),
                    _ => None,
                };
                let actions = self.action_options(state, who, request, ai);
                (
                    format!("your next action ({remaining} left)"),
                    actions.into_iter().map(|(l, a)| (l, Choice::Act(a))).collect(),
                )
            }
            Request::Interrupt { actor, target, total, difficulty, .. } => {
                let mut out = vec![("let it happen".to_owned(), Choice::Interrupt(None))];
                let act = super::policy::act_request(setup, state, who, false);
                for (label, action) in self.action_options(state, who, &act, None) {
                    if matches!(action, Action::Defend { full: false, .. } | Action::Attack(_)) {
                        out.push((label, Choice::Interrupt(Some(action))));
                    }
                }
                let question = match target {
                    Some(t) => format!(
                        "{} rolled {total} at {} (difficulty now {difficulty}): interrupt?",
                        self.name(*actor),
                        self.name(*t)
                    ),
                    None => format!("{} rolled {total} for its action: interrupt?", self.name(*actor)),
                };
                (question, out)
            }
            Request::MoveUp => (
                "you are being disarmed: move up (one action) and roll Strength to keep your weapon?".to_owned(),
                vec![("let it go".into(), Choice::Resume(false)), ("move up".into(), Choice::Resume(true))],
            ),
            Request::Resume { last } => (
                if *last { "the round ends: use your waited actions?" } else { "resume now?" }.to_owned(),
                vec![("keep waiting".into(), Choice::Resume(false)), ("act now".into(), Choice::Resume(true))],
            ),
            Request::Fate { roll } => {
                let mut out = vec![
                    ("no".to_owned(), Choice::Fate(0)),
                    ("spend a Fate Point (double your dice)".to_owned(), Choice::Fate(1)),
                ];
                if !state.fighter(who).climactic_used {
                    out.push(("spend the climactic Fate Point (every roll this round)".to_owned(), Choice::Fate(2)));
                }
                (format!("Fate Point on the {roll:?} roll?").to_lowercase(), out)
            }
            Request::Cp { roll, total, need, max } => {
                let options = (0..=(*max).min(5))
                    .map(|n| (if n == 0 { "none".to_owned() } else { format!("{n} CP") }, Choice::Cp(n)))
                    .collect();
                let need = need.map_or(String::new(), |n| format!(", needs {n}"));
                (format!("{roll:?} roll {total}{need}: spend Character Points?").to_lowercase(), options)
            }
        }
    }

    fn odds(&self, state: &State, who: CombatantId, choice: &Choice) -> Option<crate::ChoiceOdds> {
        let (Choice::Act(Action::Attack(plan)) | Choice::Interrupt(Some(Action::Attack(plan)))) = choice else {
            return None;
        };
        let odds = super::odds::odds_in_state(&self.0, state, who, plan)?;
        Some(crate::ChoiceOdds::new(&odds.hit, &(&odds.hit * &odds.down_given_hit)))
    }

    fn hostile_target(&self, choice: &Choice) -> Option<CombatantId> {
        match choice {
            Choice::Act(Action::Attack(plan)) | Choice::Interrupt(Some(Action::Attack(plan))) => Some(plan.target),
            Choice::Act(Action::Aim(t)) => Some(*t),
            _ => None,
        }
    }

    fn gone(&self, state: &State, who: CombatantId) -> bool {
        state.fighter(who).level == Level::Dead
    }

    fn taken_out(&self, state: &State, who: CombatantId) -> bool {
        state.fighter(who).removed
    }

    fn adjust(&self, state: &State, adjustment: &crate::board::Adjustment) -> Result<Vec<Event>, String> {
        super::status::adjust_events(&self.0, state, adjustment)
    }
}

impl Front for OpenD6Scenario {
    type Rules = OpenD6;
    type Sheet = Sheet;
    type Ai = Ai;

    fn setup(&self) -> &Setup {
        &self.0
    }

    fn roster(&self) -> crate::Roster<'_, Sheet> {
        crate::Roster::new(&self.0.combatants, &self.0.sides, self.0.max_rounds, |c| &c.name, |c| c.side)
    }

    fn item_name(&self, who: CombatantId, item: u8) -> &str {
        &self.0.combatants[who.index()].weapons[usize::from(item)].name
    }

    fn join_late(&mut self, n: usize) {
        self.0.joins_late = n;
    }

    fn explain_combatant(&self, c: &Sheet) -> String {
        let setup = &self.0;
        let mut out = String::new();
        let skills: Vec<String> = super::setup::SKILLS
            .iter()
            .enumerate()
            .filter_map(|(i, (name, _))| c.skills[i].map(|code| format!("{name} {code}")))
            .collect();
        out += &format!(
            "  {} ({}{}{}): Agility {}, Strength {}, Perception {}; {}; position {} m\n",
            c.name,
            setup.sides[c.side.index()],
            c.group.as_ref().map_or(String::new(), |g| format!(", group {g}")),
            if c.hero { ", hero" } else { "" },
            c.agility(),
            c.strength(),
            c.perception(),
            if skills.is_empty() { "no skills listed".to_owned() } else { skills.join(", ") },
            c.position,
        );
        for w in &c.weapons[..c.weapons.len() - 1] {
            out += &format!(
                "    {} ({}): damage {}{}{}\n",
                w.name,
                w.skill.name(),
                if w.strength_plus { "+" } else { "" },
                w.damage,
                w.ranges.map_or(String::new(), |r| format!(", ranges {}/{}/{} m", r[0], r[1], r[2]))
            );
        }
        if c.armor.physical.pips_value() > 0 || c.armor.energy.pips_value() > 0 {
            out += &format!("    armour: physical {}, energy {}\n", c.armor.physical, c.armor.energy);
        }
        // What makes it harder to hit (OD6-DIFF-4, OD6-OPT posture).
        let mut cover = Vec::new();
        if c.cover.object > 0 {
            cover.push(format!("{}% behind an object", c.cover.object));
        }
        if c.cover.smoke > 0 {
            cover.push(
                ["", "light smoke", "thick smoke", "very thick smoke"][usize::from(c.cover.smoke.min(3))].to_owned(),
            );
        }
        if c.cover.light > 0 {
            cover.push(["", "poor light", "moonlight", "darkness"][usize::from(c.cover.light.min(3))].to_owned());
        }
        if c.posture != super::setup::Posture::Standing {
            cover.push(format!("{:?}", c.posture).to_lowercase());
        }
        if !cover.is_empty() {
            out += &format!("    cover: {}\n", cover.join(", "));
        }
        out += &format!("    {} Character Point(s), {} Fate Point(s)\n", c.cp, c.fp);
        out += &format!("    policy {}\n", crate::policy_text(super::setup::POLICIES, |i| c.policy.name(i)));
        out
    }

    fn attack_odds_at(&self, attacker: &str, defender: &str, distance: Option<f64>) -> Result<AttackOdds, String> {
        super::odds::attack_odds_at(&self.0, attacker, defender, distance)
    }

    fn play(&self, dice: &mut dyn Dice, _: Option<u64>, seats: &mut dyn Seats, out: &mut dyn FnMut(&Line)) -> Played {
        crate::play_at_table(self, dice, seats, out, |e| self.line(e), |s| self.board(s))
    }
}
