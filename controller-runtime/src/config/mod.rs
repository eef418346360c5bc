//! How to reach an API server (controller-runtime's `pkg/client/config` over client-go's
//! `rest.Config` and `clientcmd`): its URL, how to trust it, and how to authenticate.
//!
//! A [`Config`] comes from a kubeconfig file ([`Config::from_kubeconfig`]), from
//! several merged as kubectl merges `KUBECONFIG` ([`Config::from_kubeconfig_files`]),
//! from inside a pod ([`Config::in_cluster`]), or from wherever a program would look
//! ([`Config::load`]: `KUBECONFIG`, then `~/.kube/config`, then in-cluster). Errors
//! name the file and the field at fault.
//!
//! ```
//! use controller_runtime::config::{Auth, Config};
//!
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("config");
//! std::fs::write(&path, "
//! current-context: dev
//! clusters:
//! - name: dev
//!   cluster: {server: 'https://127.0.0.1:6443', insecure-skip-tls-verify: true}
//! users:
//! - name: dev
//!   user: {token: s3cret}
//! contexts:
//! - name: dev
//!   context: {cluster: dev, user: dev, namespace: team-a}
//! ")?;
//! let config = Config::from_kubeconfig(&path)?;
//! assert_eq!(config.host, "https://127.0.0.1:6443");
//! assert_eq!(config.namespace.as_deref(), Some("team-a"));
//! assert!(matches!(config.auth, Auth::BearerToken(ref t) if t == "s3cret"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod exec;
mod kubeconfig;

use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine as _;

pub use exec::{ExecConfig, ExecCredential, ExecCredentialError};

/// The environment variable naming kubeconfig files (separated by `:`; `;` on Windows).
pub const KUBECONFIG_ENV: &str = "KUBECONFIG";

/// Where a pod's service-account credentials are mounted.
pub const SERVICE_ACCOUNT_DIR: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

/// Everything a client needs to talk to one API server (client-go's `rest.Config`).
#[derive(Clone, Debug)]
pub struct Config {
    /// The server's base URL, such as `https://10.0.0.1:6443` (no trailing slash).
    pub host: String,
    /// How to trust the server, and the client certificate to present.
    pub tls: TlsConfig,
    /// How to authenticate requests.
    pub auth: Auth,
    /// The namespace of the kubeconfig context (or the pod's own namespace in-cluster),
    /// for programs that default to it.
    pub namespace: Option<String>,
    /// The `User-Agent` header.
    pub user_agent: String,
    /// A limit on each request, watches excepted (client-go's `Timeout`); none by default.
    pub timeout: Option<Duration>,
    /// Whom every request acts as (client-go's `Impersonate`, kubeconfig's `as`,
    /// `as-uid`, `as-groups` and `as-user-extra`); nobody by default.
    pub impersonate: Impersonate,
}

/// Acting as another user (client-go's `rest.ImpersonationConfig`): sent as the
/// `Impersonate-*` headers, which the server honours when the authenticated user may
/// `impersonate` them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Impersonate {
    /// The user name (`Impersonate-User`); the other fields need it.
    pub user: Option<String>,
    /// The user's UID (`Impersonate-Uid`).
    pub uid: Option<String>,
    /// The groups (`Impersonate-Group`, one header each).
    pub groups: Vec<String>,
    /// Extra attributes (`Impersonate-Extra-KEY`, one header per value; the key
    /// percent-encoded where a header name cannot hold it).
    pub extra: std::collections::BTreeMap<String, Vec<String>>,
}

/// The TLS side of a [`Config`] (client-go's `rest.TLSClientConfig`). PEM data, not
/// paths: files named in a kubeconfig are read when the config is loaded.
#[derive(Clone, Debug, Default)]
pub struct TlsConfig {
    /// Skip verifying the server's certificate (`insecure-skip-tls-verify`).
    pub insecure: bool,
    /// PEM certificates of the authorities to trust; none means no server can be
    /// trusted unless `insecure` is set (there are no system roots, as kubeconfigs name
    /// their CA).
    pub ca_data: Option<Vec<u8>>,
    /// The PEM client certificate (chain) to present.
    pub cert_data: Option<Vec<u8>>,
    /// The PEM private key of the client certificate.
    pub key_data: Option<Vec<u8>>,
    /// The name to verify the server's certificate against, when not the URL's host.
    pub server_name: Option<String>,
}

