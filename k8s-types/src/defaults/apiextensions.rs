//! `apiextensions.k8s.io/v1` and `v1beta1` (Go's
//! `apiextensions-apiserver/pkg/apis/apiextensions/<version>/defaults.go`): a
//! CustomResourceDefinition's singular name is its kind in lower case, its list kind
//! `<Kind>List`, it converts with strategy `None`, its webhook services listen on 443,
//! and its stored versions start with its storage version. `v1beta1` also makes it
//! `Namespaced`, fills `versions` from `version` (and back), and has webhook conversion
//! speak `v1beta1` reviews.
//!
//! Not applied: `v1beta1`'s `preserveUnknownFields: true`, which `v1` rejects: a CRD
//! converted to `v1` with it could not be created, and kapi convert exists to produce
//! objects that can.

use apimachinery::conversion::Defaulters;
use apimachinery::util::go_strings::to_lower;

/// The scope Kubernetes gives an `apiextensions.k8s.io/v1beta1` CustomResourceDefinition
/// that has none.
pub const CRD_DEFAULT_SCOPE: &str = "Namespaced";

/// Names' defaults, shared by both versions (their names types differ).
macro_rules! names {
    ($n:expr) => {{
        let n = $n;
        if n.singular.is_empty() {
            n.singular = to_lower(&n.kind);
        }
        if n.list_kind.is_empty() && !n.kind.is_empty() {
            n.list_kind = format!("{}List", n.kind);
        }
    }};
}

fn v1(crd: &mut crate::apiextensions::v1::CustomResourceDefinition) {
    use crate::apiextensions::v1::CustomResourceConversion;
    let spec = &mut crd.spec;
    names!(&mut spec.names);
    let conversion = spec
        .conversion
        .get_or_insert_with(|| CustomResourceConversion {
            strategy: "None".to_owned(),
            ..CustomResourceConversion::default()
        });
    if let Some(s) = conversion
        .webhook
        .as_mut()
        .and_then(|w| w.client_config.as_mut())
        .and_then(|c| c.service.as_mut())
    {
        s.port.get_or_insert(443);
    }
    if crd
        .status
        .stored_versions
        .as_ref()
        .is_none_or(Vec::is_empty)
    {
        if let Some(v) = spec.versions.iter().flatten().find(|v| v.storage) {
            crd.status.stored_versions = Some(vec![v.name.clone()]);
        }
    }
}

fn v1beta1(crd: &mut crate::apiextensions::v1beta1::CustomResourceDefinition) {
    use crate::apiextensions::v1beta1::{
        CustomResourceConversion, CustomResourceDefinitionVersion,
    };
    let spec = &mut crd.spec;
    if spec.scope.is_empty() {
        spec.scope = CRD_DEFAULT_SCOPE.to_owned();
    }
    names!(&mut spec.names);
    if spec.versions.is_empty() && !spec.version.is_empty() {
        spec.versions.push(CustomResourceDefinitionVersion {
            name: spec.version.clone(),
            served: true,
            storage: true,
            ..CustomResourceDefinitionVersion::default()
        });
    }
    if spec.version.is_empty() {
        if let Some(first) = spec.versions.first() {
            spec.version = first.name.clone();
        }
    }
    let conversion = spec
        .conversion
        .get_or_insert_with(|| CustomResourceConversion {
            strategy: "None".to_owned(),
            ..CustomResourceConversion::default()
        });
    if conversion.strategy == "Webhook" && conversion.conversion_review_versions.is_empty() {
        conversion.conversion_review_versions = vec!["v1beta1".to_owned()];
    }
    if let Some(s) = conversion
        .webhook_client_config
        .as_mut()
        .and_then(|c| c.service.as_mut())
    {
        s.port.get_or_insert(443);
    }
    if crd
        .status
        .stored_versions
        .as_ref()
        .is_none_or(Vec::is_empty)
    {
        if let Some(v) = spec.versions.iter().find(|v| v.storage) {
            crd.status.stored_versions = Some(vec![v.name.clone()]);
        }
    }
}

pub(super) fn register(d: &mut Defaulters) {
    d.add(v1);
    d.add(v1beta1);
}
