//! `kapi resolve`: what a name typed on kubectl's command line means: a resource
//! (`deploy`, `deployments.v1.apps`, `deployments.apps`) or a kind (`Deployment`,
//! `Deployment.apps`, `Deployment.v1.apps`), resolved as kubectl resolves them, with the
//! REST path of its objects.

use std::io::Write;
use std::process::ExitCode;

use apimachinery::meta::{RESTMapper, RESTMapperError, RESTMapping, RESTScopeName};
use apimachinery::schema::{GroupVersionKind, parse_kind_arg, parse_resource_arg};

use super::CommandError;
use crate::cli::ResolveArgs;
use crate::scheme::{rest_mapper, scheme};

pub fn run(args: &ResolveArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let scheme = scheme()?;
    let mapper = rest_mapper(&scheme);
    let mut code = ExitCode::SUCCESS;
    for name in &args.names {
        match resolve(&mapper, name) {
            Ok(mapping) => {
                let gvr = &mapping.resource;
                writeln!(out, "{name}:")?;
                writeln!(out, "  resource: {}", gvr)?;
                writeln!(out, "  kind:     {}", mapping.group_version_kind)?;
                writeln!(out, "  scope:    {}", mapping.scope.name().as_str())?;
                writeln!(out, "  path:     {}", path_template(&mapping))?;
            }
            Err(e) => {
                eprintln!("error: {name}: {e}");
                code = ExitCode::FAILURE;
            }
        }
    }
    Ok(code)
}

/// The mapping a name means, trying it as kubectl does: a fully qualified resource
/// (`resource.version.group`), then a resource with a group, then a kind.
fn resolve(mapper: &dyn RESTMapper, name: &str) -> Result<RESTMapping, RESTMapperError> {
    let (full, partial) = parse_resource_arg(name);
    let resource_kind = full
        .and_then(|gvr| mapper.kind_for(&gvr).ok())
        .map_or_else(|| mapper.kind_for(&partial.with_version("")), Ok);
    let gvk: GroupVersionKind = match resource_kind {
        Ok(gvk) => gvk,
        Err(resource_error) => {
            // Not a resource: maybe a kind (`Deployment.apps`, `Deployment.v1.apps`).
            let (full_kind, group_kind) = parse_kind_arg(name);
            if let Some(gvk) = full_kind {
                if let Ok(m) = mapper.rest_mapping(&gvk.group_kind(), &[gvk.version.as_str()]) {
                    return Ok(m);
                }
            }
            return mapper
                .rest_mapping(&group_kind, &[])
                .map_err(|_| resource_error);
        }
    };
    mapper.rest_mapping(&gvk.group_kind(), &[gvk.version.as_str()])
}

/// `/api/v1/namespaces/{namespace}/pods/{name}` or
/// `/apis/apps/v1/deployments/{name}`-style path of a mapping's objects.
fn path_template(mapping: &RESTMapping) -> String {
    let gvr = &mapping.resource;
    let prefix = if gvr.group.is_empty() {
        format!("/api/{}", gvr.version)
    } else {
        format!("/apis/{}/{}", gvr.group, gvr.version)
    };
    match mapping.scope.name() {
        RESTScopeName::Namespace => {
            format!(
                "{prefix}/namespaces/{{namespace}}/{}/{{name}}",
                gvr.resource
            )
        }
        RESTScopeName::Root => format!("{prefix}/{}/{{name}}", gvr.resource),
    }
}
