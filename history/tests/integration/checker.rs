//! The checker on histories written by hand: each broken promise must be found, and
//! valid histories that look suspicious (unknown outcomes, races, 410 Gone and relists)
//! must pass.

use history::checker::{Property, Report, check};
use history::record::{
    Event, EventType, FINAL, History, Key, List, ListResult, Operation, Outcome, Request, Seen,
    Segment, WatchEnd, Watcher, WatcherStep,
};

fn key(name: &str) -> Key {
    Key::new("configmaps", name)
}

fn ok(value: &str, rv: u64) -> Outcome {
    Outcome::Ok {
        object: Some(Seen {
            value: value.into(),
            rv,
        }),
    }
}

fn unknown() -> Outcome {
    Outcome::Indeterminate {
        reason: "timed out".into(),
    }
}

/// A history under construction.
#[derive(Default)]
struct H(History);

impl H {
    fn op(
        &mut self,
        client: usize,
        name: &str,
        request: Request,
        at: (u64, u64),
        outcome: Outcome,
    ) -> &mut Self {
        self.0.operations.push(Operation {
            client,
            server: "a".into(),
            key: key(name),
            request,
            invoked: at.0,
            completed: at.1,
            outcome,
        });
        self
    }

    fn create(
        &mut self,
        c: usize,
        name: &str,
        value: &str,
        at: (u64, u64),
        outcome: Outcome,
    ) -> &mut Self {
        self.op(
            c,
            name,
            Request::Create {
                value: value.into(),
            },
            at,
            outcome,
        )
    }

    fn update(
        &mut self,
        c: usize,
        name: &str,
        value: &str,
        pre: u64,
        at: (u64, u64),
        outcome: Outcome,
    ) -> &mut Self {
        let request = Request::Update {
            value: value.into(),
            precondition: pre,
        };
        self.op(c, name, request, at, outcome)
    }

    fn patch(
        &mut self,
        c: usize,
        name: &str,
        value: &str,
        at: (u64, u64),
        outcome: Outcome,
    ) -> &mut Self {
        self.op(
            c,
            name,
            Request::Patch {
                value: value.into(),
            },
            at,
            outcome,
        )
    }

    fn delete(
        &mut self,
        c: usize,
        name: &str,
        pre: Option<u64>,
        at: (u64, u64),
        outcome: Outcome,
    ) -> &mut Self {
        self.op(c, name, Request::Delete { precondition: pre }, at, outcome)
    }

    fn get(&mut self, c: usize, name: &str, at: (u64, u64), outcome: Outcome) -> &mut Self {
        self.op(c, name, Request::Get, at, outcome)
    }

    fn final_list(&mut self, at: u64, rv: u64, items: &[(&str, &str, u64)]) -> &mut Self {
        self.0.lists.push(list(FINAL, at, rv, items));
        self
    }

    fn watcher(&mut self, steps: Vec<WatcherStep>) -> &mut Self {
        let id = self.0.watchers.len();
        self.0.watchers.push(Watcher {
            id,
            server: "a".into(),
            kind: "configmaps".into(),
            steps,
        });
        self
    }

    fn check(&self) -> Report {
        check(&self.0)
    }
}

fn list(client: &str, at: u64, rv: u64, items: &[(&str, &str, u64)]) -> List {
    List {
        client: client.into(),
        server: "a".into(),
        kind: "configmaps".into(),
        invoked: at,
        completed: at + 1,
        outcome: Ok(ListResult {
            rv,
            items: items
                .iter()
                .map(|(n, v, r)| {
                    (
                        (*n).to_owned(),
                        Seen {
                            value: (*v).into(),
                            rv: *r,
                        },
                    )
                })
                .collect(),
        }),
    }
}

fn listed(at: u64, rv: u64, items: &[(&str, &str, u64)]) -> WatcherStep {
    WatcherStep::List(list("watcher", at, rv, items))
}

fn ev(event_type: EventType, name: &str, value: &str, rv: u64, at: u64) -> Event {
    Event {
        at,
        event_type,
        name: name.into(),
        value: Some(value.into()),
        rv,
    }
}

fn bookmark(rv: u64, at: u64) -> Event {
    Event {
        at,
        event_type: EventType::Bookmark,
        name: String::new(),
        value: None,
        rv,
    }
}

