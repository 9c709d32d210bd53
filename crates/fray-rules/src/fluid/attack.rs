//! The arithmetic of one attack, shared by the fight (which rolls it) and the odds (which
//! enumerate it): the defences on offer, the attack check, and damage through armour.

use super::check::Check;
use super::options::{ArmorSizeTest, MultiActionPenalty};
use super::setup::{DefenceSkill, ItemKind, Projectile, Setup};
use super::{DefenceOption, Intent, List, State};
use fray_engine::CombatantId;

/// The defences `target` may use against `attacker`'s weapon, with its items' current DQ; broken
/// items cannot defend (FLUID-DEF-1, -2, -3, -5, -7, -10, -11, FLUID-SUNDER-6).
///
/// Against melee: Dodge, and Parry or Block with any defending item or unarmed. Against a shot
/// from within Nearby: the same, but the defence knocks the aim away (no size bonus, FLUID-DEF-10).
/// Against a shot from farther: Dodge, or Parry or Block with a weapon or shield (not unarmed),
/// the shooter getting the projectile's modifier (FLUID-DEF-11).
pub fn defence_options(
    setup: &Setup,
    state: &State,
    attacker: CombatantId,
    item: usize,
    target: CombatantId,
) -> List<DefenceOption, 8> {
    let options = &setup.options;
    let shooter = &setup.combatants[attacker.index()];
    let weapon = &shooter.items[item];
    let weapon_size = attack_size(setup, weapon);
    let defender = &setup.combatants[target.index()];
    let current = state.fighter(target);
    let mut out: List<DefenceOption, 8> = smallvec::smallvec![dodge(defender, options)];
    let point_blank = state.distance(attacker, target) <= options.reach_m + 1e-9;
    let ranged = weapon.kind == ItemKind::Ranged;
    for skill in [DefenceSkill::Parry, DefenceSkill::Block] {
        let value = defender.defence_value(skill, options);
        for (i, defending) in defender.items.iter().enumerate() {
            if !defending.defends() || current.broken(i) {
                continue;
            }
            // The listed size closest to the weapon's (FLUID-DEF-5, FLUID-SIZE-3).
            let size = defending.sizes.iter().copied().min_by_key(|s| (s - weapon_size).abs()).unwrap_or(3);
            let tn = value + item_dq(options, current, i, defending);
            // Melee: the size bonus; a shot from within reach: the defence knocks the aim aside;
            // a farther shot: the projectile's bonus or edge (FLUID-DEF-5, FLUID-DEF-10, FLUID-DEF-11).
            let (size_bonus, projectile, knocks_aim) = if !ranged {
                ((size - weapon_size).abs(), (0, 0), false)
            } else if point_blank {
                (0, (0, 0), true)
            } else {
                let shield = defending.kind == ItemKind::Shield;
                let projectile = match (weapon.projectile, skill, shield) {
                    (Projectile::Bullet, DefenceSkill::Parry, _) => (0, 1),
                    (Projectile::Arrow, DefenceSkill::Parry, _) => (3, 0),
                    (Projectile::Arrow, _, true) => (0, 0),
                    (Projectile::Bullet, _, true) => (3, 0),
                    (Projectile::Bullet, _, false) => (0, 1),
                    (Projectile::Arrow, _, false) => (3, 0),
                };
                (0, projectile, false)
            };
            let option =
                DefenceOption { skill, item: Some(i as u8), tn, size_bonus, size, projectile, knocks_aim, guard: None };
            out.push(option);
        }
        // Unarmed: an item of creature size − 3, DQ 0 (FLUID-DEF-7); not against far shots.
        let unarmed = defender.size - 3;
        if !ranged {
            out.push(DefenceOption {
                skill,
                item: None,
                tn: value,
                size_bonus: (unarmed - weapon_size).abs(),
                size: unarmed,
                projectile: (0, 0),
                knocks_aim: false,
                guard: None,
            });
        } else if point_blank {
            out.push(DefenceOption {
                skill,
                item: None,
                tn: value,
                size_bonus: 0,
                size: unarmed,
                projectile: (0, 0),
                knocks_aim: true,
                guard: None,
            });
        }
    }
    out
}

