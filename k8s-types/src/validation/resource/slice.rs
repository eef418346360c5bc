//! ResourceSlice: what a driver publishes (its pool, devices, counters).

use std::collections::BTreeMap;

use crate::validation::{validate_object_meta, validate_object_meta_update};
use apimachinery::apis::meta::v1::validation::{FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::super::go_internal::{GoStruct, json_text, list};
use super::super::json_value;
use super::super::pod_placement::validate_node_selector;
use super::{
    ATTRIBUTE_AND_CAPACITY_MAX_KEY_LENGTH, dns1123_label, duplicates, too_many,
    truncate_if_too_long, validate_binding_parameters, validate_device_taint, validate_driver_name,
    validate_pool_name, validate_qualified_name,
};
use crate::core::v1::NodeSelector;
use crate::resource::v1::{
    CounterSet, Device, DeviceAttribute, DeviceCounterConsumption, ResourceSlice, ResourceSliceSpec,
};

/// Go's `ResourceSliceMaxDevices` and, with taints, counters or list attributes,
/// `ResourceSliceMaxDevicesWithAdvancedFeatures`.
const MAX_DEVICES: usize = 128;
const MAX_DEVICES_ADVANCED: usize = 64;
/// Go's `ResourceSliceMaxCounterSets`.
const MAX_COUNTER_SETS: usize = 8;
/// Go's `ResourceSliceMaxCountersPerCounterSet` (and per device counter consumption).
const MAX_COUNTERS: usize = 32;
/// Go's `ResourceSliceMaxDeviceCounterConsumptionsPerDevice`.
const MAX_COUNTER_CONSUMPTIONS: usize = 2;
/// Go's `ResourceSliceMaxAttributesAndCapacitiesPerDevice`.
const MAX_ATTRIBUTES_AND_CAPACITIES: usize = 32;
/// Go's `ResourceSliceMaxAttributeValuesPerDevice`.
const MAX_ATTRIBUTE_VALUES: usize = 48;
/// Go's `DeviceAttributeMaxValueLength`.
const ATTRIBUTE_MAX_VALUE_LENGTH: usize = 64;
/// Go's `DeviceTaintsMaxLength`.
const MAX_TAINTS: usize = 16;

/// Go's `ValidateResourceSlice`.
pub fn validate_resource_slice(slice: &ResourceSlice) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = validate_object_meta(&slice.metadata, false, name_is_dns_subdomain, &mp);
    validate_spec(&slice.spec, None, &Path::new("spec"), &mut errs);
    errs
}

/// Go's `ValidateResourceSliceUpdate`: metadata kept, the spec valid with pool name,
/// driver and node name unchanged.
pub fn validate_resource_slice_update(new: &ResourceSlice, old: &ResourceSlice) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    validate_spec(&new.spec, Some(&old.spec), &Path::new("spec"), &mut errs);
    errs
}

