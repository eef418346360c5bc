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
        let base = if cr.namespaced {
            format!(
                "/apis/{group}/{version}/namespaces/{{namespace}}/{}",
                cr.plural
            )
        } else {
            format!("/apis/{group}/{version}/{}", cr.plural)
        };
        let ok = |schema: &str| json!({"200": {"description": "OK", "content": {"application/json": {"schema": reference(schema)}, "application/yaml": {"schema": reference(schema)}}}});
        let op = |verb: &str, what: String, schema: &str| {
            let mut o = json!({
                "description": what,
                "operationId": format!("{verb}{}", cr.kind),
                "responses": ok(schema),
                "tags": [format!("{group}_{version}")],
                "x-kubernetes-action": verb,
                "x-kubernetes-group-version-kind": {"group": group, "version": version, "kind": cr.kind},
            });
            // The write parameters, as Go lists them: kubectl looks for fieldValidation on
            // the PATCH operation to leave validation to the server.
            if matches!(verb, "create" | "put" | "patch") {
                let mut params: Vec<Value> = ["dryRun", "fieldManager", "fieldValidation"]
                    .iter()
                    .map(|name| query_parameter(name))
                    .collect();
                if verb == "patch" {
                    params.push(query_parameter("force"));
                }
                o["parameters"] = Value::Array(params);
            }
            o
        };
        paths.insert(
            base.clone(),
            json!({
                "get": op("list", format!("list objects of kind {}", cr.kind), &list_name),
                "post": op("create", format!("create a {}", cr.kind), &name),
                "delete": op("deletecollection", format!("delete collection of {}", cr.kind), &format!("{META}.Status")),
            }),
        );
        let item = json!({
            "get": op("get", format!("read the specified {}", cr.kind), &name),
            "put": op("put", format!("replace the specified {}", cr.kind), &name),
            "patch": op("patch", format!("partially update the specified {}", cr.kind), &name),
            "delete": op("delete", format!("delete a {}", cr.kind), &format!("{META}.Status")),
        });
        paths.insert(format!("{base}/{{name}}"), item.clone());
        if v.status {
            paths.insert(format!("{base}/{{name}}/status"), item.clone());
        }
        if v.scale.is_some() {
            paths.insert(format!("{base}/{{name}}/scale"), item);
        }
    }
    for root in ["ObjectMeta", "ListMeta", "Status"] {
        add_with_refs(&mut schemas, &format!("{META}.{root}"));
    }
    let schemas: BTreeMap<String, Value> = schemas.into_iter().collect();
    json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes CRD Swagger", "version": "v0.1.0"},
        "paths": paths,
        "components": {"schemas": schemas},
    })
}

/// A query parameter of the write operations, described as Go describes it.
fn query_parameter(name: &str) -> Value {
    let (description, type_) = match name {
        "dryRun" => (
            "When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed",
            "string",
        ),
        "fieldManager" => (
            "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.",
            "string",
        ),
        "fieldValidation" => (
            "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.",
            "string",
        ),
        _ => (
            "Force is going to \"force\" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.",
            "boolean",
        ),
    };
    json!({"name": name, "in": "query", "description": description, "schema": {"type": type_, "uniqueItems": true}})
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
