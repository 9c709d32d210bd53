//! The `hardboiled` scenario as the command line sees it: fights with a log, people at the
//! table, simulation batches.

use super::policy::{Ai, illegal};
use super::setup::{Attr, Setup, Sheet};
use super::{Act, Activity, Choice, Event, HardBoiled, Opportunity, Part, Request, State};
use crate::board::Played;
use crate::{AttackOdds, Front, Line, Seats, pos_text};
use fray_engine::{CombatantId, Dice, Pos};

/// A loaded `hardboiled` scenario.
#[derive(Clone, Debug)]
pub struct HardBoiledScenario(pub Setup);

/// The JSON Schema of the `hardboiled` log's events, the `end` among them.
pub fn events_schema() -> serde_json::Value {
    crate::events::schema::<Event>("hardboiled", "turns", &[])
}

impl HardBoiledScenario {
    /// The candidate actions of `who`: attacks on every other combatant (weapon and fists,
    /// called shots), moves toward and away from enemies, Other activities, picking up, ending.
    fn candidates(&self, state: &State, who: CombatantId) -> Vec<Act> {
        let setup = &self.0;
        let me = state.fighter(who);
        let mut out = Vec::new();
        for i in 0..setup.combatants.len() {
            let t = CombatantId(i as u16);
            if t == who || state.fighter(t).out(&setup.options, state.turn.max(1)) {
                continue;
            }
            for fists in [false, true] {
                out.push(Act::Attack { target: t, fists, called: None, off_balance: false });
                for part in [Part::Head, Part::Torso, Part::RightLeg] {
                    out.push(Act::Attack { target: t, fists, called: Some(part), off_balance: false });
                }
                out.push(Act::Attack { target: t, fists, called: None, off_balance: true });
            }
            out.push(Act::Power(t));
            for activity in [Activity::Grapple, Activity::Shove, Activity::Trip, Activity::Intimidate, Activity::Trick]
            {
                out.push(Act::Other { activity, target: Some(t), difficulty: 0 });
            }
            if setup.combatants[i].side != setup.combatants[who.index()].side {
                let to = state.fighter(t).pos;
                let d = me.pos.distance(to);
                let m = super::policy::move_m(setup, state, who);
                if d > 0.0 {
                    let step = (d - 1.0).clamp(0.0, m);
                    let k = step / d;
                    out.push(Act::Move(Pos {
                        x: me.pos.x + (to.x - me.pos.x) * k,
                        y: me.pos.y + (to.y - me.pos.y) * k,
                    }));
                    let k = m / d;
                    out.push(Act::Move(Pos {
                        x: me.pos.x - (to.x - me.pos.x) * k,
                        y: me.pos.y - (to.y - me.pos.y) * k,
                    }));
                    // The AI's own moves: closing to strike with the weapon or fists, and a
                    // step into a better range band.
                    for fists in [false, true] {
                        let w = super::policy::weapon(setup, state, who, fists);
                        out.push(Act::Move(super::policy::toward(setup, state, who, t, w)));
                        out.extend(super::policy::better_band(setup, state, who, t, w).map(Act::Move));
                    }
                }
            }
        }
        let home = setup.combatants[who.index()].position;
        if setup.combatants[who.index()].cover.is_some() && !me.in_cover {
            out.push(Act::Move(home));
        }
        out.push(Act::PickUp);
        out.push(Act::End);
        // Each once, in the order first met (a move the AI makes may be listed above already).
        let mut unique: Vec<Act> = Vec::with_capacity(out.len());
        for act in out {
            if !unique.contains(&act) {
                unique.push(act);
            }
        }
        unique
    }

