//! Each ruleset's guide (`guide.rs`: the scenario fields, the AI policies) and its options'
//! plain meanings, against what the loader and the policy tables accept: every key of every
//! shipped example is listed, and in each table the examples have, the loader's own list of the
//! keys it accepts (from its error for an unknown one) is exactly the guide's.

use fray_rules::RULESETS;
use fray_rules::reference::FieldInfo;
use std::collections::{BTreeMap, BTreeSet};
use toml_edit::{DocumentMut, Item, Table, TableLike, Value};

/// A key no table accepts.
const UNKNOWN: &str = "zz_not_a_key";

/// A step from a table to a value: a key, or an index in a list.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// A value of a document, read only.
#[derive(Clone, Copy)]
enum Node<'a> {
    Item(&'a Item),
    Value(&'a Value),
    Table(&'a Table),
}

impl<'a> Node<'a> {
    fn table(self) -> Option<&'a dyn TableLike> {
        match self {
            Node::Item(item) => item.as_table_like(),
            Node::Value(value) => value.as_inline_table().map(|t| t as &dyn TableLike),
            Node::Table(table) => Some(table),
        }
    }

    fn list(self) -> Option<Vec<Node<'a>>> {
        match self {
            Node::Item(Item::ArrayOfTables(a)) => Some(a.iter().map(Node::Table).collect()),
            Node::Item(Item::Value(Value::Array(a))) | Node::Value(Value::Array(a)) => {
                Some(a.iter().map(Node::Value).collect())
            }
            _ => None,
        }
    }
}

/// The table `steps` lead to from `table`, for changing it.
fn table_at<'a>(table: &'a mut dyn TableLike, steps: &[Step]) -> Option<&'a mut dyn TableLike> {
    match steps.split_first() {
        None => Some(table),
        Some((Step::Key(key), rest)) => item_at(table.get_mut(key)?, rest),
        Some((Step::Index(_), _)) => None,
    }
}

fn item_at<'a>(item: &'a mut Item, steps: &[Step]) -> Option<&'a mut dyn TableLike> {
    match (steps.split_first(), item) {
        (Some((Step::Index(i), rest)), Item::ArrayOfTables(a)) => table_at(a.get_mut(*i)?, rest),
        (Some((Step::Index(i), rest)), Item::Value(Value::Array(a))) => value_at(a.get_mut(*i)?, rest),
        (_, item) => table_at(item.as_table_like_mut()?, steps),
    }
}

fn value_at<'a>(value: &'a mut Value, steps: &[Step]) -> Option<&'a mut dyn TableLike> {
    match (steps.split_first(), value) {
        (Some((Step::Index(i), rest)), Value::Array(a)) => value_at(a.get_mut(*i)?, rest),
        (_, Value::InlineTable(t)) => table_at(t, steps),
        _ => None,
    }
}

/// What the walk over one ruleset's examples found.
#[derive(Default)]
struct Walk<'f> {
    fields: &'f [FieldInfo],
    file: String,
    /// Keys the guide does not list: (table, key, file).
    unlisted: Vec<(String, String, String)>,
    /// The first place each table was met: (file's text, steps).
    first: BTreeMap<String, (String, Vec<Step>)>,
    text: String,
}

impl<'f> Walk<'f> {
    fn has_table(&self, table: &str) -> bool {
        self.fields.iter().any(|f| f.table == table)
    }

    fn table(&mut self, node: &dyn TableLike, steps: &[Step], table: &str) {
        self.first.entry(table.to_owned()).or_insert_with(|| (self.text.clone(), steps.to_vec()));
        for (key, item) in node.iter() {
            if !self.fields.iter().any(|f| f.table == table && f.key == key) {
                self.unlisted.push((table.to_owned(), key.to_owned(), self.file.clone()));
            }
            let below = if table.is_empty() { key.to_owned() } else { format!("{table}.{key}") };
            let mut next = steps.to_vec();
            next.push(Step::Key(key.to_owned()));
            if self.has_table(&below) {
                self.node(Node::Item(item), &next, &below);
            } else if self.has_table(&format!("{below}.*"))
                && let Some(names) = item.as_table_like()
            {
                for (name, inner) in names.iter() {
                    let mut step = next.clone();
                    step.push(Step::Key(name.to_owned()));
                    self.node(Node::Item(inner), &step, &format!("{below}.*"));
                }
            }
        }
    }

    fn node(&mut self, node: Node<'_>, steps: &[Step], table: &str) {
        if let Some(list) = node.list() {
            for (i, element) in list.into_iter().enumerate() {
                let mut step = steps.to_vec();
                step.push(Step::Index(i));
                if let Some(t) = element.table() {
                    self.table(t, &step, table);
                }
            }
        } else if let Some(t) = node.table() {
            self.table(t, steps, table);
        }
    }
}

/// The keys the loader accepts in a table, from its error for an unknown key: `None` when the
/// error does not list them (a table read as one of several shapes).
fn accepted_keys(message: &str) -> Option<BTreeSet<String>> {
    let rest = message.split(&format!("unknown field `{UNKNOWN}`")).nth(1)?;
    let rest = rest.split([';', '\n']).next().unwrap_or("");
    rest.contains("expected").then(|| rest.split('`').skip(1).step_by(2).map(str::to_owned).collect())
}

