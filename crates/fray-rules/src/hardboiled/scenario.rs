//! Reading a `hardboiled` scenario file into a validated [`Setup`].

use super::options::Options;
use super::setup::{
    ALL, Armour, Attr, COVER_PRESETS, Cover, Damage, Locations, POLICIES, Policy, Setup, Sheet, Specialism, Weapon,
    armour_table, weapon_table,
};
use crate::scenario::ScenarioError;
use fray_engine::{Pos, SideId};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The turn cap when a scenario gives none.
pub const DEFAULT_MAX_TURNS: u32 = 100;

type File = crate::scenario::File<Rules, CombatantToml>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rules {
    #[allow(dead_code, reason = "read by the dispatcher; kept here so the key is known")]
    ruleset: String,
    #[serde(default)]
    options: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    max_turns: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatantToml {
    name: Spanned<String>,
    side: String,
    #[serde(default)]
    hero: bool,
    action: Spanned<u32>,
    wits: Spanned<u32>,
    ego: Spanned<u32>,
    #[serde(default)]
    specialisms: Vec<Spanned<SpecialismToml>>,
    hp_max: Option<Spanned<i64>>,
    hp: Option<Spanned<i64>>,
    #[serde(default)]
    second_wind_used: bool,
    weapon: Option<Spanned<WeaponRef>>,
    #[serde(default)]
    armour: Vec<Spanned<ArmourRef>>,
    ward: Option<Spanned<i64>>,
    position: Option<crate::scenario::PositionToml>,
    cover: Option<Spanned<CoverToml>>,
    #[serde(default)]
    policy: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecialismToml {
    name: String,
    attribute: Spanned<String>,
    #[serde(default)]
    tags: Vec<Spanned<String>>,
}

/// A table id or every value (WeaponToml).
type WeaponRef = crate::scenario::TableOr<WeaponToml>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WeaponToml {
    /// A table entry to start from (under `weapon_table = pulp_placeholder`).
    base: Option<String>,
    name: Option<String>,
    kind: Option<String>,
    bonus: Option<i32>,
    damage: Option<String>,
    range_m: Option<f64>,
    brawling: Option<bool>,
    reach: Option<i32>,
    penetration: Option<i32>,
}

/// A table id or every value (ArmourToml).
type ArmourRef = crate::scenario::TableOr<ArmourToml>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmourToml {
    name: String,
    stop: i32,
    locations: Vec<u8>,
    #[serde(default)]
    natural: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoverToml {
    preset: Option<Spanned<String>>,
    locations: Option<Spanned<Vec<u8>>>,
    #[serde(default = "one")]
    hardness: Spanned<i32>,
}

fn one() -> Spanned<i32> {
    Spanned::new(0..0, 1)
}

/// Reads a `hardboiled` scenario. `sets` are `--set name=value` overrides, applied after the file.
pub fn load(file: &str, text: &str, sets: &[(String, String)]) -> Result<Setup, ScenarioError> {
    let parsed: File = toml::from_str(text).map_err(|e| ScenarioError::from_toml(file, text, &e))?;
    let err = |span: std::ops::Range<usize>, message: String| ScenarioError::at(file, text, span, message);
    let word = |w: &Spanned<String>, choices: &[&str], what: &str| crate::scenario::word(file, text, w, choices, what);
    let mut options = Options::default();
    crate::scenario::apply_options(file, text, &parsed.rules.options, sets, |n, v| options.set(n, v))?;
    let max_turns = match &parsed.rules.max_turns {
        Some(cap) if !(1..=100_000).contains(cap.get_ref()) => {
            return Err(err(cap.span(), format!("expected a turn cap from 1 to 100000, found {}", cap.get_ref())));
        }
        Some(cap) => *cap.get_ref(),
        None => DEFAULT_MAX_TURNS,
    };
    let weapons = weapon_table();
    let armours = armour_table();
    let locations = |l: &Spanned<Vec<u8>>| -> Result<Locations, ScenarioError> {
        let mut mask = 0;
        for &f in l.get_ref() {
            if !(1..=10).contains(&f) {
                return Err(err(l.span(), format!("expected locations from 1 to 10, found {f}")));
            }
            mask |= 1 << f;
        }
        Ok(mask)
    };
    let mut sides: Vec<String> = Vec::new();
    let mut combatants: Vec<Sheet> = Vec::new();
    for spanned in &parsed.combatants {
        let c = spanned.get_ref();
        if combatants.iter().any(|s| &s.name == c.name.get_ref()) {
            return Err(err(c.name.span(), format!("a second combatant named `{}`", c.name.get_ref())));
        }
        let side = crate::scenario::enlist(file, text, &mut sides, c.name.get_ref(), &c.side, spanned.span())?;
        // Attribute dice (USR-DICE-1/2).
        let allowed: &[u32] = if options.free_dice { &[4, 6, 8, 10, 12] } else { &[6, 8, 10] };
        let mut dice = [0u8; 3];
        for (i, d) in [&c.action, &c.wits, &c.ego].into_iter().enumerate() {
            if !allowed.contains(d.get_ref()) {
                return Err(err(
                    d.span(),
                    format!("expected an attribute die of {:?} (a d-size), found {}", allowed, d.get_ref()),
                ));
            }
            dice[i] = *d.get_ref() as u8;
        }
        if !options.free_dice {
            let mut sorted = dice;
            sorted.sort_unstable();
            if sorted != [6, 8, 10] {
                return Err(err(
                    spanned.span(),
                    "under `attribute_dice_check = strict` Action, Wits and Ego are d6, d8 and d10, one each".into(),
                ));
            }
        }
        let mut specialisms = Vec::new();
        for s in &c.specialisms {
            let st = s.get_ref();
            let attribute =
                [Attr::Action, Attr::Wits, Attr::Ego][word(&st.attribute, &["action", "wits", "ego"], "attribute")?];
            // A tag is free text (a specialism outside combat fits none of the rules' tags), but
            // one a slip away from a tag the rules use is taken for a typo.
            for tag in &st.tags {
                if !super::attack::TAGS.contains(&tag.get_ref().as_str())
                    && let Some(near) = crate::did_you_mean(tag.get_ref(), super::attack::TAGS.iter().copied())
                {
                    return Err(err(
                        tag.span(),
                        format!(
                            "tag `{}` fits no roll the rules make (it would give no bonus); did you mean `{near}`?",
                            tag.get_ref()
                        ),
                    ));
                }
            }
            let mut tags: Vec<String> = st.tags.iter().map(|t| t.get_ref().clone()).collect();
            if tags.is_empty() {
                tags.push(st.name.to_lowercase());
            }
            specialisms.push(Specialism::new(st.name.clone(), attribute, tags));
        }
        let hp_max = match &c.hp_max {
            Some(h) if !(1..=1000).contains(h.get_ref()) => {
                return Err(err(h.span(), format!("expected hp_max from 1 to 1000, found {}", h.get_ref())));
            }
            Some(h) => Some(*h.get_ref() as i32),
            None => None,
        };
        let hp = match &c.hp {
            Some(h) if !(-1000..=1000).contains(h.get_ref()) => {
                return Err(err(h.span(), format!("expected hp from −1000 to 1000, found {}", h.get_ref())));
            }
            Some(h) => Some(*h.get_ref() as i32),
            None => None,
        };
        let weapon = match &c.weapon {
            None => weapons[0].1.clone(),
            Some(w) => match w.get_ref() {
                WeaponRef::Table(id) => {
                    if options.custom_weapons {
                        return Err(err(w.span(), "under `weapon_table = custom` give every weapon value".into()));
                    }
                    let ids: Vec<&str> = weapons.iter().map(|(id, _)| *id).collect();
                    let s = Spanned::new(w.span(), id.clone());
                    weapons[word(&s, &ids, "weapon")?].1.clone()
                }
                WeaponRef::Custom(t) => custom_weapon(t, &weapons, &options, w.span(), &err, &word)?,
            },
        };
        let mut armour: Vec<Armour> = Vec::new();
        for a in &c.armour {
            armour.push(match a.get_ref() {
                ArmourRef::Table(id) => {
                    if options.custom_armour {
                        return Err(err(a.span(), "under `armour_table = custom` give every armour value".into()));
                    }
                    let ids: Vec<&str> = armours.iter().map(|(id, _)| *id).collect();
                    let s = Spanned::new(a.span(), id.clone());
                    armours[word(&s, &ids, "armour")?].1.clone()
                }
                ArmourRef::Custom(t) => {
                    if !(0..=20).contains(&t.stop) {
                        return Err(err(a.span(), format!("expected a stop from 0 to 20, found {}", t.stop)));
                    }
                    let spanned = Spanned::new(a.span(), t.locations.clone());
                    Armour { name: t.name.clone(), stop: t.stop, locations: locations(&spanned)?, natural: t.natural }
                }
            });
        }
        for (i, (a, given)) in armour.iter().zip(&c.armour).enumerate() {
            if armour[..i].iter().any(|x| x.name == a.name) {
                return Err(err(given.span(), format!("armour `{}` is listed twice", a.name)));
            }
        }
        let ward = match &c.ward {
            Some(w) if !(0..=100).contains(w.get_ref()) => {
                return Err(err(w.span(), format!("expected a ward from 0 to 100, found {}", w.get_ref())));
            }
            Some(w) => *w.get_ref() as i32,
            None => 0,
        };
        let position = c.position.map_or(Pos::default(), |p| p.0);
        let cover = match &c.cover {
            None => None,
            Some(cv) => {
                let ct = cv.get_ref();
                let locations = match (&ct.preset, &ct.locations) {
                    (Some(p), None) => {
                        if options.custom_cover {
                            return Err(err(
                                p.span(),
                                "under `cover_presets = custom` list the cover's locations".into(),
                            ));
                        }
                        let names: Vec<&str> = COVER_PRESETS.iter().map(|(n, _)| *n).collect();
                        COVER_PRESETS[word(p, &names, "cover preset")?].1
                    }
                    (None, Some(l)) => locations(l)?,
                    _ => {
                        return Err(err(cv.span(), "expected a cover `preset` or its `locations`, one of them".into()));
                    }
                };
                if !(0..=3).contains(ct.hardness.get_ref()) {
                    return Err(err(
                        ct.hardness.span(),
                        format!("expected a hardness from 0 to 3, found {}", ct.hardness.get_ref()),
                    ));
                }
                Some(Cover { locations: locations & ALL, hardness: *ct.hardness.get_ref() })
            }
        };
        let mut policy = Policy::default();
        for (field, v) in crate::scenario::policy_choices(file, text, &c.policy, POLICIES)? {
            match field {
                0 => policy.target = v,
                1 => policy.attack = v,
                2 => policy.called_shot = v,
                3 => policy.cover = v,
                4 => policy.second_wind = v,
                _ => policy.movement = v,
            }
        }
        combatants.push(Sheet {
            name: c.name.get_ref().clone(),
            side: SideId(side as u16),
            hero: c.hero,
            dice,
            specialisms,
            hp_max,
            hp,
            second_wind_used: c.second_wind_used,
            weapon,
            armour,
            ward,
            position,
            cover,
            policy,
        });
    }
    if combatants.is_empty() {
        return Err(ScenarioError::whole(file, "expected at least one combatant"));
    }
    crate::scenario::two_sides(file, text, &sides)?;
    Ok(Setup { options, sides, combatants, max_turns, joins_late: 0 })
}

#[allow(clippy::type_complexity, reason = "the loader's error helpers")]
fn custom_weapon(
    t: &WeaponToml,
    table: &[(&'static str, Weapon)],
    options: &Options,
    span: std::ops::Range<usize>,
    err: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
    word: &dyn Fn(&Spanned<String>, &[&str], &str) -> Result<usize, ScenarioError>,
) -> Result<Weapon, ScenarioError> {
    let spanned = |s: &String| Spanned::new(span.clone(), s.clone());
    let base = match &t.base {
        Some(_) if options.custom_weapons => {
            return Err(err(span.clone(), "under `weapon_table = custom` there is no table to start from".into()));
        }
        Some(b) => {
            let ids: Vec<&str> = table.iter().map(|(id, _)| *id).collect();
            Some(table[word(&spanned(b), &ids, "weapon")?].1.clone())
        }
        None => None,
    };
    let missing =
        |what: &str| err(span.clone(), format!("a custom weapon needs `{what}` (or a `base` from the table)"));
    let ranged = match (&t.kind, &base) {
        (Some(k), _) => word(&spanned(k), &["melee", "ranged"], "weapon kind")? == 1,
        (None, Some(b)) => b.ranged,
        (None, None) => return Err(missing("kind")),
    };
    let damage = match (&t.damage, &base) {
        (Some(d), _) => Damage::parse(d).map_err(|m| err(span.clone(), m))?,
        (None, Some(b)) => b.damage,
        (None, None) if !ranged => Damage::default(),
        (None, None) => return Err(missing("damage")),
    };
    let range_m = match (&t.range_m, &base) {
        (Some(r), _) if !(r.is_finite() && *r > 0.0 && *r <= 10_000.0) => {
            return Err(err(span.clone(), format!("expected a range from 0 to 10000 m, found {r}")));
        }
        (Some(r), _) => *r,
        (None, Some(b)) => b.range_m,
        (None, None) if !ranged => 0.0,
        (None, None) => return Err(missing("range_m")),
    };
    let name = t.name.clone().or_else(|| base.as_ref().map(|b| b.name.clone())).ok_or_else(|| missing("name"))?;
    // Out-of-range values are refused, not clamped: reach 0 (unarmed) … 3 (spear) and
    // penetration 0–3 as the weapon fields give them; a bonus within ±10.
    let within = |field: &str, value: i32, lo: i32, hi: i32| {
        if (lo..=hi).contains(&value) {
            Ok(value)
        } else {
            Err(err(span.clone(), format!("expected a weapon `{field}` from {lo} to {hi}, found {value}")))
        }
    };
    Ok(Weapon {
        name,
        ranged,
        bonus: within("bonus", t.bonus.or(base.as_ref().map(|b| b.bonus)).unwrap_or(0), -10, 10)?,
        damage,
        range_m,
        brawling: t.brawling.or(base.as_ref().map(|b| b.brawling)).unwrap_or(false),
        reach: within("reach", t.reach.or(base.as_ref().map(|b| b.reach)).unwrap_or(0), 0, 3)?,
        penetration: within("penetration", t.penetration.or(base.as_ref().map(|b| b.penetration)).unwrap_or(0), 0, 3)?,
    })
}
