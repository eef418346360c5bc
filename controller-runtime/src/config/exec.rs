//! Exec credential plugins (client-go's `plugin/pkg/client/auth/exec`): a command that
//! prints an `ExecCredential` (`client.authentication.k8s.io/v1` or `v1beta1`) whose
//! token is used until its `expirationTimestamp`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use apimachinery::apis::meta::v1::Time;
use serde::Deserialize;

use super::ConfigError;
use super::kubeconfig::ExecSpec;

/// The API versions of `ExecCredential` this client speaks.
const API_VERSIONS: [&str; 2] = [
    "client.authentication.k8s.io/v1",
    "client.authentication.k8s.io/v1beta1",
];

/// An exec credential plugin of a kubeconfig user, with its cached credential. Clones
/// share the cache.
#[derive(Clone, Debug)]
pub struct ExecConfig {
    /// The `ExecCredential` API version asked for.
    pub api_version: String,
    /// The command (resolved against the kubeconfig's directory when it is a relative
    /// path with a separator, as client-go does).
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Environment variables added to the program's own.
    pub env: Vec<(String, String)>,
    /// The cluster's server and CA passed in `KUBERNETES_EXEC_INFO` when the
    /// kubeconfig asks (`provideClusterInfo`).
    pub cluster_info: Option<serde_json::Value>,
    /// One plugin run at a time: concurrent first requests wait for the same token.
    cache: Arc<tokio::sync::Mutex<Option<Cached>>>,
}

#[derive(Clone, Debug)]
struct Cached {
    credential: ExecCredential,
    /// Unix seconds; `None` for a credential without expiry.
    expires: Option<i64>,
}

/// What an exec plugin gave: a bearer token, a client certificate and key (PEM), or
/// both (client-go's `ExecCredentialStatus`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecCredential {
    /// The bearer token, when the plugin gave one.
    pub token: Option<String>,
    /// The PEM client certificate, when the plugin gave one.
    pub client_certificate: Option<Vec<u8>>,
    /// The PEM key of the client certificate.
    pub client_key: Option<Vec<u8>>,
}

