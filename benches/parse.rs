//! Parse throughput of the terminal core, per payload, in bytes per second.
//!
//! 160×50 grid, 10,000 lines of scrollback, each payload as the PTY delivers it (`\r\n`, as
//! `parse-ratio` feeds it), fed in 64 KiB `advance` calls under the same
//! `FairMutex` the parser thread takes: what the parser thread does, minus the ring. Each
//! payload is parsed twice in the same run: by Sluice's `Feeder` (vte with the fast path for
//! printable ASCII, what the parser thread uses) and by vte and `Term` alone, the baseline.

use alacritty_terminal::event::VoidListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::sync::FairMutex;
use alacritty_terminal::term::{Config, Term};
use alacritty_terminal::vte::ansi::{Processor, StdSyncHandler};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sluice_benches::{PAYLOADS, as_the_pty_delivers, payload};
use sluice_term::Feeder;

struct Size;

impl Dimensions for Size {
    fn total_lines(&self) -> usize {
        50
    }
    fn screen_lines(&self) -> usize {
        50
    }
    fn columns(&self) -> usize {
        160
    }
}

const PAYLOAD_BYTES: usize = 4 << 20;

fn parse_throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    group.sample_size(20);
    for name in PAYLOADS {
        let bytes = as_the_pty_delivers(&payload(name, PAYLOAD_BYTES).expect("known payload"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        let term = FairMutex::new(Term::new(Config::default(), &Size, VoidListener));
        let mut feeder = Feeder::new();
        group.bench_function(format!("{name}/sluice"), |b| {
            b.iter(|| {
                for slice in bytes.chunks(sluice_term::MAX_LOCK_SLICE) {
                    feeder.advance(&mut term.lock(), slice);
                }
            })
        });
        let term = FairMutex::new(Term::new(Config::default(), &Size, VoidListener));
        let mut processor: Processor<StdSyncHandler> = Processor::new();
        group.bench_function(format!("{name}/vte"), |b| {
            b.iter(|| {
                for slice in bytes.chunks(sluice_term::MAX_LOCK_SLICE) {
                    processor.advance(&mut *term.lock(), slice);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, parse_throughput);
criterion_main!(benches);
