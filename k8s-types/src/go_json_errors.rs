//! Go's JSON decoder's words for a value of the wrong JSON type (sigs.k8s.io/json's
//! `UnmarshalTypeError`, which kube-apiserver's decode errors quote): `json: cannot
//! unmarshal array into Go struct field ConfigMap.data of type map[string]string`.
//!
//! Go names the innermost struct whose field the value is in (`Container` for
//! `spec.containers[0].name`), the path of JSON field names from the document's root to
//! it without list indices or map keys (a field an embedded struct promotes is preceded
//! by that struct's Go name), and the Go type the value did not fit, as `reflect` prints
//! it; the value is `array`, `object`, `string`, `bool` or `number` (with its text when
//! it is a number that does not fit a Go integer or float: `number 1.5`).
//!
//! The message is made only when a decode has failed: [`type_mismatch`] walks the
//! generated table of the external structs' Go types (`generated::go_fields`) along the
//! path of the value our decoder failed at. Values of types that decode themselves
//! (`resource.Quantity`, `metav1.Time`, `intstr.IntOrString`) fail with their own
//! errors, not this one.

use serde_json::Value;

use crate::generated::go_fields::GO_STRUCTS;

/// One external Go struct: its API group, version and name, and its fields.
#[derive(Debug)]
pub(crate) struct GoStruct {
    /// The API group (`""` for core, `meta.k8s.io` for meta).
    pub group: &'static str,
    /// The version, which is also the Go package's name.
    pub version: &'static str,
    /// The type's name.
    pub name: &'static str,
    /// The fields, in Go's struct order.
    pub fields: &'static [GoField],
}

/// One field of an external struct.
#[derive(Debug)]
pub(crate) struct GoField {
    /// Its JSON name (empty for an inlined embedded struct).
    pub json: &'static str,
    /// Its Go name (what Go's path names an embedded struct by).
    pub go: &'static str,
    /// An embedded struct whose fields are the outer struct's.
    pub inline: bool,
    /// Its Go type.
    pub ty: GoType,
}

/// The kind of a basic (or named basic) Go type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Basic {
    /// A string.
    String,
    /// A bool.
    Bool,
    /// A signed integer.
    Int,
    /// An unsigned integer (no field of the 1.36 and 1.37 APIs is one; the generator
    /// writes it for one that would be).
    #[allow(dead_code)]
    Uint,
    /// A float.
    Float,
    /// A `[]byte` (base64 text).
    Bytes,
}

