//! The field manager (Go's `managedfields/internal` chain and structured-merge-diff's
//! `merge.Updater`): `metadata.managedFields` kept on every write, server-side apply.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::fieldpath::{Path, PathElement, Set};
use super::schema::ParseableType;
use super::typed::{self, ValidationErrors};
use crate::apis::meta::v1::Time;

/// The operation a managedFields entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    /// A server-side apply.
    Apply,
    /// Any other write (create, update, patch).
    Update,
}

impl Operation {
    /// `Apply` or `Update`, as written in `operation`.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

/// Who a managedFields entry belongs to (Go's manager identifier): the manager's name,
/// the operation, the subresource, and for updates the apiVersion (an applier keeps one
/// entry whichever version it applies in).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ManagerKey {
    /// The manager's name (`fieldManager`, or the user agent's first word).
    pub manager: String,
    /// Apply or Update.
    pub operation: Operation,
    /// The apiVersion of an Update entry; empty for Apply.
    pub api_version: String,
    /// The subresource written through (`status`), or empty.
    pub subresource: String,
}

impl fmt::Display for ManagerKey {
    /// Go's `printManager`: `"name"`, `"name" with subresource "status"`, and for updates
    /// `... using apps/v1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.manager)?;
        if !self.subresource.is_empty() {
            write!(f, " with subresource {:?}", self.subresource)?;
        }
        if self.operation == Operation::Update {
            write!(f, " using {}", self.api_version)?;
        }
        Ok(())
    }
}

/// The fields one manager owns, at the apiVersion they are expressed in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionedSet {
    /// The owned fields.
    pub set: Set,
    /// Their apiVersion.
    pub api_version: String,
    /// Whether they were applied (an `Apply` entry).
    pub applied: bool,
}

/// Every manager's fields and the time of its last change (Go's `ManagedInterface`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Managed {
    /// The fields by manager.
    pub fields: BTreeMap<ManagerKey, VersionedSet>,
    /// When each manager last changed the object.
    pub times: BTreeMap<ManagerKey, Value>,
}

/// Why a `managedFields` list could not be read (Go's `DecodeManagedFields` errors).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// `managedFields` or an entry is not the JSON it must be.
    #[error("managed fields entry {0} is not an object")]
    NotAnEntry(usize),
    /// An operation other than `Apply` and `Update`.
    #[error("operation must be `Apply` or `Update`")]
    BadOperation,
    /// No apiVersion.
    #[error("apiVersion must not be empty")]
    NoApiVersion,
    /// No fieldsType.
    #[error("missing fieldsType in managed fields entry {0}")]
    NoFieldsType(usize),
    /// A fieldsType other than `FieldsV1`.
    #[error("invalid fieldsType {1:?} in managed fields entry {0}")]
    BadFieldsType(usize, String),
    /// The fieldsV1 document cannot be read.
    #[error("error decoding versioned set from entry {0}: {1}")]
    BadFields(usize, String),
}

