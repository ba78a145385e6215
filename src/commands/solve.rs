//! `solve`: Panel de Pon puzzles (being written).

#[derive(clap::Args, Debug)]
pub struct SolveArgs {}

pub fn run(_args: SolveArgs) -> anyhow::Result<()> {
    anyhow::bail!("the Panel de Pon solver is not written yet")
}
