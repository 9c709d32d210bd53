//! `--set COMBATANT.FIELD=VALUE`: a change to one combatant's entry in the scenario file, for
//! `fray fight`, `sim`, `--compare` and `--sweep` alike ("what if the barbarian had PC 14?").
//!
//! A `--set` whose name starts with a combatant's `id` or `name` and a dot edits the file's text
//! (with `toml_edit`, which keeps everything else as written) before the ruleset reads it, so the
//! edited file is validated like any other. `FIELD` is a dotted path into the combatant's table:
//! `pc`, `stats.BOD`, `skills.axe.value`; a segment that meets an array picks the element whose
//! `id` or `name` it is (`items.axe.oq`), or the element at that index (`weapons.0.damage`).
//! `VALUE` is a TOML value (`14`, `"4D"`, `{ value = 15 }`, `true`); anything that is not one is
//! taken as a string, so `--set A.skills.firearms=4D` needs no quotes. Every other `--set` is an
//! option, as before.

use crate::scenario::ScenarioError;
use toml_edit::{DocumentMut, InlineTable, Item, TableLike, Value};

/// The most segments a field path may have.
const MAX_DEPTH: usize = 8;

/// What [`split`] made of the `--set`s: the options, each with its place among all the `--set`s
/// (for errors), and the edited text when some `--set` named a combatant.
pub(crate) struct Split {
    /// The option `--set`s, in order.
    pub options: Vec<(String, String)>,
    /// For each option `--set`, its 0-based place among all the `--set`s.
    pub places: Vec<usize>,
    /// The scenario text with the combatant edits made; `None` when there were none.
    pub edited: Option<String>,
    /// The combatant edits, as `NAME=VALUE`, in order.
    pub edits: Vec<String>,
}

/// Sorts the `--set`s into options and combatant edits, and makes the edits. A text that is not
/// TOML is left to the ruleset's loader to report (every `--set` is then an option).
pub(crate) fn split(text: &str, sets: &[(String, String)]) -> Result<Split, ScenarioError> {
    let mut doc: Option<DocumentMut> = None;
    let mut out = Split { options: Vec::new(), places: Vec::new(), edited: None, edits: Vec::new() };
    for (place, (name, value)) in sets.iter().enumerate() {
        // The combatant's name is the longest part before a dot that names one ("Dr. No.pc").
        let target = name.match_indices('.').rev().find_map(|(dot, _)| {
            let doc = doc.get_or_insert_with(|| text.parse::<DocumentMut>().unwrap_or_default());
            combatant_index(doc, &name[..dot]).map(|i| (i, &name[dot + 1..]))
        });
        match target {
            Some((index, path)) => {
                let doc = doc.as_mut().expect("parsed to find the combatant");
                // A bad path is pointed at in the `--set`: the segment at fault, or the whole path.
                let path_start = name.len() - path.len();
                edit(doc, index, path, value).map_err(|(message, from_end)| {
                    let mut spans = Vec::new();
                    let mut at = 0;
                    for part in path.split('.') {
                        spans.push(at..at + part.len());
                        at += part.len() + 1;
                    }
                    let within = from_end
                        .and_then(|k| spans.len().checked_sub(k).and_then(|i| spans.get(i).cloned()))
                        .unwrap_or(0..path.len());
                    at_set(sets, place, path_start + within.start..path_start + within.end, message)
                })?;
                out.edits.push(format!("{name}={value}"));
            }
            None => {
                if let Some((prefix, close)) = misnamed_combatant(&mut doc, text, name) {
                    return Err(at_set(
                        sets,
                        place,
                        0..prefix.len(),
                        format!(
                            "no combatant is called `{prefix}`; did you mean `{close}`? (`--set NAME.FIELD=VALUE` \
                             names a combatant exactly as its file does)"
                        ),
                    ));
                }
                out.options.push((name.clone(), value.clone()));
                out.places.push(place);
            }
        }
    }
    // The text is rendered once, with every edit made.
    if !out.edits.is_empty() {
        out.edited = doc.map(|d| d.to_string());
    }
    Ok(out)
}

/// For a `--set` name that is no option and whose part before a dot is close to a combatant's
/// name (another case, a typo): that part and the combatant's name.
fn misnamed_combatant<'n>(doc: &mut Option<DocumentMut>, text: &str, name: &'n str) -> Option<(&'n str, String)> {
    let is_option = crate::RULESETS.iter().flat_map(|r| r.options).any(|o| {
        o.name == name
            || o.name.split_once('.').is_some_and(|(head, _)| name.split_once('.').is_some_and(|(h, _)| h == head))
    });
    if is_option {
        return None;
    }
    let doc = doc.get_or_insert_with(|| text.parse::<DocumentMut>().unwrap_or_default());
    let roster: Vec<String> = match doc.get("combatants")? {
        Item::ArrayOfTables(list) => list.iter().flat_map(|t| names(t)).flatten().map(str::to_owned).collect(),
        Item::Value(Value::Array(list)) => list
            .iter()
            .filter_map(|v| v.as_inline_table())
            .flat_map(|t| names(t))
            .flatten()
            .map(str::to_owned)
            .collect(),
        _ => return None,
    };
    name.match_indices('.').find_map(|(dot, _)| {
        let prefix = &name[..dot];
        let same_but_case = roster.iter().find(|n| n.to_lowercase() == prefix.to_lowercase());
        let close = same_but_case
            .cloned()
            .or_else(|| crate::did_you_mean(prefix, roster.iter().map(String::as_str)).map(str::to_owned));
        close.map(|c| (prefix, c))
    })
}