impl Managed {
    /// Reads `metadata.managedFields` (a JSON array, absent or null meaning none).
    pub fn decode(entries: Option<&Value>) -> Result<Managed, DecodeError> {
        let mut managed = Managed::default();
        let entries = match entries {
            None | Some(Value::Null) => return Ok(managed),
            Some(Value::Array(a)) => a,
            Some(_) => return Err(DecodeError::NotAnEntry(0)),
        };
        for (i, e) in entries.iter().enumerate() {
            let Value::Object(e) = e else {
                return Err(DecodeError::NotAnEntry(i));
            };
            let s = |k: &str| {
                e.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let operation = match s("operation").as_str() {
                "Apply" => Operation::Apply,
                "Update" => Operation::Update,
                _ => return Err(DecodeError::BadOperation),
            };
            let api_version = s("apiVersion");
            if api_version.is_empty() {
                return Err(DecodeError::NoApiVersion);
            }
            match s("fieldsType").as_str() {
                "FieldsV1" => {}
                "" => return Err(DecodeError::NoFieldsType(i)),
                other => return Err(DecodeError::BadFieldsType(i, other.to_owned())),
            }
            let set = match e.get("fieldsV1") {
                None | Some(Value::Null) => Set::new(),
                Some(v) => Set::from_fields_v1(v)
                    .map_err(|err| DecodeError::BadFields(i, err.to_string()))?,
            };
            let key = ManagerKey {
                manager: s("manager"),
                operation,
                api_version: if operation == Operation::Update {
                    api_version.clone()
                } else {
                    String::new()
                },
                subresource: s("subresource"),
            };
            if let Some(t) = e.get("time").filter(|t| !t.is_null()) {
                managed.times.insert(key.clone(), t.clone());
            }
            managed.fields.insert(
                key,
                VersionedSet {
                    set,
                    api_version,
                    applied: operation == Operation::Apply,
                },
            );
        }
        Ok(managed)
    }

    /// The `managedFields` list, sorted as Go sorts it: by operation, time, manager,
    /// apiVersion, subresource; `None` when no manager owns anything.
    pub fn encode(&self) -> Option<Value> {
        if self.fields.is_empty() {
            return None;
        }
        let seconds = |k: &ManagerKey| {
            self.times
                .get(k)
                .and_then(Value::as_str)
                .and_then(|t| Time::parse_rfc3339(t).ok())
                .map_or(0, |t| t.unix_seconds())
        };
        let mut keys: Vec<&ManagerKey> = self.fields.keys().collect();
        keys.sort_by(|a, b| {
            let (va, vb) = (&self.fields[*a].api_version, &self.fields[*b].api_version);
            a.operation
                .as_str()
                .cmp(b.operation.as_str())
                .then(seconds(a).cmp(&seconds(b)))
                .then(a.manager.cmp(&b.manager))
                .then(va.cmp(vb))
                .then(a.subresource.cmp(&b.subresource))
        });
        let entries = keys
            .into_iter()
            .map(|k| {
                let vs = &self.fields[k];
                let mut e = Map::new();
                if !k.manager.is_empty() {
                    e.insert("manager".into(), Value::from(k.manager.clone()));
                }
                e.insert("operation".into(), Value::from(k.operation.as_str()));
                e.insert("apiVersion".into(), Value::from(vs.api_version.clone()));
                if let Some(t) = self.times.get(k) {
                    e.insert("time".into(), t.clone());
                }
                e.insert("fieldsType".into(), Value::from("FieldsV1"));
                e.insert("fieldsV1".into(), vs.set.to_fields_v1());
                if !k.subresource.is_empty() {
                    e.insert("subresource".into(), Value::from(k.subresource.clone()));
                }
                Value::Object(e)
            })
            .collect();
        Some(Value::Array(entries))
    }
}

/// Converts objects between the versions managers' fields are expressed in.
pub trait VersionConverter: Sync {
    /// `obj` (at the field manager's apiVersion) at `api_version`, with that version's
    /// type; `Ok(None)` when the version no longer exists (its managers are dropped, as
    /// Go drops them).
    fn convert(
        &self,
        obj: &Value,
        api_version: &str,
    ) -> Result<Option<(Value, ParseableType)>, String>;
}

/// The converter for a kind served in one version only: other versions do not exist.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoConversion;

impl VersionConverter for NoConversion {
    fn convert(&self, _: &Value, _: &str) -> Result<Option<(Value, ParseableType)>, String> {
        Ok(None)
    }
}

/// One conflicting field: who owns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The owner.
    pub manager: ManagerKey,
    /// The field.
    pub path: Path,
}

/// Why an apply failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ApplyError {
    /// Fields the applier sets to other values are owned by other managers (Go's
    /// `merge.Conflicts`, answered 409); the message is Go's.
    #[error("{}", conflict_message(.0))]
    Conflicts(Vec<Conflict>),
    /// The applied configuration is not acceptable (400), with Go's message.
    #[error("{0}")]
    BadRequest(String),
    /// The applied configuration does not fit the type (Go's "failed to create typed
    /// patch object").
    #[error("failed to create typed patch object ({object}): {errors}")]
    Invalid {
        /// `namespace/name; group/version, Kind=kind`.
        object: String,
        /// What does not fit.
        errors: ValidationErrors,
    },
    /// The live object's managedFields cannot be read.
    #[error("failed to decode managed fields: {0}")]
    Decode(DecodeError),
    /// Anything else (a conversion failed).
    #[error("{0}")]
    Internal(String),
}

