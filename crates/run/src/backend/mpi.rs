//! The MPI backend: rank 0 runs the command and deals each batch's (player, game) pairs out to
//! every rank, itself included; the other ranks only play what they are dealt.
//!
//! A rank asks for its next chunk by returning the results of its last, and rank 0 deals
//! chunks by guided self-scheduling ([`Dealer`]), so fast and slow ranks alike stay busy.
//! Results land at their pairs' places, so the batch's results are the same whoever played
//! which chunk.
//!
//! Messages, all between rank 0 and one other rank: the batch as JSON (once per batch), a
//! chunk as two numbers (its first and past-the-end pair), the chunk's results as ten 64-bit
//! words a game, and the stop at the end. Only rank 0's main thread calls MPI; its games are
//! played by a second thread on its own rayon pool.

use super::{Backend, Batch, Dealer, Local, Table, decode, encode};
use anyhow::{Context, Result, bail};
use mpi::Tag;
use mpi::point_to_point::{Message, Status};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use stacktune_base::progress::Progress;
use stacktune_game::EpisodeResult;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const BATCH: Tag = 1;
const WORK: Tag = 2;
const RESULTS: Tag = 3;
const STOP: Tag = 4;

/// Runs `command` as an MPI job's rank 0, or serves it as another rank. Every rank first
/// checks that all run the same binary with the same arguments; a mismatch, or a command that
/// does not play through the backend started as several ranks, is an error, not K separate
/// runs.
pub(super) fn launch(
    name: &str,
    scales_out: bool,
    command: impl FnOnce(&dyn Backend) -> Result<()>,
) -> Result<()> {
    let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)
        .context("cannot initialise MPI")?;
    let world = universe.world();
    let (rank, size) = (world.rank(), world.size());
    let cores = handshake(&world)?;
    if size == 1 {
        return command(&Local);
    }
    if !scales_out {
        return match rank {
            0 => bail!(
                "`{name}` does not play its games over MPI; run it without mpirun, or with -n 1"
            ),
            _ => Ok(()),
        };
    }
    if rank != 0 {
        if let Err(e) = serve(&world) {
            eprintln!("error: rank {rank}: {e:#}");
            world.abort(1);
        }
        return Ok(());
    }
    let result = command(&Cluster {
        world: &world,
        cores,
    });
    for worker in 1..size {
        world
            .process_at_rank(worker)
            .send_with_tag(&[0u8][..], STOP);
    }
    result
}

/// What must be the same on every rank: the binary (its version and its bytes' CRC-32) and
/// the arguments (the command, and the config file it names).
fn fingerprint() -> Result<(String, String)> {
    let exe = std::env::current_exe().context("cannot find this binary")?;
    let bytes = std::fs::read(&exe).with_context(|| format!("cannot read {}", exe.display()))?;
    let binary = format!(
        "stacktune {} ({:08x})",
        env!("CARGO_PKG_VERSION"),
        crc32fast::hash(&bytes)
    );
    let args: Vec<String> = std::env::args().skip(1).collect();
    Ok((binary, args.join("\0")))
}

