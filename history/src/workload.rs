//! The clients of a run: writers that create, update with resourceVersion
//! preconditions, patch, delete and get a few objects each epoch, and watchers that
//! list, watch from the list's resourceVersion, watch again from where a watch ended and
//! list again after 410 Gone (as client-go's reflector does). Each records what it sent
//! and what it was told.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use http::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::client::{Answer, Client, Clock};
use crate::record::{
    Event, EventType, Key, List, ListResult, Operation, Outcome, Request, Segment, WatchEnd,
    Watcher, WatcherStep,
};
use crate::resource::Resource;

/// What the harness tells the running clients.
#[derive(Clone, Debug, Default)]
pub struct Control {
    /// The writers stop.
    pub stop_writes: bool,
    /// Writers write the objects of this epoch (`k<epoch>-<n>`): an object's history
    /// lasts one epoch, which keeps each linearizability search short.
    pub epoch: u64,
    /// Per resource, the resourceVersion each watcher stops at once it got there.
    pub drain: BTreeMap<String, u64>,
    /// Every watcher stops.
    pub stop_watches: bool,
}

/// A small deterministic generator (SplitMix64): a run is repeatable from its seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `[low, high]`.
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next_u64() % (high.saturating_sub(low) + 1)
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        let len = u64::try_from(items.len()).unwrap_or(u64::MAX).max(1);
        &items[usize::try_from(self.next_u64() % len).unwrap_or(0)]
    }
}

/// One writer's settings.
#[derive(Clone, Debug)]
pub struct WriterConfig {
    /// Its number; its values are `w<id>-<n>`.
    pub id: usize,
    /// The run's namespace.
    pub namespace: String,
    /// The resources written.
    pub resources: Vec<Resource>,
    /// Objects per resource per epoch.
    pub keys: usize,
    /// The pause between two requests, in milliseconds (low, high).
    pub pause_ms: (u64, u64),
    /// At most this many requests.
    pub max_operations: usize,
    /// The generator's seed.
    pub seed: u64,
}

/// The name of object `n` of `epoch`.
pub fn object_name(epoch: u64, n: u64) -> String {
    format!("k{epoch}-{n}")
}

/// Writes until told to stop; every request and answer.
pub async fn writer(
    config: WriterConfig,
    client: Client,
    clock: Clock,
    control: watch::Receiver<Control>,
) -> Vec<Operation> {
    let mut rng = Rng::new(config.seed);
    let mut known: HashMap<Key, u64> = HashMap::new();
    let mut ops = Vec::new();
    let mut sequence = 0u64;
    while ops.len() < config.max_operations {
        let (stop, epoch) = {
            let c = control.borrow();
            (c.stop_writes, c.epoch)
        };
        if stop {
            break;
        }
        let resource = rng.pick(&config.resources).clone();
        let name = object_name(epoch, rng.range(0, config.keys.max(1) as u64 - 1));
        let key = Key::new(resource.plural, &name);
        let value = format!("w{}-{sequence}", config.id);
        sequence += 1;
        let known_rv = known.get(&key).copied();
        let request = match (rng.range(0, 99), known_rv) {
            (0..15, _) | (30..60 | 80..90, None) => Request::Get,
            (15..30, _) => Request::Create { value },
            (30..60, Some(rv)) => Request::Update {
                value,
                precondition: rv,
            },
            (60..80, _) => Request::Patch { value },
            (80..90, Some(rv)) => Request::Delete {
                precondition: Some(rv),
            },
            _ => Request::Delete { precondition: None },
        };
        let op = perform(
            &client,
            &clock,
            config.id,
            &resource,
            &config.namespace,
            &name,
            request,
        )
        .await;
        match &op.outcome {
            Outcome::Ok { object: Some(seen) } if !matches!(op.request, Request::Delete { .. }) => {
                known.insert(key, seen.rv);
            }
            Outcome::NotFound | Outcome::Ok { .. } => {
                known.remove(&key);
            }
            _ => {}
        }
        // After a failure the writer backs off, as client-go's do (and as the search
        // prefers: every request of unknown outcome is one more that may or may not
        // have happened).
        let pause = match op.outcome {
            Outcome::Rejected { .. } | Outcome::Indeterminate { .. } => rng.range(200, 400),
            _ => rng.range(config.pause_ms.0, config.pause_ms.1),
        };
        ops.push(op);
        tokio::time::sleep(Duration::from_millis(pause)).await;
    }
    ops
}

