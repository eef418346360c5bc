//! Per object: its operations turned into the search's terms (what each needs, what it
//! does), the search run, and the final state compared with the acknowledged writes.

use std::collections::BTreeSet;

use super::catalogue::{Catalogue, Versions};
use super::linearizability::{self, Effect, Interner, Op, Require, Verdict};
use super::{Property, Report, Violation};
use crate::record::{FINAL, History, Key, Operation, Outcome, Request, WatcherStep};

/// Every object the history mentions.
pub(super) fn keys(history: &History) -> BTreeSet<Key> {
    let mut keys: BTreeSet<Key> = history.operations.iter().map(|o| o.key.clone()).collect();
    for list in history.all_lists() {
        if let Ok(result) = &list.outcome {
            keys.extend(result.items.keys().map(|name| Key::new(&list.kind, name)));
        }
    }
    for watcher in &history.watchers {
        for step in &watcher.steps {
            if let WatcherStep::Watch(segment) = step {
                keys.extend(
                    segment
                        .events
                        .iter()
                        .filter(|e| !e.name.is_empty())
                        .map(|e| Key::new(&watcher.kind, &e.name)),
                );
            }
        }
    }
    keys
}

/// Searches `key`'s history for a linearization; a failure that only the final lists
/// cause is a durability violation.
pub(super) fn check_object(
    history: &History,
    cat: &Catalogue,
    key: &Key,
    budget: u64,
    report: &mut Report,
) {
    let versions = cat.versions(key);
    let mut names = Interner::default();
    if let Some(v) = versions {
        for (value, rv) in &v.del_rv {
            names.deleted(value, *rv);
        }
    }
    let mut ops = Vec::new();
    for (index, op) in history.operations.iter().enumerate() {
        if op.key == *key
            && let Some(search_op) = search_op(index, op, versions, &mut names)
        {
            ops.push(search_op);
        }
    }
    let mut finals = BTreeSet::new();
    for list in history.all_lists().filter(|l| l.kind == key.kind) {
        let Ok(result) = &list.outcome else { continue };
        let (require, shown) = match result.items.get(&key.name) {
            Some(seen) => (Require::Is(names.id(&seen.value)), seen.value.as_str()),
            None => (Require::Absent, "absent"),
        };
        let op = Op {
            invoked: list.invoked,
            completed: Some(list.completed),
            require,
            effect: Effect::None,
            label: format!(
                "list by {} via {} at rv {}: {shown}",
                list.client, list.server, result.rv
            ),
        };
        if list.client == FINAL {
            finals.insert(ops.len());
        }
        ops.push(op);
    }
    match linearizability::search(&ops, &names, budget) {
        Verdict::Linearizable => {}
        Verdict::Undecided => report.undecided.push(key.clone()),
        Verdict::Violation(detail) => {
            // Without the final lists, a history that is linearizable lost a write.
            let property = if finals.is_empty() {
                Property::Linearizability
            } else {
                let rest: Vec<Op> = ops
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !finals.contains(i))
                    .map(|(_, op)| op.clone())
                    .collect();
                match linearizability::search(&rest, &names, budget) {
                    Verdict::Linearizable => Property::Durability,
                    _ => Property::Linearizability,
                }
            };
            report
                .violations
                .push(Violation::new(property, Some(key), detail));
        }
    }
}

/// One operation in the search's terms; `None` for one that says nothing (a refused
/// request, a read without an answer).
fn search_op(
    index: usize,
    op: &Operation,
    versions: Option<&Versions>,
    names: &mut Interner,
) -> Option<Op> {
    // The value the object had at a precondition's resourceVersion.
    let at = |names: &mut Interner, rv: u64| {
        versions
            .and_then(|v| v.value_at(rv))
            .map(|value| names.id(value))
    };
    let put_rv = |value: &str| versions.and_then(|v| v.put_rv.get(value).copied());
    // The id of a value written: its own when anyone saw it, the shared unseen one else.
    let written = |names: &mut Interner, value: &str| match put_rv(value) {
        Some(_) => names.id(value),
        None => names.unseen(),
    };
    let (require, effect) = match (&op.request, &op.outcome) {
        (_, Outcome::Rejected { .. }) | (Request::Get, Outcome::Indeterminate { .. }) => {
            return None;
        }
        (Request::Get, Outcome::Ok { object: Some(seen) }) => {
            (Require::Is(names.id(&seen.value)), Effect::None)
        }
        (Request::Get, Outcome::NotFound) => (Require::Absent, Effect::None),
        (Request::Create { value }, Outcome::Ok { object }) => {
            let rv = put_rv(value).or(object.as_ref().map(|o| o.rv));
            (Require::Absent, Effect::Put(written(names, value), rv))
        }
        (Request::Create { value }, Outcome::Indeterminate { .. }) => (
            Require::Absent,
            Effect::Put(written(names, value), put_rv(value)),
        ),
        (Request::Create { .. }, Outcome::Conflict) => (Require::Present, Effect::None),
        (
            Request::Update {
                value,
                precondition,
            },
            Outcome::Ok { object },
        ) => {
            let rv = put_rv(value).or(object.as_ref().map(|o| o.rv));
            let require = at(names, *precondition).map_or(Require::Never, Require::Is);
            (require, Effect::Put(written(names, value), rv))
        }
        (
            Request::Update {
                value,
                precondition,
            },
            Outcome::Indeterminate { .. },
        ) => {
            let require = at(names, *precondition).map_or(Require::Never, Require::Is);
            (require, Effect::Put(written(names, value), put_rv(value)))
        }
        (Request::Update { precondition, .. }, Outcome::Conflict) => (
            at(names, *precondition).map_or(Require::Present, Require::PresentNot),
            Effect::None,
        ),
        (Request::Patch { value }, Outcome::Ok { object }) => {
            let rv = put_rv(value).or(object.as_ref().map(|o| o.rv));
            (Require::Present, Effect::Put(written(names, value), rv))
        }
        (Request::Patch { value }, Outcome::Indeterminate { .. }) => (
            Require::Present,
            Effect::Put(written(names, value), put_rv(value)),
        ),
        (
            Request::Update { .. } | Request::Patch { .. } | Request::Delete { .. },
            Outcome::NotFound,
        ) => (Require::Absent, Effect::None),
        (Request::Delete { precondition }, Outcome::Ok { object }) => {
            let by_precondition =
                precondition.map(|p| at(names, p).map_or(Require::Never, Require::Is));
            let by_answer = object.as_ref().map(|o| Require::Is(names.id(&o.value)));
            let require = match (by_precondition, by_answer) {
                (Some(a), Some(b)) if a != b => Require::Never,
                (Some(a), _) | (None, Some(a)) => a,
                (None, None) => Require::Present,
            };
            (require, Effect::Delete)
        }
        (Request::Delete { precondition }, Outcome::Indeterminate { .. }) => {
            let require = match precondition {
                Some(p) => at(names, *p).map_or(Require::Never, Require::Is),
                None => Require::Present,
            };
            (require, Effect::Delete)
        }
        (
            Request::Delete {
                precondition: Some(p),
            },
            Outcome::Conflict,
        ) => (
            at(names, *p).map_or(Require::Present, Require::PresentNot),
            Effect::None,
        ),
        // What says nothing of the object: a patch or an unconditional delete answered
        // 409 (the server gave up retrying), a get or create answered oddly.
        _ => return None,
    };
    let completed = match (&op.outcome, op.request.written_value()) {
        (Outcome::Indeterminate { .. }, Some(value)) => {
            // Seen somewhere: it happened, before it was first seen.
            versions.and_then(|v| v.first_seen.get(value).copied())
        }
        (Outcome::Indeterminate { .. }, None) => None,
        _ => Some(op.completed),
    };
    Some(Op {
        invoked: op.invoked,
        completed,
        require,
        effect,
        label: label(index, op),
    })
}

