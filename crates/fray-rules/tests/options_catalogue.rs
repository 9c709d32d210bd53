//! `fray rules ID` against the catalogues' option tables (copied in `tests/data/option_tables`):
//! every option the catalogue lists is settable, with the catalogue's default and the clauses it
//! names.

use std::collections::BTreeSet;

/// The clause ids in `text`, short forms (`SUNDER-13`) completed with the ruleset's prefix.
fn clauses(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        let parts: Vec<&str> = word.split('-').collect();
        let is_id = |p: &[&str]| {
            p.last().is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                && p[..p.len() - 1]
                    .iter()
                    .all(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()))
        };
        match parts.len() {
            3 if is_id(&parts) => {
                out.insert(word.to_owned());
            }
            2 if is_id(&parts) => {
                out.insert(format!("{prefix}-{word}"));
            }
            _ => {}
        }
    }
    out
}

fn plain(cell: &str) -> String {
    cell.trim().replace('`', "")
}

#[test]
fn every_catalogue_option_is_settable_with_its_default_and_clauses() {
    for (id, prefix) in
        [("fluid", "FLUID"), ("opend6", "OD6"), ("hardboiled", "USR"), ("phasesix", "P6"), ("ticks", "TICK")]
    {
        let path = format!("{}/tests/data/option_tables/{id}.md", env!("CARGO_MANIFEST_DIR"));
        let table = std::fs::read_to_string(path).unwrap();
        let info = fray_rules::RULESETS.iter().find(|r| r.id == id).unwrap();
        let mut problems = Vec::new();
        let mut rows = 0;
        for line in table.lines().skip(2) {
            let cells: Vec<&str> = line.split('|').collect();
            let (name, clause_text) = (plain(cells[1]), cells[4]);
            // A default may carry a gloss: `0 (no limit)`.
            let default = plain(cells[2]).split(" (").next().unwrap_or_default().to_owned();
            rows += 1;
            let Some(ours) = info.options.iter().find(|o| o.name == name) else {
                problems.push(format!("{id}: `{name}` missing"));
                continue;
            };
            if plain(ours.default) != default {
                problems.push(format!("{id}: `{name}` default `{}`, catalogue `{default}`", ours.default));
            }
            let (want, have) = (clauses(clause_text, prefix), clauses(ours.clauses, prefix));
            if want != have {
                problems.push(format!("{id}: `{name}` clauses {have:?}, catalogue {want:?}"));
            }
        }
        assert!(rows >= 40, "{id}: {rows} rows read");
        assert_eq!(rows, info.options.len(), "{id}: the catalogue lists {rows} options, fray {}", info.options.len());
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
