//! The `ticks` scenario as the command line sees it: fights with a log (the tick, each
//! character's stability and effort), people at the table, simulation batches.

use super::policy::{Ai, illegal};
use super::setup::{Blow, Setup, Sheet, Square, chebyshev};
use super::{Action, Choice, Event, Kind, Request, State, Ticks};
use crate::board::Played;
use crate::{AttackOdds, Front, Line, Seats};
use fray_engine::{CombatantId, Dice, Fight, FightError, FnSink, Ruleset};
use fray_sim::{BatchDice, Ledger};

/// A loaded `ticks` scenario.
#[derive(Clone, Debug)]
pub struct TicksScenario(pub Setup);

/// The JSON Schema of the `ticks` log: its events, the `end` and the status line.
pub fn events_schema() -> serde_json::Value {
    crate::events::schema::<Event>("ticks", "ticks", &[|g| <TickStatus as schemars::JsonSchema>::json_schema(g)])
}

/// The line of the log after each tick: every character's tracks (not an event: the state the
/// tick's events left).
#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
enum TickStatus {
    /// The end of a tick: every character's tracks.
    Status {
        /// The tick that ended.
        tick: u32,
        /// Every character, in roster order.
        fighters: Vec<FighterStatus>,
    },
}

/// A character's tracks in the status line.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct FighterStatus {
    /// Who.
    who: CombatantId,
    /// Body (TICK-DMG-1).
    body: i32,
    /// Trauma.
    trauma: i32,
    /// Wounds.
    wounds: i32,
    /// Effort.
    effort: i32,
    /// The stability penalty p.
    p: i32,
    /// The square it stands on.
    square: super::setup::Square,
    /// Whether it is out of the fight.
    out: bool,
}

/// The reason the announcement order is drawn for (TICK-TIME-6).
pub const ORDER: &str = "announcement order";

/// Dice with the announcement order on its own seeded stream (TICK-TIME-13): a roll for
/// [`ORDER`] comes from `order` when there is one, every other roll from `dice`.
pub struct OrderStream<D> {
    dice: D,
    order: Option<fray_dice::RngSource<rand_chacha::ChaCha8Rng>>,
}

impl<D: Dice> OrderStream<D> {
    /// `dice`, with the order drawn from ChaCha8 seeded with `seed` on the stream keyed by
    /// [`ORDER`] (or from `dice` too when there is no seed: physical dice).
    pub fn new(dice: D, seed: Option<u64>) -> OrderStream<D> {
        let order = seed.map(|seed| {
            use rand_core::SeedableRng;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(fray_engine::stream_key(ORDER));
            fray_dice::RngSource::new(rng)
        });
        OrderStream { dice, order }
    }
}

impl<D: Dice> Dice for OrderStream<D> {
    fn roll(&mut self, sides: u32, reason: fray_engine::Reason) -> Result<u32, fray_dice::SourceError> {
        match &mut self.order {
            Some(order) if reason.what == ORDER => Ok(order.uniform(sides)),
            _ => self.dice.roll(sides, reason),
        }
    }
}

fn sq(s: Square) -> String {
    format!("({}, {})", s.0, s.1)
}

