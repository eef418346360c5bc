//! Values read through a [`ParseableType`] (structured-merge-diff's `typed`): the set of
//! fields a value sets ([`to_field_set`]), the fields added, modified and removed between
//! two values ([`compare`]), the merge of a partial value into a whole one ([`merge`]), and
//! the removal of items ([`remove_items`]).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::fieldpath::{Path, PathElement, Set};
use super::schema::{ListRelationship, ListType, MapType, ParseableType, Resolved, TypeRef};

/// Why a value does not fit its type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ValidationError {
    /// Where (`.spec.foo`).
    pub path: String,
    /// What is wrong, in Go's words.
    pub message: String,
}

/// Every problem found, in order; shown as Go joins them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct ValidationErrors(pub Vec<ValidationError>);

fn err(path: &[PathElement], message: impl Into<String>) -> ValidationError {
    ValidationError {
        path: Path(path.to_vec()).to_string(),
        message: message.into(),
    }
}

/// The path element of item `i` of a list of type `list` (Go's `listItemToPathElement`).
fn item_element(
    t: &ParseableType,
    list: &ListType,
    i: usize,
    item: &Value,
    path: &[PathElement],
) -> Result<PathElement, ValidationError> {
    match &list.relationship {
        ListRelationship::Atomic => Ok(PathElement::Index(i)),
        ListRelationship::Set => match item {
            Value::Object(_) | Value::Array(_) => Err(err(
                path,
                format!("element {i}: only scalar values may be items of a set"),
            )),
            _ => Ok(PathElement::Value(item.clone())),
        },
        ListRelationship::Map(keys) => {
            if keys.is_empty() {
                return Err(err(
                    path,
                    format!("element {i}: associative list without keys"),
                ));
            }
            let Value::Object(map) = item else {
                return Err(err(
                    path,
                    format!(
                        "element {i}: associative list with keys may not have non-map elements"
                    ),
                ));
            };
            let mut fields = Vec::new();
            for key in keys {
                match map.get(key) {
                    Some(v) if !v.is_object() && !v.is_array() => {
                        fields.push((key.clone(), v.clone()))
                    }
                    Some(_) => {
                        return Err(err(
                            path,
                            format!("element {i}: key field {key:?} is not a scalar"),
                        ));
                    }
                    None => {
                        // Keyed by the field's default; without one the key goes without
                        // the field (an item that sets it is another item).
                        if let Some(default) = key_default(t, list, key) {
                            fields.push((key.clone(), default.clone()));
                        }
                    }
                }
            }
            if fields.is_empty() {
                let quoted: Vec<String> = keys.iter().map(|k| format!("{k:?}")).collect();
                return Err(err(
                    path,
                    format!(
                        "element {i}: associative list with keys has an element that omits all key fields [{}] (and doesn't have default values for any key fields)",
                        quoted.join(" ")
                    ),
                ));
            }
            Ok(PathElement::key(fields))
        }
    }
}

/// The schema default of key field `key` of the items of `list`.
fn key_default<'t>(t: &'t ParseableType, list: &'t ListType, key: &str) -> Option<&'t Value> {
    match t.resolve(&list.element, Some(&Value::Object(Map::new()))) {
        Resolved::Map(m) => m.defaults.get(key),
        _ => None,
    }
}

fn map_child_type(
    m: &MapType,
    key: &str,
    path: &[PathElement],
) -> Result<TypeRef, ValidationError> {
    m.fields
        .get(key)
        .or(m.element.as_ref())
        .cloned()
        .ok_or_else(|| {
            let mut p = path.to_vec();
            p.push(PathElement::Field(key.to_owned()));
            err(&p, "field not declared in schema")
        })
}

/// Whether an associative list (keyed or set) may name one item twice (Go's
/// `typed.AllowDuplicates` validation option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duplicates {
    /// An item named twice is a validation error (`duplicate entries for key`): what
    /// Go's field manager asks of an applied configuration.
    Refuse,
    /// Tolerated: the field manager reads every object it stores (and every write other
    /// than apply) so, since validation of the kinds may allow duplicates (a Pod's env).
    /// Such an item is recorded as itself, with none of its fields.
    Allow,
}

