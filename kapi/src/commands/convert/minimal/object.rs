//! One object converted minimally: what the input set, changed only where Go's
//! conversion changes it, plus the fields the new version requires.
//!
//! Three encodings of the object, each by its type (so each has the same always-written
//! fields): `read` (as read, in its own version, no defaults), `converted` (converted
//! without defaults) and `defaulted` (defaulted in its own version, then converted: what
//! `kubectl convert` prints). What differs between `read` and `converted` is what the
//! conversion did, and only that is applied to the input as written:
//!
//! - a value changed or removed is changed or removed;
//! - a field added is added only when its data came from somewhere the conversion
//!   emptied (a field that moved: an Ingress backend's `serviceName` into
//!   `service.name`); a field the conversion merely fills in (a deprecated mirror such as
//!   `serviceAccount`) is not;
//! - each field the new version's schema requires and the input lacks is taken from
//!   `defaulted` (a Deployment's `selector`, a path's `pathType`; see [`super::required`]).
//!
//! A removed value whose data appears nowhere in the converted object is data Go's
//! conversion drops: the object is then left as it is, for a person. So is an object
//! whose new version would refuse it ([`super::checks`]). Fields the input has that its
//! type does not know stay as written (the server would drop them), with a note; so do
//! defaults that differ between the versions for fields the input leaves out
//! (`revisionHistoryLimit` is unlimited under `extensions/v1beta1`, 10 under `apps/v1`):
//! each is a note, as the object's behaviour changes with the version.

use apimachinery::runtime::Object;
use apimachinery::schema::{GroupVersion, GroupVersionKind};
use apimachinery::serializer::Encoder;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use k8s_types::lifecycle::{self, Release};

use super::super::converter::Converter;
use super::tree::{Seg, Tree, path_string};
use super::{checks, removed, required};
use crate::scheme::is_custom_resource;

/// Which objects are converted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// Every object the converter would convert (to `--output-version`, or its group's
    /// preferred version).
    All,
    /// Only objects whose version is deprecated or removed by the release.
    DeprecatedBy(Release),
}

/// What became of an object.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Left as it is: nothing to convert.
    Unchanged,
    /// Converted.
    Converted(Converted),
    /// Not converted, for the reason given: a person has to.
    Left(String),
    /// Not converted, for the reason given, but still served by the target release (it
    /// only deprecates the version): nothing is due yet.
    Kept(String),
}

/// A converted object.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The object as it is to be written.
    pub tree: Tree,
    /// Its `apiVersion` before.
    pub from: String,
    /// Its `apiVersion` now.
    pub to: String,
    /// What the user should know (defaults that changed, unknown fields kept).
    pub notes: Vec<String>,
}

/// Converts objects minimally with a [`Converter`].
pub struct Objects<'c, 's> {
    converter: &'c Converter<'s>,
    json: JsonSerializer<'s>,
    select: Select,
}

/// The most notes of default changes given per object.
const MAX_DEFAULT_NOTES: usize = 12;

impl<'c, 's> Objects<'c, 's> {
    /// Minimal conversion of the objects `select` picks, with `converter`.
    pub fn new(converter: &'c Converter<'s>, select: Select) -> Self {
        let json = JsonSerializer::new(
            converter.scheme(),
            SerializerOptions {
                yaml: false,
                pretty: false,
                strict: false,
            },
        );
        Objects {
            converter,
            json,
            select,
        }
    }

