//! Request options as Rust types (controller-runtime's `ListOptions`, `CreateOptions`,
//! ... over `metav1`'s): each writes the query parameters, and for deletes the
//! `DeleteOptions` body, that the server reads.

use apimachinery::fields;
use apimachinery::labels;

/// The key of an object: its namespace (empty for cluster-scoped objects) and name
/// (Go's `client.ObjectKey`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectKey {
    /// The namespace; empty for cluster-scoped objects.
    pub namespace: String,
    /// The name.
    pub name: String,
}

impl ObjectKey {
    /// The key of a namespaced object.
    pub fn new(namespace: impl Into<String>, name: impl Into<String>) -> Self {
        ObjectKey {
            namespace: namespace.into(),
            name: name.into(),
        }
    }

    /// The key of a cluster-scoped object.
    pub fn cluster(name: impl Into<String>) -> Self {
        ObjectKey::new("", name)
    }

    /// The key of an object, from its metadata.
    pub fn of(obj: &dyn apimachinery::runtime::Object) -> Self {
        match obj.meta() {
            Some(m) => ObjectKey::new(m.namespace(), m.name()),
            None => ObjectKey::default(),
        }
    }
}

impl std::fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.namespace.is_empty() {
            f.write_str(&self.name)
        } else {
            write!(f, "{}/{}", self.namespace, self.name)
        }
    }
}

/// How a list's `resourceVersion` is matched (Go's `ResourceVersionMatch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceVersionMatch {
    /// At least as new as the given version.
    NotOlderThan,
    /// Exactly the given version.
    Exact,
}

/// Options of list, watch and delete-collection calls (Go's `client.ListOptions`).
#[derive(Clone, Debug, Default)]
pub struct ListOptions {
    /// Only objects in this namespace; `None` for all namespaces (or cluster-scoped kinds).
    pub namespace: Option<String>,
    /// A label selector.
    pub label_selector: Option<labels::Selector>,
    /// A field selector.
    pub field_selector: Option<fields::Selector>,
    /// At most this many items per page.
    pub limit: Option<i64>,
    /// The token of the next page.
    pub continue_token: Option<String>,
    /// The resourceVersion to list or watch from.
    pub resource_version: Option<String>,
    /// How `resource_version` is matched by lists.
    pub resource_version_match: Option<ResourceVersionMatch>,
    /// Watches only: ask for bookmark events.
    pub allow_watch_bookmarks: bool,
    /// Watches only: end the watch after this many seconds.
    pub timeout_seconds: Option<i64>,
    /// Watches only: start with the current objects, then a bookmark
    /// (`sendInitialEvents`).
    pub send_initial_events: bool,
}

impl ListOptions {
    /// Options limited to one namespace.
    pub fn in_namespace(namespace: impl Into<String>) -> Self {
        ListOptions {
            namespace: Some(namespace.into()),
            ..ListOptions::default()
        }
    }

    /// Adds a label selector.
    pub fn with_labels(mut self, selector: labels::Selector) -> Self {
        self.label_selector = Some(selector);
        self
    }

    /// Adds a field selector.
    pub fn with_fields(mut self, selector: fields::Selector) -> Self {
        self.field_selector = Some(selector);
        self
    }

    /// Sets the page size.
    pub fn with_limit(mut self, limit: i64) -> Self {
        self.limit = Some(limit);
        self
    }