/// The set of every leaf field and item `value` sets (Go's `ToFieldSet` of a value
/// validated with or without `AllowDuplicates`): scalars, atomic lists and maps, and the
/// items of keyed and set lists. An item named more than once (when `duplicates` allows
/// it) is one member of the set, none of its fields are.
pub fn to_field_set(
    t: &ParseableType,
    value: &Value,
    duplicates: Duplicates,
) -> Result<Set, ValidationErrors> {
    let mut set = Set::new();
    let mut errors = Vec::new();
    let mut walk = FieldSetWalk {
        t,
        duplicates,
        set: &mut set,
        errors: &mut errors,
    };
    walk.walk(&t.root, value, &mut Vec::new());
    if errors.is_empty() {
        Ok(set)
    } else {
        Err(ValidationErrors(errors))
    }
}

struct FieldSetWalk<'a> {
    t: &'a ParseableType,
    duplicates: Duplicates,
    set: &'a mut Set,
    errors: &'a mut Vec<ValidationError>,
}

impl FieldSetWalk<'_> {
    fn walk(&mut self, tr: &TypeRef, value: &Value, path: &mut Vec<PathElement>) {
        let t = self.t;
        match t.resolve(tr, Some(value)) {
            Resolved::Scalar => {
                if value.is_object() || value.is_array() {
                    self.errors
                        .push(err(path, "expected scalar, got a compound value"));
                }
                self.set.insert(path);
            }
            Resolved::List(l) => {
                let Value::Array(items) = value else {
                    if !value.is_null() {
                        self.errors.push(err(path, "expected list"));
                    }
                    return;
                };
                if l.relationship == ListRelationship::Atomic {
                    self.set.insert(path);
                    return;
                }
                self.list(l, items, path);
            }
            Resolved::Map(m) => {
                let Value::Object(map) = value else {
                    if !value.is_null() {
                        self.errors.push(err(path, "expected map"));
                    }
                    return;
                };
                if m.atomic {
                    self.set.insert(path);
                    return;
                }
                for (k, v) in map {
                    match map_child_type(m, k, path) {
                        Ok(child) => {
                            path.push(PathElement::Field(k.clone()));
                            self.walk(&child, v, path);
                            // Go's `visitMapItems`: a field set to null or to an empty
                            // map is a member itself (there is no leaf below to own),
                            // as is every key of a map that is not a declared field.
                            let empty = v.is_null() || v.as_object().is_some_and(Map::is_empty);
                            if empty || !m.fields.contains_key(k) {
                                self.set.insert(path);
                            }
                            path.pop();
                        }
                        Err(e) => self.errors.push(e),
                    }
                }
            }
        }
    }

    /// The items of a keyed or set list. Refused, an item named again is an error where
    /// it is named again (Go's validation); allowed, an item named twice is recorded as
    /// Go's `toFieldSetWalker` does: the bare item, none of its fields.
    fn list(&mut self, l: &ListType, items: &[Value], path: &mut Vec<PathElement>) {
        let mut elements = Vec::with_capacity(items.len());
        let mut count: BTreeMap<PathElement, usize> = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            match item_element(self.t, l, i, item, path) {
                Ok(pe) => {
                    let n = count.entry(pe.clone()).or_default();
                    *n += 1;
                    if *n > 1 && self.duplicates == Duplicates::Refuse {
                        self.errors
                            .push(err(path, format!("duplicate entries for key {pe}")));
                    }
                    elements.push(Some(pe));
                }
                Err(e) => {
                    self.errors.push(e);
                    elements.push(None);
                }
            }
        }
        let mut recorded = BTreeSet::new();
        for (item, pe) in items.iter().zip(elements) {
            let Some(pe) = pe else { continue };
            let duplicated = count.get(&pe).is_some_and(|n| *n > 1);
            if duplicated && self.duplicates == Duplicates::Allow {
                if recorded.insert(pe.clone()) {
                    path.push(pe);
                    self.set.insert(path);
                    path.pop();
                }
                continue;
            }
            path.push(pe);
            self.walk(&l.element, item, path);
            self.set.insert(path);
            path.pop();
        }
    }
}

/// What changed from one value to another (Go's `typed.Comparison`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Fields the new value no longer has.
    pub removed: Set,
    /// Fields both have, with different values.
    pub modified: Set,
    /// Fields only the new value has.
    pub added: Set,
}

impl Comparison {
    /// Whether nothing changed.
    pub fn is_same(&self) -> bool {
        self.removed.is_empty() && self.modified.is_empty() && self.added.is_empty()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Merge,
    Compare,
}

struct Walker<'t> {
    t: &'t ParseableType,
    mode: Mode,
    cmp: Comparison,
    errors: Vec<ValidationError>,
}

