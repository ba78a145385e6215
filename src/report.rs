//! What a run leaves for people: the history CSV and the fitness and weight plots.

use crate::fsutil::write_atomic;
use anyhow::{Context, Result};
use image::codecs::png::PngEncoder;
use image::{ColorType, ImageEncoder};
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Once;

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
    /// The generation's best weights, in the game's feature order.
    pub best_weights: Vec<f64>,
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
        record.extend(r.best_weights.iter().map(|x| x.to_string()));
        w.write_record(&record)?;
    }
    w.into_inner().context("cannot build history.csv")
}

/// One generation's speed, as `timings.csv` lists it (kept apart from the history: it is the
/// only figure that varies between reruns).
#[derive(Serialize)]
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

/// Plotters needs a font; none is installed on a bare machine, so one ships in the binary.
fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            plotters::style::register_font("sans-serif", style, dejavu::sans::regular())
                .unwrap_or_else(|_| panic!("the embedded DejaVu Sans font loads"));
        }
    });
}

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

/// `fitness.svg`/`.png`: best, mean and a ± std band per generation, and the validation line.
pub fn plot_fitness(dir: &Path, title: &str, measure: &str, rows: &[HistoryRow]) -> Result<()> {
    write_both(
        dir,
        "fitness",
        &FitnessChart {
            title,
            measure,
            rows,
        },
    )
}

struct FitnessChart<'a> {
    title: &'a str,
    measure: &'a str,
    rows: &'a [HistoryRow],
}

impl Chart for FitnessChart<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let (title, measure, rows) = (self.title, self.measure, self.rows);
        root.fill(&WHITE).map_err(plot_err)?;
        let last = rows.last().map_or(1, |r| r.generation).max(1);
        let top = rows
            .iter()
            .flat_map(|r| [r.best, r.mean + r.std, r.validation.unwrap_or(0.0)])
            .fold(1.0f64, f64::max)
            * 1.05;
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(80)
            .build_cartesian_2d(0u64..last, 0.0..top)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc("generation")
            .y_desc(format!("fitness (mean {measure} per game)"))
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 18))
            .draw()
            .map_err(plot_err)?;
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
            .draw_series(std::iter::once(Polygon::new(band, BLUE.mix(0.15))))
            .map_err(plot_err)?
            .label("mean ± std")
            .legend(|(x, y)| {
                Rectangle::new([(x, y - 5), (x + 20, y + 5)], BLUE.mix(0.15).filled())
            });
        chart
            .draw_series(LineSeries::new(
                rows.iter().map(|r| (r.generation, r.mean)),
                BLUE.stroke_width(2),
            ))
            .map_err(plot_err)?
            .label("mean")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        chart
            .draw_series(LineSeries::new(
                rows.iter().map(|r| (r.generation, r.best)),
                RED.stroke_width(2),
            ))
            .map_err(plot_err)?
            .label("best")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED.stroke_width(2)));
        let validation: Vec<(u64, f64)> = rows
            .iter()
            .filter_map(|r| r.validation.map(|v| (r.generation, v)))
            .collect();
        if !validation.is_empty() {
            let green = RGBColor(0, 140, 60);
            chart
                .draw_series(LineSeries::new(validation.clone(), green.stroke_width(2)))
                .map_err(plot_err)?
                .label("best on held-out games")
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], green.stroke_width(2))
                });
            chart
                .draw_series(
                    validation
                        .iter()
                        .map(|&p| Circle::new(p, 4, green.filled())),
                )
                .map_err(plot_err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font(("sans-serif", 16))
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(plot_err)?;
        Ok(())
    }
}

/// `weights.svg`/`.png`: each normalised weight of the generation's best, per generation.
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
        // The legend gets a column of its own: inside the plot it hides the lines it names.
        let (plot, legend) = root.split_horizontally(root.dim_in_pixel().0.saturating_sub(190));
        let last = rows.last().map_or(1, |r| r.generation).max(1);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(60)
            .build_cartesian_2d(0u64..last, -1.0..1.0)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc("generation")
            .y_desc("weight (unit-length vector)")
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 18))
            .draw()
            .map_err(plot_err)?;
        for (i, name) in features.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    rows.iter().map(|r| (r.generation, r.best_weights[i])),
                    color.stroke_width(2),
                ))
                .map_err(plot_err)?;
            let y = 64 + 22 * i as i32;
            legend
                .draw(&PathElement::new([(0, y), (24, y)], color.stroke_width(2)))
                .map_err(plot_err)?;
            legend
                .draw(&Text::new(name.as_str(), (32, y - 8), ("sans-serif", 14)))
                .map_err(plot_err)?;
        }
        Ok(())
    }
}
