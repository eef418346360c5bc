//! `flowcontrol.apiserver.k8s.io/v1` and `v1beta3` (Go's
//! `pkg/apis/flowcontrol/<version>/defaults.go`): a FlowSchema's matching precedence is
//! 1000; a limited priority level has 30 nominal concurrency shares, lends nothing and
//! queues with 64 queues, hand size 8 and 50 requests per queue; an exempt one has no
//! shares and lends nothing. `v1beta3` keeps a zero share count when the object carries
//! Go's round-trip annotation.

use apimachinery::conversion::Defaulters;

/// A FlowSchema's default matching precedence.
pub const DEFAULT_MATCHING_PRECEDENCE: i32 = 1000;
/// A limited priority level's default nominal concurrency shares.
pub const DEFAULT_NOMINAL_CONCURRENCY_SHARES: i32 = 30;
/// The annotation with which a `v1beta3` priority level keeps zero shares.
pub const PRESERVE_ZERO_CONCURRENCY_SHARES_KEY: &str =
    "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares";

macro_rules! flow_schema {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            if obj.spec.matching_precedence == 0 {
                obj.spec.matching_precedence = DEFAULT_MATCHING_PRECEDENCE;
            }
        });
    };
}

/// The queuing and lending defaults both versions share.
macro_rules! priority_level_common {
    ($spec:expr) => {{
        let spec = $spec;
        if let Some(l) = spec.limited.as_mut() {
            l.lendable_percent.get_or_insert(0);
            if let Some(q) = l.limit_response.queuing.as_mut() {
                for (field, value) in [
                    (&mut q.hand_size, 8),
                    (&mut q.queues, 64),
                    (&mut q.queue_length_limit, 50),
                ] {
                    if *field == 0 {
                        *field = value;
                    }
                }
            }
        }
        if let Some(e) = spec.exempt.as_mut() {
            e.nominal_concurrency_shares.get_or_insert(0);
            e.lendable_percent.get_or_insert(0);
        }
    }};
}

pub(super) fn register(d: &mut Defaulters) {
    use crate::flowcontrol::{v1, v1beta3};
    flow_schema!(d, v1::FlowSchema);
    flow_schema!(d, v1beta3::FlowSchema);
    d.add(|obj: &mut v1::PriorityLevelConfiguration| {
        if let Some(l) = obj.spec.limited.as_mut() {
            l.nominal_concurrency_shares
                .get_or_insert(DEFAULT_NOMINAL_CONCURRENCY_SHARES);
        }
        priority_level_common!(&mut obj.spec);
    });
    d.add(|obj: &mut v1beta3::PriorityLevelConfiguration| {
        let preserve = obj
            .metadata
            .annotations
            .contains_key(PRESERVE_ZERO_CONCURRENCY_SHARES_KEY);
        if let Some(l) = obj.spec.limited.as_mut() {
            if !preserve && l.nominal_concurrency_shares == 0 {
                l.nominal_concurrency_shares = DEFAULT_NOMINAL_CONCURRENCY_SHARES;
            }
        }
        priority_level_common!(&mut obj.spec);
    });
}
