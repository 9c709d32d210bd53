//! Scenario files: the errors they give (file, line, column, what was expected) and the
//! dispatch on `[rules] ruleset`.

use crate::did_you_mean;
use std::fmt;
use std::ops::Range;

/// A problem in a scenario file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The file name as given.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong and what was expected.
    pub message: String,
    /// The offending line's text.
    pub source_line: String,
    /// Width of the caret underline, in characters.
    pub width: usize,
}

impl ScenarioError {
    /// An error at a byte span of `text`.
    pub fn at(file: &str, text: &str, span: Range<usize>, message: impl Into<String>) -> ScenarioError {
        let start = span.start.min(text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line = text[..start].matches('\n').count() + 1;
        let column = text[line_start..start].chars().count() + 1;
        let end = span.end.clamp(start, line_end);
        let width = text[start..end].chars().count().max(1);
        ScenarioError {
            file: file.to_owned(),
            line,
            column,
            message: suggestion_first(message.into()),
            source_line: text[line_start..line_end].trim_end_matches('\r').to_owned(),
            width,
        }
    }

    /// An error about the file as a whole (it cannot be read).
    pub fn whole(file: &str, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            file: file.to_owned(),
            line: 1,
            column: 1,
            message: message.into(),
            source_line: String::new(),
            width: 1,
        }
    }

    /// An error from the TOML parser or the deserializer, with "did you mean" for unknown keys.
    pub fn from_toml(file: &str, text: &str, err: &toml::de::Error) -> ScenarioError {
        let mut message = plain_types(err.message().trim());
        if let Some(rest) = message.strip_prefix("unknown field `") {
            let unknown = rest.split('`').next().unwrap_or("");
            let expected: Vec<&str> = rest.split('`').skip(2).step_by(2).collect();
            // The rulesets name a few keys differently (their source texts do): a key another
            // ruleset uses points to this one's word for it.
            const SYNONYMS: [[&str; 2]; 4] =
                [["name", "id"], ["armour", "armor"], ["hero", "player"], ["weapon", "items"]];
            let synonym = SYNONYMS.iter().find_map(|pair| {
                let other = pair.iter().position(|k| *k == unknown)?;
                let ours = pair[1 - other];
                expected.contains(&ours).then_some(ours)
            });
            // The suggestion comes first, the list of keys after it.
            let list = message.split_once(", expected ").map_or(String::new(), |(_, l)| format!(" (expected {l})"));
            if let Some(ours) = synonym {
                message = format!("unknown field `{unknown}`; this ruleset calls it `{ours}`{list}");
            } else if let Some(close) = did_you_mean(unknown, expected.iter().copied()) {
                message = format!("unknown field `{unknown}`; did you mean `{close}`?{list}");
            } else if ["max_rounds", "max_turns", "max_ticks", "round_cap", "tick_cap", "cap"].contains(&unknown) {
                message = format!(
                    "{message}; a fight's cap is `max_rounds` under [rules] in fluid and opend6, `max_turns` in \
                     hardboiled, and the option `round_cap` (phasesix) or `tick_cap` (ticks) under [rules.options]"
                );
            }
        }
        ScenarioError::at(file, text, err.span().unwrap_or(0..0), message)
    }
}

/// "X, expected one of A, B; did you mean `A`?" said with the suggestion first: "X; did you mean
/// `A`? (expected one of A, B)", so that a long list does not hide it.
fn suggestion_first(message: String) -> String {
    let Some((before, hint)) = message.rsplit_once("; did you mean `") else { return message };
    let Some((head, list)) = before.split_once(", expected one of ") else { return message };
    if !hint.ends_with("`?") || hint.contains('\n') {
        return message;
    }
    format!("{head}; did you mean `{hint} (expected one of {list})")
}

