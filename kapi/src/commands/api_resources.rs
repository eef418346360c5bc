//! `kapi api-resources`: the table `kubectl api-resources` prints for a server serving
//! the built-in API as kube-apiserver does by default (GA versions): each group's resources at its preferred version (a resource only an
//! older version serves is listed at that version), sorted by group then name, or by the
//! `--sort-by` column then name.

use std::collections::HashSet;
use std::io::Write;
use std::process::ExitCode;

use apimachinery::apis::meta::v1::APIResource;
use apimachinery::meta::APIGroupResources;

use super::CommandError;
use crate::cli::{ApiResourcesArgs, ResourcesOutput, SortBy};
use crate::scheme::{scheme, served_groups};
use crate::table::Table;

struct Row {
    group: String,
    group_version: String,
    resource: APIResource,
}

pub fn run(args: &ApiResourcesArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let scheme = scheme()?;
    let mut rows = preferred_resources(&served_groups(&scheme));
    rows.retain(|row| {
        args.api_group.as_ref().is_none_or(|g| *g == row.group)
            && args.namespaced.is_none_or(|n| n == row.resource.namespaced)
    });
    // A stable sort on the column, then the name, as kubectl sorts.
    rows.sort_by(|a, b| {
        let key = |r: &Row| match args.sort_by {
            Some(SortBy::Name) => r.resource.name.clone(),
            Some(SortBy::Kind) => r.resource.kind.clone(),
            None => r.group.clone(),
        };
        key(a)
            .cmp(&key(b))
            .then_with(|| a.resource.name.cmp(&b.resource.name))
    });

    if args.output == Some(ResourcesOutput::Name) {
        for row in &rows {
            if row.group.is_empty() {
                writeln!(out, "{}", row.resource.name)?;
            } else {
                writeln!(out, "{}.{}", row.resource.name, row.group)?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let wide = args.output == Some(ResourcesOutput::Wide);
    let mut table = Table::default();
    if !args.no_headers {
        let mut header = vec!["NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"];
        if wide {
            header.extend(["VERBS", "CATEGORIES"]);
        }
        table.row(header);
    }
    for row in &rows {
        let r = &row.resource;
        let mut cells = vec![
            r.name.clone(),
            r.short_names.join(","),
            row.group_version.clone(),
            r.namespaced.to_string(),
            r.kind.clone(),
        ];
        if wide {
            cells.push(r.verbs().join(","));
            cells.push(r.categories.join(","));
        }
        table.row(cells);
    }
    table.write(out)?;
    Ok(ExitCode::SUCCESS)
}

/// client-go's `ServerPreferredResources`: per group, the versions in preference order,
/// each resource (not subresource) at the first version serving it.
fn preferred_resources(groups: &[APIGroupResources]) -> Vec<Row> {
    let mut rows = Vec::new();
    for group in groups {
        let mut seen: HashSet<&str> = HashSet::new();
        for version in group.group.versions.iter().flatten() {
            let Some(resources) = group.versioned_resources.get(&version.version) else {
                continue;
            };
            for resource in resources {
                if resource.name.contains('/') || !seen.insert(resource.name.as_str()) {
                    continue;
                }
                rows.push(Row {
                    group: group.group.name.clone(),
                    group_version: version.group_version.clone(),
                    resource: resource.clone(),
                });
            }
        }
    }
    rows
}
