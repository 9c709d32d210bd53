//! The `phasesix` scenario as the command line sees it: fights with a log, people at the table,
//! simulation batches.

use super::policy::{Ai, illegal, illegal_reaction};
use super::setup::{Class, Mode, Setup, Sheet};
use super::{Act, Boost, BoostedRoll, Choice, Event, Hand, HitTerms, PhaseSix, Reaction, Request, Special, State};
use crate::board::Played;
use crate::{AttackOdds, Front, Line, Seats, pos_text};
use fray_engine::{CombatantId, Dice, Pos};

/// A loaded `phasesix` scenario.
#[derive(Clone, Debug)]
pub struct PhaseSixScenario(pub Setup);

/// The JSON Schema of the `phasesix` log's events, the `end` among them.
pub fn events_schema() -> serde_json::Value {
    crate::events::schema::<Event>("phasesix", "rounds", &[])
}

fn totals_text(t: &[u8]) -> String {
    t.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ")
}

impl PhaseSixScenario {
    fn act_text(&self, act: &Act) -> String {
        match *act {
            Act::Attack { target, hand, mode, special, walk, from_behind } => format!(
                "{} {}{}{}{}{}",
                match special {
                    Special::None => "attack".to_owned(),
                    Special::Ko => "K.O. attack on".to_owned(),
                    Special::Massive(n) => format!("massive attack (+{n}) on"),
                    Special::Disarm => "disarming attack on".to_owned(),
                    Special::Coup => "coup de grâce on".to_owned(),
                },
                self.name(target),
                match hand {
                    Hand::Main => String::new(),
                    Hand::Off => " (off hand)".to_owned(),
                    Hand::Unarmed => " (unarmed)".to_owned(),
                },
                if mode == Mode::Melee { String::new() } else { format!(", {}", mode.name()) },
                walk.map_or(String::new(), |p| format!(", walking to {}", pos_text(p))),
                if from_behind { ", from behind" } else { "" }
            ),
            Act::Aim { accurate } => if accurate { "aim (accurate attack, M − 1)" } else { "aim (C − 1)" }.to_owned(),
            Act::Walk(p) => format!("walk to {}", pos_text(p)),
            Act::Run(p) => format!("run to {}", pos_text(p)),
            Act::Crawl(p) => format!("crawl to {}", pos_text(p)),
            Act::Hunker => "hunker down".to_owned(),
            Act::StandUp => "stand up".to_owned(),
            Act::RaiseShield => "raise a shield block".to_owned(),
            Act::LowerShield => "lower the shield block".to_owned(),
            Act::Brace => "brace the weapon".to_owned(),
            Act::Reload => "reload".to_owned(),
            Act::Ready => "ready the weapon".to_owned(),
            Act::FirstAid(p) => format!("first aid on {}", self.name(p)),
            Act::Extinguish(p) => format!("put out the fire on {}", self.name(p)),
            Act::Throw { item, target } => {
                format!(
                    "throw {} at {}",
                    self.0
                        .combatants
                        .iter()
                        .flat_map(|c| c.items.get(item as usize))
                        .next()
                        .map_or("?", |i| i.name.as_str()),
                    self.name(target)
                )
            }
            Act::SpendBonus => "spend a bonus die (+1 action)".to_owned(),
            Act::Steal(t) => format!("spend a destiny die to steal an action from {}", self.name(t)),
            Act::End => "end the turn (keep the actions for reactions)".to_owned(),
        }
    }