/// A deserializer's message with Rust's type names said in words: "expected u32" becomes
/// "expected a whole number of 0 or more".
fn plain_types(message: &str) -> String {
    // TOML integers beyond 64 bits reach the deserializer "as i128".
    let mut out = message
        .replace("invalid type: integer `", "integer `")
        .replace("` as i128, expected", "` is too large, expected");
    for (rust, words) in [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number of 0 or more"),
        ("usize", "a whole number of 0 or more"),
        ("i8", "a whole number from -128 to 127"),
        ("i16", "a whole number from -32768 to 32767"),
        ("i32", "a whole number from -2147483648 to 2147483647"),
        ("i64", "a whole number"),
        ("i128", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
    ] {
        let from = format!("expected {rust}");
        let mut at = 0;
        while let Some(i) = out[at..].find(&from).map(|i| i + at) {
            let end = i + from.len();
            if out[end..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
                at = end;
                continue;
            }
            let with = format!("expected {words}");
            out.replace_range(i..end, &with);
            at = i + with.len();
        }
    }
    out
}

/// The most characters of a source line an error shows (a value may be megabytes).
const SHOWN: usize = 200;

/// The most characters of a message an error shows (a message may quote a value).
const MESSAGE_SHOWN: usize = 2000;

/// At most `take` characters of `s` from character `from`, with "…" where text is left out.
fn window(s: &str, from: usize, take: usize) -> String {
    let total = s.chars().count();
    let mut out: String = s.chars().skip(from).take(take).collect();
    if from > 0 {
        out.insert(0, '…');
    }
    if from + take < total {
        out.push('…');
    }
    out
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, window(&self.message, 0, MESSAGE_SHOWN))?;
        if !self.source_line.is_empty() {
            let number = self.line.to_string();
            // Long lines are shown from a little before the column.
            let from = (self.column - 1).saturating_sub(SHOWN / 4);
            let shown = window(&self.source_line, from, SHOWN);
            let caret_at = self.column - 1 - from + usize::from(from > 0);
            let width = self.width.min(SHOWN);
            write!(f, "\n{} | {}", number, shown)?;
            write!(f, "\n{} | {}{}", " ".repeat(number.len()), " ".repeat(caret_at), "^".repeat(width))?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioError {}

/// Applies a scenario's `[rules.options]` and then the `--set` overrides with a ruleset's setter
/// (`set(name, value)`). A bad option in the file is reported at its name (an unknown option) or
/// its value; a bad `--set` names itself.
pub fn apply_options(
    file: &str,
    text: &str,
    in_file: &std::collections::BTreeMap<toml::Spanned<String>, toml::Spanned<toml::Value>>,
    sets: &[(String, String)],
    mut set: impl FnMut(&str, &str) -> Result<(), String>,
) -> Result<(), ScenarioError> {
    for (name, value) in in_file {
        let text_value = match value.get_ref() {
            toml::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        set(name.get_ref(), &text_value).map_err(|message| {
            let span = if message.starts_with("unknown option") { name.span() } else { value.span() };
            ScenarioError::at(file, text, span, message)
        })?;
    }
    // `--set` errors point into the `--set`s as if they were lines of a file: line k is the k-th.
    let joined: Vec<String> = sets.iter().map(|(name, value)| format!("{name}={value}")).collect();
    let joined = joined.join("\n");
    let mut offset = 0;
    for (name, value) in sets {
        set(name, value).map_err(|message| {
            let span = if message.starts_with("unknown option") {
                offset..offset + name.len().max(1)
            } else {
                offset + name.len() + 1..offset + name.len() + 1 + value.len().max(1)
            };
            ScenarioError::at("--set", &joined, span, message)
        })?;
        offset += name.len() + value.len() + 2;
    }
    Ok(())
}

/// The index of `w` among `choices`; otherwise an error at its span naming what was expected,
/// with a "did you mean".
pub fn word(
    file: &str,
    text: &str,
    w: &toml::Spanned<String>,
    choices: &[&str],
    what: &str,
) -> Result<usize, ScenarioError> {
    choices.iter().position(|c| *c == w.get_ref()).ok_or_else(|| {
        // The suggestion first, the list after it.
        let message = match did_you_mean(w.get_ref(), choices.iter().copied()) {
            Some(close) => format!(
                "unknown {what} `{}`; did you mean `{close}`? (expected one of {})",
                w.get_ref(),
                choices.join(", ")
            ),
            None => format!("unknown {what} `{}`, expected one of {}", w.get_ref(), choices.join(", ")),
        };
        ScenarioError::at(file, text, w.span(), message)
    })
}

/// A combatant's `policy = { FIELD = "NAME" }`, checked against a ruleset's policy table
/// (field, accepted names): each given field's index and the index of its value.
pub fn policy_choices(
    file: &str,
    text: &str,
    given: &std::collections::BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
    table: &[(&str, &[&str])],
) -> Result<Vec<(usize, u8)>, ScenarioError> {
    let keys: Vec<&str> = table.iter().map(|p| p.0).collect();
    given
        .iter()
        .map(|(key, value)| {
            let field = word(file, text, key, &keys, "policy")?;
            let v = word(file, text, value, table[field].1, &format!("{} policy", key.get_ref()))?;
            Ok((field, v as u8))
        })
        .collect()
}

/// The checks every ruleset makes of a combatant's name and side, and the side's number (a side
/// met for the first time is added to `sides`): a name and a side may not be empty, and a side may
/// not be called `mutual` or `stalemate`, the simulator's names for the other outcomes. Errors
/// point at `span` (the combatant).
pub fn enlist(
    file: &str,
    text: &str,
    sides: &mut Vec<String>,
    name: &str,
    side: &str,
    span: Range<usize>,
) -> Result<usize, ScenarioError> {
    if name.trim().is_empty() {
        return Err(ScenarioError::at(file, text, span, "expected a combatant name that is not empty"));
    }
    if side.trim().is_empty() {
        return Err(ScenarioError::at(file, text, span, format!("`{name}`: expected a side name that is not empty")));
    }
    if side == "mutual" || side == "stalemate" {
        return Err(ScenarioError::at(
            file,
            text,
            span,
            format!("`{name}`: a side may not be called `{side}`, the simulator's name for an outcome"),
        ));
    }
    Ok(sides.iter().position(|s| s == side).unwrap_or_else(|| {
        sides.push(side.to_owned());
        sides.len() - 1
    }))
}

/// A fight needs combatants on at least two sides.
pub fn two_sides(file: &str, text: &str, sides: &[String]) -> Result<(), ScenarioError> {
    if sides.len() < 2 {
        let message = match sides.first() {
            Some(side) => format!("expected combatants on at least two sides, found only `{side}`"),
            None => "expected combatants on at least two sides, found none".to_owned(),
        };
        let at = text.find("[[combatants]]").unwrap_or(0);
        return Err(ScenarioError::at(file, text, at..at + 14, message));
    }
    Ok(())
}

/// A position in a scenario file: metres along a line (`position = 12.5`) or on a plane
/// (`position = [3, 4]`), finite and within 100 km of the origin; anything else is an error at
/// the value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PositionToml(pub fray_engine::Pos);

impl<'de> serde::Deserialize<'de> for PositionToml {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PositionToml, D::Error> {
        struct Visit;
        const EXPECTED: &str = "a position: metres along a line (a number) or [x, y]";
        fn checked<E: serde::de::Error>(x: f64, y: f64) -> Result<PositionToml, E> {
            if x.is_finite() && y.is_finite() && x.abs() <= 100_000.0 && y.abs() <= 100_000.0 {
                Ok(PositionToml(fray_engine::Pos { x, y }))
            } else {
                Err(E::custom("expected a position within 100 km"))
            }
        }
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = PositionToml;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(EXPECTED)
            }
            fn visit_f64<E: serde::de::Error>(self, x: f64) -> Result<PositionToml, E> {
                checked(x, 0.0)
            }
            fn visit_i64<E: serde::de::Error>(self, x: i64) -> Result<PositionToml, E> {
                checked(x as f64, 0.0)
            }
            fn visit_u64<E: serde::de::Error>(self, x: u64) -> Result<PositionToml, E> {
                checked(x as f64, 0.0)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<PositionToml, A::Error> {
                use serde::de::Error;
                let x: Option<f64> = seq.next_element()?;
                let y: Option<f64> = seq.next_element()?;
                let (Some(x), Some(y)) = (x, y) else { return Err(A::Error::custom(format!("expected {EXPECTED}"))) };
                if seq.next_element::<toml::Value>()?.is_some() {
                    return Err(A::Error::custom(format!("expected {EXPECTED}, found more than two numbers")));
                }
                checked(x, y)
            }
        }
        deserializer.deserialize_any(Visit)
    }
}

/// Gear written either as a table entry's id (`weapon = "automatic_45"`) or in full, as a TOML
/// table (`weapon = { name = "crossbow", … }`). Unlike an untagged enum, which can only say that
/// nothing matched, an error inside the table (an unknown or misspelt field, a wrong type) is
/// reported as it is, at its place.
#[derive(Clone, Debug, PartialEq)]
pub enum TableOr<T> {
    /// An id from the ruleset's table.
    Table(String),
    /// Every value given.
    Custom(T),
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for TableOr<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<TableOr<T>, D::Error> {
        struct Visit<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for Visit<T> {
            type Value = TableOr<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an id from the table (a string) or every value, as a table `{ name = …, … }`")
            }
            fn visit_str<E: serde::de::Error>(self, id: &str) -> Result<TableOr<T>, E> {
                Ok(TableOr::Table(id.to_owned()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<TableOr<T>, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(TableOr::Custom)
            }
        }
        deserializer.deserialize_any(Visit(std::marker::PhantomData))
    }
}

/// A value written as a whole number or as a word (`size = 3` or `size = "medium"`, `w = 4` or
/// `w = "2d6"`); anything else is an error that says so (an untagged enum could only say that
/// nothing matched).
#[derive(Clone, Debug, PartialEq)]
pub enum IntOrWord {
    /// A whole number.
    Number(i32),
    /// A word.
    Word(String),
}

impl<'de> serde::Deserialize<'de> for IntOrWord {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<IntOrWord, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = IntOrWord;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number or a word (a string)")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<IntOrWord, E> {
                i32::try_from(n).map(IntOrWord::Number).map_err(|_| E::custom(format!("{n} is too large")))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<IntOrWord, E> {
                i32::try_from(n).map(IntOrWord::Number).map_err(|_| E::custom(format!("{n} is too large")))
            }
            fn visit_str<E: serde::de::Error>(self, word: &str) -> Result<IntOrWord, E> {
                Ok(IntOrWord::Word(word.to_owned()))
            }
        }
        deserializer.deserialize_any(Visit)
    }
}

/// Where `key = …` is written inside a table whose span (as the TOML reader gives it, which for a
/// `[[table]]` may be its header alone) is `within`: the key and its value, for an error about a
/// value the deserializer took without its own span; `within` itself when the key is not there.
/// The table runs to the next header line (`[`…) or the end of `within`, whichever is later.
pub fn key_span(text: &str, within: Range<usize>, key: &str) -> Range<usize> {
    let Some(rest) = text.get(within.start..) else { return within };
    let mut offset = within.start;
    for (i, line) in rest.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if i > 0 && trimmed.starts_with('[') && offset >= within.end {
            break;
        }
        if let Some(after) = trimmed.strip_prefix(key)
            && after.trim_start().starts_with('=')
        {
            let start = offset + (line.len() - trimmed.len());
            return start..offset + line.trim_end().len();
        }
        offset += line.len();
    }
    within
}

