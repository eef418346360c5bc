//! The type description merges and field sets work from (structured-merge-diff's
//! `schema`): which values are scalars, maps (structs with named fields, or string-keyed
//! maps) and lists, and how each map and list merges — atomically, or item by item
//! (`x-kubernetes-list-type: set`/`map` with `x-kubernetes-list-map-keys`,
//! `x-kubernetes-map-type: granular`).
//!
//! [`ParseableType`] is built from an OpenAPI v3 document (built-in kinds, whose
//! `components.schemas` are followed by `$ref`), from one inline schema (a CRD's
//! `openAPIV3Schema`), or deduced from the values themselves (Go's
//! `DeducedParseableType`: maps merge key by key, lists are atomic).
//!
//! Lists without `x-kubernetes-list-type` fall back as Go's OpenAPI conversion does:
//! `x-kubernetes-patch-strategy: merge` with a `x-kubernetes-patch-merge-key` is a map
//! keyed by that field, `merge` without a key a set, anything else atomic.
//!
//! ```
//! use apimachinery::managedfields::schema::{ParseableType, ListRelationship};
//!
//! let crd_schema = serde_json::json!({
//!     "type": "object",
//!     "properties": {"spec": {"type": "object", "properties": {
//!         "ports": {"type": "array", "x-kubernetes-list-type": "map",
//!                   "x-kubernetes-list-map-keys": ["port"],
//!                   "items": {"type": "object", "properties": {"port": {"type": "integer"}}}}
//!     }}}
//! });
//! let t = ParseableType::from_openapi_v3_schema(&crd_schema);
//! let spec = t.field_type(&t.root, "spec").expect("spec is declared");
//! let ports = t.field_type(&spec, "ports").expect("ports is declared");
//! let list = t.list(&ports).expect("a list");
//! assert_eq!(list.relationship, ListRelationship::Map(vec!["port".into()]));
//! ```

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::{Map, Value};

/// How a list merges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListRelationship {
    /// Replaced as a whole by whoever sets it.
    Atomic,
    /// A set of scalars, merged item by item (`x-kubernetes-list-type: set`).
    Set,
    /// Items keyed by these fields, merged item by item (`x-kubernetes-list-type: map`).
    Map(Vec<String>),
}

/// A list type.
#[derive(Clone, Debug)]
pub struct ListType {
    /// The items' type.
    pub element: TypeRef,
    /// How the list merges.
    pub relationship: ListRelationship,
}

/// A map type: a struct's named fields, and the type of any other key.
#[derive(Clone, Debug, Default)]
pub struct MapType {
    /// The declared fields.
    pub fields: BTreeMap<String, TypeRef>,
    /// The type of keys that are not declared fields; none means such keys are not
    /// allowed (Go's "field not declared in schema").
    pub element: Option<TypeRef>,
    /// Replaced as a whole (`x-kubernetes-map-type: atomic`).
    pub atomic: bool,
    /// The `default` of declared fields: what a keyed list item that omits a key field
    /// is keyed by.
    pub defaults: BTreeMap<String, Value>,
}

/// A type.
#[derive(Clone, Debug)]
pub enum Atom {
    /// A string, number, boolean or null (also `x-kubernetes-int-or-string`).
    Scalar,
    /// An object.
    Map(MapType),
    /// An array.
    List(ListType),
}

/// A reference to a type.
#[derive(Clone, Debug)]
pub enum TypeRef {
    /// A named type of the [`ParseableType`]'s table (an OpenAPI `$ref`).
    Named(Arc<str>),
    /// A type written in place.
    Inline(Arc<Atom>),
    /// Whatever the value is: an object merges key by key, a list atomically.
    Deduced,
}

/// A type to read objects as: the root type and the named types it refers to.
#[derive(Clone, Debug)]
pub struct ParseableType {
    /// The type of the whole object.
    pub root: TypeRef,
    named: Arc<HashMap<String, Atom>>,
}

static DEDUCED_MAP: MapType = MapType {
    fields: BTreeMap::new(),
    element: Some(TypeRef::Deduced),
    atomic: false,
    defaults: BTreeMap::new(),
};

static DEDUCED_LIST: ListType = ListType {
    element: TypeRef::Deduced,
    relationship: ListRelationship::Atomic,
};

