//! The rule arithmetic of one attack, shared by the fight, the AI and the odds: reach and range
//! bands, legality, the combat difficulty and its modifiers, fire modes, manoeuvres and called
//! shots, the damage and resistance codes.

use super::options::Options;
use super::roll::{dice_value, doubled, strength_damage};
use super::setup::{DamageType, DieCode, Gravity, Posture, Setup, Sheet, SkillId, Weapon};
use super::{AttackPlan, Called, DefKind, Fighter, Loc, Mode, State, level_penalty};
use fray_engine::CombatantId;

/// Range bands (OD6-MOVE-3): 0 Point Blank, 1 Short, 2 Medium, 3 Long.
pub fn band(setup: &Setup, state: &State, attacker: CombatantId, target: CombatantId, weapon: &Weapon) -> Option<u8> {
    if setup.options.bands {
        let b = setup.band(attacker.index(), target.index());
        return match weapon.ranges {
            Some(_) => Some(b),
            None if b == 0 || (b == 1 && weapon.long) => Some(b),
            None => None,
        };
    }
    band_at(state.distance(attacker, target), weapon)
}

/// The band of a distance for a weapon on the line (OD6-MOVE-3, OD6-MOVE-5); `None` out of reach.
pub fn band_at(d: i32, weapon: &Weapon) -> Option<u8> {
    match weapon.ranges {
        _ if d <= 3 => Some(0),
        Some([s, m, l]) => {
            let d = d as u32;
            if d <= s {
                Some(1)
            } else if d <= m {
                Some(2)
            } else if d <= l {
                Some(3)
            } else {
                None
            }
        }
        None if weapon.long && d as u32 <= weapon.reach_short_m => Some(1),
        None => None,
    }
}

/// Difficulty modifier of a band (OD6-MOVE-3).
pub fn band_modifier(band: u8) -> i32 {
    [-5, 0, 5, 10][band.min(3) as usize]
}

/// Difficulty and damage dice of a fire mode or manoeuvre (OD6-SPECIAL-2..10).
pub fn mode_dice(mode: Mode) -> (i32, i32) {
    match mode {
        Mode::Normal => (0, 0),
        Mode::BurstSingle => (0, -2),
        Mode::FullAuto => (-2, 2),
        Mode::Multi(e) => (-i32::from(e), i32::from(e)),
        Mode::SweepRanged | Mode::SweepClose => (-2, -3),
        Mode::AllOut => (-2, 1),
        Mode::Lunge => (1, -1),
        Mode::Knockdown | Mode::Grab => (2, 0),
        Mode::Push | Mode::Tackle => (1, 0),
    }
}

/// Difficulty dice, fixed damage and damage dice of a called shot (OD6-SPECIAL-11..13).
pub fn called_mods(called: Called, options: &Options) -> (i32, i32, i32) {
    match called {
        Called::None => (0, 0, 0),
        Called::Small { size, disarm } => ([1, 1, 4, 8][size.min(3) as usize], 0, i32::from(!disarm)),
        Called::Location(loc) => match loc {
            Loc::Head => (1, 12, 0),
            Loc::Heart => (4, 12, 0),
            Loc::Chest => (0, 0, 0),
            Loc::Arm => (1, -2, 0),
            Loc::Leg => (1, -1, 0),
            Loc::Hand => (4, -2, 0),
        },
        Called::Knockout => (1, if options.knockout_head_bonus { 12 } else { 0 }, 0),
    }
}

/// Whether the damage bonus applies to this called shot (not for arm, leg and hand, OD6-SPECIAL-12).
pub fn bonus_applies(called: Called) -> bool {
    !matches!(called, Called::Location(Loc::Arm | Loc::Leg | Loc::Hand))
}

/// Rounds of ammunition a mode uses (OD6-GEAR-1, OD6-SPECIAL-2..5).
pub fn ammo_needed(weapon: &Weapon, mode: Mode) -> u32 {
    match mode {
        Mode::BurstSingle => 1,
        Mode::FullAuto => weapon.auto_ammo,
        Mode::Multi(e) => 1 + u32::from(e),
        Mode::SweepRanged if weapon.full_auto => weapon.auto_ammo,
        Mode::SweepRanged if weapon.burst => weapon.burst_ammo,
        Mode::SweepRanged => 1 + u32::from(weapon.multi_fire_max),
        _ if weapon.burst => weapon.burst_ammo,
        _ => 1,
    }
}

