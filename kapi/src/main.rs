//! `kapi`: Kubernetes manifests and API knowledge, offline, from the built-in Scheme and
//! RESTMapper. See `kapi --help`.
//!
//! Installed or linked as `kubectl-convert`, it is that kubectl plugin: `kubectl convert
//! -f ...` runs `kapi convert` with the plugin's flags and output layout.

mod cli;
mod commands;
mod printer;
mod progress;
mod scheme;
mod table;

use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

/// Every allocation of the CLI and of `kapi serve`: see the dependency's note in
/// Cargo.toml.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The file name kubectl looks for to run `kubectl convert`.
const PLUGIN_NAME: &str = "kubectl-convert";

fn main() -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    let result = if invoked_as_plugin() {
        let cli = cli::PluginCli::parse();
        commands::convert::run(&cli.args, commands::convert::Mode::Kubectl, &mut stdout)
    } else {
        commands::run(cli::Cli::parse().command, &mut stdout)
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Whether the program was started as `kubectl-convert` (`kubectl-convert.exe` on
/// Windows).
fn invoked_as_plugin() -> bool {
    std::env::args_os().next().is_some_and(|argv0| {
        Path::new(&argv0)
            .file_stem()
            .is_some_and(|stem| stem == PLUGIN_NAME)
    })
}
