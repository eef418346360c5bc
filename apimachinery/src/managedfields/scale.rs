//! managedFields across a `/scale` write (Go's `managedfields.ScaleHandler`): a write
//! through `/scale` is tracked on the autoscaling/v1 `Scale`, so the parent's entries
//! are shown to the field manager as entries of the `Scale` (the replicas path mapped to
//! `spec.replicas`), and what the field manager leaves is mapped back onto the parent.

use std::collections::BTreeMap;

use serde_json::Value;

use super::fieldpath::{Path, PathElement, Set};
use super::manager::{DecodeError, Managed, VersionedSet};

/// The apiVersion of the `Scale` a `/scale` write is tracked on.
const SCALE_API_VERSION: &str = "autoscaling/v1";

/// The replicas path of each apiVersion of a scalable resource (Go's
/// `ResourcePathMappings`): `None` for a version without `/scale` (a custom resource's
/// version without the subresource), whose entries are kept as they are. An entry of an
/// apiVersion not in the map is dropped from the parent, as Go drops it.
pub type ReplicasPaths = BTreeMap<String, Option<Path>>;

/// `spec.replicas`, where a `Scale` keeps its replicas (and where the built-in scalable
/// kinds keep theirs).
pub fn spec_replicas() -> Path {
    Path(vec![
        PathElement::Field("spec".into()),
        PathElement::Field("replicas".into()),
    ])
}

/// Maps the managedFields of a parent object to its `Scale` and back.
///
/// ```
/// use apimachinery::managedfields::{ReplicasPaths, ScaleHandler, spec_replicas};
/// use serde_json::json;
///
/// let parent = json!([{"manager": "kubectl", "operation": "Update", "apiVersion": "apps/v1",
///     "time": "2026-01-01T00:00:00Z", "fieldsType": "FieldsV1",
///     "fieldsV1": {"f:spec": {"f:replicas": {}, "f:paused": {}}}}]);
/// let paths = ReplicasPaths::from([("apps/v1".to_owned(), Some(spec_replicas()))]);
/// let handler = ScaleHandler::new(Some(&parent), "apps/v1", &paths)?;
/// // The Scale sees kubectl owning its replicas, and nothing else.
/// let scale = handler.to_subresource().expect("kubectl owns the replicas");
/// assert_eq!(scale[0]["apiVersion"], "autoscaling/v1");
/// assert_eq!(scale[0]["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
/// // The field manager gave the replicas to "hpa" through /scale.
/// let written = json!([{"manager": "hpa", "operation": "Update", "apiVersion": "autoscaling/v1",
///     "time": "2026-01-01T00:00:01Z", "fieldsType": "FieldsV1",
///     "fieldsV1": {"f:spec": {"f:replicas": {}}}, "subresource": "scale"}]);
/// let back = handler.to_parent(Some(&written))?.expect("entries");
/// assert_eq!(back[0]["manager"], "hpa");
/// assert_eq!(back[0]["apiVersion"], "apps/v1");
/// assert_eq!(back[1]["fieldsV1"], json!({"f:spec": {"f:paused": {}}}));
/// # Ok::<(), apimachinery::managedfields::DecodeError>(())
/// ```
#[derive(Debug)]
pub struct ScaleHandler<'a> {
    parent: Managed,
    group_version: String,
    paths: &'a ReplicasPaths,
}

impl<'a> ScaleHandler<'a> {
    /// The handler of a `/scale` write made at `group_version` (the parent's, e.g.
    /// `apps/v1`) to an object whose `managedFields` are `parent_entries`.
    pub fn new(
        parent_entries: Option<&Value>,
        group_version: &str,
        paths: &'a ReplicasPaths,
    ) -> Result<Self, DecodeError> {
        Ok(ScaleHandler {
            parent: Managed::decode(parent_entries)?,
            group_version: group_version.to_owned(),
            paths,
        })
    }

    /// The parent's entries that own its replicas, as entries of the `Scale` owning
    /// `spec.replicas` (Go's `ToSubresource`); `None` when there are none.
    pub fn to_subresource(&self) -> Option<Value> {
        let mut scale = Managed::default();
        for (key, versioned) in &self.parent.fields {
            let Some(Some(path)) = self.paths.get(&versioned.api_version) else {
                continue;
            };
            if !versioned.set.has(path) {
                continue;
            }
            scale.fields.insert(
                key.clone(),
                VersionedSet {
                    set: set_of(&spec_replicas()),
                    api_version: SCALE_API_VERSION.to_owned(),
                    applied: versioned.applied,
                },
            );
            if let Some(t) = self.parent.times.get(key) {
                scale.times.insert(key.clone(), t.clone());
            }
        }
        scale.encode()
    }

