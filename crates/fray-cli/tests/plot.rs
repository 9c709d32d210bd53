//! `fray sim --plot` and `--report`: the SVG and the HTML page parsed as XML, with the series,
//! labels and numbers of the run in them.

mod common;
use common::{fray, ok};

use serde_json::Value as Json;

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/fluid/barbarian-vs-marauder.toml");
const PISTOLS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ticks/pistol-duel.toml");

/// A file in the temporary directory, removed when dropped.
struct Temp(std::path::PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        Temp(std::env::temp_dir().join(format!("fray-plot-{}-{name}", std::process::id())))
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
    fn read(&self) -> String {
        std::fs::read_to_string(&self.0).unwrap()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn parse(text: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    roxmltree::Document::parse_with_options(text, options).unwrap_or_else(|e| panic!("not XML: {e}"))
}

/// Every `<text>` of an SVG, trimmed.
fn texts(doc: &roxmltree::Document<'_>) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.descendants().filter(|t| t.is_text()).filter_map(|t| t.text()).collect::<String>().trim().to_owned())
        .collect()
}

/// The elements of an SVG with this tag whose fill (or stroke) is `colour`.
fn coloured(doc: &roxmltree::Document<'_>, tag: &str, colour: &str) -> usize {
    doc.descendants()
        .filter(|n| n.has_tag_name(tag))
        .filter(|n| n.attribute("fill") == Some(colour) || n.attribute("stroke") == Some(colour))
        .count()
}

fn rate(doc: &Json, path: &[&str]) -> f64 {
    path.iter().fold(doc, |v, k| &v[k]).as_f64().unwrap()
}

#[test]
fn a_run_plots_its_outcomes_with_intervals_and_its_fight_lengths() {
    let svg = Temp::new("single.svg");
    let report: Json =
        serde_json::from_str(&ok(&fray(&["sim", EXAMPLE, "-n", "4000", "--plot", svg.path(), "--json"]))).unwrap();
    let text = svg.read();
    let doc = parse(&text);
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // An opaque white card first, so that it reads on a dark page.
    let card = doc.root_element().children().find(|n| n.is_element()).unwrap();
    assert_eq!((card.tag_name().name(), card.attribute("fill")), ("rect", Some("#FFFFFF")));
    let labels = texts(&doc);
    for want in ["rate (% of fights)", "fight length (rounds)", "fights (% of all)", "outcome", "heroes", "raiders"] {
        assert!(labels.iter().any(|l| l == want), "{want} not in {labels:?}");
    }
    assert!(labels.iter().any(|l| l.starts_with("Outcomes of 4000 fights")), "{labels:?}");
    // Each outcome's rate, as the report gives it.
    for side in ["heroes", "raiders"] {
        let want = format!("{:.1}%", 100.0 * rate(&report, &["outcomes", side, "rate"]));
        assert!(labels.contains(&want), "{want} not in {labels:?}");
    }
    // The bars of the heroes (blue) and the raiders (vermilion): one rate bar each, and one
    // histogram bar per length drawn (as many as lengths of their fights up to the 99th percentile).
    let heroes_bars = coloured(&doc, "rect", "#0072B2");
    let lengths = report["rounds"]["by_outcome"]["heroes"]["p90"].as_u64().unwrap() as usize;
    assert!(heroes_bars > lengths, "{heroes_bars} bars");
    assert!(coloured(&doc, "rect", "#D55E00") >= 2);
    // A ruleset with a length in seconds says so on the axis.
    let pistols = Temp::new("pistols.svg");
    ok(&fray(&["sim", PISTOLS, "-n", "2000", "--plot", pistols.path()]));
    let text = pistols.read();
    let labels = texts(&parse(&text));
    assert!(labels.iter().any(|l| l == "fight length (ticks; one is 0.5 s of game time)"), "{labels:?}");
}

#[test]
fn a_sweep_plots_each_outcome_against_the_value_with_a_band() {
    let svg = Temp::new("sweep.svg");
    ok(&fray(&["sim", EXAMPLE, "-n", "2000", "--sweep", "marauder.pc=10..22:4", "--plot", svg.path()]));
    let text = svg.read();
    let doc = parse(&text);
    let labels = texts(&doc);
    for want in ["marauder.pc", "rate (% of fights)", "heroes", "raiders", "10", "22"] {
        assert!(labels.iter().any(|l| l == want), "{want} not in {labels:?}");
    }
    // A band (polygon) and a line per outcome that happened, and a point per value.
    assert_eq!(coloured(&doc, "polygon", "#0072B2"), 1);
    assert_eq!(coloured(&doc, "polygon", "#D55E00"), 1);
    assert!(coloured(&doc, "polyline", "#0072B2") >= 1);
    assert_eq!(coloured(&doc, "circle", "#0072B2"), 4);
    // Values that are not numbers are placed in order.
    let named = Temp::new("named.svg");
    ok(&fray(&["sim", EXAMPLE, "-n", "1000", "--sweep", "crit_ladder=step5,none", "--plot", named.path()]));
    let text = named.read();
    let labels = texts(&parse(&text));
    assert!(labels.iter().any(|l| l == "step5") && labels.iter().any(|l| l == "none"), "{labels:?}");
}

#[test]
fn a_comparison_plots_both_runs_and_the_difference() {
    let svg = Temp::new("compare.svg");
    let out = ok(&fray(&["sim", EXAMPLE, "-n", "3000", "--compare", "marauder.pc=16", "--plot", svg.path(), "--json"]));
    let report: Json = serde_json::from_str(&out).unwrap();
    let text = svg.read();
    let labels = texts(&parse(&text));
    assert!(labels.iter().any(|l| l == "difference in rate (percentage points)"), "{labels:?}");
    let d = report["difference"]["heroes"]["rate"].as_f64().unwrap();
    let want = format!("{:+.2} pts", 100.0 * d);
    assert!(labels.iter().any(|l| l.starts_with(&want)), "{want} not in {labels:?}");
    for run in ["baseline", "variant"] {
        let want = format!("{:.1}%", 100.0 * rate(&report, &[run, "outcomes", "raiders", "rate"]));
        assert!(labels.contains(&want), "{want} not in {labels:?}");
    }
}

#[test]
fn the_report_is_one_self_contained_page() {
    let html = Temp::new("report.html");
    let out = ok(&fray(&[
        "sim",
        EXAMPLE,
        "-n",
        "3000",
        "--seed",
        "17",
        "--set",
        "crit_ladder=none",
        "--report",
        html.path(),
        "--json",
    ]));
    let report: Json = serde_json::from_str(&out).unwrap();
    let text = html.read();
    assert!(text.starts_with("<!DOCTYPE html>"));
    let doc = parse(&text);
    // No script, nothing fetched: no element names a source or a link.
    assert_eq!(doc.descendants().filter(|n| n.has_tag_name("script")).count(), 0);
    for n in doc.descendants().filter(|n| n.is_element()) {
        for a in n.attributes() {
            assert!(!["src", "href"].contains(&a.name()), "<{}> has {}", n.tag_name().name(), a.name());
        }
    }
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap().text().unwrap();
    assert_eq!(title, "barbarian-vs-marauder — fray simulation");
    let all: String = doc.descendants().filter(|n| n.is_text()).filter_map(|n| n.text()).collect();
    for want in ["seed", "17 (ChaCha8)", "0.1.0", "crit_ladder=none", "--report", "barbarian-vs-marauder.toml"] {
        assert!(all.contains(want), "{want} not in the page");
    }
    // The outcomes table: a row per outcome with its count and rate.
    let rows: Vec<Vec<String>> = doc
        .descendants()
        .filter(|n| n.has_tag_name("table") && n.attribute("class") == Some("outcomes"))
        .flat_map(|t| t.descendants().filter(|n| n.has_tag_name("tr")))
        .map(|tr| tr.children().filter(|c| c.is_element()).map(|c| c.text().unwrap_or("").to_owned()).collect())
        .collect();
    let heroes = rows.iter().find(|r| r[0] == "heroes").expect("a heroes row");
    let count = report["outcomes"]["heroes"]["count"].as_u64().unwrap();
    assert_eq!(heroes[1], count.to_string());
    assert_eq!(heroes[2], format!("{:.2}%", 100.0 * rate(&report, &["outcomes", "heroes", "rate"])));
    // The combatants' table and the plot, inline.
    assert!(doc.descendants().any(|n| n.has_tag_name("table") && n.attribute("class") == Some("combatants")));
    let svg = doc.descendants().find(|n| n.has_tag_name("svg")).expect("an inline plot");
    assert!(svg.descendants().any(|n| n.has_tag_name("rect")));
    // The same page comes out of a merge of parts.
    let merged = Temp::new("merged.html");
    let part = Temp::new("part.json");
    std::fs::write(&part.0, ok(&fray(&["sim", EXAMPLE, "-n", "3000", "--shard", "1/1", "--json"]))).unwrap();
    ok(&fray(&["merge", part.path(), "--report", merged.path()]));
    let merged = merged.read();
    parse(&merged);
    assert!(merged.contains("<table class=\"outcomes\">") && merged.contains("merge"));
}

#[test]
fn a_sweep_and_a_comparison_report_their_tables() {
    let html = Temp::new("sweep.html");
    ok(&fray(&["sim", EXAMPLE, "-n", "1000", "--sweep", "marauder.pc=12,18", "--report", html.path()]));
    let text = html.read();
    let doc = parse(&text);
    let sweep = doc.descendants().find(|n| n.attribute("class") == Some("sweep")).expect("a sweep table");
    assert_eq!(sweep.descendants().filter(|n| n.has_tag_name("tr")).count(), 3);
    let html = Temp::new("compare.html");
    ok(&fray(&["sim", EXAMPLE, "-n", "1000", "--compare", "marauder.pc=16", "--report", html.path()]));
    let text = html.read();
    let doc = parse(&text);
    assert!(doc.descendants().any(|n| n.attribute("class") == Some("comparison")));
    assert!(text.contains("marauder.pc=16"));
}

#[test]
fn an_unwritable_plot_is_an_error() {
    let out = fray(&["sim", EXAMPLE, "-n", "1000", "--plot", "/nonexistent/dir/out.svg"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: cannot write /nonexistent/dir/out.svg"), "{err}");
}