    /// The exact odds beside a choice of act in a person's menu: an attack's chance of ≥ 1 hit
    /// and of dropping its target (of a K.O. attack, knocking him out; of a disarm, disarming
    /// him; of a coup de grâce, ≥ 1 success and killing him, P6-SPECIAL-3..12); a throw's
    /// chance that its blast reaches the target and drops him; each as the AI would play it (bonus dice, rerolls and destiny dice on a hit or throw
    /// roll with no success, by the `spend` policy) and, when that differs, the roll alone, since
    /// a person decides it (P6-THROW-1..4, P6-RES-4/5).
    fn odds_label(&self, state: &State, who: CombatantId, act: &Act) -> String {
        let setup = &self.0;
        let pc = |p: &fray_dice::BigRational| {
            use num_traits::ToPrimitive;
            p.to_f64().unwrap_or(0.0) * 100.0
        };
        if let Act::Throw { target, .. } = *act {
            let (Some(played), Some(alone)) = (
                super::odds::throw_odds(setup, state, who, act, target, true),
                super::odds::throw_odds(setup, state, who, act, target, false),
            ) else {
                return String::new();
            };
            let text = |o: &super::odds::Odds| {
                format!("blast reaches the target {:.1}%, drops the target {:.1}%", pc(&o.hit), pc(&o.down))
            };
            return if played == alone {
                format!(" — {}", text(&played.odds))
            } else {
                format!(
                    " — {} as the AI would play it (dice spent on a throw with no success); the roll alone: {}",
                    text(&played.odds),
                    text(&alone.odds)
                )
            };
        }
        let alone = super::odds::spends_on_roll(setup, state, who, act)
            .then(|| super::odds::odds_as(setup, state, who, act, false))
            .flatten();
        let (Some(played), alone) = (super::odds::odds_as(setup, state, who, act, true), alone) else {
            return String::new();
        };
        let special = match *act {
            Act::Attack { special, .. } => special,
            _ => Special::None,
        };
        let text = |o: &super::odds::Odds| match special {
            Special::Ko => format!("≥ 1 hit {:.1}%, knocks the target out {:.1}%", pc(&o.hit), pc(&o.down)),
            Special::Disarm => format!("≥ 1 hit {:.1}%, disarms the target {:.1}%", pc(&o.hit), pc(&o.disarms)),
            Special::Coup => format!("≥ 1 success {:.1}%, kills the target {:.1}%", pc(&o.hit), pc(&o.down)),
            Special::None | Special::Massive(_) => {
                format!("≥ 1 hit {:.1}%, drops the target {:.1}%", pc(&o.hit), pc(&o.down))
            }
        };
        match alone.filter(|alone| *alone != played) {
            Some(alone) => format!(
                " — {} as the AI would play it (dice spent on a hit roll with no hit); the roll alone: {}",
                text(&played),
                text(&alone)
            ),
            None => format!(" — {}", text(&played)),
        }
    }

