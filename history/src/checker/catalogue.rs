//! Every state of every object that anyone was shown — in an answer, a list, a watch
//! event — placed by its resourceVersion: per object, the chain of versions the other
//! checks measure against. Building it checks what needs no search: one value has one
//! resourceVersion, one resourceVersion is one state, and every state seen was written
//! by a request that did not certainly fail (no phantoms).

use std::collections::{BTreeMap, HashMap};

use super::{Property, Violation};
use crate::record::{EventType, History, Key, Nanos, Outcome, Request, WatcherStep};

/// One place in an object's chain of versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// The object held this value from this resourceVersion on.
    Put(String),
    /// The object holding this value was deleted at this resourceVersion.
    Del(String),
}

impl std::fmt::Display for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Entry::Put(value) => write!(f, "{value}"),
            Entry::Del(value) => write!(f, "the deletion of {value}"),
        }
    }
}

/// What is known of one object's versions.
#[derive(Debug, Default)]
pub(crate) struct Versions {
    /// The chain: each known resourceVersion and what it was.
    pub by_rv: BTreeMap<u64, Entry>,
    /// The resourceVersion of each value.
    pub put_rv: HashMap<String, u64>,
    /// The resourceVersion of the deletion of each value, when someone saw it.
    pub del_rv: HashMap<String, u64>,
    /// The earliest time each value was seen (an answer read, an event delivered).
    pub first_seen: HashMap<String, Nanos>,
    /// Who first told each resourceVersion, for the reports.
    source: HashMap<u64, String>,
}

impl Versions {
    /// The value the object had at exactly `rv`, if `rv` is a known version of it.
    pub fn value_at(&self, rv: u64) -> Option<&str> {
        match self.by_rv.get(&rv) {
            Some(Entry::Put(value)) => Some(value),
            _ => None,
        }
    }

    /// The last known entry at or before `rv`.
    pub fn latest_at(&self, rv: u64) -> Option<(u64, &Entry)> {
        self.by_rv.range(..=rv).next_back().map(|(r, e)| (*r, e))
    }
}

/// The versions of every object, and which request wrote each value.
#[derive(Debug, Default)]
pub(crate) struct Catalogue {
    /// Per object.
    pub keys: BTreeMap<Key, Versions>,
    /// The operation (index into the history's operations) that wrote each value.
    pub writes: HashMap<String, usize>,
}

impl Catalogue {
    /// The versions of `key` (none known: an empty chain).
    pub fn versions(&self, key: &Key) -> Option<&Versions> {
        self.keys.get(key)
    }
}

/// Builds the catalogue of `history`, adding what it contradicts to `violations`.
pub(crate) fn build(history: &History, violations: &mut Vec<Violation>) -> Catalogue {
    let mut cat = Catalogue::default();
    for (index, op) in history.operations.iter().enumerate() {
        if let Some(value) = op.request.written_value()
            && let Some(previous) = cat.writes.insert(value.to_owned(), index)
        {
            violations.push(Violation::new(
                Property::Consistency,
                Some(&op.key),
                format!(
                    "the history is malformed: operations {previous} and {index} both write {value}"
                ),
            ));
        }
    }
    let mut builder = Builder {
        cat,
        rv_owner: HashMap::new(),
        violations,
    };
    // Values first, then deletions: a deletion is told apart from its value's own
    // version by the resourceVersion, which needs the value's known.
    for (index, op) in history.operations.iter().enumerate() {
        if let (Outcome::Ok { object: Some(seen) }, false) =
            (&op.outcome, matches!(op.request, Request::Delete { .. }))
        {
            builder.put(
                &op.key,
                &seen.value,
                seen.rv,
                op.completed,
                &format!("the answer to operation {index}"),
            );
        }
    }
    for list in history.all_lists() {
        if let Ok(result) = &list.outcome {
            for (name, seen) in &result.items {
                let key = Key::new(&list.kind, name);
                let source = format!("a list by {} at rv {}", list.client, result.rv);
                builder.put(&key, &seen.value, seen.rv, list.completed, &source);
            }
        }
    }
    for watcher in &history.watchers {
        for step in &watcher.steps {
            let WatcherStep::Watch(segment) = step else {
                continue;
            };
            for event in &segment.events {
                let (Some(value), false) = (&event.value, event.name.is_empty()) else {
                    continue;
                };
                let key = Key::new(&watcher.kind, &event.name);
                let source = format!("watcher {}", watcher.id);
                match event.event_type {
                    EventType::Added | EventType::Modified => {
                        builder.put(&key, value, event.rv, event.at, &source);
                    }
                    EventType::Deleted => builder.delete(&key, value, event.rv, &source),
                    EventType::Bookmark => {}
                }
            }
        }
    }
    for (index, op) in history.operations.iter().enumerate() {
        if let (Outcome::Ok { object: Some(seen) }, Request::Delete { .. }) =
            (&op.outcome, &op.request)
        {
            let own = builder
                .cat
                .keys
                .get(&op.key)
                .and_then(|v| v.put_rv.get(&seen.value))
                .copied();
            // Answered with the object at its own version: no deletion revision told.
            if own != Some(seen.rv) {
                let source = format!("the answer to delete {index}");
                builder.delete(&op.key, &seen.value, seen.rv, &source);
            }
        }
    }
    let Builder { cat, .. } = builder;
    phantoms(history, &cat, violations);
    cat
}

