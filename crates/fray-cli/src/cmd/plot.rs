//! Plots of a run (`fray sim --plot OUT.svg`), drawn with plotters' SVG backend: each outcome's
//! rate with its 95% interval and the fight-length histogram by outcome; a sweep's rates against
//! the swept value with their intervals as bands; a comparison's two runs side by side with the
//! difference and its interval.
//!
//! Every plot is drawn on an opaque white card with dark text and the Okabe–Ito palette (told
//! apart by people with colour-blindness too), so it reads the same on a light and a dark page.

use crate::cmd::report::Report;
use crate::cmd::shard::Kind;
use anyhow::{Result, anyhow};
use fray_engine::Outcome;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The plot's width in pixels.
const WIDTH: u32 = 900;

/// Okabe–Ito: sides in order, then the grey of `mutual` and the black of `stalemate`.
const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
];
const MUTUAL: RGBColor = RGBColor(128, 128, 128);
const STALEMATE: RGBColor = RGBColor(40, 40, 40);
const INK: RGBColor = RGBColor(20, 20, 20);

/// The colour of an outcome.
pub fn colour(outcome: Outcome) -> RGBColor {
    match outcome {
        Outcome::Side(side) => PALETTE[usize::from(side.0) % PALETTE.len()],
        Outcome::Mutual => MUTUAL,
        Outcome::Stalemate => STALEMATE,
    }
}

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("drawing the plot: {e}")
}

/// The plot of a run as an SVG document.
pub fn svg(kind: &Kind, reports: &[(String, Report)]) -> Result<String> {
    match (kind, reports) {
        (Kind::Single, [(_, report)]) => single(report),
        (Kind::Compare, [(_, base), (_, variant)]) => compare(base, variant),
        (Kind::Sweep(name), points) if !points.is_empty() => sweep(name, points),
        _ => Err(anyhow!("nothing to plot")),
    }
}

/// The label of a fight's length: `rounds`, or `ticks of 0.5 s` where the ruleset says.
fn length_label(report: &Report) -> String {
    match report.unit() {
        (unit, Some(seconds)) => format!("fight length ({unit}; one is {seconds} s of game time)"),
        (unit, None) => format!("fight length ({unit})"),
    }
}

/// The outcomes worth drawing: those that happened in any of the reports, in order.
fn seen(reports: &[&Report]) -> Vec<(String, Outcome)> {
    let first = reports[0];
    first
        .outcome_names()
        .into_iter()
        .filter(|(_, o)| reports.iter().any(|r| r.ledger().outcomes.get(o).is_some_and(|c| *c > 0)))
        .collect()
}

/// A categorical axis of `n` places at 0, 1, …: `name(i)` at whole positions, nothing between.
fn category<'a>(names: &'a [String]) -> impl Fn(&f64) -> String + 'a {
    move |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            names.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    }
}

fn text_style(size: i32) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&INK)
}

/// A label centred above a point.
fn above(size: i32) -> TextStyle<'static> {
    text_style(size).pos(Pos::new(HPos::Center, VPos::Bottom))
}

/// One outcome's rate and interval as a bar with whiskers, labelled with the rate.
fn bar<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    x: (f64, f64),
    (rate, (lo, hi)): (f64, (f64, f64)),
    colour: RGBColor,
    label: bool,
) -> Result<()> {
    let (rate, lo, hi) = (100.0 * rate, 100.0 * lo, 100.0 * hi);
    chart.draw_series([Rectangle::new([(x.0, 0.0), (x.1, rate)], colour.mix(0.85).filled())]).map_err(err)?;
    let mid = (x.0 + x.1) / 2.0;
    let cap = (x.1 - x.0) / 4.0;
    let ink = INK.stroke_width(2);
    chart
        .draw_series([
            PathElement::new(vec![(mid, lo), (mid, hi)], ink),
            PathElement::new(vec![(mid - cap, lo), (mid + cap, lo)], ink),
            PathElement::new(vec![(mid - cap, hi), (mid + cap, hi)], ink),
        ])
        .map_err(err)?;
    if label {
        chart.draw_series([Text::new(format!("{rate:.1}%"), (mid, hi + 1.5), above(13))]).map_err(err)?;
    }
    Ok(())
}

/// A chart of outcome rates on `area`: one column per outcome in `names`, rates in percent, the
/// axes drawn and labelled.
fn rates_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, plotters::coord::Shift>,
    caption: &str,
    names: &[String],
) -> Result<
    ChartContext<'a, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>,
