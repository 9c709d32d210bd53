//! `fray rules`: the rulesets, and one ruleset's options (each with its plain meaning and the
//! rulebook clauses it comes from), AI policies and scenario fields, as text that fits a
//! 100-column terminal or as JSON.

use anyhow::{Result, bail};
use fray_rules::{RULESETS, RulesetInfo};
use serde_json::json;
use std::io::Write;

/// The width `fray rules` fits its text to.
pub const WIDTH: usize = 100;

/// Flags of `fray rules`.
#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    /// A ruleset id; without it, the list of rulesets.
    pub id: Option<String>,
    /// Print one JSON object: the options (name, default, alternatives, meaning, clauses), the AI
    /// policies and the scenario fields.
    #[arg(long)]
    pub json: bool,
}

/// The ruleset called `id`, or an error naming the rulesets (and the closest one).
pub fn find(id: &str) -> Result<&'static RulesetInfo> {
    if let Some(ruleset) = RULESETS.iter().find(|r| r.id == id) {
        return Ok(ruleset);
    }
    let known: Vec<&str> = RULESETS.iter().map(|r| r.id).collect();
    match fray_rules::did_you_mean(&id.to_lowercase(), known.iter().copied()) {
        Some(close) => bail!("unknown ruleset `{id}`; did you mean `{close}`? The rulesets are {}", known.join(", ")),
        None => bail!("unknown ruleset `{id}`; the rulesets are {}", known.join(", ")),
    }
}

/// `text` wrapped at word boundaries to lines of at most `width` characters (a word longer than
/// that stands alone), each line after `indent`.
pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let len = |s: &str| s.chars().count();
        if !line.is_empty() && len(indent) + len(&line) + 1 + len(word) > width {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(indent);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Runs `fray rules`.
pub fn run(args: &RulesArgs, out: &mut impl Write) -> Result<()> {
    let Some(id) = &args.id else {
        if args.json {
            let list: Vec<_> = RULESETS.iter().map(|r| json!({"id": r.id, "summary": r.summary})).collect();
            writeln!(out, "{}", serde_json::Value::Array(list))?;
        } else {
            for ruleset in RULESETS {
                let summary = wrap(ruleset.summary, WIDTH - 12, "");
                for (i, line) in summary.lines().enumerate() {
                    writeln!(out, "{:<11} {line}", if i == 0 { ruleset.id } else { "" })?;
                }
            }
            writeln!(out, "\n`fray rules ID` lists a ruleset's options and AI policies.")?;
        }
        return Ok(());
    };
    let ruleset = find(id)?;
    match args.json {
        true => writeln!(out, "{}", json(ruleset))?,
        false => write!(out, "{}", text(ruleset))?,
    }
    Ok(())
}

/// A ruleset's options and policies as text for a terminal of [`WIDTH`] columns.
pub fn text(ruleset: &RulesetInfo) -> String {
    let mut out = wrap(&format!("{} — {}", ruleset.id, ruleset.summary), WIDTH, "");
    out.push('\n');
    out.push_str(&wrap(
        "Options, set under [rules.options] in a scenario or with --set NAME=VALUE. Each shows its default, \
         what it decides, its other values, and on the right the rulebook clauses it comes from.",
        WIDTH,
        "",
    ));
    for option in ruleset.options {
        out.push('\n');
        let head = format!("  {} = {}", option.name, option.default);
        let source = format!("from the rulebook: {}", option.clauses);
        let (head_len, source_len) = (head.chars().count(), source.chars().count());
        if head_len + 2 + source_len <= WIDTH {
            out.push_str(&format!("{head}{}{source}\n", " ".repeat(WIDTH - head_len - source_len)));
        } else {
            out.push_str(&head);
            out.push('\n');
            out.push_str(&wrap(&source, WIDTH, &" ".repeat(WIDTH.saturating_sub(source_len).max(6))));
        }
        out.push_str(&wrap(option.meaning, WIDTH, "      "));
        out.push_str(&wrap(&format!("Other values: {}.", option.alternatives), WIDTH, "      "));
    }
    out.push('\n');
    out.push_str(&wrap(
        "AI policies, set per combatant with policy = { FIELD = \"VALUE\" }; the first value is the default.",
        WIDTH,
        "",
    ));
    for (field, values) in ruleset.policies {
        out.push('\n');
        out.push_str(&wrap(&format!("{field}: {}", values.join(", ")), WIDTH, "  "));
        if let Some(info) = ruleset.guide.policies.iter().find(|p| p.field == *field) {
            out.push_str(&wrap(&info.meaning.replace('`', ""), WIDTH, "      "));
        }
    }
    out.push('\n');
    out.push_str(&wrap(
        &format!(
            "The user guide's page docs/rulesets/{}.md lists every scenario field; `fray rules {} --json` gives all \
             of this as JSON.",
            ruleset.id, ruleset.id
        ),
        WIDTH,
        "",
    ));
    out
}

/// A ruleset's options, policies and scenario fields as one JSON object.
pub fn json(ruleset: &RulesetInfo) -> serde_json::Value {
    let options: Vec<_> = ruleset
        .options
        .iter()
        .map(|o| {
            json!({"name": o.name, "default": o.default, "alternatives": o.alternatives, "meaning": o.meaning,
                   "clauses": o.clauses})
        })
        .collect();
    let policies: Vec<_> = ruleset
        .policies
        .iter()
        .map(|(field, values)| {
            let meaning = ruleset.guide.policies.iter().find(|p| p.field == *field).map(|p| p.meaning);
            json!({"field": field, "values": values, "default": values.first(), "meaning": meaning})
        })
        .collect();
    let fields: Vec<_> = ruleset
        .guide
        .fields
        .iter()
        .map(|f| {
            json!({"table": f.table, "key": f.key, "type": f.kind, "default": f.default, "allowed": f.allowed,
                   "meaning": f.meaning})
        })
        .collect();
    json!({"id": ruleset.id, "summary": ruleset.summary, "turn": ruleset.guide.turn, "options": options,
           "policies": policies, "fields": fields})
}
