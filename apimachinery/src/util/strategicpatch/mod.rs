//! Kubernetes' strategic merge patch, the applying side (Go's
//! `k8s.io/apimachinery/pkg/util/strategicpatch`): what kube-apiserver does with a PATCH
//! of content type `application/strategic-merge-patch+json`, and what `kubectl patch
//! --local` does on the client.
//!
//! A strategic merge patch is a JSON merge patch (RFC 7386) that knows, from the schema,
//! which lists hold keyed entries. [`strategic_merge_patch`] applies one with the field
//! metadata a [`LookupPatchMeta`] gives: [`PatchMetaFromOpenApi`] reads it from OpenAPI
//! definitions (v2 `definitions` or v3 `components.schemas`), [`SchemalessPatchMeta`]
//! knows nothing (every list replaced, as a JSON merge patch does).
//!
//! ```
//! use apimachinery::util::strategicpatch::{strategic_merge_patch, PatchMetaFromOpenApi};
//! use serde_json::json;
//!
//! let openapi = json!({"definitions": {
//!     "Pod": {"properties": {
//!         "metadata": {"$ref": "#/definitions/ObjectMeta"},
//!         "spec": {"$ref": "#/definitions/PodSpec"}}},
//!     "ObjectMeta": {"properties": {
//!         "finalizers": {"type": "array", "items": {"type": "string"},
//!                        "x-kubernetes-patch-strategy": "merge"}}},
//!     "PodSpec": {"properties": {
//!         "containers": {"type": "array", "items": {"$ref": "#/definitions/Container"},
//!                        "x-kubernetes-patch-strategy": "merge",
//!                        "x-kubernetes-patch-merge-key": "name"}}},
//!     "Container": {"properties": {"name": {"type": "string"}, "image": {"type": "string"}}},
//! }});
//! let pod = PatchMetaFromOpenApi::from_document(&openapi, "Pod")?;
//!
//! let live = json!({
//!     "metadata": {"finalizers": ["a", "b"]},
//!     "spec": {"containers": [{"name": "web", "image": "nginx:1"},
//!                             {"name": "log", "image": "fluentd"}]}});
//! let patch = json!({
//!     "metadata": {"$deleteFromPrimitiveList/finalizers": ["a"], "finalizers": ["c"]},
//!     "spec": {"containers": [{"name": "web", "image": "nginx:2"},
//!                             {"name": "log", "$patch": "delete"}]}});
//!
//! let patched = strategic_merge_patch(&live, &patch, &pod)?;
//! assert_eq!(patched, json!({
//!     "metadata": {"finalizers": ["c", "b"]},
//!     "spec": {"containers": [{"name": "web", "image": "nginx:2"}]}}));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Go's behaviour covered
//!
//! - Objects merge field by field; `null` removes a field; a field the original lacks, or
//!   holds with another JSON type, takes the patch's value without its nulls and without
//!   objects marked `$patch`.
//! - Lists of objects whose field has `x-kubernetes-patch-strategy: merge` merge by
//!   `x-kubernetes-patch-merge-key`: an item with a known key merges into that entry, a new
//!   one is appended as it is. Lists of primitives with `merge` are united. Lists without
//!   the strategy (or with `replace`) are replaced, and so are objects with `replace`.
//! - The merged list's order is Go's: patch items in the patch's order, server-only items
//!   in the live order interleaved where both are known (`normalizeElementOrder`), with
//!   Go's duplicate removal and Go's stable sort even where Go's comparison is not a
//!   consistent order.
//! - `$patch: replace` and `$patch: delete` on an object; in a list, `{"$patch":
//!   "replace"}` (the patch's items become the list), `{<key>: v, "$patch": "delete"}`
//!   (remove every entry with key `v`), and Go's refusal of `$patch: merge`.
//! - `$setElementOrder/<field>` (order of a merged list, validated against the patch's
//!   list), `$retainKeys` (clear the fields not listed, refusing patches that set one),
//!   `$deleteFromPrimitiveList/<field>` (remove values from a primitive list).
//! - Go's errors, as [`StrategicMergePatchError`] variants naming the field path: a
//!   missing merge key, an unknown `$patch`, malformed directives, lists of lists or of
//!   mixed types, bad `x-kubernetes-patch-strategy` combinations, schema lookups that fail.
//!
//! Go's apply side reads the live list's order through a slice that its own deletions
//! and appends have shifted; that is emulated. Go's JSON decoder gives slices spare
//! capacity where kube-apiserver's typed-to-map conversion does not, which changes the
//! order of a merged primitive list that already held duplicates; this follows
//! kube-apiserver. When diffing, Go sorts entries by `%v` with an unstable sort; entries
//! whose merge keys print alike may come out in another order.
//!
//! Where Go's result depends on its random map order (a patch with both
//! `$deleteFromPrimitiveList/f` and `f` naming one value), deletions are applied first.
//! Where Go would panic (a `$retainKeys` list holding objects, a list of merged
//! primitives starting with `null`, a `$setElementOrder` list of objects for a list
//! without merge key), this returns an error. Go's struct-tag lookup fails below maps of
//! objects and free-form objects; [`PatchMetaFromOpenApi`] follows `additionalProperties`
//! there and treats free-form objects as schemaless.
//!
//! The crate's `strategic_merge_patch_kubectl` test compares all this with Go itself
//! (`kubectl patch --local --type strategic`) on a corpus of Deployment, Pod, Service and
//! other cases and on generated patches, and has kubectl apply our two-way patches.
//!
//! [`create_two_way_merge_patch`] creates a patch from two versions of a document, as
//! Go's `CreateTwoWayMergePatch` does for `kubectl edit`, `label` and `annotate`. Not here
//! (yet): `CreateThreeWayMergePatch` (client-side `kubectl apply`), merging patches
//! together, conflict detection, and Go's patch preconditions.

mod diff;
mod error;
mod meta;
mod openapi;
mod order;
mod patch;

pub use diff::create_two_way_merge_patch;
pub use error::{LookupPatchMetaError, StrategicMergePatchError};
pub use meta::{LookupPatchMeta, PatchMeta, PatchMetaLookup, SchemalessPatchMeta};
pub use openapi::PatchMetaFromOpenApi;
pub use patch::{strategic_merge_map_patch, strategic_merge_patch};