/// Go's `getConflictMessage`.
fn conflict_message(conflicts: &[Conflict]) -> String {
    if let [only] = conflicts {
        return format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            only.manager, only.path
        );
    }
    let mut by_manager: BTreeMap<String, Vec<&Path>> = BTreeMap::new();
    for c in conflicts {
        by_manager
            .entry(c.manager.to_string())
            .or_default()
            .push(&c.path);
    }
    let mut lines = Vec::new();
    for (manager, paths) in by_manager {
        lines.push(format!("conflicts with {manager}:"));
        for p in paths {
            lines.push(format!("- {p}"));
        }
    }
    format!(
        "Apply failed with {} conflicts: {}",
        conflicts.len(),
        lines.join("\n")
    )
}

/// The largest number of Update entries kept; older ones are merged into one
/// `ancient-changes` entry (Go's `DefaultMaxUpdateManagers`).
pub const MAX_UPDATE_MANAGERS: usize = 10;

/// The fields never tracked: type and server-set metadata (Go's strip set). Built once:
/// every write subtracts it, and building it (twelve paths of owned strings) cost an
/// apply more than the subtraction.
fn strip_set() -> &'static Set {
    static STRIP: OnceLock<Set> = OnceLock::new();
    STRIP.get_or_init(build_strip_set)
}

fn build_strip_set() -> Set {
    let mut s = Set::new();
    for p in [
        "apiVersion",
        "kind",
        "metadata",
        "metadata.name",
        "metadata.namespace",
        "metadata.creationTimestamp",
        "metadata.selfLink",
        "metadata.uid",
        "metadata.clusterName",
        "metadata.generation",
        "metadata.managedFields",
        "metadata.resourceVersion",
    ] {
        let path: Vec<PathElement> = p
            .split('.')
            .map(|f| PathElement::Field(f.to_owned()))
            .collect();
        s.insert(&path);
    }
    s
}

/// The field manager of one kind at one apiVersion, for writes through one
/// subresource.
///
/// ```
/// use apimachinery::managedfields::{FieldManager, NoConversion, ParseableType};
/// use serde_json::json;
///
/// let types = ParseableType::deduced();
/// let fm = FieldManager::new(&types, "example.com/v1", "", &NoConversion);
/// let live = json!({"apiVersion": "example.com/v1", "kind": "Widget",
///                   "metadata": {"name": "w"}, "spec": {"size": 1}});
/// let config = json!({"apiVersion": "example.com/v1", "kind": "Widget",
///                     "metadata": {"name": "w"}, "spec": {"color": "red"}});
/// let out = fm.apply(&live, &config, "ci", false, "2026-01-01T00:00:00Z")?.expect("changed");
/// assert_eq!(out["spec"], json!({"color": "red", "size": 1}));
/// // A deduced schema declares no fields, so `spec` is a key of an undeclared map:
/// // a member of the applied set itself (`.`), as structured-merge-diff's tofieldset
/// // makes it.
/// assert_eq!(
///     out["metadata"]["managedFields"][0]["fieldsV1"],
///     json!({"f:spec": {".": {}, "f:color": {}}})
/// );
/// # Ok::<(), apimachinery::managedfields::ApplyError>(())
/// ```
pub struct FieldManager<'a> {
    types: &'a ParseableType,
    api_version: String,
    subresource: String,
    reset: Set,
    converter: &'a dyn VersionConverter,
}

impl fmt::Debug for FieldManager<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FieldManager")
            .field("api_version", &self.api_version)
            .field("subresource", &self.subresource)
            .finish_non_exhaustive()
    }
}

