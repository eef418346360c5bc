//! The protobuf encoding of `meta.k8s.io/v1` types (what Go's `generated.pb.go` and
//! `time_proto.go` of the package hold), field numbers from the package's
//! `generated.proto`. Fields are listed in ascending field number, the order Go writes.

use crate::proto::{Field, Message, ProtobufError, WireDecoder, WireEncoder, WireType};
use crate::proto_message;

use super::{
    APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions, Duration,
    GroupVersionForDiscovery, LabelSelector, LabelSelectorRequirement, ListMeta,
    ManagedFieldsEntry, MicroTime, ObjectMeta, OwnerReference, ServerAddressByClientCIDR,
    ShardInfo, Status, StatusCause, StatusDetails, Time, TypeMeta,
};

proto_message!(ObjectMeta {
    1 => name,
    2 => generate_name as "generateName",
    3 => namespace,
    4 => self_link as "selfLink",
    5 => uid,
    6 => resource_version as "resourceVersion",
    7 => generation,
    8 => creation_timestamp as "creationTimestamp",
    9 => deletion_timestamp as "deletionTimestamp",
    10 => deletion_grace_period_seconds as "deletionGracePeriodSeconds",
    11 => labels,
    12 => annotations,
    13 => owner_references as "ownerReferences",
    14 => finalizers,
    17 => managed_fields as "managedFields",
});

proto_message!(OwnerReference {
    1 => kind,
    3 => name,
    4 => uid,
    5 => api_version as "apiVersion",
    6 => controller,
    7 => block_owner_deletion as "blockOwnerDeletion",
});

proto_message!(ManagedFieldsEntry {
    1 => manager,
    2 => operation,
    3 => api_version as "apiVersion",
    4 => time,
    6 => fields_type as "fieldsType",
    7 => fields_v1 as "fieldsV1",
    8 => subresource,
});

proto_message!(ListMeta {
    1 => self_link as "selfLink",
    2 => resource_version as "resourceVersion",
    3 => continue_ as "continue",
    4 => remaining_item_count as "remainingItemCount",
    5 => shard_info as "shardInfo",
});

proto_message!(ShardInfo { 1 => selector });

proto_message!(LabelSelector {
    1 => match_labels as "matchLabels",
    2 => match_expressions as "matchExpressions",
});

proto_message!(LabelSelectorRequirement {
    1 => key,
    2 => operator,
    3 => values,
});

proto_message!(Status {
    1 => metadata,
    2 => status,
    3 => message,
    4 => reason,
    5 => details,
    6 => code,
});

proto_message!(StatusDetails {
    1 => name,
    2 => group,
    3 => kind,
    4 => causes,
    5 => retry_after_seconds as "retryAfterSeconds",
    6 => uid,
});

proto_message!(StatusCause {
    1 => reason,
    2 => message,
    3 => field,
});

// `runtime.TypeMeta` (apiVersion 1, kind 2), the envelope's type information, is a
// different message from `meta/v1` TypeMeta (kind 1, apiVersion 2), which is inlined in
// objects and never written on its own; this is the latter.
proto_message!(TypeMeta {
    1 => kind,
    2 => api_version as "apiVersion",
});

fn encode_timestamp(seconds: i64, nanos: i32, e: &mut WireEncoder) {
    seconds.encode_field(1, e);
    nanos.encode_field(2, e);
}

