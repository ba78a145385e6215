//! `solve-connect`: perfect play for Connect Four (being written).

#[derive(clap::Args, Debug)]
pub struct SolveConnectArgs {}

pub fn run(_args: SolveConnectArgs) -> anyhow::Result<()> {
    anyhow::bail!("the Connect Four solver is not written yet")
}