    /// One event as a line of the blow-by-blow log and as JSON.
    pub fn line(&self, event: &Event) -> Line {
        let n = |who: &CombatantId| self.name(*who).to_owned();
        let text = match event {
            Event::Initiative { who, dice, bonus, score } => {
                let terms = [("quickness", *bonus)];
                Some(format!("{} initiative: [{}]{} → {score}", n(who), totals_text(dice), crate::terms_inline(terms)))
            }
            Event::TieBreak { who, draw } => Some(format!("{} tie-break: {draw}", n(who))),
            Event::Order { order } => {
                let names: Vec<String> = order.iter().map(n).collect();
                Some(format!("order: {}", names.join(", ")))
            }
            Event::RoundStarted { round } => Some(format!("— round {round} —")),
            Event::Check { who, what, dice, m, totals, successes } => Some(format!(
                "{} {what}: {dice} dice at {m}+ [{}] → {successes} success(es)",
                n(who),
                totals_text(totals)
            )),
            Event::Condition { who, cond, value } => Some(if *value == 0 {
                format!("{} is no longer {}", n(who), cond.name())
            } else {
                format!("{} is {} {value}", n(who), cond.name())
            }),
            Event::Died { who } => Some(format!("{} dies", n(who))),
            Event::Out { .. } => None,
            Event::Refreshed { who, actions } => Some(format!("{}'s turn: {actions} action(s)", n(who))),
            Event::Acted { who, act, cost } => (!matches!(act, Act::Attack { .. }))
                .then(|| format!("{} — {} ({cost} action(s))", n(who), self.act_text(act))),
            Event::Actions { who, delta, steal_later, bonus, destiny } => Some(format!(
                "{}: {}{}{}",
                n(who),
                if *delta != 0 { format!("{} action(s) now", crate::Signed(*delta)) } else { String::new() },
                if *steal_later > 0 {
                    format!("{steal_later} action(s) fewer at the next refresh")
                } else {
                    String::new()
                },
                match (bonus, destiny) {
                    (1.., _) => " (bonus die)",
                    (_, 1..) => " (destiny die)",
                    _ => "",
                }
            )),
            Event::Moved { who, from, to } => {
                Some(format!("{} moves from {} to {}", n(who), pos_text(*from), pos_text(*to)))
            }
            Event::Posture { who, hunkered } => {
                Some(format!("{} {}", n(who), if *hunkered { "hunkers down" } else { "stands up" }))
            }
            Event::Aimed { who, aim, accurate } => Some(format!("{} aims: C −{aim}, M −{accurate}", n(who))),
            Event::AttackRoll { attacker, act, dice, m, c, terms, totals, normals, crits, chain, .. } => {
                // The skill rolled, by the weapon's class (P6-ATK-1); the rest from the event.
                let hand = if let Act::Attack { hand, .. } = act { *hand } else { Hand::Unarmed };
                let skill = match super::run::weapon_of(&self.0, *attacker, hand).0.class {
                    Class::Melee => "hand-to-hand",
                    Class::Ranged => "shooting",
                    Class::Thrown => "throwing",
                };
                let dice_terms = || HitTerms::named_for(terms.dice(skill), *dice);
                let m_terms = || HitTerms::named_for(terms.m(), *m);
                let c_terms = || HitTerms::named_for(terms.c(), *c);
                // M and C itemised when more than their base makes them.
                let beside = |list: &mut dyn Iterator<Item = (&str, i32)>| {
                    let shown: Vec<(&str, i32)> = list.filter(|t| t.1 != 0).collect();
                    if shown.len() > 1 { crate::terms_text(shown) } else { String::new() }
                };
                let crit_text = match crits.len() {
                    0 => "0 crits".to_owned(),
                    k => format!(
                        "{k} crit(s){}",
                        if crits.iter().any(|&l| l > 0) {
                            format!(" (megacrit levels {:?})", crits.as_slice())
                        } else {
                            String::new()
                        }
                    ),
                };
                Some(format!(
                    "{} — {}: {dice} dice{} at {m}+{}{} [{}] → {crit_text}, {normals} normal hit(s){}",
                    n(attacker),
                    self.act_text(act),
                    crate::terms_text(dice_terms()),
                    beside(&mut m_terms()),
                    if *c > 0 { format!(", crits {c}+{}", beside(&mut c_terms())) } else { String::new() },
                    totals_text(totals),
                    if *chain > 1 { format!(" (recoil chain {chain})") } else { String::new() }
                ))
            }
            Event::Reacted { who, reaction, dice, m, totals, successes } => Some(match reaction {
                Reaction::ShieldParry => format!("{} parries with the shield (its cover roll follows)", n(who)),
                Reaction::Hunker => format!("{} hunkers down", n(who)),
                Reaction::Attack { .. } => format!("{} replies with an attack", n(who)),
                _ => format!(
                    "{} {}: {dice} dice at {m}+ [{}] → {successes} success(es)",
                    n(who),
                    match reaction {
                        Reaction::Dodge => "dodges".to_owned(),
                        _ => "parries".to_owned(),
                    },
                    totals_text(totals)
                ),
            }),
            Event::CoverRoll { who, value, crit_totals, normal_totals, crits_removed, normals_removed } => {
                Some(format!(
                    "{}'s cover {value}+: crits [{}], hits [{}] → {crits_removed} crit(s) and {normals_removed} hit(s) removed",
                    n(who),
                    totals_text(crit_totals),
                    totals_text(normal_totals)
                ))
            }
            Event::Wounded { who, normals, crits, wounds, boosts_used, track, .. } => Some(format!(
                "{} takes {wounds} wound(s) ({normals} hit(s), {} crit(s) left){} — {track} of {} hearts",
                n(who),
                crits.len(),
                if *boosts_used > 0 { format!(", {boosts_used} boost(s) used") } else { String::new() },
                self.0.combatants[who.index()].max_wounds
            )),
            Event::RollBoosted { who, roll, boost, totals, apart } => Some(format!(
                "{} {}: now [{}]{}",
                n(who),
                match boost {
                    Boost::BonusDie => format!("adds a bonus die to the {} roll", roll.name()),
                    Boost::DestinyDie => format!("adds a destiny die to the {} roll as a bonus die", roll.name()),
                    Boost::Reroll => format!("rerolls the {} roll", roll.name()),
                    Boost::DestinyReroll => format!("spends a destiny die to reroll the {} roll", roll.name()),
                },
                totals_text(totals),
                if apart.is_empty() { String::new() } else { format!(" + destiny [{}] (4+)", totals_text(apart)) }
            )),
            Event::AimLost { who } => Some(format!("{} loses the aim", n(who))),
            Event::ShieldBlock { who, up } => {
                Some(format!("{} {} the shield block", n(who), if *up { "raises" } else { "lowers" }))
            }
            Event::Braced { .. } => None,
            Event::Readied { .. } => None,
            Event::Disarmed { who } => Some(format!("{} is disarmed", n(who))),
            Event::Landed { who, item, at, deviation } => Some(format!(
                "{}'s {} lands at {}{}",
                n(who),
                self.0.combatants[who.index()].items.get(*item as usize).map_or("?", |i| i.name.as_str()),
                pos_text(*at),
                deviation.map_or(String::new(), |(h, d)| format!(" (deviated: {h} o'clock, {d} m)"))
            )),
            Event::Protected { who, protection, piercing, stopped } => Some(format!(
                "{}'s protection {protection}{} stops {stopped} hit(s)",
                n(who),
                if *piercing > 0 { format!(" − piercing {piercing}") } else { String::new() }
            )),
            Event::ArmourWorn { who, pct, .. } => Some(format!("{}'s armour wears to {pct} %", n(who))),
            Event::Boosted { who } => Some(format!("{} gains a boost", n(who))),
            Event::Stabilised { who } => Some(format!("{} is stabilised", n(who))),
            Event::Woke { who } => Some(format!("{} wakes up", n(who))),
            Event::Ended { .. } => None, // the shared end line (`Front::log_line`)
            Event::Adjusted { who, change } => Some(self.adjusted_text(*who, change)),
        };
        self.log_line(event, text)
    }
}