/// The defences against an area attack: Dodge, and Block with a shield under `dodge_or_shield`
/// (FLUID-SPECIAL-3); none under `none`.
pub fn area_defence_options(setup: &Setup, state: &State, target: CombatantId) -> List<DefenceOption, 8> {
    let options = &setup.options;
    let defender = &setup.combatants[target.index()];
    let current = state.fighter(target);
    let mut out: List<DefenceOption, 8> = List::new();
    if options.area_defense == super::options::AreaDefense::None {
        return out;
    }
    out.push(dodge(defender, options));
    if options.area_defense == super::options::AreaDefense::DodgeOrShield {
        let value = defender.defence_value(DefenceSkill::Block, options);
        for (i, item) in defender.items.iter().enumerate() {
            if item.kind == ItemKind::Shield && !current.broken(i) {
                let size = item.sizes.first().copied().unwrap_or(3);
                out.push(DefenceOption {
                    skill: DefenceSkill::Block,
                    item: Some(i as u8),
                    tn: value + item_dq(options, current, i, item),
                    size_bonus: 0,
                    size,
                    projectile: (0, 0),
                    knocks_aim: false,
                    guard: None,
                });
            }
        }
    }
    out
}

/// The edge of an area attack on a target in `band` for a weapon whose base band is `base`:
/// Superior +1 per band closer, Inferior +1 per band beyond, `None` beyond two bands out
/// (FLUID-SPECIAL-1, FLUID-SPECIAL-2).
pub fn area_edge(base: usize, band: usize) -> Option<i32> {
    (band <= base + 2).then(|| base as i32 - band as i32)
}

/// Interference with a shot: every foe of the shooter within Nearby of it, free to act, other
/// than the target, adds its best Parry or Block bonus (not below 0, without dT) (FLUID-DEF-9).
/// Free is aware of the shooter (no foe knows of a hidden one, FLUID-ROUND-5) and not
/// incapacitated (not dying, stunned or unconscious, FLUID-TRACK-11: a dying foe that passed its
/// act test may defend itself, but does not interfere).
pub fn interference(setup: &Setup, state: &State, shooter: CombatantId, target: CombatantId) -> i32 {
    let options = &setup.options;
    let me = &setup.combatants[shooter.index()];
    if state.fighter(shooter).hidden {
        return 0;
    }
    let mut total = 0;
    for (i, foe) in setup.combatants.iter().enumerate() {
        let who = CombatantId(i as u16);
        let fighter = state.fighter(who);
        if who == target || foe.side == me.side || !fighter.able() || fighter.dying {
            continue;
        }
        if state.distance(who, shooter) > options.reach_m + 1e-9 {
            continue;
        }
        let mut best = 0;
        for skill in [DefenceSkill::Parry, DefenceSkill::Block] {
            let value = foe.defence_value(skill, options);
            best = best.max(value - 10);
            for (j, item) in foe.items.iter().enumerate() {
                if item.defends() && !fighter.broken(j) {
                    best = best.max(value + item_dq(options, fighter, j, item) - 10);
                }
            }
        }
        total += best;
    }
    total
}

/// The TN of a sunder check: 10 + 2 × (other size − own size) + (other tier − own tier) + extra
/// (FLUID-SUNDER-4, FLUID-SUNDER-7, FLUID-SUNDER-9).
pub fn sunder_tn(other: (i32, i32), own: (i32, i32), extra: i32) -> i32 {
    10 + 2 * (other.0 - own.0) + (other.1 - own.1) + extra
}

/// The size an attacking weapon counts as for the size bonus and sunder TNs: its smallest, or its
/// first under `attack_size = first` (FLUID-SIZE-3).
pub fn attack_size(setup: &Setup, weapon: &super::setup::Item) -> i32 {
    if setup.options.attack_size_first { weapon.sizes.first().copied().unwrap_or(3) } else { weapon.smallest_size() }
}

/// Points a sunder check loses: ⌊failures / 2⌋ (FLUID-SUNDER-5, FLUID-SUNDER-11).
pub fn sunder_loss(margin: i32) -> i32 {
    // `margin <= 0` would be the same: ⌊0 / 2⌋ is 0 (an equivalent mutant of the audit).
    if margin < 0 { -margin / 2 } else { 0 }
}

