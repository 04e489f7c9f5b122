//! Wall time per frame, GPU work included, for a one-row change, a one-line scroll and a
//! full redraw, at 160×50 and 300×80. CPU time (main thread and whole process) comes from
//! `frame-cpu`; see docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use sluice_benches::frames::{Change, FrameBench};

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame");
    group.sample_size(20);
    for (cols, rows) in [(160u16, 50u16), (300, 80)] {
        let mut bench = FrameBench::new(cols, rows, false);
        for change in Change::ALL {
            group.bench_function(format!("{}x{}/{}", cols, rows, change.name()), |b| {
                b.iter_custom(|iterations| {
                    let mut total = std::time::Duration::ZERO;
                    for _ in 0..iterations {
                        bench.change(change);
                        let started = std::time::Instant::now();
                        bench.frame();
                        bench.gpu.wait_idle();
                        total += started.elapsed();
                    }
                    total
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
