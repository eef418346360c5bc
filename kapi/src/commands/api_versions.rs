//! `kapi api-versions`: every group/version kube-apiserver serves by default, sorted, as
//! `kubectl api-versions` prints them.

use std::io::Write;
use std::process::ExitCode;

use super::CommandError;
use crate::scheme::{scheme, served_groups};

pub fn run(out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let scheme = scheme()?;
    let mut versions: Vec<String> = served_groups(&scheme)
        .into_iter()
        .flat_map(|g| {
            g.group
                .versions
                .into_iter()
                .flatten()
                .map(|v| v.group_version)
        })
        .collect();
    versions.sort();
    versions.dedup();
    for v in versions {
        writeln!(out, "{v}")?;
    }
    Ok(ExitCode::SUCCESS)
}