    /// Converts `input` (an object as written).
    pub fn convert(&self, input: &Tree) -> Outcome {
        let (api_version, kind) = (input.str_at("apiVersion"), input.str_at("kind"));
        // Not an object of the API (values files, ...), or a custom resource.
        let Ok(gv) = api_version.parse::<GroupVersion>() else {
            return Outcome::Unchanged;
        };
        if kind.is_empty() {
            return Outcome::Unchanged;
        }
        let gvk = gv.with_kind(kind);
        let scheme = self.converter.scheme();
        if is_custom_resource(scheme, &gvk) {
            return Outcome::Unchanged;
        }
        // Whether the target still serves the version (what is not converted then waits).
        let mut served = false;
        if let Select::DeprecatedBy(release) = self.select {
            let entry = lifecycle::find_api_version(api_version, kind);
            let due =
                entry.is_some_and(|e| e.is_deprecated_in(release) || e.is_removed_in(release));
            if !due {
                return Outcome::Unchanged;
            }
            served = !entry.is_some_and(|e| e.is_removed_in(release));
        }
        let outcome = if scheme.recognizes(&gvk) {
            self.typed_conversion(input, &gvk)
                .unwrap_or_else(Outcome::Left)
        } else {
            match removed::convert(api_version, kind, input) {
                Ok(Some(tree)) => Outcome::Converted(Converted {
                    to: tree.str_at("apiVersion").to_owned(),
                    from: api_version.to_owned(),
                    tree,
                    notes: Vec::new(),
                }),
                Ok(None) => Outcome::Left(no_conversion(scheme, &gvk)),
                Err(e) => Outcome::Left(e),
            }
        };
        match outcome {
            Outcome::Left(reason) if served => Outcome::Kept(reason),
            other => other,
        }
    }

    fn typed_conversion(&self, input: &Tree, gvk: &GroupVersionKind) -> Result<Outcome, String> {
        let map = match input.to_value() {
            serde_json::Value::Object(map) => map,
            _ => return Ok(Outcome::Unchanged),
        };
        let typed = self
            .converter
            .typed(&map)
            .map_err(|e| format!("does not decode as {gvk}: {e}"))?;
        let Some(converted) = self.converter.converted_copy(gvk, &*typed, false)? else {
            // Picked for its lifecycle, yet the Scheme has nothing newer.
            if let Select::DeprecatedBy(_) = self.select {
                return Ok(Outcome::Left(no_newer_version(gvk)));
            }
            return Ok(Outcome::Unchanged);
        };
        let defaulted = self
            .converter
            .converted_copy(gvk, &*typed, true)?
            .ok_or_else(|| format!("{gvk}: no conversion once defaulted"))?;
        let read = self.encode(&*typed)?;
        let converted = self.encode(&*converted)?;
        let defaulted = self.encode(&*defaulted)?;

        let mut ops = Vec::new();
        diff(&read, &converted, &mut Vec::new(), &mut ops);
        let mut out = input.clone();
        apply(&mut out, &ops, &converted);
        if let Some(dropped) = dropped(&ops, &converted) {
            return Ok(Outcome::Left(dropped));
        }
        let to = converted.str_at("apiVersion").to_owned();
        let to_gv: GroupVersion = to.parse().map_err(|e| format!("apiVersion {to:?}: {e}"))?;
        let to_kind = converted.str_at("kind").to_owned();
        required::fill(&mut out, &defaulted, &to_gv.group, &to_gv.version, &to_kind);
        if let Some(reason) = checks::refused(&to, &to_kind, &out) {
            return Ok(Outcome::Left(reason));
        }
        let mut notes = unknown_fields(input, &read, gvk);
        notes.extend(self.default_changes(&out, &defaulted, gvk, &to));
        Ok(Outcome::Converted(Converted {
            tree: out,
            from: gvk.group_version().to_string(),
            to,
            notes,
        }))
    }

    /// An object's JSON as its type writes it, keys in Go's order.
    fn encode(&self, obj: &dyn Object) -> Result<Tree, String> {
        let bytes = self.json.encode_to_vec(obj).map_err(|e| e.to_string())?;
        Tree::parse_json(&bytes).map_err(|e| e.to_string())
    }

    /// Notes for the fields `out` leaves to defaults that the new version defaults
    /// otherwise than the old one did.
    fn default_changes(
        &self,
        out: &Tree,
        defaulted: &Tree,
        from: &GroupVersionKind,
        to: &str,
    ) -> Vec<String> {
        let serde_json::Value::Object(map) = out.to_value() else {
            return Vec::new();
        };
        let Ok(mut now) = self.converter.typed(&map) else {
            return Vec::new();
        };
        let scheme = self.converter.scheme();
        scheme.default(&mut *now);
        // Through the internal version to its own, as the defaulted conversion went: what
        // Go's conversions add there (a pod's `serviceAccount` beside
        // `serviceAccountName`) is no default of either version.
        let own = now.group_version_kind().group_version();
        let Ok(now) = scheme.convert_to_version(now, &own) else {
            return Vec::new();
        };
        let Ok(now) = self.encode(&*now) else {
            return Vec::new();
        };
        let mut changes = Vec::new();
        default_diff(defaulted, &now, out, &mut Vec::new(), &mut changes);
        let from_version = from.group_version().to_string();
        let total = changes.len();
        let mut notes: Vec<String> = changes
            .into_iter()
            .take(MAX_DEFAULT_NOTES)
            .map(|(path, before, after)| {
                let after = after.map_or_else(|| "unset".to_owned(), |a| a.to_string());
                format!(
                    "{path} defaults to {after} in {to} (it was {before} in {from_version}); set it to keep the old behaviour"
                )
            })
            .collect();
        if total > MAX_DEFAULT_NOTES {
            notes.push(format!(
                "and {} more defaults that differ",
                total - MAX_DEFAULT_NOTES
            ));
        }
        notes
    }
}