    pub(crate) fn query(&self, watch: bool, out: &mut Vec<(&'static str, String)>) {
        if watch {
            out.push(("watch", "true".into()));
        }
        if let Some(s) = &self.label_selector {
            let text = s.to_string();
            if !text.is_empty() {
                out.push(("labelSelector", text));
            }
        }
        if let Some(s) = &self.field_selector {
            let text = field_selector_text(s);
            if !text.is_empty() {
                out.push(("fieldSelector", text));
            }
        }
        if let Some(l) = self.limit.filter(|_| !watch) {
            out.push(("limit", l.to_string()));
        }
        if let Some(c) = self.continue_token.as_ref().filter(|_| !watch) {
            out.push(("continue", c.clone()));
        }
        if let Some(rv) = &self.resource_version {
            out.push(("resourceVersion", rv.clone()));
        }
        if let Some(m) = self.resource_version_match {
            out.push((
                "resourceVersionMatch",
                match m {
                    ResourceVersionMatch::NotOlderThan => "NotOlderThan",
                    ResourceVersionMatch::Exact => "Exact",
                }
                .into(),
            ));
        }
        if watch {
            if self.allow_watch_bookmarks {
                out.push(("allowWatchBookmarks", "true".into()));
            }
            if let Some(t) = self.timeout_seconds {
                out.push(("timeoutSeconds", t.to_string()));
            }
            if self.send_initial_events {
                out.push(("sendInitialEvents", "true".into()));
            }
        }
    }
}

/// A field selector as Go's `Selector.String` writes it (values escaped as
/// `fields.EscapeValue` does).
fn field_selector_text(selector: &fields::Selector) -> String {
    let mut out = String::new();
    for (i, r) in selector.requirements().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&r.field);
        out.push_str(if r.negated { "!=" } else { "=" });
        for c in r.value.chars() {
            if matches!(c, '\\' | ',' | '=') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// Options of create calls.
#[derive(Clone, Debug, Default)]
pub struct CreateOptions {
    /// Validate and admit, but do not persist (`dryRun=All`).
    pub dry_run: bool,
    /// The field manager recorded in `managedFields`.
    pub field_manager: Option<String>,
}

/// Options of update calls.
pub type UpdateOptions = CreateOptions;

/// Options of patch calls.
#[derive(Clone, Debug, Default)]
pub struct PatchOptions {
    /// Validate and admit, but do not persist.
    pub dry_run: bool,
    /// The field manager recorded in `managedFields` (required by server-side apply).
    pub field_manager: Option<String>,
    /// Server-side apply: take over fields owned by other managers.
    pub force: bool,
}

pub(crate) fn write_query(
    dry_run: bool,
    field_manager: Option<&str>,
    out: &mut Vec<(&'static str, String)>,
) {
    if dry_run {
        out.push(("dryRun", "All".into()));
    }
    if let Some(m) = field_manager {
        out.push(("fieldManager", m.to_string()));
    }
}

/// What happens to an object's dependents when it is deleted (Go's `DeletionPropagation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropagationPolicy {
    /// Dependents are orphaned.
    Orphan,
    /// Dependents are deleted in the background.
    Background,
    /// The object waits for its dependents to be deleted.
    Foreground,
}

/// Conditions the object must still meet for a delete to happen (Go's `Preconditions`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preconditions {
    /// The object's UID must be this.
    pub uid: Option<String>,
    /// The object's resourceVersion must be this.
    pub resource_version: Option<String>,
}

/// Options of delete calls (Go's `client.DeleteOptions`, sent as `metav1.DeleteOptions`).
#[derive(Clone, Debug, Default)]
pub struct DeleteOptions {
    /// Seconds before the object is deleted; zero deletes at once.
    pub grace_period_seconds: Option<i64>,
    /// What happens to dependents.
    pub propagation_policy: Option<PropagationPolicy>,
    /// Conditions the object must meet.
    pub preconditions: Option<Preconditions>,
    /// Validate, but do not delete.
    pub dry_run: bool,
}

impl DeleteOptions {
    /// The `DeleteOptions` body (JSON, as client-go sends it).
    pub(crate) fn body(&self) -> Vec<u8> {
        let mut body = serde_json::json!({
            "kind": "DeleteOptions",
            "apiVersion": "v1",
        });
        if let Some(g) = self.grace_period_seconds {
            body["gracePeriodSeconds"] = g.into();
        }
        if let Some(p) = self.propagation_policy {
            body["propagationPolicy"] = match p {
                PropagationPolicy::Orphan => "Orphan",
                PropagationPolicy::Background => "Background",
                PropagationPolicy::Foreground => "Foreground",
            }
            .into();
        }
        if let Some(pre) = &self.preconditions {
            let mut p = serde_json::Map::new();
            if let Some(uid) = &pre.uid {
                p.insert("uid".into(), uid.clone().into());
            }
            if let Some(rv) = &pre.resource_version {
                p.insert("resourceVersion".into(), rv.clone().into());
            }
            body["preconditions"] = p.into();
        }
        if self.dry_run {
            body["dryRun"] = serde_json::json!(["All"]);
        }
        body.to_string().into_bytes()
    }
}

/// A patch and its type (Go's `client.Patch`).
#[derive(Clone, Debug, PartialEq)]
pub enum Patch {
    /// RFC 7386 JSON merge patch (`application/merge-patch+json`).
    Merge(serde_json::Value),
    /// Kubernetes strategic merge patch (`application/strategic-merge-patch+json`);
    /// built-in types only.
    StrategicMerge(serde_json::Value),
    /// RFC 6902 JSON patch: a list of operations (`application/json-patch+json`).
    Json(serde_json::Value),
    /// Server-side apply of a full object (`application/apply-patch+yaml`, JSON being
    /// YAML); needs a field manager. The client checks it against the object it is
    /// applied to: a left-out `apiVersion` or `kind` is filled in from the target's, and
    /// one naming another kind or version is refused before anything is sent
    /// ([`Error::ApplyMismatch`](super::Error::ApplyMismatch)). For a typed object,
    /// [`Client::apply`](super::Client::apply).
    Apply(serde_json::Value),
}

impl Patch {
    /// The patch's content type.
    pub fn content_type(&self) -> &'static str {
        match self {
            Patch::Merge(_) => "application/merge-patch+json",
            Patch::StrategicMerge(_) => "application/strategic-merge-patch+json",
            Patch::Json(_) => "application/json-patch+json",
            Patch::Apply(_) => "application/apply-patch+yaml",
        }
    }

