//! The kubeconfig file (client-go's `clientcmd/api/v1` `Config`) and kubectl's rules for
//! merging several of them: for maps (clusters, users, contexts) the first file that
//! names an entry wins; for `current-context` the first file that sets one wins.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ConfigError;

/// One kubeconfig file as written, with the path it was read from.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct KubeconfigFile {
    #[serde(default)]
    pub(crate) clusters: Vec<Named<Cluster>>,
    #[serde(default)]
    pub(crate) users: Vec<NamedUser>,
    #[serde(default)]
    pub(crate) contexts: Vec<Named<Context>>,
    #[serde(default)]
    pub(crate) current_context: String,
}

/// A `{name, cluster}` or `{name, context}` entry.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Named<T> {
    pub(crate) name: String,
    #[serde(alias = "cluster", alias = "context")]
    pub(crate) value: T,
}

/// A `{name, user}` entry.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct NamedUser {
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) user: User,
}

/// A cluster: where the server is and how to trust it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct Cluster {
    #[serde(default)]
    pub(crate) server: String,
    #[serde(default)]
    pub(crate) certificate_authority: Option<String>,
    #[serde(default)]
    pub(crate) certificate_authority_data: Option<String>,
    #[serde(default)]
    pub(crate) insecure_skip_tls_verify: bool,
    #[serde(default)]
    pub(crate) tls_server_name: Option<String>,
}

/// A user: how to authenticate.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct User {
    #[serde(default)]
    pub(crate) token: Option<String>,
    #[serde(default, rename = "tokenFile")]
    pub(crate) token_file: Option<String>,
    #[serde(default)]
    pub(crate) client_certificate: Option<String>,
    #[serde(default)]
    pub(crate) client_certificate_data: Option<String>,
    #[serde(default)]
    pub(crate) client_key: Option<String>,
    #[serde(default)]
    pub(crate) client_key_data: Option<String>,
    #[serde(default)]
    pub(crate) username: Option<String>,
    #[serde(default)]
    pub(crate) password: Option<String>,
    #[serde(default)]
    pub(crate) exec: Option<ExecSpec>,
    /// The user to act as (kubectl's `--as`).
    #[serde(default, rename = "as")]
    pub(crate) act_as: Option<String>,
    #[serde(default)]
    pub(crate) as_uid: Option<String>,
    #[serde(default)]
    pub(crate) as_groups: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) as_user_extra: Option<std::collections::BTreeMap<String, Vec<String>>>,
}

/// A user's `exec` credential plugin, as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ExecSpec {
    #[serde(default)]
    pub(crate) api_version: String,
    #[serde(default)]
    pub(crate) command: String,
    #[serde(default)]
    pub(crate) args: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) env: Option<Vec<ExecEnvVar>>,
    #[serde(default)]
    pub(crate) provide_cluster_info: bool,
}

/// One `env` entry of an exec plugin.
#[derive(Clone, Debug, Default, Deserialize)]
pub(crate) struct ExecEnvVar {
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) value: String,
}

/// A context: a cluster, a user and a default namespace.
#[derive(Clone, Debug, Default, Deserialize)]
pub(crate) struct Context {
    #[serde(default)]
    pub(crate) cluster: String,
    #[serde(default)]
    pub(crate) user: String,
    #[serde(default)]
    pub(crate) namespace: Option<String>,
}

/// An entry with the file it came from, so relative paths resolve against that file's
/// directory and errors can name it.
#[derive(Clone, Debug)]
pub(crate) struct FromFile<T> {
    pub(crate) path: PathBuf,
    pub(crate) value: T,
}

/// Several kubeconfig files merged as kubectl merges `KUBECONFIG`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Merged {
    pub(crate) paths: Vec<PathBuf>,
    pub(crate) clusters: BTreeMap<String, FromFile<Cluster>>,
    pub(crate) users: BTreeMap<String, FromFile<User>>,
    pub(crate) contexts: BTreeMap<String, FromFile<Context>>,
    pub(crate) current_context: String,
}

/// Reads and parses one kubeconfig file with the project's YAML loader.
pub(crate) fn read_file(path: &Path) -> Result<KubeconfigFile, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(path, &text)
}

/// Parses kubeconfig text; `path` names it in errors.
pub(crate) fn parse(path: &Path, text: &str) -> Result<KubeconfigFile, ConfigError> {
    if text.trim().is_empty() {
        // kubectl treats an empty file as an empty config.
        return Ok(KubeconfigFile::default());
    }
    let doc =
        apimachinery::serializer::yaml::yaml_to_json(text).map_err(|e| ConfigError::Yaml {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    if doc.value.is_null() {
        return Ok(KubeconfigFile::default());
    }
    serde_path_to_error::deserialize(doc.value).map_err(|e| ConfigError::Field {
        path: path.to_path_buf(),
        field: e.path().to_string(),
        message: e.inner().to_string(),
    })
}

impl Merged {
    /// Adds a file: entries it names that an earlier file already named are ignored.
    pub(crate) fn add(&mut self, path: &Path, file: KubeconfigFile) {
        self.paths.push(path.to_path_buf());
        for c in file.clusters {
            self.clusters.entry(c.name).or_insert(FromFile {
                path: path.to_path_buf(),
                value: c.value,
            });
        }
        for u in file.users {
            self.users.entry(u.name).or_insert(FromFile {
                path: path.to_path_buf(),
                value: u.user,
            });
        }
        for c in file.contexts {
            self.contexts.entry(c.name).or_insert(FromFile {
                path: path.to_path_buf(),
                value: c.value,
            });
        }
        if self.current_context.is_empty() {
            self.current_context = file.current_context;
        }
    }
}

/// A path from a kubeconfig, relative to the directory of the file that holds it.
pub(crate) fn resolve_path(file: &Path, value: &str) -> PathBuf {
    let p = Path::new(value);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    match file.parent() {
        Some(dir) => dir.join(p),
        None => p.to_path_buf(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_field_names_file_and_field() {
        let err = parse(
            Path::new("/tmp/kc"),
            "clusters:\n- name: a\n  cluster:\n    server: https://x\n    insecure-skip-tls-verify: maybe\n",
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("/tmp/kc"), "{text}");
        assert!(
            text.contains("clusters[0].cluster.insecure-skip-tls-verify"),
            "{text}"
        );
    }

    #[test]
    fn first_file_wins_per_key() {
        let a = parse(
            Path::new("/a/kc"),
            "current-context: ca\nclusters:\n- name: c\n  cluster: {server: 'https://a'}\ncontexts:\n- name: ca\n  context: {cluster: c}\n",
        )
        .unwrap();
        let b = parse(
            Path::new("/b/kc"),
            "current-context: cb\nclusters:\n- name: c\n  cluster: {server: 'https://b'}\n- name: d\n  cluster: {server: 'https://d'}\n",
        )
        .unwrap();
        let mut m = Merged::default();
        m.add(Path::new("/a/kc"), a);
        m.add(Path::new("/b/kc"), b);
        assert_eq!(m.current_context, "ca");
        assert_eq!(m.clusters["c"].value.server, "https://a");
        assert_eq!(m.clusters["d"].value.server, "https://d");
        assert_eq!(m.clusters["d"].path, Path::new("/b/kc"));
    }

    #[test]
    fn relative_paths_resolve_against_the_file() {
        assert_eq!(
            resolve_path(Path::new("/home/u/.kube/config"), "ca.crt"),
            Path::new("/home/u/.kube/ca.crt")
        );
        assert_eq!(
            resolve_path(Path::new("/x/config"), "/abs"),
            Path::new("/abs")
        );
    }
}
