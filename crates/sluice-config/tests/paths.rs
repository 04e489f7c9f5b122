//! Where the file is looked for: the user's directory first, then each system directory.
//! (Its own test binary: it sets environment variables.)

use std::path::PathBuf;

#[test]
fn the_user_file_comes_first_then_each_of_xdg_config_dirs() {
    let dir = std::env::temp_dir().join(format!("sluice-config-paths-{}", std::process::id()));
    let (user, a, b) = (dir.join("user"), dir.join("a"), dir.join("b"));
    // SAFETY: this test binary has one test; nothing else reads the environment meanwhile.
    unsafe {
        std::env::set_var("XDG_CONFIG_HOME", &user);
        std::env::set_var(
            "XDG_CONFIG_DIRS",
            format!("{}:{}", a.display(), b.display()),
        );
    }
    let file = |base: &PathBuf| base.join("sluice/sluice.toml");
    assert_eq!(
        sluice_config::default_paths(),
        vec![file(&user), file(&a), file(&b)]
    );
    // None exists: the user's, to be watched for its creation.
    assert_eq!(sluice_config::path(None), Some(file(&user)));
    std::fs::create_dir_all(b.join("sluice")).unwrap();
    std::fs::write(file(&b), "[font]\nsize = 17.0\n").unwrap();
    assert_eq!(sluice_config::path(None), Some(file(&b)));
    assert_eq!(sluice_config::load(None).config.font.size, 17.0);
    std::fs::remove_dir_all(&dir).unwrap();
}