/// Sends one request about one object and records it.
pub async fn perform(
    client: &Client,
    clock: &Clock,
    id: usize,
    resource: &Resource,
    namespace: &str,
    name: &str,
    request: Request,
) -> Operation {
    let path = resource.object(namespace, name);
    let (method, path, content_type, body) = match &request {
        Request::Create { value } => (
            Method::POST,
            resource.collection(namespace),
            "application/json",
            Some(resource.body(name, value, None)),
        ),
        Request::Update {
            value,
            precondition,
        } => (
            Method::PUT,
            path,
            "application/json",
            Some(resource.body(name, value, Some(*precondition))),
        ),
        Request::Patch { value } => (
            Method::PATCH,
            path,
            "application/merge-patch+json",
            Some(resource.patch(value)),
        ),
        Request::Delete { precondition } => (
            Method::DELETE,
            path,
            "application/json",
            precondition.map(|rv| {
                json!({"apiVersion": "v1", "kind": "DeleteOptions",
                       "preconditions": {"resourceVersion": rv.to_string()}})
            }),
        ),
        Request::Get => (Method::GET, path, "", None),
    };
    let body = body.map(|b| b.to_string().into_bytes());
    let invoked = clock.now();
    let answer = client.request(method, &path, content_type, body).await;
    let completed = clock.now();
    Operation {
        client: id,
        server: client.target().name.clone(),
        key: Key::new(resource.plural, name),
        request,
        invoked,
        completed,
        outcome: outcome(resource, answer),
    }
}

/// What an answer says of a request about one object.
pub fn outcome(resource: &Resource, answer: Answer) -> Outcome {
    match answer {
        Answer::Status(status, body) if status.is_success() => {
            let object = serde_json::from_slice::<Value>(&body)
                .ok()
                .and_then(|v| resource.seen(&v))
                .map(|(_, seen)| seen);
            Outcome::Ok { object }
        }
        Answer::Status(StatusCode::NOT_FOUND, _) => Outcome::NotFound,
        Answer::Status(StatusCode::CONFLICT, _) => Outcome::Conflict,
        Answer::Status(status, body) => {
            let reason = format!("{status}: {}", status_message(&body));
            match status.as_u16() {
                400 | 401 | 403 | 422 | 429 => Outcome::Rejected { reason },
                _ => Outcome::Indeterminate { reason },
            }
        }
        Answer::NotSent(reason) => Outcome::Rejected {
            reason: format!("not sent: {reason}"),
        },
        Answer::Lost(reason) => Outcome::Indeterminate { reason },
        Answer::TimedOut => Outcome::Indeterminate {
            reason: "timed out".to_owned(),
        },
    }
}

/// A `Status`'s message, or the start of whatever the body is.
fn status_message(body: &[u8]) -> String {
    serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|v| v.get("message").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned())
}

/// Lists `resource` in `namespace` and records it.
pub async fn list(
    client: &Client,
    clock: &Clock,
    who: &str,
    resource: &Resource,
    namespace: &str,
) -> List {
    let invoked = clock.now();
    let answer = client
        .request(Method::GET, &resource.collection(namespace), "", None)
        .await;
    let completed = clock.now();
    let outcome = match answer {
        Answer::Status(StatusCode::OK, body) => parse_list(resource, &body),
        Answer::Status(status, body) => Err(format!("{status}: {}", status_message(&body))),
        Answer::NotSent(e) | Answer::Lost(e) => Err(e),
        Answer::TimedOut => Err("timed out".to_owned()),
    };
    List {
        client: who.to_owned(),
        server: client.target().name.clone(),
        kind: resource.plural.to_owned(),
        invoked,
        completed,
        outcome,
    }
}

fn parse_list(resource: &Resource, body: &[u8]) -> Result<ListResult, String> {
    let list: Value = serde_json::from_slice(body).map_err(|e| format!("not JSON: {e}"))?;
    let rv = list
        .pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
        .ok_or("a list without a numeric resourceVersion")?;
    let mut items = BTreeMap::new();
    for item in list
        .get("items")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (name, seen) = resource
            .item(item)
            .ok_or("an item without a name or resourceVersion")?;
        items.insert(name, seen);
    }
    Ok(ListResult { rv, items })
}

/// One watcher's settings.
#[derive(Clone, Debug)]
pub struct WatcherConfig {
    /// Its number.
    pub id: usize,
    /// The run's namespace.
    pub namespace: String,
    /// The resource watched.
    pub resource: Resource,
    /// The `timeoutSeconds` of each watch request (low, high): watches end and are
    /// made again from where they ended, all through the run.
    pub timeout_seconds: (u64, u64),
    /// How long a watch may deliver nothing (bookmarks included) before the watcher
    /// gives it up.
    pub idle: Duration,
    /// The generator's seed.
    pub seed: u64,
}