#[test]
fn every_scenario_field_is_in_the_guide_and_the_guide_is_what_the_loader_accepts() {
    let mut problems = Vec::new();
    for ruleset in RULESETS {
        let id = ruleset.id;
        let mut walk = Walk { fields: ruleset.guide.fields, ..Walk::default() };
        let folder = format!("{}/../../examples/{id}", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        assert!(!files.is_empty(), "{id}: no examples");
        for path in files {
            walk.file = path.display().to_string();
            walk.text = std::fs::read_to_string(&path).unwrap();
            let doc: DocumentMut = walk.text.parse().unwrap();
            walk.table(doc.as_table(), &[], "");
        }
        for (table, key, file) in &walk.unlisted {
            problems.push(format!("{id}: `{key}` in `{table}` ({file}) is not in the guide's FIELDS"));
        }
        // Each table the examples have: the loader refuses an unknown key, and lists the guide's.
        let mut checked = 0;
        for (table, (text, steps)) in &walk.first {
            let mut doc: DocumentMut = text.parse().unwrap();
            let node: &mut Table = doc.as_table_mut();
            let target = table_at(node, steps).unwrap();
            target.insert(UNKNOWN, toml_edit::value(1));
            let error = match fray_rules::load("test.toml", &doc.to_string(), &[]) {
                Ok(_) => {
                    problems.push(format!("{id}: an unknown key in `{table}` was accepted"));
                    continue;
                }
                Err(e) => e,
            };
            let Some(accepted) = accepted_keys(&error.message) else { continue };
            checked += 1;
            let listed: BTreeSet<String> =
                ruleset.guide.fields.iter().filter(|f| f.table == *table).map(|f| f.key.to_owned()).collect();
            if accepted != listed {
                problems.push(format!(
                    "{id}: table `{table}`: the loader accepts {accepted:?}, the guide lists {listed:?}"
                ));
            }
        }
        assert!(checked >= 3, "{id}: only {checked} tables checked against the loader");
        for table in ["", "rules", "combatants"] {
            assert!(walk.first.contains_key(table), "{id}: no `{table}` table met in the examples");
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_guide_table_is_reached_from_the_top() {
    // A table path `a.b` needs a key `b` in `a` (or `a.*` for `a.NAME`).
    for ruleset in RULESETS {
        for field in ruleset.guide.fields.iter().filter(|f| !f.table.is_empty()) {
            let (parent, key) = field.table.rsplit_once('.').unwrap_or(("", field.table));
            let (parent, key) = match key {
                "*" => parent.rsplit_once('.').unwrap_or(("", parent)),
                _ => (parent, key),
            };
            assert!(
                ruleset.guide.fields.iter().any(|f| f.table == parent && f.key == key),
                "{}: table `{}` has no key `{key}` in `{parent}` leading to it",
                ruleset.id,
                field.table
            );
        }
    }
}

#[test]
fn every_policy_field_has_a_meaning_naming_each_value() {
    for ruleset in RULESETS {
        let fields: Vec<&str> = ruleset.guide.policies.iter().map(|p| p.field).collect();
        let table: Vec<&str> = ruleset.policies.iter().map(|p| p.0).collect();
        assert_eq!(fields, table, "{}: the guide's policies follow the policy table", ruleset.id);
        for ((field, values), info) in ruleset.policies.iter().zip(ruleset.guide.policies) {
            for value in *values {
                assert!(
                    info.meaning.contains(&format!("`{value}`")),
                    "{}: policy `{field}`: its meaning does not name `{value}`",
                    ruleset.id
                );
            }
        }
    }
}

#[test]
fn every_option_has_a_plain_one_line_meaning() {
    for ruleset in RULESETS {
        let mut seen = BTreeSet::new();
        for option in ruleset.options {
            let meaning = option.meaning;
            assert!(seen.insert(meaning), "{}: `{}` shares its meaning with another option", ruleset.id, option.name);
            assert!(
                meaning.ends_with('.') && meaning.chars().next().is_some_and(char::is_uppercase),
                "{}: `{}`: a meaning is a sentence: {meaning:?}",
                ruleset.id,
                option.name
            );
            assert!(
                (20..=140).contains(&meaning.chars().count()) && !meaning.contains('\n'),
                "{}: `{}`: a meaning is one line of at most 140 characters: {meaning:?}",
                ruleset.id,
                option.name
            );
            // The meaning explains; clause ids are a separate column.
            assert!(
                !meaning.split(|c: char| !c.is_ascii_alphanumeric() && c != '-').any(|w| w.contains('-')
                    && w.ends_with(|c: char| c.is_ascii_digit())
                    && w.starts_with(|c: char| c.is_ascii_uppercase())),
                "{}: `{}`: the meaning cites a clause: {meaning:?}",
                ruleset.id,
                option.name
            );
        }
    }
}