fn watch(from: u64, events: Vec<Event>, end: WatchEnd) -> WatcherStep {
    WatcherStep::Watch(Segment {
        from,
        started: 0,
        events,
        end,
        ended: 1_000,
    })
}

use EventType::{Added, Deleted, Modified};

/// Passes, or panics with the report.
fn passes(report: &Report) {
    assert!(report.passed(), "{report}");
}

/// Fails with `property` among what it found.
fn fails(report: &Report, property: Property) {
    assert!(
        report.properties().contains(&property),
        "expected {property:?}, got:\n{report}"
    );
}

// ---- each property broken ----

#[test]
fn a_read_after_an_acknowledged_create_that_misses_it_is_not_linearizable() {
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .get(1, "a", (20, 30), Outcome::NotFound)
        .check();
    fails(&report, Property::Linearizability);
}

#[test]
fn two_updates_from_one_resource_version_cannot_both_win() {
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(1, "a", "v2", 5, (20, 40), ok("v2", 6))
        .update(2, "a", "v3", 5, (20, 40), ok("v3", 7))
        .check();
    fails(&report, Property::Linearizability);
}

#[test]
fn a_conflict_on_the_current_resource_version_is_not_linearizable() {
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(1, "a", "v2", 5, (20, 30), Outcome::Conflict)
        .check();
    fails(&report, Property::Linearizability);
}

#[test]
fn a_later_write_with_an_older_resource_version_is_not_linearizable() {
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 9))
        .patch(1, "a", "v2", (20, 30), ok("v2", 8))
        .check();
    fails(&report, Property::Linearizability);
}

#[test]
fn an_acknowledged_write_missing_at_the_end_is_lost() {
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(0, "a", "v2", 5, (20, 30), ok("v2", 7))
        .final_list(100, 9, &[("a", "v1", 5)])
        .check();
    fails(&report, Property::Durability);
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .final_list(100, 9, &[])
        .check();
    fails(&report, Property::Durability);
}

#[test]
fn a_state_nobody_wrote_is_a_phantom() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5));
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(
            1,
            vec![
                ev(Added, "a", "v1", 5, 11),
                ev(Modified, "a", "ghost", 6, 12),
            ],
            WatchEnd::Closed,
        ),
    ]);
    fails(&h.check(), Property::Phantom);
}

#[test]
fn a_state_written_by_a_refused_request_is_a_phantom() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5)).update(
        1,
        "a",
        "v2",
        4,
        (20, 30),
        Outcome::Conflict,
    );
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(
            1,
            vec![ev(Added, "a", "v1", 5, 11), ev(Modified, "a", "v2", 6, 31)],
            WatchEnd::Closed,
        ),
    ]);
    fails(&h.check(), Property::Phantom);
}

#[test]
fn a_state_seen_before_it_was_sent_is_a_phantom() {
    let mut h = H::default();
    h.create(0, "a", "v1", (50, 60), unknown());
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(1, vec![ev(Added, "a", "v1", 5, 20)], WatchEnd::Closed),
    ]);
    fails(&h.check(), Property::Phantom);
}

#[test]
fn one_value_at_two_resource_versions_is_inconsistent() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .get(1, "a", (20, 30), ok("v1", 6));
    fails(&h.check(), Property::Consistency);
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .create(1, "b", "w1", (0, 10), ok("w1", 5));
    fails(&h.check(), Property::Consistency);
}

#[test]
fn events_out_of_order_or_twice_break_the_watch_order() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .create(0, "b", "w1", (20, 30), ok("w1", 7));
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(
            1,
            vec![ev(Added, "b", "w1", 7, 31), ev(Added, "a", "v1", 5, 32)],
            WatchEnd::Closed,
        ),
    ]);
    fails(&h.check(), Property::WatchOrder);

    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5));
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(
            1,
            vec![ev(Added, "a", "v1", 5, 11), ev(Added, "a", "v1", 5, 12)],
            WatchEnd::Closed,
        ),
    ]);
    fails(&h.check(), Property::WatchOrder);
}

#[test]
fn a_change_skipped_by_a_watch_is_incomplete() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(0, "a", "v2", 5, (20, 30), ok("v2", 7))
        .update(0, "a", "v3", 7, (40, 50), ok("v3", 9));
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(
            1,
            vec![ev(Added, "a", "v1", 5, 11), ev(Modified, "a", "v3", 9, 51)],
            WatchEnd::Closed,
        ),
    ]);
    fails(&h.check(), Property::WatchCompleteness);
}