impl<'a> FieldManager<'a> {
    /// A field manager for objects of `types` at `api_version` written through
    /// `subresource` (empty for the main resource).
    pub fn new(
        types: &'a ParseableType,
        api_version: &str,
        subresource: &str,
        converter: &'a dyn VersionConverter,
    ) -> Self {
        FieldManager {
            types,
            api_version: api_version.to_owned(),
            subresource: subresource.to_owned(),
            reset: Set::new(),
            converter,
        }
    }

    /// Fields this kind's strategy resets on writes through this subresource (Go's
    /// `ResetFieldsStrategy`, e.g. `status` for the main resource): never owned, and
    /// never a conflict.
    pub fn with_reset_fields(mut self, paths: &[&str]) -> Self {
        for p in paths {
            let path: Vec<PathElement> = p
                .split('.')
                .map(|f| PathElement::Field(f.to_owned()))
                .collect();
            self.reset.insert(&path);
        }
        self
    }

    fn key(&self, manager: &str, operation: Operation) -> ManagerKey {
        ManagerKey {
            manager: manager.to_owned(),
            operation,
            api_version: if operation == Operation::Update {
                self.api_version.clone()
            } else {
                String::new()
            },
            subresource: self.subresource.clone(),
        }
    }

    /// Records a non-apply write (create, update, patch) of `new` over `live` (`None`
    /// for a create) by `manager` at `now` (RFC 3339) in `new`'s `metadata.managedFields`,
    /// as Go's `UpdateNoErrors`: the request's own managedFields are kept when they are
    /// valid and non-empty (an empty list resets them), the live object's otherwise; any
    /// failure leaves the live object's entries in place. An update (`live` has a UID)
    /// of an object left with no entries records none: tracking starts at a create or an
    /// apply, as Go's `skipNonAppliedManager` has it.
    pub fn update(
        &self,
        live: Option<&Value>,
        empty: &Value,
        new: &mut Value,
        manager: &str,
        now: &str,
    ) {
        let live_entries = live.and_then(managed_fields_of).cloned();
        let requested = managed_fields_of(new).cloned();
        let reset = match &requested {
            Some(Value::Array(a)) => {
                a.is_empty() || (a.len() == 1 && a[0].as_object().is_some_and(Map::is_empty))
            }
            _ => false,
        };
        let from_live = || Managed::decode(live_entries.as_ref()).unwrap_or_default();
        // A subresource cannot set managedFields (Go takes the live object's).
        let managed = if !self.subresource.is_empty() {
            from_live()
        } else if reset {
            Managed::default()
        } else {
            match Managed::decode(requested.as_ref()) {
                Ok(m) if !m.fields.is_empty() => m,
                _ => from_live(),
            }
        };
        // Go's skipNonAppliedManager: an update of an object that has no managed fields
        // (none were recorded when it was created, or this request reset them) is not
        // tracked, and leaves it without; a create (a live object without a UID) is.
        let live_uid = live
            .and_then(|l| l.pointer("/metadata/uid"))
            .and_then(Value::as_str)
            .is_some_and(|uid| !uid.is_empty());
        if managed.fields.is_empty() && live_uid {
            strip_managed_fields(new);
            return;
        }
        let mut live_v = live.cloned().unwrap_or_else(|| empty.clone());
        strip_managed_fields(&mut live_v);
        strip_managed_fields(new);
        let result = self.track_update(&live_v, new, managed, manager, now);
        let entries = match result {
            Ok(m) => m.encode(),
            Err(_) => live_entries.filter(|v| !v.is_null()),
        };
        set_managed_fields(new, entries);
    }

    fn track_update(
        &self,
        live: &Value,
        new: &Value,
        mut managed: Managed,
        manager: &str,
        now: &str,
    ) -> Result<Managed, String> {
        let current = ManagerKey {
            manager: "current-operation".into(),
            operation: Operation::Update,
            api_version: self.api_version.clone(),
            subresource: String::new(),
        };
        let (fields, cmp) = self
            .update_managers(live, new, managed.fields, &current, true)
            .map_err(|e| e.to_string())?;
        managed.fields = fields;
        let mut set = cmp.modified.union(&cmp.added);
        if !self.reset.is_empty() {
            set = set.recursive_difference(&self.reset);
        }
        let set = set.difference(strip_set());
        let key = self.key(manager, Operation::Update);
        if !set.is_empty() {
            let set = match managed.fields.get(&key) {
                Some(previous) => set.union(&previous.set),
                None => set,
            };
            managed.fields.insert(
                key.clone(),
                VersionedSet {
                    set,
                    api_version: self.api_version.clone(),
                    applied: false,
                },
            );
            managed.times.insert(key, Value::from(now));
        }
        self.cap_update_managers(&mut managed);
        Ok(managed)
    }

