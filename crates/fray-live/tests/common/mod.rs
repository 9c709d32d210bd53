//! What the live-fight tests share: the shipped examples.

/// The examples directory (examples/compare holds copies of fights in every ruleset: skipped
/// here, the rulesets' own examples cover them).
pub const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");

/// Every shipped example of the five rulesets: its path and text.
pub fn examples() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for ruleset in ["fluid", "opend6", "hardboiled", "phasesix", "ticks"] {
        for entry in std::fs::read_dir(format!("{EXAMPLES}/{ruleset}")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).unwrap();
                files.push((path.display().to_string(), text));
            }
        }
    }
    files.sort();
    assert!(files.len() >= 16, "every example: {files:?}");
    files
}