    fn act_label(&self, state: &State, who: CombatantId, act: &Act) -> String {
        let n = |c: CombatantId| self.name(c).to_owned();
        let sheet = &self.0.combatants[who.index()];
        match *act {
            Act::Attack { target, fists, called, off_balance } => {
                let weapon =
                    if fists || state.fighter(who).dropped { "fists".to_owned() } else { sheet.weapon.name.clone() };
                let odds = crate::odds_shown().then(|| super::odds::odds_of(&self.0, state, who, act)).flatten();
                let odds = odds.map_or(String::new(), |o| {
                    let down = &o.hit * &o.down_given_hit;
                    format!(
                        " — hit {} ({}), takes out {}",
                        crate::chance(&o.hit),
                        fray_dice::fraction(&o.hit),
                        crate::chance(&down)
                    )
                });
                format!(
                    "attack {} with {weapon}{}{}{odds}",
                    n(target),
                    called.map_or(String::new(), |p| format!(", called shot at the {}", p.name())),
                    if off_balance { ", off balance (−2)" } else { "" }
                )
            }
            Act::Power(t) => format!("use a power on {} (Ego contest)", n(t)),
            Act::Other { activity, target, .. } => match target {
                Some(t) => format!("{} {}", activity.name(), n(t)),
                None => activity.name().to_owned(),
            },
            Act::Move(to) => format!("move to {}", pos_text(to)),
            Act::PickUp => "pick up your weapon".to_owned(),
            Act::End => "end the turn".to_owned(),
        }
    }

    /// An act as the log tells it was made: "attacks Lou with fists", "grapples Vito".
    fn act_done(&self, act: &Act) -> String {
        match *act {
            Act::Attack { .. } => format!("{}s{}", "attack", &self.act_text(act)["attack".len()..]),
            Act::Power(t) => format!("uses a power on {}", self.name(t)),
            Act::Other { activity: super::Activity::Task, .. } => "attempts a task".to_owned(),
            Act::Other { activity, target, .. } => {
                format!("{}s{}", activity.name(), target.map_or(String::new(), |t| format!(" {}", self.name(t))))
            }
            _ => self.act_text(act),
        }
    }

    fn act_text(&self, act: &Act) -> String {
        match *act {
            Act::Attack { target, fists, called, .. } => format!(
                "attack {}{}{}",
                self.name(target),
                if fists { " with fists" } else { "" },
                called.map_or(String::new(), |p| format!(" (called: {})", p.name()))
            ),
            Act::Power(t) => format!("power on {}", self.name(t)),
            Act::Other { activity, target, .. } => {
                format!("{}{}", activity.name(), target.map_or(String::new(), |t| format!(" {}", self.name(t))))
            }
            Act::Move(to) => format!("move to {}", pos_text(to)),
            Act::PickUp => "pick up the weapon".to_owned(),
            Act::End => "nothing".to_owned(),
        }
    }

