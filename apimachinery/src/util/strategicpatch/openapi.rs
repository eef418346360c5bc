//! [`PatchMetaFromOpenApi`]: patch metadata read from OpenAPI schema definitions (Go's
//! `PatchMetaFromOpenAPI` and `PatchMetaFromOpenAPIV3`).

use serde_json::{Map, Value};

use super::error::{LookupPatchMetaError, json_type};
use super::meta::{LookupPatchMeta, PatchMeta, PatchMetaLookup, SchemalessPatchMeta};
use crate::schema::GroupVersionKind;

const PATCH_STRATEGY: &str = "x-kubernetes-patch-strategy";
const PATCH_MERGE_KEY: &str = "x-kubernetes-patch-merge-key";
const REF_PREFIXES: [&str; 2] = ["#/definitions/", "#/components/schemas/"];
/// Deeper than any real chain of `$ref`/`allOf` wrappers; past it the references loop.
const MAX_REF_DEPTH: usize = 32;

/// Patch metadata from OpenAPI definitions as JSON: OpenAPI v2's `definitions` (refs
/// `#/definitions/X`) or v3's `components.schemas` (refs `#/components/schemas/X`, often
/// wrapped in `allOf: [{"$ref": ...}]`).
///
/// Fields are found under `properties`; map values under `additionalProperties`; list
/// items under `items`. Objects declaring neither properties nor additional properties
/// (`RawExtension`, `FieldsV1`, `x-kubernetes-preserve-unknown-fields`) are free-form: below
/// them every lookup answers as [`SchemalessPatchMeta`] does. An unknown field of an object
/// that declares its properties is Go's `FieldNotFoundError`.
///
/// ```
/// use apimachinery::util::strategicpatch::{LookupPatchMeta, PatchMetaFromOpenApi};
/// use serde_json::json;
///
/// let doc = json!({"definitions": {
///     "Pod": {"properties": {"spec": {"$ref": "#/definitions/PodSpec"}}},
///     "PodSpec": {"properties": {"containers": {
///         "type": "array", "items": {"type": "object"},
///         "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"}}},
/// }});
/// let pod = PatchMetaFromOpenApi::from_document(&doc, "Pod")?;
/// let (spec, _) = pod.lookup_patch_metadata_for_struct("spec")?;
/// let (_, containers) = spec.lookup_patch_metadata_for_slice("containers")?;
/// assert_eq!(containers.patch_strategies(), ["merge"]);
/// assert_eq!(containers.patch_merge_key(), "name");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PatchMetaFromOpenApi<'a> {
    definitions: &'a Map<String, Value>,
    /// The schema of this position, references already followed.
    schema: &'a Value,
    /// The definition this position is, if it is one.
    definition: Option<&'a str>,
}

