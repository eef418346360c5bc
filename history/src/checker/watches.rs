//! Watches and lists against the chain of versions: a watch from resourceVersion `from`
//! that delivered everything up to its horizon (its last event or bookmark) must have
//! delivered, for each object, exactly the versions of the chain in `(from, horizon]`,
//! in order, once each, with the type the write that made each calls for; a list at `L`
//! must show each object as the chain has it at `L`; a watcher resumes where it ended,
//! lists after 410 Gone, and gets as far as the run's last write.

use std::collections::{BTreeMap, BTreeSet};

use super::catalogue::{Catalogue, Entry, Versions};
use super::{Property, Violation};
use crate::record::{
    Event, EventType, FINAL, History, Key, ListResult, Request, Segment, WatchEnd, Watcher,
    WatcherStep,
};

pub(super) fn check(
    history: &History,
    cat: &Catalogue,
    keys: &BTreeSet<Key>,
    violations: &mut Vec<Violation>,
) {
    let final_lists: BTreeMap<&str, &ListResult> = history
        .lists
        .iter()
        .filter(|l| l.client == FINAL)
        .filter_map(|l| l.outcome.as_ref().ok().map(|r| (l.kind.as_str(), r)))
        .collect();
    let ctx = Context {
        history,
        cat,
        keys,
        final_lists,
    };
    for list in &history.lists {
        if let Ok(result) = &list.outcome {
            ctx.snapshot(&list.client, &list.kind, result, violations);
        }
    }
    for watcher in &history.watchers {
        ctx.watcher(watcher, violations);
    }
}

struct Context<'a> {
    history: &'a History,
    cat: &'a Catalogue,
    keys: &'a BTreeSet<Key>,
    final_lists: BTreeMap<&'a str, &'a ListResult>,
}

