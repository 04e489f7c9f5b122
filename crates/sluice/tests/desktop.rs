//! The desktop integration files validate with the desktop's own tools, and agree with each
//! other and with the binary.

use std::path::PathBuf;
use std::process::Command;

fn asset(path: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).join(path)
}

fn passes(program: &str, args: &[&str], file: &PathBuf) {
    let out = Command::new(program)
        .args(args)
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("{program} runs (scripts/setup.sh test installs it): {e}"));
    assert!(
        out.status.success(),
        "{program} {}: {}{}",
        file.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_desktop_entry_and_metainfo_validate_and_name_the_same_app() {
    let entry = asset("desktop/dev.sluice.Sluice.desktop");
    let metainfo = asset("desktop/dev.sluice.Sluice.metainfo.xml");
    passes("desktop-file-validate", &[], &entry);
    passes("appstreamcli", &["validate", "--no-net"], &metainfo);

    let text = std::fs::read_to_string(&entry).unwrap();
    assert!(text.contains("\nCategories=System;TerminalEmulator;\n"));
    assert!(text.contains("\nX-ExecArg=-e\n"));
    assert!(text.contains("\nExec=sluice\n"));
    // The class the window sets by default is the one the entry expects.
    let class = sluice_config::Config::default().window.class;
    assert!(
        text.contains(&format!("\nStartupWMClass={class}\n")),
        "{class}"
    );
    assert!(text.contains("\nIcon=dev.sluice.Sluice\n"));
    assert!(asset("icons/dev.sluice.Sluice.svg").is_file());
    for size in [48, 128, 256] {
        assert!(asset(&format!("icons/{size}x{size}/dev.sluice.Sluice.png")).is_file());
    }
    let meta = std::fs::read_to_string(&metainfo).unwrap();
    assert!(
        meta.contains("<launchable type=\"desktop-id\">dev.sluice.Sluice.desktop</launchable>")
    );
}
