//! What a run leaves for people: the history CSV and the fitness and weight plots.

use anyhow::{Context, Result};
use image::codecs::png::PngEncoder;
use image::{ColorType, ImageEncoder};
use plotters::coord::types::{RangedCoordf64, RangedCoordu64};
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use stacktune_base::fsutil::write_atomic;
use std::path::Path;

/// One generation of a run, as `history.csv` lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryRow {
    pub generation: u64,
    /// Games played for training so far, all candidates together.
    pub evaluations: u64,
    pub best: f64,
    pub mean: f64,
    pub median: f64,
    pub std: f64,
    /// Mean score of the generation's best on held-out games, when validated this generation.
    pub validation: Option<f64>,
    /// The generation's best weights, in the game's feature order: its best candidate's for
    /// the GA, the search distribution's mean (the incumbent) for CE and CMA-ES.
    pub best_weights: Vec<f64>,
    /// CE and CMA-ES: the step size the generation sampled with (`None` for the GA, whose
    /// history predates it and keeps its bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
    /// Match fitness: the half-width of the best candidate's rating's 95 % interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_ci: Option<f64>,
}

/// `history.csv`: one row per generation, the best weights by name.
pub fn write_history(path: &Path, features: &[String], rows: &[HistoryRow]) -> Result<()> {
    write_atomic(path, &history_csv(features, rows)?)
}

/// The bytes of `history.csv`; a resumed run checks the file on disk against them.
pub fn history_csv(features: &[String], rows: &[HistoryRow]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = [
        "generation",
        "evaluations",
        "best",
        "mean",
        "median",
        "std",
        "validation",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // The step size is a column of the optimisers that have one to report.
    let sigma = rows.iter().any(|r| r.sigma.is_some());
    if sigma {
        header.push("sigma".into());
    }
    // A rating's interval is a column of match runs.
    let best_ci = rows.iter().any(|r| r.best_ci.is_some());
    if best_ci {
        header.push("best_ci".into());
    }
    header.extend(features.iter().cloned());
    w.write_record(&header)?;
    for r in rows {
        let mut record = vec![
            r.generation.to_string(),
            r.evaluations.to_string(),
            r.best.to_string(),
            r.mean.to_string(),
            r.median.to_string(),
            r.std.to_string(),
            r.validation.map(|v| v.to_string()).unwrap_or_default(),
        ];
        if sigma {
            record.push(r.sigma.map(|v| v.to_string()).unwrap_or_default());
        }
        if best_ci {
            record.push(r.best_ci.map(|v| v.to_string()).unwrap_or_default());
        }
        record.extend(r.best_weights.iter().map(|x| x.to_string()));
        w.write_record(&record)?;
    }
    w.into_inner().context("cannot build history.csv")
}

/// One generation's speed, as `timings.csv` lists it (kept apart from the history: it is the
/// only figure that varies between reruns).
#[derive(Debug, Serialize, Deserialize)]
pub struct Timing {
    generation: u64,
    seconds: String,
    games: u64,
    pieces: u64,
    games_per_second: String,
    pieces_per_second: String,
}

impl Timing {
    pub fn new(generation: u64, seconds: f64, games: u64, pieces: u64) -> Timing {
        let per_second = |n: u64| n as f64 / seconds.max(1e-9);
        Timing {
            generation,
            seconds: format!("{seconds:.3}"),
            games,
            pieces,
            games_per_second: format!("{:.1}", per_second(games)),
            pieces_per_second: format!("{:.0}", per_second(pieces)),
        }
    }
}

/// Appends one generation's row to `timings.csv`, after the header row when the file is new.
pub fn append_timing(path: &Path, timing: &Timing) -> Result<()> {
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let new = file.metadata()?.len() == 0;
    let mut w = csv::WriterBuilder::new().has_headers(new).from_writer(file);
    w.serialize(timing)
        .and_then(|()| Ok(w.flush()?))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The rows of `timings.csv`, none when the file is missing (no generation finished yet).
pub fn read_timings(path: &Path) -> Result<Vec<Timing>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    csv::Reader::from_path(path)
        .and_then(|mut r| r.deserialize().collect())
        .with_context(|| format!("cannot read {}", path.display()))
}

/// Plotters needs a font; none is installed on a bare machine, so one ships in the binary.
/// (On WebAssembly plotters draws text with the browser's fonts, and a run draws no plots.)
#[cfg(not(target_family = "wasm"))]
fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            plotters::style::register_font("sans-serif", style, dejavu::sans::regular())
                .unwrap_or_else(|_| panic!("the embedded DejaVu Sans font loads"));
        }
    });
}

