//! The `/status` validators of API Priority and Fairness (Go's
//! `ValidateFlowSchemaStatus` and `ValidatePriorityLevelConfigurationStatus`, which the
//! status strategies run): each condition has a type, and no type twice. The same in
//! 1.36 and 1.37.

use std::collections::BTreeSet;

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use crate::flowcontrol::v1::{FlowSchema, PriorityLevelConfiguration};

/// Go's `ValidateFlowSchemaStatusUpdate`.
pub fn validate_flow_schema_status_update(new: &FlowSchema, _old: &FlowSchema) -> ErrorList {
    condition_types(new.status.conditions.iter().map(|c| c.r#type.as_str()))
}

/// Go's `ValidatePriorityLevelConfigurationStatusUpdate`.
pub fn validate_priority_level_configuration_status_update(
    new: &PriorityLevelConfiguration,
    _old: &PriorityLevelConfiguration,
) -> ErrorList {
    condition_types(new.status.conditions.iter().map(|c| c.r#type.as_str()))
}

/// Each condition's type given, and given once: a repeat is reported where it repeats.
fn condition_types<'a>(types: impl Iterator<Item = &'a str>) -> ErrorList {
    let mut errs = ErrorList::default();
    let status = Path::new("status");
    let conditions = status.child("conditions");
    let mut seen = BTreeSet::new();
    for (i, t) in types.enumerate() {
        let item = conditions.index(i);
        if !seen.insert(t) {
            // A named string type: Go prints it as JSON.
            errs.push(Error::duplicate(
                &item.child("type"),
                BadValue::json_string(t),
            ));
        }
        if t.is_empty() {
            errs.push(Error::required(&item.child("type"), ""));
        }
    }
    errs
}
