//! The storage migration group's validation (Go's
//! `pkg/apis/storagemigration/validation`): StorageVersionMigration.

use apimachinery::apis::meta::v1::validation::{FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain};
use apimachinery::util::validation::field::{Error, ErrorList, Path, json_of};
use apimachinery::util::validation::{is_dns1035_label, is_dns1123_subdomain};

use super::go_value::go_json;
// The internal version: v1 from Kubernetes 1.37 (which added it and converts v1beta1
// to it), v1beta1 before.
#[cfg(feature = "v1_37")]
use crate::storagemigration::v1::StorageVersionMigration;
#[cfg(not(feature = "v1_37"))]
use crate::storagemigration::v1beta1::StorageVersionMigration;
use crate::validation::{validate_object_meta, validate_object_meta_update};

/// Go's `ValidateStorageVersionMigration`: a DNS-1035 resource and a DNS-subdomain
/// group (each field's messages joined with commas).
pub fn validate_storage_version_migration(svm: &StorageVersionMigration) -> ErrorList {
    let mut errs = validate_object_meta(
        &svm.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let rp = Path::new("spec");
    let rp = rp.child("resource");
    let r = &svm.spec.resource;
    if r.resource.is_empty() {
        errs.push(Error::required(
            &rp.child("resource"),
            "resource is required to be set",
        ));
    } else {
        let msgs = is_dns1035_label(&r.resource);
        if !msgs.is_empty() {
            errs.push(Error::invalid(
                &rp.child("resource"),
                &r.resource,
                msgs.join(","),
            ));
        }
    }
    if !r.group.is_empty() {
        let msgs = is_dns1123_subdomain(&r.group);
        if !msgs.is_empty() {
            errs.push(Error::invalid(&rp.child("group"), &r.group, msgs.join(",")));
        }
    }
    errs
}

/// Go's `ValidateStorageVersionMigrationUpdate`: the spec is immutable.
pub fn validate_storage_version_migration_update(
    new: &StorageVersionMigration,
    old: &StorageVersionMigration,
) -> ErrorList {
    let mut errs = validate_storage_version_migration(new);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    if new.spec != old.spec {
        /// Go's internal spec: a `metav1.GroupResource`, whose fields have JSON names.
        #[derive(serde::Serialize)]
        struct GoSpec<'a> {
            #[serde(rename = "Resource")]
            resource: GoGroupResource<'a>,
        }
        #[derive(serde::Serialize)]
        struct GoGroupResource<'a> {
            group: &'a str,
            resource: &'a str,
        }
        let r = &new.spec.resource;
        errs.push(Error::invalid(
            &Path::new("spec"),
            go_json(&GoSpec {
                resource: GoGroupResource {
                    group: &r.group,
                    resource: &r.resource,
                },
            }),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's `ValidateStorageVersionMigrationStatusUpdate`, the `/status` validator: the
/// metadata update; the resource version migrated to, a well-formed one (a decimal
/// without leading zeros), set once; the conditions (`ValidateConditions`), never both
/// `Succeeded` and `Failed`, and neither taken back once true.
pub fn validate_storage_version_migration_status_update(
    new: &StorageVersionMigration,
    old: &StorageVersionMigration,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let path = Path::new("status");
    let rv = &new.status.resource_version;
    let rv_path = path.child("resourceVersion");
    // Go compares the version with itself, which fails only when it is not well formed.
    if !rv.is_empty() && !well_formed_resource_version(rv) {
        errs.push(Error::invalid(
            &rv_path,
            rv.as_str(),
            format!("resource version is not well formed: {rv}"),
        ));
    }
    let conditions = &new.status.conditions;
    errs.extend(super::conditions::validate_conditions(
        conditions,
        &path.child("conditions"),
    ));
    let old_rv = &old.status.resource_version;
    if !old_rv.is_empty() && old_rv != rv {
        errs.push(Error::invalid(
            &rv_path,
            rv.as_str(),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    let conditions_path = path.child("conditions");
    let conditions_error =
        |detail: &str| Error::invalid(&conditions_path, json_of(conditions), detail);
    let (succeeded, failed) = (is_true(new, "Succeeded"), is_true(new, "Failed"));
    if succeeded && failed {
        errs.push(conditions_error(
            "Both success and failed conditions cannot be true at the same time",
        ));
    }
    if is_true(old, "Succeeded") && !succeeded {
        errs.push(conditions_error(
            "Success condition cannot be set to false once it is true",
        ));
    }
    if is_true(old, "Failed") && !failed {
        errs.push(conditions_error(
            "Failed condition cannot be set to false once it is true",
        ));
    }
    errs
}

/// Whether the first condition of type `kind` is true (Go's `FindStatusCondition`).
fn is_true(svm: &StorageVersionMigration, kind: &str) -> bool {
    svm.status
        .conditions
        .iter()
        .find(|c| c.r#type == kind)
        .is_some_and(|c| c.status == "True")
}

/// Go's `resourceversion.isWellFormed`: decimal digits without a leading zero.
fn well_formed_resource_version(rv: &str) -> bool {
    !rv.starts_with('0') && !rv.is_empty() && rv.bytes().all(|b| b.is_ascii_digit())
}
