//! The API server's internal group (Go's `pkg/apis/apiserverinternal/validation`):
//! StorageVersion.

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{
    empty_error, is_dns1035_label, is_dns1123_subdomain, is_qualified_name, regex_error,
};

use super::go_value::go_list;
use super::invalid_each;
use super::name_index::NameIndex;
use crate::apiserverinternal::v1alpha1::{
    ServerStorageVersion, StorageVersion, StorageVersionCondition, StorageVersionStatus,
};
use crate::validation::validate_object_meta;

/// Go's `ValidateStorageVersionName`: `<group>.<resource>`, the group a DNS subdomain
/// and the resource a DNS-1035 label.
pub fn validate_storage_version_name(name: &str, _prefix: bool) -> Vec<String> {
    let Some((group, resource)) = name.rsplit_once('.') else {
        return vec!["name must be in the form of <group>.<resource>".to_owned()];
    };
    let mut msgs: Vec<String> = is_dns1123_subdomain(group)
        .into_iter()
        .map(|m| format!("the group segment {m}"))
        .collect();
    msgs.extend(
        is_dns1035_label(resource)
            .into_iter()
            .map(|m| format!("the resource segment {m}")),
    );
    msgs
}

/// Go's `ValidateStorageVersion`: the name, and each server's versions, the common
/// encoding version and the conditions of the status.
pub fn validate_storage_version(sv: &StorageVersion) -> ErrorList {
    let mut errs = validate_object_meta(
        &sv.metadata,
        false,
        validate_storage_version_name,
        &Path::new("metadata"),
    );
    errs.extend(validate_storage_version_status(
        &sv.status,
        &Path::new("status"),
    ));
    errs
}

/// Go's `ValidateStorageVersionUpdate`: nothing (the spec is empty; the status has its
/// own subresource).
pub fn validate_storage_version_update(_new: &StorageVersion, _old: &StorageVersion) -> ErrorList {
    ErrorList::default()
}

/// Go's `ValidateStorageVersionStatusUpdate` (its status strategy's check): the status
/// as on create.
pub fn validate_storage_version_status_update(
    new: &StorageVersion,
    _old: &StorageVersion,
) -> ErrorList {
    validate_storage_version_status(&new.status, &Path::new("status"))
}

fn validate_storage_version_status(s: &StorageVersionStatus, fld: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let list = fld.child("storageVersions");
    let mut ids = BTreeSet::new();
    for (i, ssv) in s.storage_versions.iter().enumerate() {
        let p = list.index(i);
        if !ids.insert(ssv.api_server_id.as_str()) {
            errs.push(Error::duplicate(
                &p.child("apiServerID"),
                &ssv.api_server_id,
            ));
        }
        validate_server_storage_version(ssv, &p, &mut errs);
    }
    validate_common_version(s, fld, &mut errs);
    validate_conditions(&s.conditions, fld, &mut errs);
    errs
}

fn validate_server_storage_version(ssv: &ServerStorageVersion, fld: &Path, errs: &mut ErrorList) {
    invalid_each(
        errs,
        &fld.child("apiServerID"),
        &ssv.api_server_id,
        name_is_dns_subdomain(&ssv.api_server_id, false),
    );
    let msgs = api_version_messages(&ssv.encoding_version);
    if !msgs.is_empty() {
        errs.push(Error::invalid(
            &fld.child("encodingVersion"),
            &ssv.encoding_version,
            msgs.join(","),
        ));
    }
    let dp = fld.child("decodableVersions");
    for (i, dv) in ssv.decodable_versions.iter().enumerate() {
        let msgs = api_version_messages(dv);
        if !msgs.is_empty() {
            errs.push(Error::invalid(&dp.index(i), dv, msgs.join(",")));
        }
    }
    if !ssv.decodable_versions.contains(&ssv.encoding_version) {
        errs.push(Error::invalid(
            &dp,
            go_list(&ssv.decodable_versions),
            format!(
                "decodableVersions must include encodingVersion {}",
                ssv.encoding_version
            ),
        ));
    }
    let sp = fld.child("servedVersions");
    for (i, sv) in ssv.served_versions.iter().enumerate() {
        let p = sp.index(i);
        let msgs = api_version_messages(sv);
        if !msgs.is_empty() {
            errs.push(Error::invalid(&p, sv, msgs.join(",")));
        }
        if !ssv.decodable_versions.contains(sv) {
            errs.push(Error::invalid(
                &p,
                sv,
                format!(
                    "individual served version : {sv} must be included in decodableVersions : [{}]",
                    ssv.decodable_versions.join(" ")
                ),
            ));
        }
    }
}

