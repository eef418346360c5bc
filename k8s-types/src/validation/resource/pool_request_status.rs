//! The ResourcePoolStatusRequest's `/status` validator (Go's
//! `ValidateResourcePoolStatusRequestStatusUpdate` and the status's declarative rules):
//! a status once written is the request's answer and never changes; a first one has
//! valid conditions.

use apimachinery::apis::meta::v1::validation::FIELD_IMMUTABLE_ERROR_MSG;
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use serde::{Serialize, Serializer};

use super::taint_rule::validate_request_status;
use crate::meta::v1::Condition;
use crate::resource::v1alpha3::{
    PoolStatus, ResourcePoolStatusRequest, ResourcePoolStatusRequestStatus,
};
// The pools' partition and shareable summaries are 1.37's.
#[cfg(feature = "v1_37")]
use crate::resource::v1alpha3::{
    PartitionTypeStatus, ShareableCapacityStatus, ShareableSummaryStatus,
};
use crate::validation::conditions::validate_conditions;
use crate::validation::go_value::go_json;
use crate::validation::validate_object_meta_update;
#[cfg(feature = "v1_37")]
use crate::value::Quantity;

/// Go's `ValidateResourcePoolStatusRequestStatusUpdate` with the declarative rules of
/// the status where it changed.
pub fn validate_resource_pool_status_request_status_update(
    new: &ResourcePoolStatusRequest,
    old: &ResourcePoolStatusRequest,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let path = Path::new("status");
    match (&old.status, &new.status) {
        (Some(before), now) if now.as_ref() != Some(before) => errs.push(Error::invalid(
            &path,
            go_json(&now.as_ref().map(GoStatus)),
            FIELD_IMMUTABLE_ERROR_MSG,
        )),
        (None, Some(now)) => errs.extend(validate_conditions(
            &now.conditions,
            &path.child("conditions"),
        )),
        _ => {}
    }
    if new.status != old.status {
        if let Some(status) = &new.status {
            validate_request_status(status, old.status.as_ref(), &mut errs);
        }
    }
    errs
}

// Go prints the status through `json.Marshal` of its internal struct, whose fields have
// no JSON tags: every field under its Go name, in Go's order, nil pointers and lists as
// `null` (a decoded empty list is printed as nil, as one read from storage is). These
// types give it that shape.

/// A list as Go prints a slice: `null` when empty.
fn nil_if_empty<T: Serialize, S: Serializer>(list: &[T], s: S) -> Result<S::Ok, S::Error> {
    if list.is_empty() {
        s.serialize_none()
    } else {
        list.serialize(s)
    }
}

struct GoStatus<'a>(&'a ResourcePoolStatusRequestStatus);

impl Serialize for GoStatus<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "PascalCase")]
        struct Status<'a> {
            pool_count: Option<i32>,
            #[serde(serialize_with = "nil_if_empty")]
            pools: Vec<GoPool<'a>>,
            #[serde(serialize_with = "nil_if_empty")]
            conditions: &'a [Condition],
        }
        let st = self.0;
        Status {
            pool_count: st.pool_count,
            pools: st.pools.iter().map(GoPool).collect(),
            conditions: &st.conditions,
        }
        .serialize(s)
    }
}

struct GoPool<'a>(&'a PoolStatus);

impl Serialize for GoPool<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "PascalCase")]
        struct Pool<'a> {
            driver: &'a str,
            pool_name: &'a str,
            generation: i64,
            resource_slice_count: Option<i32>,
            total_devices: Option<i32>,
            allocated_devices: Option<i32>,
            available_devices: Option<i32>,
            unavailable_devices: Option<i32>,
            node_name: Option<&'a str>,
            validation_error: Option<&'a str>,
            #[cfg(feature = "v1_37")]
            #[serde(serialize_with = "nil_if_empty")]
            partition_summary: Vec<GoPartition<'a>>,
            #[cfg(feature = "v1_37")]
            shareable_summary: Option<GoShareable<'a>>,
        }
        let p = self.0;
        Pool {
            driver: &p.driver,
            pool_name: &p.pool_name,
            generation: p.generation,
            resource_slice_count: p.resource_slice_count,
            total_devices: p.total_devices,
            allocated_devices: p.allocated_devices,
            available_devices: p.available_devices,
            unavailable_devices: p.unavailable_devices,
            node_name: p.node_name.as_deref(),
            validation_error: p.validation_error.as_deref(),
            #[cfg(feature = "v1_37")]
            partition_summary: p.partition_summary.iter().map(GoPartition).collect(),
            #[cfg(feature = "v1_37")]
            shareable_summary: p.shareable_summary.as_ref().map(GoShareable),
        }
        .serialize(s)
    }
}

#[cfg(feature = "v1_37")]
struct GoPartition<'a>(&'a PartitionTypeStatus);

#[cfg(feature = "v1_37")]
impl Serialize for GoPartition<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "PascalCase")]
        struct Partition<'a> {
            attribute: &'a str,
            r#type: &'a str,
            total: Option<i32>,
            allocatable: Option<i32>,
        }
        let p = self.0;
        Partition {
            attribute: &p.attribute,
            r#type: &p.r#type,
            total: p.total,
            allocatable: p.allocatable,
        }
        .serialize(s)
    }
}

#[cfg(feature = "v1_37")]
struct GoShareable<'a>(&'a ShareableSummaryStatus);

#[cfg(feature = "v1_37")]
impl Serialize for GoShareable<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "PascalCase")]
        struct Shareable<'a> {
            fully_available_devices: Option<i32>,
            partially_available_devices: Option<i32>,
            #[serde(serialize_with = "nil_if_empty")]
            capacity: Vec<GoCapacity<'a>>,
        }
        let sh = self.0;
        Shareable {
            fully_available_devices: sh.fully_available_devices,
            partially_available_devices: sh.partially_available_devices,
            capacity: sh.capacity.iter().map(GoCapacity).collect(),
        }
        .serialize(s)
    }
}

#[cfg(feature = "v1_37")]
struct GoCapacity<'a>(&'a ShareableCapacityStatus);

#[cfg(feature = "v1_37")]
impl Serialize for GoCapacity<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "PascalCase")]
        struct Capacity<'a> {
            name: &'a str,
            total: Option<&'a Quantity>,
            consumed: Option<&'a Quantity>,
            available: Option<&'a Quantity>,
        }
        let c = self.0;
        Capacity {
            name: &c.name,
            total: c.total.as_ref(),
            consumed: c.consumed.as_ref(),
            available: c.available.as_ref(),
        }
        .serialize(s)
    }
}
