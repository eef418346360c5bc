//! ControllerRevision (Go's `ValidateControllerRevisionCreate`,
//! `ValidateControllerRevisionUpdate` and the `controllerrevision` strategy).

use crate::validation::validate_object_meta_update;
use apimachinery::apis::meta::v1::validation::FIELD_IMMUTABLE_ERROR_MSG;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::subdomain_metadata;
use crate::apps::v1::ControllerRevision;
use crate::validation::{json_value, non_negative};

/// Go's `validateControllerRevision`: metadata (a DNS subdomain name, namespaced) and a
/// revision that is not negative.
fn revision_and_metadata(cr: &ControllerRevision) -> ErrorList {
    let mut errs = subdomain_metadata(&cr.metadata, None);
    non_negative(cr.revision, &Path::new("revision"), &mut errs);
    errs
}

/// Go's `ValidateControllerRevisionCreate`: the revision and metadata, and `data`
/// present and a JSON object.
pub fn validate_controller_revision(cr: &ControllerRevision) -> ErrorList {
    let mut errs = revision_and_metadata(cr);
    let path = Path::new("data");
    if cr.data.object.is_some() {
        return errs;
    }
    if cr.data.raw.is_empty() {
        errs.push(Error::required(&path, "data is mandatory"));
        return errs;
    }
    match serde_json::from_slice::<serde_json::Value>(&cr.data.raw) {
        Err(e) => errs.push(Error::invalid(
            &path,
            BadValue::String("<value omitted>".to_owned()),
            format!("error parsing data: {e}"),
        )),
        Ok(serde_json::Value::Null) => errs.push(Error::required(&path, "data is mandatory")),
        Ok(serde_json::Value::Object(_)) => {}
        Ok(_) => errs.push(Error::required(&path, "data must be a valid JSON object")),
    }
    errs
}

/// Go's `ValidateControllerRevisionUpdate`: the metadata's identity kept, the revision
/// and metadata valid, `data` unchanged.
pub fn validate_controller_revision_update(
    new: &ControllerRevision,
    old: &ControllerRevision,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(revision_and_metadata(new));
    if new.data != old.data {
        errs.push(Error::invalid(
            &Path::new("data"),
            json_value(&new.data),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}