struct Builder<'a> {
    cat: Catalogue,
    /// Which object each resourceVersion belongs to: a revision is one write.
    rv_owner: HashMap<u64, Key>,
    violations: &'a mut Vec<Violation>,
}

impl Builder<'_> {
    fn put(&mut self, key: &Key, value: &str, rv: u64, at: Nanos, source: &str) {
        let versions = self.cat.keys.entry(key.clone()).or_default();
        let first = versions.first_seen.entry(value.to_owned()).or_insert(at);
        *first = (*first).min(at);
        self.add(key, Entry::Put(value.to_owned()), rv, source);
    }

    fn delete(&mut self, key: &Key, value: &str, rv: u64, source: &str) {
        self.add(key, Entry::Del(value.to_owned()), rv, source);
    }

    /// Places `entry` at `rv` in `key`'s chain, unless its value (or the value's
    /// deletion) is known at another resourceVersion.
    fn add(&mut self, key: &Key, entry: Entry, rv: u64, source: &str) {
        self.owner(key, rv, source);
        let versions = self.cat.keys.entry(key.clone()).or_default();
        let (known_at, value) = match &entry {
            Entry::Put(value) => (&mut versions.put_rv, value),
            Entry::Del(value) => (&mut versions.del_rv, value),
        };
        match known_at.get(value) {
            Some(&known) if known != rv => {
                let told = versions.source.get(&known).cloned().unwrap_or_default();
                self.violations.push(Violation::new(
                    Property::Consistency,
                    Some(key),
                    format!("{entry} has resourceVersion {known} ({told}) and {rv} ({source})"),
                ));
                return;
            }
            Some(_) => {}
            None => {
                known_at.insert(value.clone(), rv);
            }
        }
        place(versions, key, rv, entry, source, self.violations);
    }

    fn owner(&mut self, key: &Key, rv: u64, source: &str) {
        let owner = self.rv_owner.entry(rv).or_insert_with(|| key.clone());
        if owner != key {
            self.violations.push(Violation::new(
                Property::Consistency,
                Some(key),
                format!("resourceVersion {rv} ({source}) is also a version of {owner}"),
            ));
        }
    }
}

fn place(
    versions: &mut Versions,
    key: &Key,
    rv: u64,
    entry: Entry,
    source: &str,
    violations: &mut Vec<Violation>,
) {
    match versions.by_rv.get(&rv) {
        Some(known) if *known != entry => {
            let told = versions.source.get(&rv).cloned().unwrap_or_default();
            violations.push(Violation::new(
                Property::Consistency,
                Some(key),
                format!("resourceVersion {rv} is {known} ({told}) and {entry} ({source})"),
            ));
        }
        Some(_) => {}
        None => {
            versions.by_rv.insert(rv, entry);
            versions.source.insert(rv, source.to_owned());
        }
    }
}

/// Every value seen must have been written, to that object, by a request that did not
/// certainly fail, and not seen before it was sent.
fn phantoms(history: &History, cat: &Catalogue, violations: &mut Vec<Violation>) {
    for (key, versions) in &cat.keys {
        let mut values: Vec<_> = versions.put_rv.iter().collect();
        values.sort_by_key(|(_, rv)| **rv);
        for (value, rv) in values {
            let Some(op) = cat.writes.get(value).map(|&i| &history.operations[i]) else {
                violations.push(Violation::new(
                    Property::Phantom,
                    Some(key),
                    format!("{value} (rv {rv}) was never written"),
                ));
                continue;
            };
            let why = if op.key != *key {
                Some(format!("was written to {}", op.key))
            } else {
                match &op.outcome {
                    Outcome::NotFound => Some("was written by a request answered 404".to_owned()),
                    Outcome::Conflict => Some("was written by a request answered 409".to_owned()),
                    Outcome::Rejected { reason } => {
                        Some(format!("was written by a request never applied ({reason})"))
                    }
                    Outcome::Ok { .. } | Outcome::Indeterminate { .. } => None,
                }
            };
            if let Some(why) = why {
                violations.push(Violation::new(
                    Property::Phantom,
                    Some(key),
                    format!("{value} (rv {rv}) {why}"),
                ));
            }
            if let Some(&seen) = versions.first_seen.get(value)
                && seen < op.invoked
            {
                violations.push(Violation::new(
                    Property::Phantom,
                    Some(key),
                    format!(
                        "{value} (rv {rv}) was seen at {seen} ns, before it was sent at {} ns",
                        op.invoked
                    ),
                ));
            }
        }
    }
}