    /// Go's `capManagersManager`: past [`MAX_UPDATE_MANAGERS`] Update entries, the
    /// oldest are merged, per apiVersion, into an `ancient-changes` entry until no more
    /// than the maximum remain.
    fn cap_update_managers(&self, managed: &mut Managed) {
        let mut updates: Vec<(String, ManagerKey)> = managed
            .fields
            .iter()
            .filter(|(_, vs)| !vs.applied)
            .map(|(k, _)| {
                (
                    managed
                        .times
                        .get(k)
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    k.clone(),
                )
            })
            .collect();
        if updates.len() <= MAX_UPDATE_MANAGERS {
            return;
        }
        updates.sort();
        let mut length = updates.len();
        let mut first_of_version: BTreeMap<String, ManagerKey> = BTreeMap::new();
        for (time, key) in updates {
            if length <= MAX_UPDATE_MANAGERS {
                break;
            }
            let Some(vs) = managed.fields.get(&key).cloned() else {
                continue;
            };
            let Some(first) = first_of_version.get(&vs.api_version).cloned() else {
                first_of_version.insert(vs.api_version.clone(), key);
                continue;
            };
            let bucket = ManagerKey {
                manager: "ancient-changes".into(),
                operation: Operation::Update,
                api_version: vs.api_version.clone(),
                subresource: String::new(),
            };
            if !managed.fields.contains_key(&bucket) {
                if let Some(s) = managed.fields.remove(&first) {
                    managed.times.remove(&first);
                    managed.fields.insert(bucket.clone(), s);
                }
            }
            let merged = managed
                .fields
                .get(&bucket)
                .map_or_else(|| vs.set.clone(), |b| b.set.union(&vs.set));
            managed.fields.insert(
                bucket.clone(),
                VersionedSet {
                    set: merged,
                    api_version: vs.api_version.clone(),
                    applied: false,
                },
            );
            managed.fields.remove(&key);
            managed.times.remove(&key);
            managed.times.insert(bucket, Value::from(time));
            length -= 1;
        }
    }

    /// Every other manager's fields after `old` became `new` (Go's `Updater.update`):
    /// fields changed are taken from their owners (a conflict unless `force`), fields
    /// removed are dropped; returns the comparison at this version too.
    fn update_managers(
        &self,
        old: &Value,
        new: &Value,
        mut managers: BTreeMap<ManagerKey, VersionedSet>,
        workflow: &ManagerKey,
        force: bool,
    ) -> Result<(BTreeMap<ManagerKey, VersionedSet>, typed::Comparison), ApplyError> {
        let own = typed::compare(self.types, old, new)
            .map_err(|e| ApplyError::Internal(format!("failed to compare objects: {e}")))?;
        let own = self.without_reset(own);
        let mut by_version: BTreeMap<String, Option<typed::Comparison>> = BTreeMap::new();
        let mut conflicts = Vec::new();
        let mut dropped = Vec::new();
        let keys: Vec<ManagerKey> = managers.keys().cloned().collect();
        for key in keys {
            if key == *workflow {
                continue;
            }
            let version = managers[&key].api_version.clone();
            let cmp = if version == self.api_version {
                Some(own.clone())
            } else {
                if !by_version.contains_key(&version) {
                    let c = self
                        .compare_at(old, new, &version)?
                        .map(|c| self.without_reset(c));
                    by_version.insert(version.clone(), c);
                }
                by_version[&version].clone()
            };
            let Some(cmp) = cmp else {
                dropped.push(key);
                continue;
            };
            let vs = managers
                .get_mut(&key)
                .ok_or_else(|| ApplyError::Internal("manager vanished".into()))?;
            let conflict = vs.set.intersection(&cmp.modified.union(&cmp.added));
            if !conflict.is_empty() {
                if !force {
                    conflicts.extend(conflict.paths().into_iter().map(|path| Conflict {
                        manager: key.clone(),
                        path,
                    }));
                    continue;
                }
                vs.set = vs.set.difference(&conflict);
            }
            vs.set = vs.set.difference(&cmp.removed);
        }
        if !conflicts.is_empty() {
            return Err(ApplyError::Conflicts(conflicts));
        }
        for key in dropped {
            managers.remove(&key);
        }
        managers.retain(|_, vs| !vs.set.is_empty());
        Ok((managers, own))
    }