#[test]
fn a_watch_resumed_after_a_gap_is_incomplete() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(0, "a", "v2", 5, (20, 30), ok("v2", 7));
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(1, vec![ev(Added, "a", "v1", 5, 11)], WatchEnd::Closed),
        watch(7, vec![], WatchEnd::Closed),
    ]);
    fails(&h.check(), Property::WatchCompleteness);
}

#[test]
fn watching_again_after_gone_without_a_list_is_incomplete() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5));
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(1, vec![], WatchEnd::Gone),
        watch(1, vec![ev(Added, "a", "v1", 5, 11)], WatchEnd::Closed),
    ]);
    fails(&h.check(), Property::WatchCompleteness);
}

#[test]
fn events_of_the_wrong_type_are_found() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .patch(0, "a", "v2", (20, 30), ok("v2", 7));
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(
            1,
            vec![ev(Added, "a", "v1", 5, 11), ev(Added, "a", "v2", 7, 31)],
            WatchEnd::Closed,
        ),
    ]);
    fails(&h.check(), Property::WatchEventType);

    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .patch(0, "a", "v2", (20, 30), ok("v2", 7))
        .delete(0, "a", None, (40, 50), Outcome::Ok { object: None });
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(
            1,
            vec![
                ev(Added, "a", "v1", 5, 11),
                ev(Modified, "a", "v2", 7, 31),
                ev(Deleted, "a", "v1", 8, 51),
            ],
            WatchEnd::Closed,
        ),
    ]);
    fails(&h.check(), Property::WatchEventType);
}

#[test]
fn a_relist_showing_an_older_state_than_its_resource_version_is_found() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(0, "a", "v2", 5, (20, 30), ok("v2", 7));
    h.watcher(vec![
        listed(40, 8, &[("a", "v1", 5)]),
        watch(8, vec![], WatchEnd::Closed),
    ]);
    fails(&h.check(), Property::ListSnapshot);
}

#[test]
fn a_relist_omitting_a_live_object_is_found() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(0, "a", "v2", 5, (50, 60), ok("v2", 9));
    h.watcher(vec![listed(20, 6, &[]), watch(6, vec![], WatchEnd::Closed)]);
    fails(&h.check(), Property::ListSnapshot);
}

#[test]
fn a_watcher_that_never_reaches_the_last_write_is_found() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5)).create(
        0,
        "s",
        "sentinel",
        (20, 30),
        ok("sentinel", 6),
    );
    h.0.sentinels.insert("configmaps".into(), 6);
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(1, vec![ev(Added, "a", "v1", 5, 11)], WatchEnd::Stopped),
    ]);
    fails(&h.check(), Property::WatchProgress);
}

// ---- valid histories that look suspicious ----

#[test]
fn an_unknown_write_seen_later_happened() {
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(1, "a", "v2", 5, (20, 30), unknown())
        .get(2, "a", (40, 50), ok("v2", 6))
        .update(2, "a", "v3", 6, (60, 70), ok("v3", 7))
        .final_list(100, 8, &[("a", "v3", 7)])
        .check();
    passes(&report);
}

#[test]
fn an_unknown_write_never_seen_may_not_have_happened() {
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .patch(1, "a", "v2", (20, 30), unknown())
        .get(2, "a", (40, 50), ok("v1", 5))
        .update(2, "a", "v3", 5, (60, 70), ok("v3", 7))
        .final_list(100, 8, &[("a", "v3", 7)])
        .check();
    passes(&report);
}

#[test]
fn an_unknown_write_explains_a_later_conflict() {
    // v2's update was lost in a timeout but took effect: the update from rv 5 conflicts.
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .patch(1, "a", "v2", (20, 30), unknown())
        .update(2, "a", "v3", 5, (60, 70), Outcome::Conflict)
        .check();
    passes(&report);
}

#[test]
fn an_unknown_write_may_take_effect_long_after_its_timeout() {
    // etcd paused: the write lands after later requests were answered.
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .patch(1, "a", "v2", (20, 30), unknown())
        .get(2, "a", (40, 50), ok("v1", 5))
        .get(2, "a", (60, 70), ok("v2", 8))
        .final_list(100, 9, &[("a", "v2", 8)])
        .check();
    passes(&report);
}

