//! The rulesets of fray, one module each, and the registry the command line reads.

pub mod fluid;
pub mod scenario;

/// One option of a ruleset, as `fray rules ID` lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// Its key under `[rules.options]`.
    pub name: &'static str,
    /// The default value.
    pub default: &'static str,
    /// The alternatives.
    pub alternatives: &'static str,
    /// The catalogue clauses it affects.
    pub clauses: &'static str,
}

impl OptionInfo {
    /// An option's description.
    pub const fn new(
        name: &'static str,
        default: &'static str,
        alternatives: &'static str,
        clauses: &'static str,
    ) -> OptionInfo {
        OptionInfo { name, default, alternatives, clauses }
    }
}

/// The error for an unknown option name, with a suggestion when one is close.
pub fn unknown_option(name: &str, options: &[OptionInfo]) -> String {
    match did_you_mean(name, options.iter().map(|o| o.name)) {
        Some(close) => format!("unknown option `{name}`; did you mean `{close}`?"),
        None => format!("unknown option `{name}`"),
    }
}

/// The closest candidate within a small edit distance.
pub fn did_you_mean<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb)).min(row[j] + 1).min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}
