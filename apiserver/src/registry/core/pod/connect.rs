//! A Pod's `log`, `exec`, `attach` and `portforward` (Go's `pkg/registry/core/pod/rest`
//! `LogREST`, `ExecREST`, `AttachREST`, `PortForwardREST`, with `LogLocation`,
//! `streamLocation` and `validateContainer` of `pod/strategy.go`). They reach the
//! kubelet of the Pod's node; kapi serve runs none, so what is answered is what
//! kube-apiserver answers before it connects: the log options' validation, the Pod and
//! container checks, an empty log (204) of a Pod not yet on a node, `pod NAME does not
//! have a host assigned` for the streams, and Go's 404 for a node that does not exist.
//! A Pod on an existing node gets 503: there is no kubelet to reach.

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::Time;
use apimachinery::schema::{GroupKind, GroupResource};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use serde_json::Value;

use crate::registry::resource_info::key_prefix;
use crate::registry::rest::{Connecter, Context};
use crate::registry::{Store, to_json};
use crate::storage::Storage;

/// Which of the Pod's connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    /// `pods/log` (GET).
    Log,
    /// `pods/exec`.
    Exec,
    /// `pods/attach`.
    Attach,
    /// `pods/portforward`.
    PortForward,
}

/// One of the Pod's connecting subresources.
#[derive(Debug)]
pub struct PodConnection {
    connection: Connection,
    pods: Arc<Store>,
    storage: Arc<dyn Storage>,
}

impl PodConnection {
    /// The subresource `connection` of the Pods in `pods`, whose Nodes are read from
    /// `storage`.
    pub fn new(connection: Connection, pods: Arc<Store>, storage: Arc<dyn Storage>) -> Self {
        PodConnection {
            connection,
            pods,
            storage,
        }
    }
}

/// Go's `ValidatePodLogOptions` of the options in `query` (stream selection is behind
/// the `PodLogsQuerySplitStreams` gate, off in 1.36 and 1.37). A value that is not a
/// number or a time is the query decoder's 400.
fn validate_log_options(name: &str, query: &BTreeMap<String, String>) -> Result<(), StatusError> {
    let number = |key: &str| -> Result<Option<i64>, StatusError> {
        query
            .get(key)
            .map(|v| {
                v.parse::<i64>().map_err(|_| {
                    errors::new_bad_request(format!(
                        "strconv.ParseInt: parsing {}: invalid syntax",
                        apimachinery::util::validation::field::go_quote(v)
                    ))
                })
            })
            .transpose()
    };
    let tail_lines = number("tailLines")?;
    let limit_bytes = number("limitBytes")?;
    let since_seconds = number("sinceSeconds")?;
    let since_time = match query.get("sinceTime") {
        Some(t) => Some(
            Time::parse_rfc3339(t)
                .map_err(|e| errors::new_bad_request(format!("invalid sinceTime {t:?}: {e}")))?,
        ),
        None => None,
    };
    let mut errs = ErrorList::default();
    if let Some(n) = tail_lines.filter(|n| *n < 0) {
        let path = Path::new("tailLines");
        errs.push(Error::invalid(
            &path,
            n,
            "must be greater than or equal to 0",
        ));
    }
    if let Some(n) = limit_bytes.filter(|n| *n < 1) {
        let path = Path::new("limitBytes");
        errs.push(Error::invalid(&path, n, "must be greater than 0"));
    }
    match (since_seconds, since_time) {
        (Some(_), Some(_)) => errs.push(Error::forbidden(
            &Path::new(""),
            "at most one of `sinceTime` or `sinceSeconds` may be specified",
        )),
        (Some(n), None) if n < 1 => {
            let path = Path::new("sinceSeconds");
            errs.push(Error::invalid(&path, n, "must be greater than 0"));
        }
        _ => {}
    }
    if query.contains_key("stream") {
        errs.push(Error::forbidden(
            &Path::new("stream"),
            "may not be specified",
        ));
    }
    if errs.is_empty() {
        return Ok(());
    }
    Err(errors::new_invalid(
        &GroupKind::new("", "PodLogOptions"),
        name,
        &errs,
    ))
}

