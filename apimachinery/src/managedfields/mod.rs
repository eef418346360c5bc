//! Field management and server-side apply (Go's `k8s.io/apimachinery/pkg/util/managedfields`
//! over `sigs.k8s.io/structured-merge-diff`), on JSON objects.
//!
//! - [`fieldpath`]: paths and sets of paths, and their `FieldsV1` form;
//! - [`schema`]: the type description merges follow ([`ParseableType`]), from OpenAPI v3
//!   (built-in kinds), an inline schema (CRDs), or deduced;
//! - [`typed`]: field sets, comparisons, merges and removals of values of a type;
//! - [`FieldManager`]: `metadata.managedFields` on every write, and `apply` with conflict
//!   detection and removal of fields an applier stops applying;
//! - [`ScaleHandler`]: the entries of a `/scale` write, mapped between the parent object
//!   and its `Scale`.
//!
//! Left out of Go's behaviour: the `kubectl.kubernetes.io/last-applied-configuration`
//! interplay of client- and server-side apply (Go's `lastAppliedManager` and
//! `lastAppliedUpdater`), unions, and conversion of field sets between versions when
//! pruning (sets of other versions are taken as they are).
//!
//! ```
//! use apimachinery::managedfields::{ApplyError, FieldManager, NoConversion, ParseableType};
//! use serde_json::json;
//!
//! let types = ParseableType::deduced();
//! let fm = FieldManager::new(&types, "v1", "", &NoConversion);
//! let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
//!                 "data": {"a": "1"}});
//! let empty = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}});
//! let live = fm.apply(&empty, &cm, "alice", false, "2026-01-01T00:00:00Z")?.expect("created");
//! let bob = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
//!                  "data": {"a": "2"}});
//! let err = fm.apply(&live, &bob, "bob", false, "2026-01-01T00:00:01Z").unwrap_err();
//! assert_eq!(err.to_string(), r#"Apply failed with 1 conflict: conflict with "alice": .data.a"#);
//! let forced = fm.apply(&live, &bob, "bob", true, "2026-01-01T00:00:01Z")?.expect("changed");
//! assert_eq!(forced["data"]["a"], "2");
//! # Ok::<(), ApplyError>(())
//! ```

pub mod fieldpath;
mod manager;
mod scale;
pub mod schema;
pub mod typed;

pub use manager::{
    ApplyError, Conflict, DecodeError, FieldManager, MAX_UPDATE_MANAGERS, Managed, ManagerKey,
    NoConversion, Operation, VersionConverter, VersionedSet,
};
pub use scale::{ReplicasPaths, ScaleHandler, spec_replicas};
pub use schema::ParseableType;