impl TicksScenario {
    /// The candidate announcements of `who`, with `ai`, the AI's choice (worked out here when
    /// `None`).
    fn candidates(&self, state: &State, who: CombatantId, ai: Option<&Choice>) -> Vec<Action> {
        let setup = &self.0;
        let me = state.fighter(who);
        let mut out = vec![Action::Nothing];
        let sheet = &setup.combatants[who.index()];
        for i in 0..setup.combatants.len() {
            let t = CombatantId(i as u16);
            // Not one the GM added that has not joined yet.
            if t == who || state.fighter(t).absent {
                continue;
            }
            if let Some(g) = sheet.gun.as_ref() {
                for shots in 1..=g.rate.clamp(1, 3) as u8 {
                    out.push(Action::fire(t, shots, false));
                    out.push(Action::fire(t, shots, true));
                }
                // A burst split between two targets.
                if g.rate >= 2 {
                    for u in (0..setup.combatants.len()).map(|k| CombatantId(k as u16)) {
                        if u != who && u != t {
                            out.push(Action::Fire { targets: [t, u, u], shots: 2, weak_point: false });
                        }
                    }
                }
                out.push(Action::Aim(t));
            }
            for blow in Blow::ALL {
                for weak_point in [false, true] {
                    if chebyshev(me.pos, state.fighter(t).pos) <= setup.options.melee_reach {
                        out.push(Action::Melee { target: t, blow, weak_point });
                    }
                    out.push(Action::Strike { target: t, blow, weak_point });
                }
            }
            out.push(Action::Follow(t));
            if setup.combatants[i].side != sheet.side {
                let to = state.fighter(t).pos;
                out.push(Action::Move(to));
                out.push(Action::Run { to, attack: None });
                for weak_point in [false, true] {
                    if sheet.gun.is_some() {
                        out.push(Action::Run { to, attack: Some((t, None, weak_point)) });
                    }
                    // A blow at the end of a run, where `running_melee` allows it (TICK-MOVE-4).
                    for blow in Blow::ALL {
                        out.push(Action::Run { to, attack: Some((t, Some(blow), weak_point)) });
                    }
                }
            }
        }
        for (square, cover) in &setup.cover {
            if chebyshev(me.pos, *square) <= 4 && cover.rating > 0 && *square != me.pos {
                out.push(Action::Move(*square));
                out.push(Action::Run { to: *square, attack: None });
            }
        }
        // A step or a run in any of the eight directions (TICK-MOVE-1/3), away from the fight too.
        for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            out.push(Action::Move((me.pos.0 + dx, me.pos.1 + dy)));
            out.push(Action::Run { to: (me.pos.0 + 2 * dx, me.pos.1 + 2 * dy), attack: None });
        }
        // What the AI would announce, so that it is always offered (listed above as a rule).
        out.push(match ai {
            Some(Choice::Announce(action)) => *action,
            _ => super::policy::announce(setup, state, who),
        });
        let mut seen = Vec::with_capacity(out.len());
        out.retain(|a| {
            let fresh = !seen.contains(a);
            seen.push(*a);
            fresh
        });
        out.push(Action::Ready);
        out.push(Action::Lower);
        out.retain(|a| illegal(setup, state, who, a).is_none());
        out
    }

    fn action_text(&self, action: &Action) -> String {
        let n = |c: CombatantId| self.name(c).to_owned();
        match *action {
            Action::Nothing => "nothing".to_owned(),
            Action::Move(to) => format!("move toward {}", sq(to)),
            Action::Run { to, attack: None } => format!("run toward {}", sq(to)),
            Action::Run { to, attack: Some((t, None, w)) } => {
                format!("run toward {}, shooting at {}{}", sq(to), n(t), if w { " (weak point)" } else { "" })
            }
            Action::Run { to, attack: Some((t, Some(b), w)) } => {
                format!("run toward {}, a {} at {}{}", sq(to), b.label(), n(t), if w { " (weak point)" } else { "" })
            }
            Action::Ready => "ready the gun".to_owned(),
            Action::Lower => "lower the gun".to_owned(),
            Action::Aim(t) => format!("aim at {}", n(t)),
            Action::Fire { targets, shots, weak_point } => format!(
                "fire {shots} shot(s) at {}{}",
                targets[..usize::from(shots).clamp(1, 3)]
                    .iter()
                    .fold(Vec::<String>::new(), |mut v, &t| {
                        if !v.contains(&n(t)) {
                            v.push(n(t));
                        }
                        v
                    })
                    .join(" and "),
                if weak_point { ", aiming for a weak point" } else { "" }
            ),
            Action::Melee { target, blow, weak_point } => {
                format!(
                    "{} at {}{}",
                    blow.label(),
                    n(target),
                    if weak_point { ", aiming for a weak point" } else { "" }
                )
            }
            Action::Strike { target, blow, weak_point } => format!(
                "reaction {} at {} as they move{}",
                blow.label(),
                n(target),
                if weak_point { ", aiming for a weak point" } else { "" }
            ),
            Action::Follow(t) => format!("follow {}", n(t)),
        }
    }

    /// A request as a question with labelled legal choices (the odds of each attack beside it),
    /// among them `ai`, the AI's choice (worked out here when `None`).
    pub fn prompt_for(
        &self,
        state: &State,
        who: CombatantId,
        request: &Request,
        ai: Option<&Choice>,
    ) -> (String, Vec<(String, Choice)>) {
        let setup = &self.0;
        match *request {
            Request::Announce { tick } => {
                let f = state.fighter(who);
                let out = self
                    .candidates(state, who, ai)
                    .into_iter()
                    .map(|a| {
                        let attack = match a {
                            Action::Fire { targets: [target, ..], weak_point, .. } => {
                                Some((target, Kind::Shot, weak_point))
                            }
                            Action::Melee { target, blow, weak_point } => Some((target, Kind::Melee(blow), weak_point)),
                            _ => None,
                        };
                        let odds = match attack {
                            Some((target, kind, weak_point)) if crate::odds_shown() => {
                                // As the AI would play it, and the roll alone when the abort or
                                // decline policy would call some rolls off (the person decides).
                                let o = super::odds::odds_of(setup, state, who, target, kind, Some(weak_point));
                                let r = super::odds::roll_odds_of(setup, state, who, target, kind, Some(weak_point));
                                let played = format!(
                                    " — wins {} ({}), takes out {}",
                                    crate::chance(&o.hit),
                                    fray_dice::fraction(&o.hit),
                                    crate::chance(&o.down)
                                );
                                if r.hit == o.hit && r.down == o.down {
                                    played
                                } else {
                                    let off = if kind == Kind::Shot { "declining" } else { "aborting" };
                                    format!(
                                        "{played} as the AI would play it ({off} poor rolls); the roll alone: wins {} \
                                         ({}), takes out {}",
                                        crate::chance(&r.hit),
                                        fray_dice::fraction(&r.hit),
                                        crate::chance(&r.down)
                                    )
                                }
                            }
                            _ => String::new(),
                        };
                        (format!("{}{odds}", self.action_text(&a)), Choice::Announce(a))
                    })
                    .collect();
                (format!("tick {tick}: announce (p {}, effort {}, Body {})", f.p, f.effort, f.body), out)
            }
            Request::Abort { target, a, base } => {
                // As the AI weighs it: the melee weapon's penetration against the cover.
                let pen = setup.combatants[who.index()].melee_weapon.penetration;
                let (win, total) = super::policy::p_win(setup, state, target, Kind::Melee(Blow::Strike), pen, a, base);
                let limit = setup.options.abort_decision_seconds;
                (
                    format!(
                        "your roll {a}: you win with chance {win}/{total}. Abort (half the costs)?{}",
                        if limit > 0.0 { format!(" (decide within {limit} s)") } else { String::new() }
                    ),
                    vec![("go ahead".into(), Choice::Yes(false)), ("abort".into(), Choice::Yes(true))],
                )
            }
            Request::Decline { target, a, base } => {
                let pen = setup.combatants[who.index()].gun.as_ref().map_or(0, |g| g.penetration);
                let (win, total) = super::policy::p_win(setup, state, target, Kind::Shot, pen, a, base);
                (
                    format!("your roll {a}: the shot wins with chance {win}/{total}. Pull the trigger?"),
                    vec![("fire".into(), Choice::Yes(false)), ("decline".into(), Choice::Yes(true))],
                )
            }
        }
    }

    /// One event as a line of the blow-by-blow log and as JSON.
    pub fn line(&self, event: &Event) -> Line {
        let n = |who: &CombatantId| self.name(*who).to_owned();
        let faces = |f: &[u8; 3]| f.iter().filter(|x| **x > 0).map(u8::to_string).collect::<Vec<_>>().join(" ");
        let text = match event {
            Event::TickStarted { tick } => Some(format!("— tick {tick} ({:.1} s) —", f64::from(*tick) * 0.5)),
            Event::Order { .. } => None,
            Event::Announced { who, action } => {
                if *action == Action::Nothing {
                    None
                } else {
                    Some(format!("{} announces: {}", n(who), self.action_text(action)))
                }
            }
            Event::Moved { who, from, to, run } => (from != to).then(|| {
                format!("{} {} from {} to {}", n(who), if *run { "runs" } else { "moves" }, sq(*from), sq(*to))
            }),
            Event::Blocked { who, at } => Some(format!("{} is blocked at {}", n(who), sq(*at))),
            Event::Readied { who, penalty } => Some(format!("{} brings the gun up: p +{penalty}", n(who))),
            Event::Lowered { who } => Some(format!("{} lowers the gun", n(who))),
            Event::Aimed { who, target, ticks } => {
                Some(format!("{} aims at {} (tick {ticks} of aim)", n(who), n(target)))
            }
            Event::AimEnded { who, spoiled } => spoiled.then(|| format!("{}'s aim is spoiled", n(who))),
            Event::AttackRoll { who, target, kind, faces: f, a, range, aim, p } => {
                let what = match kind {
                    Kind::Shot => "shoots at".to_owned(),
                    Kind::Melee(super::Blow::Jab) => "jabs at".to_owned(),
                    Kind::Melee(super::Blow::Strike) => "strikes at".to_owned(),
                    Kind::Melee(super::Blow::Heavy) => "swings a heavy blow at".to_owned(),
                };
                // The skill and the other modifiers (a snap shot's ready penalty, running,
                // wounds): what A holds beyond the dice, range, aim and p.
                let rest = a - f.iter().map(|&x| i32::from(x)).sum::<i32>() - range - aim + p;
                let terms = match kind {
                    Kind::Shot => format!(
                        "skill and modifiers {}, range {}, aim {}, p −{p}",
                        crate::Signed(rest),
                        crate::Signed(*range),
                        crate::Signed(*aim)
                    ),
                    Kind::Melee(_) => format!("skill and modifiers {}, p −{p}", crate::Signed(rest)),
                };
                Some(format!("{} {what} {}: [{}] → A = {a} ({terms})", n(who), n(target), faces(f)))
            }
            Event::Declined { who } => Some(format!("{} declines the shot", n(who))),
            Event::Aborted { who } => Some(format!("{} aborts the blow", n(who))),
            Event::OutOfReach { who, target } => Some(format!("{}'s blow finds {} out of reach", n(who), n(target))),
            Event::Cost { who, p, effort, held, .. } => (*p != 0 || *effort != 0 || *held != 0).then(|| {
                format!(
                    "{}: p +{p}{}{}",
                    n(who),
                    if *effort > 0 { format!(", effort −{effort}") } else { String::new() },
                    if *held > 0 { format!(" ({held} held back)") } else { String::new() }
                )
            }),
            Event::Released { who, p } => Some(format!("{}: the held-back {p} comes due", n(who))),
            Event::Defence { who, faces: f, d, skill, cover, p, wounds, dive, .. } => Some(format!(
                "{} defends: [{}] → D = {d} (skill {}{}, p −{p}{}){}",
                n(who),
                faces(f),
                crate::Signed(*skill),
                if *cover > 0 { format!(", cover {}", crate::Signed(*cover)) } else { String::new() },
                if *wounds > 0 { format!(", wounds −{wounds}") } else { String::new() },
                dive.map_or(String::new(), |s| format!(" diving for cover at {}", sq(s)))
            )),
            Event::TieRerolled => Some("a tie: both roll again".to_owned()),
            Event::Exchange { attacker, target, delta, effort, hit, shortfall, .. } => Some(if *shortfall {
                format!("{} wins but has no effort left: a graze", n(target))
            } else if *hit {
                format!("{} wins by {delta}; {} spends {effort} effort", n(attacker), n(target))
            } else {
                format!("{} wins by {}; spends {effort} effort", n(target), -delta)
            }),
            Event::Hit { target, face, raw, slowed, armour, body, trauma, wounds, .. } => {
                let part = match face {
                    0 => "torso",
                    1 => "head",
                    2..=4 => "torso",
                    5 => "right arm",
                    6 => "left arm",
                    7 | 8 => "right leg",
                    _ => "left leg",
                };
                Some(format!(
                    "{} hit in the {part}: damage {raw}{}{} → −{body} Body, +{trauma} Trauma{}",
                    n(target),
                    if *slowed { ", slowed by cover" } else { "" },
                    armour.map_or(String::new(), |a| format!(
                        ", {} armour (res {}) {}",
                        if a.hard { "hard" } else { "soft" },
                        a.resistance,
                        if a.held { "holds" } else { "is pierced" }
                    )),
                    if *wounds > 0 { ", a wound" } else { "" }
                ))
            }
            Event::WoundCheck { who, face, sides, wound } => {
                Some(format!("{} wound check d{sides} {face}: {}", n(who), if *wound { "a wound" } else { "no wound" }))
            }
            Event::Adjusted { who, change } => Some(self.adjusted_text(*who, change)),
            Event::Settled { who, body, trauma, wounds, effort, p, .. } => Some(format!(
                "{}: −{body} Body, +{trauma} Trauma, +{wounds} wound(s), −{effort} effort, p +{p}",
                n(who)
            )),
            Event::StringPenalty { who, p } => Some(format!("{}'s shots this tick: p +{p}", n(who))),
            Event::StringClosed { who, p } => Some(format!("{}'s firing string closes: p +{p}", n(who))),
            Event::Recovered { who, from, to } => Some(format!("{}: p {from} → {to}", n(who))),
            Event::Rested { .. } => None,
            Event::Down { who } => Some(format!("{} is down", n(who))),
            Event::KnockedOut { who } => Some(format!("{} is knocked out", n(who))),
            Event::Ended { .. } => None, // the shared end line (`Front::log_line`)
        };
        self.log_line(event, text)
    }

    /// The status line after each tick: every character's Body, Trauma, effort and p.
    fn status(&self, state: &State) -> Line {
        // A combatant the GM added is not in the fight until it joins.
        let present = || state.fighters.iter().enumerate().filter(|(_, f)| !f.absent);
        let parts: Vec<String> = present()
            .map(|(i, f)| {
                format!(
                    "{} Body {} Trauma {} effort {} p {}{}",
                    self.0.combatants[i].name,
                    f.body,
                    f.trauma,
                    f.effort,
                    f.p,
                    if f.down {
                        " (down)"
                    } else if f.knocked_out {
                        " (out)"
                    } else {
                        ""
                    }
                )
            })
            .collect();
        let status = TickStatus::Status {
            tick: state.tick,
            fighters: present()
                .map(|(i, f)| FighterStatus {
                    who: CombatantId(i as u16),
                    body: f.body,
                    trauma: f.trauma,
                    wounds: f.wounds,
                    effort: f.effort,
                    p: f.p,
                    square: f.pos,
                    out: f.out(),
                })
                .collect(),
        };
        let roster = crate::events::Roster { combatant: &|i| self.name(CombatantId(i as u16)), sides: &self.0.sides };
        Line {
            text: Some(format!("  [end of tick {}: {}]", state.tick, parts.join("; "))),
            json: crate::events::to_json(&status, roster),
        }
    }
}