/// The kind of free partial defence `target` rolls against an attack (`close` combat or not)
/// under `free_partial_defense` (OD6-DEF-10): before his first turn, with no active value in
/// force, the higher of dodge and (against close combat) block or parry. The fight and the odds
/// both follow this.
pub fn free_defence(setup: &Setup, state: &State, target: CombatantId, close: bool) -> Option<DefKind> {
    let t = state.fighter(target);
    (setup.options.free_partial_defense && !t.turn_done && t.dodge.is_none() && t.block.is_none() && t.able())
        .then(|| super::policy::best_defence(setup, state, target, close))
}

/// The skill an active defence rolls (OD6-DEF-4/5).
pub fn defence_skill(kind: DefKind) -> SkillId {
    match kind {
        DefKind::Dodge => SkillId::DODGE,
        DefKind::Block(None) => SkillId::BRAWLING,
        DefKind::Block(Some(_)) => SkillId::MELEE,
    }
}

/// Whether a hit of `plan` deals damage: not a grab, knockdown or push (they hold or fell
/// instead, OD6-SPECIAL-9/10; a tackle does both), nor a disarm (OD6-SPECIAL-11). The fight's
/// resolution and the odds both follow this.
pub fn injures(plan: &AttackPlan) -> bool {
    let modes = [plan.mode, plan.mode2];
    let effect = [Mode::Knockdown, Mode::Push, Mode::Grab, Mode::Tackle].into_iter().find(|m| modes.contains(m));
    !matches!(effect, Some(Mode::Knockdown | Mode::Push | Mode::Grab))
        && !matches!(plan.called, Called::Small { disarm: true, .. })
}

/// Rounds a plan uses: the larger need of its two modes.
pub fn plan_ammo(weapon: &Weapon, plan: &AttackPlan) -> u32 {
    ammo_needed(weapon, plan.mode).max(ammo_needed(weapon, plan.mode2))
}

/// Whether a mode fits the weapon (OD6-SPECIAL-1..10), and the strength rule of knockdown.
pub fn mode_fits(attacker: &Sheet, target: &Sheet, weapon: &Weapon, mode: Mode, only: bool) -> bool {
    let close = weapon.close();
    match mode {
        Mode::Normal => true,
        Mode::BurstSingle => weapon.burst,
        Mode::FullAuto => weapon.full_auto,
        Mode::Multi(e) => e >= 1 && e <= weapon.multi_fire_max,
        Mode::SweepRanged => !close && (weapon.full_auto || weapon.burst || weapon.multi_fire_max >= 1),
        Mode::AllOut => close && only,
        Mode::Lunge => weapon.skill == SkillId::MELEE,
        Mode::SweepClose => close,
        Mode::Knockdown | Mode::Push => {
            (weapon.skill == SkillId::BRAWLING || (weapon.skill == SkillId::MELEE && weapon.blunt))
                && (attacker.takedown_training || target.strength().pips_value() <= attacker.strength().pips_value())
        }
        Mode::Grab | Mode::Tackle => weapon.skill == SkillId::BRAWLING,
    }
}

/// Why an attack is not allowed (OD6-ATK-2 step 1, OD6-SPECIAL-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// No such weapon.
    NoWeapon,
    /// No such target, or oneself.
    NoTarget,
    /// The weapon is not drawn.
    NotDrawn,
    /// Out of reach or range.
    OutOfReach,
    /// The target is completely hidden.
    Hidden,
    /// The weapon's uses this round are spent.
    Used,
    /// Not enough ammunition.
    Ammo,
    /// A quick draw binds this round's attacks to one skill.
    QuickDraw,
    /// The mode does not fit the weapon (or the strength rule, or N).
    Mode(Mode),
    /// Two manoeuvres under `one_each`.
    Stacking,
}