impl crate::Prompts<PhaseSix> for PhaseSixScenario {
    fn prompt(
        &self,
        state: &State,
        who: CombatantId,
        request: &Request,
        ai: &Choice,
    ) -> (String, Vec<(String, Choice)>) {
        let setup = &self.0;
        match request {
            Request::Act { actions } => {
                let mut candidates = Vec::new();
                for i in 0..setup.combatants.len() {
                    let t = CombatantId(i as u16);
                    // Not one the GM added that has not joined yet.
                    if t == who || state.fighter(t).absent {
                        continue;
                    }
                    for mode in [Mode::Melee, Mode::Single, Mode::Burst, Mode::Thrown] {
                        for hand in [Hand::Main, Hand::Off, Hand::Unarmed] {
                            for special in
                                [Special::None, Special::Ko, Special::Massive(1), Special::Disarm, Special::Coup]
                            {
                                candidates.push(Act::Attack {
                                    target: t,
                                    hand,
                                    mode,
                                    special,
                                    walk: None,
                                    from_behind: false,
                                });
                            }
                        }
                    }
                    candidates.push(Act::FirstAid(t));
                    candidates.push(Act::Steal(t));
                    for item in 0..4u8 {
                        candidates.push(Act::Throw { item, target: t });
                    }
                    let (from, to) = (state.fighter(who).pos, state.fighter(t).pos);
                    let d = from.distance(to);
                    if d > 1.0 {
                        for kind in 0..3u8 {
                            let m = super::policy::move_m(setup, state, who, kind);
                            let go = (d - 0.9).clamp(0.0, m);
                            let p = Pos { x: from.x + (to.x - from.x) * go / d, y: from.y + (to.y - from.y) * go / d };
                            candidates.push([Act::Walk(p), Act::Run(p), Act::Crawl(p)][kind as usize]);
                        }
                    }
                }
                candidates.extend([
                    Act::Aim { accurate: false },
                    Act::Aim { accurate: true },
                    Act::Hunker,
                    Act::StandUp,
                    Act::RaiseShield,
                    Act::LowerShield,
                    Act::Brace,
                    Act::Reload,
                    Act::Ready,
                    Act::Extinguish(who),
                    Act::SpendBonus,
                    Act::End,
                ]);
                // What the AI would do (a walk into reach with its attack among them), so that it
                // is always offered.
                if let Choice::Act(act) = *ai
                    && !candidates.contains(&act)
                {
                    candidates.push(act);
                }
                let out = candidates
                    .into_iter()
                    .filter(|a| illegal(setup, state, who, a).is_none())
                    .map(|a| {
                        let odds = if crate::odds_shown() { self.odds_label(state, who, &a) } else { String::new() };
                        (format!("{}{odds}", self.act_text(&a)), Choice::Act(a))
                    })
                    .collect();
                (format!("your act ({actions} action(s) available)"), out)
            }
            Request::React { attacker, target, mode, normals, crits, .. } => {
                let mut out = vec![("no reaction".to_owned(), Choice::React { reaction: None, buy: 0 })];
                let mut reactions = vec![Reaction::Dodge, Reaction::Parry, Reaction::ShieldParry, Reaction::Hunker];
                if setup.options.reaction_any {
                    for hand in [Hand::Main, Hand::Off, Hand::Unarmed] {
                        for mode in [Mode::Melee, Mode::Single, Mode::Burst] {
                            reactions.push(Reaction::Attack { hand, mode });
                        }
                    }
                }
                for buy in 0..=2u8 {
                    for &r in &reactions {
                        if illegal_reaction(setup, state, who, *attacker, *target, *mode, r, buy).is_none()
                            && (buy == 0 || state.fighter(who).actions < 1)
                        {
                            let paid = ["", " (spend a bonus die)", " (spend a destiny die)"][buy as usize];
                            let text = match r {
                                Reaction::Attack { hand, mode } => format!(
                                    "reply: {}",
                                    self.act_text(&Act::Attack {
                                        target: *attacker,
                                        hand,
                                        mode,
                                        special: Special::None,
                                        walk: None,
                                        from_behind: false,
                                    })
                                ),
                                _ => r.name().to_owned(),
                            };
                            out.push((format!("{text}{paid}"), Choice::React { reaction: Some(r), buy }));
                        }
                    }
                }
                let whom = if *target == who { "you".to_owned() } else { self.name(*target).to_owned() };
                (
                    format!(
                        "{} attacks {whom}: {crits} crit(s), {normals} normal hit(s). React?",
                        self.name(*attacker)
                    ),
                    out,
                )
            }
            Request::Boost { roll, against, totals, apart, m, c } => {
                let mut out = vec![("keep the roll".to_owned(), Choice::Boost(None))];
                for boost in Boost::ALL {
                    if boost.illegal(state.fighter(who), totals.len()).is_none() {
                        out.push((boost_text(boost).to_owned(), Choice::Boost(Some(boost))));
                    }
                }
                let apart = if apart.is_empty() { String::new() } else { format!(" + destiny {}", totals_text(apart)) };
                let against = match (roll, against) {
                    (BoostedRoll::Hit, Some(x)) => format!(" at {}", self.name(*x)),
                    (_, Some(x)) => format!(" against {}", self.name(*x)),
                    (_, None) => String::new(),
                };
                let crits = c.map_or(String::new(), |c| format!(" (crits {c}+)"));
                (
                    format!(
                        "your {} roll{against} [{}]{apart}, {m}+{crits}: spend something on it?",
                        roll.name(),
                        totals_text(totals)
                    ),
                    out,
                )
            }
        }
    }

