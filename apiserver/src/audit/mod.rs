//! The audit trail (Go's `k8s.io/apiserver/pkg/audit` with the log backend,
//! kube-apiserver's `--audit-log-path`): one `audit.k8s.io/v1` `Event` at the Metadata
//! level per request, accepted or refused, as a line of JSON, written when the response
//! is ready (stage `ResponseComplete`; a watch's event is written when its stream
//! starts).
//!
//! ```
//! use apiserver::audit::AuditLog;
//!
//! let dir = std::env::temp_dir().join(format!("audit-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let log = AuditLog::open(&dir.join("audit.log"))?;
//! # let _ = log; std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), std::io::Error>(())
//! ```

use std::io::{LineWriter, Write};
use std::path::Path;
use std::sync::Mutex;

use apimachinery::apis::meta::v1::MicroTime;
use serde::Serialize;

use crate::authentication::user::Info;
use crate::endpoints::request_info::RequestInfo;

/// The header a client may name its request's audit id in, and the server answers it
/// in (Go's `Audit-ID`).
pub const AUDIT_ID_HEADER: &str = "audit-id";

/// Where audit events go: a file (or any writer), one JSON line each.
pub struct AuditLog {
    out: Mutex<Box<dyn Write + Send>>,
}

impl std::fmt::Debug for AuditLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditLog").finish_non_exhaustive()
    }
}

impl AuditLog {
    /// Appends to the file at `path`, creating it (Go's `--audit-log-path`).
    pub fn open(path: &Path) -> std::io::Result<AuditLog> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(AuditLog::to_writer(Box::new(file)))
    }

    /// Writes to `out`, a line at a time.
    pub fn to_writer(out: Box<dyn Write + Send>) -> AuditLog {
        AuditLog {
            out: Mutex::new(Box::new(LineWriter::new(out))),
        }
    }

    /// Writes one event. An audit log that cannot be written to does not stop the
    /// server (Go's log backend drops and reports such events too).
    pub fn log(&self, event: &Event) {
        let Ok(mut line) = serde_json::to_vec(event) else {
            return;
        };
        line.push(b'\n');
        if let Ok(mut out) = self.out.lock() {
            let _ = out.write_all(&line);
        }
    }
}

/// The user of an event (`authentication.k8s.io/v1` `UserInfo`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct UserInfo {
    /// The user name; absent for a request whose credentials were refused.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub username: String,
    /// The uid.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// The groups.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
    /// The extra fields.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub extra: std::collections::BTreeMap<String, Vec<String>>,
}

impl From<&Info> for UserInfo {
    fn from(user: &Info) -> Self {
        UserInfo {
            username: user.name.clone(),
            uid: user.uid.clone(),
            groups: user.groups.clone(),
            extra: user.extra.clone(),
        }
    }
}

/// What an event is about (Go's `ObjectReference`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectReference {
    /// The resource.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub resource: String,
    /// The namespace.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// The name.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The API group.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_group: String,
    /// The API version.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The subresource.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub subresource: String,
}

impl From<&RequestInfo> for ObjectReference {
    fn from(info: &RequestInfo) -> Self {
        ObjectReference {
            resource: info.resource.clone(),
            namespace: info.namespace.clone().unwrap_or_default(),
            name: info.name.clone(),
            api_group: info.api_group.clone(),
            api_version: info.api_version.clone(),
            subresource: info.subresource.clone(),
        }
    }
}

/// The status of the response (a `metav1.Status` with its code).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ResponseStatus {
    /// Always empty, as Go writes it.
    pub metadata: serde_json::Map<String, serde_json::Value>,
    /// `Failure` for an error answer.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub status: String,
    /// The HTTP status code.
    pub code: u16,
}

/// One `audit.k8s.io/v1` `Event` at the Metadata level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// `Event`.
    pub kind: &'static str,
    /// `audit.k8s.io/v1`.
    pub api_version: &'static str,
    /// `Metadata`.
    pub level: &'static str,
    /// The request's unique id.
    #[serde(rename = "auditID")]
    pub audit_id: String,
    /// `ResponseComplete` (`ResponseStarted` for a watch).
    pub stage: &'static str,
    /// The path and query.
    #[serde(rename = "requestURI")]
    pub request_uri: String,
    /// The verb: the resource verb, or the lowercased method of a non-resource request.
    pub verb: String,
    /// Who asked (empty when the credentials were refused).
    pub user: UserInfo,
    /// Whom they asked as (`Impersonate-User` and the like), when they did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impersonated_user: Option<UserInfo>,
    /// The client's address.
    #[serde(rename = "sourceIPs", skip_serializing_if = "Vec::is_empty")]
    pub source_ips: Vec<String>,
    /// The client's `User-Agent`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub user_agent: String,
    /// The object, for a resource request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_ref: Option<ObjectReference>,
    /// The answer's status.
    pub response_status: ResponseStatus,
    /// When the request came.
    pub request_received_timestamp: String,
    /// When this stage was reached.
    pub stage_timestamp: String,
}

impl Event {
    /// The event of a request answered with `code`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        audit_id: String,
        request_uri: String,
        verb: String,
        user: UserInfo,
        source_ip: Option<std::net::IpAddr>,
        user_agent: String,
        object_ref: Option<ObjectReference>,
        code: u16,
        received: MicroTime,
        watch: bool,
    ) -> Event {
        Event {
            kind: "Event",
            api_version: "audit.k8s.io/v1",
            level: "Metadata",
            audit_id,
            stage: if watch {
                "ResponseStarted"
            } else {
                "ResponseComplete"
            },
            request_uri,
            verb,
            user,
            impersonated_user: None,
            source_ips: source_ip.map(|ip| ip.to_string()).into_iter().collect(),
            user_agent,
            object_ref,
            response_status: ResponseStatus {
                metadata: serde_json::Map::new(),
                status: if code >= 400 {
                    "Failure".to_owned()
                } else {
                    String::new()
                },
                code,
            },
            request_received_timestamp: received.to_rfc3339(),
            stage_timestamp: MicroTime::now().to_rfc3339(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn an_event_is_one_line_of_go_shaped_json() {
        let out = Shared::default();
        let log = AuditLog::to_writer(Box::new(out.clone()));
        let info = RequestInfo::parse("GET", "/api/v1/namespaces/default/pods/web", false).unwrap();
        let user = Info {
            name: "alice".into(),
            groups: vec!["system:authenticated".into()],
            ..Info::default()
        };
        log.log(&Event::new(
            "id-1".into(),
            "/api/v1/namespaces/default/pods/web".into(),
            "get".into(),
            UserInfo::from(&user),
            Some("127.0.0.1".parse().unwrap()),
            "kubectl/v1.32".into(),
            Some(ObjectReference::from(&info)),
            404,
            MicroTime::from_unix(1_700_000_000, 123_456_000),
            false,
        ));
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["apiVersion"], "audit.k8s.io/v1");
        assert_eq!(v["stage"], "ResponseComplete");
        assert_eq!(
            v["user"],
            serde_json::json!({"username": "alice", "groups": ["system:authenticated"]})
        );
        assert_eq!(v["sourceIPs"], serde_json::json!(["127.0.0.1"]));
        assert_eq!(
            v["objectRef"],
            serde_json::json!({"resource": "pods", "namespace": "default", "name": "web", "apiVersion": "v1"})
        );
        assert_eq!(
            v["responseStatus"],
            serde_json::json!({"metadata": {}, "status": "Failure", "code": 404})
        );
        assert_eq!(v["requestReceivedTimestamp"], "2023-11-14T22:13:20.123456Z");
    }
}