/// Go's `validateCommonVersion`: `commonEncodingVersion` set exactly when every server
/// reports the same encoding version, and to it.
fn validate_common_version(s: &StorageVersionStatus, fld: &Path, errs: &mut ErrorList) {
    let actual = s.storage_versions.split_first().and_then(|(first, rest)| {
        rest.iter()
            .all(|v| v.encoding_version == first.encoding_version)
            .then_some(first.encoding_version.as_str())
    });
    let p = fld.child("commonEncodingVersion");
    match (actual, s.common_encoding_version.as_deref()) {
        (None, None) => {}
        (None, Some(c)) => errs.push(Error::invalid(
            &p,
            c,
            "should be nil if servers do not agree on the same encoding version, or if there is no server reporting the supported versions yet",
        )),
        (Some(a), None) => errs.push(Error::invalid(
            &p,
            BadValue::Json("null".into()),
            format!("the common encoding version is {a}"),
        )),
        (Some(a), Some(c)) if a != c => errs.push(Error::invalid(
            &p,
            c,
            format!("the actual common encoding version is {a}"),
        )),
        (Some(_), Some(_)) => {}
    }
}

/// Go's `validateStorageVersionCondition`: unique, qualified types and statuses, with a
/// reason and a message. Go reports them under `status[i]`, without `conditions`.
fn validate_conditions(conditions: &[StorageVersionCondition], fld: &Path, errs: &mut ErrorList) {
    let mut seen = NameIndex::new();
    for (i, c) in conditions.iter().enumerate() {
        let p = fld.index(i);
        if let Some(first) = seen.get(c.r#type.as_str()) {
            errs.push(Error::invalid(
                &p.child("type"),
                &c.r#type,
                format!("the type of the condition is not unique, it also appears in conditions[{first}]"),
            ));
        }
        seen.insert(&c.r#type, i);
        invalid_each(
            errs,
            &p.child("type"),
            &c.r#type,
            is_qualified_name(&c.r#type),
        );
        invalid_each(
            errs,
            &p.child("status"),
            &c.status,
            is_qualified_name(&c.status),
        );
        if c.reason.is_empty() {
            errs.push(Error::required(&p.child("reason"), ""));
        }
        if c.message.is_empty() {
            errs.push(Error::required(&p.child("message"), ""));
        }
    }
}

const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_ERR_MSG: &str = "a DNS-1035 label, which must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/// Go's `isValidAPIVersion`: a DNS-1035 version with an optional DNS-subdomain group.
fn api_version_messages(api_version: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = api_version.split('/').collect();
    let version = match parts.as_slice() {
        [v] => *v,
        [group, v] => {
            if group.is_empty() {
                errs.push(format!("group part: {}", empty_error()));
            } else {
                errs.extend(
                    is_dns1123_subdomain(group)
                        .into_iter()
                        .map(|m| format!("group part: {m}")),
                );
            }
            *v
        }
        _ => {
            errs.push(format!(
                "an apiVersion is {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyVersion')",
                regex_error(DNS1035_LABEL_ERR_MSG, DNS1035_LABEL_FMT, &["my-name", "abc-123"])
            ));
            return errs;
        }
    };
    if version.is_empty() {
        errs.push(format!("version part: {}", empty_error()));
    } else {
        errs.extend(
            is_dns1035_label(version)
                .into_iter()
                .map(|m| format!("version part: {m}")),
        );
    }
    errs
}