/// Rank 0 shows every rank its fingerprint; each compares it with its own, and all learn every
/// rank's verdict and core count. Returns the core counts by rank.
fn handshake(world: &SimpleCommunicator) -> Result<Vec<u64>> {
    let (binary, args) = fingerprint()?;
    let mine = format!("{binary}\n{args}").into_bytes();
    let root = world.process_at_rank(0);
    let mut len = mine.len() as u64;
    root.broadcast_into(&mut len);
    let mut theirs = match world.rank() {
        0 => mine.clone(),
        _ => vec![0u8; len as usize],
    };
    root.broadcast_into(&mut theirs[..]);
    let theirs = String::from_utf8_lossy(&theirs).into_owned();
    let (root_binary, root_args) = theirs.split_once('\n').unwrap_or((&theirs, ""));
    let verdict = match (root_binary == binary, root_args == args) {
        (false, _) => 1,
        (true, false) => 2,
        (true, true) => 0,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let mut all = vec![0u64; 2 * world.size() as usize];
    world.all_gather_into(&[verdict, cores][..], &mut all[..]);
    let ranks = |v: u64| -> Vec<String> {
        let ranks = all.chunks(2).enumerate().filter(|(_, c)| c[0] == v);
        ranks.map(|(r, _)| r.to_string()).collect()
    };
    let (other_binary, other_args) = (ranks(1), ranks(2));
    if !other_binary.is_empty() {
        bail!(
            "rank(s) {} run another stacktune binary than rank 0 ({root_binary}); start every rank with the same build",
            other_binary.join(", ")
        );
    }
    if !other_args.is_empty() {
        bail!(
            "rank(s) {} were started with other arguments than rank 0 (`{}`); start every rank with the same command",
            other_args.join(", "),
            root_args.replace('\0', " ")
        );
    }
    Ok(all.chunks(2).map(|c| c[1]).collect())
}

/// Waits for the next message `probe` finds, sleeping between looks rather than spinning as
/// a blocking MPI probe does: ranks share cores with the games' threads (and rank 0 with its
/// own games), so waiting must cost no core. The pause starts short, so a message in flight is
/// seen at once, and grows to a millisecond while nothing comes.
fn wait(probe: impl Fn() -> Option<(Message, Status)>) -> (Message, Status) {
    let mut pause = Duration::from_micros(10);
    loop {
        if let Some(found) = probe() {
            return found;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

/// A rank other than 0: plays the chunks of the latest batch until told to stop.
fn serve(world: &SimpleCommunicator) -> Result<()> {
    let root = world.process_at_rank(0);
    let never = AtomicBool::new(false);
    let mut table = None;
    loop {
        let (message, status) = wait(|| root.immediate_matched_probe());
        match status.tag() {
            BATCH => {
                let (json, _) = (message, status).matched_receive_vec::<u8>();
                let batch: Batch = serde_json::from_slice(&json).context("a garbled batch")?;
                table = Some(Table::new(&batch)?);
            }
            WORK => {
                let (range, _) = (message, status).matched_receive_vec::<u64>();
                let table = table.as_ref().context("a chunk before its batch")?;
                let results = table
                    .play_any(range[0]..range[1], &never, &Progress::hidden())
                    .expect("a rank's games are never stopped");
                root.send_with_tag(&encode(&results)[..], RESULTS);
            }
            STOP => {
                (message, status).matched_receive_vec::<u8>();
                return Ok(());
            }
            tag => bail!("unexpected message (tag {tag}) from rank 0"),
        }
    }
}

/// Rank 0's backend: deals every batch out to all ranks.
struct Cluster<'a> {
    world: &'a SimpleCommunicator,
    /// Cores of each rank, by rank: its threads when a batch asks for one per core.
    cores: Vec<u64>,
}

impl Backend for Cluster<'_> {
    fn play(
        &self,
        batch: &Batch,
        stop: &AtomicBool,
        progress: &Progress,
    ) -> Result<Option<Vec<EpisodeResult>>> {
        let table = Table::new(batch)?;
        let json = serde_json::to_vec(batch)?;
        let ranks = self.world.size();
        for worker in 1..ranks {
            let process = self.world.process_at_rank(worker);
            process.send_with_tag(&json[..], BATCH);
        }
        let cores = &self.cores;
        let threads = |rank: i32| match batch.threads {
            0 => cores[rank as usize],
            t => t as u64,
        };
        let dealer = Mutex::new(Dealer::new(batch.pairs(), (0..ranks).map(threads).sum()));
        let take = |rank| dealer.lock().expect("dealer lock").take(threads(rank));
        let results = Mutex::new(vec![EpisodeResult::default(); batch.pairs() as usize]);
        let place = |chunk: Range<u64>, played: Vec<EpisodeResult>| {
            let mut results = results.lock().expect("results lock");
            results[chunk.start as usize..chunk.end as usize].copy_from_slice(&played);
        };
        let played = std::thread::scope(|scope| {
            // Rank 0's own share, on its own threads.
            let local = scope.spawn(|| {
                while let Some(chunk) = take(0) {
                    match table.play_any(chunk.clone(), stop, progress) {
                        Some(played) => place(chunk, played),
                        None => return false,
                    }
                }
                true
            });
            let mut dealt: Vec<Option<Range<u64>>> = vec![None; ranks as usize];
            let deal = |worker: i32, dealt: &mut [Option<Range<u64>>]| {
                let chunk = take(worker).filter(|_| !stop.load(Ordering::SeqCst));
                if let Some(chunk) = &chunk {
                    let process = self.world.process_at_rank(worker);
                    process.send_with_tag(&[chunk.start, chunk.end][..], WORK);
                }
                dealt[worker as usize] = chunk;
            };
            for worker in 1..ranks {
                deal(worker, &mut dealt);
            }
            while dealt.iter().any(Option::is_some) {
                let (message, status) = wait(|| self.world.any_process().immediate_matched_probe());
                let worker = status.source_rank();
                let (words, _) = (message, status).matched_receive_vec::<u64>();
                let chunk = dealt[worker as usize].take().expect("a chunk was dealt");
                let played = decode(&words);
                progress.add_moves(played.iter().map(|r| r.moves).sum());
                played.iter().for_each(|_| progress.inc());
                place(chunk, played);
                deal(worker, &mut dealt);
            }
            local.join().expect("rank 0's games do not panic")
        });
        let all_dealt = dealer.lock().expect("dealer lock").is_done();
        Ok((played && all_dealt).then(|| results.into_inner().expect("results lock")))
    }
}