#[cfg(target_family = "wasm")]
fn register_font() {}

const SIZE: (u32, u32) = (960, 600);

type Area<DB> = DrawingArea<DB, plotters::coord::Shift>;

/// A chart that can be drawn on any plotters backend (one drawing code for SVG and PNG).
trait Chart {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Result<()>
    where
        DB::ErrorType: 'static;
}

/// Writes the chart as `<stem>.svg` and `<stem>.png` in `dir`, each drawn in memory and written
/// atomically.
fn write_both(dir: &Path, stem: &str, chart: &impl Chart) -> Result<()> {
    register_font();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        chart.draw(&root)?;
        root.present()
            .map_err(|e| anyhow::anyhow!("cannot draw {stem}.svg: {e}"))?;
    }
    write_atomic(&dir.join(format!("{stem}.svg")), svg.as_bytes())?;
    let (width, height) = SIZE;
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
        chart.draw(&root)?;
        root.present()
            .map_err(|e| anyhow::anyhow!("cannot draw {stem}.png: {e}"))?;
    }
    let mut png = Vec::new();
    PngEncoder::new(&mut png)
        .write_image(&rgb, width, height, ColorType::Rgb8)
        .map_err(|e| anyhow::anyhow!("cannot encode {stem}.png: {e}"))?;
    write_atomic(&dir.join(format!("{stem}.png")), &png)
}

fn plot_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("plot: {e}")
}

/// A chart's plot: generations or training games across, a measure or a weight up.
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordu64, RangedCoordf64>>;

/// The plot of a chart, drawn in `plot` with its axes: `title` above, `x` across and `y` up,
/// each with its description, `y_labels` pixels left of the plot for the y axis's labels.
fn axes<'a, DB: DrawingBackend>(
    plot: &'a Area<DB>,
    title: &str,
    y_labels: i32,
    (x, x_desc): (std::ops::Range<u64>, &str),
    (y, y_desc): (std::ops::Range<f64>, String),
) -> Result<Plot<'a, DB>>
where
    DB::ErrorType: 'static,
{
    let mut chart = ChartBuilder::on(plot)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(y_labels)
        .build_cartesian_2d(x, y)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()
        .map_err(plot_err)?;
    Ok(chart)
}

/// Held-out scores a fitness plot draws as horizontal reference lines, once they are known
/// (at the end of a run): what the tuned weights are measured against.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct References {
    /// The baseline weights' mean over the final held-out games.
    pub baseline: Option<f64>,
    /// The final best weights' mean over the same games.
    pub final_best: Option<f64>,
}

/// Width of the column that holds a chart's legend: inside the plot a legend hides the lines
/// it names.
const LEGEND_WIDTH: u32 = 230;

/// How a legend entry shows its series.
#[derive(Clone, Copy)]
enum Key {
    Line(RGBAColor, u32),
    Band(RGBAColor),
}

/// Draws the legend entries in the legend column, one per line from the top.
fn draw_legend<DB: DrawingBackend>(legend: &Area<DB>, entries: &[(Key, String)]) -> Result<()>
where
    DB::ErrorType: 'static,
{
    for (i, (key, label)) in entries.iter().enumerate() {
        let y = 64 + 22 * i as i32;
        match *key {
            Key::Line(color, width) => legend
                .draw(&PathElement::new(
                    [(0, y), (24, y)],
                    color.stroke_width(width),
                ))
                .map_err(plot_err)?,
            Key::Band(color) => legend
                .draw(&Rectangle::new([(0, y - 5), (24, y + 5)], color.filled()))
                .map_err(plot_err)?,
        }
        legend
            .draw(&Text::new(label.as_str(), (32, y - 8), ("sans-serif", 14)))
            .map_err(plot_err)?;
    }
    Ok(())
}

/// `fitness.svg`/`.png`: best, mean and a ± std band per generation, the held-out line, and
/// the baseline's and the final best's held-out scores as reference lines once known.
pub fn plot_fitness(
    dir: &Path,
    title: &str,
    measure: &str,
    rows: &[HistoryRow],
    references: References,
) -> Result<()> {
    write_both(
        dir,
        "fitness",
        &FitnessChart {
            title,
            measure,
            rows,
            references,
        },
    )
}

struct FitnessChart<'a> {
    title: &'a str,
    measure: &'a str,
    rows: &'a [HistoryRow],
    references: References,
}