fn validate_spec(
    spec: &ResourceSliceSpec,
    old: Option<&ResourceSliceSpec>,
    path: &Path,
    errs: &mut ErrorList,
) {
    validate_driver_name(&spec.driver, &path.child("driver"), errs);
    let pp = path.child("pool");
    validate_pool_name(&spec.pool.name, &pp.child("name"), errs);
    if spec.pool.resource_slice_count <= 0 {
        errs.push(Error::invalid(
            &pp.child("resourceSliceCount"),
            spec.pool.resource_slice_count,
            "must be greater than zero",
        ));
    }
    if spec.pool.generation < 0 {
        errs.push(Error::invalid(
            &pp.child("generation"),
            spec.pool.generation,
            "must be greater than or equal to zero",
        ));
    }
    if let Some(old) = old {
        if spec.pool.name != old.pool.name {
            errs.push(Error::invalid(
                &pp.child("name"),
                spec.pool.name.as_str(),
                FIELD_IMMUTABLE_ERROR_MSG,
            ));
        }
        if spec.driver != old.driver {
            errs.push(Error::invalid(
                &path.child("driver"),
                spec.driver.as_str(),
                FIELD_IMMUTABLE_ERROR_MSG,
            ));
        }
        if spec.node_name != old.node_name {
            // A *string, which Go prints with json.Marshal: the JSON string, or null.
            let v = json_value(&spec.node_name);
            errs.push(Error::invalid(
                &path.child("nodeName"),
                v,
                FIELD_IMMUTABLE_ERROR_MSG,
            ));
        }
    }

    let mut set = Vec::new();
    if let Some(name) = &spec.node_name {
        let p = path.child("nodeName");
        if name.is_empty() {
            errs.push(Error::invalid(
                &p,
                "",
                "must be either unset or set to a non-empty string",
            ));
        } else {
            set.push("`nodeName`");
            validate_node_name(name, &p, errs);
        }
    }
    if let Some(sel) = &spec.node_selector {
        set.push("`nodeSelector`");
        let p = path.child("nodeSelector");
        validate_node_selector(sel, &p, errs);
        let terms = sel.node_selector_terms.as_deref().unwrap_or_default();
        if terms.len() != 1 {
            errs.push(Error::invalid(
                &p.child("nodeSelectorTerms"),
                node_selector_terms_value(sel),
                "must have exactly one node selector term",
            ));
        }
    }
    true_or_unset(
        spec.all_nodes,
        "`allNodes`",
        &path.child("allNodes"),
        &mut set,
        errs,
    );
    true_or_unset(
        spec.per_device_node_selection,
        "`perDeviceNodeSelection`",
        &path.child("perDeviceNodeSelection"),
        &mut set,
        errs,
    );
    const ONE_OF: &str = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
    match set.len() {
        0 => errs.push(Error::required(path, ONE_OF)),
        1 => {}
        _ => errs.push(Error::invalid(
            path,
            format!("{{{}}}", set.join(", ")),
            format!("{ONE_OF}, but multiple fields are set"),
        )),
    }

    // Go tests the lists for nil; ours reads a missing list and an empty one alike.
    if !spec.shared_counters.is_empty() && !spec.devices.is_empty() {
        errs.push(Error::invalid(
            path,
            "",
            "only one of `sharedCounters` or `devices` is allowed",
        ));
    }

    let advanced = spec
        .devices
        .iter()
        .any(|d| !d.taints.is_empty() || !d.consumes_counters.is_empty() || has_list_attributes(d));
    let max = if advanced {
        MAX_DEVICES_ADVANCED
    } else {
        MAX_DEVICES
    };
    let dp = path.child("devices");
    if !too_many(spec.devices.len(), max, &dp, errs) {
        let per_device = spec.per_device_node_selection == Some(true);
        for (i, d) in spec.devices.iter().enumerate() {
            let old_device = old.and_then(|o| o.devices.iter().find(|od| od.name == d.name));
            validate_device(d, old_device, per_device, &dp.index(i), errs);
        }
        duplicates(spec.devices.iter().map(|d| d.name.as_str()), &dp, errs);
    }

    let cp = path.child("sharedCounters");
    if !too_many(spec.shared_counters.len(), MAX_COUNTER_SETS, &cp, errs) {
        for (i, c) in spec.shared_counters.iter().enumerate() {
            validate_counter_set(c, &cp.index(i), errs);
        }
        duplicates(
            spec.shared_counters.iter().map(|c| c.name.as_str()),
            &cp,
            errs,
        );
    }

    #[cfg(feature = "v1_37")]
    {
        validate_partition_type_attribute(spec, old, path, errs);
        let sp = path.child("skipNodeOperations");
        if old.is_none_or(|o| o.skip_node_operations != spec.skip_node_operations) {
            skip_node_operations_declared(&spec.skip_node_operations, &sp, errs);
        }
        validate_skip_node_operations(&spec.skip_node_operations, &sp, errs);
    }
}

/// Kubernetes 1.37's `compatibilityGroups` of a counter consumption: declarative rules
/// that run whatever their alpha gate (DRADeviceCompatibilityGroups): at most 2,
/// each a DNS label, unique.
#[cfg(feature = "v1_37")]
fn compatibility_groups(groups: &[String], path: &Path, errs: &mut ErrorList) {
    let gp = path.child("compatibilityGroups");
    if too_many(groups.len(), 2, &gp, errs) {
        return;
    }
    for (i, g) in groups.iter().enumerate() {
        dns1123_label(g, &gp.index(i), errs);
    }
    duplicates(groups.iter().map(String::as_str), &gp, errs);
}