/// Why an exec plugin gave no credential.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExecCredentialError {
    /// The command could not be started.
    #[error("exec plugin {}: cannot run: {source}", command.display())]
    Spawn {
        /// The command.
        command: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The command failed.
    #[error("exec plugin {}: exited with {status}: {stderr}", command.display())]
    Failed {
        /// The command.
        command: PathBuf,
        /// Its exit status.
        status: String,
        /// What it wrote to stderr.
        stderr: String,
    },
    /// The command's output is not an `ExecCredential` with a token.
    #[error("exec plugin {}: invalid output: {message}", command.display())]
    Output {
        /// The command.
        command: PathBuf,
        /// What is wrong.
        message: String,
    },
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExecCredentialDocument {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    status: Option<ExecCredentialStatus>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExecCredentialStatus {
    #[serde(default)]
    token: String,
    #[serde(default)]
    client_certificate_data: String,
    #[serde(default)]
    client_key_data: String,
    #[serde(default)]
    expiration_timestamp: Option<String>,
}

fn now_unix() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

impl ExecConfig {
    /// A plugin running `command` with `args`, speaking `client.authentication.k8s.io/v1`.
    pub fn new(command: impl Into<PathBuf>, args: Vec<String>) -> Self {
        ExecConfig {
            api_version: API_VERSIONS[0].to_string(),
            command: command.into(),
            args,
            env: Vec::new(),
            cluster_info: None,
            cache: Arc::default(),
        }
    }

    pub(super) fn from_spec(
        spec: &ExecSpec,
        file: &Path,
        field: &str,
        config: &super::Config,
    ) -> Result<Self, ConfigError> {
        if !API_VERSIONS.contains(&spec.api_version.as_str()) {
            return Err(ConfigError::Field {
                path: file.to_path_buf(),
                field: format!("{field}.apiVersion"),
                message: format!(
                    "exec plugin API version {:?} is not supported (want one of {})",
                    spec.api_version,
                    API_VERSIONS.join(", ")
                ),
            });
        }
        if spec.command.is_empty() {
            return Err(ConfigError::Field {
                path: file.to_path_buf(),
                field: format!("{field}.command"),
                message: "exec plugin has no command".into(),
            });
        }
        let command = if spec.command.contains(std::path::MAIN_SEPARATOR)
            && Path::new(&spec.command).is_relative()
        {
            super::kubeconfig::resolve_path(file, &spec.command)
        } else {
            PathBuf::from(&spec.command)
        };
        let cluster_info = spec.provide_cluster_info.then(|| {
            use base64::Engine as _;
            let mut cluster = serde_json::json!({ "server": config.host });
            if let Some(ca) = &config.tls.ca_data {
                cluster["certificate-authority-data"] =
                    base64::engine::general_purpose::STANDARD.encode(ca).into();
            }
            if config.tls.insecure {
                cluster["insecure-skip-tls-verify"] = true.into();
            }
            cluster
        });
        Ok(ExecConfig {
            api_version: spec.api_version.clone(),
            command,
            args: spec.args.clone().unwrap_or_default(),
            env: spec
                .env
                .iter()
                .flatten()
                .map(|e| (e.name.clone(), e.value.clone()))
                .collect(),
            cluster_info,
            cache: Arc::default(),
        })
    }

    /// The token: the cached one while it has not expired, else a new one from the
    /// plugin (run on a blocking thread, once for all callers waiting on it). An error
    /// when the plugin gives a client certificate alone.
    pub async fn token(&self) -> Result<String, ExecCredentialError> {
        let credential = self.credential().await?;
        credential.token.ok_or_else(|| ExecCredentialError::Output {
            command: self.command.clone(),
            message: "status.token is empty".into(),
        })
    }

    /// The credential: the cached one while it has not expired, else a new one from
    /// the plugin (run on a blocking thread, once for all callers waiting on it).
    pub async fn credential(&self) -> Result<ExecCredential, ExecCredentialError> {
        let mut cache = self.cache.lock().await;
        if let Some(c) = cache.as_ref() {
            if c.expires.is_none_or(|t| t > now_unix()) {
                return Ok(c.credential.clone());
            }
        }
        let this = self.clone();
        let fresh = tokio::task::spawn_blocking(move || this.run())
            .await
            .map_err(|e| ExecCredentialError::Spawn {
                command: self.command.clone(),
                source: std::io::Error::other(e.to_string()),
            })??;
        let credential = fresh.credential.clone();
        *cache = Some(fresh);
        Ok(credential)
    }

    /// Forgets the cached token (after the server answered 401 to it).
    pub async fn invalidate(&self) {
        *self.cache.lock().await = None;
    }

    fn run(&self) -> Result<Cached, ExecCredentialError> {
        let mut spec = serde_json::json!({ "interactive": false });
        if let Some(cluster) = &self.cluster_info {
            spec["cluster"] = cluster.clone();
        }
        let info = serde_json::json!({
            "kind": "ExecCredential",
            "apiVersion": self.api_version,
            "spec": spec,
        });
        let output = std::process::Command::new(&self.command)
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env("KUBERNETES_EXEC_INFO", info.to_string())
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|source| ExecCredentialError::Spawn {
                command: self.command.clone(),
                source,
            })?;
        if !output.status.success() {
            return Err(ExecCredentialError::Failed {
                command: self.command.clone(),
                status: output.status.to_string(),
                stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
            });
        }
        let bad = |message: String| ExecCredentialError::Output {
            command: self.command.clone(),
            message,
        };
        let cred: ExecCredentialDocument =
            serde_json::from_slice(&output.stdout).map_err(|e| bad(e.to_string()))?;
        if cred.kind != "ExecCredential" {
            return Err(bad(format!("kind is {:?}, want ExecCredential", cred.kind)));
        }
        if cred.api_version != self.api_version {
            return Err(bad(format!(
                "apiVersion is {:?}, want {:?}",
                cred.api_version, self.api_version
            )));
        }
        let status = cred.status.ok_or_else(|| bad("no status".to_string()))?;
        let non_empty = |s: String| (!s.is_empty()).then_some(s);
        let credential = ExecCredential {
            token: non_empty(status.token),
            client_certificate: non_empty(status.client_certificate_data).map(String::into_bytes),
            client_key: non_empty(status.client_key_data).map(String::into_bytes),
        };
        if credential.client_certificate.is_some() != credential.client_key.is_some() {
            return Err(bad(
                "status.clientCertificateData and status.clientKeyData must be given together"
                    .to_string(),
            ));
        }
        if credential.token.is_none() && credential.client_certificate.is_none() {
            return Err(bad(
                "status has neither a token nor a client certificate".to_string()
            ));
        }
        let expires = match status.expiration_timestamp.as_deref() {
            None | Some("") => None,
            Some(t) => Some(
                Time::parse_rfc3339(t)
                    .map_err(|e| bad(format!("status.expirationTimestamp {t:?}: {e}")))?
                    .unix_seconds(),
            ),
        };
        Ok(Cached {
            credential,
            expires,
        })
    }
}