/// A Go type of the table.
#[derive(Debug)]
pub(crate) enum GoType {
    /// A basic kind, and Go's text of the type (`int32`, `v1.RestartPolicy`).
    Basic(Basic, &'static str),
    /// A type that decodes itself (`resource.Quantity`), or that the table does not
    /// describe: Go's text of it.
    Own(&'static str),
    /// A struct, by its index in the table.
    Struct(usize),
    /// `*T`.
    Pointer(&'static GoType),
    /// A slice: Go's text of it and its element.
    Slice(&'static str, &'static GoType),
    /// A map: Go's text of it and its value.
    Map(&'static str, &'static GoType),
}

impl GoType {
    /// Go's text of the type (`reflect.Type.String()`).
    fn text(&self) -> String {
        match self {
            GoType::Basic(_, t) | GoType::Own(t) | GoType::Slice(t, _) | GoType::Map(t, _) => {
                (*t).to_owned()
            }
            GoType::Struct(i) => GO_STRUCTS
                .get(*i)
                .map_or_else(String::new, |s| format!("{}.{}", s.version, s.name)),
            GoType::Pointer(inner) => format!("*{}", inner.text()),
        }
    }

    /// The type a decoder stores into: pointers followed (Go's `indirect`).
    fn indirect(&self) -> &GoType {
        match self {
            GoType::Pointer(inner) => inner.indirect(),
            other => other,
        }
    }
}

/// The struct of `group`, `version` and `name`.
fn lookup(group: &str, version: &str, name: &str) -> Option<usize> {
    GO_STRUCTS
        .binary_search_by(|s| (s.group, s.version, s.name).cmp(&(group, version, name)))
        .ok()
}

/// The field of JSON name `json` of struct `index`, searched in the structs it inlines
/// too; with the Go names of the embedded structs on the way.
fn field(index: usize, json: &str) -> Option<(&'static GoField, Vec<&'static str>)> {
    let s = GO_STRUCTS.get(index)?;
    if let Some(f) = s.fields.iter().find(|f| !f.inline && f.json == json) {
        return Some((f, Vec::new()));
    }
    s.fields.iter().filter(|f| f.inline).find_map(|f| {
        let GoType::Struct(inner) = f.ty.indirect() else {
            return None;
        };
        let (found, mut via) = field(*inner, json)?;
        via.insert(0, f.go);
        Some((found, via))
    })
}

/// The first part of a path (`spec.containers[0].name`): a field name, an index, or a
/// map key (a key of `object` the path goes on with); and the rest.
fn split_step<'p>(path: &'p str, object: Option<&Value>) -> Option<(&'p str, &'p str)> {
    let path = path.strip_prefix('.').unwrap_or(path);
    if let Some(rest) = path.strip_prefix('[') {
        let end = rest.find(']')?;
        return Some((&rest[..end], &rest[end + 1..]));
    }
    // A map key may hold dots or brackets: the longest key of the object the path
    // starts with, followed by the path's end or its next step.
    if let Some(map) = object.and_then(Value::as_object) {
        let key = map
            .keys()
            .filter(|k| {
                path.strip_prefix(k.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
            })
            .max_by_key(|k| k.len());
        if let Some(key) = key {
            return Some(path.split_at(key.len()));
        }
    }
    let end = path.find(['.', '[']).unwrap_or(path.len());
    Some(path.split_at(end))
}

/// Go's decoder's error for the value at `path` (our decoder's path:
/// `spec.containers[0].ports[1].containerPort`) of `document`, a `group`/`version`
/// `kind`, when that value's JSON type does not fit the field's Go type: `json: cannot
/// unmarshal array into Go struct field ConfigMap.data of type map[string]string`.
/// `None` when it fits, or when the path leaves the table (a type that decodes itself).
pub fn type_mismatch(
    group: &str,
    version: &str,
    kind: &str,
    path: &str,
    document: &Value,
) -> Option<String> {
    let root = lookup(group, version, kind)?;
    let mut ty: &GoType = &GoType::Struct(root);
    let mut value = document;
    let mut struct_name = "";
    let mut fields: Vec<&str> = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        let (step, after) = split_step(rest, Some(value))?;
        rest = after;
        match ty.indirect() {
            GoType::Struct(index) => {
                let (f, via) = field(*index, step)?;
                struct_name = GO_STRUCTS.get(*index)?.name;
                fields.extend(via);
                fields.push(f.json);
                ty = &f.ty;
                value = value.get(step)?;
            }
            GoType::Slice(_, elem) => {
                ty = *elem;
                value = value.get(step.parse::<usize>().ok()?)?;
            }
            GoType::Map(_, elem) => {
                ty = *elem;
                let key = step.trim_matches('"');
                value = value.get(key)?;
            }
            _ => return None,
        }
    }
    let target = ty.indirect();
    let described = mismatch(value, target)?;
    let text = target.text();
    Some(if fields.is_empty() {
        format!("json: cannot unmarshal {described} into Go value of type {text}")
    } else {
        format!(
            "json: cannot unmarshal {described} into Go struct field {struct_name}.{} of type {text}",
            fields.join(".")
        )
    })
}

/// How Go's decoder describes `value` when it does not fit `ty` (`array`, `number 1.5`);
/// `None` when it fits, or when `ty` decodes itself.
fn mismatch(value: &Value, ty: &GoType) -> Option<String> {
    let described = match (value, ty) {
        (Value::Null, _) | (_, GoType::Own(_)) => return None,
        (Value::Array(_), GoType::Slice(..)) => return None,
        (Value::Array(_), GoType::Basic(Basic::Bytes, _)) => return None,
        (Value::Array(_), _) => "array",
        (Value::Object(_), GoType::Struct(_) | GoType::Map(..)) => return None,
        (Value::Object(_), _) => "object",
        (Value::String(_), GoType::Basic(Basic::String | Basic::Bytes, _)) => return None,
        (Value::String(_), _) => "string",
        (Value::Bool(_), GoType::Basic(Basic::Bool, _)) => return None,
        (Value::Bool(_), _) => "bool",
        (Value::Number(n), GoType::Basic(kind, text)) => {
            return number(n, *kind, text);
        }
        (Value::Number(_), _) => "number",
    };
    Some(described.to_owned())
}

/// Go's description of number `n` stored into a basic type of `kind` named `text`: `None`
/// when it fits, `number <n>` when it does not fit an integer or float, `number` for a
/// type that holds no number.
fn number(n: &serde_json::Number, kind: Basic, text: &str) -> Option<String> {
    let bits = |text: &str| -> u32 {
        match text {
            "int8" | "uint8" => 8,
            "int16" | "uint16" => 16,
            "int32" | "uint32" | "float32" => 32,
            _ => 64,
        }
    };
    let fits = match kind {
        Basic::Int => n.as_i64().is_some_and(|i| {
            let b = bits(text);
            b == 64 || (i >= -(1i64 << (b - 1)) && i < (1i64 << (b - 1)))
        }),
        Basic::Uint => n.as_u64().is_some_and(|u| {
            let b = bits(text);
            b == 64 || u < (1u64 << b)
        }),
        Basic::Float => n
            .as_f64()
            .is_some_and(|f| bits(text) == 64 || f.abs() <= f64::from(f32::MAX)),
        _ => return Some("number".to_owned()),
    };
    (!fits).then(|| format!("number {n}"))
}