#[test]
fn racing_creates_one_wins_either_way() {
    let report = H::default()
        .create(0, "a", "v1", (0, 30), Outcome::Conflict)
        .create(1, "a", "v2", (10, 20), ok("v2", 5))
        .get(2, "a", (5, 40), ok("v2", 5))
        .check();
    passes(&report);
}

#[test]
fn a_read_concurrent_with_a_write_may_see_either() {
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .patch(0, "a", "v2", (20, 40), ok("v2", 6))
        .get(1, "a", (25, 35), ok("v1", 5))
        .get(2, "a", (25, 35), ok("v2", 6))
        .check();
    passes(&report);
}

#[test]
fn a_refused_request_says_nothing() {
    let report = H::default()
        .create(0, "a", "v1", (0, 10), ok("v1", 5))
        .patch(
            1,
            "a",
            "v2",
            (20, 30),
            Outcome::Rejected {
                reason: "not sent: refused".into(),
            },
        )
        .get(2, "a", (40, 50), ok("v1", 5))
        .check();
    passes(&report);
}

#[test]
fn an_object_deleted_and_created_again_is_watched_through() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(0, "a", "v2", 5, (20, 30), ok("v2", 6))
        .delete(1, "a", Some(6), (40, 50), Outcome::Ok { object: None })
        .create(1, "a", "v3", (60, 70), ok("v3", 9))
        .final_list(100, 9, &[("a", "v3", 9)]);
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(
            1,
            vec![
                ev(Added, "a", "v1", 5, 11),
                ev(Modified, "a", "v2", 6, 31),
                bookmark(6, 35),
                ev(Deleted, "a", "v2", 7, 51),
                ev(Added, "a", "v3", 9, 71),
            ],
            WatchEnd::Closed,
        ),
        watch(9, vec![], WatchEnd::Stopped),
    ]);
    passes(&h.check());
}

#[test]
fn gone_then_a_consistent_relist_then_the_rest() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(0, "a", "v2", 5, (20, 30), ok("v2", 7))
        .update(0, "a", "v3", 7, (60, 70), ok("v3", 11))
        .final_list(100, 12, &[("a", "v3", 11)]);
    h.0.lists.push(list("other", 40, 10, &[("a", "v2", 7)]));
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(
            1,
            vec![ev(Added, "a", "v1", 5, 11)],
            WatchEnd::Failed {
                reason: "reset".into(),
            },
        ),
        watch(5, vec![], WatchEnd::Gone),
        listed(40, 10, &[("a", "v2", 7)]),
        watch(10, vec![ev(Modified, "a", "v3", 11, 71)], WatchEnd::Stopped),
    ]);
    passes(&h.check());
}

#[test]
fn a_watch_that_ends_early_is_complete_up_to_where_it_ended() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .update(0, "a", "v2", 5, (20, 30), ok("v2", 7));
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(1, vec![ev(Added, "a", "v1", 5, 11)], WatchEnd::Stopped),
    ]);
    passes(&h.check());
}

#[test]
fn many_unknown_writes_are_searched_within_the_budget() {
    let mut h = H::default();
    h.create(0, "a", "v0", (0, 10), ok("v0", 1));
    let mut rv = 1;
    for i in 0..40u64 {
        let t = 100 + i * 100;
        h.patch(1, "a", &format!("lost{i}"), (t, t + 10), unknown());
        rv += 1;
        h.patch(
            2,
            "a",
            &format!("v{}", i + 1),
            (t + 20, t + 30),
            ok(&format!("v{}", i + 1), rv),
        );
        h.get(3, "a", (t + 40, t + 50), ok(&format!("v{}", i + 1), rv));
    }
    let report = check(&h.0);
    passes(&report);
    assert_eq!(report.indeterminate, 40);
}

#[test]
fn the_report_counts_what_it_checked() {
    let mut h = H::default();
    h.create(0, "a", "v1", (0, 10), ok("v1", 5))
        .patch(1, "a", "v2", (20, 30), unknown())
        .final_list(100, 9, &[("a", "v1", 5)]);
    h.watcher(vec![
        listed(0, 1, &[]),
        watch(1, vec![ev(Added, "a", "v1", 5, 11)], WatchEnd::Gone),
    ]);
    let report = h.check();
    passes(&report);
    assert_eq!(
        (
            report.objects,
            report.operations,
            report.acknowledged,
            report.indeterminate
        ),
        (1, 2, 1, 1)
    );
    assert_eq!(
        (report.lists, report.watches, report.gone, report.events),
        (2, 1, 1, 1)
    );
}
