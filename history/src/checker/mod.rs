//! The checker: what Kubernetes promises every client, verified on a recorded
//! [`History`].
//!
//! Per object:
//! - **consistency**: every value has one resourceVersion, every resourceVersion is one
//!   state of one object ([`catalogue`]);
//! - **no phantoms**: every state anyone saw was written by a request that did not
//!   certainly fail, and was not seen before it was sent;
//! - **linearizability**: the writes and reads (gets and lists are quorum reads) fit one
//!   order consistent with real time and with a single copy of the object, where a
//!   resourceVersion precondition either wins or is refused with 409
//!   ([`linearizability`]); requests whose outcome is unknown may or may not have
//!   happened;
//! - **durability**: every acknowledged write is in the final state, or was overwritten
//!   or deleted after it;
//! - **watches**: every watch from a resourceVersion delivered, per object, exactly the
//!   changes after it, in resourceVersion order, each once, of the right type — or ended
//!   with 410 Gone, after which the watcher's list shows a state consistent with the
//!   history ([`watches`]); and every watcher got as far as the run's last write.

mod catalogue;
mod linearizability;
mod objects;
mod watches;

use std::collections::BTreeSet;

use serde::Serialize;

use crate::record::{History, Key, Outcome, WatchEnd, WatcherStep};

/// The property a violation breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Property {
    /// One value, one resourceVersion; one resourceVersion, one state of one object.
    Consistency,
    /// A state seen that no request which may have succeeded wrote.
    Phantom,
    /// The operations on one object fit no order consistent with real time.
    Linearizability,
    /// An acknowledged write is missing from the final state.
    Durability,
    /// A watch delivered events out of resourceVersion order, or one twice.
    WatchOrder,
    /// A watch skipped a change after its start, or resumed elsewhere than it ended.
    WatchCompleteness,
    /// A watch event of the wrong type (ADDED for a modification, ...).
    WatchEventType,
    /// A list (a watcher's relist) that is not the state at its resourceVersion.
    ListSnapshot,
    /// A watcher never got as far as the run's last write.
    WatchProgress,
}

/// One broken promise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// What was broken.
    pub property: Property,
    /// The object, when one.
    pub key: Option<Key>,
    /// What was seen.
    pub detail: String,
}

impl Violation {
    fn new(property: Property, key: Option<&Key>, detail: String) -> Violation {
        Violation {
            property,
            key: key.cloned(),
            detail,
        }
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.key {
            Some(key) => write!(f, "{:?} of {key}: {}", self.property, self.detail),
            None => write!(f, "{:?}: {}", self.property, self.detail),
        }
    }
}

/// The checker's findings, with the history's counts.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// Objects checked.
    pub objects: usize,
    /// Requests on single objects.
    pub operations: usize,
    /// Of them, answered 2xx.
    pub acknowledged: usize,
    /// Of them, of unknown outcome.
    pub indeterminate: usize,
    /// Lists (final lists and watchers' lists included).
    pub lists: usize,
    /// Watch events delivered (bookmarks included).
    pub events: usize,
    /// Watch requests.
    pub watches: usize,
    /// Watches that ended with 410 Gone.
    pub gone: usize,
    /// Faults injected.
    pub faults: usize,
    /// Objects whose linearizability search ran out of budget.
    pub undecided: Vec<Key>,
    /// Every broken promise.
    pub violations: Vec<Violation>,
}

impl Report {
    /// Whether every property held and every search finished.
    pub fn passed(&self) -> bool {
        self.violations.is_empty() && self.undecided.is_empty()
    }

    /// The properties broken, each once.
    pub fn properties(&self) -> BTreeSet<Property> {
        self.violations.iter().map(|v| v.property).collect()
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} objects, {} operations ({} acknowledged, {} indeterminate), {} lists, {} watches \
             ({} ended 410 Gone), {} events, {} faults: {} violations{}",
            self.objects,
            self.operations,
            self.acknowledged,
            self.indeterminate,
            self.lists,
            self.watches,
            self.gone,
            self.events,
            self.faults,
            self.violations.len(),
            if self.undecided.is_empty() {
                String::new()
            } else {
                format!(", {} objects undecided", self.undecided.len())
            }
        )?;
        for v in &self.violations {
            writeln!(f, "  {v}")?;
        }
        Ok(())
    }
}

/// How many steps the search of one object may take before it is undecided.
pub const SEARCH_BUDGET: u64 = 20_000_000;

/// Checks every property of `history`.
pub fn check(history: &History) -> Report {
    check_with_budget(history, SEARCH_BUDGET)
}

/// [`check`], with the search of each object limited to `budget` steps.
pub fn check_with_budget(history: &History, budget: u64) -> Report {
    let mut report = counts(history);
    let cat = catalogue::build(history, &mut report.violations);
    let keys = objects::keys(history);
    report.objects = keys.len();
    for key in &keys {
        objects::check_object(history, &cat, key, budget, &mut report);
    }
    objects::durability(history, &cat, &keys, &mut report.violations);
    watches::check(history, &cat, &keys, &mut report.violations);
    report
}

fn counts(history: &History) -> Report {
    let mut report = Report {
        operations: history.operations.len(),
        faults: history.faults.len(),
        lists: history.lists.len(),
        ..Report::default()
    };
    for op in &history.operations {
        match op.outcome {
            Outcome::Ok { .. } => report.acknowledged += 1,
            Outcome::Indeterminate { .. } => report.indeterminate += 1,
            _ => {}
        }
    }
    for step in history.watchers.iter().flat_map(|w| &w.steps) {
        match step {
            WatcherStep::List(_) => report.lists += 1,
            WatcherStep::Watch(segment) => {
                report.watches += 1;
                report.events += segment.events.len();
                if segment.end == WatchEnd::Gone {
                    report.gone += 1;
                }
            }
        }
    }
    report
}
