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
    /// Check Go's serialization fixtures (`<group>.<version>.<Kind>.{json,yaml,pb}`):
    /// each decodes to the same object as its JSON twin and re-encodes to the same bytes
    /// (or to its `<stem>.after_roundtrip.<ext>` file's, when there is one).
    #[command(
        after_help = "Fixtures of older releases are held to Go's previous-release rule:\n  - re-encoding <stem>.<ext> must give its own bytes or, where\n    <stem>.after_roundtrip.<ext> exists, exactly that file's bytes (the old data gains\n    fields the release built always writes, or loses what it no longer keeps); an after_roundtrip\n    file identical to its fixture fails, as Go wants it removed;\n  - files of kinds the Kubernetes release kapi is built with\n    (1.37 by default; `kapi serve` names it) no longer defines (autoscaling/v2beta1, ...) are\n    skipped, one SKIP line per kind, and counted; a kind it defines that kapi does\n    not register fails.\nOutput: one FAIL line per failing file, a table per format, then\n`N passed, M failed` (`, K skipped` when some were). Exit status 1 on any failure.\n\nExamples:\n  kapi conformance target/k8s-api/v1.37/testdata\n  kapi conformance target/k8s-api/v1.37/testdata-v1.36.0\n  kapi conformance testdata --format json --format yaml"
    )]
    Conformance(ConformanceArgs),
    /// Decode every document strictly: report each unknown or duplicate field, with its
    /// file, document index and JSON path; exit 1 if there is any.
    #[command(
        after_help = "Custom resources (kinds of groups that are not built in) have no schema here: each is\nreported as not checked, and does not make the exit status 1. An unknown kind of a\nbuilt-in group (apps/v1 Deploymnet) is an error.\n\nExamples:\n  kapi validate -f deployment.yaml\n  kapi validate -R -f manifests/\n  cat manifest.yaml | kapi validate -f -"
    )]
    Validate(ValidateArgs),
    /// Convert manifests to another API version (or, without `--output-version`, each
    /// object to its group's preferred version: the "upgrade my deprecated manifests"
    /// path). Objects of other groups pass through unchanged; the output is one stream in
    /// the input's order.
    #[command(
        after_help = "Custom resources (kinds of groups that are not built in) pass through unchanged,\nwritten as Go writes an Unstructured object (keys sorted), with one warning per kind\non standard error, also with --strict; with -o protobuf they are errors, having no\nprotobuf form. An unknown kind of a built-in group (apps/v1 Deploymnet,\nautoscaling/v2beta1) is an error.\n\nBy default the output is what `kubectl convert` prints: every default of the version\nread filled in, keys sorted. --minimal writes instead only what the conversion changes\n(a field that moved, a field the new version requires), keeping the input's key order,\ncomments and layout: what a repository should receive. --in-place does that to the\nfiles themselves, for the objects whose API version is deprecated or removed by\n--target-version, and prints each object converted, each left for a person (with the\nreason: data Go's conversion would drop, a value the new version refuses, a version\nkapi cannot convert), and a summary; it exits 1 when any is left or a file cannot be\nparsed (such a file is not touched).\n\nExamples:\n  kapi convert -f kapi/examples/legacy.yaml\n  kapi convert -f manifests/ -R --in-place\n  kapi convert -f old.yaml --minimal\n  kapi convert -f old.yaml --output-version apps/v1 -o json\n  kapi convert -f deploy.yaml -o protobuf --output-file deploy.pb\n  kapi convert -f deploy.pb\n  kapi convert -f manifests/ -R --output-file upgraded.yaml\n  cat deploy.yaml | kapi convert -f -"
    )]
    Convert(ConvertArgs),
    /// List every object whose API version is deprecated or removed in a Kubernetes
    /// release, with the release that deprecated it, the one that removes it, and what
    /// replaces it: from the lifecycle methods of Go's k8s.io/api (see
    /// `k8s_types::lifecycle`).
    #[command(
        after_help = "Reads manifests as `convert` does: files, directories (-R for their subdirectories),\nmulti-document YAML, List objects, and standard input (-f -) for the output of\n`helm template` or `kustomize build`, where each object's `# Source:` comment names\nthe template it came from. Objects whose API version is neither deprecated nor\nremoved by the target release are not listed.\n\nExit status 1 when an object's API version is no longer served by the target release\n(or an input cannot be read), 0 otherwise: deprecated versions alone do not fail.\n\nExamples:\n  kapi deprecations -f manifests/ -R\n  kapi deprecations -f manifests/ -R --target-version 1.32 -o json\n  helm template ./chart | kapi deprecations -f -\n  kustomize build overlays/prod | kapi deprecations -f - -o yaml"
    )]
    Deprecations(DeprecationsArgs),
    /// Serve the built-in API over HTTPS, as kube-apiserver does (of the controllers only
    /// the one making each namespace's default ServiceAccount unless asked: objects are
    /// stored and served, like envtest's API server). Prints its URL, writes a
    /// kubeconfig for kubectl and client libraries, and runs until SIGINT or SIGTERM.
    #[command(
        after_help = "Without --data-dir or --etcd-servers, objects are kept in memory and lost on exit.\nTLS with a certificate of kapi's own CA; the kubeconfig carries the CA and an admin\nclient certificate (system:masters). --insecure-http serves plain HTTP on loopback only.\n\nExamples:\n  kapi serve\n  kapi serve --listen 127.0.0.1:6443 --kubeconfig /tmp/kapi.kubeconfig\n  kubectl --kubeconfig /tmp/kapi.kubeconfig get namespaces"
    )]
    Serve(Box<ServeArgs>),
}

