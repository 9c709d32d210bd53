//! Reading a `ticks` scenario file into a validated [`Setup`].

use super::options::Options;
use super::setup::{
    AMMO, ATTACK_TYPES, Armour, AttackType, COVER_PRESETS, Cover, Gun, MATERIALS, MeleeWeapon, POLICIES, Policy, Setup,
    Sheet, Square, armour_table, gun_table, melee_table,
};
use crate::did_you_mean;
use crate::scenario::ScenarioError;
use fray_engine::SideId;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    rules: Rules,
    #[serde(default)]
    cover: Vec<Spanned<CoverSquare>>,
    combatants: Vec<Spanned<CombatantToml>>,
    /// The `[visibility]` section every ruleset shares, read by [`crate::load`].
    #[allow(dead_code, reason = "read by the dispatcher; kept here so the key is known")]
    visibility: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rules {
    #[allow(dead_code, reason = "read by the dispatcher; kept here so the key is known")]
    ruleset: String,
    #[serde(default)]
    options: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    attack_types: Option<Spanned<BTreeMap<String, AttackTypeToml>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttackTypeToml {
    stability: i32,
    effort: i32,
    graze: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoverSquare {
    square: SquareToml,
    #[serde(flatten)]
    cover: CoverToml,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoverToml {
    rating: Option<i32>,
    preset: Option<String>,
    resistance: Option<i32>,
    material: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Skills {
    shoot: Option<i32>,
    melee: Option<i32>,
    evade: Option<i32>,
    combat: Option<i32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatantToml {
    name: Spanned<String>,
    side: String,
    skills: Option<Spanned<Skills>>,
    strength: Option<Spanned<i32>>,
    body_max: Option<Spanned<i32>>,
    body: Option<Spanned<i32>>,
    trauma: Option<Spanned<i32>>,
    wounds: Option<Spanned<i32>>,
    effort_max: Option<Spanned<i32>>,
    effort: Option<Spanned<i32>>,
    stability: Option<Spanned<i32>>,
    position: Spanned<SquareToml>,
    gun: Option<Spanned<GunRef>>,
    #[serde(default)]
    gun_ready: bool,
    melee_weapon: Option<Spanned<MeleeRef>>,
    #[serde(default)]
    armour: Vec<Spanned<ArmourRef>>,
    cover: Option<Spanned<CoverToml>>,
    #[serde(default)]
    policy: BTreeMap<Spanned<String>, Spanned<String>>,
}

/// A table id or every value (GunToml).
type GunRef = crate::scenario::TableOr<GunToml>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GunToml {
    base: Option<String>,
    ammo: Option<String>,
    name: Option<String>,
    ready_penalty: Option<i32>,
    pb_bonus: Option<i32>,
    range_step_m: Option<f64>,
    damage: Option<i32>,
    delta_damage: Option<i32>,
    penetration: Option<i32>,
    shot_penalty: Option<i32>,
    string_penalty: Option<i32>,
    rate: Option<i32>,
    deferred_shots: Option<i32>,
    min_strength: Option<i32>,
}

/// A table id or every value (MeleeToml).
type MeleeRef = crate::scenario::TableOr<MeleeToml>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MeleeToml {
    name: String,
    damage: i32,
    delta_damage: i32,
    penetration: i32,
    #[serde(default)]
    unarmed: bool,
}

/// A table id or every value (ArmourToml).
type ArmourRef = crate::scenario::TableOr<ArmourToml>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmourToml {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    resistance: i32,
    locations: Vec<u32>,
    #[serde(default)]
    encumbrance: i32,
}

type Err<'a> = &'a dyn Fn(Range<usize>, String) -> ScenarioError;

fn ranged(
    value: Option<&Spanned<i32>>,
    default: i32,
    lo: i32,
    hi: i32,
    what: &str,
    err: Err<'_>,
) -> Result<i32, ScenarioError> {
    match value {
        None => Ok(default),
        Some(v) if (lo..=hi).contains(v.get_ref()) => Ok(*v.get_ref()),
        Some(v) => Err(err(v.span(), format!("expected {what} from {lo} to {hi}, found {}", v.get_ref()))),
    }
}

fn pick<'t, T>(
    table: &'t [(&'static str, T)],
    id: &str,
    what: &str,
    span: Range<usize>,
    err: Err<'_>,
) -> Result<&'t T, ScenarioError> {
    table.iter().find(|(k, _)| *k == id).map(|(_, v)| v).ok_or_else(|| {
        let hint =
            did_you_mean(id, table.iter().map(|(k, _)| *k)).map_or(String::new(), |s| format!("; did you mean `{s}`?"));
        let names: Vec<&str> = table.iter().map(|(k, _)| *k).collect();
        err(span, format!("unknown {what} `{id}`, expected one of {}{hint}", names.join(", ")))
    })
}

fn cover(t: &CoverToml, options: &Options, span: Range<usize>, err: Err<'_>) -> Result<Cover, ScenarioError> {
    let rating = match (&t.rating, &t.preset) {
        (Some(r), None) => *r,
        (None, Some(p)) if !options.custom_gear => *pick(COVER_PRESETS, p, "cover preset", span.clone(), err)?,
        (None, Some(_)) => return Err(err(span, "under `gear_tables = custom` give the cover's `rating`".into())),
        _ => return Err(err(span, "expected a cover `rating` or a `preset`, one of them".into())),
    };
    if !(0..=90).contains(&rating) || rating % 10 != 0 {
        return Err(err(span, format!("expected a cover rating of 0 to 90 in steps of 10, found {rating}")));
    }
    let resistance = match (&t.resistance, &t.material) {
        (Some(r), None) => *r,
        (None, Some(m)) if !options.custom_gear => *pick(MATERIALS, m, "cover material", span.clone(), err)?,
        (None, Some(_)) => return Err(err(span, "under `gear_tables = custom` give the cover's `resistance`".into())),
        _ => return Err(err(span, "expected a cover `resistance` or a `material`, one of them".into())),
    };
    if !(0..=100).contains(&resistance) {
        return Err(err(span, format!("expected a resistance from 0 to 100, found {resistance}")));
    }
    Ok(Cover { rating, resistance })
}

fn gun(g: &GunRef, options: &Options, span: Range<usize>, err: Err<'_>) -> Result<Gun, ScenarioError> {
    let table = gun_table();
    let (base, t) = match g {
        GunRef::Table(_) if options.custom_gear => {
            return Err(err(span, "under `gear_tables = custom` give every gun value".into()));
        }
        GunRef::Table(id) => (Some(pick(&table, id, "gun", span.clone(), err)?.clone()), None),
        GunRef::Custom(t) => match &t.base {
            Some(_) if options.custom_gear => {
                return Err(err(span, "under `gear_tables = custom` there is no table to start from".into()));
            }
            Some(b) => (Some(pick(&table, b, "gun", span.clone(), err)?.clone()), Some(t)),
            None => (None, Some(t)),
        },
    };
    let field = |v: Option<i32>, b: Option<i32>, name: &str, lo: i32, hi: i32| -> Result<i32, ScenarioError> {
        let x = v
            .or(b)
            .ok_or_else(|| err(span.clone(), format!("a custom gun needs `{name}` (or a `base` from the table)")))?;
        if (lo..=hi).contains(&x) {
            Ok(x)
        } else {
            Err(err(span.clone(), format!("expected `{name}` from {lo} to {hi}, found {x}")))
        }
    };
    let b = base.as_ref();
    let t = t.map_or(
        GunToml {
            base: None,
            ammo: None,
            name: None,
            ready_penalty: None,
            pb_bonus: None,
            range_step_m: None,
            damage: None,
            delta_damage: None,
            penetration: None,
            shot_penalty: None,
            string_penalty: None,
            rate: None,
            deferred_shots: None,
            min_strength: None,
        },
        |t| GunToml {
            base: None,
            ammo: t.ammo.clone(),
            name: t.name.clone(),
            ready_penalty: t.ready_penalty,
            pb_bonus: t.pb_bonus,
            range_step_m: t.range_step_m,
            damage: t.damage,
            delta_damage: t.delta_damage,
            penetration: t.penetration,
            shot_penalty: t.shot_penalty,
            string_penalty: t.string_penalty,
            rate: t.rate,
            deferred_shots: t.deferred_shots,
            min_strength: t.min_strength,
        },
    );
    let step = t
        .range_step_m
        .or(b.map(|b| b.range_step_m))
        .ok_or_else(|| err(span.clone(), "a custom gun needs `range_step_m` (or a `base` from the table)".into()))?;
    if !(step.is_finite() && (0.1..=1000.0).contains(&step)) {
        return Err(err(span.clone(), format!("expected `range_step_m` from 0.1 to 1000, found {step}")));
    }
    let mut gun = Gun {
        name: t.name.clone().or(b.map(|b| b.name.clone())).unwrap_or_else(|| "gun".to_owned()),
        ready_penalty: field(t.ready_penalty, b.map(|b| b.ready_penalty), "ready_penalty", 0, 100)?,
        pb_bonus: field(t.pb_bonus, b.map(|b| b.pb_bonus), "pb_bonus", -20, 20)?,
        range_step_m: step,
        damage: field(t.damage, b.map(|b| b.damage), "damage", 0, 100)?,
        delta_damage: field(t.delta_damage, b.map(|b| b.delta_damage), "delta_damage", 0, 20)?,
        penetration: field(t.penetration, b.map(|b| b.penetration), "penetration", 0, 100)?,
        shot_penalty: field(t.shot_penalty, b.map(|b| b.shot_penalty).or(Some(3)), "shot_penalty", 0, 100)?,
        string_penalty: field(t.string_penalty, b.map(|b| b.string_penalty).or(Some(7)), "string_penalty", 0, 100)?,
        rate: field(t.rate, b.map(|b| b.rate).or(Some(1)), "rate", 1, 3)?,
        deferred_shots: field(t.deferred_shots, b.map(|b| b.deferred_shots).or(Some(0)), "deferred_shots", 0, 3)?,
        min_strength: field(t.min_strength, b.map(|b| b.min_strength).or(Some(0)), "min_strength", 0, 10)?,
    };
    if t.ammo.is_some() && options.custom_gear {
        return Err(err(
            span,
            "under `gear_tables = custom` there is no ammunition table: give the gun's `damage` and `penetration` with its ammunition counted".into(),
        ));
    }
    if let Some(ammo) = &t.ammo {
        let ammo_table: Vec<(&str, (i32, i32))> = AMMO.iter().map(|(k, d, p)| (*k, (*d, *p))).collect();
        let (d, p) = *pick(&ammo_table, ammo, "ammunition", span.clone(), err)?;
        gun.damage = (gun.damage + d).max(0);
        gun.penetration = (gun.penetration + p).max(0);
        gun.name = format!("{} ({})", gun.name, ammo.replace('_', " "));
    }
    Ok(gun)
}

fn locations(list: &[u32], span: Range<usize>, err: Err<'_>) -> Result<u16, ScenarioError> {
    let mut mask = 0u16;
    for &f in list {
        if !(1..=10).contains(&f) {
            return Err(err(span, format!("expected locations from 1 to 10 (the d10 faces), found {f}")));
        }
        mask |= 1 << f;
    }
    Ok(mask)
}

/// A square in a scenario file: exactly two whole numbers, `[x, y]`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SquareToml([i32; 2]);

impl<'de> Deserialize<'de> for SquareToml {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SquareToml, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = SquareToml;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a square: two whole numbers [x, y]")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<SquareToml, A::Error> {
                use serde::de::Error;
                let x: Option<i32> = seq.next_element()?;
                let y: Option<i32> = seq.next_element()?;
                let (Some(x), Some(y)) = (x, y) else {
                    return Err(A::Error::custom("expected a square: two whole numbers [x, y]"));
                };
                if seq.next_element::<toml::Value>()?.is_some() {
                    return Err(A::Error::custom("expected a square: two whole numbers [x, y], found more"));
                }
                Ok(SquareToml([x, y]))
            }
        }
        deserializer.deserialize_seq(Visit)
    }
}

