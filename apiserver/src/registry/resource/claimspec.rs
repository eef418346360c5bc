//! What Go's `pkg/api/resourceclaimspec/util.go` (`DropDisabledFields`) drops from the
//! claim spec of a ResourceClaim or ResourceClaimTemplate written: the fields of feature
//! gates off by default that the object replaced does not use. Of its gates only
//! DRADerivedAttributes (alpha in 1.37, the release that added `derivedAttributes`) is
//! off by default; DRAPrioritizedList, DRADeviceTaints, DRAAdminAccess and
//! DRAConsumableCapacity are on in 1.36 and 1.37, so nothing else is dropped.

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use crate::registry::strategy::{GenericStrategy, Strategy, Subresource, prepare_for_update};
use crate::registry::validation::NameValidation;
use crate::registry::{ResourceInfo, from_value, to_json};

/// The strategy of the kinds with a claim spec: the generic one, with the spec at
/// `spec` (a JSON pointer) stripped of its disabled fields on create and on a write of
/// the object (a `/status` write keeps the stored spec).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClaimSpecStrategy {
    /// Where the claim spec is: `/spec` of a ResourceClaim, `/spec/spec` of a template.
    pub spec: &'static str,
    /// The rest: names, generation, whether a delete answers with the deleted object.
    pub base: GenericStrategy,
}

impl ClaimSpecStrategy {
    /// `claim_spec` without what `DropDisabledFields` drops, `old` (`None` on create)
    /// being what it replaces.
    fn drop_disabled(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: Option<&dyn Object>,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        if !cfg!(feature = "v1_37") {
            return Ok(obj);
        }
        let mut value = to_json(&*obj)?;
        let Some(spec) = value.pointer_mut(self.spec) else {
            return Ok(obj);
        };
        if !uses_derived_attributes(spec) {
            return Ok(obj);
        }
        let old = old.map(to_json).transpose()?;
        if old
            .as_ref()
            .and_then(|old| old.pointer(self.spec))
            .is_some_and(uses_derived_attributes)
        {
            return Ok(obj);
        }
        drop_derived_attributes(spec);
        from_value(scheme, &info.storage_gvk, value)
    }
}

impl Strategy for ClaimSpecStrategy {
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        self.drop_disabled(scheme, info, None, obj)
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let changed = crate::registry::strategy::spec_changed;
        let new = prepare_for_update(scheme, info, old, new, subresource, changed)?;
        match subresource {
            Subresource::Main => self.drop_disabled(scheme, info, Some(old), new),
            Subresource::Status
            | Subresource::Finalize
            | Subresource::Resize
            | Subresource::EphemeralContainers
            | Subresource::Approval => Ok(new),
        }
    }

    fn tracks_generation(&self) -> bool {
        self.base.tracks_generation()
    }

    fn names(&self) -> NameValidation {
        self.base.names()
    }

    fn returns_deleted_object(&self) -> bool {
        self.base.returns_deleted_object()
    }
}

/// The claim spec's device requests.
fn requests(spec: &Value) -> impl Iterator<Item = &Value> {
    spec.pointer("/devices/requests")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// Go's `draDerivedAttributesInUse`: a request's `exactly`, or one of its
/// `firstAvailable` subrequests, has derived attributes.
fn uses_derived_attributes(spec: &Value) -> bool {
    let has = |selection: &Value| {
        selection
            .get("derivedAttributes")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
    };
    requests(spec).any(|request| {
        request.get("exactly").is_some_and(has)
            || request
                .get("firstAvailable")
                .and_then(Value::as_array)
                .is_some_and(|subs| subs.iter().any(has))
    })
}

/// Go's `dropDisabledDRADerivedAttributesFields`.
fn drop_derived_attributes(spec: &mut Value) {
    let requests = spec
        .pointer_mut("/devices/requests")
        .and_then(Value::as_array_mut);
    for request in requests.into_iter().flatten() {
        if let Some(exactly) = request.get_mut("exactly").and_then(Value::as_object_mut) {
            exactly.remove("derivedAttributes");
        }
        let subrequests = request
            .get_mut("firstAvailable")
            .and_then(Value::as_array_mut);
        for sub in subrequests.into_iter().flatten() {
            if let Some(sub) = sub.as_object_mut() {
                sub.remove("derivedAttributes");
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use serde_json::json;

    use super::*;

    fn spec(derived: bool) -> Value {
        let attrs = if derived {
            json!([{"name": "x", "expression": "1"}])
        } else {
            json!([])
        };
        json!({"devices": {"requests": [
            {"name": "a", "exactly": {"deviceClassName": "c", "derivedAttributes": attrs}},
            {"name": "b", "firstAvailable": [{"name": "s", "deviceClassName": "c",
                "derivedAttributes": attrs}]},
        ]}})
    }

    #[test]
    fn derived_attributes_are_found_and_dropped() {
        assert!(uses_derived_attributes(&spec(true)));
        assert!(!uses_derived_attributes(&spec(false)));
        let mut s = spec(true);
        drop_derived_attributes(&mut s);
        assert_eq!(
            s,
            json!({"devices": {"requests": [
                {"name": "a", "exactly": {"deviceClassName": "c"}},
                {"name": "b", "firstAvailable": [{"name": "s", "deviceClassName": "c"}]},
            ]}})
        );
    }
}