    /// One event as a line of the blow-by-blow log and as JSON.
    pub fn line(&self, event: &Event) -> Line {
        let n = |who: &CombatantId| self.name(*who).to_owned();
        let text = match event {
            Event::HpSet { who, faces, max } => Some(if faces[0] == 0 {
                format!("{} max HP {max} (largest faces)", n(who))
            } else {
                format!("{} max HP: Action {} + Wits {} = {max}", n(who), faces[0], faces[1])
            }),
            Event::TurnStarted { turn } => Some(format!("— combat turn {turn} —")),
            Event::Declared { who, intent } => Some(format!("{} declares: {}", n(who), self.act_text(intent))),
            Event::Initiative { who, roll, bonus } => Some(format!(
                "{} initiative: d{} → {}{}",
                n(who),
                roll.die,
                roll.natural,
                if *bonus != 0 {
                    format!(" {} (reach) = {}", crate::Signed(*bonus), roll.total + bonus)
                } else {
                    String::new()
                }
            )),
            Event::TieBreak { who, face } => Some(format!("{} tie reroll: {face}", n(who))),
            Event::Order { order } => Some(crate::order_text(order, |who| self.name(who))),
            Event::Moved { who, from, to, in_cover } => Some(format!(
                "{} moves from {} to {}{}",
                n(who),
                pos_text(*from),
                pos_text(*to),
                if *in_cover { " (into cover)" } else { "" }
            )),
            Event::Failed { who, act, why } => Some(format!("{}: {} — {why}", n(who), self.act_text(act))),
            Event::Contest { who, act, roll, against, difficulty, terms, margin, success, critical, declared } => {
                use super::attack::{BAND_DIFFICULTY, BAND_NAMES, Terms, shot_band};
                let opponent = terms.opponent.named(&Terms::OPPONENT);
                let shot = difficulty.and_then(|d| shot_band(d, terms)).filter(|_| matches!(act, Act::Attack { .. }));
                let vs = match (against, difficulty) {
                    (Some(d), _) => {
                        format!("vs d{} {}{} → {}", d.die, d.natural, crate::terms_inline(opponent), d.total)
                    }
                    (None, Some(diff)) => match shot {
                        Some(band) => {
                            let extra = terms.opponent.sum() != 0;
                            format!(
                                "vs difficulty {diff} ({} range{}{}, {} m)",
                                BAND_NAMES[band],
                                if extra { format!(" {}", BAND_DIFFICULTY[band]) } else { String::new() },
                                crate::terms_inline(opponent),
                                distance_text(terms.distance())
                            )
                        }
                        None => format!("vs difficulty {diff}"),
                    },
                    _ => String::new(),
                };
                let result = match (success, critical) {
                    (true, true) => format!("critical success, margin {margin}"),
                    (true, false) => format!("success, margin {margin}"),
                    _ => format!("fails (margin {margin})"),
                };
                let _actor = terms.actor.named(&Terms::ACTOR);
                Some(format!(
                    "{} {}: d{} {}{} → {} {vs}: {result}{}",
                    n(who),
                    self.act_done(act),
                    roll.die,
                    roll.natural,
                    crate::terms_inline(terms.actor.named(&Terms::ACTOR)),
                    roll.total,
                    if *declared { "" } else { " [undeclared]" }
                ))
            }
            Event::DamageRoll { who, sides, faces, plus } => {
                let list: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
                let total = plus + faces.iter().map(|&f| i32::from(f)).sum::<i32>();
                Some(format!(
                    "{} damage: {}d{sides} [{}] {} = {total}",
                    n(who),
                    faces.len(),
                    list.join(", "),
                    crate::Signed(*plus)
                ))
            }
            Event::Confirm { who, kind, face, confirmed } => {
                let what = if *kind == Opportunity::Critical { "critical" } else { "fumble" };
                Some(format!(
                    "{} {what} opportunity: confirm d10 {face} → {}",
                    n(who),
                    if *confirmed { "confirmed" } else { "no" }
                ))
            }
            Event::Hit {
                by: _,
                target,
                face,
                called,
                base,
                weapon_damage,
                cover_stopped,
                stop,
                ward,
                critical,
                recorded,
                hp_loss,
                hp,
                tally,
            } => {
                let part = Part::of(*face).name();
                let text = if *cover_stopped {
                    format!("the shot strikes {}'s cover at the {part} and stops there", n(target))
                } else {
                    format!(
                        "{} hit at the {part}{}: {}{}{}{} → recorded {recorded}, −{hp_loss} HP (HP {hp}, this turn {tally})",
                        n(target),
                        if *called { " (called)" } else { "" },
                        match weapon_damage {
                            Some(w) => format!("margin {} + weapon {w} = {base}", base - w),
                            None => format!("damage {base}"),
                        },
                        if *critical { ", critical: armour ignored" } else { "" },
                        if *stop > 0 { format!(", armour −{stop}") } else { String::new() },
                        if *ward > 0 { format!(", ward −{ward}") } else { String::new() },
                    )
                };
                Some(text)
            }
            Event::KnockedOut { who, until } => Some(if *until == u32::MAX {
                format!("{} is knocked out", n(who))
            } else {
                format!("{} is knocked out through turn {until}", n(who))
            }),
            Event::Down { who } => Some(format!("{} is down", n(who))),
            Event::Out { .. } => None,
            Event::SecondWind { who, gained, hp, line } => {
                let line = super::second_wind_line(&n(who), line.as_deref());
                Some(format!("{} catches a Second Wind: +{gained} HP (HP {hp}) — \"{line}\"", n(who)))
            }
            Event::Fumbled { who, effect } => Some(format!("{} fumbles: {}", n(who), effect.name())),
            Event::PickedUp { who } => Some(format!("{} picks up the weapon", n(who))),
            Event::Dropped { who } => Some(format!("{} drops the weapon", n(who))),
            Event::Lamed { who } => Some(format!("{} is lamed: half Move", n(who))),
            Event::Ended { .. } => None, // the shared end line (`Front::log_line`)
            Event::Adjusted { who, change } => Some(self.adjusted_text(*who, change)),
        };
        self.log_line(event, text)
    }
}

