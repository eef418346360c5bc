//! The OpenAPI v3 document of a custom resource group version (Go's
//! `apiextensions-apiserver/pkg/controller/openapi/builder`): the schema of each kind
//! from its `openAPIV3Schema`, with Go's `apiVersion`, `kind` and `metadata`
//! properties and `x-kubernetes-group-version-kind`, its list kind, the metadata
//! schemas they refer to, and the paths of the resource.

use std::collections::BTreeMap;

use apimachinery::managedfields::ParseableType;
use serde_json::{Map, Value, json};

use super::CustomResource;

const API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const OBJECT_META_DESCRIPTION: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const LIST_META_DESCRIPTION: &str = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1";

/// The schema name of a custom kind: the group reversed, then version and kind
/// (`com.example.v1.Widget` for `example.com/v1 Widget`), as Go names it.
pub fn schema_name(group: &str, version: &str, kind: &str) -> String {
    let reversed: Vec<&str> = group.split('.').rev().collect();
    format!("{}.{version}.{kind}", reversed.join("."))
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// The type server-side apply and the field manager merge `version`'s objects by (Go's
/// field manager takes it from the same document): the kind's schema with its
/// `apiVersion`, `kind` and `metadata` (ObjectMeta, whose lists and maps have their
/// own merge keys), `None` when the version has no schema.
pub fn field_types(cr: &CustomResource, version: &str) -> Option<ParseableType> {
    let schema = cr.version(version)?.schema.as_ref()?;
    let doc = document(&cr.group, version, &[cr]);
    let built = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .and_then(|schemas| ParseableType::from_openapi_v3(schemas, &cr.group, version, &cr.kind))
        // The metadata's lists (ownerReferences) key by Go's defaults, as built-in kinds'.
        .map(|t| t.with_defaults(crate::openapi::key_defaults()));
    Some(built.unwrap_or_else(|| ParseableType::from_openapi_v3_schema(schema)))
}

/// The v3 document of `version` of `group`, serving `resources` (every CRD of the group
/// serving the version).
pub fn document(group: &str, version: &str, resources: &[&CustomResource]) -> Value {
    let mut schemas = Map::new();
    let mut paths = Map::new();
    let mut scale = false;
    for cr in resources {
        let Some(v) = cr.version(version) else {
            continue;
        };
        let name = schema_name(group, version, &cr.kind);
        let list_name = schema_name(group, version, &cr.list_kind);
        let gvk = json!([{"group": group, "kind": cr.kind, "version": version}]);
        let mut schema = v
            .schema
            .clone()
            .unwrap_or_else(|| json!({"type": "object"}));
        if let Some(obj) = schema.as_object_mut() {
            obj.insert("x-kubernetes-group-version-kind".into(), gvk);
            let props = obj
                .entry("properties")
                .or_insert_with(|| json!({}))
                .as_object_mut();
            if let Some(props) = props {
                props.insert(
                    "apiVersion".into(),
                    json!({"type": "string", "description": API_VERSION_DESCRIPTION}),
                );
                props.insert(
                    "kind".into(),
                    json!({"type": "string", "description": KIND_DESCRIPTION}),
                );
                props.insert(
                    "metadata".into(),
                    json!({"allOf": [reference(&format!("{META}.ObjectMeta"))], "description": OBJECT_META_DESCRIPTION}),
                );
            }
        }
        schemas.insert(name.clone(), schema);
        schemas.insert(
            list_name.clone(),
            json!({
                "description": format!("{} is a list of {}", cr.list_kind, cr.kind),
                "type": "object",
                "required": ["items"],
                "properties": {
                    "apiVersion": {"type": "string", "description": API_VERSION_DESCRIPTION},
                    "items": {
                        "type": "array",
                        "description": format!("List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md", cr.plural),
                        "items": reference(&name),
                    },
                    "kind": {"type": "string", "description": KIND_DESCRIPTION},
                    "metadata": {"allOf": [reference(&format!("{META}.ListMeta"))], "description": LIST_META_DESCRIPTION},
                },
                "x-kubernetes-group-version-kind": [{"group": group, "kind": cr.list_kind, "version": version}],
            }),
        );
        super::openapi_paths::add_paths(&mut paths, cr, version, &name, &list_name);
        scale |= v.scale.is_some();
    }
    super::openapi_paths::hoist_parameters(&mut paths);
    // The schemas the routes answer and read besides the kinds' (Go's builder3 adds
    // every definition a route refers to, with the definitions they refer to).
    let mut roots = vec![
        format!("{META}.ObjectMeta"),
        format!("{META}.ListMeta"),
        format!("{META}.Status"),
        format!("{META}.DeleteOptions"),
        format!("{META}.Patch"),
    ];
    if scale {
        roots.push(super::openapi_paths::SCALE.to_owned());
    }
    for root in roots {
        add_with_refs(&mut schemas, &root);
    }
    if let Some(options) = schemas.get_mut(&format!("{META}.DeleteOptions")) {
        set_delete_options_kinds(options);
    }
    let schemas: BTreeMap<String, Value> = schemas.into_iter().collect();
    json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes CRD Swagger", "version": "v0.1.0"},
        "paths": paths,
        "components": {"schemas": schemas},
    })
}