/// The most combatants a scenario may have, in every ruleset: far above any table's fight, and
/// low enough that a fight of that many stays quick (each combatant looks at the others).
pub const MAX_COMBATANTS: usize = 64;

/// Refuses a roster of more than [`MAX_COMBATANTS`], pointing at the list (`span`) with the
/// count and the limit.
pub fn check_roster_size(file: &str, text: &str, count: usize, span: Range<usize>) -> Result<(), ScenarioError> {
    if count <= MAX_COMBATANTS {
        return Ok(());
    }
    Err(ScenarioError::at(
        file,
        text,
        span,
        format!("{count} combatants; a scenario may have at most {MAX_COMBATANTS} (in every ruleset)"),
    ))
}

/// What the players do not see at the start of a live fight, from the scenario's
/// `[visibility]` section, which every ruleset accepts: the game master can change both during
/// the fight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Visibility {
    /// The sides whose numbers (hit points, wounds, ammunition…) the other sides do not see:
    /// they see a word for each combatant's state instead.
    pub secret: Vec<String>,
    /// The combatants hidden from the other sides: not on their status board, not in their log.
    pub hidden: Vec<String>,
}

/// The `[visibility]` section as a file gives it. Every ruleset's file names the key (so that
/// its loader, which refuses unknown keys, knows it); [`crate::load`] reads it for all of them.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct VisibilityToml {
    #[serde(default)]
    secret: Vec<toml::Spanned<String>>,
    #[serde(default)]
    hidden: Vec<toml::Spanned<String>>,
}