/// The Stability Recovery table (TICK-STAB-2/3): p after 1–6 idle ticks and the ticks to reach 0,
/// for p from 1 to 30; under `stability_recovery = printed_table` the draft's printed cell (14
/// after 2 ticks: 9) for rows 1–20 (TICK-STAB-5).
pub fn recovery_table(printed: bool) -> String {
    let mut out = format!(
        "stability recovery ({}): p after 1–6 ticks, and ticks to 0\n     p   1   2   3   4   5   6  to 0\n",
        if printed { "the draft's printed table, rows 1–20" } else { "p − ⌊√p⌋ each tick" }
    );
    for p in 1..=30 {
        out += &format!("  {p:>4}");
        for k in 1..=6 {
            let v = if printed && p <= 20 { super::printed_table(p, k) } else { super::recover_ticks(p, k) };
            out += &format!(" {v:>3}");
        }
        let to_zero = (1..).find(|&k| super::recover_ticks(p, k) == 0).unwrap_or(0);
        out += &format!(" {to_zero:>5}\n");
    }
    out
}

impl crate::Prompts<Ticks> for TicksScenario {
    fn prompt(
        &self,
        state: &State,
        who: CombatantId,
        request: &Request,
        ai: &Choice,
    ) -> (String, Vec<(String, Choice)>) {
        self.prompt_for(state, who, request, Some(ai))
    }

