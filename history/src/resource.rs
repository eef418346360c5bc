//! The resources the workload writes: ConfigMaps, and `probes.history.test`, a custom
//! resource, so that the custom resource storage path is tried too. Each object holds
//! one value, `data.v` or `spec.v`.

use serde_json::{Value, json};

use crate::record::Seen;

/// A resource the workload writes and watches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// The plural, as in URLs and [`crate::record::Key::kind`].
    pub plural: &'static str,
    /// `/api/v1` or `/apis/GROUP/VERSION`.
    pub api_path: &'static str,
    /// The objects' `apiVersion`.
    pub api_version: &'static str,
    /// The objects' `kind`.
    pub kind: &'static str,
    /// The field holding the value object: `data` or `spec`.
    pub field: &'static str,
}

/// ConfigMaps.
pub const CONFIG_MAPS: Resource = Resource {
    plural: "configmaps",
    api_path: "/api/v1",
    api_version: "v1",
    kind: "ConfigMap",
    field: "data",
};

/// The custom resource `Probe` of `history.test/v1` (`.test` is reserved for testing).
pub const PROBES: Resource = Resource {
    plural: "probes",
    api_path: "/apis/history.test/v1",
    api_version: "history.test/v1",
    kind: "Probe",
    field: "spec",
};

/// The CustomResourceDefinition of [`PROBES`].
pub fn probe_definition() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "probes.history.test"},
        "spec": {
            "group": "history.test",
            "scope": "Namespaced",
            "names": {"plural": "probes", "singular": "probe", "kind": "Probe", "listKind": "ProbeList"},
            "versions": [{
                "name": "v1",
                "served": true,
                "storage": true,
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {"spec": {"type": "object", "properties": {"v": {"type": "string"}}}}
                }}
            }]
        }
    })
}

impl Resource {
    /// The collection's path in `namespace`.
    pub fn collection(&self, namespace: &str) -> String {
        format!("{}/namespaces/{namespace}/{}", self.api_path, self.plural)
    }

    /// One object's path.
    pub fn object(&self, namespace: &str, name: &str) -> String {
        format!("{}/{name}", self.collection(namespace))
    }

    /// The whole object, holding `value`, with `resourceVersion` when given.
    pub fn body(&self, name: &str, value: &str, resource_version: Option<u64>) -> Value {
        let mut metadata = json!({"name": name});
        if let Some(rv) = resource_version {
            metadata["resourceVersion"] = Value::String(rv.to_string());
        }
        json!({
            "apiVersion": self.api_version,
            "kind": self.kind,
            "metadata": metadata,
            self.field: {"v": value},
        })
    }

    /// A merge patch setting the value.
    pub fn patch(&self, value: &str) -> Value {
        json!({ self.field: {"v": value} })
    }

    /// The name and state of an object of this resource; `None` for anything else (a
    /// `Status`, say).
    pub fn seen(&self, object: &Value) -> Option<(String, Seen)> {
        if object.get("kind").and_then(Value::as_str) != Some(self.kind) {
            return None;
        }
        self.item(object)
    }

    /// The name and state of an item of a list of this resource (whose items need not
    /// carry their kind).
    pub fn item(&self, object: &Value) -> Option<(String, Seen)> {
        let metadata = object.get("metadata")?;
        let name = metadata.get("name")?.as_str()?.to_owned();
        let rv = metadata.get("resourceVersion")?.as_str()?.parse().ok()?;
        // An object without the value shows the empty one, which no write carries.
        let value = object
            .get(self.field)
            .and_then(|f| f.get("v"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        Some((name, Seen { value, rv }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_written_is_read_back_as_seen() {
        let mut body = PROBES.body("p", "w1-2", Some(7));
        assert_eq!(body["metadata"]["resourceVersion"], "7");
        body["metadata"]["resourceVersion"] = json!("9");
        let (name, seen) = PROBES.seen(&body).unwrap();
        assert_eq!(name, "p");
        assert_eq!(
            seen,
            Seen {
                value: "w1-2".into(),
                rv: 9
            }
        );
        assert_eq!(CONFIG_MAPS.seen(&body), None, "a Probe is not a ConfigMap");
        assert_eq!(
            CONFIG_MAPS.collection("ns"),
            "/api/v1/namespaces/ns/configmaps"
        );
    }

    #[test]
    fn a_status_is_not_an_object() {
        let status = json!({"kind": "Status", "apiVersion": "v1", "status": "Success"});
        assert_eq!(CONFIG_MAPS.seen(&status), None);
    }
}