/// The groups kube-apiserver registers that client-go's `scheme.Scheme` lacks (the
/// admission and image policy review types, and the apiextensions and apiregistration
/// groups, which are other modules).
const NOT_IN_CLIENT_SCHEME: [&str; 4] = [
    "admission.k8s.io",
    "imagepolicy.k8s.io",
    "apiextensions.k8s.io",
    "apiregistration.k8s.io",
];

/// Go's CRD builder names its definitions with client-go's `scheme.Scheme`, so its
/// `DeleteOptions` lists, as `x-kubernetes-group-version-kind`, every group version of
/// that scheme: the whole v2 document's list without the groups the scheme lacks (a
/// group version's v3 document lists only its own).
fn set_delete_options_kinds(options: &mut Value) {
    let key = "x-kubernetes-group-version-kind";
    let Some(all) = crate::openapi::v2_definition(&format!("{META}.DeleteOptions"))
        .and_then(|d| d.get(key))
        .and_then(Value::as_array)
    else {
        return;
    };
    let kinds: Vec<Value> = all
        .iter()
        .filter(|gvk| {
            let group = gvk.get("group").and_then(Value::as_str).unwrap_or("");
            !NOT_IN_CLIENT_SCHEME.contains(&group)
        })
        .cloned()
        .collect();
    if let Some(options) = options.as_object_mut() {
        options.insert(key.to_owned(), Value::Array(kinds));
    }
}

