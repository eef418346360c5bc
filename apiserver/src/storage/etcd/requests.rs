//! The parts of etcd's transactions: the compares and operations the store's writes are
//! made of.

use bytes::Bytes;

use super::Revision;
use super::generated::compare::{CompareResult, CompareTarget, TargetUnion};
use super::generated::request_op::Request as Op;
use super::generated::{Compare, DeleteRangeRequest, PutRequest, RangeRequest, RequestOp};

/// A key as etcd takes it.
pub(super) fn key_bytes(key: &str) -> Bytes {
    Bytes::copy_from_slice(key.as_bytes())
}

/// `mod_revision(key) == revision` (0 for a missing key).
pub(super) fn mod_revision_is(key: &str, revision: Revision) -> Compare {
    Compare {
        result: CompareResult::Equal as i32,
        target: CompareTarget::Mod as i32,
        key: key_bytes(key),
        target_union: Some(TargetUnion::ModRevision(revision)),
        range_end: Bytes::new(),
    }
}

/// `create_revision(key) <result> revision` (0 for a missing key).
pub(super) fn create_revision(key: &str, result: CompareResult, revision: Revision) -> Compare {
    Compare {
        result: result as i32,
        target: CompareTarget::Create as i32,
        key: key_bytes(key),
        target_union: Some(TargetUnion::CreateRevision(revision)),
        range_end: Bytes::new(),
    }
}

/// A transaction's read of `key`.
pub(super) fn get_op(key: &str) -> RequestOp {
    RequestOp {
        request: Some(Op::RequestRange(RangeRequest {
            key: key_bytes(key),
            ..Default::default()
        })),
    }
}

/// A transaction's write of `value` at `key`, answering the previous value when
/// `prev_kv`.
pub(super) fn put_op(key: &str, value: Bytes, prev_kv: bool) -> RequestOp {
    RequestOp {
        request: Some(Op::RequestPut(PutRequest {
            key: key_bytes(key),
            value,
            prev_kv,
            ..Default::default()
        })),
    }
}

/// A transaction's deletion of `key`, answering the previous value when `prev_kv`.
pub(super) fn delete_op(key: &str, prev_kv: bool) -> RequestOp {
    RequestOp {
        request: Some(Op::RequestDeleteRange(DeleteRangeRequest {
            key: key_bytes(key),
            prev_kv,
            ..Default::default()
        })),
    }
}