/// Kubernetes 1.37's `partitionTypeAttribute`: forbidden while its alpha gate
/// (DRAPartitionableDevicesType) is off, which the declarative rule checks only when
/// the value changed; and Go's hand-written `validatePartitionTypeAttribute`, which
/// runs whatever the gate: set only on a slice whose devices consume counters, and
/// then an attribute of each such device, a string. A name in the driver's domain may
/// be written bare on the device.
#[cfg(feature = "v1_37")]
fn validate_partition_type_attribute(
    spec: &ResourceSliceSpec,
    old: Option<&ResourceSliceSpec>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let Some(name) = &spec.partition_type_attribute else {
        return;
    };
    let pp = path.child("partitionTypeAttribute");
    if old.is_none_or(|o| o.partition_type_attribute.as_ref() != Some(name)) {
        errs.push(Error::forbidden(&pp, ""));
    }
    if !spec.devices.iter().any(|d| !d.consumes_counters.is_empty()) {
        errs.push(Error::invalid(
            &pp,
            name.as_str(),
            "may only be set on a slice which declares devices that consume counters",
        ));
        return;
    }
    let mut malformed = ErrorList::default();
    super::validate_fully_qualified_name(name, &pp, &mut malformed);
    if !malformed.is_empty() {
        return;
    }
    let bare = name
        .strip_prefix(spec.driver.as_str())
        .and_then(|rest| rest.strip_prefix('/'))
        .unwrap_or(name);
    let dp = path.child("devices");
    for (i, d) in spec.devices.iter().enumerate() {
        if d.consumes_counters.is_empty() {
            continue;
        }
        let ip = dp.index(i);
        let attributes = ip.child("attributes");
        let ap = attributes.key(name);
        let attribute = d
            .attributes
            .get(name)
            .or_else(|| (!bare.is_empty()).then(|| d.attributes.get(bare)).flatten());
        match attribute {
            None => errs.push(Error::required(
                &ap,
                "device consumes counters and `partitionTypeAttribute` names this attribute, so it must be set",
            )),
            Some(a) if a.string.is_none() => errs.push(Error::invalid(
                &ap,
                attribute_internal(a),
                "must be a string value because `partitionTypeAttribute` names this attribute",
            )),
            Some(_) => {}
        }
    }
}

/// The supported `skipNodeOperations`, sorted as Go's `sets.List` gives them.
#[cfg(feature = "v1_37")]
pub(super) const SKIP_NODE_OPERATIONS: &[&str] =
    &["*", "NodePrepareResources", "NodeUnprepareResources"];

/// The declarative rules of a `skipNodeOperations` list (a set of enum values):
/// `Duplicate` at each repeat, `NotSupported` for an unknown value.
#[cfg(feature = "v1_37")]
pub(super) fn skip_node_operations_declared(ops: &[String], path: &Path, errs: &mut ErrorList) {
    duplicates(ops.iter().map(String::as_str), path, errs);
    for (i, op) in ops.iter().enumerate() {
        if !SKIP_NODE_OPERATIONS.contains(&op.as_str()) {
            errs.push(Error::not_supported(
                &path.index(i),
                json_value(op),
                SKIP_NODE_OPERATIONS,
            ));
        }
    }
}

/// Go's `validateSkipNodeOperations`: preparing may be skipped only with unpreparing.
#[cfg(feature = "v1_37")]
pub(super) fn validate_skip_node_operations(ops: &[String], path: &Path, errs: &mut ErrorList) {
    let has = |v: &str| ops.iter().any(|o| o == v);
    if has("NodePrepareResources") && !has("NodeUnprepareResources") && !has("*") {
        errs.push(Error::invalid(
            path,
            json_value(&ops.to_vec()),
            "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped",
        ));
    }
}

/// A `*bool` that must be unset or true; true counts as one of the set fields.
fn true_or_unset(
    v: Option<bool>,
    name: &'static str,
    path: &Path,
    set: &mut Vec<&'static str>,
    errs: &mut ErrorList,
) {
    match v {
        Some(true) => set.push(name),
        Some(false) => errs.push(Error::invalid(
            path,
            false,
            "must be either unset or set to true",
        )),
        None => {}
    }
}

/// Go's `corevalidation.ValidateNodeName` (a DNS subdomain), one error per message.
fn validate_node_name(name: &str, path: &Path, errs: &mut ErrorList) {
    for msg in name_is_dns_subdomain(name, false) {
        errs.push(Error::invalid(path, name, msg));
    }
}

/// The node selector's terms as Go prints them: its internal `[]NodeSelectorTerm`.
fn node_selector_terms_value(sel: &NodeSelector) -> BadValue {
    BadValue::Json(node_selector_terms_text(sel))
}

