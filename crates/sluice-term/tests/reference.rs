//! Recorded reference tests: a byte stream and the screen it must produce (see ref/README.md).

use std::path::Path;

use sluice_term::{DumpFormat, Replay};

fn size_of(name: &str, sizes: &str) -> (u16, u16) {
    sizes
        .lines()
        .find_map(|line| {
            let (case, size) = line.split_once(' ')?;
            let (cols, rows) = size.split_once('x')?;
            (case == name).then(|| (cols.parse().unwrap(), rows.parse().unwrap()))
        })
        .unwrap_or((20, 5))
}

#[test]
fn every_reference_stream_produces_its_screen() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ref");
    let sizes = std::fs::read_to_string(dir.join("sizes")).unwrap();
    let mut cases = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "in") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let (cols, rows) = size_of(&name, &sizes);
        let mut replay = Replay::new(cols, rows, 100);
        replay.feed(&std::fs::read(&path).unwrap());
        let screen = replay.dump(DumpFormat::Text, false);
        let expected = std::fs::read_to_string(path.with_extension("screen")).unwrap();
        if screen != expected {
            failures.push(format!(
                "{name}:\n--- expected\n{expected}--- got\n{screen}"
            ));
        }
        cases += 1;
    }
    assert!(cases >= 7, "found {cases} reference cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
