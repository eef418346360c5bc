//! The node group's validation (Go's `pkg/apis/node/validation`): RuntimeClass.

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_label, name_is_dns_subdomain, validate_labels,
    validate_object_meta, validate_object_meta_update,
};
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::go_value::go_json;
use super::{invalid_each, validate_resource_requirements, validate_tolerations};
use crate::core::v1::{ResourceRequirements, Toleration};
use crate::node::v1::RuntimeClass;
use crate::validation::declarative::immutable_value;

/// Go's `ValidateRuntimeClass`: a DNS-label handler, the overhead as a container's
/// limits, and the scheduling node selector and tolerations (unique by key, operator,
/// value and effect).
pub fn validate_runtime_class(rc: &RuntimeClass) -> ErrorList {
    let mut errs = validate_object_meta(
        &rc.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let hp = Path::new("handler");
    if rc.handler.is_empty() {
        errs.push(Error::required(&hp, ""));
    } else {
        invalid_each(
            &mut errs,
            &hp,
            &rc.handler,
            name_is_dns_label(&rc.handler, false),
        );
    }
    if let Some(overhead) = &rc.overhead {
        let limits = ResourceRequirements {
            limits: overhead.pod_fixed.clone(),
            ..Default::default()
        };
        errs.extend(validate_resource_requirements(
            &limits,
            &Path::new("overhead"),
        ));
    }
    if let Some(s) = &rc.scheduling {
        let sp = Path::new("scheduling");
        errs.extend(validate_labels(&s.node_selector, &sp.child("nodeSelector")));
        let tp = sp.child("tolerations");
        errs.extend(validate_tolerations(&s.tolerations, &tp));
        // Against each earlier one (a few per class), not through a set of tuples: a
        // set's code for one more key type costs more than the loop.
        let same = |a: &Toleration, b: &Toleration| {
            (&a.key, &a.operator, &a.value, &a.effect) == (&b.key, &b.operator, &b.value, &b.effect)
        };
        for (i, t) in s.tolerations.iter().enumerate() {
            let earlier = s.tolerations.get(..i).unwrap_or_default();
            if earlier.iter().any(|e| same(e, t)) {
                errs.push(Error::duplicate(&tp.index(i), go_toleration(t)));
            }
        }
    }
    errs
}

/// Go's internal `core.Toleration`, as an error prints it.
fn go_toleration(t: &Toleration) -> apimachinery::util::validation::field::BadValue {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "PascalCase")]
    struct GoToleration<'a> {
        key: &'a str,
        operator: &'a str,
        value: &'a str,
        effect: &'a str,
        toleration_seconds: Option<i64>,
    }
    go_json(&GoToleration {
        key: &t.key,
        operator: &t.operator,
        value: &t.value,
        effect: &t.effect,
        toleration_seconds: t.toleration_seconds,
    })
}

/// Go's strategy on update: the object as on create, and `handler` kept.
pub fn validate_runtime_class_update(new: &RuntimeClass, old: &RuntimeClass) -> ErrorList {
    let mut errs = validate_runtime_class(new);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    if new.handler != old.handler {
        errs.push(Error::invalid(
            &Path::new("handler"),
            immutable_value(|| (&new.handler).into()),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}