> {
    let mut chart = ChartBuilder::on(area)
        .caption(caption, text_style(20))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(names.len() as f64 - 0.5), 0f64..110f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(names.len() * 2 + 1)
        .x_label_formatter(&category(names))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .x_desc("outcome")
        .y_desc("rate (% of fights)")
        .label_style(text_style(14))
        .axis_desc_style(text_style(15))
        .draw()
        .map_err(err)?;
    Ok(chart)
}

fn single(report: &Report) -> Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, 760)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (top, bottom) = root.split_vertically(360);
        let outcomes = report.outcome_names();
        let names: Vec<String> = outcomes.iter().map(|(n, _)| n.clone()).collect();
        let fights = report.ledger().fights();
        let caption = format!("Outcomes of {fights} fights (95% Wilson intervals)");
        let mut chart = rates_chart(&top, &caption, &names)?;
        for (i, ((_, outcome), (_, _, rate, ci))) in outcomes.iter().zip(report.outcome_rates()).enumerate() {
            let x = i as f64;
            bar(&mut chart, (x - 0.3, x + 0.3), (rate, ci), colour(*outcome), true)?;
        }

        // The fight-length histogram, one bar per outcome at each length, up to the 99th percentile.
        let all = report.length_histogram(None);
        let last = fray_sim::percentile(&all, 0.99).max(1);
        let first = all.keys().next().copied().unwrap_or(1).min(last);
        let beyond: u64 = all.range(last + 1..).map(|(_, c)| c).sum();
        let shown = seen(&[report]);
        let per = |o: Outcome| report.length_histogram(Some(o));
        let peak = shown
            .iter()
            .flat_map(|(_, o)| per(*o).into_values())
            .max()
            .map_or(1.0, |c| 100.0 * c as f64 / fights.max(1) as f64);
        let caption = if beyond > 0 {
            format!("Fight length by outcome ({beyond} longer fights beyond {last} not shown)")
        } else {
            "Fight length by outcome".to_owned()
        };
        let mut chart = ChartBuilder::on(&bottom)
            .caption(caption, text_style(20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d((f64::from(first) - 0.5)..(f64::from(last) + 0.5), 0f64..(peak * 1.1))
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(((last - first) as usize + 1).min(30))
            .x_label_formatter(&|x| if (x - x.round()).abs() < 1e-6 { format!("{x:.0}") } else { String::new() })
            .y_label_formatter(&|y| format!("{y:.1}"))
            .x_desc(length_label(report))
            .y_desc("fights (% of all)")
            .label_style(text_style(14))
            .axis_desc_style(text_style(15))
            .draw()
            .map_err(err)?;
        let width = 0.8 / shown.len().max(1) as f64;
        for (j, (name, outcome)) in shown.iter().enumerate() {
            let lengths = per(*outcome);
            let c = colour(*outcome);
            chart
                .draw_series(lengths.range(first..=last).map(|(l, n)| {
                    let x0 = f64::from(*l) - 0.4 + j as f64 * width;
                    Rectangle::new([(x0, 0.0), (x0 + width, 100.0 * *n as f64 / fights as f64)], c.filled())
                }))
                .map_err(err)?
                .label(name.clone())
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], c.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(INK)
            .label_font(text_style(14))
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

fn compare(base: &Report, variant: &Report) -> Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, 760)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (top, bottom) = root.split_vertically(380);
        let outcomes = base.outcome_names();
        let names: Vec<String> = outcomes.iter().map(|(n, _)| n.clone()).collect();
        let caption = "Baseline (left, lighter) and variant (right) — 95% intervals";
        let mut chart = rates_chart(&top, caption, &names)?;
        for (i, (((_, outcome), (_, _, p0, ci0)), (_, _, p1, ci1))) in
            outcomes.iter().zip(base.outcome_rates()).zip(variant.outcome_rates()).enumerate()
        {
            let x = i as f64;
            let c = colour(*outcome);
            let light = RGBColor(
                (255.0 - (255.0 - f64::from(c.0)) * 0.45) as u8,
                (255.0 - (255.0 - f64::from(c.1)) * 0.45) as u8,
                (255.0 - (255.0 - f64::from(c.2)) * 0.45) as u8,
            );
            bar(&mut chart, (x - 0.38, x - 0.02), (p0, ci0), light, true)?;
            bar(&mut chart, (x + 0.02, x + 0.38), (p1, ci1), c, true)?;
        }
        let differences = base.differences(variant);
        let reach = differences.iter().map(|(_, _, (lo, hi))| lo.abs().max(hi.abs())).fold(0.01, f64::max) * 100.0;
        let mut chart = ChartBuilder::on(&bottom)
            .caption("Variant − baseline, with its 95% interval (Newcombe)", text_style(20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5f64..(names.len() as f64 - 0.5), (-reach * 1.25)..(reach * 1.25))
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(names.len() * 2 + 1)
            .x_label_formatter(&category(&names))
            .y_label_formatter(&|y| format!("{y:+.1}"))
            .x_desc("outcome")
            .y_desc("difference in rate (percentage points)")
            .label_style(text_style(14))
            .axis_desc_style(text_style(15))
            .draw()
            .map_err(err)?;
        chart
            .draw_series([PathElement::new(vec![(-0.5, 0.0), (names.len() as f64 - 0.5, 0.0)], INK.stroke_width(1))])
            .map_err(err)?;
        for (i, ((_, outcome), (_, d, (lo, hi)))) in outcomes.iter().zip(&differences).enumerate() {
            let x = i as f64;
            let c = colour(*outcome);
            let (d, lo, hi) = (100.0 * d, 100.0 * lo, 100.0 * hi);
            chart
                .draw_series([
                    PathElement::new(vec![(x, lo), (x, hi)], c.stroke_width(3)),
                    PathElement::new(vec![(x - 0.08, lo), (x + 0.08, lo)], c.stroke_width(3)),
                    PathElement::new(vec![(x - 0.08, hi), (x + 0.08, hi)], c.stroke_width(3)),
                ])
                .map_err(err)?;
            chart.draw_series([Circle::new((x, d), 6, c.filled())]).map_err(err)?;
            chart
                .draw_series([Text::new(
                    format!("{d:+.2} pts [{lo:+.2}, {hi:+.2}]"),
                    (x, hi + reach * 0.06),
                    above(13),
                )])
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(out)
}

fn sweep(name: &str, points: &[(String, Report)]) -> Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        // Numbers on a numeric axis; other values one place each, in the order given.
        let numeric: Option<Vec<f64>> = points.iter().map(|(v, _)| v.trim().parse::<f64>().ok()).collect();
        let labels: Vec<String> = points.iter().map(|(v, _)| v.clone()).collect();
        let xs: Vec<f64> = numeric.clone().unwrap_or_else(|| (0..points.len()).map(|i| i as f64).collect());
        let (lo_x, hi_x) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(*x), b.max(*x)));
        let pad = ((hi_x - lo_x) * 0.04).max(0.5);
        let reports: Vec<&Report> = points.iter().map(|(_, r)| r).collect();
        let shown = seen(&reports);
        let fights = reports[0].ledger().fights();
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("Outcome rates against {name} ({fights} fights per value, 95% bands)"), text_style(20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d((lo_x - pad)..(hi_x + pad), 0f64..100f64)
            .map_err(err)?;
        let category = category(&labels);
        let mut mesh = chart.configure_mesh();
        mesh.y_label_formatter(&|y| format!("{y:.0}"))
            .x_desc(name)
            .y_desc("rate (% of fights)")
            .label_style(text_style(14))
            .axis_desc_style(text_style(15));
        let whole = |x: &f64| if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x}") };
        match numeric {
            None => mesh.x_labels(points.len() * 2 + 1).x_label_formatter(&category),
            Some(_) => mesh.x_label_formatter(&whole),
        };
        mesh.draw().map_err(err)?;
        for (name, outcome) in &shown {
            let c = colour(*outcome);
            let rates: Vec<(f64, f64, f64)> = reports
                .iter()
                .map(|r| {
                    let (_, _, p, (lo, hi)) = r
                        .outcome_rates()
                        .into_iter()
                        .zip(r.outcome_names())
                        .find(|(_, (_, o))| o == outcome)
                        .map(|(rate, _)| rate)
                        .unwrap_or_default();
                    (100.0 * p, 100.0 * lo, 100.0 * hi)
                })
                .collect();
            let band: Vec<(f64, f64)> = xs
                .iter()
                .zip(&rates)
                .map(|(x, r)| (*x, r.2))
                .chain(xs.iter().zip(&rates).rev().map(|(x, r)| (*x, r.1)))
                .collect();
            chart.draw_series([Polygon::new(band, c.mix(0.25).filled())]).map_err(err)?;
            chart
                .draw_series(LineSeries::new(xs.iter().zip(&rates).map(|(x, r)| (*x, r.0)), c.stroke_width(2)))
                .map_err(err)?
                .label(name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(3)));
            chart
                .draw_series(xs.iter().zip(&rates).map(|(x, r)| Circle::new((*x, r.0), 4, c.filled())))
                .map_err(err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(INK)
            .label_font(text_style(14))
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}
