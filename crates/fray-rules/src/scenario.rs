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
            message: message.into(),
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
        let mut message = err.message().trim().to_owned();
        if let Some(rest) = message.strip_prefix("unknown field `") {
            let unknown = rest.split('`').next().unwrap_or("");
            let expected: Vec<&str> = rest.split('`').skip(2).step_by(2).collect();
            if let Some(close) = did_you_mean(unknown, expected.iter().copied()) {
                message = format!("{message}; did you mean `{close}`?");
            }
        }
        ScenarioError::at(file, text, err.span().unwrap_or(0..0), message)
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)?;
        if !self.source_line.is_empty() {
            let number = self.line.to_string();
            write!(f, "\n{} | {}", number, self.source_line)?;
            write!(f, "\n{} | {}{}", " ".repeat(number.len()), " ".repeat(self.column - 1), "^".repeat(self.width))?;
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
    for (name, value) in sets {
        set(name, value).map_err(|message| ScenarioError::whole("--set", format!("{name}={value}: {message}")))?;
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
        let hint = did_you_mean(w.get_ref(), choices.iter().copied())
            .map_or(String::new(), |s| format!("; did you mean `{s}`?"));
        ScenarioError::at(
            file,
            text,
            w.span(),
            format!("unknown {what} `{}`, expected one of {}{hint}", w.get_ref(), choices.join(", ")),
        )
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
