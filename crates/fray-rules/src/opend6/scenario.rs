//! Reading an `opend6` scenario file into a validated [`Setup`].

use super::options::Options;
use super::setup::{
    ATTRIBUTES, Armor, Cover, DamageType, DieCode, Gravity, LEVELS, Level, POLICIES, Policy, Posture, SKILLS, Setup,
    Sheet, SkillId, Weapon,
};
use crate::did_you_mean;
use crate::scenario::ScenarioError;
use fray_engine::SideId;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The round cap when a scenario gives none.
pub const DEFAULT_MAX_ROUNDS: u32 = 100;

type Code = Spanned<String>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    rules: Rules,
    combatants: Vec<Spanned<CombatantToml>>,
    #[serde(default)]
    cover: Vec<Spanned<PairCover>>,
    #[serde(default)]
    bands: Vec<Spanned<PairBand>>,
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
    max_rounds: Option<Spanned<u32>>,
    gravity: Option<Spanned<String>>,
    order: Option<Vec<Spanned<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatantToml {
    name: Spanned<String>,
    side: String,
    group: Option<Spanned<String>>,
    #[serde(default)]
    hero: bool,
    agility: Option<Code>,
    mechanical: Option<Code>,
    strength: Option<Code>,
    knowledge: Option<Code>,
    perception: Option<Code>,
    technical: Option<Code>,
    #[serde(default)]
    skills: BTreeMap<Spanned<String>, Code>,
    #[serde(default)]
    governing: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(rename = "move")]
    move_m: Option<Spanned<i64>>,
    actions_allotment: Option<Spanned<i64>>,
    character_points: Option<Spanned<u32>>,
    fate_points: Option<Spanned<u32>>,
    wound_level: Option<Spanned<String>>,
    body_points_max: Option<Spanned<u32>>,
    #[serde(default)]
    strength_damage_mod: i32,
    resistance_mod: Option<Code>,
    #[serde(default)]
    block_bladed: bool,
    #[serde(default)]
    takedown_training: bool,
    medkit: Option<Code>,
    #[serde(default)]
    surprise: bool,
    position: Option<Spanned<i64>>,
    posture: Option<Spanned<String>>,
    #[serde(default)]
    weapons: Vec<Spanned<WeaponToml>>,
    armor: Option<ArmorToml>,
    #[serde(default)]
    blind: bool,
    cover: Option<Spanned<CoverToml>>,
    #[serde(default)]
    policy: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WeaponToml {
    name: String,
    skill: Spanned<String>,
    damage: Code,
    #[serde(default)]
    strength_plus: bool,
    damage_type: Option<Spanned<String>>,
    ranges: Option<Spanned<Vec<u32>>>,
    long: Option<Spanned<bool>>,
    reach_short_m: Option<u32>,
    #[serde(default)]
    sharp: bool,
    #[serde(default)]
    blunt: bool,
    #[serde(default)]
    stun_capable: bool,
    stun: Option<Spanned<bool>>,
    rate: Option<Spanned<u8>>,
    #[serde(default)]
    quick: bool,
    #[serde(default)]
    burst: bool,
    #[serde(default)]
    full_auto: bool,
    multi_fire_max: Option<Spanned<u8>>,
    ammo_max: Option<Spanned<u32>>,
    ammo: Option<Spanned<u32>>,
    burst_ammo: Option<Spanned<u32>>,
    auto_ammo: Option<Spanned<u32>>,
    difficulty_mod: Option<Spanned<i32>>,
    drawn: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmorToml {
    physical: Option<Code>,
    energy: Option<Code>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoverToml {
    smoke: Option<Spanned<String>>,
    light: Option<Spanned<String>>,
    object: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PairCover {
    attacker: Spanned<String>,
    target: Spanned<String>,
    smoke: Option<Spanned<String>>,
    light: Option<Spanned<String>>,
    object: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PairBand {
    a: Spanned<String>,
    b: Spanned<String>,
    band: Spanned<String>,
}

/// Reads an `opend6` scenario. `sets` are `--set name=value` overrides, applied after the file.
pub fn load(file: &str, text: &str, sets: &[(String, String)]) -> Result<Setup, ScenarioError> {
    let parsed: File = toml::from_str(text).map_err(|e| ScenarioError::from_toml(file, text, &e))?;
    let err = |span: std::ops::Range<usize>, message: String| ScenarioError::at(file, text, span, message);
    let code = |c: &Code| DieCode::parse(c.get_ref()).map_err(|m| err(c.span(), m));
    let word = |w: &Spanned<String>, choices: &[&str], what: &str| crate::scenario::word(file, text, w, choices, what);

    let mut options = Options::default();
    crate::scenario::apply_options(file, text, &parsed.rules.options, sets, |n, v| options.set(n, v))?;
    let max_rounds = match &parsed.rules.max_rounds {
        Some(cap) if !(1..=100_000).contains(cap.get_ref()) => {
            return Err(err(cap.span(), format!("expected a round cap from 1 to 100000, found {}", cap.get_ref())));
        }
        Some(cap) => *cap.get_ref(),
        None => DEFAULT_MAX_ROUNDS,
    };
    let gravity = match &parsed.rules.gravity {
        None => Gravity::Normal,
        Some(g) => [Gravity::Normal, Gravity::Low, Gravity::Zero, Gravity::Heavy]
            [word(g, &["normal", "low", "zero", "heavy"], "gravity")?],
    };

    let smoke_words = ["none", "light", "thick", "very_thick"];
    let light_words = ["normal", "poor", "moonlit", "dark"];
    let object = |o: &Option<Spanned<u32>>| -> Result<u8, ScenarioError> {
        match o {
            None => Ok(0),
            Some(v) if [0, 25, 50, 75, 100].contains(v.get_ref()) => Ok(*v.get_ref() as u8),
            Some(v) => {
                Err(err(v.span(), format!("expected a cover of 0, 25, 50, 75 or 100 (%), found {}", v.get_ref())))
            }
        }
    };
    let step = |w: &Option<Spanned<String>>, words: &[&str], what: &str| -> Result<u8, ScenarioError> {
        w.as_ref().map_or(Ok(0), |w| word(w, words, what).map(|i| i as u8))
    };

    let mut sides: Vec<String> = Vec::new();
    let mut combatants: Vec<Sheet> = Vec::new();
    for spanned in &parsed.combatants {
        let c = spanned.get_ref();
        if combatants.iter().any(|s| &s.name == c.name.get_ref()) {
            return Err(err(c.name.span(), format!("a second combatant named `{}`", c.name.get_ref())));
        }
        let side = crate::scenario::enlist(file, text, &mut sides, c.name.get_ref(), &c.side, spanned.span())?;
        // An initiative group rolls once for its members (OD6-INIT-3): they must share a side.
        if let Some(g) = &c.group
            && let Some(other) = combatants.iter().find(|o: &&Sheet| o.group.as_ref() == Some(g.get_ref()))
            && other.side != SideId(side as u16)
        {
            return Err(err(
                g.span(),
                format!(
                    "group `{}` already holds `{}` of another side: a group is one side's",
                    g.get_ref(),
                    other.name
                ),
            ));
        }
        // Counts beyond these bounds are refused, not silently cut.
        let count = |v: &Option<Spanned<u32>>, max: u32, what: &str| -> Result<u32, ScenarioError> {
            match v {
                Some(n) if *n.get_ref() > max => {
                    Err(err(n.span(), format!("expected {what} of 0 to {max}, found {}", n.get_ref())))
                }
                Some(n) => Ok(*n.get_ref()),
                None => Ok(0),
            }
        };
        let cp = count(&c.character_points, 1000, "Character Points")?;
        let fp = count(&c.fate_points, 100, "Fate Points")?;
        let mut attributes = [DieCode::new(3, 0); 6];
        for (i, given) in
            [&c.agility, &c.mechanical, &c.strength, &c.knowledge, &c.perception, &c.technical].into_iter().enumerate()
        {
            if let Some(g) = given {
                attributes[i] = code(g)?;
            }
        }
        let mut skills = [None; 13];
        for (name, value) in &c.skills {
            let Some(id) = SkillId::from_name(name.get_ref()) else {
                let names: Vec<&str> = SKILLS.iter().map(|s| s.0).collect();
                let hint = did_you_mean(name.get_ref(), names.iter().copied())
                    .map_or(String::new(), |s| format!("; did you mean `{s}`?"));
                return Err(err(
                    name.span(),
                    format!("unknown skill `{}`, expected one of {}{hint}", name.get_ref(), names.join(", ")),
                ));
            };
            skills[id.0 as usize] = Some(code(value)?);
        }
        let mut governing = SKILLS.map(|s| s.1);
        for (name, attribute) in &c.governing {
            let names: Vec<&str> = SKILLS.iter().map(|s| s.0).collect();
            let skill = word(name, &names, "skill")?;
            governing[skill] = word(attribute, &ATTRIBUTES, "attribute")?;
        }
        let move_m = match &c.move_m {
            Some(m) if !(0..=1000).contains(m.get_ref()) => {
                return Err(err(m.span(), format!("expected a Move of 0 to 1000 m, found {}", m.get_ref())));
            }
            Some(m) => *m.get_ref() as i32,
            None => 10,
        };
        let allotment = match &c.actions_allotment {
            Some(a) if !(1..=9).contains(a.get_ref()) => {
                return Err(err(a.span(), format!("expected an allotment of 1 to 9, found {}", a.get_ref())));
            }
            Some(a) => *a.get_ref() as i32,
            None => 1,
        };
        let level = match &c.wound_level {
            Some(w) => {
                let names: Vec<&str> = LEVELS.iter().map(|l| l.name()).collect();
                LEVELS[word(w, &names, "wound level")?]
            }
            None => Level::Healthy,
        };
        let body_points_max = match &c.body_points_max {
            Some(b) if *b.get_ref() == 0 || *b.get_ref() > 10_000 => {
                return Err(err(b.span(), format!("expected Body Points of 1 to 10000, found {}", b.get_ref())));
            }
            Some(b) => Some(*b.get_ref()),
            None => None,
        };
        let position = match &c.position {
            Some(p) if !(-1000..=1000).contains(p.get_ref()) => {
                return Err(err(p.span(), format!("expected a position of −1000 to 1000 m, found {}", p.get_ref())));
            }
            Some(p) => *p.get_ref() as i32,
            None => 0,
        };
        let posture = match &c.posture {
            Some(p) => [Posture::Standing, Posture::Crouching, Posture::Prone]
                [word(p, &["standing", "crouching", "prone"], "posture")?],
            None => Posture::Standing,
        };
        let mut weapons = Vec::new();
        for w in &c.weapons {
            let wt = w.get_ref();
            let skill_names = ["firearms", "gunnery", "missile_weapons", "throwing", "melee_combat", "brawling"];
            let skill = SkillId::from_name(skill_names[word(&wt.skill, &skill_names, "weapon skill")?])
                .unwrap_or(SkillId::BRAWLING);
            let damage_type = match &wt.damage_type {
                Some(d) => [DamageType::Physical, DamageType::Energy][word(d, &["physical", "energy"], "damage type")?],
                None => DamageType::Physical,
            };
            let ranges = match &wt.ranges {
                None => None,
                Some(r) => {
                    let v = r.get_ref();
                    if v.len() != 3 || v[0] >= v[1] || v[1] >= v[2] || v[2] > 100_000 {
                        return Err(err(
                            r.span(),
                            "expected three increasing range limits in metres, e.g. [10, 30, 120]".into(),
                        ));
                    }
                    Some([v[0], v[1], v[2]])
                }
            };
            let stun = wt.stun.as_ref().is_some_and(|s| *s.get_ref());
            if let Some(s) = &wt.stun
                && stun
                && !wt.stun_capable
            {
                return Err(err(s.span(), "a weapon on stun needs `stun_capable = true`".into()));
            }
            if let Some(r) = &wt.rate
                && *r.get_ref() == 0
            {
                return Err(err(r.span(), "expected a rate of at least 1".into()));
            }
            let ammo_max = wt.ammo_max.as_ref().map(|a| *a.get_ref());
            let ammo = match (&wt.ammo, ammo_max) {
                (Some(a), Some(max)) if *a.get_ref() > max => {
                    return Err(err(
                        a.span(),
                        format!("expected at most ammo_max = {max} rounds, found {}", a.get_ref()),
                    ));
                }
                (Some(a), Some(_)) => Some(*a.get_ref()),
                (Some(a), None) => return Err(err(a.span(), "`ammo` needs `ammo_max`".into())),
                (None, max) => max,
            };
            let long = match &wt.long {
                // Reach (OD6-MOVE-5) is for close-combat weapons without ranges.
                Some(l)
                    if *l.get_ref() && (ranges.is_some() || !matches!(skill, SkillId::MELEE | SkillId::BRAWLING)) =>
                {
                    return Err(err(l.span(), "`long` is for melee or brawling weapons without `ranges`".into()));
                }
                Some(l) => *l.get_ref(),
                None => false,
            };
            let multi_fire_max = match &wt.multi_fire_max {
                Some(m) if *m.get_ref() > 10 => {
                    return Err(err(m.span(), format!("expected a multi_fire_max of 0 to 10, found {}", m.get_ref())));
                }
                Some(m) => *m.get_ref(),
                None => 0,
            };
            let difficulty_mod = match &wt.difficulty_mod {
                Some(d) if !(-100..=100).contains(d.get_ref()) => {
                    return Err(err(
                        d.span(),
                        format!("expected a difficulty_mod of −100 to 100, found {}", d.get_ref()),
                    ));
                }
                Some(d) => *d.get_ref(),
                None => 0,
            };
            // A burst or full-auto attack must fit in a full magazine (OD6-GEAR-1): else the
            // mode could never be used, and an AI would reload a full weapon forever.
            let burst_ammo = wt.burst_ammo.as_ref().map_or(3, |b| *b.get_ref());
            let auto_ammo = wt.auto_ammo.as_ref().map_or(10, |a| *a.get_ref());
            if let Some(max) = ammo_max {
                for (on, need, given, what) in [
                    (wt.burst, burst_ammo, &wt.burst_ammo, "burst_ammo"),
                    (wt.full_auto, auto_ammo, &wt.auto_ammo, "auto_ammo"),
                ] {
                    if on && need > max {
                        let span = given.as_ref().or(wt.ammo_max.as_ref()).map_or(w.span(), |s| s.span());
                        return Err(err(
                            span,
                            format!("{what} = {need} rounds does not fit in ammo_max = {max} (OD6-GEAR-1)"),
                        ));
                    }
                }
            }
            weapons.push(Weapon {
                name: wt.name.clone(),
                skill,
                damage: code(&wt.damage)?,
                strength_plus: wt.strength_plus,
                damage_type,
                ranges,
                long,
                reach_short_m: wt.reach_short_m.unwrap_or(5),
                sharp: wt.sharp,
                blunt: wt.blunt,
                stun_capable: wt.stun_capable,
                stun,
                rate: wt.rate.as_ref().map_or(1, |r| *r.get_ref()),
                quick: wt.quick,
                burst: wt.burst,
                full_auto: wt.full_auto,
                multi_fire_max,
                ammo_max,
                ammo,
                burst_ammo,
                auto_ammo,
                difficulty_mod,
                drawn: wt.drawn.unwrap_or(true),
            });
        }
        if weapons.len() > 3 {
            return Err(err(spanned.span(), "at most three weapons besides the fists".into()));
        }
        weapons.push(Weapon::unarmed());
        let armor = match &c.armor {
            Some(a) => Armor {
                physical: a.physical.as_ref().map(code).transpose()?.unwrap_or_default(),
                energy: a.energy.as_ref().map(code).transpose()?.unwrap_or_default(),
            },
            None => Armor::default(),
        };
        let cover = match &c.cover {
            Some(cv) => {
                let cv = cv.get_ref();
                Cover {
                    smoke: step(&cv.smoke, &smoke_words, "smoke")?,
                    light: step(&cv.light, &light_words, "light")?,
                    object: object(&cv.object)?,
                }
            }
            None => Cover::default(),
        };
        let mut policy = Policy::default();
        for (field, v) in crate::scenario::policy_choices(file, text, &c.policy, POLICIES)? {
            match field {
                0 => policy.actions = v,
                1 => policy.target = v,
                2 => policy.option = v,
                3 => policy.points = v,
                _ => policy.movement = v,
            }
        }
        let mut sheet = Sheet {
            name: c.name.get_ref().clone(),
            side: SideId(side as u16),
            group: c.group.as_ref().map(|g| g.get_ref().clone()),
            hero: c.hero,
            attributes,
            skills,
            governing,
            move_m,
            allotment,
            cp,
            fp,
            level,
            body_points_max,
            strength_damage_mod: c.strength_damage_mod.clamp(-10, 10),
            resistance_mod: c.resistance_mod.as_ref().map(code).transpose()?.unwrap_or_default(),
            block_bladed: c.block_bladed,
            takedown_training: c.takedown_training,
            medkit: c.medkit.as_ref().map(code).transpose()?.unwrap_or_default(),
            surprise: c.surprise,
            position,
            posture,
            weapons,
            armor,
            blind: c.blind,
            cover,
            policy,
            codes: [DieCode::default(); 13],
        };
        sheet.codes = sheet.resolve_codes();
        combatants.push(sheet);
    }
    if combatants.is_empty() {
        return Err(ScenarioError::whole(file, "expected at least one combatant"));
    }
    let find = |name: &Spanned<String>| -> Result<usize, ScenarioError> {
        combatants.iter().position(|c| &c.name == name.get_ref()).ok_or_else(|| {
            let hint = did_you_mean(name.get_ref(), combatants.iter().map(|c| c.name.as_str()))
                .map_or(String::new(), |s| format!("; did you mean `{s}`?"));
            err(name.span(), format!("no combatant named `{}`{hint}", name.get_ref()))
        })
    };
    let mut cover_pairs = Vec::new();
    for pair in &parsed.cover {
        let p = pair.get_ref();
        let cover = Cover {
            smoke: step(&p.smoke, &smoke_words, "smoke")?,
            light: step(&p.light, &light_words, "light")?,
            object: object(&p.object)?,
        };
        cover_pairs.push((find(&p.attacker)?, find(&p.target)?, cover));
    }
    let mut bands = Vec::new();
    for pair in &parsed.bands {
        let p = pair.get_ref();
        let band = word(&p.band, &["point_blank", "short", "medium", "long"], "range band")? as u8;
        bands.push((find(&p.a)?, find(&p.b)?, band));
    }
    let fixed_order = match &parsed.rules.order {
        Some(names) => {
            let mut order = Vec::new();
            for name in names {
                let i = find(name)?;
                if order.contains(&i) {
                    return Err(err(name.span(), format!("`{}` is twice in the order", name.get_ref())));
                }
                order.push(i);
            }
            let rest: Vec<usize> = (0..combatants.len()).filter(|i| !order.contains(i)).collect();
            order.extend(rest);
            order
        }
        None => (0..combatants.len()).collect(),
    };
    // Body Points rolled at the start are set when the fight begins; a given maximum is kept.
    crate::scenario::two_sides(file, text, &sides)?;
    Ok(Setup { options, sides, combatants, cover_pairs, bands, fixed_order, gravity, max_rounds, joins_late: 0 })
}