impl VisibilityToml {
    /// The section checked against the loaded scenario: each secret side one of its sides, each
    /// hidden combatant one of its combatants.
    pub(crate) fn check(
        &self,
        file: &str,
        text: &str,
        scenario: &dyn crate::Scenario,
    ) -> Result<Visibility, ScenarioError> {
        let names =
            |list: &[toml::Spanned<String>], known: &[String], what: &str| -> Result<Vec<String>, ScenarioError> {
                let known: Vec<&str> = known.iter().map(String::as_str).collect();
                list.iter().map(|w| word(file, text, w, &known, what).map(|i| known[i].to_owned())).collect()
            };
        Ok(Visibility {
            secret: names(&self.secret, &scenario.sides(), "side")?,
            hidden: names(&self.hidden, &scenario.combatants(), "combatant")?,
        })
    }
}

/// A scenario file with no top-level keys but `rules`, `combatants` and the sections every
/// ruleset shares: the file of a ruleset whose `R` and `C` read its `[rules]` and each of its
/// combatants.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct File<R, C> {
    /// `[rules]`.
    pub rules: R,
    /// `[[combatants]]`.
    pub combatants: Vec<toml::Spanned<C>>,
    /// The `[visibility]` section, read by [`crate::load`].
    #[allow(dead_code, reason = "read by the dispatcher; kept here so the key is known")]
    visibility: Option<serde::de::IgnoredAny>,
}
