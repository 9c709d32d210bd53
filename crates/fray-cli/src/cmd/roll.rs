//! `fray roll`: roll an expression with a seeded portable generator and show every die.

use anyhow::Result;
use fray_dice::{DiceGroup, DieRole, GENERATOR, Program, Value, WildFate, seeded};
use serde_json::json;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;

/// Flags of `fray roll`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The dice expression, e.g. "4d6kh3" or "4D+2".
    pub expr: String,
    /// Seed of the ChaCha8 generator; the same seed gives the same roll. Random when omitted (and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A fresh seed when the user gives none: the standard library's per-process random hash keys.
fn fresh_seed() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(0x6672_6179);
    hasher.finish()
}

/// Runs `fray roll`.
pub fn run(args: &Args, out: &mut impl Write) -> Result<()> {
    let program = Program::parse(&args.expr)?;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let roll = program.roll(&mut seeded(seed))?;
    if args.json {
        let groups: Vec<_> = roll.groups.iter().map(group_json).collect();
        let doc = json!({
            "expr": args.expr,
            "seed": seed,
            "generator": GENERATOR,
            "value": value_json(&roll.value),
            "groups": groups,
        });
        writeln!(out, "{doc}")?;
        return Ok(());
    }
    writeln!(out, "{} = {}", program, roll.value)?;
    for group in &roll.groups {
        writeln!(out, "  {}", group_text(group))?;
    }
    writeln!(out, "  (seed {seed}, {GENERATOR})")?;
    Ok(())
}

pub(crate) fn value_json(value: &Value) -> serde_json::Value {
    match value {
        Value::Int(v) => json!(v),
        Value::Counts(c) => json!(c.as_slice()),
    }
}

fn role_name(role: DieRole) -> &'static str {
    match role {
        DieRole::Regular => "regular",
        DieRole::Explosion => "explosion",
        DieRole::Wild => "wild",
    }
}

fn fate_text(fate: WildFate) -> (&'static str, String) {
    match fate {
        WildFate::Plain => ("plain", String::new()),
        WildFate::Exploded => ("exploded", "Wild Die exploded (Critical Success)".to_owned()),
        WildFate::CriticalFailure { cancelled: Some(i) } => {
            ("critical_failure", format!("Wild 1: Critical Failure, cancels itself and die {}", i + 1))
        }
        WildFate::CriticalFailure { cancelled: None } => {
            ("critical_failure", "Wild 1: Critical Failure, only pips remain".to_owned())
        }
        WildFate::Complication => ("complication", "Wild 1: a complication (the 1 counts)".to_owned()),
    }
}

fn group_json(group: &DiceGroup) -> serde_json::Value {
    let dice: Vec<_> = group
        .dice
        .iter()
        .map(|d| {
            json!({
                "sides": d.sides,
                "tosses": d.tosses,
                "value": d.value,
                "kept": d.kept,
                "role": role_name(d.role),
            })
        })
        .collect();
    let mut doc = json!({
        "notation": group.notation,
        "span": [group.span.start, group.span.end],
        "value": value_json(&group.value),
        "dice": dice,
    });
    if let Some(fate) = group.wild {
        doc["wild"] = json!(fate_text(fate).0);
    }
    doc
}

/// `4d6kh3: 5 (2) 6 6 = 17`: dropped dice in parentheses, a chain as `6+6+3`, the Wild Die as `W6+2`.
fn group_text(group: &DiceGroup) -> String {
    let dice: Vec<String> = group
        .dice
        .iter()
        .map(|d| {
            let chain = d.tosses.iter().map(u32::to_string).collect::<Vec<_>>().join("+");
            let chain = if d.role == DieRole::Wild { format!("W{chain}") } else { chain };
            if d.kept { chain } else { format!("({chain})") }
        })
        .collect();
    let mut text = format!("{}: {} = {}", group.notation, dice.join(" "), group.value);
    if let Some(fate) = group.wild {
        let note = fate_text(fate).1;
        if !note.is_empty() {
            text += &format!("   [{note}]");
        }
    }
    text
}