/// The TN of a chosen defence, or of none: its value + dT (+ CP under `cp_on_defense`)
/// (FLUID-DEF-1, FLUID-TAC-2, FLUID-ATK-3, FLUID-TRACK-3).
pub fn defence_tn(setup: &Setup, state: &State, target: CombatantId, defence: Option<DefenceOption>) -> i32 {
    let dt = state.fighter(target).dt;
    match defence {
        None => 10 + dt,
        Some(option) => {
            let cp = if setup.options.cp_on_defense { super::condition_penalty(setup, state, target) } else { 0 };
            option.tn + dt + cp
        }
    }
}

/// The multi-action penalty for `declared` check actions (FLUID-ACT-4).
pub fn multi_action_penalty(setup: &Setup, declared: i32) -> i32 {
    match setup.options.multi_action_penalty {
        MultiActionPenalty::NIfMultiple if declared >= 2 => -declared,
        MultiActionPenalty::NIfMultiple => 0,
        MultiActionPenalty::NMinusOne => -(declared - 1).max(0),
        MultiActionPenalty::NAlways => -declared,
    }
}

/// The modifiers of an attack check that the fight's moment gives, not the sheets: pain (CP, or
/// what is left of it after the NER check, FLUID-TRACK-4), −1 per changed declaration
/// (FLUID-ACT-6), recoil (FLUID-SPECIAL-5, -6, -8) and movement (FLUID-MOVE-4, -5, -6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Situation {
    /// The pain modifier (≤ 0).
    pub pain: i32,
    /// −1 per declared action changed this round (≤ 0).
    pub changes: i32,
    /// The recoil penalty (≤ 0).
    pub recoil: i32,
    /// The movement modifier (≤ 0).
    pub movement: i32,
}

/// The terms of an attack check's bonus, one small integer per term in the order of
/// [`AttackTerms::NAMES`]; the bonus is their sum (FLUID-ATK-2). Carried by the attack event so
/// that the log can itemise the bonus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AttackTerms(pub [i8; 11]);

crate::events::terms_json!(AttackTerms, |terms| terms.named());

impl AttackTerms {
    /// The name of each term as the log shows it.
    pub const NAMES: [&'static str; 11] = [
        "skill",
        "OQ",
        "oT",
        "multiple actions",
        "pain",
        "changed actions",
        "recoil",
        "movement",
        "size",
        "counterattack",
        "flank",
    ];