/// Whether a planned attack is allowed now; the reason when it is not. No allocation: the AI
/// and the request builder call it for every candidate.
pub fn check_attack(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    plan: &AttackPlan,
    only: bool,
) -> Result<(), Illegal> {
    let sheet = &setup.combatants[who.index()];
    let weapon = sheet.weapons.get(plan.weapon as usize).ok_or(Illegal::NoWeapon)?;
    let target_sheet = setup.combatants.get(plan.target.index()).ok_or(Illegal::NoTarget)?;
    if plan.target == who {
        return Err(Illegal::NoTarget);
    }
    let me = state.fighter(who);
    let ws = &me.weapons[plan.weapon as usize];
    if !ws.drawn {
        return Err(Illegal::NotDrawn);
    }
    if band(setup, state, who, plan.target, weapon).is_none() {
        return Err(Illegal::OutOfReach);
    }
    if setup.cover(who.index(), plan.target.index()).object >= 100 {
        return Err(Illegal::Hidden);
    }
    if !weapon.quick && ws.uses >= weapon.rate.max(1) {
        return Err(Illegal::Used);
    }
    if setup.options.ammo_tracking
        && let Some(ammo) = ws.ammo
        && ammo < plan_ammo(weapon, plan)
    {
        return Err(Illegal::Ammo);
    }
    if me.quick_draw.is_some_and(|(skill, _)| skill != weapon.skill) {
        return Err(Illegal::QuickDraw);
    }
    // A normal attack fits every weapon (`mode_fits`): most plans need no more.
    if plan.mode == Mode::Normal && plan.mode2 == Mode::Normal {
        return Ok(());
    }
    for mode in [plan.mode, plan.mode2] {
        if !mode_fits(sheet, target_sheet, weapon, mode, only) {
            return Err(Illegal::Mode(mode));
        }
    }
    if plan.mode2 != Mode::Normal && !setup.options.stacking_free {
        return Err(Illegal::Stacking);
    }
    Ok(())
}

/// Why a planned attack is not allowed now, in words, if it is not.
pub fn illegal(setup: &Setup, state: &State, who: CombatantId, plan: &AttackPlan, only: bool) -> Option<String> {
    let why = check_attack(setup, state, who, plan, only).err()?;
    let sheet = &setup.combatants[who.index()];
    let weapon = sheet.weapons.get(plan.weapon as usize).map_or("?", |w| w.name.as_str());
    let target = setup.combatants.get(plan.target.index()).map_or("?", |c| c.name.as_str());
    Some(match why {
        Illegal::NoWeapon => format!("no weapon number {}", plan.weapon),
        Illegal::NoTarget => "no such target (or oneself)".to_owned(),
        Illegal::NotDrawn => format!("{weapon} is not drawn (ready it first)"),
        Illegal::OutOfReach => format!("{target} is out of reach or range of {weapon}"),
        Illegal::Hidden => format!("{target} is completely hidden"),
        Illegal::Used => format!("{weapon} was already used this round (OD6-ACT-8)"),
        Illegal::Ammo => format!("{weapon} has too few rounds left"),
        Illegal::QuickDraw => "after a quick draw every attack this round uses the drawn weapon's skill".to_owned(),
        Illegal::Mode(mode) => format!("{mode:?} does not fit {weapon} here"),
        Illegal::Stacking => "one fire mode or manoeuvre per attack (maneuver_stacking = one_each)".to_owned(),
    })
}

/// Targets and weapons `who` may attack with now.
pub fn attack_options(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    only: bool,
) -> super::List<(CombatantId, u8, i32), 8> {
    let mut out = super::List::new();
    let sheet = &setup.combatants[who.index()];
    for t in 0..setup.combatants.len() {
        let target = CombatantId(t as u16);
        if target == who {
            continue;
        }
        for w in 0..sheet.weapons.len() {
            let plan = AttackPlan::new(target, w as u8);
            if check_attack(setup, state, who, &plan, only).is_ok() {
                out.push((target, w as u8, state.distance(who, target)));
            }
        }
    }
    out
}

/// The active value that is the base of an attack's difficulty, if any (OD6-DIFF-1, OD6-DEF-5).
pub fn active_base(options: &Options, defender: &Fighter, close: bool) -> Option<(i32, DefKind)> {
    let dodge = defender.dodge.map(|a| (a.value, DefKind::Dodge));
    let block =
        defender.block.filter(|_| close || options.block_vs_ranged).map(|a| (a.value, DefKind::Block(a.weapon)));
    match (dodge, block) {
        (Some(d), Some(b)) => Some(if b.0 > d.0 { b } else { d }),
        (d, b) => d.or(b),
    }
}

