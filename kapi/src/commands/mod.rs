//! One module per command; each writes to the given output and returns the exit code.

mod api_resources;
mod api_versions;
mod conformance;
pub mod convert;
mod deprecations;
mod documents;
mod inputs;
mod resolve;
mod serve;
mod serve_authorization;
mod validate;

use std::io::Write;
use std::process::ExitCode;

use crate::cli::Command;

/// A failure that ends a command: a one-line message.
pub type CommandError = Box<dyn std::error::Error>;

/// Runs `command`, writing its output to `out`.
pub fn run(command: Command, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    match command {
        Command::ApiResources(args) => api_resources::run(&args, out),
        Command::ApiVersions => api_versions::run(out),
        Command::Resolve(args) => resolve::run(&args, out),
        Command::Conformance(args) => conformance::run(&args, out),
        Command::Validate(args) => validate::run(&args, out),
        Command::Convert(args) => convert::run(&args, convert::Mode::Stream, out),
        Command::Deprecations(args) => deprecations::run(&args, out),
        Command::Serve(args) => serve::run(&args, out),
    }
}