/// `kapi serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:6443", value_name = "HOST:PORT")]
    pub listen: std::net::SocketAddr,
    /// The Kubernetes release to serve (`1.37`, `v1.37.2`): only the one kapi is built
    /// with, which the start-up line names; another is an error saying how to build kapi
    /// for it (its cargo feature, such as `v1_37`).
    #[arg(long = "kubernetes-version", value_name = "VERSION")]
    pub kubernetes_version: Option<String>,
    /// Keep objects in an embedded database (redb) in this directory, created if
    /// missing; an acknowledged write survives a crash.
    #[arg(long = "data-dir", value_name = "DIR", conflicts_with = "etcd_servers")]
    pub data_dir: Option<std::path::PathBuf>,
    /// Keep objects in etcd at these endpoints, comma-separated, with kube-apiserver's
    /// key layout and encoding.
    #[arg(long = "etcd-servers", value_name = "URL,...", value_delimiter = ',')]
    pub etcd_servers: Vec<String>,
    /// Write a kubeconfig (cluster, user, context) for the server to this file.
    #[arg(long, value_name = "FILE")]
    pub kubeconfig: Option<std::path::PathBuf>,
    /// kube-apiserver's authorizers, in order, comma-separated: RBAC, AlwaysAllow,
    /// AlwaysDeny. Members of system:masters are always allowed everything.
    #[arg(
        long = "authorization-mode",
        value_name = "MODE,...",
        value_delimiter = ',',
        default_value = "RBAC"
    )]
    pub authorization_mode: Vec<String>,
    /// Serve connections on N threads, each running everything of the connections it
    /// is given (with its own etcd connection); 0 serves them on one multi-threaded
    /// runtime. Default: one per CPU.
    #[arg(long = "connection-workers", value_name = "N")]
    pub connection_workers: Option<usize>,
    /// After SIGTERM, keep serving this long with /readyz failing before draining and
    /// stopping (kube-apiserver's --shutdown-delay-duration, a Go duration: 10s, 1m30s).
    #[arg(
        long = "shutdown-delay-duration",
        value_name = "DURATION",
        default_value = "0s"
    )]
    pub shutdown_delay_duration: apimachinery::apis::meta::v1::Duration,
    /// The IPv4 range Services' cluster IPs are allocated from (kube-apiserver's
    /// --service-cluster-ip-range).
    #[arg(
        long = "service-cluster-ip-range",
        value_name = "CIDR",
        default_value = "10.0.0.0/24"
    )]
    pub service_cluster_ip_range: String,
    /// The ports NodePort and LoadBalancer Services' node ports are allocated from
    /// (kube-apiserver's --service-node-port-range).
    #[arg(
        long = "service-node-port-range",
        value_name = "LOW-HIGH",
        default_value = "30000-32767"
    )]
    pub service_node_port_range: String,
    /// Allow privileged containers (and Windows HostProcess ones) in Pods, as
    /// kube-apiserver's --allow-privileged; false by default, as there. envtest's
    /// control plane passes true.
    #[arg(long = "allow-privileged", value_name = "BOOL", default_value_t = false, num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub allow_privileged: bool,
    /// Which API versions are served, as kube-apiserver's --runtime-config: without it,
    /// those kube-apiserver of the release serves by default (GA versions; beta and
    /// alpha ones off). Comma-separated KEY=VALUE pairs, the flag repeatable:
    /// api/all, api/ga, api/beta, api/alpha=true|false for every version of a level;
    /// v1 (the core group) or GROUP/VERSION=true|false; GROUP/VERSION/RESOURCE=true|false
    /// for one resource. A key alone is true.
    #[arg(long = "runtime-config", value_name = "KEY=VALUE,...", action = clap::ArgAction::Append)]
    pub runtime_config: Vec<String>,
    /// Admission plugins to run besides kube-apiserver's default ones, as its
    /// --enable-admission-plugins: Go's names, comma-separated, the flag repeatable;
    /// their order does not matter (plugins run in Go's order). A name kube-apiserver
    /// does not know is refused with its error.
    #[arg(long = "enable-admission-plugins", value_name = "NAME,...", value_delimiter = ',', action = clap::ArgAction::Append)]
    pub enable_admission_plugins: Vec<String>,
    /// Default admission plugins not to run, as kube-apiserver's
    /// --disable-admission-plugins (envtest passes ServiceAccount).
    #[arg(long = "disable-admission-plugins", value_name = "NAME,...", value_delimiter = ',', action = clap::ArgAction::Append)]
    pub disable_admission_plugins: Vec<String>,
    /// Run kube-controller-manager's controllers in-process: `*` for every one
    /// implemented, `name` (or its alias) to enable one, `-name` to disable one,
    /// comma-separated, as kube-controller-manager's flag. By default only
    /// serviceaccount, while the ServiceAccount admission plugin is on (it refuses Pods
    /// whose account does not exist, and the controller makes each namespace's
    /// `default`, as in a cluster); `-serviceaccount` leaves kube-apiserver alone, as
    /// envtest's. Implemented: garbagecollector, namespace, serviceaccount,
    /// root-ca-cert-publisher, replicaset, deployment, job.
    #[arg(
        long = "controllers",
        value_name = "NAME,...",
        value_parser = controller_manager::ControllerSelection::parse
    )]
    pub controllers: Option<controller_manager::ControllerSelection>,
    /// Simulated Nodes, as KWOK makes them: N Nodes (kapi-node-0, ...) Ready with 32
    /// CPUs, 256Gi and 110 Pods each, a scheduler binding pending Pods to them and a
    /// kubelet stand-in running the Pods bound to them (Pods with restartPolicy Never or
    /// OnFailure complete after a simulated second, or the annotation
    /// kapi/simulated-run-seconds; kapi/simulated-exit-code makes them fail).
    #[arg(long = "nodes", value_name = "N", default_value_t = 0)]
    pub nodes: usize,
    /// How many times as fast as real time the simulated Nodes' clock runs (grace
    /// periods, Pods' run times, minReadySeconds, progress deadlines).
    #[arg(
        long = "simulated-clock-speed",
        value_name = "FACTOR",
        default_value_t = 1.0
    )]
    pub simulated_clock_speed: f64,
    /// More logs on standard error: -v the server's informational ones, -vv also a line
    /// per request, -vvv everything. Without it, only warnings and errors; RUST_LOG
    /// (`target=level,...`) chooses instead when set.
    #[arg(short = 'v', long = "verbose", action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// TLS, authentication and audit (kube-apiserver's flags).
    #[command(flatten)]
    pub security: SecurityArgs,
}

