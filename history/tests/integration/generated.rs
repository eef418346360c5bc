//! Property tests: histories of a simulated correct server — concurrent clients whose
//! requests take effect at a random point of their interval, some with unknown outcomes
//! (applied or not), two watchers delivering every change — always pass; the same
//! histories with one watch event dropped, or two swapped, always fail.

use proptest::prelude::*;

use history::checker::{Property, check};
use history::record::{
    Event, EventType, FINAL, History, Key, List, ListResult, Operation, Outcome, Request, Seen,
    Segment, WatchEnd, Watcher, WatcherStep,
};

#[derive(Clone, Debug)]
struct Planned {
    client: usize,
    key: usize,
    choice: u64,
    gap: u64,
    to_point: u64,
    to_done: u64,
    unknown: u64,
    delay: u64,
}

fn planned() -> impl Strategy<Value = Planned> {
    (
        0..3usize,
        0..2usize,
        0..100u64,
        0..5u64,
        0..6u64,
        0..6u64,
        0..100u64,
        0..20u64,
    )
        .prop_map(
            |(client, key, choice, gap, to_point, to_done, unknown, delay)| Planned {
                client,
                key,
                choice,
                gap,
                to_point,
                to_done,
                unknown,
                delay,
            },
        )
}

/// The history a correct server gives the plan, with its watchers' split point.
fn simulate(plan: &[Planned], split: usize) -> History {
    let mut free = [0u64; 3];
    let mut timed = Vec::new();
    for (i, p) in plan.iter().enumerate() {
        let invoked = free[p.client] + p.gap;
        let point = invoked + p.to_point;
        let completed = point + p.to_done;
        free[p.client] = completed + 1;
        timed.push((point, i, invoked, completed));
    }
    timed.sort();
    let mut state: [Option<(String, u64)>; 2] = [None, None];
    let mut known: [[Option<u64>; 2]; 3] = [[None; 2]; 3];
    let mut rv = 0u64;
    let mut ops = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    for (point, i, invoked, completed) in timed {
        let p = &plan[i];
        let name = format!("k{}", p.key);
        let value = format!("c{}-{i}", p.client);
        let pre = known[p.client][p.key];
        let request = match (p.choice, pre) {
            (0..15, _) | (30..60 | 80..90, None) => Request::Get,
            (15..30, _) => Request::Create {
                value: value.clone(),
            },
            (30..60, Some(rv)) => Request::Update {
                value: value.clone(),
                precondition: rv,
            },
            (60..80, _) => Request::Patch {
                value: value.clone(),
            },
            (80..90, Some(rv)) => Request::Delete {
                precondition: Some(rv),
            },
            _ => Request::Delete { precondition: None },
        };
        let lost = p.unknown < 15;
        let applies = !lost || p.unknown < 8;
        let current = state[p.key].clone();
        let at = point + p.delay;
        let mut outcome;
        let mut event = None;
        match &request {
            Request::Get => {
                outcome = match &current {
                    Some((v, r)) => Outcome::Ok {
                        object: Some(Seen {
                            value: v.clone(),
                            rv: *r,
                        }),
                    },
                    None => Outcome::NotFound,
                };
            }
            Request::Create { value } => match current {
                None => {
                    outcome = Outcome::Ok { object: None };
                    event = Some((EventType::Added, value.clone()));
                }
                Some(_) => outcome = Outcome::Conflict,
            },
            Request::Update {
                value,
                precondition,
            } => match current {
                Some((_, r)) if r == *precondition => {
                    outcome = Outcome::Ok { object: None };
                    event = Some((EventType::Modified, value.clone()));
                }
                Some(_) => outcome = Outcome::Conflict,
                None => outcome = Outcome::NotFound,
            },
            Request::Patch { value } => match current {
                Some(_) => {
                    outcome = Outcome::Ok { object: None };
                    event = Some((EventType::Modified, value.clone()));
                }
                None => outcome = Outcome::NotFound,
            },
            Request::Delete { precondition } => match current {
                Some((v, r)) if precondition.is_none_or(|p| p == r) => {
                    outcome = Outcome::Ok { object: None };
                    event = Some((EventType::Deleted, v));
                }
                Some(_) => outcome = Outcome::Conflict,
                None => outcome = Outcome::NotFound,
            },
        }
        if let Some((event_type, v)) = event.filter(|_| applies) {
            rv += 1;
            state[p.key] = (event_type != EventType::Deleted).then(|| (v.clone(), rv));
            if event_type != EventType::Deleted {
                outcome = Outcome::Ok {
                    object: Some(Seen {
                        value: v.clone(),
                        rv,
                    }),
                };
            }
            events.push(Event {
                at,
                event_type,
                name: name.clone(),
                value: Some(v),
                rv,
            });
        }
        if lost {
            outcome = Outcome::Indeterminate {
                reason: "timed out".into(),
            };
        }
        match &outcome {
            Outcome::Ok { object: Some(seen) } => known[p.client][p.key] = Some(seen.rv),
            Outcome::Ok { object: None } | Outcome::NotFound => known[p.client][p.key] = None,
            _ => {}
        }
        ops.push(Operation {
            client: p.client,
            server: "a".into(),
            key: Key::new("configmaps", &name),
            request,
            invoked,
            completed,
            outcome,
        });
    }
    // Delivery times never go back.
    for i in 1..events.len() {
        events[i].at = events[i].at.max(events[i - 1].at);
    }
    let end = ops.iter().map(|o| o.completed).max().unwrap_or(0) + 100;
    let items = state
        .iter()
        .enumerate()
        .filter_map(|(k, s)| {
            s.as_ref().map(|(v, r)| {
                (
                    format!("k{k}"),
                    Seen {
                        value: v.clone(),
                        rv: *r,
                    },
                )
            })
        })
        .collect();
    let list = |client: &str, at: u64, rv: u64, items| List {
        client: client.into(),
        server: "a".into(),
        kind: "configmaps".into(),
        invoked: at,
        completed: at,
        outcome: Ok(ListResult { rv, items }),
    };
    let segment = |from: u64, events: &[Event]| Segment {
        from,
        started: 0,
        events: events.to_vec(),
        end: WatchEnd::Closed,
        ended: end,
    };
    let split = split.min(events.len());
    let first = segment(0, &events[..split]);
    let second = segment(first.horizon(), &events[split..]);
    let watchers = vec![
        Watcher {
            id: 0,
            server: "a".into(),
            kind: "configmaps".into(),
            steps: vec![
                WatcherStep::List(list("w0", 0, 0, Default::default())),
                WatcherStep::Watch(segment(0, &events)),
            ],
        },
        Watcher {
            id: 1,
            server: "a".into(),
            kind: "configmaps".into(),
            steps: vec![
                WatcherStep::List(list("w1", 0, 0, Default::default())),
                WatcherStep::Watch(first),
                WatcherStep::Watch(second),
            ],
        },
    ];
    History {
        operations: ops,
        lists: vec![list(FINAL, end, rv, items)],
        watchers,
        ..History::default()
    }
}