impl crate::Prompts<HardBoiled> for HardBoiledScenario {
    /// A request as a question with labelled legal choices.
    fn prompt(
        &self,
        state: &State,
        who: CombatantId,
        request: &Request,
        _ai: &Choice,
    ) -> (String, Vec<(String, Choice)>) {
        match request {
            Request::Declare => {
                let mut out = vec![("declare nothing".to_owned(), Choice::Intent(None))];
                let act_request = super::policy::act_request(&self.0, state, who);
                for act in self.candidates(state, who) {
                    if matches!(act, Act::End | Act::PickUp) {
                        continue;
                    }
                    // An attack may be declared on a target it can reach this turn, after a Move
                    // if need be (USR-ROUND-4), as the AI declares it.
                    let reachable = match act {
                        Act::Attack { .. } => super::policy::illegal_target(&self.0, state, who, &act).is_none(),
                        _ => false,
                    };
                    if matches!(act, Act::Move(_))
                        || reachable
                        || illegal(&self.0, state, who, &act_request, &act).is_none()
                    {
                        out.push((format!("declare: {}", self.act_label(state, who, &act)), Choice::Intent(Some(act))));
                    }
                }
                ("declare your intent for the turn".to_owned(), out)
            }
            Request::Act { .. } => {
                let out = self
                    .candidates(state, who)
                    .into_iter()
                    .filter(|a| illegal(&self.0, state, who, request, a).is_none())
                    .map(|a| (self.act_label(state, who, &a), Choice::Act(a)))
                    .collect();
                ("your action".to_owned(), out)
            }
            Request::SecondWind { hp, max } => (
                format!("struck: HP {hp} of {max}. Catch your Second Wind (once per game)?"),
                vec![("not now".into(), Choice::Yes(false)), ("yes — act it out!".into(), Choice::Yes(true))],
            ),
            Request::GmRuling { act } => (
                format!("GM: does the undeclared action ({}) go ahead?", self.act_label(state, who, act)),
                vec![("it fails".into(), Choice::Yes(false)), ("it goes ahead".into(), Choice::Yes(true))],
            ),
            Request::GmFumble => {
                use super::options::FumbleEffect;
                (
                    "GM: a confirmed fumble — its effect, off your fumble table?".to_owned(),
                    vec![
                        (
                            "loses the next Attack or Other activity".into(),
                            Choice::Fumble(FumbleEffect::LoseNextAction),
                        ),
                        ("drops the weapon".into(), Choice::Fumble(FumbleEffect::DropWeapon)),
                        ("no effect".into(), Choice::Fumble(FumbleEffect::None)),
                    ],
                )
            }
        }
    }

    fn odds(&self, state: &State, who: CombatantId, choice: &Choice) -> Option<crate::ChoiceOdds> {
        let (Choice::Act(act) | Choice::Intent(Some(act))) = choice else { return None };
        let odds = super::odds::odds_of(&self.0, state, who, act)?;
        Some(crate::ChoiceOdds::new(&odds.hit, &(&odds.hit * &odds.down_given_hit)))
    }

    fn hostile_target(&self, choice: &Choice) -> Option<CombatantId> {
        match choice {
            Choice::Act(act) | Choice::Intent(Some(act)) => match *act {
                Act::Attack { target, .. } | Act::Power(target) => Some(target),
                Act::Other { activity, target, .. } if activity != Activity::Task => target,
                _ => None,
            },
            _ => None,
        }
    }

    fn taken_out(&self, state: &State, who: CombatantId) -> bool {
        state.fighter(who).removed
    }