impl Chart for FitnessChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let rows = self.rows;
        root.fill(&WHITE).map_err(plot_err)?;
        let (plot, legend) =
            root.split_horizontally(root.dim_in_pixel().0.saturating_sub(LEGEND_WIDTH));
        let last = rows.last().map_or(1, |r| r.generation).max(1);
        let y_desc = format!("fitness (mean {} per game)", self.measure);
        let mut chart = axes(
            &plot,
            self.title,
            80,
            (0u64..last, "generation"),
            (0.0..self.top(), y_desc),
        )?;
        let mut entries = Vec::new();
        let band_color = BLUE.mix(0.15);
        let band: Vec<(u64, f64)> = rows
            .iter()
            .map(|r| (r.generation, r.mean + r.std))
            .chain(
                rows.iter()
                    .rev()
                    .map(|r| (r.generation, (r.mean - r.std).max(0.0))),
            )
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(band, band_color)))
            .map_err(plot_err)?;
        entries.push((Key::Band(band_color), "mean ± std".to_string()));
        let green = RGBColor(0, 140, 60).to_rgba();
        for (points, color, label) in self.series(green) {
            if points.is_empty() {
                continue;
            }
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(plot_err)?;
            // Markers, so that a run of one generation still shows its points.
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(plot_err)?;
            entries.push((Key::Line(color, 2), label.to_string()));
        }
        self.draw_references(&mut chart, last, green, &mut entries)?;
        draw_legend(&legend, &entries)
    }
}

/// A line of a chart: its points, its colour and its label.
type Line = (Vec<(u64, f64)>, RGBAColor, &'static str);

impl FitnessChart<'_> {
    /// The top of the y axis: a little above the highest value drawn.
    fn top(&self) -> f64 {
        let refs = self.references;
        self.rows
            .iter()
            .flat_map(|r| [r.best, r.mean + r.std, r.validation.unwrap_or(0.0)])
            .chain([refs.baseline.unwrap_or(0.0), refs.final_best.unwrap_or(0.0)])
            .fold(1.0f64, f64::max)
            * 1.05
    }

    /// The lines per generation, each with its colour and its label: the mean, the best, and
    /// the best on held-out games (in `green`) where measured.
    fn series(&self, green: RGBAColor) -> [Line; 3] {
        let rows = self.rows;
        let validation: Vec<(u64, f64)> = rows
            .iter()
            .filter_map(|r| r.validation.map(|v| (r.generation, v)))
            .collect();
        [
            (
                rows.iter().map(|r| (r.generation, r.mean)).collect(),
                BLUE.to_rgba(),
                "mean",
            ),
            (
                rows.iter().map(|r| (r.generation, r.best)).collect(),
                RED.to_rgba(),
                "best",
            ),
            (validation, green, "best on held-out games"),
        ]
    }

    /// The reference lines known so far across the plot (up to generation `last`), each named
    /// in `entries` with its value: the final best (in `green`) and the baseline.
    fn draw_references<DB: DrawingBackend>(
        &self,
        chart: &mut Plot<'_, DB>,
        last: u64,
        green: RGBAColor,
        entries: &mut Vec<(Key, String)>,
    ) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let refs = self.references;
        let references = [
            (refs.final_best, green, "final best, held out"),
            (
                refs.baseline,
                RGBColor(90, 90, 90).to_rgba(),
                "baseline, held out",
            ),
        ];
        for (value, color, label) in references {
            let Some(v) = value else { continue };
            chart
                .draw_series(LineSeries::new([(0, v), (last, v)], color.stroke_width(1)))
                .map_err(plot_err)?;
            entries.push((Key::Line(color, 1), format!("{label}: {v:.1}")));
        }
        Ok(())
    }
}

/// How many features `weights.png` draws in full colour: past that, lines blur into each other,
/// so the rest are drawn faint and listed after them.
const HIGHLIGHTED: usize = 8;

/// `weights.svg`/`.png`: each normalised weight of the generation's best, per generation; the
/// features with the largest final weights stand out, the legend lists them largest first.
pub fn plot_weights(
    dir: &Path,
    title: &str,
    features: &[String],
    rows: &[HistoryRow],
) -> Result<()> {
    write_both(
        dir,
        "weights",
        &WeightsChart {
            title,
            features,
            rows,
        },
    )
}

struct WeightsChart<'a> {
    title: &'a str,
    features: &'a [String],
    rows: &'a [HistoryRow],
}

