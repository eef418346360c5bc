//! ReplicaSet (Go's `ValidateReplicaSet`, `ValidateReplicaSetUpdate` and the
//! `replicaset` strategy).

use crate::validation::validate_object_meta_update;
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::{selector_required, selector_unchanged, subdomain_metadata, template_for_replica_set};
use crate::apps::v1::{ReplicaSet, ReplicaSetSpec};
use crate::core::v1::PodTemplateSpec;
use crate::validation::label_selector::as_selector;
use crate::validation::{json_value, non_negative};

/// Go's `ValidateReplicaSet`: metadata (a DNS subdomain name, namespaced) and the spec.
pub fn validate_replica_set(rs: &ReplicaSet) -> ErrorList {
    let mut errs = subdomain_metadata(&rs.metadata, None);
    spec(&rs.spec, None, &mut errs);
    errs
}

/// Go's `ValidateReplicaSetUpdate`: the metadata's identity kept, the spec valid, the
/// selector unchanged.
pub fn validate_replica_set_update(new: &ReplicaSet, old: &ReplicaSet) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    spec(&new.spec, Some(&old.spec.template), &mut errs);
    selector_unchanged(&new.spec.selector, &old.spec.selector, &mut errs);
    errs
}

/// Go's `ValidateReplicaSetSpec` (whose empty-selector message says "deployment").
fn spec(spec: &ReplicaSetSpec, old: Option<&PodTemplateSpec>, errs: &mut ErrorList) {
    let fld = Path::new("spec");
    non_negative(
        i64::from(spec.replicas.unwrap_or(0)),
        &fld.child("replicas"),
        errs,
    );
    non_negative(
        i64::from(spec.min_ready_seconds),
        &fld.child("minReadySeconds"),
        errs,
    );
    selector_required(spec.selector.as_ref(), "deployment", &fld, errs);
    match as_selector(spec.selector.as_ref()) {
        None => errs.push(Error::invalid(
            &fld.child("selector"),
            json_value(&spec.selector),
            "invalid label selector",
        )),
        Some(selected) => {
            let tp = fld.child("template");
            template_for_replica_set(&spec.template, old, selected, &tp, errs);
        }
    }
}