/// `kapi serve`'s TLS, authentication and audit flags, named as kube-apiserver's.
#[derive(Debug, clap::Args)]
pub struct SecurityArgs {
    /// The serving certificate (PEM, leaf first); without it kapi serves with a
    /// certificate of its own CA (kept in --data-dir when given).
    #[arg(
        long = "tls-cert-file",
        value_name = "FILE",
        requires = "tls_private_key_file"
    )]
    pub tls_cert_file: Option<std::path::PathBuf>,
    /// The serving certificate's private key (PEM).
    #[arg(
        long = "tls-private-key-file",
        value_name = "FILE",
        requires = "tls_cert_file"
    )]
    pub tls_private_key_file: Option<std::path::PathBuf>,
    /// Serve plain HTTP instead of TLS: only on a loopback address. As on
    /// kube-apiserver's old insecure port, requests without credentials are then
    /// system:unsecured, in system:masters; credentials sent are still checked.
    #[arg(long = "insecure-http", conflicts_with_all = ["tls_cert_file", "client_ca_file"])]
    pub insecure_http: bool,
    /// Also accept client certificates signed by these CAs (PEM): CN the user, O the
    /// groups. kapi's own CA, which signs the kubeconfig's admin certificate, is always
    /// trusted.
    #[arg(long = "client-ca-file", value_name = "FILE")]
    pub client_ca_file: Option<std::path::PathBuf>,
    /// Static bearer tokens: CSV lines `token,user,uid,"group1,group2"`.
    #[arg(long = "token-auth-file", value_name = "FILE")]
    pub token_auth_file: Option<std::path::PathBuf>,
    /// Serve requests without credentials as system:anonymous (otherwise 401).
    #[arg(long = "anonymous-auth", value_name = "BOOL", default_value_t = false, num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub anonymous_auth: bool,
    /// The key service-account tokens are signed with (PEM: ECDSA P-256 PKCS#8 or RSA
    /// PKCS#1); generated (and kept in --data-dir) when not given.
    #[arg(long = "service-account-signing-key-file", value_name = "FILE")]
    pub service_account_signing_key_file: Option<std::path::PathBuf>,
    /// More keys whose service-account tokens are accepted (PEM public or private
    /// keys); a private key here signs too when no signing key is given.
    #[arg(long = "service-account-key-file", value_name = "FILE")]
    pub service_account_key_file: Vec<std::path::PathBuf>,
    /// The `iss` of service-account tokens.
    #[arg(
        long = "service-account-issuer",
        value_name = "URL",
        default_value = "https://kubernetes.default.svc.cluster.local"
    )]
    pub service_account_issuer: String,
    /// The audiences tokens are accepted for (default: the issuer).
    #[arg(long = "api-audiences", value_name = "AUD,...", value_delimiter = ',')]
    pub api_audiences: Vec<String>,
    /// Write an audit.k8s.io/v1 event (Metadata level) of every request to this file,
    /// one JSON line each; `-` is standard output.
    #[arg(long = "audit-log-path", value_name = "FILE")]
    pub audit_log_path: Option<std::path::PathBuf>,
}

