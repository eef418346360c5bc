//! `kapi`: Kubernetes manifests and API knowledge, offline, from the built-in Scheme and
//! RESTMapper. See `kapi --help`.

mod cli;
mod commands;
mod printer;
mod scheme;
mod table;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let mut stdout = std::io::stdout().lock();
    match commands::run(cli.command, &mut stdout) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
