//! `kapi api-versions`: every served group/version, sorted, as `kubectl api-versions`.

use std::io::Write;
use std::process::ExitCode;

use apimachinery::meta::APIGroupResources;

use super::CommandError;
use crate::scheme::scheme;

pub fn run(out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let scheme = scheme()?;
    let mut versions: Vec<String> = APIGroupResources::from_scheme(&scheme)
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