    fn odds(&self, state: &State, who: CombatantId, choice: &Choice) -> Option<crate::ChoiceOdds> {
        let Choice::Act(act) = choice else { return None };
        let odds = super::odds::odds_of(&self.0, state, who, act)?;
        Some(crate::ChoiceOdds::new(&odds.hit, &odds.down))
    }

    fn hostile_target(&self, choice: &Choice) -> Option<CombatantId> {
        match choice {
            Choice::Act(Act::Attack { target, .. } | Act::Throw { target, .. }) => Some(*target),
            _ => None,
        }
    }

    fn taken_out(&self, state: &State, who: CombatantId) -> bool {
        state.fighter(who).removed
    }

    fn adjust(&self, state: &State, adjustment: &crate::board::Adjustment) -> Result<Vec<Event>, String> {
        super::status::adjust_events(&self.0, state, adjustment)
    }

    fn gone(&self, state: &State, who: CombatantId) -> bool {
        state.fighter(who).dead
    }
}

impl Front for PhaseSixScenario {
    type Rules = PhaseSix;
    type Sheet = Sheet;
    type Ai = Ai;

    fn setup(&self) -> &Setup {
        &self.0
    }

    fn roster(&self) -> crate::Roster<'_, Sheet> {
        crate::Roster::new(&self.0.combatants, &self.0.sides, self.0.options.round_cap, |c| &c.name, |c| c.side)
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
        out += &format!(
            "  {} ({}): Quickness {}, Deftness {}, Strength {}; hand-to-hand {}, shooting {}, throwing {}; evasion {}; {} actions, {} hearts; at {}\n",
            c.name,
            setup.sides[c.side.index()],
            c.quickness,
            c.deftness,
            c.strength,
            c.hand_to_hand,
            c.shooting,
            c.throwing,
            c.evasion(),
            c.actions,
            c.max_wounds,
            pos_text(c.position)
        );
        for w in &c.weapons {
            let mut line = format!(
                "    {} ({:?}): DP {}, piercing {}, {} wound(s) per hit, range {} m",
                w.name, w.class, w.dp, w.piercing, w.wounds_per_hit, w.range_m
            );
            if w.recoil {
                line += &format!(", recoil (compensation {})", w.recoil_compensation);
            }
            if let Some(ammo) = w.ammo {
                line += &format!(", {ammo} rounds loaded");
            }
            out += &line;
            out += "\n";
        }
        // What stands between a hit and a wound (P6-COVER-1, P6-SHLD-1, P6-DMG-1).
        let mut defence = Vec::new();
        if let Some(cover) = c.cover {
            defence.push(format!("terrain cover {cover}+"));
        }
        if let Some(shield) = &c.shield {
            defence.push(match c.shield_cover(&setup.options) {
                Some(cover) => format!("{} (shield, cover {cover}+)", shield.name),
                None => format!("{} (shield)", shield.name),
            });
        }
        for a in &c.armour {
            defence.push(format!("{} (armour, protection {}, {}%)", a.name, a.protection, a.condition_pct));
        }
        if c.innate_protection != 0 {
            defence.push(format!("innate protection {}", c.innate_protection));
        }
        if !defence.is_empty() {
            out += &format!(
                "    {}; protection against piercing {}\n",
                defence.join(", "),
                c.protection(&setup.options, &c.armour.iter().map(|a| a.condition_pct).collect::<Vec<_>>())
            );
        }
        for t in &c.items {
            out += &format!(
                "    {} × {}: {} hit(s) of {} wound(s), piercing {}\n",
                t.count, t.name, t.hits, t.wounds_per_hit, t.piercing
            );
        }
        if c.bonus_dice + c.destiny_dice + c.rerolls > 0 {
            out +=
                &format!("    {} bonus dice, {} destiny dice, {} rerolls\n", c.bonus_dice, c.destiny_dice, c.rerolls);
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

/// What a boost does, as a prompt and the log put it (P6-RES-4/5).
fn boost_text(boost: Boost) -> &'static str {
    match boost {
        Boost::BonusDie => "adds a bonus die",
        Boost::DestinyDie => "adds a destiny die as a bonus die",
        Boost::Reroll => "rerolls",
        Boost::DestinyReroll => "spends a destiny die to reroll",
    }
}
