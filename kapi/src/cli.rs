//! The command line, as clap parses it.

use clap::{Parser, Subcommand, ValueEnum};

/// Kubernetes manifests and API knowledge, offline.
#[derive(Debug, Parser)]
#[command(name = "kapi", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the API resources of the built-in API, as `kubectl api-resources` does.
    #[command(
        after_help = "Examples:\n  kapi api-resources\n  kapi api-resources --api-group apps -o wide\n  kapi api-resources --namespaced=false --sort-by kind"
    )]
    ApiResources(ApiResourcesArgs),
    /// Print every group/version of the built-in API, as `kubectl api-versions` does.
    #[command(after_help = "Examples:\n  kapi api-versions")]
    ApiVersions,
    /// Resolve a resource or kind name (`deploy`, `deployments.v1.apps`, `Deployment.apps`)
    /// to its resource, kind, scope and REST path.
    #[command(
        after_help = "Examples:\n  kapi resolve deploy\n  kapi resolve deployments.v1.apps\n  kapi resolve Deployment.apps"
    )]
    Resolve(ResolveArgs),
}

/// `kapi api-resources`.
#[derive(Debug, clap::Args)]
pub struct ApiResourcesArgs {
    /// Only resources of this API group (`""` for the core group).
    #[arg(long = "api-group")]
    pub api_group: Option<String>,
    /// Only namespaced (`true`) or cluster-scoped (`false`) resources.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub namespaced: Option<bool>,
    /// Output format: `wide` adds verbs and categories, `name` prints `resource.group`.
    #[arg(short = 'o', long = "output")]
    pub output: Option<ResourcesOutput>,
    /// Sort by resource name or kind instead of by group.
    #[arg(long = "sort-by")]
    pub sort_by: Option<SortBy>,
    /// Do not print the header row.
    #[arg(long = "no-headers")]
    pub no_headers: bool,
}

/// `-o` of `api-resources`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ResourcesOutput {
    /// Verbs and categories too.
    Wide,
    /// `resource.group` only.
    Name,
}

/// `--sort-by` of `api-resources`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SortBy {
    /// By resource name.
    Name,
    /// By kind.
    Kind,
}

/// `kapi resolve`.
#[derive(Debug, clap::Args)]
pub struct ResolveArgs {
    /// The names to resolve.
    #[arg(required = true)]
    pub names: Vec<String>,
}