    /// Each term with its name, zeros included.
    pub fn named(&self) -> impl Iterator<Item = (&'static str, i32)> + Clone + '_ {
        Self::NAMES.iter().copied().zip(self.0.iter().map(|&t| i32::from(t)))
    }

    /// The sum of the terms as stored: the check's bonus unless a term was beyond a byte.
    pub fn sum(&self) -> i32 {
        self.0.iter().map(|&t| i32::from(t)).sum()
    }

    /// The terms with their names, and last what a byte could not hold of them (`beyond`, zero
    /// in any scenario within a sheet's numbers), so that they always add up to `bonus`.
    pub fn named_for(&self, bonus: i32) -> impl Iterator<Item = (&'static str, i32)> + '_ {
        crate::with_beyond(self.named(), bonus)
    }
}

/// The attack check: skill bonus, OQ, oT, multi-action, pain, changes, recoil, movement, size
/// bonus, counterattack bonus and flank against the defence TN (FLUID-ATK-2, FLUID-ATK-6,
/// FLUID-DEF-5, FLUID-ATK-7, FLUID-ATK-9), and its bonus itemised. The bonus is the sum of the
/// terms; the event stores each in a byte ([`AttackTerms::named_for`] shows any excess).
#[allow(clippy::too_many_arguments, reason = "each is one input of the clause's sum")]
pub fn attack_check(
    setup: &Setup,
    state: &State,
    attacker: CombatantId,
    item: usize,
    target: CombatantId,
    defence: Option<DefenceOption>,
    tn: i32,
    edge: i32,
    declared: i32,
    situation: Situation,
) -> (Check, AttackTerms) {
    let sheet = &setup.combatants[attacker.index()];
    let weapon = &sheet.items[item];
    let fighter = state.fighter(attacker);
    // The item's quality: all of it, or only its sunder loss when skill values already include
    // the original (FLUID-ATK-5).
    let oq = if setup.options.skill_values_exclude_item { fighter.oq[item] } else { fighter.oq[item] - weapon.oq };
    let size_bonus =
        defence.map_or(0, |d| if d.skill == DefenceSkill::Dodge { 0 } else { d.size_bonus + d.projectile.0 });
    let terms = [
        sheet.attack_value(item, &setup.options) - 10,
        oq,
        fighter.ot,
        multi_action_penalty(setup, declared),
        situation.pain,
        situation.changes,
        situation.recoil,
        situation.movement,
        size_bonus,
        fighter.counter(target),
        if weapon.kind == ItemKind::Melee { flank(setup, state, attacker, target) } else { 0 },
    ];
    // The bonus is the terms' exact sum; the event keeps each term in a byte, and what a byte
    // cannot hold (only in scenarios far beyond any sheet's numbers) the log shows as `beyond`.
    let bonus = terms.iter().sum();
    let terms = AttackTerms(terms.map(|t| t.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8));
    (Check { edge, bonus, tn }, terms)
}

/// The range band of a distance: 0 Contact (0 m), 1 Nearby, 2 Close, 3 Short, 4 Medium, 5 Long,
/// 6 Extreme, 7 beyond (FLUID-MOVE-9).
pub fn band(setup: &Setup, distance: f64) -> usize {
    if distance <= 1e-9 {
        return 0;
    }
    1 + setup.options.range_bands.iter().take_while(|limit| distance > **limit + 1e-9).count()
}

/// The flank bonus of a melee attack: `flank_bonus` when another foe of the target, able to act,
/// stands within Nearby of the target on its far side from the attacker (the angle attacker–
/// target–other foe at least 90°) (FLUID-ATK-9).
pub fn flank(setup: &Setup, state: &State, attacker: CombatantId, target: CombatantId) -> i32 {
    let k = setup.options.flank_bonus;
    if k == 0 {
        return 0;
    }
    let (a, t) = (state.fighter(attacker).pos, state.fighter(target).pos);
    let target_side = setup.combatants[target.index()].side;
    let flanked = setup.combatants.iter().enumerate().any(|(i, c)| {
        let other = CombatantId(i as u16);
        let o = state.fighter(other).pos;
        other != attacker
            && c.side != target_side
            && state.fighter(other).able()
            && t.distance(o) <= setup.options.reach_m + 1e-9
            && (a.x - t.x) * (o.x - t.x) + (a.y - t.y) * (o.y - t.y) <= 1e-9
    });
    if flanked { k } else { 0 }
}

/// Damage of a hit before and after armour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// W and S before armour.
    pub before: (i32, i32),
    /// The AV that applied (armour plus block absorption).
    pub av: i32,
    /// W taken.
    pub w: i32,
    /// S taken.
    pub s: i32,
    /// S taken by a guarding ally's arm through its failed unarmed defence (FLUID-DEF-8, -14).
    pub guard_s: i32,
}

/// Damage of a hit with `successes`, the rolled base damage and any charge bonus, through block
/// absorption and armour (FLUID-DMG-2, -3, -5, FLUID-DEF-6, FLUID-ARM-2, -3, -4).
#[allow(clippy::too_many_arguments, reason = "each is one input of the clause's arithmetic")]
pub fn hit_damage(
    setup: &Setup,
    state: &State,
    attacker: CombatantId,
    item: usize,
    target: CombatantId,
    intent: Intent,
    defence: Option<DefenceOption>,
    successes: i32,
    (base_w, charge): (i32, i32),
    base_s: i32,
) -> Hit {
    let options = &setup.options;
    let weapon = &setup.combatants[attacker.index()].items[item];
    let target_sheet = &setup.combatants[target.index()];
    // The charge bonus goes to W, before armour by default (FLUID-MOVE-7, FLUID-DMG-5).
    let before_armor = if options.charge_before_armor { charge } else { 0 };
    let (mut w, mut s) = match intent {
        Intent::Lethal => (base_w + successes + before_armor, base_s),
        Intent::Stunning => (base_w + before_armor, base_s + successes),
    };
    let before = (w, s);
    let absorbing = defence.filter(|d| d.skill == DefenceSkill::Block && !d.knocks_aim && successes <= 5);
    let current = state.fighter(target);
    // The blocking item may be a guarding ally's (FLUID-DEF-14).
    let owner = absorbing.and_then(|d| d.guard).unwrap_or(target);
    let absorption = absorbing.map_or(0, |d| d.item.map_or(0, |i| state.fighter(owner).dq[usize::from(i)]));
    let armour_av = target_sheet.armor.as_ref().map_or(0, |_| current.av);
    // `always_reduce`: the Block's DQ comes off W whatever the sizes; the armour's own AV then
    // follows the size test alone (FLUID-ARM-4).
    let (absorption, early) = if options.block_always_reduces { (0, absorption.max(0)) } else { (absorption, 0) };
    w = (w - early).max(0);
    let av = (armour_av + absorption).max(0);
    let armour_size = match (&target_sheet.armor, absorbing.and_then(|d| d.item)) {
        (Some(armor), _) => armor.size,
        (None, Some(i)) => setup.combatants[owner.index()].items[usize::from(i)].smallest_size(),
        (None, None) => target_sheet.size,
    };
    let weapon_size = weapon.smallest_size();
    let reduces = match options.armor_size_test {
        ArmorSizeTest::NotLarger => weapon_size <= armour_size,
        ArmorSizeTest::Smaller => weapon_size < armour_size,
    };
    if reduces {
        let left = (av - w).max(0);
        w = (w - av).max(0);
        if options.armor_spill {
            s = (s - left).max(0);
        }
    } else {
        let moved = av.min(w);
        w -= moved;
        s += moved;
    }
    // A failed unarmed Parry or Block hurts the arm: ⌊W/4⌋ or ⌊W/2⌋ as S, on top under
    // `extra_stress`, instead of the W under `convert` (FLUID-DEF-8). The arm is the defender's:
    // a guarding ally's own (FLUID-DEF-14), while the guarded friend still takes the whole hit,
    // whichever way the option reads.
    let mut guard_s = 0;
    if let Some(d) = defence.filter(|d| d.item.is_none() && d.skill != DefenceSkill::Dodge && !d.knocks_aim) {
        let arm = if d.skill == DefenceSkill::Parry { w / 4 } else { w / 2 };
        if d.guard.is_some() {
            guard_s = arm;
        } else {
            if !options.unarmed_fail_extra_stress {
                w = 0;
            }
            s += arm;
        }
    }
    if !options.charge_before_armor {
        w += charge;
    }
    Hit { before, av: av + early, w, s, guard_s }
}

/// Dodge: the defender's Dodge value, no size bonus (FLUID-DEF-1).
fn dodge(defender: &super::setup::Sheet, options: &super::Options) -> DefenceOption {
    DefenceOption {
        skill: DefenceSkill::Dodge,
        item: None,
        tn: defender.defence_value(DefenceSkill::Dodge, options),
        size_bonus: 0,
        size: defender.size,
        projectile: (0, 0),
        knocks_aim: false,
        guard: None,
    }
}

/// The target's side of an attack once its defence (and TN) is known: foes interfering with a
/// shot (FLUID-DEF-9); Superior against the helpless in melee or from within Nearby, unless an
/// ally guards it (FLUID-DEF-12, FLUID-DEF-14), plain TN 10 for a farther shot at a stunned or
/// unconscious target (FLUID-DEF-15); Inferior against Full Defense (FLUID-ACT-8); a projectile's
/// edge against the defence (FLUID-DEF-11). Returns the TN and the edge.
#[allow(clippy::too_many_arguments, reason = "each is one input of the clauses")]
pub fn target_side(
    setup: &Setup,
    state: &State,
    attacker: CombatantId,
    item: usize,
    target: CombatantId,
    defence: Option<DefenceOption>,
    mut tn: i32,
    guarded: bool,
) -> (i32, i32) {
    let ranged = setup.combatants[attacker.index()].items[item].kind == ItemKind::Ranged;
    let near = state.distance(attacker, target) <= setup.options.reach_m + 1e-9;
    let t = state.fighter(target);
    let mut edge = 0;
    if ranged {
        tn += interference(setup, state, attacker, target);
    }
    if guarded {
        // Guarded: no Superior against the helpless.
    } else if !ranged || near {
        if t.unconscious {
            edge += 2;
        } else if t.stunned || t.dying {
            edge += 1;
        }
    } else if t.unconscious || t.stunned {
        tn = 10;
    }
    if t.full_defense {
        edge -= 1;
    }
    (tn, edge + defence.map_or(0, |d| d.projectile.1))
}

/// A defence a combatant may name for the round under `defense_choice = per_round`: the skill,
/// the item (`None` for Dodge or unarmed), and its TN against a medium (S3) weapon.
pub type NamedDefence = ((DefenceSkill, Option<u8>), i32);

/// The defences `who` may name for the round, best first by the default policy's rule (the
/// highest TN after the size bonus against a medium weapon; ties to Parry, Block, Dodge),
/// from its current state: broken items left out, current DQ (FLUID-DEF-4, FLUID-DEF-5,
/// FLUID-DEF-7).
pub fn nameable_defences(setup: &Setup, state: &State, who: CombatantId) -> List<NamedDefence, 8> {
    let options = &setup.options;
    let sheet = &setup.combatants[who.index()];
    let current = state.fighter(who);
    let mut out: List<(NamedDefence, i32), 8> = List::new();
    out.push((((DefenceSkill::Dodge, None), sheet.defence_value(DefenceSkill::Dodge, options)), 0));
    for (skill, rank) in [(DefenceSkill::Parry, 2), (DefenceSkill::Block, 1)] {
        let value = sheet.defence_value(skill, options);
        out.push((((skill, None), value - (sheet.size - 3 - 3).abs()), rank));
        for (i, item) in sheet.items.iter().enumerate() {
            if item.defends() && !current.broken(i) {
                let dq = if options.skill_values_exclude_item { current.dq[i] } else { current.dq[i] - item.dq };
                let size = item.sizes.iter().map(|s| (s - 3).abs()).min().unwrap_or(0);
                out.push((((skill, Some(i as u8)), value + dq - size), rank));
            }
        }
    }
    // Stable: among equals, the earlier (unarmed before items, items in sheet order) stays first.
    out.sort_by_key(|&((_, tn), rank)| std::cmp::Reverse((tn, rank)));
    out.into_iter().map(|(named, _)| named).collect()
}

/// Under `defense_choice = per_round`, the defence `target` uses against an attack offering
/// `offered`: the one named with its declarations (or, before it has declared, the one its
/// policy would name) where it is offered, otherwise Dodge where offered (never worse than no
/// defence), otherwise none (FLUID-DEF-4).
pub fn named_defence(
    setup: &Setup,
    state: &State,
    target: CombatantId,
    offered: &[DefenceOption],
) -> Option<DefenceOption> {
    let named =
        state.fighter(target).plan.defence.or_else(|| nameable_defences(setup, state, target).first().map(|d| d.0));
    named
        .and_then(|(skill, item)| offered.iter().copied().find(|o| o.skill == skill && o.item == item))
        .or_else(|| offered.iter().copied().find(|o| o.skill == DefenceSkill::Dodge))
}

/// What item `i`'s DQ adds to a defence value: all of it when skill values exclude the item;
/// under `skill_values = include_item` only what sunder took since (the value already holds the
/// sheet's DQ) (FLUID-ATK-5, FLUID-SUNDER-12).
fn item_dq(options: &super::Options, fighter: &super::Fighter, i: usize, item: &super::setup::Item) -> i32 {
    if options.skill_values_exclude_item { fighter.dq[i] } else { fighter.dq[i] - item.dq }
}

/// The recoil penalty of `rounds` fired at once from `weapon`: −⌊r × recoil factor⌋ from two
/// rounds on (FLUID-SPECIAL-5, -6, -8).
pub fn recoil_penalty(weapon: &super::setup::Item, rounds: u32) -> i32 {
    if rounds >= 2 { -((rounds / if weapon.half_recoil { 2 } else { 1 }) as i32) } else { 0 }
}

/// The movement modifier of an attack (FLUID-MOVE-4, -5, -6): a moving shooter and a running
/// target for a ranged attack, the attacker's run for a melee one.
pub fn movement_penalty(
    state: &State,
    options: &super::Options,
    attacker: CombatantId,
    target: CombatantId,
    ranged: bool,
) -> i32 {
    let moved = state.fighter(attacker).moved;
    if ranged {
        let target_ran = state.fighter(target).moved.filter(|m| m.runs());
        -moved.map_or(0, |m| m.multiplier()) - target_ran.map_or(0, |m| m.multiplier())
    } else {
        match (moved.filter(|m| m.runs()), options.melee_run_penalty) {
            (Some(m), super::options::MeleeRunPenalty::HalfMultiplier) => -(m.multiplier() / 2),
            (Some(m), super::options::MeleeRunPenalty::Multiplier) => -m.multiplier(),
            _ => 0,
        }
    }
}