/// The reason a deprecated object whose kind has no newer version in the Scheme is not
/// converted.
fn no_newer_version(gvk: &GroupVersionKind) -> String {
    let api_version = gvk.group_version().to_string();
    let entry = lifecycle::find_api_version(&api_version, &gvk.kind);
    let deprecated = entry
        .and_then(|e| e.deprecated)
        .map_or_else(String::new, |r| format!("deprecated in {r}; "));
    match entry.and_then(|e| e.replacement) {
        Some(r) if r.kind != gvk.kind => format!(
            "{deprecated}its replacement is another kind, {} {}: move to it by hand",
            r.api_version(),
            r.kind
        ),
        Some(r) => format!(
            "{deprecated}its replacement, {}, is newer than Kubernetes {}, the API kapi converts with; convert it by hand",
            r.api_version(),
            k8s_types::RELEASE
        ),
        None => format!("{deprecated}Go names no replacement: remove it or replace it by hand"),
    }
}

/// The reason an object of a version the Scheme lacks, with no JSON conversion, is left.
fn no_conversion(scheme: &apimachinery::runtime::Scheme, gvk: &GroupVersionKind) -> String {
    let (api_version, kind) = (gvk.group_version().to_string(), gvk.kind.as_str());
    let Some(entry) = lifecycle::find_api_version(&api_version, kind) else {
        return crate::scheme::unknown_builtin_kind(scheme, gvk);
    };
    let removed = entry.removed.map_or_else(String::new, |r| {
        format!(" was removed in Kubernetes {r} and")
    });
    match entry.replacement {
        Some(r) => format!(
            "{api_version} {kind}{removed} is not in Kubernetes {}'s API, which kapi converts with; rewrite it as {} {} by hand",
            k8s_types::RELEASE,
            r.api_version(),
            r.kind
        ),
        None => format!(
            "{api_version} {kind}{removed} has no replacement in the API: remove it or replace it by hand"
        ),
    }
}

/// A change the conversion made, at a path of the object as read.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// The value at the path is now this (`old` when there was one).
    Set {
        /// Where.
        path: Vec<Seg>,
        /// The value now.
        value: Tree,
        /// The value before, when there was one.
        old: Option<Tree>,
    },
    /// The value at the path is gone.
    Delete {
        /// Where.
        path: Vec<Seg>,
        /// The value it had.
        old: Tree,
    },
}

/// The changes from `a` to `b`, as fine as their shapes allow; values added or removed
/// that say nothing (Go's zero values) are not changes.
pub fn diff(a: &Tree, b: &Tree, path: &mut Vec<Seg>, ops: &mut Vec<Op>) {
    match (a, b) {
        (Tree::Object(ao), Tree::Object(bo)) => {
            for (k, bv) in bo {
                path.push(Seg::Key(k.clone()));
                match a.get(k) {
                    Some(av) => diff(av, bv, path, ops),
                    None if !bv.is_zero() => ops.push(Op::Set {
                        path: path.clone(),
                        value: bv.clone(),
                        old: None,
                    }),
                    None => {}
                }
                path.pop();
            }
            for (k, av) in ao {
                if b.get(k).is_none() && !av.is_zero() {
                    path.push(Seg::Key(k.clone()));
                    ops.push(Op::Delete {
                        path: path.clone(),
                        old: av.clone(),
                    });
                    path.pop();
                }
            }
        }
        (Tree::Array(aa), Tree::Array(ba)) if aa.len() == ba.len() => {
            for (i, (av, bv)) in aa.iter().zip(ba).enumerate() {
                path.push(Seg::Index(i));
                diff(av, bv, path, ops);
                path.pop();
            }
        }
        _ if a != b => ops.push(Op::Set {
            path: path.clone(),
            value: b.clone(),
            old: Some(a.clone()),
        }),
        _ => {}
    }
}