/// Lists and watches until told to stop, or until it got as far as the drain's
/// resourceVersion.
pub async fn watcher(
    config: WatcherConfig,
    client: Client,
    clock: Clock,
    mut control: watch::Receiver<Control>,
) -> Watcher {
    let mut rng = Rng::new(config.seed);
    let who = format!("watcher {}", config.id);
    let kind = config.resource.plural;
    let mut steps = Vec::new();
    let mut from: Option<u64> = None;
    loop {
        let (stop, drain) = {
            let c = control.borrow();
            (c.stop_watches, c.drain.get(kind).copied())
        };
        if stop || matches!((from, drain), (Some(f), Some(d)) if f >= d) {
            break;
        }
        let Some(rv) = from else {
            let listed = list(&client, &clock, &who, &config.resource, &config.namespace).await;
            from = listed.outcome.as_ref().ok().map(|r| r.rv);
            steps.push(WatcherStep::List(listed));
            if from.is_none() {
                tokio::time::sleep(Duration::from_millis(rng.range(100, 300))).await;
            }
            continue;
        };
        let timeout = rng.range(config.timeout_seconds.0, config.timeout_seconds.1);
        let segment = watch_once(&config, &client, &clock, &mut control, rv, timeout).await;
        let horizon = segment.horizon();
        let end = segment.end.clone();
        steps.push(WatcherStep::Watch(segment));
        from = match end {
            WatchEnd::Gone => None,
            WatchEnd::Failed { .. } => {
                tokio::time::sleep(Duration::from_millis(rng.range(100, 300))).await;
                Some(horizon)
            }
            WatchEnd::Closed | WatchEnd::Stopped => Some(horizon),
        };
    }
    Watcher {
        id: config.id,
        server: client.target().name.clone(),
        kind: kind.to_owned(),
        steps,
    }
}

/// One watch request from `from`, read until it ends.
async fn watch_once(
    config: &WatcherConfig,
    client: &Client,
    clock: &Clock,
    control: &mut watch::Receiver<Control>,
    from: u64,
    timeout: u64,
) -> Segment {
    let resource = &config.resource;
    let mut segment = Segment {
        from,
        started: clock.now(),
        events: Vec::new(),
        end: WatchEnd::Stopped,
        ended: 0,
    };
    let path = format!(
        "{}?watch=true&resourceVersion={from}&allowWatchBookmarks=true&timeoutSeconds={timeout}",
        resource.collection(&config.namespace)
    );
    let mut stream = match client.watch(&path).await {
        Ok(stream) => stream,
        Err(answer) => {
            segment.end = match answer {
                Answer::Status(StatusCode::GONE, _) => WatchEnd::Gone,
                Answer::Status(status, body) => WatchEnd::Failed {
                    reason: format!("{status}: {}", status_message(&body)),
                },
                Answer::NotSent(e) | Answer::Lost(e) => WatchEnd::Failed { reason: e },
                Answer::TimedOut => WatchEnd::Failed {
                    reason: "timed out".to_owned(),
                },
            };
            segment.ended = clock.now();
            return segment;
        }
    };
    segment.end = loop {
        let reached = {
            let c = control.borrow();
            c.stop_watches
                || c.drain
                    .get(resource.plural)
                    .is_some_and(|&d| segment.horizon() >= d)
        };
        if reached {
            break WatchEnd::Stopped;
        }
        let line = tokio::select! {
            line = tokio::time::timeout(config.idle, stream.next_line()) => line,
            changed = control.changed() => {
                if changed.is_err() {
                    break WatchEnd::Stopped;
                }
                continue;
            }
        };
        let line = match line {
            Err(_) => {
                break WatchEnd::Failed {
                    reason: format!("nothing for {:?}", config.idle),
                };
            }
            Ok(Err(reason)) => break WatchEnd::Failed { reason },
            Ok(Ok(None)) => break WatchEnd::Closed,
            Ok(Ok(Some(line))) => line,
        };
        match event(resource, &line, clock.now()) {
            Ok(event) => segment.events.push(event),
            Err(end) => break end,
        }
    };
    segment.ended = clock.now();
    segment
}

