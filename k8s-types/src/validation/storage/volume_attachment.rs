//! VolumeAttachment (Go's `ValidateVolumeAttachment` and
//! `ValidateVolumeAttachmentUpdate`).

use apimachinery::apis::meta::v1::validation::{FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::inclusive_range_error;

use crate::go_internal_json::internal_value;
use crate::storage::v1::{VolumeAttachment, VolumeAttachmentSpec, VolumeError};
use crate::validation::declarative::{covered_driver_name, immutable_value};
use crate::validation::invalid_each;
use crate::validation::{
    PersistentVolumeSpecOptions, validate_csi_driver_name, validate_object_meta,
    validate_persistent_volume_spec,
};

/// Go's `maxAttachedVolumeMetadataSize`.
const MAX_METADATA_SIZE: i64 = 256 * 1024;
/// Go's `maxVolumeErrorMessageSize`.
const MAX_ERROR_MESSAGE_SIZE: usize = 1024;

/// Go's `ValidateVolumeAttachment`: an attacher (a CSI driver name), exactly one source,
/// a node name, and the status's metadata size and errors.
///
/// An inline volume spec is checked as Go does, as a PersistentVolume's spec in the
/// context of inline volumes ([`validate_persistent_volume_spec`]).
pub fn validate_volume_attachment(va: &VolumeAttachment) -> ErrorList {
    volume_attachment(va, None)
}

/// [`validate_volume_attachment`], told whether it is an update (`old`).
fn volume_attachment(va: &VolumeAttachment, old: Option<&VolumeAttachment>) -> ErrorList {
    let mut errs = validate_object_meta(
        &va.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let sp = Path::new("spec");
    let spec = &va.spec;
    covered_driver_name(
        &spec.attacher,
        // On update the declarative rules stop at the spec's `+k8s:immutable` (a changed
        // spec is an error that short-circuits the fields below; a kept one is not checked
        // again): the attacher is the hand-written check's then, as if kept.
        old.map(|_| spec.attacher.as_str()),
        &sp.child("attacher"),
        &mut errs,
        |n: &str, p: &Path, e: &mut ErrorList| {
            e.extend(validate_csi_driver_name(n, p));
        },
    );
    let src = sp.child("source");
    match (
        &spec.source.inline_volume_spec,
        &spec.source.persistent_volume_name,
    ) {
        (None, None) => errs.push(Error::required(
            &src,
            "must specify exactly one of inlineVolumeSpec and persistentVolumeName",
        )),
        (Some(_), Some(_)) => errs.push(Error::forbidden(
            &src,
            "must specify exactly one of inlineVolumeSpec and persistentVolumeName",
        )),
        (None, Some(pv)) => {
            if pv.is_empty() {
                errs.push(Error::required(
                    &src.child("persistentVolumeName"),
                    "must specify non empty persistentVolumeName",
                ));
            }
        }
        (Some(inline), None) => errs.extend(validate_persistent_volume_spec(
            inline,
            "",
            true,
            &src.child("inlineVolumeSpec"),
            // Go passes the zero options: no volume attributes class check.
            PersistentVolumeSpecOptions::default(),
        )),
    }
    invalid_each(
        &mut errs,
        &sp.child("nodeName"),
        &spec.node_name,
        name_is_dns_subdomain(&spec.node_name, false),
    );
    let st = Path::new("status");
    let status = &va.status;
    let size: usize = status
        .attachment_metadata
        .iter()
        .map(|(k, v)| k.len() + v.len())
        .sum();
    if size as i64 > MAX_METADATA_SIZE {
        errs.push(Error::too_long(
            &st.child("attachmentMetadata"),
            MAX_METADATA_SIZE,
        ));
    }
    volume_error(
        status.attach_error.as_ref(),
        &st.child("attachError"),
        &mut errs,
    );
    volume_error(
        status.detach_error.as_ref(),
        &st.child("detachError"),
        &mut errs,
    );
    if let Some(pv) = &spec.source.persistent_volume_name {
        invalid_each(
            &mut errs,
            &Path::new("spec.source.persistentVolumeName"),
            pv,
            name_is_dns_subdomain(pv, false),
        );
    }
    errs
}

/// Go's `validateVolumeError`: a message of at most 1,024 bytes, a non-negative code.
/// The too-long error names the limit Go reports: the metadata's (262,144) up to 1.36,
/// the message's own from 1.37.
fn volume_error(e: Option<&VolumeError>, path: &Path, errs: &mut ErrorList) {
    let Some(e) = e else {
        return;
    };
    if e.message.len() > MAX_ERROR_MESSAGE_SIZE {
        #[cfg(not(feature = "v1_37"))]
        let reported = MAX_METADATA_SIZE;
        #[cfg(feature = "v1_37")]
        let reported = MAX_ERROR_MESSAGE_SIZE as i64;
        errs.push(Error::too_long(&path.child("message"), reported));
    }
    if let Some(code) = e.error_code.filter(|c| *c < 0) {
        errs.push(Error::invalid(
            &path.child("errorCode"),
            code,
            inclusive_range_error(0, i64::from(i32::MAX)),
        ));
    }
}

/// Go's `ValidateVolumeAttachmentUpdate`: the object as on create, and its spec kept.
///
/// Go prints a changed spec as its internal struct; one with an inline volume spec is
/// printed here with that spec as `null` (its internal form is not written here).
pub fn validate_volume_attachment_update(
    new: &VolumeAttachment,
    old: &VolumeAttachment,
) -> ErrorList {
    let mut errs = volume_attachment(new, Some(old));
    if new.spec != old.spec {
        errs.push(Error::invalid(
            &Path::new("spec"),
            immutable_value(|| go_spec(&new.spec)),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's internal `storage.VolumeAttachmentSpec`, as an error prints it (its inline
/// volume spec an internal `PersistentVolumeSpec`, every source written).
fn go_spec(spec: &VolumeAttachmentSpec) -> apimachinery::util::validation::field::BadValue {
    internal_value("storage.VolumeAttachmentSpec", spec)
}