impl<'a> PatchMetaFromOpenApi<'a> {
    /// The schema of definition `root` (e.g. `io.k8s.api.apps.v1.Deployment`) among
    /// `definitions` (a v2 document's `definitions` or a v3 document's
    /// `components.schemas`).
    pub fn new(
        definitions: &'a Map<String, Value>,
        root: &str,
    ) -> Result<PatchMetaFromOpenApi<'a>, LookupPatchMetaError> {
        let (name, schema) = definitions.get_key_value(root).ok_or_else(|| {
            LookupPatchMetaError::UnknownDefinition {
                name: root.to_owned(),
            }
        })?;
        let at = PatchMetaFromOpenApi {
            definitions,
            schema,
            definition: Some(name.as_str()),
        };
        at.resolve(schema)
    }

    /// The schema of definition `root` in a whole OpenAPI document, v2 (`definitions`) or
    /// v3 (`components.schemas`).
    pub fn from_document(
        document: &'a Value,
        root: &str,
    ) -> Result<PatchMetaFromOpenApi<'a>, LookupPatchMetaError> {
        let definitions = document
            .get("definitions")
            .or_else(|| document.get("components").and_then(|c| c.get("schemas")))
            .and_then(Value::as_object)
            .ok_or(LookupPatchMetaError::NoDefinitions)?;
        PatchMetaFromOpenApi::new(definitions, root)
    }

    /// The schema of the definition whose `x-kubernetes-group-version-kind` lists `gvk`
    /// (how kube-apiserver's OpenAPI marks the definition of each served kind). This scans
    /// the definitions; a server patching often may keep the name it finds.
    pub fn for_group_version_kind(
        definitions: &'a Map<String, Value>,
        gvk: &GroupVersionKind,
    ) -> Result<PatchMetaFromOpenApi<'a>, LookupPatchMetaError> {
        fn names(entry: &Value) -> [Option<&str>; 3] {
            ["group", "version", "kind"].map(|k| entry.get(k).and_then(Value::as_str))
        }
        let wanted = [
            Some(gvk.group.as_str()),
            Some(gvk.version.as_str()),
            Some(gvk.kind.as_str()),
        ];
        let root = definitions.iter().find_map(|(name, schema)| {
            schema
                .get("x-kubernetes-group-version-kind")
                .and_then(Value::as_array)
                .is_some_and(|kinds| kinds.iter().any(|k| names(k) == wanted))
                .then_some(name)
        });
        match root {
            Some(root) => PatchMetaFromOpenApi::new(definitions, root),
            None => Err(LookupPatchMetaError::UnknownKind {
                kind: gvk.to_string(),
            }),
        }
    }

    /// The schema this position stands for (references followed).
    pub fn schema(&self) -> &'a Value {
        self.schema
    }

    /// Follows `$ref` and a leading `allOf` wrapper (Go's `resolve` takes `allOf[0]`) to the
    /// schema itself.
    fn resolve(
        &self,
        mut schema: &'a Value,
    ) -> Result<PatchMetaFromOpenApi<'a>, LookupPatchMetaError> {
        let mut definition = None;
        let mut last_ref = "";
        for _ in 0..MAX_REF_DEPTH {
            if let Some(first) = schema
                .get("allOf")
                .and_then(Value::as_array)
                .and_then(|all| all.first())
            {
                schema = first;
                continue;
            }
            let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
                return Ok(PatchMetaFromOpenApi {
                    definitions: self.definitions,
                    schema,
                    definition: definition.or(self.definition),
                });
            };
            last_ref = reference;
            let name = REF_PREFIXES
                .iter()
                .find_map(|prefix| reference.strip_prefix(prefix))
                .unwrap_or(reference);
            let (name, target) = self.definitions.get_key_value(name).ok_or_else(|| {
                LookupPatchMetaError::UnresolvedReference {
                    reference: reference.to_owned(),
                }
            })?;
            definition = Some(name.as_str());
            schema = target;
        }
        Err(LookupPatchMetaError::ReferenceCycle {
            reference: last_ref.to_owned(),
        })
    }

    /// The schema of field `key` and its patch metadata; `None` below a free-form object.
    fn field(&self, key: &str) -> Result<Option<(&'a Value, PatchMeta)>, LookupPatchMetaError> {
        let field = match self.schema.get("properties").and_then(Value::as_object) {
            Some(properties) => match properties.get(key) {
                Some(field) => field,
                None => match self.schema.get("additionalProperties") {
                    Some(values @ Value::Object(_)) => values,
                    _ => {
                        return Err(LookupPatchMetaError::FieldNotFound {
                            type_name: self.name(),
                            field: key.to_owned(),
                        });
                    }
                },
            },
            None => match self.schema.get("additionalProperties") {
                Some(values @ Value::Object(_)) => values,
                _ => return Ok(None),
            },
        };
        let strategies = match field.get(PATCH_STRATEGY) {
            None => Vec::new(),
            Some(Value::String(s)) => s.split(',').map(str::to_owned).collect(),
            Some(other) => return Err(self.bad_extension(key, PATCH_STRATEGY, other)),
        };
        let merge_key = match field.get(PATCH_MERGE_KEY) {
            None => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => return Err(self.bad_extension(key, PATCH_MERGE_KEY, other)),
        };
        Ok(Some((field, PatchMeta::new(strategies, merge_key))))
    }

    fn bad_extension(
        &self,
        field: &str,
        extension: &'static str,
        value: &Value,
    ) -> LookupPatchMetaError {
        LookupPatchMetaError::BadExtension {
            type_name: self.name(),
            field: field.to_owned(),
            extension,
            actual: json_type(value),
        }
    }
}