/// An error at bytes `within` of the `--set` at `place` (its `name=value`; the `--set`s read as
/// the lines of a file, as option errors are).
fn at_set(sets: &[(String, String)], place: usize, within: std::ops::Range<usize>, message: String) -> ScenarioError {
    let lines: Vec<String> = sets.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let start: usize = lines[..place].iter().map(|l| l.len() + 1).sum();
    let span = start + within.start..start + within.end.max(within.start + 1);
    ScenarioError::at("--set", &lines.join("\n"), span, message)
}

/// The index of the combatant (an entry of `[[combatants]]`, or of an inline `combatants = [{…}]`)
/// whose `id` or `name` is `who`.
fn combatant_index(doc: &DocumentMut, who: &str) -> Option<usize> {
    match doc.get("combatants")? {
        Item::ArrayOfTables(list) => list.iter().position(|t| names(t).contains(&Some(who))),
        Item::Value(Value::Array(list)) => {
            list.iter().position(|v| v.as_inline_table().is_some_and(|t| names(t).contains(&Some(who))))
        }
        _ => None,
    }
}

/// Combatant `index`'s table.
fn combatant_mut(doc: &mut DocumentMut, index: usize) -> Option<&mut dyn TableLike> {
    match doc.get_mut("combatants")? {
        Item::ArrayOfTables(list) => list.get_mut(index).map(|t| t as &mut dyn TableLike),
        Item::Value(Value::Array(list)) => list.get_mut(index)?.as_inline_table_mut().map(|t| t as &mut dyn TableLike),
        _ => None,
    }
}

/// What went wrong in a path, and which segment it is about, counted from the path's end (`None`:
/// the whole path).
type EditError = (String, Option<usize>);

/// Sets `path` in combatant `index`'s table to `value`.
fn edit(doc: &mut DocumentMut, index: usize, path: &str, value: &str) -> Result<(), EditError> {
    let segments: Vec<&str> = path.split('.').map(str::trim).collect();
    if segments.iter().any(|s| s.is_empty()) || segments.len() > MAX_DEPTH {
        return Err((
            format!(
                "expected a field path such as `pc`, `stats.BOD` or `items.axe.oq` (at most {MAX_DEPTH} parts), found `{path}`"
            ),
            None,
        ));
    }
    let table = combatant_mut(doc, index).ok_or(("no such combatant".to_owned(), None))?;
    set_in(table, &segments, parse_value(value))
}

/// Sets the field `segments` names, inside a table, to `value`; a missing table on the way is
/// made (inline).
fn set_in(table: &mut dyn TableLike, segments: &[&str], value: Value) -> Result<(), EditError> {
    let (key, rest) = segments.split_first().expect("at least one segment");
    if rest.is_empty() {
        // A value replaced keeps the spaces and comment around it.
        let mut value = value;
        if let Some(old) = table.get(key).and_then(Item::as_value) {
            *value.decor_mut() = old.decor().clone();
        }
        table.insert(key, Item::Value(value));
        return Ok(());
    }
    if table.get(key).is_none_or(Item::is_none) {
        table.insert(key, Item::Value(Value::InlineTable(InlineTable::new())));
    }
    let item = table.get_mut(key).expect("present or just made");
    descend(item, key, rest, value)
}

