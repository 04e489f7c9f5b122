//! The configuration reader over any text: it never panics, a problem is always reported with
//! words, and text that parsed once parses the same again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sluice_config::parse;

fuzz_target!(|text: &str| {
    let (config, problems) = parse(text);
    assert!(problems.iter().all(|p| !p.trim().is_empty()));
    assert_eq!(
        parse(text),
        (config, problems),
        "the reader is a function of its text"
    );
});