/// One line of a watch: an event, or how the watch ends (an ERROR event, or a line
/// that is not an event of the resource).
fn event(resource: &Resource, line: &[u8], at: u64) -> Result<Event, WatchEnd> {
    let bad = |what: &str| WatchEnd::Failed {
        reason: format!(
            "{what}: {}",
            String::from_utf8_lossy(&line[..line.len().min(300)])
        ),
    };
    let event: Value = serde_json::from_slice(line).map_err(|_| bad("not JSON"))?;
    let object = event.get("object").ok_or_else(|| bad("no object"))?;
    let event_type = match event.get("type").and_then(Value::as_str) {
        Some("ADDED") => EventType::Added,
        Some("MODIFIED") => EventType::Modified,
        Some("DELETED") => EventType::Deleted,
        Some("BOOKMARK") => EventType::Bookmark,
        Some("ERROR") => {
            return Err(if object.get("code").and_then(Value::as_u64) == Some(410) {
                WatchEnd::Gone
            } else {
                WatchEnd::Failed {
                    reason: format!(
                        "ERROR event: {}",
                        status_message(object.to_string().as_bytes())
                    ),
                }
            });
        }
        _ => return Err(bad("an unknown event type")),
    };
    if event_type == EventType::Bookmark {
        let rv = object
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("a bookmark without a resourceVersion"))?;
        return Ok(Event {
            at,
            event_type,
            name: String::new(),
            value: None,
            rv,
        });
    }
    let (name, seen) = resource
        .seen(object)
        .ok_or_else(|| bad("not an object of the resource"))?;
    Ok(Event {
        at,
        event_type,
        name,
        value: Some(seen.value),
        rv: seen.rv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::CONFIG_MAPS;

    #[test]
    fn answers_are_sorted_by_what_they_say_of_the_write() {
        let ok = Answer::Status(
            StatusCode::OK,
            br#"{"kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"5"},"data":{"v":"w1-1"}}"#
                .as_slice()
                .into(),
        );
        assert!(matches!(outcome(&CONFIG_MAPS, ok), Outcome::Ok { object: Some(s) } if s.rv == 5));
        let status = Answer::Status(StatusCode::OK, br#"{"kind":"Status"}"#.as_slice().into());
        assert_eq!(outcome(&CONFIG_MAPS, status), Outcome::Ok { object: None });
        let gone = |code| Answer::Status(StatusCode::from_u16(code).unwrap(), Default::default());
        assert_eq!(outcome(&CONFIG_MAPS, gone(404)), Outcome::NotFound);
        assert_eq!(outcome(&CONFIG_MAPS, gone(409)), Outcome::Conflict);
        assert!(matches!(
            outcome(&CONFIG_MAPS, gone(429)),
            Outcome::Rejected { .. }
        ));
        assert!(matches!(
            outcome(&CONFIG_MAPS, gone(500)),
            Outcome::Indeterminate { .. }
        ));
        assert!(matches!(
            outcome(&CONFIG_MAPS, gone(504)),
            Outcome::Indeterminate { .. }
        ));
        assert!(matches!(
            outcome(&CONFIG_MAPS, Answer::NotSent("refused".into())),
            Outcome::Rejected { .. }
        ));
        assert!(matches!(
            outcome(&CONFIG_MAPS, Answer::Lost("reset".into())),
            Outcome::Indeterminate { .. }
        ));
        assert!(matches!(
            outcome(&CONFIG_MAPS, Answer::TimedOut),
            Outcome::Indeterminate { .. }
        ));
    }

    #[test]
    fn watch_lines_become_events_or_ends() {
        let line = br#"{"type":"MODIFIED","object":{"kind":"ConfigMap","metadata":{"name":"k","resourceVersion":"12"},"data":{"v":"w2-3"}}}"#;
        let e = event(&CONFIG_MAPS, line, 7).unwrap();
        assert_eq!(
            (e.event_type, e.rv, e.name.as_str(), e.value.as_deref()),
            (EventType::Modified, 12, "k", Some("w2-3"))
        );
        let bookmark = br#"{"type":"BOOKMARK","object":{"kind":"ConfigMap","metadata":{"resourceVersion":"40"}}}"#;
        assert_eq!(event(&CONFIG_MAPS, bookmark, 0).unwrap().rv, 40);
        let gone = br#"{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}}"#;
        assert_eq!(event(&CONFIG_MAPS, gone, 0).unwrap_err(), WatchEnd::Gone);
        let other = br#"{"type":"ERROR","object":{"kind":"Status","code":500,"message":"boom"}}"#;
        assert!(
            matches!(event(&CONFIG_MAPS, other, 0).unwrap_err(), WatchEnd::Failed { reason } if reason.contains("boom"))
        );
    }

    #[test]
    fn the_generator_is_repeatable() {
        let (mut a, mut b) = (Rng::new(3), Rng::new(3));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        assert!(
            (0..1000)
                .map(|_| a.range(2, 4))
                .all(|n| (2..=4).contains(&n))
        );
    }
}