/// The passive defence (OD6-DIFF-1, OD6-DIFF-7).
pub fn passive(options: &Options, sheet: &Sheet) -> i32 {
    if !options.passive_defense_bonus {
        return 10;
    }
    let best = sheet.agility().dice.max(sheet.skill(SkillId::DODGE).dice);
    10 + ((best - 4).max(0) + 1) / 2
}

/// The modifiers of an attack apart from its base: fixed numbers, and dice modifiers (fixed
/// values or rolled under `difficulty_modifiers = rolled`, OD6-DIFF-3), one slot per source in
/// the order of [`DifficultyTerms::NAMES`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Numbers, never rolled: range, weapon, the difficulty penalty of a negative resistance.
    pub fixed: [i32; 3],
    /// Dice modifiers (smoke, light, cover, posture, blindness of each side, gravity, the two
    /// modes, the called shot), 0 where none, each at the fixed value of its whole code
    /// (OD6-DIFF-3: 3D is 10).
    pub dice: [i32; 10],
    /// Dice modifiers counted 3 per die whatever their number: multi-fire's −1D per extra
    /// shot (OD6-SPECIAL-4: −3e, so three extra shots are −9, not the −10 of a 3D code).
    pub per_die: i32,
}

impl Modifiers {
    /// The fixed numbers' sum.
    pub fn fixed_sum(&self) -> i32 {
        self.fixed.iter().sum()
    }

    /// Each term at its fixed value, in the order of [`DifficultyTerms::NAMES`] (the floor last,
    /// 0).
    #[inline]
    pub fn fixed_terms(&self) -> [i32; DifficultyTerms::LEN] {
        let mut out = [0; DifficultyTerms::LEN];
        out[..3].copy_from_slice(&self.fixed);
        for (o, &d) in out[3..13].iter_mut().zip(&self.dice) {
            // Most slots are empty: skip the code's table for them.
            if d != 0 {
                *o = dice_value(d);
            }
        }
        out[13] = 3 * self.per_die;
        out
    }

    /// The total with every dice modifier at its fixed value.
    pub fn fixed_total(&self) -> i32 {
        self.fixed_terms().iter().sum()
    }

    /// Every dice modifier as a signed number of d6 to roll under `difficulty_modifiers =
    /// rolled` (OD6-DIFF-3).
    pub fn rolled_dice(&self) -> impl Iterator<Item = i32> + '_ {
        self.dice.iter().copied().chain(std::iter::once(self.per_die)).filter(|&d| d != 0)
    }
}

/// The terms of an attack's difficulty beyond its base, one small integer per term in the order
/// of [`DifficultyTerms::NAMES`]: the fixed numbers, each dice modifier at its value (fixed, or
/// as rolled), and the floor of 3 (OD6-DIFF-1..6). The difficulty is the base plus their sum.
/// Carried by the attack event so that the log can itemise the difficulty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DifficultyTerms(pub [i8; DifficultyTerms::LEN]);

crate::events::terms_json!(DifficultyTerms, |terms| terms.named());

impl DifficultyTerms {
    /// How many terms.
    pub const LEN: usize = 15;
    /// The name of each term as the log shows it.
    pub const NAMES: [&'static str; DifficultyTerms::LEN] = [
        "range",
        "weapon",
        "negative resistance",
        "smoke",
        "light",
        "cover",
        "posture",
        "blind",
        "target blind",
        "gravity",
        "mode",
        "second mode",
        "called shot",
        "multi-fire",
        "floor",
    ];

    /// The terms (each kept in a byte) over `base`, with the floor of 3 (OD6-DIFF-1) as the last,
    /// and the difficulty: the base plus their sum.
    pub fn new(base: i32, terms: [i32; DifficultyTerms::LEN]) -> (DifficultyTerms, i32) {
        let mut out = [0; DifficultyTerms::LEN];
        let mut sum = 0;
        for (o, &t) in out[..Self::LEN - 1].iter_mut().zip(&terms) {
            let t = byte(t);
            *o = t as i8;
            sum += t;
        }
        DifficultyTerms::floored(out, base, sum)
    }