/// A node selector's terms as Go prints its internal `[]NodeSelectorTerm`.
pub(super) fn node_selector_terms_text(sel: &NodeSelector) -> String {
    let requirement = |r: &crate::core::v1::NodeSelectorRequirement| {
        GoStruct::new()
            .raw("Key", json_text(&r.key))
            .raw("Operator", json_text(&r.operator))
            .raw("Values", list(&r.values, json_text))
            .text()
    };
    let terms = match &sel.node_selector_terms {
        // Go's decoder makes `[]` an empty, non-nil slice.
        Some(t) if t.is_empty() => return "[]".to_owned(),
        t => t.as_deref().unwrap_or_default(),
    };
    list(terms, |t| {
        GoStruct::new()
            .raw("MatchExpressions", list(&t.match_expressions, requirement))
            .raw("MatchFields", list(&t.match_fields, requirement))
            .text()
    })
}

fn has_list_attributes(d: &Device) -> bool {
    d.attributes.values().any(|a| {
        !a.bools.is_empty() || !a.ints.is_empty() || !a.strings.is_empty() || !a.versions.is_empty()
    })
}

/// Go's `validateDevice`.
fn validate_device(
    d: &Device,
    old: Option<&Device>,
    per_device_node_selection: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    dns1123_label(&d.name, &path.child("name"), errs);
    let count = d.attributes.len() + d.capacity.len();
    if count > MAX_ATTRIBUTES_AND_CAPACITIES {
        errs.push(Error::invalid(
            path,
            count,
            format!(
                "the total number of attributes and capacities must not exceed {MAX_ATTRIBUTES_AND_CAPACITIES}"
            ),
        ));
    }
    let values: usize = d
        .attributes
        .values()
        .map(|a| {
            let n = a.bools.len() + a.ints.len() + a.strings.len() + a.versions.len();
            n.max(1)
        })
        .sum();
    if values > MAX_ATTRIBUTE_VALUES {
        errs.push(Error::invalid(
            path,
            values,
            format!("the total number of attribute values must not exceed {MAX_ATTRIBUTE_VALUES}"),
        ));
    }
    let ap = path.child("attributes");
    for (key, a) in &d.attributes {
        validate_qualified_name(key, &ap, errs);
        let k = truncate_if_too_long(key, ATTRIBUTE_AND_CAPACITY_MAX_KEY_LENGTH);
        let old_attribute = old.and_then(|o| o.attributes.get(key));
        validate_device_attribute(a, old_attribute, &ap.key(&k), errs);
    }
    let multiple = d.allow_multiple_allocations == Some(true);
    let cp = path.child("capacity");
    for (key, c) in &d.capacity {
        validate_qualified_name(key, &cp, errs);
        let k = truncate_if_too_long(key, ATTRIBUTE_AND_CAPACITY_MAX_KEY_LENGTH);
        super::capacity::validate_capacity(c, multiple, &cp.key(&k), errs);
    }
    if old.is_none_or(|o| o.taints != d.taints) {
        let tp = path.child("taints");
        if !too_many(d.taints.len(), MAX_TAINTS, &tp, errs) {
            for (i, t) in d.taints.iter().enumerate() {
                validate_device_taint(t, None, &tp.index(i), errs);
            }
        }
    }
    let ccp = path.child("consumesCounters");
    if !too_many(
        d.consumes_counters.len(),
        MAX_COUNTER_CONSUMPTIONS,
        &ccp,
        errs,
    ) {
        for (i, c) in d.consumes_counters.iter().enumerate() {
            validate_counter_consumption(c, &ccp.index(i), errs);
        }
        #[cfg(feature = "v1_37")]
        if old.is_none_or(|o| o.consumes_counters != d.consumes_counters) {
            for (i, c) in d.consumes_counters.iter().enumerate() {
                compatibility_groups(&c.compatibility_groups, &ccp.index(i), errs);
            }
        }
        duplicates(
            d.consumes_counters.iter().map(|c| c.counter_set.as_str()),
            &ccp,
            errs,
        );
    }
    validate_device_node_selection(d, per_device_node_selection, path, errs);
    validate_binding_parameters(
        &d.binding_conditions,
        &d.binding_failure_conditions,
        path,
        errs,
    );
    #[cfg(not(feature = "v1_37"))]
    super::node_allocatable::validate_node_allocatable_resource_mappings(
        &d.node_allocatable_resource_mappings,
        &d.capacity,
        &path.child("nodeAllocatableResourceMappings"),
        errs,
    );
    #[cfg(feature = "v1_37")]
    super::node_allocatable::validate_node_allocatable_resources(
        &d.node_allocatable_resources,
        &d.capacity,
        &path.child("nodeAllocatableResources"),
        errs,
    );
}