    /// Go's `Comparison.FilterFields` with the reset fields: a change to what the write
    /// cannot change (the spec sent to `/status`, which the strategy puts back) takes
    /// nothing from the other managers.
    fn without_reset(&self, mut cmp: typed::Comparison) -> typed::Comparison {
        // Most kinds reset nothing on most writes: the three sets stay as they are
        // rather than being rebuilt equal.
        if self.reset.is_empty() {
            return cmp;
        }
        cmp.modified = cmp.modified.recursive_difference(&self.reset);
        cmp.added = cmp.added.recursive_difference(&self.reset);
        cmp.removed = cmp.removed.recursive_difference(&self.reset);
        cmp
    }

    fn compare_at(
        &self,
        old: &Value,
        new: &Value,
        version: &str,
    ) -> Result<Option<typed::Comparison>, ApplyError> {
        let Some((old_v, types)) = self
            .converter
            .convert(old, version)
            .map_err(ApplyError::Internal)?
        else {
            return Ok(None);
        };
        let Some((new_v, _)) = self
            .converter
            .convert(new, version)
            .map_err(ApplyError::Internal)?
        else {
            return Ok(None);
        };
        typed::compare(&types, &old_v, &new_v)
            .map(Some)
            .map_err(|e| ApplyError::Internal(format!("failed to compare objects: {e}")))
    }

    /// Server-side apply of `config` over `live` (the current object, or the empty
    /// object of the kind for a create) by `manager`, at `now` (RFC 3339): the merged
    /// object with its managedFields, or `None` when nothing at all changed (Go answers
    /// with the live object and writes nothing).
    pub fn apply(
        &self,
        live: &Value,
        config: &Value,
        manager: &str,
        force: bool,
        now: &str,
    ) -> Result<Option<Value>, ApplyError> {
        self.apply_owned(live.clone(), config, manager, force, now)
    }