    /// [`DifficultyTerms::new`] with every dice modifier of `m` at its fixed value (OD6-DIFF-3).
    #[inline]
    pub fn fixed(base: i32, m: &Modifiers) -> (DifficultyTerms, i32) {
        let mut out = [0; DifficultyTerms::LEN];
        let mut sum = 0;
        for (o, &t) in out[..3].iter_mut().zip(&m.fixed) {
            let t = byte(t);
            *o = t as i8;
            sum += t;
        }
        // Most slots are empty: skip the code's table for them. A dice modifier's value (at
        // most 8D) fits a byte.
        for (o, &d) in out[3..13].iter_mut().zip(&m.dice) {
            if d != 0 {
                let t = dice_value(d);
                *o = t as i8;
                sum += t;
            }
        }
        if m.per_die != 0 {
            let t = byte(3 * m.per_die);
            out[13] = t as i8;
            sum += t;
        }
        DifficultyTerms::floored(out, base, sum)
    }

    /// The terms with the floor of 3 added to `out`, whose terms sum to `sum`, and the difficulty.
    #[inline]
    fn floored(mut out: [i8; DifficultyTerms::LEN], base: i32, sum: i32) -> (DifficultyTerms, i32) {
        let floor = byte(3 - (base + sum).min(3));
        out[Self::LEN - 1] = floor as i8;
        (DifficultyTerms(out), base + sum + floor)
    }