    /// The patch body.
    pub fn body(&self) -> Vec<u8> {
        match self {
            Patch::Merge(v) | Patch::StrategicMerge(v) | Patch::Json(v) | Patch::Apply(v) => {
                v.to_string().into_bytes()
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn list_options_write_go_parameters() {
        let opts = ListOptions {
            label_selector: Some(labels::Selector::parse("app=web,tier!=db").unwrap()),
            field_selector: Some(fields::Selector::parse("metadata.name=x,a!=b\\,c").unwrap()),
            limit: Some(10),
            continue_token: Some("abc".into()),
            ..ListOptions::default()
        };
        let mut q = Vec::new();
        opts.query(false, &mut q);
        let q: Vec<(String, String)> = q.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        assert_eq!(
            q,
            [
                ("labelSelector".into(), "app=web,tier!=db".into()),
                ("fieldSelector".into(), "metadata.name=x,a!=b\\,c".into()),
                ("limit".into(), "10".into()),
                ("continue".into(), "abc".into()),
            ]
        );
        let mut w = Vec::new();
        ListOptions {
            limit: Some(10),
            allow_watch_bookmarks: true,
            resource_version: Some("5".into()),
            ..ListOptions::default()
        }
        .query(true, &mut w);
        assert_eq!(w[0], ("watch", "true".to_string()));
        assert!(!w.iter().any(|(k, _)| *k == "limit"));
        assert!(w.contains(&("allowWatchBookmarks", "true".to_string())));
    }

    #[test]
    fn delete_options_body() {
        let body = DeleteOptions {
            grace_period_seconds: Some(0),
            propagation_policy: Some(PropagationPolicy::Foreground),
            preconditions: Some(Preconditions {
                uid: Some("u1".into()),
                resource_version: None,
            }),
            dry_run: true,
        }
        .body();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["gracePeriodSeconds"], 0);
        assert_eq!(v["propagationPolicy"], "Foreground");
        assert_eq!(v["preconditions"]["uid"], "u1");
        assert_eq!(v["dryRun"][0], "All");
    }
}