impl Context<'_> {
    fn watcher(&self, watcher: &Watcher, violations: &mut Vec<Violation>) {
        let who = format!("watcher {} via {}", watcher.id, watcher.server);
        // Where the next watch must start: the last list's or watch's horizon; none
        // after 410 Gone, which calls for a list.
        let mut resume: Option<u64> = None;
        let mut gone = false;
        let mut reached = 0;
        for step in &watcher.steps {
            match step {
                WatcherStep::List(list) => {
                    if let Ok(result) = &list.outcome {
                        self.snapshot(&who, &watcher.kind, result, violations);
                        resume = Some(result.rv);
                        gone = false;
                        reached = reached.max(result.rv);
                    }
                }
                WatcherStep::Watch(segment) => {
                    let problem = match resume {
                        _ if gone => {
                            Some("watched again after 410 Gone without listing".to_owned())
                        }
                        Some(rv) if rv != segment.from => Some(format!(
                            "watched from rv {} after getting as far as rv {rv}",
                            segment.from
                        )),
                        None => Some(format!(
                            "watched from rv {} without a list first",
                            segment.from
                        )),
                        Some(_) => None,
                    };
                    if let Some(problem) = problem {
                        violations.push(Violation::new(
                            Property::WatchCompleteness,
                            None,
                            format!("{who} {problem}"),
                        ));
                    }
                    self.segment(&who, &watcher.kind, segment, violations);
                    resume = Some(segment.horizon());
                    gone = segment.end == WatchEnd::Gone;
                    reached = reached.max(segment.horizon());
                }
            }
        }
        if let Some(&sentinel) = self.history.sentinels.get(&watcher.kind)
            && reached < sentinel
        {
            violations.push(Violation::new(
                Property::WatchProgress,
                None,
                format!(
                    "{who} got as far as rv {reached}, not to the run's last write of {} at rv {sentinel}",
                    watcher.kind
                ),
            ));
        }
    }

    fn segment(&self, who: &str, kind: &str, segment: &Segment, violations: &mut Vec<Violation>) {
        let who = format!("{who}, watch from rv {}", segment.from);
        let mut horizon = segment.from;
        let mut per_key: BTreeMap<&str, Vec<&Event>> = BTreeMap::new();
        let mut seen_rvs = BTreeSet::new();
        for event in &segment.events {
            let in_order = if event.event_type == EventType::Bookmark {
                event.rv >= horizon
            } else {
                event.rv > horizon
            };
            if !in_order {
                let what = if seen_rvs.contains(&event.rv) {
                    "again"
                } else {
                    "out of order"
                };
                violations.push(Violation::new(
                    Property::WatchOrder,
                    (!event.name.is_empty())
                        .then(|| Key::new(kind, &event.name))
                        .as_ref(),
                    format!(
                        "{who} delivered {:?} {} at rv {} {what}, after rv {horizon}",
                        event.event_type,
                        event.value.as_deref().unwrap_or(""),
                        event.rv
                    ),
                ));
            }
            horizon = horizon.max(event.rv);
            if event.event_type != EventType::Bookmark {
                seen_rvs.insert(event.rv);
                per_key.entry(&event.name).or_default().push(event);
            }
        }
        for key in self.keys.iter().filter(|k| k.kind == kind) {
            let events = per_key
                .get(key.name.as_str())
                .map_or(&[][..], Vec::as_slice);
            let Some(versions) = self.cat.versions(key) else {
                continue;
            };
            self.complete(
                &who,
                key,
                versions,
                segment.from,
                horizon,
                events,
                violations,
            );
            self.types(&who, key, versions, events, violations);
        }
    }

    /// The events of `key` are exactly its chain in `(from, horizon]`.
    #[allow(clippy::too_many_arguments)]
    fn complete(
        &self,
        who: &str,
        key: &Key,
        versions: &Versions,
        from: u64,
        horizon: u64,
        events: &[&Event],
        violations: &mut Vec<Violation>,
    ) {
        let delivered: BTreeSet<u64> = events.iter().map(|e| e.rv).collect();
        if horizon <= from {
            return;
        }
        let missed: Vec<String> = versions
            .by_rv
            .range(from + 1..=horizon)
            .filter(|(rv, _)| !delivered.contains(rv))
            .map(|(rv, entry)| format!("{entry} (rv {rv})"))
            .collect();
        if !missed.is_empty() {
            violations.push(Violation::new(
                Property::WatchCompleteness,
                Some(key),
                format!(
                    "{who} delivered everything up to rv {horizon} but not {}",
                    missed.join(", ")
                ),
            ));
        }
    }

    /// Each event's type is the one its write calls for, and an object's events
    /// alternate as its life does: created, modified, deleted, created again.
    fn types(
        &self,
        who: &str,
        key: &Key,
        versions: &Versions,
        events: &[&Event],
        violations: &mut Vec<Violation>,
    ) {
        let mut previous: Option<&Event> = None;
        for event in events {
            let value = event.value.as_deref().unwrap_or("");
            let problem = match event.event_type {
                EventType::Added | EventType::Modified => {
                    let creation = self.written_by_create(value);
                    let added = event.event_type == EventType::Added;
                    match (creation, added, previous.map(|p| p.event_type)) {
                        (Some(true), false, _) => Some("MODIFIED for a creation".to_owned()),
                        (Some(false), true, _) => Some("ADDED for a modification".to_owned()),
                        (_, true, Some(EventType::Added | EventType::Modified)) => Some(
                            "ADDED while the object exists: its deletion was skipped".to_owned(),
                        ),
                        (_, false, Some(EventType::Deleted)) => {
                            Some("MODIFIED after DELETED: the creation was skipped".to_owned())
                        }
                        _ => None,
                    }
                }
                EventType::Deleted => match versions.latest_at(event.rv.saturating_sub(1)) {
                    Some((_, Entry::Put(last))) if last == value => None,
                    Some((rv, entry)) => Some(format!(
                        "DELETED of {value}, but the object was {entry} (rv {rv})"
                    )),
                    None => Some(format!("DELETED of {value}, which never existed")),
                },
                EventType::Bookmark => None,
            };
            if let Some(problem) = problem {
                violations.push(Violation::new(
                    Property::WatchEventType,
                    Some(key),
                    format!("{who}: {problem} ({value} at rv {})", event.rv),
                ));
            }
            previous = Some(event);
        }
    }

    /// Whether `value` was written by a create (`None`: by no known request).
    fn written_by_create(&self, value: &str) -> Option<bool> {
        let op = &self.history.operations[*self.cat.writes.get(value)?];
        Some(matches!(op.request, Request::Create { .. }))
    }

    /// A list at `L` shows each object as the chain has it at `L`.
    fn snapshot(
        &self,
        who: &str,
        kind: &str,
        result: &ListResult,
        violations: &mut Vec<Violation>,
    ) {
        let at = result.rv;
        for key in self.keys.iter().filter(|k| k.kind == kind) {
            let Some(versions) = self.cat.versions(key) else {
                continue;
            };
            let latest = versions.latest_at(at);
            let problem = match (result.items.get(&key.name), latest) {
                (Some(seen), _) if seen.rv > at => Some(format!(
                    "shows {} at rv {}, newer than the list",
                    seen.value, seen.rv
                )),
                (Some(seen), Some((rv, entry))) if rv > seen.rv => Some(format!(
                    "shows {} at rv {}, but the object was {entry} at rv {rv}",
                    seen.value, seen.rv
                )),
                (None, Some((rv, Entry::Put(value)))) if self.present_after(key, versions, rv) => {
                    Some(format!("omits {value} (rv {rv}), which still existed"))
                }
                _ => None,
            };
            if let Some(problem) = problem {
                violations.push(Violation::new(
                    Property::ListSnapshot,
                    Some(key),
                    format!("list by {who} at rv {at} {problem}"),
                ));
            }
        }
    }

    /// Whether the object, holding its version of `rv`, is known to have existed until
    /// its next known change: that change is a modification or a deletion (not a
    /// creation, which an unseen deletion precedes), or there is none and the final
    /// list still shows it.
    fn present_after(&self, key: &Key, versions: &Versions, rv: u64) -> bool {
        match versions.by_rv.range(rv + 1..).next() {
            Some((_, Entry::Del(_))) => true,
            Some((_, Entry::Put(next))) => self.written_by_create(next) == Some(false),
            None => self
                .final_lists
                .get(key.kind.as_str())
                .and_then(|r| r.items.get(&key.name))
                .is_some_and(|seen| seen.rv == rv),
        }
    }
}