/// Compares `lhs` (the old value) with `rhs` (the new one).
pub fn compare(
    t: &ParseableType,
    lhs: &Value,
    rhs: &Value,
) -> Result<Comparison, ValidationErrors> {
    let mut w = Walker {
        t,
        mode: Mode::Compare,
        cmp: Comparison::default(),
        errors: Vec::new(),
    };
    w.walk(&t.root, Some(lhs), Some(rhs), &mut Vec::new());
    if w.errors.is_empty() {
        Ok(w.cmp)
    } else {
        Err(ValidationErrors(w.errors))
    }
}

/// Merges the partial value `rhs` into `lhs` (Go's `TypedValue.Merge`): every field `rhs`
/// sets wins, atomic lists and maps are replaced whole, keyed and set lists merge item by
/// item in `rhs`'s order for the items it names; nothing is removed.
pub fn merge(t: &ParseableType, lhs: &Value, rhs: &Value) -> Result<Value, ValidationErrors> {
    let mut w = Walker {
        t,
        mode: Mode::Merge,
        cmp: Comparison::default(),
        errors: Vec::new(),
    };
    let out = w.walk(&t.root, Some(lhs), Some(rhs), &mut Vec::new());
    if w.errors.is_empty() {
        Ok(out.unwrap_or(Value::Null))
    } else {
        Err(ValidationErrors(w.errors))
    }
}

fn empty_or_null(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => true,
        Some(Value::Array(a)) => a.is_empty(),
        Some(Value::Object(m)) => m.is_empty(),
        _ => false,
    }
}

impl Walker<'_> {
    fn leaf(
        &mut self,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        path: &[PathElement],
    ) -> Option<Value> {
        match self.mode {
            Mode::Merge => rhs.or(lhs).cloned(),
            Mode::Compare => {
                match (lhs, rhs) {
                    (None, _) => self.cmp.added.insert(path),
                    (_, None) => self.cmp.removed.insert(path),
                    (Some(l), Some(r)) if l != r => self.cmp.modified.insert(path),
                    _ => {}
                }
                None
            }
        }
    }

    fn walk(
        &mut self,
        tr: &TypeRef,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        path: &mut Vec<PathElement>,
    ) -> Option<Value> {
        let t = self.t;
        let rl = t.resolve(tr, lhs);
        let rr = t.resolve(tr, rhs);
        // A value whose shape changed (possible only for deduced types) is a leaf.
        let resolved = match (lhs, rhs, rl, rr) {
            (Some(_), Some(_), Resolved::Map(_), Resolved::Map(_))
            | (Some(_), Some(_), Resolved::List(_), Resolved::List(_))
            | (Some(_), Some(_), Resolved::Scalar, Resolved::Scalar) => rr,
            (Some(l), Some(r), _, _) if !l.is_null() && !r.is_null() => Resolved::Scalar,
            (_, Some(r), _, _) if !r.is_null() => rr,
            _ => rl,
        };
        // A value of another shape than its type (bad data) is compared as a whole.
        let shape_fits = |ok: fn(&Value) -> bool| {
            [lhs, rhs]
                .into_iter()
                .flatten()
                .all(|v| v.is_null() || ok(v))
        };
        let out = match resolved {
            Resolved::Scalar => return self.leaf(lhs, rhs, path),
            Resolved::List(_) if !shape_fits(Value::is_array) => {
                return self.leaf(lhs, rhs, path);
            }
            Resolved::Map(_) if !shape_fits(Value::is_object) => {
                return self.leaf(lhs, rhs, path);
            }
            Resolved::List(l) => {
                if l.relationship == ListRelationship::Atomic
                    || (empty_or_null(lhs) && empty_or_null(rhs))
                {
                    return self.leaf(lhs, rhs, path);
                }
                let la = lhs.and_then(Value::as_array);
                let ra = rhs.and_then(Value::as_array);
                self.list_items(l, la, ra, path)
            }
            Resolved::Map(m) => {
                if m.atomic || (empty_or_null(lhs) && empty_or_null(rhs)) {
                    return self.leaf(lhs, rhs, path);
                }
                let lm = lhs.and_then(Value::as_object);
                let rm = rhs.and_then(Value::as_object);
                self.map_items(m, lm, rm, path)
            }
        };
        if self.mode == Mode::Compare {
            if lhs.is_none() {
                self.cmp.added.insert(path);
            } else if rhs.is_none() {
                self.cmp.removed.insert(path);
            }
        }
        out
    }

    fn map_items(
        &mut self,
        m: &MapType,
        lhs: Option<&Map<String, Value>>,
        rhs: Option<&Map<String, Value>>,
        path: &mut Vec<PathElement>,
    ) -> Option<Value> {
        let mut keys: Vec<&String> = lhs.into_iter().flat_map(|m| m.keys()).collect();
        keys.extend(rhs.into_iter().flat_map(|m| m.keys()));
        keys.sort();
        keys.dedup();
        let mut out = Map::new();
        for k in keys {
            let child = match map_child_type(m, k, path) {
                Ok(c) => c,
                Err(e) => {
                    self.errors.push(e);
                    continue;
                }
            };
            path.push(PathElement::Field(k.clone()));
            let v = self.walk(
                &child,
                lhs.and_then(|m| m.get(k)),
                rhs.and_then(|m| m.get(k)),
                path,
            );
            path.pop();
            if let Some(v) = v {
                out.insert(k.clone(), v);
            }
        }
        (!out.is_empty()).then_some(Value::Object(out))
    }
}