/// Reads a `ticks` scenario. `sets` are `--set name=value` overrides, applied after the file.
pub fn load(file: &str, text: &str, sets: &[(String, String)]) -> Result<Setup, ScenarioError> {
    let parsed: File = toml::from_str(text).map_err(|e| ScenarioError::from_toml(file, text, &e))?;
    let err = |span: Range<usize>, message: String| ScenarioError::at(file, text, span, message);
    let err: Err<'_> = &err;
    let word = |w: &Spanned<String>, choices: &[&str], what: &str| crate::scenario::word(file, text, w, choices, what);
    let mut options = Options::default();
    crate::scenario::apply_options(file, text, &parsed.rules.options, sets, |n, v| options.set(n, v))?;
    let mut blows = ATTACK_TYPES;
    match (&parsed.rules.attack_types, options.custom_melee) {
        (Some(t), true) => {
            for (i, name) in ["jab", "strike", "heavy"].iter().enumerate() {
                let a = t.get_ref().get(*name).ok_or_else(|| {
                    err(t.span(), format!("under `melee_costs = custom` give `{name}` (stability, effort, graze)"))
                })?;
                if !(0..=100).contains(&a.stability) || !(0..=100).contains(&a.effort) || !(-20..=20).contains(&a.graze)
                {
                    return Err(err(t.span(), format!("`{name}`: expected stability and effort 0–100, graze −20–20")));
                }
                blows[i] = AttackType { stability: a.stability, effort: a.effort, graze: a.graze };
            }
            if let Some(k) = t.get_ref().keys().find(|k| !["jab", "strike", "heavy"].contains(&k.as_str())) {
                return Err(err(t.span(), format!("unknown attack type `{k}`, expected jab, strike, heavy")));
            }
        }
        (Some(t), false) => {
            return Err(err(t.span(), "attack types are set only under `melee_costs = custom`".into()));
        }
        (None, true) => {
            return Err(ScenarioError::whole(file, "under `melee_costs = custom` give [rules.attack_types]"));
        }
        (None, false) => {}
    }
    if parsed.cover.len() > 10_000 {
        return Err(ScenarioError::whole(file, "at most 10000 cover squares"));
    }
    let in_map = |sq: [i32; 2], span: Range<usize>| -> Result<Square, ScenarioError> {
        if sq[0].abs() > 100_000 || sq[1].abs() > 100_000 {
            return Err(err(span, "expected a square within 100000 of the origin".into()));
        }
        Ok((sq[0], sq[1]))
    };
    let mut map: Vec<(Square, Cover)> = Vec::new();
    for c in &parsed.cover {
        let sq = in_map(c.get_ref().square.0, c.span())?;
        if map.iter().any(|m| m.0 == sq) {
            return Err(err(c.span(), format!("a second cover entry for square {sq:?}")));
        }
        map.push((sq, cover(&c.get_ref().cover, &options, c.span(), err)?));
    }
    let melee_weapons = melee_table();
    let armours = armour_table();
    let mut sides: Vec<String> = Vec::new();
    let mut combatants: Vec<Sheet> = Vec::new();
    for spanned in &parsed.combatants {
        let c = spanned.get_ref();
        if combatants.iter().any(|s| &s.name == c.name.get_ref()) {
            return Err(err(c.name.span(), format!("a second combatant named `{}`", c.name.get_ref())));
        }
        let side = crate::scenario::enlist(file, text, &mut sides, c.name.get_ref(), &c.side, spanned.span())?;
        let d = options.default_skill;
        let (shoot, melee, evade) = match &c.skills {
            None => (d, d, d),
            Some(s) => {
                let k = s.get_ref();
                let check = |v: Option<i32>, name: &str| -> Result<i32, ScenarioError> {
                    match v {
                        None => Ok(d),
                        Some(x) if (0..=15).contains(&x) => Ok(x),
                        Some(x) => Err(err(s.span(), format!("expected `{name}` from 0 to 15, found {x}"))),
                    }
                };
                if options.single_skill {
                    if k.shoot.is_some() || k.melee.is_some() || k.evade.is_some() {
                        return Err(err(
                            s.span(),
                            "under `skill_model = single_skill` give one skill, `combat`".into(),
                        ));
                    }
                    let x = check(k.combat, "combat")?;
                    (x, x, x)
                } else {
                    if k.combat.is_some() {
                        return Err(err(
                            s.span(),
                            "`combat` is the skill of `skill_model = single_skill`; give shoot, melee, evade".into(),
                        ));
                    }
                    (check(k.shoot, "shoot")?, check(k.melee, "melee")?, check(k.evade, "evade")?)
                }
            }
        };
        let body_max = ranged(c.body_max.as_ref(), options.body_max, 1, 10_000, "body_max", err)?;
        let body = ranged(c.body.as_ref(), body_max, -10_000, body_max, "body", err)?;
        let effort_max = ranged(c.effort_max.as_ref(), options.effort_max, 0, 10_000, "effort_max", err)?;
        let effort = ranged(c.effort.as_ref(), effort_max, 0, effort_max, "effort", err)?;
        let gun = match &c.gun {
            None => None,
            Some(g) => Some(gun(g.get_ref(), &options, g.span(), err)?),
        };
        if c.gun_ready && gun.is_none() {
            return Err(err(c.name.span(), "`gun_ready = true` without a gun".into()));
        }
        let melee_weapon = match &c.melee_weapon {
            // Bare fists, the table's first entry, under custom gear too.
            None => melee_weapons[0].1.clone(),
            Some(m) => match m.get_ref() {
                MeleeRef::Table(_) if options.custom_gear => {
                    return Err(err(m.span(), "under `gear_tables = custom` give every melee weapon value".into()));
                }
                MeleeRef::Table(id) => pick(&melee_weapons, id, "melee weapon", m.span(), err)?.clone(),
                MeleeRef::Custom(t) => {
                    if !(0..=100).contains(&t.damage)
                        || !(0..=20).contains(&t.delta_damage)
                        || !(0..=100).contains(&t.penetration)
                    {
                        return Err(err(
                            m.span(),
                            "expected damage 0–100, delta_damage 0–20, penetration 0–100".into(),
                        ));
                    }
                    MeleeWeapon {
                        name: t.name.clone(),
                        damage: t.damage,
                        delta_damage: t.delta_damage,
                        penetration: t.penetration,
                        unarmed: t.unarmed,
                    }
                }
            },
        };
        if c.armour.len() > 16 {
            return Err(err(c.name.span(), "at most 16 armour pieces per combatant".into()));
        }
        let mut armour: Vec<Armour> = Vec::new();
        for a in &c.armour {
            armour.push(match a.get_ref() {
                ArmourRef::Table(_) if options.custom_gear => {
                    return Err(err(a.span(), "under `gear_tables = custom` give every armour value".into()));
                }
                ArmourRef::Table(id) => pick(&armours, id, "armour", a.span(), err)?.clone(),
                ArmourRef::Custom(t) => {
                    let hard = word(&Spanned::new(a.span(), t.kind.clone()), &["soft", "hard"], "armour type")? == 1;
                    if !(0..=100).contains(&t.resistance) || !(0..=20).contains(&t.encumbrance) {
                        return Err(err(
                            a.span(),
                            "expected a resistance from 0 to 100 and an encumbrance from 0 to 20".into(),
                        ));
                    }
                    Armour {
                        name: t.name.clone(),
                        hard,
                        resistance: t.resistance,
                        locations: locations(&t.locations, a.span(), err)?,
                        encumbrance: t.encumbrance,
                    }
                }
            });
        }
        for (i, (a, given)) in armour.iter().zip(&c.armour).enumerate() {
            if armour[..i].iter().any(|x| x.name == a.name) {
                return Err(err(given.span(), format!("armour `{}` is listed twice", a.name)));
            }
        }
        let position = in_map(c.position.get_ref().0, c.position.span())?;
        if !options.shared_squares && combatants.iter().any(|s| s.position == position) {
            return Err(err(c.position.span(), format!("square {position:?} is taken (square_occupancy = exclusive)")));
        }
        let own_cover = match &c.cover {
            None => None,
            Some(cv) => Some(cover(cv.get_ref(), &options, cv.span(), err)?),
        };
        if let Some(cv) = own_cover {
            match map.iter().find(|m| m.0 == position) {
                Some(m) if m.1 != cv => {
                    return Err(err(
                        c.cover.as_ref().map_or(0..0, |s| s.span()),
                        format!("square {position:?} already has other cover in [[cover]]"),
                    ));
                }
                Some(_) => {}
                None => map.push((position, cv)),
            }
        }
        let mut policy = Policy::default();
        for (field, v) in crate::scenario::policy_choices(file, text, &c.policy, POLICIES)? {
            policy.0[field] = v;
        }
        combatants.push(Sheet {
            name: c.name.get_ref().clone(),
            side: SideId(side as u16),
            shoot,
            melee,
            evade,
            strength: ranged(c.strength.as_ref(), options.default_strength, 1, 10, "strength", err)?,
            body_max,
            body,
            trauma: ranged(c.trauma.as_ref(), 0, 0, 10_000, "trauma", err)?,
            wounds: ranged(c.wounds.as_ref(), 0, 0, 100, "wounds", err)?,
            effort_max,
            effort,
            stability: ranged(c.stability.as_ref(), 0, 0, 1000, "stability", err)?,
            position,
            gun_ready: c.gun_ready,
            gun,
            melee_weapon,
            armour,
            cover: own_cover,
            policy,
        });
    }
    if combatants.is_empty() {
        return Err(ScenarioError::whole(file, "expected at least one combatant"));
    }
    map.sort_by_key(|m| m.0);
    crate::scenario::two_sides(file, text, &sides)?;
    Ok(Setup { options, sides, combatants, cover: map, blows, joins_late: 0 })
}