/// Applies `ops` to `out` (the input as written); `converted` gives Go's order for keys
/// added. A value added where there was none is applied only when some of its data
/// comes from a value the conversion changed or removed (it moved).
pub fn apply(out: &mut Tree, ops: &[Op], converted: &Tree) {
    let mut removed = Vec::new();
    for op in ops {
        match op {
            Op::Set { old: Some(old), .. } | Op::Delete { old, .. } => old.leaves(&mut removed),
            Op::Set { old: None, .. } => {}
        }
    }
    for op in ops {
        match op {
            Op::Set { path, value, old } => {
                if old.is_none() {
                    let mut added = Vec::new();
                    value.leaves(&mut added);
                    if !added.iter().any(|l| removed.contains(l)) {
                        continue;
                    }
                }
                set_at(out, path, value.clone(), converted);
            }
            Op::Delete { path, .. } => {
                if let Some((Seg::Key(last), parent)) = path.split_last() {
                    if let Some(parent) = out.at_mut(parent) {
                        parent.remove_key(last);
                    }
                }
            }
        }
    }
}

/// Sets the value at `path` of `out`, making the objects on the way that are missing.
fn set_at(out: &mut Tree, path: &[Seg], value: Tree, order: &Tree) {
    let Some((last, parent_path)) = path.split_last() else {
        *out = value;
        return;
    };
    for depth in 0..parent_path.len() {
        let (prefix, seg) = (&parent_path[..depth], &parent_path[depth]);
        let Some(node) = out.at_mut(prefix) else {
            return;
        };
        if let Seg::Key(k) = seg {
            if node.get(k).is_none() {
                node.set_key(k, Tree::Object(Vec::new()), order.at(prefix));
            }
        }
    }
    let Some(parent) = out.at_mut(parent_path) else {
        return;
    };
    match (last, parent) {
        (Seg::Key(k), parent) => parent.set_key(k, value, order.at(parent_path)),
        (Seg::Index(i), Tree::Array(items)) => {
            if let Some(slot) = items.get_mut(*i) {
                *slot = value;
            }
        }
        _ => {}
    }
}

/// The first value the conversion removed whose data is nowhere in the converted object:
/// data Go drops.
fn dropped(ops: &[Op], converted: &Tree) -> Option<String> {
    let mut kept = Vec::new();
    converted.leaves(&mut kept);
    for op in ops {
        let (path, old) = match op {
            Op::Delete { path, old } => (path, old),
            Op::Set {
                path,
                old: Some(old),
                ..
            } => (path, old),
            Op::Set { old: None, .. } => continue,
        };
        // The object's own version and kind change by design.
        if matches!(&path[..], [Seg::Key(k)] if k == "apiVersion" || k == "kind") {
            continue;
        }
        let mut leaves = Vec::new();
        old.leaves(&mut leaves);
        if let Some(lost) = leaves.iter().find(|l| !kept.contains(l)) {
            return Some(format!(
                "{} ({lost}) has no place in the new version and Go's conversion drops it",
                path_string(path)
            ));
        }
    }
    None
}

/// Notes for the fields of `input` its type does not know (kept as written).
fn unknown_fields(input: &Tree, read: &Tree, gvk: &GroupVersionKind) -> Vec<String> {
    let mut paths = Vec::new();
    unknown(input, read, &mut Vec::new(), &mut paths);
    paths
        .into_iter()
        .map(|p| format!("{p} is not a field of {gvk}; kept as written (the API server drops it)"))
        .collect()
}