/// `value` without the list items and map entries that are members of `set` (Go's
/// `RemoveItems`); a map or list left empty becomes null, as in Go.
pub fn remove_items(t: &ParseableType, value: &Value, set: &Set) -> Value {
    remove_walk(t, &t.root, value, set)
}

fn remove_walk(t: &ParseableType, tr: &TypeRef, value: &Value, set: &Set) -> Value {
    match (t.resolve(tr, Some(value)), value) {
        (Resolved::List(l), Value::Array(items)) => {
            if items.is_empty() {
                return Value::Null;
            }
            if l.relationship == ListRelationship::Atomic {
                return Value::Null;
            }
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let Ok(pe) = item_element(t, l, i, item, &[]) else {
                    out.push(item.clone());
                    continue;
                };
                if set.members().any(|m| *m == pe) {
                    continue;
                }
                match set.child(&pe) {
                    Some(sub) if !sub.is_empty() => out.push(remove_walk(t, &l.element, item, sub)),
                    _ => out.push(item.clone()),
                }
            }
            if out.is_empty() {
                Value::Null
            } else {
                Value::Array(out)
            }
        }
        (Resolved::Map(m), Value::Object(map)) => {
            if map.is_empty() || m.atomic {
                return Value::Null;
            }
            let mut out = Map::new();
            for (k, v) in map {
                let pe = PathElement::Field(k.clone());
                if set.members().any(|m| *m == pe) {
                    continue;
                }
                match set.child(&pe) {
                    Some(sub) if !sub.is_empty() => {
                        let child = m
                            .fields
                            .get(k)
                            .or(m.element.as_ref())
                            .cloned()
                            .unwrap_or(TypeRef::Deduced);
                        out.insert(k.clone(), remove_walk(t, &child, v, sub));
                    }
                    _ => {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            if out.is_empty() {
                Value::Null
            } else {
                Value::Object(out)
            }
        }
        _ => value.clone(),
    }
}

/// `set` with every declared (named) field that has members below it made a member too
/// (Go's `EnsureNamedFieldsAreMembers`), so that removing the set removes such fields.
pub fn ensure_named_fields_are_members(t: &ParseableType, set: &Set) -> Set {
    ensure_walk(t, &t.root, set)
}

fn ensure_walk(t: &ParseableType, tr: &TypeRef, set: &Set) -> Set {
    let mut out = Set::new();
    for m in set.members() {
        out.insert_member(m.clone());
    }
    let resolved = t.resolve(tr, None);
    for (pe, child) in set.children() {
        let child_type = match (resolved, pe) {
            (Resolved::Map(m), PathElement::Field(name)) => {
                if m.fields.contains_key(name) {
                    out.insert_member(pe.clone());
                }
                m.fields.get(name).or(m.element.as_ref()).cloned()
            }
            (Resolved::List(l), _) => Some(l.element.clone()),
            _ => None,
        };
        let below = ensure_walk(t, &child_type.unwrap_or(TypeRef::Deduced), child);
        *out.child_mut(pe.clone()) = below;
    }
    out
}

mod lists;

#[cfg(test)]
mod tests;