fn first_segment_events(history: &mut History) -> &mut Vec<Event> {
    match &mut history.watchers[0].steps[1] {
        WatcherStep::Watch(segment) => &mut segment.events,
        WatcherStep::List(_) => unreachable!("the first watcher lists, then watches"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_correct_server_passes(plan in prop::collection::vec(planned(), 1..60), split in 0..80usize) {
        let history = simulate(&plan, split);
        let report = check(&history);
        prop_assert!(report.passed(), "{report}");
    }

    #[test]
    fn a_dropped_event_is_found(plan in prop::collection::vec(planned(), 1..60), pick in 0..1000usize) {
        let mut history = simulate(&plan, 0);
        let events = first_segment_events(&mut history);
        prop_assume!(events.len() >= 2);
        let i = pick % (events.len() - 1);
        events.remove(i);
        let report = check(&history);
        prop_assert!(report.properties().contains(&Property::WatchCompleteness), "{report}");
    }

    #[test]
    fn swapped_events_are_found(plan in prop::collection::vec(planned(), 1..60), pick in 0..1000usize) {
        let mut history = simulate(&plan, 0);
        let events = first_segment_events(&mut history);
        prop_assume!(events.len() >= 2);
        let i = pick % (events.len() - 1);
        events.swap(i, i + 1);
        let report = check(&history);
        prop_assert!(report.properties().contains(&Property::WatchOrder), "{report}");
    }
}