fn unknown(input: &Tree, read: &Tree, path: &mut Vec<Seg>, out: &mut Vec<String>) {
    match (input, read) {
        (Tree::Object(entries), Tree::Object(_)) => {
            for (k, v) in entries {
                path.push(Seg::Key(k.clone()));
                match read.get(k) {
                    Some(r) => unknown(v, r, path, out),
                    // `null` reads as nothing; so do fields that only say nothing.
                    None if !v.is_zero() => out.push(path_string(path)),
                    None => {}
                }
                path.pop();
            }
        }
        (Tree::Array(a), Tree::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                path.push(Seg::Index(i));
                unknown(x, y, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Scalars (`path`, before, after) that `before` (defaulted in the old version) and
/// `after` (the output defaulted in the new one) hold differently where `out` sets
/// nothing; `metadata` and `status` aside.
fn default_diff(
    before: &Tree,
    after: &Tree,
    out: &Tree,
    path: &mut Vec<Seg>,
    changes: &mut Vec<(String, Tree, Option<Tree>)>,
) {
    match before {
        Tree::Object(entries) => {
            for (k, b) in entries {
                if path.is_empty() && (k == "metadata" || k == "status") {
                    continue;
                }
                path.push(Seg::Key(k.clone()));
                match after.get(k) {
                    Some(a) => default_diff(b, a, out, path, changes),
                    None if !b.is_collection() && out.at(path).is_none() && !b.is_zero() => {
                        changes.push((path_string(path), b.clone(), None));
                    }
                    None => {}
                }
                path.pop();
            }
        }
        Tree::Array(items) => {
            if let Tree::Array(after_items) = after {
                if items.len() == after_items.len() {
                    for (i, (b, a)) in items.iter().zip(after_items).enumerate() {
                        path.push(Seg::Index(i));
                        default_diff(b, a, out, path, changes);
                        path.pop();
                    }
                }
            }
        }
        scalar if scalar != after && !after.is_collection() && out.at(path).is_none() => {
            changes.push((path_string(path), scalar.clone(), Some(after.clone())));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::tree::tests::tree;
    use super::*;

    #[test]
    fn moved_fields_move_and_invented_ones_do_not_appear() {
        let read = tree(
            r#"{"backend":{"serviceName":"web","servicePort":80},"serviceAccountName":"sa","status":{}}"#,
        );
        let converted = tree(
            r#"{"backend":{"service":{"name":"web","port":{"number":80}}},"serviceAccountName":"sa","serviceAccount":"sa","status":{}}"#,
        );
        let mut ops = Vec::new();
        diff(&read, &converted, &mut Vec::new(), &mut ops);
        let mut out =
            tree(r#"{"serviceAccountName":"sa","backend":{"serviceName":"web","servicePort":80}}"#);
        apply(&mut out, &ops, &converted);
        assert_eq!(
            out.to_string(),
            r#"{"serviceAccountName":"sa","backend":{"service":{"name":"web","port":{"number":80}}}}"#
        );
        assert_eq!(dropped(&ops, &converted), None);
    }

    #[test]
    fn data_that_vanishes_is_dropped_data() {
        let read = tree(r#"{"spec":{"rollbackTo":{"revision":3},"replicas":1}}"#);
        let converted = tree(r#"{"spec":{"replicas":1}}"#);
        let mut ops = Vec::new();
        diff(&read, &converted, &mut Vec::new(), &mut ops);
        assert_eq!(
            dropped(&ops, &converted).as_deref(),
            Some(
                "spec.rollbackTo (3) has no place in the new version and Go's conversion drops it"
            )
        );
    }

    #[test]
    fn unknown_fields_and_default_changes_are_found() {
        let input = tree(r#"{"spec":{"replica":3,"template":{}}}"#);
        let read = tree(r#"{"spec":{"template":{},"strategy":{}}}"#);
        let mut paths = Vec::new();
        unknown(&input, &read, &mut Vec::new(), &mut paths);
        assert_eq!(paths, ["spec.replica"]);
        let before = tree(
            r#"{"spec":{"revisionHistoryLimit":2147483647,"paused":false,"replicas":1},"status":{"x":1}}"#,
        );
        let after = tree(r#"{"spec":{"revisionHistoryLimit":10,"paused":false,"replicas":1}}"#);
        let out = tree(r#"{"spec":{"replicas":1}}"#);
        let mut changes = Vec::new();
        default_diff(&before, &after, &out, &mut Vec::new(), &mut changes);
        assert_eq!(
            changes,
            [(
                "spec.revisionHistoryLimit".to_owned(),
                tree("2147483647"),
                Some(tree("10"))
            )]
        );
    }
}