/// How requests authenticate.
#[derive(Clone, Debug, Default)]
pub enum Auth {
    /// No credentials (or a client certificate alone, in [`TlsConfig`]).
    #[default]
    None,
    /// `Authorization: Bearer <token>`.
    BearerToken(String),
    /// A bearer token read from a file, re-read once a minute as client-go does (a
    /// projected service-account token is rotated in place).
    BearerTokenFile(PathBuf),
    /// HTTP basic authentication.
    Basic {
        /// The user name.
        username: String,
        /// The password.
        password: String,
    },
    /// A token from an exec credential plugin, cached until it expires.
    Exec(ExecConfig),
}

/// Why a configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A kubeconfig is not YAML.
    #[error("{}: invalid YAML: {message}", path.display())]
    Yaml {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// A kubeconfig field has the wrong shape or value.
    #[error("{}: field {field}: {message}", path.display())]
    Field {
        /// The file.
        path: PathBuf,
        /// The field's path, such as `clusters[0].cluster.server`.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// No context was asked for and the kubeconfig sets no `current-context`.
    #[error("no current-context is set in {}", display_paths(paths))]
    NoCurrentContext {
        /// The files read.
        paths: Vec<PathBuf>,
    },
    /// The context asked for (or a context's cluster or user) is not defined.
    #[error("{what} {name:?} not found in {}", display_paths(paths))]
    NotFound {
        /// `context`, `cluster` or `user`.
        what: &'static str,
        /// The name looked for.
        name: String,
        /// The files read.
        paths: Vec<PathBuf>,
    },
    /// A cluster has no `server`.
    #[error("{}: cluster {cluster:?} has no server", path.display())]
    NoServer {
        /// The file.
        path: PathBuf,
        /// The cluster.
        cluster: String,
    },
    /// A `*-data` field is not base64.
    #[error("{}: field {field}: invalid base64: {source}", path.display())]
    Base64 {
        /// The file.
        path: PathBuf,
        /// The field, such as `users[alice].client-key-data`.
        field: String,
        /// The decoding error.
        #[source]
        source: base64::DecodeError,
    },
    /// In-cluster configuration was asked for outside a cluster.
    #[error("not running in a cluster: {variable} is not set")]
    NotInCluster {
        /// The missing environment variable.
        variable: &'static str,
    },
    /// A file a kubeconfig names (a CA, a client certificate or key) is larger than any
    /// such file can be: a kubeconfig naming `/dev/zero` fails instead of hanging.
    #[error("cannot read {}: larger than {limit} bytes", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit, [`MAX_REFERENCED_FILE_BYTES`].
        limit: u64,
    },
    /// No kubeconfig was found and the program is not in a cluster.
    #[error("no configuration found: KUBECONFIG is unset, {} does not exist, and not in a cluster", home.display())]
    NoConfiguration {
        /// The default kubeconfig path looked at.
        home: PathBuf,
    },
}