    fn odds(&self, state: &State, who: CombatantId, choice: &Choice) -> Option<crate::ChoiceOdds> {
        let (target, kind, weak_point) = match *choice {
            Choice::Announce(Action::Fire { targets: [target, ..], weak_point, .. }) => {
                (target, Kind::Shot, weak_point)
            }
            Choice::Announce(Action::Melee { target, blow, weak_point }) => (target, Kind::Melee(blow), weak_point),
            _ => return None,
        };
        let odds = super::odds::odds_of(&self.0, state, who, target, kind, Some(weak_point));
        Some(crate::ChoiceOdds::new(&odds.hit, &odds.down))
    }

    fn hostile_target(&self, choice: &Choice) -> Option<CombatantId> {
        match *choice {
            Choice::Announce(
                Action::Fire { targets: [target, ..], .. }
                | Action::Melee { target, .. }
                | Action::Strike { target, .. }
                | Action::Aim(target)
                | Action::Run { attack: Some((target, ..)), .. },
            ) => Some(target),
            _ => None,
        }
    }

    /// Out of the fight, a combatant is no target unless `out_targetable` (TICK-TRACK-5); one the
    /// GM took out (or added, not joined yet) never is.
    fn taken_out(&self, state: &State, who: CombatantId) -> bool {
        state.fighter(who).removed
    }