    /// The parent's entries after the `Scale`'s became `scale_entries` (Go's
    /// `ToParent`): a parent manager with no `Scale` entry loses the replicas (another
    /// manager took them through `/scale`), and each `Scale` manager still owning
    /// `spec.replicas` gets a parent entry owning the replicas at the request's version.
    ///
    /// As in Go, a `Scale` manager's entry takes the time the parent had under the same
    /// identifier: an Update's identifier names its apiVersion, which differs between the
    /// `Scale` and the parent, so an Update through `/scale` is recorded without a time.
    pub fn to_parent(&self, scale_entries: Option<&Value>) -> Result<Option<Value>, DecodeError> {
        let mut scale = Managed::decode(scale_entries)?.fields;
        let mut out = Managed::default();
        for (key, versioned) in &self.parent.fields {
            let Some(path) = self.paths.get(&versioned.api_version) else {
                continue;
            };
            let keep = match path {
                Some(path) if versioned.set.has(path) => scale.remove(key).is_some(),
                _ => true,
            };
            let versioned = match path {
                Some(path) if !keep => {
                    let rest = versioned.set.difference(&set_of(path));
                    if rest.is_empty() {
                        continue;
                    }
                    VersionedSet {
                        set: rest,
                        ..versioned.clone()
                    }
                }
                _ => versioned.clone(),
            };
            out.fields.insert(key.clone(), versioned);
            if let Some(t) = self.parent.times.get(key) {
                out.times.insert(key.clone(), t.clone());
            }
        }
        let own_path = self.paths.get(&self.group_version).cloned().flatten();
        for (key, versioned) in scale {
            if !versioned.set.has(&spec_replicas()) {
                continue;
            }
            out.fields.insert(
                key.clone(),
                VersionedSet {
                    set: own_path.as_ref().map(set_of).unwrap_or_default(),
                    api_version: self.group_version.clone(),
                    applied: versioned.applied,
                },
            );
            match self.parent.times.get(&key) {
                Some(t) => out.times.insert(key, t.clone()),
                None => out.times.remove(&key),
            };
        }
        Ok(out.encode())
    }
}

/// The set of one path.
fn set_of(path: &Path) -> Set {
    let mut set = Set::new();
    set.insert(&path.0);
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(manager: &str, version: &str, sub: &str, time: Option<&str>, fields: Value) -> Value {
        let mut e = json!({"manager": manager, "operation": "Update", "apiVersion": version,
            "fieldsType": "FieldsV1", "fieldsV1": fields});
        if let Some(t) = time {
            e["time"] = json!(t);
        }
        if !sub.is_empty() {
            e["subresource"] = json!(sub);
        }
        e
    }

    fn deployment_paths() -> ReplicasPaths {
        ReplicasPaths::from([("apps/v1".to_owned(), Some(spec_replicas()))])
    }

    #[test]
    fn a_scale_update_takes_the_replicas_from_the_creator_without_a_time() {
        let t0 = "2026-01-01T00:00:00Z";
        let parent = json!([entry(
            "maker",
            "apps/v1",
            "",
            Some(t0),
            json!({"f:spec": {"f:replicas": {}, "f:paused": {}}})
        )]);
        let paths = deployment_paths();
        let handler = ScaleHandler::new(Some(&parent), "apps/v1", &paths).unwrap();
        // What the field manager leaves on the Scale after "maker" scaled it: the
        // replicas moved from its main entry to its /scale entry.
        let scale = json!([entry(
            "maker",
            "autoscaling/v1",
            "scale",
            Some("2026-01-01T00:00:05Z"),
            json!({"f:spec": {"f:replicas": {}}})
        )]);
        let back = handler.to_parent(Some(&scale)).unwrap().unwrap();
        assert_eq!(
            back,
            json!([
                entry(
                    "maker",
                    "apps/v1",
                    "scale",
                    None,
                    json!({"f:spec": {"f:replicas": {}}})
                ),
                entry(
                    "maker",
                    "apps/v1",
                    "",
                    Some(t0),
                    json!({"f:spec": {"f:paused": {}}})
                ),
            ])
        );
    }

    #[test]
    fn entries_without_the_replicas_are_kept_and_unknown_versions_dropped() {
        let parent = json!([
            entry(
                "a",
                "apps/v1",
                "",
                Some("2026-01-01T00:00:00Z"),
                json!({"f:spec": {"f:paused": {}}})
            ),
            entry(
                "old",
                "apps/v1beta9",
                "",
                None,
                json!({"f:spec": {"f:replicas": {}}})
            ),
        ]);
        let paths = deployment_paths();
        let handler = ScaleHandler::new(Some(&parent), "apps/v1", &paths).unwrap();
        assert_eq!(handler.to_subresource(), None);
        let back = handler.to_parent(None).unwrap().unwrap();
        assert_eq!(back.as_array().map(Vec::len), Some(1));
        assert_eq!(back[0]["manager"], "a");
    }

    #[test]
    fn an_applier_keeps_its_entry_and_time_when_it_still_owns_the_replicas() {
        let t0 = "2026-01-01T00:00:00Z";
        let applied = json!({"manager": "ci", "operation": "Apply", "apiVersion": "apps/v1",
            "time": t0, "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}});
        let parent = json!([applied.clone()]);
        let paths = deployment_paths();
        let handler = ScaleHandler::new(Some(&parent), "apps/v1", &paths).unwrap();
        let scale = handler.to_subresource().unwrap();
        assert_eq!(scale[0]["apiVersion"], "autoscaling/v1");
        assert_eq!(scale[0]["operation"], "Apply");
        // Nobody else wrote the replicas: the applier's entry is the parent's own.
        assert_eq!(
            handler.to_parent(Some(&scale)).unwrap(),
            Some(json!([applied]))
        );
    }

    #[test]
    fn a_version_without_scale_keeps_its_entries() {
        let parent = json!([entry(
            "a",
            "example.com/v1",
            "",
            None,
            json!({"f:spec": {"f:replicas": {}}})
        )]);
        let paths = ReplicasPaths::from([
            ("example.com/v1".to_owned(), None),
            ("example.com/v2".to_owned(), Some(spec_replicas())),
        ]);
        let handler = ScaleHandler::new(Some(&parent), "example.com/v2", &paths).unwrap();
        assert_eq!(handler.to_subresource(), None);
        assert_eq!(handler.to_parent(None).unwrap(), Some(parent));
    }
}