/// The names of the Pod's containers, as Go's `VisitContainers` walks them: init
/// containers, containers, ephemeral containers.
fn container_names(pod: &Value) -> Vec<&str> {
    ["initContainers", "containers", "ephemeralContainers"]
        .iter()
        .flat_map(|list| {
            pod.pointer(&format!("/spec/{list}"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
        .map(|c| c.get("name").and_then(Value::as_str).unwrap_or_default())
        .collect()
}

/// Go's `validateContainer`: the container asked for exists, or the Pod has one only.
fn validate_container(pod: &Value, name: &str, container: &str) -> Result<(), StatusError> {
    let names = container_names(pod);
    if container.is_empty() {
        let containers = pod
            .pointer("/spec/containers")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        return match containers {
            1 => Ok(()),
            0 => Err(errors::new_bad_request(format!(
                "a container name must be specified for pod {name}"
            ))),
            _ => Err(errors::new_bad_request(format!(
                "a container name must be specified for pod {name}, choose one of: [{}]",
                names.join(" ")
            ))),
        };
    }
    if names.contains(&container) {
        Ok(())
    } else {
        Err(errors::new_bad_request(format!(
            "container {container} is not valid for pod {name}"
        )))
    }
}

#[async_trait::async_trait]
impl Connecter for PodConnection {
    fn methods(&self) -> &'static [&'static str] {
        match self.connection {
            Connection::Log => &["GET"],
            Connection::Exec | Connection::Attach | Connection::PortForward => &["GET", "POST"],
        }
    }

    async fn connect(
        &self,
        ctx: &Context<'_>,
        query: &BTreeMap<String, String>,
    ) -> Result<(), StatusError> {
        if self.connection == Connection::Log {
            validate_log_options(ctx.name, query)?;
        }
        let pod = to_json(&*self.pods.get(ctx.namespace, ctx.name).await?)?;
        if self.connection != Connection::PortForward {
            let container = query.get("container").map_or("", String::as_str);
            validate_container(&pod, ctx.name, container)?;
        }
        let node = pod
            .pointer("/spec/nodeName")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if node.is_empty() {
            return match self.connection {
                // Go's `LogLocation` gives no location: an empty answer.
                Connection::Log => Ok(()),
                _ => Err(errors::new_bad_request(format!(
                    "pod {} does not have a host assigned",
                    ctx.name
                ))),
            };
        }
        let key = format!("{}/{node}", key_prefix("", "nodes"));
        let stored = self
            .storage
            .get(&key)
            .await
            .map_err(|e| errors::new_internal_error(e.to_string()))?;
        if stored.is_none() {
            // Go's node lookup answers with the Pods' resource and the node's name.
            return Err(errors::new_not_found(&GroupResource::new("", "pods"), node));
        }
        Err(errors::new_service_unavailable(format!(
            "no kubelet to connect to on node {node}: kapi serve runs none"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn query(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    /// Go's `TestValidatePodLogOptions` cases.
    #[test]
    fn log_options_are_validated_as_go_validates_them() {
        assert!(validate_log_options("p", &query(&[("tailLines", "0")])).is_ok());
        let e = validate_log_options("p", &query(&[("tailLines", "-1")])).unwrap_err();
        assert_eq!(
            e.status.message,
            "PodLogOptions \"p\" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0"
        );
        let e = validate_log_options(
            "p",
            &query(&[
                ("sinceSeconds", "10"),
                ("sinceTime", "2024-01-01T00:00:00Z"),
            ]),
        )
        .unwrap_err();
        assert!(
            e.status
                .message
                .contains("at most one of `sinceTime` or `sinceSeconds`")
        );
        let e = validate_log_options("p", &query(&[("limitBytes", "0"), ("sinceSeconds", "0")]))
            .unwrap_err();
        assert_eq!(
            e.status.message,
            "PodLogOptions \"p\" is invalid: [limitBytes: Invalid value: 0: must be greater than 0, sinceSeconds: Invalid value: 0: must be greater than 0]"
        );
        assert_eq!(
            validate_log_options("p", &query(&[("tailLines", "x")]))
                .unwrap_err()
                .code(),
            400
        );
    }

    /// Go's `TestValidateContainer` cases.
    #[test]
    fn containers_are_chosen_as_go_chooses_them() {
        let one = json!({"spec": {"containers": [{"name": "c"}]}});
        assert!(validate_container(&one, "p", "").is_ok());
        assert!(validate_container(&one, "p", "c").is_ok());
        assert_eq!(
            validate_container(&one, "p", "x")
                .unwrap_err()
                .status
                .message,
            "container x is not valid for pod p"
        );
        let two = json!({"spec": {"initContainers": [{"name": "i"}], "containers": [{"name": "a"}, {"name": "b"}],
            "ephemeralContainers": [{"name": "debug"}]}});
        assert_eq!(
            validate_container(&two, "p", "")
                .unwrap_err()
                .status
                .message,
            "a container name must be specified for pod p, choose one of: [i a b debug]"
        );
        assert!(validate_container(&two, "p", "debug").is_ok());
        let none = json!({"spec": {}});
        assert_eq!(
            validate_container(&none, "p", "")
                .unwrap_err()
                .status
                .message,
            "a container name must be specified for pod p"
        );
    }
}