/// A device's own node selection: exactly one of its fields when the slice selects
/// per device, none otherwise.
fn validate_device_node_selection(d: &Device, per_device: bool, path: &Path, errs: &mut ErrorList) {
    if !per_device {
        if d.node_name.is_some() || d.node_selector.is_some() || d.all_nodes.is_some() {
            errs.push(Error::invalid(
                path,
                BadValue::Json("null".to_owned()),
                "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec",
            ));
        }
        return;
    }
    let mut set = Vec::new();
    if let Some(name) = &d.node_name {
        let p = path.child("nodeName");
        if name.is_empty() {
            errs.push(Error::invalid(&p, "", "must not be empty"));
        } else {
            set.push("`nodeName`");
            validate_node_name(name, &p, errs);
        }
    }
    if let Some(sel) = &d.node_selector {
        set.push("`nodeSelector`");
        validate_node_selector(sel, &path.child("nodeSelector"), errs);
    }
    true_or_unset(
        d.all_nodes,
        "`allNodes`",
        &path.child("allNodes"),
        &mut set,
        errs,
    );
    const ONE_OF: &str = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec";
    match set.len() {
        0 => errs.push(Error::required(path, ONE_OF)),
        1 => {}
        _ => errs.push(Error::invalid(
            path,
            format!("{{{}}}", set.join(", ")),
            ONE_OF,
        )),
    }
}

/// Go's `validateDeviceAttribute`: exactly one value; strings at most 64 bytes,
/// versions semantic versions.
fn validate_device_attribute(
    a: &DeviceAttribute,
    old: Option<&DeviceAttribute>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut fields = 0;
    if a.bool.is_some() {
        fields += 1;
    }
    if a.int.is_some() {
        fields += 1;
    }
    if let Some(s) = &a.string {
        fields += 1;
        attribute_string(s, &path.child("string"), errs);
    }
    if let Some(v) = &a.version {
        fields += 1;
        attribute_version(v, &path.child("version"), errs);
    }
    // Go tests the lists for nil; an empty list is one ours cannot tell from a missing
    // one, so it is not counted (Go's "must not be empty if specified" cannot show).
    fields += usize::from(!a.bools.is_empty()) + usize::from(!a.ints.is_empty());
    if !a.strings.is_empty() {
        fields += 1;
        let p = path.child("strings");
        for (i, s) in a.strings.iter().enumerate() {
            attribute_string(s, &p.index(i), errs);
        }
    }
    if !a.versions.is_empty() {
        fields += 1;
        let p = path.child("versions");
        for (i, v) in a.versions.iter().enumerate() {
            attribute_version(v, &p.index(i), errs);
        }
    }
    #[cfg(feature = "v1_37")]
    {
        let _ = fields;
        attribute_union(a, old, path, errs);
    }
    #[cfg(not(feature = "v1_37"))]
    let _ = old;
    #[cfg(not(feature = "v1_37"))]
    match fields {
        0 => errs.push(Error::invalid(
            path,
            "",
            "exactly one value must be specified",
        )),
        1 => {}
        _ => errs.push(Error::invalid(
            path,
            attribute_value(a),
            "exactly one value must be specified",
        )),
    }
}

/// The value fields of an attribute, in the order of Go's union members.
#[cfg(feature = "v1_37")]
fn attribute_members(a: &DeviceAttribute) -> Vec<&'static str> {
    [
        ("int", a.int.is_some()),
        ("bool", a.bool.is_some()),
        ("string", a.string.is_some()),
        ("version", a.version.is_some()),
        ("ints", !a.ints.is_empty()),
        ("bools", !a.bools.is_empty()),
        ("strings", !a.strings.is_empty()),
        ("versions", !a.versions.is_empty()),
    ]
    .into_iter()
    .filter_map(|(name, set)| set.then_some(name))
    .collect()
}