    /// Each term with its name, zeros included.
    pub fn named(&self) -> impl Iterator<Item = (&'static str, i32)> + '_ {
        Self::NAMES.iter().copied().zip(self.0.iter().map(|&t| i32::from(t)))
    }

    /// Their sum: the difficulty less its base.
    pub fn sum(&self) -> i32 {
        self.0.iter().map(|&t| i32::from(t)).sum()
    }
}

/// `t` within a byte's range.
#[inline]
fn byte(t: i32) -> i32 {
    t.clamp(i32::from(i8::MIN), i32::from(i8::MAX))
}

/// The modifiers of `plan` by `who` (OD6-DIFF-2..6, OD6-MOVE-3/4, OD6-SPECIAL-*).
pub fn modifiers(setup: &Setup, state: &State, who: CombatantId, plan: &AttackPlan, band: u8) -> Modifiers {
    let options = &setup.options;
    let sheet = &setup.combatants[who.index()];
    let weapon = &sheet.weapons[plan.weapon as usize];
    let target_sheet = &setup.combatants[plan.target.index()];
    let target = state.fighter(plan.target);
    let mut m = Modifiers::default();
    if options.melee_range_modifier || !weapon.close() {
        m.fixed[0] = band_modifier(band);
    }
    m.fixed[1] = weapon.difficulty_mod;
    m.fixed[2] = state.fighter(who).difficulty_penalty;
    let cover = setup.cover(who.index(), plan.target.index());
    for (i, step) in [cover.smoke, cover.light].into_iter().enumerate() {
        if step > 0 {
            m.dice[i] = [0, 1, 2, 4][step.min(3) as usize];
        }
    }
    m.dice[2] = match cover.object {
        25 => 1,
        50 => 2,
        75 => 4,
        _ => 0,
    };
    m.dice[3] = match target.posture {
        Posture::Standing => 0,
        // Crouching while moving: +2D (OD6-DIFF-5).
        Posture::Crouching => {
            if target.moved_round == state.round && state.round > 0 {
                2
            } else {
                1
            }
        }
        Posture::Prone => {
            if band <= 1 {
                -2
            } else {
                2
            }
        }
    };
    if sheet.blind {
        m.dice[4] = 4;
    }
    if target_sheet.blind {
        m.dice[5] = -4;
    }
    m.dice[6] = match setup.gravity {
        Gravity::Normal => 0,
        Gravity::Low => -1,
        Gravity::Zero => -2,
        Gravity::Heavy => 3,
    };
    for (i, mode) in [plan.mode, plan.mode2].into_iter().enumerate() {
        let (d, _) = mode_dice(mode);
        if matches!(mode, Mode::Multi(_)) {
            m.per_die += d;
        } else {
            m.dice[7 + i] = d;
        }
    }
    m.dice[9] = called_mods(plan.called, options).0;
    m
}

/// The code an action roll of `skill` uses (OD6-ATK-1, OD6-ACT-2, OD6-TRACK-4, OD6-RES-3): the
/// skill (doubled by a Fate Point), plus `bonus` dice, minus the multi-action and wound
/// penalties and the pending knockdown penalty on Agility rolls.
pub fn action_code(setup: &Setup, state: &State, who: CombatantId, skill: SkillId, fate: bool, bonus: i32) -> DieCode {
    action_code_from(setup, state, who, skill, None, fate, bonus)
}

/// [`action_code`] from a given base code (e.g. Strength for an untrained lifting roll) instead
/// of the skill's own.
pub fn action_code_from(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    skill: SkillId,
    base: Option<DieCode>,
    fate: bool,
    bonus: i32,
) -> DieCode {
    let sheet = &setup.combatants[who.index()];
    let me = state.fighter(who);
    let mut code = base.unwrap_or_else(|| sheet.skill(skill));
    if fate || me.climactic_round == state.round && me.climactic_round > 0 {
        code = doubled(code);
    }
    // A quick draw moved dice from this skill to initiative (OD6-INIT-10).
    let moved = me.quick_draw.filter(|q| q.0 == skill).map_or(0, |q| i32::from(q.1));
    code.add_dice(bonus - moved - multi_penalty(sheet, me) - action_penalty(setup, state, who, skill))
}

/// The multi-action penalty in dice (OD6-ACT-2).
pub fn multi_penalty(sheet: &Sheet, me: &Fighter) -> i32 {
    (i32::from(me.declared) - sheet.allotment).max(0)
}

/// Wound, stun and knockdown penalties in dice on an action roll (OD6-TRACK-4, OD6-SPECIAL-9).
pub fn action_penalty(setup: &Setup, state: &State, who: CombatantId, skill: SkillId) -> i32 {
    let me = state.fighter(who);
    let knock = if me.knock_pending && setup.combatants[who.index()].agility_based(skill) { 2 } else { 0 };
    let surprise = if me.surprise_bonus { -1 } else { 0 };
    level_penalty(&setup.options, me, state.round) + knock + surprise
}

/// The lasting hit-location penalty on a skill's total (OD6-SPECIAL-12).
pub fn location_penalty(me: &Fighter, skill: SkillId) -> i32 {
    let arm = me.locations & ((1 << Loc::Arm as u8) | (1 << Loc::Hand as u8)) != 0;
    let combat = matches!(
        skill,
        SkillId::BRAWLING
            | SkillId::MELEE
            | SkillId::FIREARMS
            | SkillId::MISSILE
            | SkillId::THROWING
            | SkillId::LIFTING
    );
    i32::from(arm && combat)
}

/// The damage code of a hit (OD6-DMG-1/2/5, OD6-RES-3): the weapon's code, Strength Damage for a
/// "+" weapon (doubled by a Fate Point), the mode's and the called shot's dice.
pub fn damage_code(setup: &Setup, who: CombatantId, plan: &AttackPlan, fate: bool) -> DieCode {
    let options = &setup.options;
    let sheet = &setup.combatants[who.index()];
    let weapon = &sheet.weapons[plan.weapon as usize];
    let mut code = weapon.damage;
    if weapon.strength_plus {
        let sd = strength_damage(sheet, options);
        code = code.add_dice(if fate { 2 * sd } else { sd });
    }
    let (_, m1) = mode_dice(plan.mode);
    let (_, m2) = mode_dice(plan.mode2);
    let (_, _, called) = called_mods(plan.called, options);
    code = code.add_dice(m1 + m2 + called);
    if options.zero_damage_min_1d && code.dice < 1 {
        code.dice = 1;
    }
    code
}

/// The resistance code against a damage type (OD6-DMG-6, OD6-ARM-1/2, OD6-TRACK-10).
pub fn resistance_code(setup: &Setup, who: CombatantId, damage_type: DamageType, fate: bool) -> DieCode {
    let options = &setup.options;
    let sheet = &setup.combatants[who.index()];
    let armor = if options.armor_single || damage_type == DamageType::Physical {
        sheet.armor.physical
    } else {
        sheet.armor.energy
    };
    let strength = if options.body_points && !fate {
        DieCode::default()
    } else if fate && !options.body_points {
        doubled(sheet.strength())
    } else {
        sheet.strength()
    };
    strength.plus(armor).plus(sheet.resistance_mod)
}

/// Whether the defender's armour protects against a weapon's type (OD6-DEF-7).
pub fn armored_against(setup: &Setup, who: CombatantId, damage_type: DamageType) -> bool {
    let sheet = &setup.combatants[who.index()];
    let armor = if setup.options.armor_single || damage_type == DamageType::Physical {
        sheet.armor.physical
    } else {
        sheet.armor.energy
    };
    armor.pips_value() > 0
}