    fn adjust(&self, state: &State, adjustment: &crate::board::Adjustment) -> Result<Vec<Event>, String> {
        super::status::adjust_events(&self.0, state, adjustment)
    }
}

impl Front for HardBoiledScenario {
    type Rules = HardBoiled;
    type Sheet = Sheet;
    type Ai = Ai;
    const UNIT: &'static str = "turns"; // USR's combat turn

    fn setup(&self) -> &Setup {
        &self.0
    }

    fn roster(&self) -> crate::Roster<'_, Sheet> {
        crate::Roster::new(&self.0.combatants, &self.0.sides, self.0.max_turns, |c| &c.name, |c| c.side)
    }

    fn join_late(&mut self, n: usize) {
        self.0.joins_late = n;
    }

    fn explain_combatant(&self, c: &Sheet) -> String {
        let setup = &self.0;
        let mut out = String::new();
        let specialisms: Vec<String> = c.specialisms.iter().map(|s| format!("{} +2", s.name)).collect();
        out += &format!(
            "  {} ({}{}): Action d{}, Wits d{}, Ego d{}; HP {}; {}; at {}\n",
            c.name,
            setup.sides[c.side.index()],
            if c.hero { ", hero" } else { "" },
            c.die(Attr::Action),
            c.die(Attr::Wits),
            c.die(Attr::Ego),
            c.hp_max.map_or("rolled".to_owned(), |h| h.to_string()),
            if specialisms.is_empty() { "no specialisms".to_owned() } else { specialisms.join(", ") },
            pos_text(c.position)
        );
        let w = &c.weapon;
        let mut weapon = format!("    {}: ", w.name);
        if w.ranged {
            weapon += &format!("ranged, damage {}, range {} m", w.damage, w.range_m);
        } else {
            weapon += &format!("melee, damage {}", w.damage);
        }
        if w.bonus != 0 {
            weapon += &format!(", bonus {}", crate::Signed(w.bonus));
        }
        if w.brawling {
            weapon += ", brawling (half damage)";
        }
        // Cover stops a shot it hides unless the weapon penetrates it (USR-COVER-2, -3, -5).
        if w.ranged || setup.options.melee_cover {
            weapon += &if setup.options.cover_never {
                ", stopped by any cover (cover_penetration = never)".to_owned()
            } else {
                format!(", penetration {} (passes cover of hardness ≤ {})", w.penetration, w.penetration)
            };
        }
        out += &weapon;
        out += "\n";
        for a in &c.armour {
            out += &format!("    armour {}: stops {} on {}\n", a.name, a.stop, locations_text(a.locations));
        }
        if let Some(cover) = &c.cover {
            out += &format!(
                "    behind cover of hardness {}, hiding {}\n",
                cover.hardness,
                locations_text(cover.locations)
            );
        }
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

/// The hit locations a mask of d10 faces covers, by part (USR-LOC-2): "every location", or the
/// parts, a part only partly covered with its faces ("right leg (face 7)").
fn locations_text(mask: super::setup::Locations) -> String {
    if mask & super::setup::ALL == super::setup::ALL {
        return "every location".to_owned();
    }
    let mut out = Vec::new();
    for part in super::Part::ALL {
        let faces: Vec<u8> = (1..=10).filter(|&f| super::Part::of(f) == part).collect();
        let covered: Vec<u8> = faces.iter().copied().filter(|&f| mask & (1 << f) != 0).collect();
        if covered.len() == faces.len() {
            out.push(part.name().to_owned());
        } else if !covered.is_empty() {
            let list: Vec<String> = covered.iter().map(u8::to_string).collect();
            out.push(format!("{} (face {})", part.name(), list.join(", ")));
        }
    }
    if out.is_empty() { "nothing".to_owned() } else { out.join(", ") }
}

/// A distance for the log: whole metres when whole, else one decimal.
fn distance_text(d: f64) -> String {
    if (d - d.round()).abs() < 0.05 { format!("{}", d.round()) } else { format!("{d:.1}") }
}