/// A type resolved against a value.
#[derive(Clone, Copy, Debug)]
pub enum Resolved<'a> {
    /// A scalar.
    Scalar,
    /// A map.
    Map(&'a MapType),
    /// A list.
    List(&'a ListType),
}

impl ParseableType {
    /// Go's `DeducedParseableType`: the type of anything, deduced from the values.
    pub fn deduced() -> Self {
        ParseableType {
            root: TypeRef::Deduced,
            named: Arc::new(HashMap::new()),
        }
    }

    /// The type of kind `kind` of `group`/`version` in an OpenAPI v3 document's
    /// `components.schemas` (the schema whose `x-kubernetes-group-version-kind` names it),
    /// with every schema it refers to; `None` when no schema declares the kind.
    pub fn from_openapi_v3(
        schemas: &Map<String, Value>,
        group: &str,
        version: &str,
        kind: &str,
    ) -> Option<Self> {
        let root_name = schemas.iter().find_map(|(name, s)| {
            let gvks = s.get("x-kubernetes-group-version-kind")?.as_array()?;
            gvks.iter()
                .any(|g| {
                    g.get("group").and_then(Value::as_str).unwrap_or_default() == group
                        && g.get("version").and_then(Value::as_str) == Some(version)
                        && g.get("kind").and_then(Value::as_str) == Some(kind)
                })
                .then(|| name.clone())
        })?;
        Some(Self::from_openapi_v3_named(schemas, &root_name))
    }

    /// The type named `root` in `components.schemas`, with every schema it refers to.
    pub fn from_openapi_v3_named(schemas: &Map<String, Value>, root: &str) -> Self {
        let mut named = HashMap::new();
        let mut visited = std::collections::HashSet::new();
        let mut pending = vec![root.to_owned()];
        let mut overridden = Vec::new();
        while let Some(name) = pending.pop() {
            if !visited.insert(name.clone()) {
                continue;
            }
            if let Some((base, atomic)) = split_map_type_override(&name) {
                pending.push(base.to_owned());
                overridden.push((name.clone(), base.to_owned(), atomic));
                continue;
            }
            // A missing or untyped schema stays out of the table: its values are
            // deduced from their shape.
            let mut target = name.clone();
            for _ in 0..8 {
                let Some(schema) = schemas.get(&target) else {
                    break;
                };
                match convert(schema, &mut pending) {
                    TypeRef::Inline(a) => {
                        named.insert(name.clone(), (*a).clone());
                        break;
                    }
                    // A schema that is only a reference: an alias of its target.
                    TypeRef::Named(other) => target = other.to_string(),
                    TypeRef::Deduced => break,
                }
            }
        }
        // A field that overrides its referenced type's map type gets a copy of that type
        // with the field's merge rule (Go's `TypeRef.ElementRelationship`).
        for (name, base, atomic) in overridden {
            if let Some(Atom::Map(m)) = named.get(&base) {
                let mut copy = m.clone();
                copy.atomic = atomic;
                named.insert(name, Atom::Map(copy));
            } else if let Some(atom) = named.get(&base).cloned() {
                named.insert(name, atom);
            }
        }
        ParseableType {
            root: TypeRef::Named(root.into()),
            named: Arc::new(named),
        }
    }

    /// This type with `defaults`, `(schema name, field, default as JSON)`, for the
    /// fields of its named types whose schemas give none: what a keyed list item that
    /// leaves a key field out is keyed by. The documents kube-apiserver serves have lost
    /// the defaults of Go's OpenAPI definitions, which its field manager is built from
    /// (`LocalObjectReference.name`'s `""`, a port's `"TCP"`); the server passes them
    /// here. A default that is not JSON is left out.
    pub fn with_defaults(mut self, defaults: &[(&str, &str, &str)]) -> Self {
        let named = Arc::make_mut(&mut self.named);
        for (name, atom) in named.iter_mut() {
            let Atom::Map(m) = atom else {
                continue;
            };
            // A field's copy of a type with its own merge rule has the type's defaults.
            let base = split_map_type_override(name).map_or(name.as_str(), |(base, _)| base);
            for (schema, field, default) in defaults {
                if *schema != base || m.defaults.contains_key(*field) {
                    continue;
                }
                if let Ok(value) = serde_json::from_str::<Value>(default) {
                    m.defaults.insert((*field).to_owned(), value);
                }
            }
        }
        self
    }

    /// The type of one inline OpenAPI v3 schema (a CRD version's `openAPIV3Schema`):
    /// what the `crd` handling feeds; `$ref`s are not followed (they are not allowed in
    /// structural schemas) and read as deduced.
    pub fn from_openapi_v3_schema(schema: &Value) -> Self {
        let mut ignored = Vec::new();
        ParseableType {
            root: convert(schema, &mut ignored),
            named: Arc::new(HashMap::new()),
        }
    }

    /// `tr` resolved for `value` (deduced types take the value's shape; a missing named
    /// type is deduced).
    pub fn resolve<'a>(&'a self, tr: &'a TypeRef, value: Option<&Value>) -> Resolved<'a> {
        let atom = match tr {
            TypeRef::Named(name) => self.named.get(&**name),
            TypeRef::Inline(atom) => Some(&**atom),
            TypeRef::Deduced => None,
        };
        match atom {
            Some(Atom::Scalar) => Resolved::Scalar,
            Some(Atom::Map(m)) => Resolved::Map(m),
            Some(Atom::List(l)) => Resolved::List(l),
            None => match value {
                Some(Value::Object(_)) => Resolved::Map(&DEDUCED_MAP),
                Some(Value::Array(_)) => Resolved::List(&DEDUCED_LIST),
                _ => Resolved::Scalar,
            },
        }
    }

    /// The declared or element type of `field` of the map type `tr`.
    pub fn field_type(&self, tr: &TypeRef, field: &str) -> Option<TypeRef> {
        match self.resolve(tr, Some(&Value::Object(Map::new()))) {
            Resolved::Map(m) => m.fields.get(field).or(m.element.as_ref()).cloned(),
            _ => None,
        }
    }

    /// The list type `tr` resolves to, if it is one.
    pub fn list<'a>(&'a self, tr: &'a TypeRef) -> Option<&'a ListType> {
        match self.resolve(tr, Some(&Value::Array(Vec::new()))) {
            Resolved::List(l) => Some(l),
            _ => None,
        }
    }
}

fn inline(atom: Atom) -> TypeRef {
    TypeRef::Inline(Arc::new(atom))
}

fn ref_name(reference: &str) -> Option<&str> {
    reference
        .strip_prefix("#/components/schemas/")
        .or_else(|| reference.strip_prefix("#/definitions/"))
}

/// What joins a named type and a field's `x-kubernetes-map-type` in the name of the
/// overridden copy (not a character of OpenAPI schema names).
const MAP_TYPE_OVERRIDE: &str = "\u{0}map-type=";

/// The named type and whether its copy is atomic, for the name of an overridden copy.
fn split_map_type_override(name: &str) -> Option<(&str, bool)> {
    let (base, map_type) = name.split_once(MAP_TYPE_OVERRIDE)?;
    Some((base, map_type == "atomic"))
}

/// One OpenAPI schema as a type; names it refers to are pushed on `pending`.
fn convert(schema: &Value, pending: &mut Vec<String>) -> TypeRef {
    let Some(obj) = schema.as_object() else {
        return TypeRef::Deduced;
    };
    // OpenAPI v3 wraps a field's reference in allOf to give it a description.
    let reference = obj.get("$ref").or_else(|| {
        match obj
            .get("allOf")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
        {
            Some([only]) if obj.get("type").is_none() && obj.get("properties").is_none() => {
                only.get("$ref")
            }
            _ => None,
        }
    });
    if let Some(name) = reference.and_then(Value::as_str).and_then(ref_name) {
        // A field may say how the referenced struct merges where it is used, whatever
        // the struct says elsewhere: Go's schema converter keeps that as an override on
        // the reference (a PersistentVolume's `claimRef` is granular over the atomic
        // ObjectReference).
        let name = match obj.get("x-kubernetes-map-type").and_then(Value::as_str) {
            Some(map_type @ ("atomic" | "granular")) => {
                format!("{name}{MAP_TYPE_OVERRIDE}{map_type}")
            }
            _ => name.to_owned(),
        };
        pending.push(name.clone());
        return TypeRef::Named(name.into());
    }
    if let Some([only]) = obj
        .get("allOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        if obj.get("type").is_none() && obj.get("properties").is_none() {
            return convert(only, pending);
        }
    }
    if obj
        .get("x-kubernetes-int-or-string")
        .and_then(Value::as_bool)
        == Some(true)
        || obj.get("format").and_then(Value::as_str) == Some("int-or-string")
        || scalar_one_of(obj)
    {
        return inline(Atom::Scalar);
    }
    let ty = obj.get("type").and_then(Value::as_str);
    match ty {
        Some("string" | "integer" | "number" | "boolean") => inline(Atom::Scalar),
        Some("array") => {
            let element = obj
                .get("items")
                .map_or(TypeRef::Deduced, |i| convert(i, pending));
            inline(Atom::List(ListType {
                element,
                relationship: list_relationship(obj),
            }))
        }
        _ => {
            let properties = obj.get("properties").and_then(Value::as_object);
            let additional = obj.get("additionalProperties");
            let preserve = obj
                .get("x-kubernetes-preserve-unknown-fields")
                .and_then(Value::as_bool)
                == Some(true);
            if ty.is_none() && properties.is_none() && additional.is_none() {
                return TypeRef::Deduced;
            }
            // An object type that declares no field and no element (a RawExtension, such as
            // a ControllerRevision's `data`) holds Go's untyped atomic values: the map is
            // one leaf (`f:data`), nothing in it tracked.
            if properties.is_none_or(Map::is_empty)
                && additional.is_none()
                && !preserve
                && obj
                    .get("x-kubernetes-embedded-resource")
                    .and_then(Value::as_bool)
                    != Some(true)
            {
                return inline(Atom::Map(MapType {
                    fields: BTreeMap::new(),
                    element: Some(TypeRef::Deduced),
                    atomic: true,
                    defaults: BTreeMap::new(),
                }));
            }
            let mut fields = BTreeMap::new();
            let mut defaults = BTreeMap::new();
            for (name, s) in properties.into_iter().flatten() {
                fields.insert(name.clone(), convert(s, pending));
                if let Some(d) = s.get("default").filter(|d| !d.is_object() && !d.is_array()) {
                    defaults.insert(name.clone(), d.clone());
                }
            }
            let element = match additional {
                Some(Value::Bool(false)) => None,
                Some(Value::Object(s)) if !s.is_empty() => {
                    Some(convert(&Value::Object(s.clone()), pending))
                }
                Some(_) => Some(TypeRef::Deduced),
                // An object that keeps unknown fields holds anything (Go's untyped map).
                None if preserve => Some(TypeRef::Deduced),
                None => None,
            };
            // Embedded resources carry apiVersion, kind and metadata whatever the
            // schema declares.
            if obj
                .get("x-kubernetes-embedded-resource")
                .and_then(Value::as_bool)
                == Some(true)
            {
                for f in ["apiVersion", "kind", "metadata"] {
                    fields.entry(f.to_owned()).or_insert(TypeRef::Deduced);
                }
            }
            let atomic = obj.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic");
            inline(Atom::Map(MapType {
                fields,
                element,
                atomic,
                defaults,
            }))
        }
    }
}