/// How reports name an operation: `#12 update v=c1-7 if rv 40 by client 1 via a → 409`.
pub(super) fn label(index: usize, op: &Operation) -> String {
    let request = match &op.request {
        Request::Create { value } => format!("create {value}"),
        Request::Update {
            value,
            precondition,
        } => format!("update to {value} if rv {precondition}"),
        Request::Patch { value } => format!("patch to {value}"),
        Request::Delete {
            precondition: Some(p),
        } => format!("delete if rv {p}"),
        Request::Delete { precondition: None } => "delete".to_owned(),
        Request::Get => "get".to_owned(),
    };
    let outcome = match &op.outcome {
        Outcome::Ok { object: Some(seen) } => format!("{} at rv {}", seen.value, seen.rv),
        Outcome::Ok { object: None } => "ok".to_owned(),
        Outcome::NotFound => "404".to_owned(),
        Outcome::Conflict => "409".to_owned(),
        Outcome::Rejected { reason } => format!("rejected ({reason})"),
        Outcome::Indeterminate { reason } => format!("unknown ({reason})"),
    };
    format!(
        "#{index} {request} by client {} via {} → {outcome}",
        op.client, op.server
    )
}

/// Every acknowledged write is in the final state, or something after it replaced or
/// deleted it.
pub(super) fn durability(
    history: &History,
    cat: &Catalogue,
    keys: &BTreeSet<Key>,
    violations: &mut Vec<Violation>,
) {
    for key in keys {
        let Some(last) = history
            .lists
            .iter()
            .filter(|l| l.client == FINAL && l.kind == key.kind)
            .filter_map(|l| l.outcome.as_ref().ok().map(|r| (l.completed, r)))
            .max_by_key(|(completed, _)| *completed)
            .map(|(_, r)| r)
        else {
            continue;
        };
        let final_state = last.items.get(&key.name);
        let versions = cat.versions(key);
        let mut lost = Vec::new();
        for (index, op) in history.operations.iter().enumerate() {
            let (Some(value), Outcome::Ok { object }) = (op.request.written_value(), &op.outcome)
            else {
                continue;
            };
            if op.key != *key {
                continue;
            }
            let Some(rv) = versions
                .and_then(|v| v.put_rv.get(value).copied())
                .or(object.as_ref().map(|o| o.rv))
            else {
                continue;
            };
            let survives = match final_state {
                Some(now) => now.rv > rv || (now.rv == rv && now.value == value),
                // Absent: a delete that may have come after it must exist.
                None => history.operations.iter().any(|d| {
                    d.key == *key
                        && matches!(d.request, Request::Delete { .. })
                        && match d.outcome {
                            Outcome::Ok { .. } => d.completed >= op.invoked,
                            Outcome::Indeterminate { .. } => true,
                            _ => false,
                        }
                }),
            };
            if !survives {
                lost.push(format!("{} ({value} at rv {rv})", label(index, op)));
            }
        }
        if let Some(latest) = lost.last() {
            let now = match final_state {
                Some(seen) => format!("{} at rv {}", seen.value, seen.rv),
                None => format!("absent at rv {}", last.rv),
            };
            violations.push(Violation::new(
                Property::Durability,
                Some(key),
                format!(
                    "{} acknowledged writes are not in the final state ({now}); the latest: {latest}",
                    lost.len()
                ),
            ));
        }
    }
}