impl LookupPatchMeta for PatchMetaFromOpenApi<'_> {
    fn lookup_patch_metadata_for_struct(
        &self,
        key: &str,
    ) -> Result<PatchMetaLookup<'_>, LookupPatchMetaError> {
        match self.field(key)? {
            None => Ok((Box::new(SchemalessPatchMeta), PatchMeta::default())),
            Some((field, meta)) => {
                let child = PatchMetaFromOpenApi {
                    definition: None,
                    ..*self
                }
                .resolve(field)?;
                Ok((Box::new(child), meta))
            }
        }
    }

    fn lookup_patch_metadata_for_slice(
        &self,
        key: &str,
    ) -> Result<PatchMetaLookup<'_>, LookupPatchMetaError> {
        match self.field(key)? {
            None => Ok((Box::new(SchemalessPatchMeta), PatchMeta::default())),
            Some((field, meta)) => {
                let unnamed = PatchMetaFromOpenApi {
                    definition: None,
                    ..*self
                };
                let list = unnamed.resolve(field)?;
                let child = match list.schema.get("items") {
                    Some(items @ Value::Object(_)) => unnamed.resolve(items)?,
                    _ => list,
                };
                Ok((Box::new(child), meta))
            }
        }
    }

    fn name(&self) -> String {
        if let Some(definition) = self.definition {
            return definition.to_owned();
        }
        match self.schema.get("type") {
            Some(Value::String(t)) => t.clone(),
            _ => "Struct".to_owned(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v2() -> Value {
        json!({"definitions": {
            "Deployment": {"properties": {
                "metadata": {"$ref": "#/definitions/ObjectMeta"},
                "spec": {"$ref": "#/definitions/DeploymentSpec"},
            }},
            "ObjectMeta": {"properties": {
                "finalizers": {"type": "array", "items": {"type": "string"},
                               "x-kubernetes-patch-strategy": "merge"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            }},
            "DeploymentSpec": {"properties": {
                "strategy": {"$ref": "#/definitions/DeploymentStrategy",
                             "x-kubernetes-patch-strategy": "retainKeys"},
                "template": {"$ref": "#/definitions/PodTemplateSpec"},
            }},
            "DeploymentStrategy": {"properties": {"type": {"type": "string"}}},
            "PodTemplateSpec": {"properties": {"spec": {"$ref": "#/definitions/PodSpec"}}},
            "PodSpec": {"properties": {
                "volumes": {"type": "array", "items": {"$ref": "#/definitions/Volume"},
                            "x-kubernetes-patch-strategy": "merge,retainKeys",
                            "x-kubernetes-patch-merge-key": "name"},
                "overhead": {"type": "object",
                             "additionalProperties": {"$ref": "#/definitions/Quantity"}},
                "raw": {"$ref": "#/definitions/RawExtension"},
                "bad": {"type": "array", "x-kubernetes-patch-strategy": 3},
                "dangling": {"$ref": "#/definitions/Nope"},
                "loop": {"$ref": "#/definitions/Loop"},
            }},
            "Volume": {"properties": {"name": {"type": "string"}}},
            "Quantity": {"type": "string"},
            "RawExtension": {"type": "object"},
            "Loop": {"$ref": "#/definitions/Loop"},
        }})
    }

    fn v3() -> Value {
        json!({"components": {"schemas": {
            "io.k8s.api.core.v1.Pod": {"type": "object", "properties": {
                "spec": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.PodSpec"}],
                         "default": {}},
            }},
            "io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {
                "containers": {"type": "array",
                               "items": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.Container"}],
                                         "default": {}},
                               "x-kubernetes-patch-strategy": "merge",
                               "x-kubernetes-patch-merge-key": "name"},
            }},
            "io.k8s.api.core.v1.Container": {"type": "object", "properties": {
                "ports": {"type": "array", "items": {"type": "object"},
                          "x-kubernetes-patch-strategy": "merge",
                          "x-kubernetes-patch-merge-key": "containerPort"},
            }},
        }}})
    }

    #[test]
    fn v2_follows_refs_items_and_reads_comma_separated_strategies() {
        let doc = v2();
        let root = PatchMetaFromOpenApi::from_document(&doc, "Deployment").unwrap();
        assert_eq!(root.name(), "Deployment");
        let (spec, meta) = root.lookup_patch_metadata_for_struct("spec").unwrap();
        assert_eq!(meta, PatchMeta::default());
        assert_eq!(spec.name(), "DeploymentSpec");
        let (_, strategy) = spec.lookup_patch_metadata_for_struct("strategy").unwrap();
        assert_eq!(strategy.patch_strategies(), ["retainKeys"]);
        let (template, _) = spec.lookup_patch_metadata_for_struct("template").unwrap();
        let (pod, _) = template.lookup_patch_metadata_for_struct("spec").unwrap();
        let (volume, meta) = pod.lookup_patch_metadata_for_slice("volumes").unwrap();
        assert_eq!(meta.patch_strategies(), ["merge", "retainKeys"]);
        assert_eq!(meta.patch_merge_key(), "name");
        assert_eq!(volume.name(), "Volume");
        let (meta_schema, _) = root.lookup_patch_metadata_for_struct("metadata").unwrap();
        let (item, finalizers) = meta_schema
            .lookup_patch_metadata_for_slice("finalizers")
            .unwrap();
        assert_eq!(finalizers.patch_strategies(), ["merge"]);
        assert_eq!(item.name(), "string");
    }

    #[test]
    fn v3_unwraps_all_of_around_refs() {
        let doc = v3();
        let pod = PatchMetaFromOpenApi::from_document(&doc, "io.k8s.api.core.v1.Pod").unwrap();
        let (spec, _) = pod.lookup_patch_metadata_for_struct("spec").unwrap();
        assert_eq!(spec.name(), "io.k8s.api.core.v1.PodSpec");
        let (container, meta) = spec.lookup_patch_metadata_for_slice("containers").unwrap();
        assert_eq!(meta.patch_merge_key(), "name");
        assert_eq!(container.name(), "io.k8s.api.core.v1.Container");
        let (_, ports) = container.lookup_patch_metadata_for_slice("ports").unwrap();
        assert_eq!(ports.patch_merge_key(), "containerPort");
    }

    #[test]
    fn map_values_come_from_additional_properties() {
        let doc = v2();
        let pod = PatchMetaFromOpenApi::from_document(&doc, "PodSpec").unwrap();
        let (overhead, _) = pod.lookup_patch_metadata_for_struct("overhead").unwrap();
        let (value, meta) = overhead.lookup_patch_metadata_for_struct("cpu").unwrap();
        assert_eq!(meta, PatchMeta::default());
        assert_eq!(value.name(), "Quantity");
        let meta_doc = PatchMetaFromOpenApi::from_document(&doc, "ObjectMeta").unwrap();
        let (labels, _) = meta_doc.lookup_patch_metadata_for_struct("labels").unwrap();
        assert_eq!(labels.name(), "object");
        assert!(labels.lookup_patch_metadata_for_struct("app").is_ok());
    }

    #[test]
    fn free_form_objects_are_schemaless_below() {
        let doc = v2();
        let pod = PatchMetaFromOpenApi::from_document(&doc, "PodSpec").unwrap();
        let (raw, _) = pod.lookup_patch_metadata_for_struct("raw").unwrap();
        let (below, meta) = raw.lookup_patch_metadata_for_slice("anything").unwrap();
        assert_eq!(meta, PatchMeta::default());
        assert_eq!(below.name(), SchemalessPatchMeta.name());
    }

    #[test]
    fn kinds_are_found_by_their_group_version_kind_marker() {
        let doc = json!({"definitions": {
            "io.k8s.api.apps.v1.Deployment": {
                "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Deployment"}],
                "properties": {"spec": {"type": "object"}}},
            "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions": {
                "x-kubernetes-group-version-kind": [
                    {"group": "", "version": "v1", "kind": "DeleteOptions"},
                    {"group": "apps", "version": "v1", "kind": "DeleteOptions"}],
                "properties": {}},
        }});
        let definitions = doc["definitions"].as_object().unwrap();
        let found = PatchMetaFromOpenApi::for_group_version_kind(
            definitions,
            &GroupVersionKind::new("apps", "v1", "Deployment"),
        )
        .unwrap();
        assert_eq!(found.name(), "io.k8s.api.apps.v1.Deployment");
        let found = PatchMetaFromOpenApi::for_group_version_kind(
            definitions,
            &GroupVersionKind::new("apps", "v1", "DeleteOptions"),
        )
        .unwrap();
        assert_eq!(
            found.name(),
            "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"
        );
        assert_eq!(
            PatchMetaFromOpenApi::for_group_version_kind(
                definitions,
                &GroupVersionKind::new("apps", "v2", "Deployment"),
            )
            .err(),
            Some(LookupPatchMetaError::UnknownKind {
                kind: "apps/v2, Kind=Deployment".into()
            })
        );
    }

    #[test]
    fn errors_name_the_type_field_or_reference() {
        let doc = v2();
        let pod = PatchMetaFromOpenApi::from_document(&doc, "PodSpec").unwrap();
        assert_eq!(
            pod.lookup_patch_metadata_for_struct("nope").err(),
            Some(LookupPatchMetaError::FieldNotFound {
                type_name: "PodSpec".into(),
                field: "nope".into()
            })
        );
        assert_eq!(
            pod.lookup_patch_metadata_for_slice("bad").err(),
            Some(LookupPatchMetaError::BadExtension {
                type_name: "PodSpec".into(),
                field: "bad".into(),
                extension: PATCH_STRATEGY,
                actual: "integer"
            })
        );
        assert_eq!(
            pod.lookup_patch_metadata_for_struct("dangling").err(),
            Some(LookupPatchMetaError::UnresolvedReference {
                reference: "#/definitions/Nope".into()
            })
        );
        assert_eq!(
            pod.lookup_patch_metadata_for_struct("loop").err(),
            Some(LookupPatchMetaError::ReferenceCycle {
                reference: "#/definitions/Loop".into()
            })
        );
        assert_eq!(
            PatchMetaFromOpenApi::from_document(&doc, "Nope").err(),
            Some(LookupPatchMetaError::UnknownDefinition {
                name: "Nope".into()
            })
        );
        assert_eq!(
            PatchMetaFromOpenApi::from_document(&json!({}), "Pod").err(),
            Some(LookupPatchMetaError::NoDefinitions)
        );
    }
}
