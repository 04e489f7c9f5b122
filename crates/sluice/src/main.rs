//! `sluice`: the terminal emulator that is never the slow reader.

mod app;
mod appearance;
mod cli;
mod clipboard;
mod events;
mod headless;
mod ipc;
mod metrics;
mod notifier;
mod pane;
mod vulkan_drivers;
mod window;

use std::process::ExitCode;

use clap::Parser as _;
// The configuration reader is a crate of its own (no window, no GPU), so that tests and the
// fuzz targets reach it cheaply.
use sluice_config as config;

use crate::cli::Cli;

/// Exit status when the program to run could not be started, as shells use.
const EXIT_CANNOT_RUN: u8 = 127;
/// Exit status for any other failure of Sluice itself.
const EXIT_FAILURE: u8 = 1;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(cli::Subcommands::Msg(msg)) = &cli.subcommand {
        return remote(msg);
    }
    if let Some(shell) = cli.completions {
        let mut command = <Cli as clap::CommandFactory>::command();
        clap_complete::generate(shell, &mut command, "sluice", &mut std::io::stdout());
        return ExitCode::SUCCESS;
    }
    if cli.man {
        let command = <Cli as clap::CommandFactory>::command();
        return match clap_mangen::Man::new(command).render(&mut std::io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("sluice: {err}");
                ExitCode::from(EXIT_FAILURE)
            }
        };
    }
    if cli.list_themes {
        for theme in config::themes::THEMES {
            println!("{:<18} {} ({})", theme.name, theme.author, theme.license);
        }
        return ExitCode::SUCCESS;
    }
    if cli.print_config {
        print!("{}", config::Config::default_toml());
        return ExitCode::SUCCESS;
    }
    if !cli.headless {
        // Before any thread starts: it sets a variable of the process's environment.
        vulkan_drivers::limit_to_software_without_gpu();
    }
    let mut loaded = config::load_with(cli.config.as_deref(), &cli.options);
    init_logging(&cli, &loaded.config);
    vulkan_drivers::report();
    loaded.report();
    cli.apply_to(&mut loaded.config);
    let result = if cli.headless {
        headless::run(&cli, &loaded.config)
    } else {
        app::run(&cli, loaded.config, loaded.problems)
    };
    match result {
        Ok(code) => ExitCode::from(code.clamp(0, 255) as u8),
        Err(err) => {
            eprintln!("sluice: {err:#}");
            let cannot_run = err
                .downcast_ref::<sluice_term::SessionError>()
                .is_some_and(sluice_term::SessionError::is_spawn_failure);
            ExitCode::from(if cannot_run {
                EXIT_CANNOT_RUN
            } else {
                EXIT_FAILURE
            })
        }
    }
}

/// Where a window's log goes when Sluice was started without a terminal on stderr (from a
/// launcher, whose output nobody reads): `$XDG_STATE_HOME/sluice/sluice.log`
/// (`~/.local/state/…`). Headless runs and `sluice msg` are run from terminals; they log to
/// stderr only.
fn default_log_file(cli: &Cli) -> Option<std::path::PathBuf> {
    // SAFETY: isatty only inspects the descriptor.
    let on_terminal = unsafe { libc::isatty(libc::STDERR_FILENO) } == 1;
    if on_terminal || cli.headless || cli.subcommand.is_some() {
        return None;
    }
    let state = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/state"))
        })?;
    Some(state.join("sluice").join("sluice.log"))
}

/// `sluice msg`: sends one request to a running instance and prints its answer as JSON (the
/// text itself for `get-text`).
fn remote(msg: &cli::MsgArgs) -> ExitCode {
    let answer = ipc::find_socket(msg.socket.as_deref())
        .and_then(|socket| ipc::send(&socket, &msg.request.request()));
    match answer {
        // Text is for files and pipes: printed as it is, not as a JSON string.
        Ok(ipc::Answer::Ok(value))
            if matches!(msg.request, cli::MsgRequest::GetText { .. })
                && value["text"].is_string() =>
        {
            print!("{}", value["text"].as_str().unwrap_or_default());
            ExitCode::SUCCESS
        }
        Ok(ipc::Answer::Ok(value)) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&value).expect("JSON values serialise")
            );
            ExitCode::SUCCESS
        }
        Ok(ipc::Answer::Error(message)) => {
            eprintln!("sluice msg: {message}");
            ExitCode::from(EXIT_FAILURE)
        }
        Err(err) => {
            eprintln!("sluice msg: {err:#}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Logs go to stderr (and to `debug.log_file` if set), filtered by `SLUICE_LOG` (e.g.
/// `SLUICE_LOG=debug`) or `RUST_LOG`, else `-q`/`-v`, else `debug.log_level` (warnings by
/// default).
fn init_logging(cli: &Cli, config: &config::Config) {
    let level = match (cli.quiet, cli.verbose) {
        (true, _) => "error".to_owned(),
        (false, 0) => config.debug.log_level.clone(),
        (false, 1) => "info".to_owned(),
        (false, 2) => "debug".to_owned(),
        (false, _) => "trace".to_owned(),
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("SLUICE_LOG")
        .or_else(|_| tracing_subscriber::EnvFilter::try_from_env("RUST_LOG"))
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(&level))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let path = config
        .debug
        .log_file
        .as_ref()
        .map(std::path::PathBuf::from)
        .or_else(|| default_log_file(cli));
    let file = path.as_deref().and_then(|path| {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|err| {
                eprintln!(
                    "sluice: log file {}: {err}; logging to stderr only",
                    path.display()
                )
            })
            .ok()?;
        if config.debug.log_file.is_none() {
            eprintln!("sluice: logging to {}", path.display());
        }
        Some(file)
    });
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match file {
        Some(file) => {
            use tracing_subscriber::fmt::writer::MakeWriterExt as _;
            builder
                .with_ansi(false)
                .with_writer(std::io::stderr.and(std::sync::Mutex::new(file)))
                .init();
        }
        None => builder.with_writer(std::io::stderr).init(),
    }
}