/// `kapi convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// A file (JSON, YAML or Kubernetes protobuf), a directory (its `.yaml`, `.yml`,
    /// `.json` and `.pb` files) or `-` for standard input; repeatable.
    #[arg(short = 'f', long = "filename", value_name = "PATH", required = true)]
    pub files: Vec<String>,
    /// Also read the directories' subdirectories.
    #[arg(short = 'R', long = "recursive")]
    pub recursive: bool,
    /// The group/version to convert to (`apps/v1`, `v1`); each object's group's preferred
    /// version when not given.
    #[arg(long = "output-version", value_name = "GROUP/VERSION")]
    pub output_version: Option<String>,
    /// Output format.
    #[arg(short = 'o', long = "output", default_value = "yaml")]
    pub output: ConvertOutput,
    /// Reject unknown and duplicate fields.
    #[arg(long)]
    pub strict: bool,
    /// Write to this file (atomically: all documents or nothing) instead of standard output.
    #[arg(long = "output-file", value_name = "PATH")]
    pub output_file: Option<std::path::PathBuf>,
    /// Write only what the conversion changes: the fields the input set (and the ones
    /// the new version requires or that moved), in the input's order, with its comments
    /// and layout; none of the defaults `kubectl convert` writes. YAML and JSON only.
    #[arg(long)]
    pub minimal: bool,
    /// Rewrite the files themselves (each atomically: all of it or nothing), only those
    /// with objects to convert, minimally (implies --minimal); prints what was done.
    #[arg(long = "in-place", conflicts_with = "output_file")]
    pub in_place: bool,
    /// With --minimal or --in-place: convert only objects whose API version this
    /// Kubernetes release deprecates or no longer serves (`1.37`, `v1.32.4`). --in-place
    /// defaults to the newest release kapi knows; --minimal alone converts every object.
    #[arg(long = "target-version", value_name = "RELEASE")]
    pub target_version: Option<k8s_types::lifecycle::Release>,
    /// kubectl convert's flag: convert without contacting a server, which is all kapi
    /// does (`--local=false` is refused).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub local: Option<bool>,
}

