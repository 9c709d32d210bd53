//! Reading a `phasesix` scenario file into a validated [`Setup`].

use super::options::Options;
use super::setup::{Armour, Class, Derived, Mode, POLICIES, Policy, Setup, Sheet, Shield, Throwable, Weapon};
use crate::scenario::ScenarioError;
use fray_engine::{Pos, SideId};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use toml::Spanned;

type File = crate::scenario::File<Rules, CombatantToml>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rules {
    #[allow(dead_code, reason = "read by the dispatcher; kept here so the key is known")]
    ruleset: String,
    #[serde(default)]
    options: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatantToml {
    name: Spanned<String>,
    side: String,
    quickness: Option<i32>,
    deftness: Option<i32>,
    strength: Option<i32>,
    endurance: Option<i32>,
    resistance: Option<i32>,
    willpower: Option<i32>,
    apprehension: Option<i32>,
    attractiveness: Option<i32>,
    education: Option<i32>,
    logic: Option<i32>,
    conscientiousness: Option<i32>,
    charm: Option<i32>,
    #[serde(default)]
    hand_to_hand: i32,
    #[serde(default)]
    shooting: i32,
    #[serde(default)]
    throwing: i32,
    #[serde(default)]
    perception: i32,
    #[serde(default)]
    first_aid: i32,
    #[serde(default)]
    medicine: i32,
    min_roll: Option<Spanned<i32>>,
    actions: Option<Spanned<i32>>,
    #[serde(default)]
    lineage_evasion: i32,
    #[serde(default)]
    evasion_mod: i32,
    #[serde(default)]
    innate_protection: i32,
    max_wounds: Option<Spanned<i32>>,
    #[serde(default)]
    wounds: i32,
    #[serde(default)]
    boosts: i32,
    #[serde(default)]
    bonus_dice: i32,
    #[serde(default)]
    destiny_dice: i32,
    #[serde(default)]
    rerolls: i32,
    #[serde(default)]
    dying: i32,
    #[serde(default)]
    unconscious: i32,
    #[serde(default)]
    shocked: i32,
    #[serde(default)]
    burning: i32,
    #[serde(default)]
    bleeding: i32,
    #[serde(default)]
    poisoned: i32,
    #[serde(default)]
    hunkered: bool,
    #[serde(default)]
    sleeping: bool,
    #[serde(default)]
    dead: bool,
    #[serde(default)]
    two_weapon_skilled: bool,
    cover: Option<Spanned<i32>>,
    position: Option<crate::scenario::PositionToml>,
    #[serde(default)]
    weapons: Vec<Spanned<WeaponToml>>,
    main_hand: Option<Spanned<String>>,
    off_hand: Option<Spanned<String>>,
    #[serde(default)]
    armour: Vec<ArmourToml>,
    shield: Option<ShieldToml>,
    #[serde(default)]
    items: Vec<ItemToml>,
    #[serde(default)]
    perceives: Vec<Spanned<String>>,
    #[serde(default)]
    policy: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WeaponToml {
    name: String,
    class: Spanned<String>,
    modes: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    damage_potential: i32,
    #[serde(default)]
    piercing: i32,
    wounds_per_hit: Option<i32>,
    range_m: Option<f64>,
    hands: Option<u8>,
    weapon_type: Option<String>,
    #[serde(default)]
    blunt: bool,
    recoil: Option<bool>,
    #[serde(default)]
    recoil_compensation: i32,
    capacity: Option<i32>,
    ammo: Option<i32>,
    reload_actions: Option<u8>,
    ready_actions: Option<u8>,
    #[serde(default)]
    encumbrance: i32,
    #[serde(default)]
    supportable: bool,
    #[serde(default)]
    conditions: BTreeMap<String, i32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmourToml {
    name: String,
    #[serde(default)]
    protection: i32,
    #[serde(default)]
    encumbrance: i32,
    condition_pct: Option<i32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShieldToml {
    name: String,
    #[serde(default)]
    protection: i32,
    #[serde(default)]
    encumbrance: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ItemToml {
    name: String,
    #[serde(default)]
    hits: i32,
    wounds_per_hit: Option<i32>,
    #[serde(default)]
    piercing: i32,
    #[serde(default)]
    conditions: BTreeMap<String, i32>,
    count: Option<u8>,
}

const CONDITION_NAMES: [&str; 4] = ["bleeding", "poisoned", "shocked", "burning"];

fn conditions(map: &BTreeMap<String, i32>) -> Result<[i32; 4], String> {
    let mut out = [0; 4];
    for (k, v) in map {
        let i = CONDITION_NAMES
            .iter()
            .position(|c| c == k)
            .ok_or_else(|| format!("unknown condition `{k}`, expected one of {}", CONDITION_NAMES.join(", ")))?;
        if !(0..=20).contains(v) {
            return Err(format!("expected a condition value from 0 to 20, found {v}"));
        }
        out[i] = *v;
    }
    Ok(out)
}

/// Reads a `phasesix` scenario. `sets` are `--set name=value` overrides, applied after the file.
pub fn load(file: &str, text: &str, sets: &[(String, String)]) -> Result<Setup, ScenarioError> {
    let parsed: File = toml::from_str(text).map_err(|e| ScenarioError::from_toml(file, text, &e))?;
    let err = |span: std::ops::Range<usize>, message: String| ScenarioError::at(file, text, span, message);
    let word = |w: &Spanned<String>, choices: &[&str], what: &str| crate::scenario::word(file, text, w, choices, what);
    let mut options = Options::default();
    crate::scenario::apply_options(file, text, &parsed.rules.options, sets, |n, v| options.set(n, v))?;
    let names: Vec<String> = parsed.combatants.iter().map(|c| c.get_ref().name.get_ref().clone()).collect();
    let mut sides: Vec<String> = Vec::new();
    let mut combatants = Vec::new();
    for (ci, spanned) in parsed.combatants.iter().enumerate() {
        let c = spanned.get_ref();
        let span = spanned.span();
        if names[..ci].contains(c.name.get_ref()) {
            return Err(err(c.name.span(), format!("a second combatant named `{}`", c.name.get_ref())));
        }
        let side = crate::scenario::enlist(file, text, &mut sides, c.name.get_ref(), &c.side, spanned.span())?;
        // A stat from −20 to 40; an error points at its key inside the table spanning `within`.
        let small = |v: i32, key: &str, what: &str, within: &Range<usize>| -> Result<i32, ScenarioError> {
            if (-20..=40).contains(&v) {
                Ok(v)
            } else {
                let at = crate::scenario::key_span(text, within.clone(), key);
                Err(err(at, format!("expected {what} from −20 to 40, found {v}")))
            }
        };
        // A value in `lo..=hi` (the stat block's range, P6 "Stat block"); an error points at its
        // key inside the table spanning `within`.
        let ranged = |v: i32, lo: i32, hi: i32, key: &str, what: &str, within: &Range<usize>| {
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                let at = crate::scenario::key_span(text, within.clone(), key);
                Err(err(at, format!("expected {what} from {lo} to {hi}, found {v}")))
            }
        };
        let mut weapons = Vec::new();
        for w in &c.weapons {
            let wt = w.get_ref();
            let class = [Class::Melee, Class::Ranged, Class::Thrown]
                [word(&wt.class, &["melee", "ranged", "thrown"], "weapon class")?];
            let mut modes = 0u8;
            match &wt.modes {
                Some(list) => {
                    for m in list {
                        let mode = [Mode::Melee, Mode::Single, Mode::Burst, Mode::Thrown]
                            [word(m, &["melee", "single", "burst", "thrown"], "attack mode")?];
                        // Melee weapons have only the melee mode (P6-MODE-1).
                        if class == Class::Melee && mode != Mode::Melee {
                            return Err(err(
                                m.span(),
                                format!("melee weapon `{}` has only the melee mode, found `{}`", wt.name, m.get_ref()),
                            ));
                        }
                        modes |= mode.bit();
                    }
                }
                None => {
                    modes = match class {
                        Class::Melee => Mode::Melee.bit(),
                        Class::Ranged => Mode::Single.bit(),
                        Class::Thrown => Mode::Thrown.bit(),
                    }
                }
            }
            if class == Class::Ranged && wt.recoil.is_none() {
                return Err(err(w.span(), format!("ranged weapon `{}` must say `recoil = true` or `false`", wt.name)));
            }
            // Only a melee weapon's range defaults (to 1 m); a gun or a throwing weapon says how far
            // it reaches (stat block: `range_m`).
            if class != Class::Melee && wt.range_m.is_none() {
                return Err(err(w.span(), format!("ranged or thrown weapon `{}` must give its `range_m`", wt.name)));
            }
            let range_m = wt.range_m.unwrap_or(1.0);
            if !(range_m.is_finite() && range_m > 0.0 && range_m <= 10_000.0) {
                return Err(err(w.span(), format!("expected a range from 0 to 10000 m, found {range_m}")));
            }
            let conds = conditions(&wt.conditions).map_err(|m| err(w.span(), m))?;
            weapons.push(Weapon {
                name: wt.name.clone(),
                class,
                modes,
                dp: ranged(wt.damage_potential, 0, 40, "damage_potential", "a damage potential", &w.span())?,
                piercing: ranged(wt.piercing, 0, 40, "piercing", "a piercing", &w.span())?,
                wounds_per_hit: ranged(
                    wt.wounds_per_hit.unwrap_or(1),
                    1,
                    40,
                    "wounds_per_hit",
                    "wounds per hit",
                    &w.span(),
                )?,
                range_m,
                hands: ranged(i32::from(wt.hands.unwrap_or(1)), 1, 2, "hands", "hands", &w.span())? as u8,
                weapon_type: wt.weapon_type.clone().unwrap_or_else(|| wt.name.clone()),
                blunt: wt.blunt,
                recoil: wt.recoil.unwrap_or(false),
                recoil_compensation: ranged(
                    wt.recoil_compensation,
                    0,
                    2,
                    "recoil_compensation",
                    "a recoil compensation",
                    &w.span(),
                )?,
                capacity: wt.capacity.map(|c| ranged(c, 0, 1000, "capacity", "a capacity", &w.span())).transpose()?,
                ammo: wt.ammo.map(|a| ranged(a, 0, 1000, "ammo", "an ammunition count", &w.span())).transpose()?,
                reload_actions: wt.reload_actions.unwrap_or(1).min(10),
                ready_actions: wt.ready_actions.unwrap_or(1).min(10),
                encumbrance: ranged(wt.encumbrance, 0, 40, "encumbrance", "an encumbrance", &w.span())?,
                supportable: wt.supportable,
                conditions: conds,
            });
        }
        if weapons.len() > 4 {
            return Err(err(span.clone(), "at most four weapons".into()));
        }
        let hand = |h: &Option<Spanned<String>>| -> Result<Option<usize>, ScenarioError> {
            match h {
                None => Ok(None),
                Some(name) => {
                    let list: Vec<&str> = weapons.iter().map(|w| w.name.as_str()).collect();
                    word(name, &list, "weapon").map(Some)
                }
            }
        };
        let main_hand = match (&c.main_hand, weapons.is_empty()) {
            (None, false) => Some(0),
            _ => hand(&c.main_hand)?,
        };
        let off_hand = hand(&c.off_hand)?;
        // One weapon cannot be in both hands.
        if let (Some(m), Some(o), Some(name)) = (main_hand, off_hand, &c.off_hand)
            && m == o
        {
            return Err(err(name.span(), format!("`{}` is already the main-hand weapon", name.get_ref())));
        }
        let mut items = Vec::new();
        for it in &c.items {
            items.push(Throwable {
                name: it.name.clone(),
                hits: small(it.hits, "hits", "hits", &span)?,
                wounds_per_hit: ranged(
                    it.wounds_per_hit.unwrap_or(1),
                    1,
                    40,
                    "wounds_per_hit",
                    "wounds per hit",
                    &span,
                )?,
                piercing: small(it.piercing, "piercing", "piercing", &span)?,
                conditions: conditions(&it.conditions).map_err(|m| err(span.clone(), m))?,
                count: it.count.unwrap_or(1),
            });
        }
        let cover = match &c.cover {
            Some(v) if ![4, 5, 6].contains(v.get_ref()) => {
                return Err(err(
                    v.span(),
                    format!("expected a cover of 4, 5 or 6 (4+, 5+, 6+), found {}", v.get_ref()),
                ));
            }
            Some(v) => Some(*v.get_ref()),
            None => None,
        };
        let max_wounds = match &c.max_wounds {
            Some(m) if !(1..=100).contains(m.get_ref()) => {
                return Err(err(m.span(), format!("expected hearts from 1 to 100, found {}", m.get_ref())));
            }
            Some(m) => *m.get_ref(),
            None => options.base_max_wounds,
        };
        let min_roll = match &c.min_roll {
            Some(m) if !(2..=30).contains(m.get_ref()) => {
                return Err(err(m.span(), format!("expected a minimum roll from 2 to 30, found {}", m.get_ref())));
            }
            Some(m) => *m.get_ref(),
            None => 5,
        };
        let actions = match &c.actions {
            Some(a) if !(0..=10).contains(a.get_ref()) => {
                return Err(err(a.span(), format!("expected actions from 0 to 10, found {}", a.get_ref())));
            }
            Some(a) => *a.get_ref(),
            None => 2,
        };
        let mut perceives = Vec::new();
        for p in &c.perceives {
            let list: Vec<&str> = names.iter().map(|n| n.as_str()).collect();
            perceives.push(word(p, &list, "combatant")?);
        }
        let mut policy = Policy::default();
        for (field, v) in crate::scenario::policy_choices(file, text, &c.policy, POLICIES)? {
            policy.0[field] = v;
        }
        let position = c.position.map_or(Pos::default(), |p| p.0);
        let _ = (c.apprehension, c.attractiveness, c.education, c.logic, c.conscientiousness, c.charm);
        // Armour and shield values in range, refused where the list stands (not clamped).
        let gear_range = |key: &str, name: &str, what: &str, v: i32, hi: i32| {
            if (0..=hi).contains(&v) {
                Ok(v)
            } else {
                let at = crate::scenario::key_span(text, span.clone(), key);
                Err(err(at, format!("{key} `{name}`: expected {what} from 0 to {hi}, found {v}")))
            }
        };
        for a in &c.armour {
            gear_range("armour", &a.name, "a protection", a.protection, 40)?;
            gear_range("armour", &a.name, "an encumbrance", a.encumbrance, 40)?;
            gear_range("armour", &a.name, "a condition", a.condition_pct.unwrap_or(100), 100)?;
        }
        if let Some(s) = &c.shield {
            gear_range("shield", &s.name, "a protection", s.protection, 10)?;
            gear_range("shield", &s.name, "an encumbrance", s.encumbrance, 40)?;
        }
        let strength = small(c.strength.unwrap_or(1), "strength", "Strength", &span)?;
        let mut sheet = Sheet {
            fists: Weapon { piercing: i32::from(strength > 2), ..Weapon::unarmed() },
            name: c.name.get_ref().clone(),
            side: SideId(side as u16),
            quickness: small(c.quickness.unwrap_or(1), "quickness", "Quickness", &span)?,
            deftness: small(c.deftness.unwrap_or(1), "deftness", "Deftness", &span)?,
            strength: small(c.strength.unwrap_or(1), "strength", "Strength", &span)?,
            endurance: small(c.endurance.unwrap_or(1), "endurance", "Endurance", &span)?,
            resistance: small(c.resistance.unwrap_or(1), "resistance", "Resistance", &span)?,
            willpower: small(c.willpower.unwrap_or(1), "willpower", "Willpower", &span)?,
            hand_to_hand: small(c.hand_to_hand, "hand_to_hand", "Hand-to-hand combat", &span)?,
            shooting: small(c.shooting, "shooting", "Shooting", &span)?,
            throwing: small(c.throwing, "throwing", "Throwing", &span)?,
            perception: small(c.perception, "perception", "Perception", &span)?,
            first_aid: small(c.first_aid, "first_aid", "First aid", &span)?,
            medicine: small(c.medicine, "medicine", "Medicine", &span)?,
            min_roll,
            actions,
            lineage_evasion: small(c.lineage_evasion, "lineage_evasion", "lineage evasion", &span)?,
            evasion_mod: small(c.evasion_mod, "evasion_mod", "evasion modifier", &span)?,
            innate_protection: small(c.innate_protection, "innate_protection", "innate protection", &span)?.max(0),
            max_wounds,
            wounds: ranged(c.wounds, 0, max_wounds, "wounds", "wounds", &span)?,
            boosts: ranged(c.boosts, 0, 100, "boosts", "boosts", &span)?,
            bonus_dice: ranged(c.bonus_dice, 0, 100, "bonus_dice", "bonus dice", &span)?,
            destiny_dice: ranged(c.destiny_dice, 0, 100, "destiny_dice", "destiny dice", &span)?,
            rerolls: ranged(c.rerolls, 0, 100, "rerolls", "rerolls", &span)?,
            // Dying 6 is death (P6-TRACK-5): a dead character is `dead = true`.
            conditions: [
                ranged(c.dying, 0, 5, "dying", "Dying", &span)?,
                ranged(c.unconscious, 0, 20, "unconscious", "an Unconscious value", &span)?,
                ranged(c.shocked, 0, 20, "shocked", "a Shocked value", &span)?,
                ranged(c.burning, 0, 20, "burning", "a Burning value", &span)?,
                ranged(c.bleeding, 0, 20, "bleeding", "a Bleeding value", &span)?,
                ranged(c.poisoned, 0, 20, "poisoned", "a Poisoned value", &span)?,
            ],
            hunkered: c.hunkered,
            sleeping: c.sleeping,
            dead: c.dead,
            two_weapon_skilled: c.two_weapon_skilled,
            cover,
            position,
            weapons,
            main_hand,
            off_hand,
            armour: c
                .armour
                .iter()
                .map(|a| Armour {
                    name: a.name.clone(),
                    protection: a.protection,
                    encumbrance: a.encumbrance,
                    condition_pct: a.condition_pct.unwrap_or(100),
                })
                .collect(),
            shield: c.shield.as_ref().map(|s| Shield {
                name: s.name.clone(),
                protection: s.protection,
                encumbrance: s.encumbrance,
            }),
            items,
            perceives,
            policy,
            derived: Derived::default(),
        };
        sheet.derived = Derived::of(&sheet);
        combatants.push(sheet);
    }
    if combatants.is_empty() {
        return Err(ScenarioError::whole(file, "expected at least one combatant"));
    }
    if combatants.iter().any(|c| c.armour.len() > 4 || c.items.len() > 4) {
        return Err(ScenarioError::whole(file, "at most four armour pieces and four kinds of throwable per combatant"));
    }
    crate::scenario::two_sides(file, text, &sides)?;
    Ok(Setup { options, sides, combatants, joins_late: 0 })
}
