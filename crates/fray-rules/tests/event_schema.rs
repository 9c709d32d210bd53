//! Every line a fight's JSON log has after its header validates against its ruleset's committed
//! JSON Schema (`RulesetInfo::events_schema`, written to `docs/schema/` by `fray docs`): every
//! shipped example, fought with several seeds.
//!
//! The validator is a small one for the keywords schemars writes (`type`, `const`, `properties`,
//! `required`, `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`, `format`,
//! `oneOf`, `anyOf`, `$ref` into `$defs`, `additionalProperties: false`), and it fails on any other keyword rather than ignore it.
//! It is stricter than JSON Schema in one way: an object may have no key its schema does not list,
//! so that a field added to the JSON by hand, outside the event types, fails here.

use fray_engine::FromSource;
use serde_json::Value;

mod common;

/// Checks `value` against `schema`, resolving `$ref`s in `root`; the error says where and why.
fn validate(root: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let Some(object) = schema.as_object() else { return Err(format!("{at}: a schema that is not an object")) };
    for (key, rule) in object {
        match key.as_str() {
            "description" | "title" | "$schema" | "$defs" | "format" => {}
            // Every object is held to its listed keys already (see above).
            "additionalProperties" if rule == &Value::Bool(false) => {}
            "$ref" => {
                let name =
                    rule.as_str().and_then(|r| r.strip_prefix("#/$defs/")).ok_or(format!("{at}: $ref {rule}"))?;
                let target = root.pointer(&format!("/$defs/{name}")).ok_or(format!("{at}: no definition {name}"))?;
                validate(root, target, value, at)?;
            }
            "type" => {
                let types: Vec<&str> = match rule {
                    Value::String(t) => vec![t],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => return Err(format!("{at}: type {rule}")),
                };
                let fits = |t: &str| match t {
                    "object" => value.is_object(),
                    "array" => value.is_array(),
                    "string" => value.is_string(),
                    "boolean" => value.is_boolean(),
                    "null" => value.is_null(),
                    "integer" => value.is_i64() || value.is_u64(),
                    "number" => value.is_number(),
                    _ => false,
                };
                if !types.iter().any(|t| fits(t)) {
                    return Err(format!("{at}: {value} is not {types:?}"));
                }
            }
            "const" => {
                if value != rule {
                    return Err(format!("{at}: {value} is not {rule}"));
                }
            }
            "properties" => {
                let (Some(fields), Some(map)) = (value.as_object(), rule.as_object()) else { continue };
                for (name, field) in fields {
                    let schema = map.get(name).ok_or(format!("{at}: key `{name}` not in the schema"))?;
                    validate(root, schema, field, &format!("{at}.{name}"))?;
                }
            }
            "required" => {
                let Some(fields) = value.as_object() else { continue };
                for name in rule.as_array().into_iter().flatten().filter_map(Value::as_str) {
                    if !fields.contains_key(name) {
                        return Err(format!("{at}: no `{name}`"));
                    }
                }
            }
            "items" => {
                for (i, item) in value.as_array().into_iter().flatten().enumerate() {
                    validate(root, rule, item, &format!("{at}[{i}]"))?;
                }
            }
            "prefixItems" => {
                let (Some(items), Some(schemas)) = (value.as_array(), rule.as_array()) else { continue };
                for (i, (item, schema)) in items.iter().zip(schemas).enumerate() {
                    validate(root, schema, item, &format!("{at}[{i}]"))?;
                }
            }
            "minItems" | "maxItems" => {
                let (Some(items), Some(n)) = (value.as_array(), rule.as_u64()) else { continue };
                let len = items.len() as u64;
                if (key == "minItems" && len < n) || (key == "maxItems" && len > n) {
                    return Err(format!("{at}: {len} items against {key} {n}"));
                }
            }
            "minimum" | "maximum" => {
                let (Some(v), Some(bound)) = (value.as_f64(), rule.as_f64()) else { continue };
                if (key == "minimum" && v < bound) || (key == "maximum" && v > bound) {
                    return Err(format!("{at}: {v} against {key} {bound}"));
                }
            }
            "oneOf" | "anyOf" => {
                let alternatives = rule.as_array().ok_or(format!("{at}: {key} {rule}"))?;
                let errors: Vec<String> =
                    alternatives.iter().filter_map(|s| validate(root, s, value, at).err()).collect();
                let matched = alternatives.len() - errors.len();
                if matched == 0 || (key == "oneOf" && matched > 1) {
                    return Err(format!("{at}: {matched} of {key} match {value}: {errors:?}"));
                }
            }
            other => return Err(format!("{at}: the validator does not know the keyword `{other}`")),
        }
    }
    Ok(())
}

#[test]
fn every_example_fight_validates_against_its_rulesets_schema() {
    let mut kinds: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = Default::default();
    for path in common::example_files() {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let scenario = fray_rules::load(&name, &text, &[]).unwrap_or_else(|e| panic!("{e}"));
        let id = scenario.ruleset();
        let info = fray_rules::RULESETS.iter().find(|r| r.id == id).unwrap();
        let schema = (info.events_schema)();
        for seed in 1..=4 {
            let mut dice = FromSource(fray_dice::seeded(seed));
            let mut lines = Vec::new();
            let _ =
                scenario.fight(&mut dice, Some(seed), &[], &mut |_| None, &mut |line| lines.push(line.json.clone()));
            assert!(!lines.is_empty(), "{name}: no events");
            for line in &lines {
                if let Err(e) = validate(&schema, &schema, line, "") {
                    panic!("{name} (seed {seed}): {line}\ndoes not fit the {id} schema: {e}");
                }
                kinds.entry(id.to_owned()).or_default().insert(line["event"].as_str().unwrap_or("").to_owned());
            }
        }
    }
    // Every ruleset's fights have given many kinds of event, the end among them.
    for (id, seen) in &kinds {
        assert!(seen.contains("end") && seen.len() >= 8, "{id}: only {seen:?}");
    }
    assert_eq!(kinds.len(), fray_rules::RULESETS.len());
}

#[test]
fn the_validator_refuses_what_does_not_fit() {
    let schema = (fray_rules::RULESETS[0].events_schema)();
    let good = serde_json::json!({"event": "round_started", "round": 1});
    assert_eq!(validate(&schema, &schema, &good, ""), Ok(()));
    for bad in [
        serde_json::json!({"event": "round_started", "round": "one"}),
        serde_json::json!({"event": "round_started"}),
        serde_json::json!({"event": "round_started", "round": 1, "extra": 2}),
        serde_json::json!({"event": "no_such_event"}),
        serde_json::json!({"event": "end", "outcome": "x", "winner": null, "length": 1, "unit": "ticks", "rounds": 1}),
    ] {
        assert!(validate(&schema, &schema, &bad, "").is_err(), "{bad}");
    }
}