    fn adjust(&self, state: &State, adjustment: &crate::board::Adjustment) -> Result<Vec<Event>, String> {
        super::status::adjust_events(&self.0, state, adjustment)
    }

    fn gone(&self, state: &State, who: CombatantId) -> bool {
        let x = state.fighter(who);
        x.out() && (!self.0.options.out_targetable || x.removed)
    }
}

impl Front for TicksScenario {
    type Rules = Ticks;
    type Sheet = Sheet;
    type Ai = Ai;
    const UNIT: &'static str = "ticks";
    const SECONDS: Option<f64> = Some(0.5);
    const DISTANCE_UNIT: &'static str = "squares";

    fn setup(&self) -> &Setup {
        &self.0
    }

    fn roster(&self) -> crate::Roster<'_, Sheet> {
        crate::Roster::new(&self.0.combatants, &self.0.sides, self.0.options.tick_cap, |c| &c.name, |c| c.side)
    }

    fn run_batch(&self, dice: &mut BatchDice, fights: u64, ledger: &mut Ledger) -> Result<(), FightError> {
        // The batch's announcement orders come from their own stream, seeded from the batch's.
        let order_seed = dice.next_u64();
        let dice = OrderStream::new(fray_engine::FromSource(dice), Some(order_seed));
        fray_sim::run_fights::<Ticks, _, _>(&self.0, dice, Ai, fights, ledger, |_| ())
    }

    fn join_late(&mut self, n: usize) {
        self.0.joins_late = n;
    }

    fn explain_combatant(&self, c: &Sheet) -> String {
        let setup = &self.0;
        let mut out = String::new();
        out += &format!(
            "  {} ({}): shoot {}, melee {}, evade {}; Body {}/{}, effort {}/{}, p {}; {}; {}{}; at {}{}\n",
            c.name,
            setup.sides[c.side.index()],
            c.shoot,
            c.melee,
            c.evade,
            c.body,
            c.body_max,
            c.effort,
            c.effort_max,
            c.stability,
            c.gun.as_ref().map_or("no gun".to_owned(), |g| format!(
                "{} (graze {}, +{}/delta, pen {}, ready {}, PB {}, −1 per {} m{})",
                g.name,
                g.damage,
                g.delta_damage,
                g.penetration,
                g.ready_penalty,
                crate::Signed(g.pb_bonus),
                g.range_step_m,
                if c.gun_ready { ", ready" } else { ", lowered" }
            )),
            c.melee_weapon.name,
            c.armour
                .iter()
                .map(|a| format!(", {} ({} res {})", a.name, if a.hard { "hard" } else { "soft" }, a.resistance))
                .collect::<String>(),
            sq(c.position),
            c.cover.map_or(String::new(), |cv| format!(" in {}% cover (res {})", cv.rating, cv.resistance)),
        );
        out
    }

    fn explain_more(&self) -> String {
        let setup = &self.0;
        let mut out = format!("{} cover square(s) on the map\n", setup.cover.len());
        out += &recovery_table(setup.options.printed_table);
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
        let table = crate::Table { front: self, seats };
        let mut state = Ticks::initial_state(&self.0);
        let sink = FnSink(|event: &Event| {
            // Each tick closes with every character's Body, Trauma, effort and p.
            let closes =
                matches!(event, Event::TickStarted { tick } if *tick > 1) || matches!(event, Event::Ended { .. });
            if closes && state.tick > 0 {
                out(&self.status(&state));
            }
            Ticks::apply(&self.0, &mut state, event);
            out(&self.line(event));
        });
        let mut fight = Fight::<Ticks, _, _, _>::new(&self.0, OrderStream::new(dice, seed), table, sink);
        let result = fight.run();
        crate::board::Played { result, status: self.board(fight.state()) }
    }
}
