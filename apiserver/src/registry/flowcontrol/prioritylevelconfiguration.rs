//! PriorityLevelConfigurations (Go's `pkg/registry/flowcontrol/prioritylevelconfiguration`):
//! the generic strategy, and the table `kubectl get prioritylevelconfigurations` prints
//! (Go's `printPriorityLevelConfiguration`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, int, string_column, text};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `priorityLevelColumnDefinitions` (string columns holding integers, as Go's).
pub const COLUMNS: [Column; 7] = [
    NAME,
    string_column(
        "Type",
        "`type` indicates whether this priority level is subject to limitation on request execution.  A value of `\"Exempt\"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `\"Limited\"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server's limited capacity is made available exclusively to this priority level. Required.",
        0,
    ),
    string_column(
        "NominalConcurrencyShares",
        "`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server's concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a \"jail\" for this priority level that is used to hold some request(s)",
        0,
    ),
    string_column(
        "Queues",
        "`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.",
        0,
    ),
    string_column(
        "HandSize",
        "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.",
        0,
    ),
    string_column(
        "QueueLengthLimit",
        "`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.",
        0,
    ),
    AGE,
];

/// The PriorityLevelConfigurations' table convertor.
pub static PRIORITY_LEVEL_CONFIGURATION_TABLE: Printer = Printer {
    api_version: "flowcontrol.apiserver.k8s.io/v1",
    kind: "PriorityLevelConfiguration",
    columns: &COLUMNS,
    print: print_priority_level_configuration,
};

/// Go's `printPriorityLevelConfiguration`: name, type, and of a limited level its
/// nominal concurrency shares and of its queuing the queues, hand size and queue length
/// limit (integers; `<none>` for an exempt level, or one that rejects), age.
pub fn print_priority_level_configuration(obj: &Value) -> Row {
    let none = || Value::from("<none>");
    let (mut shares, mut queues, mut hand_size, mut limit) = (none(), none(), none(), none());
    if let Some(limited) = obj.pointer("/spec/limited").filter(|l| !l.is_null()) {
        shares = Value::from(int(limited, "/nominalConcurrencyShares"));
        if let Some(queuing) = limited
            .pointer("/limitResponse/queuing")
            .filter(|q| !q.is_null())
        {
            queues = Value::from(int(queuing, "/queues"));
            hand_size = Value::from(int(queuing, "/handSize"));
            limit = Value::from(int(queuing, "/queueLengthLimit"));
        }
    }
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/spec/type")),
        shares,
        queues,
        hand_size,
        limit,
        printers::age(obj),
    ])
}

/// The PriorityLevelConfigurations' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::default(),
        Arc::new(PRIORITY_LEVEL_CONFIGURATION_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintPriorityLevelConfiguration` cases.
    #[test]
    fn levels_print_their_shares_and_queuing() {
        let exempt = json!({"metadata": {"name": "unlimited"}, "spec": {"type": "Exempt"}});
        assert_eq!(
            print_priority_level_configuration(&exempt).cells[..6],
            [
                json!("unlimited"),
                json!("Exempt"),
                json!("<none>"),
                json!("<none>"),
                json!("<none>"),
                json!("<none>")
            ]
        );
        let rejecting = json!({"metadata": {"name": "unqueued"}, "spec": {"type": "Limited",
            "limited": {"nominalConcurrencyShares": 47, "limitResponse": {"type": "Reject"}}}});
        assert_eq!(
            print_priority_level_configuration(&rejecting).cells[2..6],
            [json!(47), json!("<none>"), json!("<none>"), json!("<none>")]
        );
        let queuing = json!({"metadata": {"name": "queued"}, "spec": {"type": "Limited",
            "limited": {"nominalConcurrencyShares": 42, "limitResponse": {"type": "Queue",
                "queuing": {"queues": 8, "handSize": 3, "queueLengthLimit": 4}}}}});
        assert_eq!(
            print_priority_level_configuration(&queuing).cells[2..6],
            [json!(42), json!(8), json!(3), json!(4)]
        );
    }
}
