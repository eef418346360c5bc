//! The storage migration group's validation (Go's
//! `pkg/apis/storagemigration/validation`): StorageVersionMigration.

use apimachinery::apis::meta::v1::validation::{FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
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