    /// [`apply`](Self::apply) of a live object the caller no longer needs (the handler's,
    /// made for the apply): its managedFields are taken out of it rather than copied
    /// with the rest of it.
    pub fn apply_owned(
        &self,
        mut live: Value,
        config: &Value,
        manager: &str,
        force: bool,
        now: &str,
    ) -> Result<Option<Value>, ApplyError> {
        if managed_fields_of(config).is_some_and(|v| !v.is_null()) {
            return Err(ApplyError::BadRequest(
                "metadata.managedFields must be nil".into(),
            ));
        }
        let config_version = config
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if config_version != self.api_version {
            return Err(ApplyError::BadRequest(format!(
                "Incorrect version specified in apply patch. Specified patch version: {config_version}, expected: {}",
                self.api_version
            )));
        }
        let entries = strip_managed_fields(&mut live);
        let mut managed = Managed::decode(entries.as_ref()).map_err(ApplyError::Decode)?;
        let live_v = live;
        let set = typed::to_field_set(self.types, config, typed::Duplicates::Refuse).map_err(
            |errors| ApplyError::Invalid {
                object: describe(config),
                errors,
            },
        )?;
        let merged = typed::merge(self.types, &live_v, config)
            .map_err(|e| ApplyError::Internal(format!("failed to merge config: {e}")))?;
        let key = self.key(manager, Operation::Apply);
        let last = managed.fields.get(&key).cloned();
        // Stripped of server-set metadata only at the end (as Go's strip manager wraps
        // the merge): until then `metadata.name` keeps `metadata` owned while pruning.
        let set = set.recursive_difference(&self.reset);
        managed.fields.insert(
            key.clone(),
            VersionedSet {
                set,
                api_version: self.api_version.clone(),
                applied: true,
            },
        );
        let pruned = match &last {
            Some(last) if !last.set.is_empty() => {
                self.prune(merged, &managed.fields, last, &key)?
            }
            _ => merged,
        };
        let (fields, _) = self.update_managers(&live_v, &pruned, managed.fields, &key, force)?;
        managed.fields = fields;
        if let Some(vs) = managed.fields.get_mut(&key) {
            vs.set = vs.set.difference(strip_set());
        }
        managed.fields.retain(|_, vs| !vs.set.is_empty());
        let changed = pruned != live_v;
        if changed {
            managed.times.insert(key, Value::from(now));
        }
        managed.times.retain(|k, _| managed.fields.contains_key(k));
        // Only an apply that changes nothing may be a no-op: then the entries decide
        // (read again, as `managed` was changed in place on the way).
        if !changed && Managed::decode(entries.as_ref()).unwrap_or_default() == managed {
            return Ok(None);
        }
        let mut out = if changed { pruned } else { live_v };
        set_managed_fields(&mut out, managed.encode());
        Ok(Some(out))
    }

    /// Go's `prune`: the items and fields `manager` applied last time and no longer
    /// applies are removed unless some manager (the applier's new set included) owns
    /// them or something below them. Fields set at another apiVersion last time are
    /// left alone.
    fn prune(
        &self,
        merged: Value,
        managers: &BTreeMap<ManagerKey, VersionedSet>,
        last: &VersionedSet,
        applier: &ManagerKey,
    ) -> Result<Value, ApplyError> {
        if last.api_version != self.api_version {
            return Ok(merged);
        }
        let last = last.set.recursive_difference(&self.reset);
        // Every field applied last time applied again (the usual re-apply): nothing can
        // be removed, as what is removed is last time's fields less the owned ones, the
        // applier's new set among them (and making named fields members keeps a subset
        // a subset). Removing nothing gives the merged object back as it is.
        if managers
            .get(applier)
            .is_some_and(|applied| last.difference(&applied.set).is_empty())
        {
            return Ok(merged);
        }
        // Sets of other versions are taken as they are: field paths rarely differ
        // between versions, and keeping a field beats removing one that is owned.
        let owned = managers
            .values()
            .fold(Set::new(), |acc, vs| acc.union(&vs.set));
        let owned = typed::ensure_named_fields_are_members(self.types, &owned);
        let last = typed::ensure_named_fields_are_members(self.types, &last);
        let remove = last.difference(&owned);
        Ok(typed::remove_items(self.types, &merged, &remove))
    }
}

/// Go's `objectGVKNN`: `namespace/name; group/version, Kind=kind`.
fn describe(obj: &Value) -> String {
    let api_version = obj
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or_default();
    let ns = obj
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    format!("{ns}/{name}; {group}/{version}, Kind={kind}")
}

/// Takes `metadata.managedFields` out of `obj`, returning it.
fn strip_managed_fields(obj: &mut Value) -> Option<Value> {
    obj.get_mut("metadata")
        .and_then(Value::as_object_mut)
        .and_then(|meta| meta.remove("managedFields"))
}

/// `metadata.managedFields` of `obj` (what `pointer("/metadata/managedFields")` finds,
/// without parsing and allocating the pointer's tokens on every write).
fn managed_fields_of(obj: &Value) -> Option<&Value> {
    obj.get("metadata")?.get("managedFields")
}

fn set_managed_fields(obj: &mut Value, entries: Option<Value>) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let meta = root
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(meta) = meta.as_object_mut() {
        match entries {
            Some(e) => meta.insert("managedFields".into(), e),
            None => meta.remove("managedFields"),
        };
    }
}

#[cfg(test)]
mod tests;