/// Goes on into `item` (the field `name`) along `segments`: a key of a table, or an element of
/// an array by its `id` or `name`, or by its index.
fn descend(item: &mut Item, name: &str, segments: &[&str], value: Value) -> Result<(), EditError> {
    let (selector, rest) = segments.split_first().expect("at least one segment");
    // The place of the segment an error is about, counted from the path's end.
    let here = Some(segments.len());
    let missing = |len: usize| {
        format!("`{name}` has no element `{selector}` (by id, name or index 0 to {})", len.saturating_sub(1))
    };
    match item {
        Item::Table(t) => set_in(t, segments, value),
        Item::Value(Value::InlineTable(t)) => set_in(t, segments, value),
        Item::ArrayOfTables(list) => {
            let i = element(list.iter().map(|t| names(t)), selector).filter(|&i| i < list.len());
            let i = i.ok_or_else(|| (missing(list.len()), here))?;
            if rest.is_empty() {
                return Err((
                    format!("`{name}.{selector}` is a whole entry: name a field of it, e.g. `{name}.{selector}.id`"),
                    here,
                ));
            }
            set_in(list.get_mut(i).expect("in range"), rest, value)
        }
        Item::Value(Value::Array(list)) => {
            let i = element(list.iter().map(|v| v.as_inline_table().map_or([None, None], |t| names(t))), selector);
            let i = i.filter(|&i| i < list.len()).ok_or_else(|| (missing(list.len()), here))?;
            let slot = list.get_mut(i).expect("in range");
            match (rest.is_empty(), slot) {
                (true, Value::InlineTable(_)) => Err((
                    format!("`{name}.{selector}` is a whole entry: name a field of it, e.g. `{name}.{selector}.id`"),
                    here,
                )),
                (true, slot) => {
                    let mut value = value;
                    *value.decor_mut() = slot.decor().clone();
                    *slot = value;
                    Ok(())
                }
                (false, Value::InlineTable(t)) => set_in(t, rest, value),
                (false, _) => Err((format!("`{name}.{selector}` is not a table"), here)),
            }
        }
        _ => Err((format!("`{name}` is not a table or an array, so it has no `{selector}`"), here)),
    }
}

/// The `id` and `name` of a table.
fn names(t: &dyn TableLike) -> [Option<&str>; 2] {
    ["id", "name"].map(|k| t.get(k).and_then(Item::as_str))
}

/// The index of the element of a list that `segment` names: by `id` or `name`, or as a number.
fn element<'a>(mut names: impl Iterator<Item = [Option<&'a str>; 2]>, segment: &str) -> Option<usize> {
    let by_name = names.position(|n| n.contains(&Some(segment)));
    by_name.or_else(|| segment.parse().ok())
}

/// A `--set` value as TOML: a number, string, boolean, array or inline table when it parses as
/// one, otherwise the text as a string.
fn parse_value(value: &str) -> Value {
    value.trim().parse::<Value>().unwrap_or_else(|_| Value::from(value.trim()))
}

#[cfg(test)]
mod tests {
    fn sets(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    #[test]
    fn edits_reach_tables_inline_tables_and_both_kinds_of_list() {
        let text = "[rules]\nruleset = \"x\"\n\n[[combatants]]\nid = \"a\"\npc = 12 # kept\nstats = { BOD = 10 }\n\n\
                    [[combatants.items]]\nid = \"axe\"\noq = 1\n\n[[combatants]]\nid = \"b\"\n";
        let split = super::split(
            text,
            &sets(&[
                ("a.pc", "14"),
                ("crit_ladder", "none"),
                ("a.stats.BOD", "11"),
                ("a.items.axe.oq", "2"),
                ("b.skills.x", "4D"),
            ]),
        )
        .unwrap();
        let edited = split.edited.unwrap();
        assert!(edited.contains("pc = 14 # kept"), "{edited}");
        assert!(edited.contains("stats = { BOD = 11 }") && edited.contains("oq = 2"), "{edited}");
        // A missing table is made inline; a value that is not TOML is a string.
        assert!(edited.contains("skills = { x = \"4D\" }"), "{edited}");
        assert_eq!((split.options, split.places), (sets(&[("crit_ladder", "none")]), vec![1]));
        // Combatants written as an inline array of tables.
        let inline = "combatants = [{ name = \"Dr. No\", hp = 3, guns = [{ name = \"ppk\", dmg = 2 }] }]\n";
        let edited = super::split(inline, &sets(&[("Dr. No.hp", "5"), ("Dr. No.guns.ppk.dmg", "3")])).unwrap().edited;
        assert_eq!(
            edited.as_deref(),
            Some("combatants = [{ name = \"Dr. No\", hp = 5, guns = [{ name = \"ppk\", dmg = 3 }] }]\n")
        );
        // Not TOML: every `--set` is an option, left to the loader.
        let split = super::split("[[combatants", &sets(&[("a.pc", "1")])).unwrap();
        assert!(split.edited.is_none() && split.options.len() == 1);
    }

    #[test]
    fn bad_paths_are_pointed_at_in_the_set() {
        let text = "[[combatants]]\nid = \"a\"\npc = 12\nitems = [{ id = \"axe\" }]\n";
        // The caret goes under the segment at fault, or under the whole path.
        for (set, message, column) in [
            ("a.items.sword.oq", "`items` has no element `sword` (by id, name or index 0 to 0)", 9),
            ("a.pc.x", "`pc` is not a table or an array, so it has no `x`", 6),
            ("a.items.axe", "`items.axe` is a whole entry", 9),
            ("a.", "expected a field path", 3),
        ] {
            let e = super::split(text, &sets(&[("crit_ladder", "none"), (set, "1")])).err().expect(set);
            assert_eq!((e.file.as_str(), e.line, e.column), ("--set", 2, column), "{set}");
            assert!(e.message.contains(message), "{set}: {}", e.message);
        }
    }
}