/// int-or-string and quantities are written as a `oneOf` of scalar types.
fn scalar_one_of(obj: &Map<String, Value>) -> bool {
    obj.get("oneOf")
        .or_else(|| obj.get("anyOf"))
        .and_then(Value::as_array)
        .is_some_and(|alternatives| {
            !alternatives.is_empty()
                && alternatives.iter().all(|a| {
                    matches!(
                        a.get("type").and_then(Value::as_str),
                        Some("string" | "integer" | "number" | "boolean")
                    )
                })
        })
}

fn list_relationship(obj: &Map<String, Value>) -> ListRelationship {
    match obj.get("x-kubernetes-list-type").and_then(Value::as_str) {
        Some("set") => return ListRelationship::Set,
        Some("map") => {
            let keys = obj
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            return ListRelationship::Map(keys);
        }
        Some(_) => return ListRelationship::Atomic,
        None => {}
    }
    let strategy = obj
        .get("x-kubernetes-patch-strategy")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if strategy.split(',').next() == Some("merge") {
        return match obj
            .get("x-kubernetes-patch-merge-key")
            .and_then(Value::as_str)
        {
            Some(key) => ListRelationship::Map(vec![key.to_owned()]),
            None => ListRelationship::Set,
        };
    }
    ListRelationship::Atomic
}
