//! docs/configuration.md shows every option as `sluice --print-config` prints it: the copy in
//! the doc must be the generated one, so the doc cannot drift from the code.

#[test]
fn the_documented_defaults_are_the_generated_ones() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/configuration.md"
    ))
    .unwrap();
    let start = doc.find("```toml\n[font]").expect("the options block") + "```toml\n".len();
    let end = start + doc[start..].find("```").expect("its end");
    assert_eq!(
        &doc[start..end],
        sluice_config::Config::default_toml(),
        "docs/configuration.md is stale: paste `sluice --print-config` into it"
    );
}