/// Kubernetes 1.37: the attribute's declarative union (beta, enforced), which covers
/// the hand-written "exactly one value" and names the members set. An update that
/// keeps the attribute, or which of its members are set, is not checked again.
#[cfg(feature = "v1_37")]
fn attribute_union(
    a: &DeviceAttribute,
    old: Option<&DeviceAttribute>,
    path: &Path,
    errs: &mut ErrorList,
) {
    const ALL: &str = "`int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`";
    let set = attribute_members(a);
    if old.is_some_and(|o| o == a || attribute_members(o) == set) {
        return;
    }
    match set.len() {
        0 => errs.push(Error::invalid(
            path,
            "",
            format!("must specify one of: {ALL}"),
        )),
        1 => {}
        _ => errs.push(Error::invalid(
            path,
            format!("{{{}}}", set.join(", ")),
            format!("must specify exactly one of: {ALL}"),
        )),
    }
}

/// The attribute as Go prints it: its internal `DeviceAttribute`.
#[cfg(not(feature = "v1_37"))]
fn attribute_value(a: &DeviceAttribute) -> BadValue {
    attribute_internal(a)
}

/// An attribute as Go's `json.Marshal` writes its internal `DeviceAttribute`.
fn attribute_internal(a: &DeviceAttribute) -> BadValue {
    GoStruct::new()
        .raw("IntValue", json_text(&a.int))
        .raw("BoolValue", json_text(&a.bool))
        .raw("StringValue", json_text(&a.string))
        .raw("VersionValue", json_text(&a.version))
        .raw("IntValues", list(&a.ints, |v| v.to_string()))
        .raw("BoolValues", list(&a.bools, |v| v.to_string()))
        .raw("StringValues", list(&a.strings, json_text))
        .raw("VersionValues", list(&a.versions, json_text))
        .value()
}

fn attribute_string(s: &str, path: &Path, errs: &mut ErrorList) {
    if s.len() > ATTRIBUTE_MAX_VALUE_LENGTH {
        errs.push(Error::too_long(path, ATTRIBUTE_MAX_VALUE_LENGTH as i64));
    }
}

fn attribute_version(v: &str, path: &Path, errs: &mut ErrorList) {
    if !is_semver(v) {
        errs.push(Error::invalid(
            path,
            v,
            "must be a string compatible with semver.org spec 2.0.0",
        ));
    }
    attribute_string(v, path, errs);
}

/// Go's `semverRe`: `MAJOR.MINOR.PATCH`, numbers without leading zeros, then optional
/// `-` pre-release identifiers and `+` build identifiers, dot-separated.
fn is_semver(v: &str) -> bool {
    let numeric = |s: &str| {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
    };
    let ident_char = |b: u8| b.is_ascii_alphanumeric() || b == b'-';
    let (rest, build) = match v.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (v, None),
    };
    if let Some(b) = build {
        if !b
            .split('.')
            .all(|id| !id.is_empty() && id.bytes().all(ident_char))
        {
            return false;
        }
    }
    let (core, pre) = match rest.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (rest, None),
    };
    if let Some(p) = pre {
        let pre_ok = |id: &str| {
            numeric(id)
                || (!id.is_empty()
                    && id.bytes().all(ident_char)
                    && id.bytes().any(|b| b.is_ascii_alphabetic() || b == b'-'))
        };
        if !p.split('.').all(pre_ok) {
            return false;
        }
    }
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3 && parts.iter().all(|p| numeric(p))
}

/// Go's `validateCounterSet`: a DNS-label name and 1 to 32 counters with DNS-label names.
fn validate_counter_set(c: &CounterSet, path: &Path, errs: &mut ErrorList) {
    let np = path.child("name");
    if c.name.is_empty() {
        errs.push(Error::required(&np, ""));
    } else {
        dns1123_label(&c.name, &np, errs);
    }
    validate_counters(&c.counters, &path.child("counters"), errs);
}

/// Go's `validateDeviceCounterConsumption`.
fn validate_counter_consumption(c: &DeviceCounterConsumption, path: &Path, errs: &mut ErrorList) {
    let np = path.child("counterSet");
    if c.counter_set.is_empty() {
        errs.push(Error::required(&np, ""));
    } else {
        dns1123_label(&c.counter_set, &np, errs);
    }
    validate_counters(&c.counters, &path.child("counters"), errs);
}

fn validate_counters<T>(counters: &BTreeMap<String, T>, path: &Path, errs: &mut ErrorList) {
    if counters.is_empty() {
        errs.push(Error::required(path, ""));
    } else if !too_many(counters.len(), MAX_COUNTERS, path, errs) {
        for key in counters.keys() {
            dns1123_label(key, path, errs);
        }
    }
}