/// Adds the built-in schema `name` and every schema it refers to.
fn add_with_refs(schemas: &mut Map<String, Value>, name: &str) {
    if schemas.contains_key(name) {
        return;
    }
    let Some(schema) = crate::openapi::schema(name) else {
        return;
    };
    schemas.insert(name.to_owned(), schema.clone());
    let mut refs = Vec::new();
    collect_refs(schema, &mut refs);
    for r in refs {
        add_with_refs(schemas, &r);
    }
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                if k == "$ref" {
                    if let Some(name) = x
                        .as_str()
                        .and_then(|r| r.strip_prefix("#/components/schemas/"))
                    {
                        out.push(name.to_owned());
                    }
                } else {
                    collect_refs(x, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| collect_refs(x, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crd(scope: &str, subresources: Value) -> CustomResource {
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "sprockets.openapi.example.com", "uid": "u"},
            "spec": {
                "group": "openapi.example.com",
                "scope": scope,
                "names": {"plural": "sprockets", "singular": "sprocket", "kind": "Sprocket", "listKind": "SprocketList"},
                "versions": [
                    {"name": "v1", "served": true, "storage": true, "subresources": subresources,
                     "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object"}}}}},
                    {"name": "v1beta1", "served": true, "storage": false,
                     "schema": {"openAPIV3Schema": {"type": "object"}}},
                ],
            },
        });
        match CustomResource::from_json(&crd) {
            Ok(cr) => cr,
            Err(e) => panic!("test CRD: {e}"),
        }
    }

    fn names(params: Option<&Value>) -> Vec<&str> {
        params
            .and_then(Value::as_array)
            .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
            .unwrap_or_default()
    }

    #[test]
    fn namespaced_with_subresources_routes_as_go() {
        let cr = crd(
            "Namespaced",
            json!({"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}}),
        );
        let doc = document("openapi.example.com", "v1", &[&cr]);
        let paths = &doc["paths"];
        let base = "/apis/openapi.example.com/v1/namespaces/{namespace}/sprockets";
        let keys: Vec<&String> = paths
            .as_object()
            .map(|p| p.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys.len(), 5, "{keys:?}");
        let all = &paths["/apis/openapi.example.com/v1/sprockets"];
        assert_eq!(
            all["get"]["operationId"],
            "listOpenapiExampleComV1SprocketForAllNamespaces"
        );
        assert!(names(all.get("parameters")).contains(&"watch"));
        assert!(all["get"].get("parameters").is_none());
        let collection = &paths[base];
        assert_eq!(names(collection.get("parameters")), ["namespace", "pretty"]);
        assert_eq!(
            collection["delete"]["operationId"],
            "deleteOpenapiExampleComV1CollectionNamespacedSprocket"
        );
        assert_eq!(collection["post"]["tags"], json!(["openapiExampleCom_v1"]));
        assert_eq!(
            collection["post"]["responses"]["401"],
            json!({"description": "Unauthorized"})
        );
        let item = &paths[format!("{base}/{{name}}").as_str()];
        assert_eq!(
            names(item.get("parameters")),
            ["name", "namespace", "pretty"]
        );
        assert_eq!(item["delete"]["description"], "delete a Sprocket");
        assert!(item["delete"]["requestBody"].get("required").is_none());
        assert_eq!(
            names(item["patch"].get("parameters")),
            ["dryRun", "fieldManager", "fieldValidation", "force"]
        );
        let status = &paths[format!("{base}/{{name}}/status").as_str()];
        assert_eq!(
            status["patch"]["operationId"],
            "patchOpenapiExampleComV1NamespacedSprocketStatus"
        );
        assert_eq!(
            status["get"]["description"],
            "read status of the specified Sprocket"
        );
        assert!(status.get("delete").is_none());
        let scale = &paths[format!("{base}/{{name}}/scale").as_str()];
        assert_eq!(
            scale["put"]["operationId"],
            "replaceOpenapiExampleComV1NamespacedSprocketScale"
        );
        assert_eq!(
            scale["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/io.k8s.api.autoscaling.v1.Scale"
        );
        let schemas = &doc["components"]["schemas"];
        for name in [
            "io.k8s.api.autoscaling.v1.Scale",
            "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
            "io.k8s.apimachinery.pkg.apis.meta.v1.Patch",
            "io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions",
        ] {
            assert!(schemas.get(name).is_some(), "{name}");
        }
        let kinds = &schemas["io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"]["x-kubernetes-group-version-kind"];
        let groups: Vec<&str> = kinds
            .as_array()
            .map(|k| k.iter().filter_map(|g| g["group"].as_str()).collect())
            .unwrap_or_default();
        assert!(
            groups.contains(&"apps") && groups.contains(&"scheduling.k8s.io"),
            "{groups:?}"
        );
        assert!(!groups.contains(&"apiextensions.k8s.io"), "{groups:?}");
    }

    #[test]
    fn cluster_scoped_routes_have_no_namespace() {
        let cr = crd("Cluster", json!({}));
        let doc = document("openapi.example.com", "v1beta1", &[&cr]);
        let paths = &doc["paths"];
        let keys: Vec<&String> = paths
            .as_object()
            .map(|p| p.keys().collect())
            .unwrap_or_default();
        assert_eq!(
            keys,
            [
                "/apis/openapi.example.com/v1beta1/sprockets",
                "/apis/openapi.example.com/v1beta1/sprockets/{name}"
            ]
        );
        let collection = &paths["/apis/openapi.example.com/v1beta1/sprockets"];
        assert_eq!(names(collection.get("parameters")), ["pretty"]);
        assert_eq!(
            collection["get"]["operationId"],
            "listOpenapiExampleComV1beta1Sprocket"
        );
        assert_eq!(
            collection["post"]["operationId"],
            "createOpenapiExampleComV1beta1Sprocket"
        );
        assert_eq!(
            collection["get"]["tags"],
            json!(["openapiExampleCom_v1beta1"])
        );
        let item = &paths["/apis/openapi.example.com/v1beta1/sprockets/{name}"];
        assert_eq!(names(item.get("parameters")), ["name", "pretty"]);
        assert_eq!(names(item["get"].get("parameters")), ["resourceVersion"]);
        assert!(
            doc["components"]["schemas"]
                .get("io.k8s.api.autoscaling.v1.Scale")
                .is_none()
        );
    }

    #[test]
    fn schema_names_reverse_the_group() {
        assert_eq!(
            schema_name("example.com", "v1", "Widget"),
            "com.example.v1.Widget"
        );
        assert_eq!(
            schema_name("stable.example.com", "v1beta1", "CronTab"),
            "com.example.stable.v1beta1.CronTab"
        );
    }
}