/// `kapi deprecations`.
#[derive(Debug, clap::Args)]
pub struct DeprecationsArgs {
    /// A file, a directory, or `-` for standard input (repeatable).
    #[arg(short = 'f', long = "filename", value_name = "PATH", required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// Also read the directories' subdirectories.
    #[arg(short = 'R', long = "recursive")]
    pub recursive: bool,
    /// The Kubernetes release to check against (`1.37`, `v1.32.4`); the newest release
    /// the lifecycle data knows when not given.
    #[arg(long = "target-version", value_name = "RELEASE")]
    pub target_version: Option<k8s_types::lifecycle::Release>,
    /// Output format.
    #[arg(short = 'o', long = "output", default_value = "table")]
    pub output: DeprecationsOutput,
    /// Do not print the table's header row.
    #[arg(long = "no-headers")]
    pub no_headers: bool,
}

/// `-o` of `deprecations`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeprecationsOutput {
    /// One row per object, as kubectl prints tables.
    Table,
    /// `{"targetVersion": ..., "items": [...]}`, four-space indented as kubectl's JSON.
    Json,
    /// The same as YAML.
    Yaml,
}

/// `kapi` run as the `kubectl-convert` plugin (installed or linked under that name):
/// kubectl convert's flags and output layout.
#[derive(Debug, Parser)]
#[command(
    name = "kubectl-convert",
    version,
    about = "Convert config files between different API versions (kapi, offline)",
    long_about = None,
    after_help = "Several objects, or objects read from a directory or standard input, are printed as one `v1 List`, as kubectl convert prints them. Custom resources pass through unchanged, with one warning per kind.\n\nExamples:\n  kubectl convert -f pod.yaml\n  kubectl convert -f ingress.yaml --output-version networking.k8s.io/v1 -o json\n  kubectl convert -f manifests/ -R --local"
)]
pub struct PluginCli {
    /// The convert arguments.
    #[command(flatten)]
    pub args: ConvertArgs,
}

/// `-o` of `convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConvertOutput {
    /// YAML as kubectl prints it (Go's YAML, sorted keys, `---` between documents).
    Yaml,
    /// JSON as kubectl prints it (four-space indent).
    Json,
    /// Kubernetes protobuf (`application/vnd.kubernetes.protobuf`): one object in the
    /// `k8s\0` envelope, several in one `v1 List`.
    Protobuf,
    /// `kind.group/name` of each object, as kubectl's name printer.
    Name,
}

/// `kapi validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// A file, a directory, or `-` for standard input (repeatable).
    #[arg(short = 'f', long = "filename", required = true)]
    pub filenames: Vec<std::path::PathBuf>,
    /// Read directories recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,
}

/// `kapi conformance`.
#[derive(Debug, clap::Args)]
pub struct ConformanceArgs {
    /// The directory of fixtures.
    pub dir: std::path::PathBuf,
    /// Only these formats (repeatable); all three by default.
    #[arg(long = "format", value_name = "FORMAT")]
    pub formats: Vec<FixtureFormat>,
}

/// A fixture format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub enum FixtureFormat {
    /// JSON, two-space indented.
    Json,
    /// YAML.
    Yaml,
    /// Protobuf in the Kubernetes envelope.
    Pb,
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
