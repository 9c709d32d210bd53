//! Reading a `fluid` scenario file into a validated [`Setup`].

use super::options::Options;
use super::policy::POLICIES;
use super::setup::{Amount, Armor, Fire, Item, ItemKind, PolicySpec, Projectile, STATS, Setup, Sheet, Skill, SkillRef};
use crate::did_you_mean;
use crate::scenario::ScenarioError;
use fray_engine::{Pos, SideId};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The most items a combatant may carry (besides bare hands).
pub const MAX_ITEMS: usize = 64;

/// The round cap when a scenario gives none.
pub const DEFAULT_MAX_ROUNDS: u32 = 100;

type File = crate::scenario::File<Rules, CombatantToml>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rules {
    #[allow(dead_code, reason = "read by the dispatcher; kept here so the key is known")]
    ruleset: String,
    #[serde(default)]
    options: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    max_rounds: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatantToml {
    id: Spanned<String>,
    side: String,
    #[serde(default)]
    player: bool,
    #[serde(default)]
    stats: BTreeMap<Spanned<String>, Spanned<i32>>,
    size: Option<Spanned<i32>>,
    pc: Spanned<i32>,
    w: Option<Spanned<i32>>,
    s: Option<Spanned<i32>>,
    s_max: Option<Spanned<i32>>,
    tactics: Option<Spanned<i32>>,
    #[serde(rename = "move")]
    move_m: Option<Spanned<f64>>,
    #[serde(default)]
    skills: BTreeMap<String, Spanned<SkillToml>>,
    #[serde(default)]
    items: Vec<Spanned<ItemToml>>,
    armor: Option<Spanned<ArmorToml>>,
    position: Option<crate::scenario::PositionToml>,
    #[serde(default)]
    policy: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    hidden: bool,
    #[serde(default)]
    stabilized: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SkillToml {
    #[serde(default)]
    rank: i32,
    stat: Option<String>,
    value: Option<Spanned<i32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ItemToml {
    id: String,
    #[serde(default = "melee")]
    kind: Spanned<String>,
    skill: Option<Spanned<String>>,
    #[serde(default)]
    damage: DamageToml,
    oq: Option<Spanned<i32>>,
    dq: Option<Spanned<i32>>,
    sizes: Option<Vec<Spanned<SizeToml>>>,
    tier: Option<Spanned<i32>>,
    fire: Option<Spanned<String>>,
    recoil_factor: Option<Spanned<f64>>,
    ammo_counts: Option<Spanned<i32>>,
    projectile: Option<Spanned<String>>,
    blast_band: Option<Spanned<String>>,
    /// The stat block's bookkeeping fields: a display name, the values a repair restores
    /// (FLUID-SUNDER-12) and notes of past sunders. They are read and checked, and change
    /// nothing in a fight.
    #[serde(rename = "name")]
    _name: Option<String>,
    #[serde(rename = "original")]
    _original: Option<OriginalToml>,
    #[serde(rename = "sunder_log")]
    _sunder_log: Option<Vec<String>>,
}

/// An item's original qualities (bookkeeping, FLUID-SUNDER-12).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OriginalToml {
    #[serde(rename = "oq", default)]
    _oq: i32,
    #[serde(rename = "dq", default)]
    _dq: i32,
}

fn melee() -> Spanned<String> {
    Spanned::new(0..0, "melee".to_owned())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DamageToml {
    w: Option<Spanned<AmountToml>>,
    s: Option<Spanned<AmountToml>>,
}

/// A whole number or a word.
type AmountToml = crate::scenario::IntOrWord;

/// A whole number or a word.
type SizeToml = crate::scenario::IntOrWord;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmorToml {
    name: String,
    av: Spanned<i32>,
    size: Option<Spanned<SizeToml>>,
    tier: Option<Spanned<i32>>,
    /// Natural armour: its size is by default the creature's (FLUID-ARM-4).
    #[serde(default)]
    natural: bool,
    /// Bookkeeping (the AV a repair restores, notes of past sunders); no effect in a fight.
    #[serde(rename = "original_av")]
    _original_av: Option<i32>,
    #[serde(rename = "sunder_log")]
    _sunder_log: Option<Vec<String>>,
}

/// Reads a `fluid` scenario. `sets` are `--set name=value` overrides, applied after the file.
pub fn load(file: &str, text: &str, sets: &[(String, String)]) -> Result<Setup, ScenarioError> {
    let parsed: File = toml::from_str(text).map_err(|e| ScenarioError::from_toml(file, text, &e))?;
    let err = |span: std::ops::Range<usize>, message: String| ScenarioError::at(file, text, span, message);

    let mut options = Options::default();
    crate::scenario::apply_options(file, text, &parsed.rules.options, sets, |n, v| options.set(n, v))?;
    let max_rounds = match &parsed.rules.max_rounds {
        Some(cap) if !(1..=100_000).contains(cap.get_ref()) => {
            return Err(err(cap.span(), format!("expected a round cap from 1 to 100000, found {}", cap.get_ref())));
        }
        Some(cap) => *cap.get_ref(),
        None => DEFAULT_MAX_ROUNDS,
    };

    let mut sides: Vec<String> = Vec::new();
    let mut combatants = Vec::new();
    for spanned in &parsed.combatants {
        let c = spanned.get_ref();
        if combatants.iter().any(|s: &Sheet| &s.id == c.id.get_ref()) {
            return Err(err(c.id.span(), format!("a second combatant with id `{}`", c.id.get_ref())));
        }
        let side = crate::scenario::enlist(file, text, &mut sides, c.id.get_ref(), &c.side, spanned.span())?;
        let mut stats = [10; 7];
        for (name, value) in &c.stats {
            let Some(i) = STATS.iter().position(|s| s == name.get_ref()) else {
                let hint = did_you_mean(name.get_ref(), STATS.iter().copied())
                    .map_or(String::new(), |s| format!("; did you mean `{s}`?"));
                return Err(err(
                    name.span(),
                    format!("unknown stat `{}`, expected one of {}{hint}", name.get_ref(), STATS.join(", ")),
                ));
            };
            if !(3..=18).contains(value.get_ref()) {
                return Err(err(
                    value.span(),
                    format!("expected a stat score from 3 to 18, found {}", value.get_ref()),
                ));
            }
            stats[i] = *value.get_ref();
        }
        let pc = bounded(&Some(c.pc.clone()), "a PC", 1..=MAX_TRACK, 0, &err)?;
        let s_max = bounded(&c.s_max, "an s_max", 1..=MAX_TRACK, pc, &err)?;
        let w = bounded(&c.w, "a W", -MAX_TRACK..=MAX_TRACK, pc, &err)?;
        let s_now = bounded(&c.s, "an S", -MAX_TRACK..=MAX_TRACK, pc, &err)?;
        let tactics = bounded(&c.tactics, "a Tactics", -MAX_TACTICS..=MAX_TACTICS, 0, &err)?;
        let size = match &c.size {
            Some(size) if !(0..=5).contains(size.get_ref()) => {
                return Err(err(size.span(), format!("expected a size from 0 to 5, found {}", size.get_ref())));
            }
            Some(size) => *size.get_ref(),
            None => 3,
        };
        let mut skills = Vec::new();
        for (name, skill) in &c.skills {
            let s = skill.get_ref();
            if !(0..=MAX_RANK).contains(&s.rank) {
                return Err(err(
                    skill.span(),
                    format!("skill `{name}`: expected a rank from 0 to {MAX_RANK}, found {}", s.rank),
                ));
            }
            let base = match &s.stat {
                Some(stat) => match STATS.iter().position(|x| x == stat) {
                    Some(i) => stats[i],
                    None => return Err(err(skill.span(), format!("skill `{name}`: unknown stat `{stat}`"))),
                },
                None => 10,
            };
            let value = bounded(&s.value, "a skill value", 0..=MAX_SKILL, base + s.rank, &err)?;
            skills.push(Skill { name: name.clone(), rank: s.rank, value });
        }
        let mut items = Vec::new();
        // Item numbers are kept in a byte; the unarmed pseudo-item takes one.
        if let Some(extra) = c.items.get(MAX_ITEMS) {
            return Err(err(extra.span(), format!("expected at most {MAX_ITEMS} items per combatant")));
        }
        for item in &c.items {
            let it = item.get_ref();
            // A thrown weapon attacks as a ranged one (range bands, movement, defences); only its
            // projectile defaults differently (an arrow, FLUID-DEF-11).
            let thrown = it.kind.get_ref() == "thrown";
            let kind = match it.kind.get_ref().as_str() {
                "melee" => ItemKind::Melee,
                "ranged" | "thrown" => ItemKind::Ranged,
                "shield" => ItemKind::Shield,
                "area" => ItemKind::Area,
                other => {
                    let kinds = ["melee", "ranged", "thrown", "area", "shield"];
                    let hint = did_you_mean(other, kinds.into_iter())
                        .map_or(String::new(), |k| format!("; did you mean `{k}`?"));
                    return Err(err(
                        it.kind.span(),
                        format!("unknown item kind `{other}`, expected one of {}{hint}", kinds.join(", ")),
                    ));
                }
            };
            if kind != ItemKind::Shield && it.skill.is_none() {
                return Err(err(item.span(), format!("item `{}` needs a `skill` to attack with", it.id)));
            }
            // A skill not on the sheet is used untrained (FLUID-ACT-11); one a letter or two
            // from a skill on the sheet is taken for a slip of the pen.
            if let Some(skill) = &it.skill
                && !c.skills.contains_key(skill.get_ref())
                && let Some(near) = did_you_mean(skill.get_ref(), c.skills.keys().map(String::as_str))
            {
                return Err(err(
                    skill.span(),
                    format!(
                        "skill `{}` is not on the sheet (it would be used untrained); did you mean `{near}`?",
                        skill.get_ref()
                    ),
                ));
            }
            let sizes = match &it.sizes {
                None => vec![3],
                Some(list) if list.is_empty() => return Err(err(item.span(), "expected at least one size".into())),
                Some(list) => {
                    list.iter().map(|s| size_value(s, options.weight_sizes, &err)).collect::<Result<_, _>>()?
                }
            };
            items.push(Item {
                id: it.id.clone(),
                kind,
                skill: it.skill.as_ref().map(|s| s.get_ref().clone()),
                damage_w: amount(&it.damage.w, &err)?,
                damage_s: amount(&it.damage.s, &err)?,
                oq: bounded(&it.oq, "an OQ", -MAX_QUALITY..=MAX_QUALITY, 0, &err)?,
                dq: bounded(&it.dq, "a DQ", -MAX_QUALITY..=MAX_QUALITY, 0, &err)?,
                sizes,
                tier: tier(&it.tier, &err)?,
                fire: match &it.fire {
                    None => Fire::Single,
                    Some(f) => match f.get_ref().as_str() {
                        "single" => Fire::Single,
                        "pump" => Fire::Pump,
                        "semi" => Fire::Semi,
                        "burst" => Fire::Burst,
                        "auto" => Fire::Auto,
                        other => {
                            return Err(err(
                                f.span(),
                                format!("unknown fire mode `{other}`, expected single, pump, semi, burst or auto"),
                            ));
                        }
                    },
                },
                half_recoil: match &it.recoil_factor {
                    None => false,
                    Some(r) if *r.get_ref() == 1.0 => false,
                    Some(r) if *r.get_ref() == 0.5 => true,
                    Some(r) => {
                        return Err(err(
                            r.span(),
                            format!("expected a recoil factor of 1 or 0.5, found {}", r.get_ref()),
                        ));
                    }
                },
                ammo: match &it.ammo_counts {
                    Some(a) if *a.get_ref() < 0 => {
                        return Err(err(a.span(), "expected 0 or more ammunition counts".into()));
                    }
                    other => other.as_ref().map(|a| *a.get_ref()),
                },
                blast_band: match &it.blast_band {
                    None => 1,
                    Some(b) => match b.get_ref().as_str() {
                        "contact" => 0,
                        "nearby" => 1,
                        "close" => 2,
                        "short" => 3,
                        "medium" => 4,
                        "long" => 5,
                        other => {
                            return Err(err(
                                b.span(),
                                format!(
                                    "unknown band `{other}`, expected contact, nearby, close, short, medium or long"
                                ),
                            ));
                        }
                    },
                },
                unarmed: false,
                projectile: match &it.projectile {
                    None if thrown => Projectile::Arrow,
                    None => Projectile::Bullet,
                    Some(p) => match p.get_ref().as_str() {
                        "bullet" => Projectile::Bullet,
                        "arrow" => Projectile::Arrow,
                        other => {
                            return Err(err(
                                p.span(),
                                format!("unknown projectile `{other}`, expected bullet or arrow"),
                            ));
                        }
                    },
                },
            });
        }
        // The unarmed pseudo-item, always last: size = creature size − 3 (FLUID-GEAR-5).
        items.push(Item {
            id: "unarmed".into(),
            kind: ItemKind::Melee,
            skill: Some("unarmed".into()),
            damage_w: options.unarmed_damage.0.clone(),
            damage_s: options.unarmed_damage.1.clone(),
            oq: 0,
            dq: 0,
            sizes: vec![size - 3],
            tier: None,
            fire: Fire::Single,
            half_recoil: false,
            ammo: None,
            projectile: Projectile::Bullet,
            blast_band: 1,
            unarmed: true,
        });
        let armor = match &c.armor {
            None => None,
            Some(a) => {
                let ar = a.get_ref();
                let av = bounded(&Some(ar.av.clone()), "an AV", 0..=MAX_AV, 0, &err)?;
                let size = match &ar.size {
                    Some(s) => size_value(s, options.weight_sizes, &err)?,
                    None if ar.natural => size,
                    None => 3,
                };
                Some(Armor { name: ar.name.clone(), av, size, tier: tier(&ar.tier, &err)? })
            }
        };
        let mut policy = PolicySpec::default();
        for (field, value) in crate::scenario::policy_choices(file, text, &c.policy, POLICIES)? {
            policy.set_value(field, value);
        }
        let position = c.position.map_or(Pos::default(), |p| p.0);
        combatants.push(Sheet {
            id: c.id.get_ref().clone(),
            side: SideId(side as u16),
            player: c.player,
            stats,
            size,
            pc,
            w: w.min(pc),
            s: {
                // S starts at, and never exceeds, PC, or `s_max` under `stress_max = sheet`.
                let cap = if options.stress_max_sheet { s_max } else { pc };
                s_now.min(cap)
            },
            s_max,
            tactics,
            move_m: match &c.move_m {
                Some(m) if !(m.get_ref().is_finite() && *m.get_ref() >= 0.0) => {
                    return Err(err(m.span(), format!("expected a Move of 0 or more metres, found {}", m.get_ref())));
                }
                Some(m) => *m.get_ref(),
                None => 4.0,
            },
            skills,
            items,
            armor,
            position,
            policy,
            hidden: c.hidden,
            stabilized: c.stabilized,
            defence_skills: [SkillRef::Common; 3],
            item_skills: Vec::new(),
            item_groups: Vec::new(),
        });
        combatants.last_mut().expect("just pushed").resolve_skills();
    }
    crate::scenario::two_sides(file, text, &sides)?;
    // A combatant's number is 16 bits. (The audit's mutant `==` is not killed by a test: one
    // needs 65536 combatants, 40 seconds to load in the test profile. TESTING.md.)
    if combatants.len() > usize::from(u16::MAX) {
        return Err(ScenarioError::at(file, text, 0..0, "too many combatants"));
    }
    Ok(Setup { options, sides, combatants, max_rounds, joins_late: 0 })
}

fn tier(
    tier: &Option<Spanned<i32>>,
    err: &impl Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<Option<i32>, ScenarioError> {
    match tier {
        Some(t) if !(1..=5).contains(t.get_ref()) => {
            Err(err(t.span(), format!("expected a tier from 1 to 5, found {}", t.get_ref())))
        }
        Some(t) => Ok(Some(*t.get_ref())),
        None => Ok(None),
    }
}

fn size_value(
    size: &Spanned<SizeToml>,
    weights: [i32; 3],
    err: &impl Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<i32, ScenarioError> {
    match size.get_ref() {
        SizeToml::Number(n) if (0..=5).contains(n) => Ok(*n),
        SizeToml::Number(n) => Err(err(size.span(), format!("expected a size from 0 to 5, found {n}"))),
        // FLUID-SIZE-1: the weight words, by `weight_sizes` (light 2, medium 3, heavy 4).
        SizeToml::Word(w) => match w.as_str() {
            "light" => Ok(weights[0]),
            "medium" => Ok(weights[1]),
            "heavy" => Ok(weights[2]),
            other => Err(err(size.span(), format!("expected a size 0 to 5 or light, medium, heavy; found `{other}`"))),
        },
    }
}

/// The largest PC, W and S a sheet may give (far above any character's, far below overflow).
const MAX_TRACK: i32 = 1000;
/// The largest Tactics score, either way.
const MAX_TACTICS: i32 = 50;
/// The largest skill rank.
const MAX_RANK: i32 = 30;
/// The largest skill value.
const MAX_SKILL: i32 = 60;
/// The largest OQ or DQ, either way.
const MAX_QUALITY: i32 = 20;
/// The largest fixed damage.
const MAX_DAMAGE: i32 = 1000;
/// The largest armour value.
const MAX_AV: i32 = 100;

/// A number of the sheet within `range`, or `default` when absent.
fn bounded(
    value: &Option<Spanned<i32>>,
    what: &str,
    range: std::ops::RangeInclusive<i32>,
    default: i32,
    err: &impl Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<i32, ScenarioError> {
    match value {
        None => Ok(default),
        Some(v) if range.contains(v.get_ref()) => Ok(*v.get_ref()),
        Some(v) => Err(err(
            v.span(),
            format!("expected {what} from {} to {}, found {}", range.start(), range.end(), v.get_ref()),
        )),
    }
}

fn amount(
    value: &Option<Spanned<AmountToml>>,
    err: &impl Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<Amount, ScenarioError> {
    match value {
        None => Ok(Amount::Fixed(0)),
        Some(v) => match v.get_ref() {
            AmountToml::Number(n) if !(0..=MAX_DAMAGE).contains(n) => {
                Err(err(v.span(), format!("expected a damage from 0 to {MAX_DAMAGE}, found {n}")))
            }
            AmountToml::Number(n) => Ok(Amount::Fixed(*n)),
            AmountToml::Word(expr) => {
                let program = fray_dice::Program::parse(expr).map_err(|e| {
                    let offset = v.span().start + 1 + e.span().start;
                    err(offset..offset + (e.span().end - e.span().start).max(1), e.kind().to_string())
                })?;
                if program.is_tuple() {
                    return Err(err(v.span(), "damage must be a number, not a tuple of counts".into()));
                }
                Ok(Amount::Dice(program))
            }
        },
    }
}