impl Chart for WeightsChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let (title, features, rows) = (self.title, self.features, self.rows);
        root.fill(&WHITE).map_err(plot_err)?;
        let (plot, legend) =
            root.split_horizontally(root.dim_in_pixel().0.saturating_sub(LEGEND_WIDTH));
        let last = rows.last().map_or(1, |r| r.generation).max(1);
        let y_desc = "weight (unit-length vector)".to_string();
        let mut chart = axes(
            &plot,
            title,
            60,
            (0u64..last, "generation"),
            (-1.0..1.0, y_desc),
        )?;
        let final_weight = |i: usize| rows.last().map_or(0.0, |r| r.best_weights[i]);
        let mut order: Vec<usize> = (0..features.len()).collect();
        order.sort_by(|&a, &b| final_weight(b).abs().total_cmp(&final_weight(a).abs()));
        let mut entries = Vec::new();
        // Faint ones first, so the highlighted lines are drawn over them.
        for (rank, &i) in order.iter().enumerate().rev() {
            let strong = rank < HIGHLIGHTED;
            let color = if strong {
                Palette99::pick(rank).to_rgba()
            } else {
                RGBColor(120, 120, 120).mix(0.6)
            };
            let width = if strong { 2 } else { 1 };
            let points: Vec<(u64, f64)> = rows
                .iter()
                .map(|r| (r.generation, r.best_weights[i]))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(width)))
                .map_err(plot_err)?;
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 2, color.filled())))
                .map_err(plot_err)?;
            entries.push((
                Key::Line(color, width),
                format!("{} {:+.2}", features[i], final_weight(i)),
            ));
        }
        entries.reverse();
        draw_legend(&legend, &entries)
    }
}

/// One point of a comparison curve: the held-out scores of a config's repeats after `games`
/// training games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    pub games: u64,
    pub median: f64,
    pub q1: f64,
    pub q3: f64,
}

/// `compare.svg`/`.png`: held-out fitness against training games played, one median line and
/// interquartile band per config.
pub fn plot_comparison(
    dir: &Path,
    title: &str,
    measure: &str,
    curves: &[(String, Vec<CurvePoint>)],
) -> Result<()> {
    write_both(
        dir,
        "compare",
        &ComparisonChart {
            title,
            measure,
            curves,
        },
    )
}

struct ComparisonChart<'a> {
    title: &'a str,
    measure: &'a str,
    curves: &'a [(String, Vec<CurvePoint>)],
}

impl Chart for ComparisonChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(plot_err)?;
        let (plot, legend) =
            root.split_horizontally(root.dim_in_pixel().0.saturating_sub(LEGEND_WIDTH));
        let points = self.curves.iter().flat_map(|(_, c)| c);
        let right = points.clone().map(|p| p.games).max().unwrap_or(1).max(1);
        let top = points.map(|p| p.q3).fold(1.0f64, f64::max) * 1.05;
        let y_desc = format!("held-out mean {} per game", self.measure);
        let mut chart = axes(
            &plot,
            self.title,
            80,
            (0u64..right, "training games played"),
            (0.0..top, y_desc),
        )?;
        let mut entries = Vec::new();
        // Strong colours that stay apart on white; bands are the same colours, faint.
        const COLOURS: [(u8, u8, u8); 6] = [
            (214, 39, 40),
            (31, 119, 180),
            (44, 160, 44),
            (148, 103, 189),
            (255, 127, 14),
            (140, 86, 75),
        ];
        for (i, (label, curve)) in self.curves.iter().enumerate() {
            let (r, g, b) = COLOURS[i % COLOURS.len()];
            let color = RGBColor(r, g, b).to_rgba();
            let band: Vec<(u64, f64)> = curve
                .iter()
                .map(|p| (p.games, p.q3))
                .chain(curve.iter().rev().map(|p| (p.games, p.q1)))
                .collect();
            chart
                .draw_series(std::iter::once(Polygon::new(band, color.mix(0.15))))
                .map_err(plot_err)?;
            let line: Vec<(u64, f64)> = curve.iter().map(|p| (p.games, p.median)).collect();
            chart
                .draw_series(LineSeries::new(line.clone(), color.stroke_width(2)))
                .map_err(plot_err)?;
            chart
                .draw_series(line.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(plot_err)?;
            entries.push((Key::Line(color, 2), format!("{label} (median)")));
            entries.push((Key::Band(color.mix(0.15)), format!("{label} (quartiles)")));
        }
        draw_legend(&legend, &entries)
    }
}