fn display_paths(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

/// The user agent of this crate's clients.
fn default_user_agent() -> String {
    format!("controller-runtime-rs/{}", env!("CARGO_PKG_VERSION"))
}

impl Config {
    /// A configuration for `host` with no TLS settings and no credentials (what envtest
    /// uses for its plain-HTTP loopback server).
    pub fn new(host: impl Into<String>) -> Self {
        Config {
            host: host.into().trim_end_matches('/').to_string(),
            tls: TlsConfig::default(),
            auth: Auth::None,
            namespace: None,
            user_agent: default_user_agent(),
            timeout: None,
            impersonate: Impersonate::default(),
        }
    }

    /// A named context (or the current one) of kubeconfig text already in memory
    /// (a Secret's value, a test's string). `origin` stands for the file it came from:
    /// it names the kubeconfig in errors, and relative paths inside it (certificate
    /// files, `tokenFile`, an exec plugin's `command`) resolve against its directory.
    ///
    /// ```
    /// use std::path::Path;
    /// use controller_runtime::config::Config;
    ///
    /// let text = "
    /// apiVersion: v1
    /// kind: Config
    /// clusters: [{name: c, cluster: {server: https://127.0.0.1:6443}}]
    /// users: [{name: u, user: {token: abc}}]
    /// contexts: [{name: x, context: {cluster: c, user: u, namespace: team-a}}]
    /// current-context: x
    /// ";
    /// let config = Config::from_kubeconfig_str(text, Path::new("inline"), None)?;
    /// assert_eq!(config.host, "https://127.0.0.1:6443");
    /// assert_eq!(config.namespace.as_deref(), Some("team-a"));
    /// # Ok::<(), controller_runtime::config::ConfigError>(())
    /// ```
    pub fn from_kubeconfig_str(
        text: &str,
        origin: &Path,
        context: Option<&str>,
    ) -> Result<Self, ConfigError> {
        let mut merged = kubeconfig::Merged::default();
        merged.add(origin, kubeconfig::parse(origin, text)?);
        Self::from_merged(&merged, context)
    }

    /// The current context of one kubeconfig file.
    pub fn from_kubeconfig(path: impl AsRef<Path>) -> Result<Self, ConfigError> {
        Self::from_kubeconfig_files(&[path.as_ref().to_path_buf()], None)
    }

    /// A named context (or the current one when `context` is `None`) of several
    /// kubeconfig files merged as kubectl merges `KUBECONFIG`: the first file that
    /// defines a cluster, user or context wins, as does the first `current-context`.
    /// Files that do not exist are skipped, as kubectl skips them, unless none exists.
    pub fn from_kubeconfig_files(
        paths: &[PathBuf],
        context: Option<&str>,
    ) -> Result<Self, ConfigError> {
        let mut merged = kubeconfig::Merged::default();
        let mut read_any = false;
        let mut first_error = None;
        for path in paths {
            match kubeconfig::read_file(path) {
                Ok(file) => {
                    merged.add(path, file);
                    read_any = true;
                }
                Err(ConfigError::Read { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound && paths.len() > 1 =>
                {
                    continue;
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        if let Some(e) = first_error {
            return Err(e);
        }
        if !read_any {
            merged.paths = paths.to_vec();
        }
        Self::from_merged(&merged, context)
    }

    /// What a program finds with no flags (controller-runtime's `GetConfig`): the files
    /// of `KUBECONFIG`, else `~/.kube/config`, else the in-cluster configuration.
    pub fn load() -> Result<Self, ConfigError> {
        if let Some(list) = std::env::var_os(KUBECONFIG_ENV).filter(|v| !v.is_empty()) {
            let paths: Vec<PathBuf> = std::env::split_paths(&list)
                .filter(|p| !p.as_os_str().is_empty())
                .collect();
            return Self::from_kubeconfig_files(&paths, None);
        }
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default()
            .join(".kube")
            .join("config");
        if home.exists() {
            return Self::from_kubeconfig(&home);
        }
        match Self::in_cluster() {
            Err(ConfigError::NotInCluster { .. }) => Err(ConfigError::NoConfiguration { home }),
            other => other,
        }
    }

    /// The configuration of a pod (client-go's `InClusterConfig`): the server from
    /// `KUBERNETES_SERVICE_HOST`/`KUBERNETES_SERVICE_PORT`, the service account's token
    /// and CA from their mount.
    pub fn in_cluster() -> Result<Self, ConfigError> {
        Self::in_cluster_from(Path::new(SERVICE_ACCOUNT_DIR))
    }

    /// [`in_cluster`](Self::in_cluster) with the service-account files read from `dir`
    /// (`token`, `ca.crt`, `namespace`), for tests and unusual mounts.
    pub fn in_cluster_from(dir: &Path) -> Result<Self, ConfigError> {
        let host = std::env::var("KUBERNETES_SERVICE_HOST")
            .ok()
            .filter(|h| !h.is_empty())
            .ok_or(ConfigError::NotInCluster {
                variable: "KUBERNETES_SERVICE_HOST",
            })?;
        let port = std::env::var("KUBERNETES_SERVICE_PORT")
            .ok()
            .filter(|p| !p.is_empty())
            .ok_or(ConfigError::NotInCluster {
                variable: "KUBERNETES_SERVICE_PORT",
            })?;
        Self::from_service_account(&host, &port, dir)
    }

    /// The in-cluster configuration of a server at `host:port` with the service
    /// account files of `dir`.
    fn from_service_account(host: &str, port: &str, dir: &Path) -> Result<Self, ConfigError> {
        let token_path = dir.join("token");
        // Read once now so that a missing mount fails here, not on the first request.
        std::fs::read(&token_path).map_err(|source| ConfigError::Read {
            path: token_path.clone(),
            source,
        })?;
        let ca_path = dir.join("ca.crt");
        let ca = std::fs::read(&ca_path).map_err(|source| ConfigError::Read {
            path: ca_path,
            source,
        })?;
        let namespace = std::fs::read_to_string(dir.join("namespace"))
            .ok()
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty());
        // An IPv6 host needs brackets in a URL (Go's net.JoinHostPort).
        let host_port = if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        let mut config = Config::new(format!("https://{host_port}"));
        config.tls.ca_data = Some(ca);
        config.auth = Auth::BearerTokenFile(token_path);
        config.namespace = namespace;
        Ok(config)
    }

    fn from_merged(
        merged: &kubeconfig::Merged,
        context: Option<&str>,
    ) -> Result<Self, ConfigError> {
        let context_name = match context {
            Some(c) => c.to_string(),
            None if !merged.current_context.is_empty() => merged.current_context.clone(),
            None => {
                return Err(ConfigError::NoCurrentContext {
                    paths: merged.paths.clone(),
                });
            }
        };
        let not_found = |what: &'static str, name: &str| ConfigError::NotFound {
            what,
            name: name.to_string(),
            paths: merged.paths.clone(),
        };
        let ctx = merged
            .contexts
            .get(&context_name)
            .ok_or_else(|| not_found("context", &context_name))?;
        let cluster = merged
            .clusters
            .get(&ctx.value.cluster)
            .ok_or_else(|| not_found("cluster", &ctx.value.cluster))?;
        if cluster.value.server.is_empty() {
            return Err(ConfigError::NoServer {
                path: cluster.path.clone(),
                cluster: ctx.value.cluster.clone(),
            });
        }
        let mut config = Config::new(cluster.value.server.clone());
        config.namespace = ctx.value.namespace.clone().filter(|n| !n.is_empty());
        let c = &cluster.value;
        config.tls.insecure = c.insecure_skip_tls_verify;
        config.tls.server_name = c.tls_server_name.clone().filter(|s| !s.is_empty());
        let cluster_field = |f: &str| format!("clusters[{}].cluster.{f}", ctx.value.cluster);
        config.tls.ca_data = data_or_file(
            &cluster.path,
            c.certificate_authority_data.as_deref(),
            c.certificate_authority.as_deref(),
            &cluster_field("certificate-authority-data"),
        )?;
        if ctx.value.user.is_empty() {
            return Ok(config);
        }
        let user = merged
            .users
            .get(&ctx.value.user)
            .ok_or_else(|| not_found("user", &ctx.value.user))?;
        let u = &user.value;
        let user_field = |f: &str| format!("users[{}].user.{f}", ctx.value.user);
        config.tls.cert_data = data_or_file(
            &user.path,
            u.client_certificate_data.as_deref(),
            u.client_certificate.as_deref(),
            &user_field("client-certificate-data"),
        )?;
        config.tls.key_data = data_or_file(
            &user.path,
            u.client_key_data.as_deref(),
            u.client_key.as_deref(),
            &user_field("client-key-data"),
        )?;
        config.auth = if let Some(token) = u.token.as_ref().filter(|t| !t.is_empty()) {
            Auth::BearerToken(token.clone())
        } else if let Some(file) = u.token_file.as_ref().filter(|t| !t.is_empty()) {
            Auth::BearerTokenFile(kubeconfig::resolve_path(&user.path, file))
        } else if let Some(username) = u.username.as_ref().filter(|t| !t.is_empty()) {
            Auth::Basic {
                username: username.clone(),
                password: u.password.clone().unwrap_or_default(),
            }
        } else if let Some(spec) = &u.exec {
            Auth::Exec(ExecConfig::from_spec(
                spec,
                &user.path,
                &user_field("exec"),
                &config,
            )?)
        } else {
            Auth::None
        };
        config.impersonate = Impersonate {
            user: u.act_as.clone().filter(|a| !a.is_empty()),
            uid: u.as_uid.clone().filter(|a| !a.is_empty()),
            groups: u.as_groups.clone().unwrap_or_default(),
            extra: u.as_user_extra.clone().unwrap_or_default(),
        };
        Ok(config)
    }
}

/// A `*-data` field (base64 PEM) or else the file its sibling names.
fn data_or_file(
    file: &Path,
    data: Option<&str>,
    path: Option<&str>,
    field: &str,
) -> Result<Option<Vec<u8>>, ConfigError> {
    if let Some(data) = data.filter(|d| !d.is_empty()) {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data.trim())
            .map_err(|source| ConfigError::Base64 {
                path: file.to_path_buf(),
                field: field.to_string(),
                source,
            })?;
        return Ok(Some(bytes));
    }
    if let Some(p) = path.filter(|p| !p.is_empty()) {
        let resolved = kubeconfig::resolve_path(file, p);
        return read_capped(&resolved).map(Some);
    }
    Ok(None)
}

/// The largest certificate or key file a kubeconfig may name: PEM bundles of a few
/// dozen certificates are tens of kilobytes, so 4 MiB is never a real file's size.
pub const MAX_REFERENCED_FILE_BYTES: u64 = 4 << 20;

/// Reads a file a kubeconfig names, at most [`MAX_REFERENCED_FILE_BYTES`] of it.
fn read_capped(path: &Path) -> Result<Vec<u8>, ConfigError> {
    use std::io::Read;
    let read_error = |source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let mut bytes = Vec::new();
    file.take(MAX_REFERENCED_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > MAX_REFERENCED_FILE_BYTES {
        return Err(ConfigError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_REFERENCED_FILE_BYTES,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
