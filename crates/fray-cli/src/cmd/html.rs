//! The HTML page of a run (`fray sim --report OUT.html`): one self-contained file — inline CSS
//! and SVG, no script, nothing fetched — with the scenario, the command line, fray's version, the
//! seed, the tables and the plot, and the text report as `fray sim` prints it.

use crate::cmd::report::Report;
use crate::cmd::shard::Kind;
use crate::cmd::sim::Output;
use anyhow::Result;
use fray_sim::percentile;

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The command line that ran this, each argument quoted for a POSIX shell where it needs it.
pub fn command_line() -> String {
    let quote = |a: String| {
        if !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c)) {
            a
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    };
    let mut args = std::env::args();
    let program = args
        .next()
        .map(|p| std::path::Path::new(&p).file_name().map_or(p.clone(), |f| f.to_string_lossy().into_owned()));
    program.into_iter().chain(args.map(quote)).collect::<Vec<_>>().join(" ")
}

const STYLE: &str = "\
:root { color-scheme: light dark; --ink: #1a1a1a; --page: #ffffff; --rule: #c8c8c8; --soft: #f2f2f2; }
@media (prefers-color-scheme: dark) { :root { --ink: #e8e8e8; --page: #15171a; --rule: #4a4d52; --soft: #22252a; } }
body { font-family: system-ui, sans-serif; color: var(--ink); background: var(--page); max-width: 960px; margin: 2em auto; padding: 0 1em; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
table { border-collapse: collapse; margin: 0.6em 0 1.4em; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--rule); padding: 0.25em 0.7em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: var(--soft); }
dl.run { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.run dt { font-weight: 600; }
dl.run dd { margin: 0; }
code, pre { font-family: ui-monospace, monospace; }
pre { background: var(--soft); padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
figure { margin: 1em 0; }
figure svg { max-width: 100%; height: auto; border-radius: 6px; }
.note { font-size: 0.9em; opacity: 0.85; }
";

fn pct(p: f64) -> String {
    format!("{:.2}%", 100.0 * p)
}

fn interval((lo, hi): (f64, f64)) -> String {
    format!("[{:.2}, {:.2}]", 100.0 * lo, 100.0 * hi)
}

/// Outcomes of one report: count, rate, interval, and the length of its fights.
fn outcome_table(report: &Report) -> String {
    let unit = report.unit().0.to_owned();
    let mut out = format!(
        "<table class=\"outcomes\"><thead><tr><th>outcome</th><th>fights</th><th>rate</th><th>95% interval (%)</th>\
         <th>mean {unit}</th><th>p50</th><th>p90</th><th>max</th></tr></thead><tbody>\n"
    );
    for ((name, count, rate, ci), (_, outcome)) in report.outcome_rates().into_iter().zip(report.outcome_names()) {
        let lengths = report.length_histogram(Some(outcome));
        let length = if lengths.is_empty() {
            "<td></td><td></td><td></td><td></td>".to_owned()
        } else {
            format!(
                "<td>{:.2}</td><td>{}</td><td>{}</td><td>{}</td>",
                Report::mean(&lengths),
                percentile(&lengths, 0.5),
                percentile(&lengths, 0.9),
                lengths.keys().max().copied().unwrap_or(0)
            )
        };
        out += &format!(
            "<tr><td>{}</td><td>{count}</td><td>{}</td><td>{}</td>{length}</tr>\n",
            escape(&name),
            pct(rate),
            interval(ci)
        );
    }
    out + "</tbody></table>\n"
}

/// Each combatant's ledger.
fn combatant_table(report: &Report) -> String {
    let fights = report.ledger().fights().max(1);
    let mut out =
        "<table class=\"combatants\"><thead><tr><th>combatant</th><th>attacks</th><th>hits</th><th>crits</th>\
                   <th>damage dealt</th><th>damage taken</th><th>downed</th></tr></thead><tbody>\n"
            .to_owned();
    for (name, c) in report.names().iter().zip(&report.ledger().combatants) {
        out += &format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            escape(name),
            c.attacks,
            c.hits,
            c.crits,
            c.damage_dealt,
            c.damage_taken,
            pct(c.downed as f64 / fights as f64)
        );
    }
    out + "</tbody></table>\n"
}

/// The fight length over every fight, in the unit and in seconds where known.
fn length_line(report: &Report) -> String {
    let all = report.length_histogram(None);
    let (unit, seconds) = report.unit();
    let mean = Report::mean(&all);
    let p90 = percentile(&all, 0.9);
    match seconds {
        Some(s) => format!(
            "<p>Fight length: mean {mean:.2} {unit} ({:.1} s of game time), p90 {p90} {unit} ({:.1} s).</p>\n",
            mean * s,
            f64::from(p90) * s
        ),
        None => format!("<p>Fight length: mean {mean:.2} {unit}, p90 {p90} {unit}.</p>\n"),
    }
}

fn compare_table(base: &Report, variant: &Report) -> String {
    let mut out = "<table class=\"comparison\"><thead><tr><th>outcome</th><th>baseline</th><th>95% interval (%)</th>\
                   <th>variant</th><th>95% interval (%)</th><th>variant − baseline (points)</th><th>95% interval</th></tr></thead><tbody>\n"
        .to_owned();
    for (((name, _, p0, ci0), (_, _, p1, ci1)), (_, d, (lo, hi))) in
        base.outcome_rates().into_iter().zip(variant.outcome_rates()).zip(base.differences(variant))
    {
        out += &format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:+.2}</td><td>[{:+.2}, {:+.2}]</td></tr>\n",
            escape(&name),
            pct(p0),
            interval(ci0),
            pct(p1),
            interval(ci1),
            100.0 * d,
            100.0 * lo,
            100.0 * hi
        );
    }
    out + "</tbody></table>\n"
}

fn sweep_table(name: &str, points: &[(String, Report)]) -> String {
    let Some((_, first)) = points.first() else { return String::new() };
    let mut out = format!("<table class=\"sweep\"><thead><tr><th>{}</th>", escape(name));
    for (outcome, _) in first.outcome_names() {
        out += &format!("<th>{}</th><th>95% interval (%)</th>", escape(&outcome));
    }
    out += &format!("<th>mean {0}</th><th>p90 {0}</th></tr></thead><tbody>\n", escape(first.unit().0));
    for (value, report) in points {
        out += &format!("<tr><td>{}</td>", escape(value));
        for (_, _, p, ci) in report.outcome_rates() {
            out += &format!("<td>{}</td><td>{}</td>", pct(p), interval(ci));
        }
        let all = report.length_histogram(None);
        out += &format!("<td>{:.2}</td><td>{}</td></tr>\n", Report::mean(&all), percentile(&all, 0.9));
    }
    out + "</tbody></table>\n"
}

/// The page of a run whose text report is `text`.
pub fn page(output: &Output<'_>, text: &str) -> Result<String> {
    let reports = output.reports;
    let Some((_, first)) = reports.first() else { anyhow::bail!("no report to write") };
    let scenario = std::path::Path::new(output.file)
        .file_stem()
        .map_or_else(|| output.file.to_owned(), |s| s.to_string_lossy().into_owned());
    let what = match output.kind {
        Kind::Single => "simulation",
        Kind::Compare => "comparison",
        Kind::Sweep(_) => "sweep",
    };
    let sets = if output.sets.is_empty() {
        "none (the file's options)".to_owned()
    } else {
        output
            .sets
            .iter()
            .map(|(k, v)| format!("<code>{}={}</code>", escape(k), escape(v)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let svg = crate::cmd::plot::svg(output.kind, reports)?;
    // The SVG inline: its XML declaration, if any, has no place inside HTML.
    let svg = svg.trim_start_matches(|c| c != '<');
    let svg = if svg.starts_with("<?xml") { svg.split_once("?>").map_or(svg, |(_, s)| s) } else { svg };
    let mut body = format!(
        "<h1>{} — {what}</h1>\n<dl class=\"run\">\n<dt>scenario</dt><dd><code>{}</code></dd>\n\
         <dt>options set</dt><dd>{sets}</dd>\n<dt>fights</dt><dd>{}{}</dd>\n<dt>seed</dt><dd>{} ({})</dd>\n\
         <dt>fray</dt><dd>{}</dd>\n<dt>command</dt><dd><code>{}</code></dd>\n</dl>\n",
        escape(&scenario),
        escape(output.file),
        first.ledger().fights(),
        if reports.len() > 1 { " per run" } else { "" },
        first.seed(),
        fray_dice::GENERATOR,
        env!("CARGO_PKG_VERSION"),
        escape(&command_line()),
    );
    if let Some(p) = &output.precision {
        body += &format!("<p>{}</p>\n", escape(p.text(first.ledger().fights()).trim()));
    }
    body += &format!("<figure>{svg}</figure>\n");
    match (output.kind, reports) {
        (Kind::Single, [(_, report)]) => {
            body += "<h2>Outcomes</h2>\n";
            body += &outcome_table(report);
            body += &length_line(report);
            body += "<h2>Combatants</h2>\n";
            body += &combatant_table(report);
        }
        (Kind::Compare, [(_, base), (_, variant)]) => {
            let changed: Vec<String> = variant
                .run_sets()
                .iter()
                .skip(base.run_sets().len())
                .map(|(k, v)| format!("<code>{}={}</code>", escape(k), escape(v)))
                .collect();
            body += &format!("<h2>Baseline against the variant ({})</h2>\n", changed.join(", "));
            body += &compare_table(base, variant);
            body += "<p class=\"note\">The variant replays the baseline's seeds; the difference's interval is the one \
                     for independent runs, which errs wide. A difference whose interval holds 0 is not shown by these fights.</p>\n";
            body += "<h2>Baseline</h2>\n";
            body += &outcome_table(base);
            body += &combatant_table(base);
            body += "<h2>Variant</h2>\n";
            body += &outcome_table(variant);
            body += &combatant_table(variant);
        }
        (Kind::Sweep(name), points) => {
            body += &format!("<h2>Sweep of <code>{}</code></h2>\n", escape(name));
            body += &sweep_table(name, points);
            body += "<p class=\"note\">Every value replays the same seeds; values whose intervals overlap are not told apart by these fights.</p>\n";
        }
        _ => {}
    }
    body += &format!("<h2>The report as <code>fray</code> prints it</h2>\n<pre>{}</pre>\n", escape(text));
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <meta name=\"generator\" content=\"fray {}\"/>\n<title>{} — fray {what}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        escape(&scenario),
    ))
}