/// Go writes a zero time as an empty message and any other as `{seconds, nanos: 0}`;
/// it reads the seconds only, as its JSON form holds no more.
impl Message for Time {
    fn encode_fields(&self, e: &mut WireEncoder) {
        if !self.is_zero() {
            encode_timestamp(self.unix_seconds(), 0, e);
        }
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        d: &mut WireDecoder<'_>,
    ) -> Result<bool, ProtobufError> {
        // Go ignores the nanoseconds.
        match number {
            1 => {
                let mut seconds = 0i64;
                seconds
                    .merge_from(wire, d)
                    .map_err(|e| e.in_field("seconds"))?;
                *self = Time::from_unix(seconds, 0);
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

/// Go writes a zero time as an empty message and any other as `{seconds, nanos}` with
/// the nanoseconds truncated to microseconds, and truncates again when reading.
impl Message for MicroTime {
    fn encode_fields(&self, e: &mut WireEncoder) {
        if !self.is_zero() {
            let micros = self.truncate_to_micros();
            encode_timestamp(micros.unix_seconds(), micros.nanos() as i32, e);
        }
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        d: &mut WireDecoder<'_>,
    ) -> Result<bool, ProtobufError> {
        let (mut seconds, mut nanos) = (self.unix_seconds(), self.nanos() as i32);
        match number {
            1 => seconds
                .merge_from(wire, d)
                .map_err(|e| e.in_field("seconds"))?,
            2 => nanos.merge_from(wire, d).map_err(|e| e.in_field("nanos"))?,
            _ => return Ok(false),
        }
        *self = micro_time_from_timestamp(seconds, nanos);
        Ok(true)
    }
}

/// Go's `time.Unix` normalises nanoseconds outside `[0, 1e9)` into the seconds.
fn micro_time_from_timestamp(seconds: i64, nanos: i32) -> MicroTime {
    let carry = i64::from(nanos).div_euclid(1_000_000_000);
    let nanos = i64::from(nanos).rem_euclid(1_000_000_000) as u32;
    MicroTime::from_unix(seconds.saturating_add(carry), nanos).truncate_to_micros()
}

/// `Duration` is `{duration = 1}`, the nanosecond count, always written.
impl Message for Duration {
    fn encode_fields(&self, e: &mut WireEncoder) {
        self.as_nanos().encode_field(1, e);
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        d: &mut WireDecoder<'_>,
    ) -> Result<bool, ProtobufError> {
        if number != 1 {
            return Ok(false);
        }
        let mut nanos = self.as_nanos();
        nanos
            .merge_from(wire, d)
            .map_err(|e| e.in_field("duration"))?;
        *self = Duration::from_nanos(nanos);
        Ok(true)
    }
}

proto_message!(APIVersions {
    1 => versions,
    2 => server_address_by_client_cidrs as "serverAddressByClientCIDRs",
});

proto_message!(APIGroupList { 1 => groups });

proto_message!(APIGroup {
    1 => name,
    2 => versions,
    3 => preferred_version as "preferredVersion",
    4 => server_address_by_client_cidrs as "serverAddressByClientCIDRs",
});

proto_message!(GroupVersionForDiscovery {
    1 => group_version as "groupVersion",
    2 => version,
});

proto_message!(ServerAddressByClientCIDR {
    1 => client_cidr as "clientCIDR",
    2 => server_address as "serverAddress",
});

proto_message!(APIResourceList {
    1 => group_version as "groupVersion",
    2 => resources,
});

/// `APIResource`'s verbs are a Go named slice (`Verbs`), a message `{items = 1}` of its
/// own on the wire, written when the slice is not nil (Go's `if m.Verbs != nil`), even
/// when empty.
impl Message for APIResource {
    fn encode_fields(&self, e: &mut WireEncoder) {
        self.name.encode_field(1, e);
        self.namespaced.encode_field(2, e);
        self.kind.encode_field(3, e);
        if let Some(verbs) = &self.verbs {
            e.message(4, |e| verbs.encode_field(1, e));
        }
        self.short_names.encode_field(5, e);
        self.singular_name.encode_field(6, e);
        self.categories.encode_field(7, e);
        self.group.encode_field(8, e);
        self.version.encode_field(9, e);
        self.storage_version_hash.encode_field(10, e);
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        d: &mut WireDecoder<'_>,
    ) -> Result<bool, ProtobufError> {
        let outcome = match number {
            1 => self
                .name
                .merge_from(wire, d)
                .map_err(|e| e.in_field("name")),
            2 => self
                .namespaced
                .merge_from(wire, d)
                .map_err(|e| e.in_field("namespaced")),
            3 => self
                .kind
                .merge_from(wire, d)
                .map_err(|e| e.in_field("kind")),
            4 => {
                // Present, even empty: not nil.
                let verbs = self.verbs.get_or_insert_with(Vec::new);
                crate::proto::merge_embedded(wire, d, |number, wire, d| {
                    if number != 1 {
                        return Ok(false);
                    }
                    verbs.merge_from(wire, d)?;
                    Ok(true)
                })
                .map_err(|e| e.in_field("verbs"))
            }
            5 => self
                .short_names
                .merge_from(wire, d)
                .map_err(|e| e.in_field("shortNames")),
            6 => self
                .singular_name
                .merge_from(wire, d)
                .map_err(|e| e.in_field("singularName")),
            7 => self
                .categories
                .merge_from(wire, d)
                .map_err(|e| e.in_field("categories")),
            8 => self
                .group
                .merge_from(wire, d)
                .map_err(|e| e.in_field("group")),
            9 => self
                .version
                .merge_from(wire, d)
                .map_err(|e| e.in_field("version")),
            10 => self
                .storage_version_hash
                .merge_from(wire, d)
                .map_err(|e| e.in_field("storageVersionHash")),
            _ => return Ok(false),
        };
        outcome.map(|()| true)
    }
}
