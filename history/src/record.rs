//! What a run recorded: every request a client sent and what it was told, every list
//! and every watch event delivered, each with its times on the one monotonic clock all
//! clients share. Plain data, serializable, so that a long run's history is kept as JSON
//! and can be checked again, and so that the checker's tests write histories by hand.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Nanoseconds since the run started, on the monotonic clock every client reads.
pub type Nanos = u64;

/// One object of the run: its resource (`configmaps`, or the custom resource's plural)
/// and its name, in the run's namespace.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Key {
    /// The resource, as in the URL: `configmaps`, `probes`.
    pub kind: String,
    /// `metadata.name`.
    pub name: String,
}

impl Key {
    /// The key of `name` of the resource `kind`.
    pub fn new(kind: &str, name: &str) -> Key {
        Key {
            kind: kind.to_owned(),
            name: name.to_owned(),
        }
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.kind, self.name)
    }
}

/// What a client asked for. Every write carries a value no other write carries, so a
/// state seen anywhere names the one write that made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// POST of a new object holding `value`.
    Create {
        /// The value written.
        value: String,
    },
    /// PUT with `metadata.resourceVersion` set to `precondition`.
    Update {
        /// The value written.
        value: String,
        /// The resourceVersion the object must still have.
        precondition: u64,
    },
    /// A JSON merge patch of the value alone, without a precondition.
    Patch {
        /// The value written.
        value: String,
    },
    /// DELETE, with `preconditions.resourceVersion` when given.
    Delete {
        /// The resourceVersion the object must still have.
        precondition: Option<u64>,
    },
    /// GET (a quorum read: no `resourceVersion` parameter).
    Get,
}

impl Request {
    /// The value this request writes, if it writes one.
    pub fn written_value(&self) -> Option<&str> {
        match self {
            Request::Create { value }
            | Request::Update { value, .. }
            | Request::Patch { value } => Some(value),
            Request::Delete { .. } | Request::Get => None,
        }
    }
}

/// A state of an object as the server showed it: its value and resourceVersion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// The value the object held.
    pub value: String,
    /// `metadata.resourceVersion`, as a number.
    pub rv: u64,
}

/// What a client was told.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// A 2xx answer; the object in it, when it carried one (a DELETE may answer with a
    /// `Status`).
    Ok {
        /// The object answered.
        object: Option<Seen>,
    },
    /// 404 NotFound.
    NotFound,
    /// 409: AlreadyExists for a create, Conflict for a failed precondition.
    Conflict,
    /// Certainly not applied: refused before anything was sent (no connection), or
    /// rejected before storage (400, 401, 403, 422, 429).
    Rejected {
        /// What happened.
        reason: String,
    },
    /// May or may not have happened, now or later: a timeout, a connection lost after
    /// the request was sent, a 5xx.
    Indeterminate {
        /// What happened.
        reason: String,
    },
}

/// One request and its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operation {
    /// The client (one request at a time each).
    pub client: usize,
    /// The server it was sent to.
    pub server: String,
    /// The object.
    pub key: Key,
    /// What was asked.
    pub request: Request,
    /// When it was sent.
    pub invoked: Nanos,
    /// When the answer was read (or the client gave up).
    pub completed: Nanos,
    /// What the client was told.
    pub outcome: Outcome,
}

/// The `client` of the lists made at the end of a run, once every fault is healed: the
/// final state, which every acknowledged write must be in.
pub const FINAL: &str = "final";

/// A LIST of one resource in the run's namespace (a quorum read).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct List {
    /// Who listed (`client 3`, `watcher 1`, `final`).
    pub client: String,
    /// The server it was sent to.
    pub server: String,
    /// The resource listed.
    pub kind: String,
    /// When it was sent.
    pub invoked: Nanos,
    /// When the answer was read.
    pub completed: Nanos,
    /// The list's resourceVersion and items (by name), or why there is none.
    pub outcome: Result<ListResult, String>,
}

/// A list's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListResult {
    /// The list's `metadata.resourceVersion`.
    pub rv: u64,
    /// Every object listed, by name.
    pub items: BTreeMap<String, Seen>,
}

/// What a watch event said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventType {
    /// ADDED.
    Added,
    /// MODIFIED.
    Modified,
    /// DELETED (the object as it was, at the deletion's resourceVersion).
    Deleted,
    /// BOOKMARK: everything up to `rv` has been sent.
    Bookmark,
}

/// One watch event, as delivered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// When it was read.
    pub at: Nanos,
    /// Its type.
    pub event_type: EventType,
    /// The object's name (empty for a bookmark).
    pub name: String,
    /// The object's value (none for a bookmark).
    pub value: Option<String>,
    /// The object's resourceVersion.
    pub rv: u64,
}

/// How a watch ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WatchEnd {
    /// 410 Gone (as the answer, or as an ERROR event): the client must list again.
    Gone,
    /// The server ended the stream (its timeout, or it went away cleanly).
    Closed,
    /// The stream failed (reset, refused, an ERROR other than 410, the client's idle
    /// limit).
    Failed {
        /// What happened.
        reason: String,
    },
    /// The harness stopped watching.
    Stopped,
}

/// One watch request from `from`, and what it delivered until it ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// The `resourceVersion` parameter.
    pub from: u64,
    /// When the request was sent.
    pub started: Nanos,
    /// Every event delivered, in order.
    pub events: Vec<Event>,
    /// How it ended.
    pub end: WatchEnd,
    /// When it ended.
    pub ended: Nanos,
}

impl Segment {
    /// The highest resourceVersion the watch is known to have delivered everything up
    /// to: its last event's or bookmark's, or where it started.
    pub fn horizon(&self) -> u64 {
        self.events.iter().map(|e| e.rv).fold(self.from, u64::max)
    }
}

/// What a watcher did, in order: it lists, watches from the list's resourceVersion,
/// watches again from where a watch ended, and lists again after 410 Gone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WatcherStep {
    /// A (re)list.
    List(List),
    /// A watch request.
    Watch(Segment),
}

/// One watcher: one resource in the run's namespace, through one server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Watcher {
    /// Its number.
    pub id: usize,
    /// The server it watched through.
    pub server: String,
    /// The resource watched.
    pub kind: String,
    /// What it did.
    pub steps: Vec<WatcherStep>,
}

/// A fault the harness injected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultRecord {
    /// What (`etcd-kill`, `partition b`, ...).
    pub fault: String,
    /// When it was injected.
    pub started: Nanos,
    /// When it was healed.
    pub ended: Nanos,
}

/// Everything a run recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    /// Every write and read of a single object.
    pub operations: Vec<Operation>,
    /// Lists outside the watchers (the final lists among them).
    pub lists: Vec<List>,
    /// Every watcher.
    pub watchers: Vec<Watcher>,
    /// The faults injected.
    pub faults: Vec<FaultRecord>,
    /// Per resource, the resourceVersion of the last write of the run, made after every
    /// fault was healed: every watcher of the resource must get this far.
    pub sentinels: BTreeMap<String, u64>,
}

impl History {
    /// Every list: the history's own and the watchers'.
    pub fn all_lists(&self) -> impl Iterator<Item = &List> {
        self.lists.iter().chain(self.watchers.iter().flat_map(|w| {
            w.steps.iter().filter_map(|s| match s {
                WatcherStep::List(list) => Some(list),
                WatcherStep::Watch(_) => None,
            })
        }))
    }
}
