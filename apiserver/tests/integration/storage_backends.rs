//! The storage conformance suite: every behaviour of the [`Storage`] contract, written once
//! against the trait and run against every backend (the `backend_suite!` rows at the
//! bottom). A backend that passes behaves, for the server above it, as etcd does.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use apiserver::storage::{ListOptions, Revision, Storage, StorageError, WatchEvent, WatchStream};
use bytes::Bytes;
use futures_util::StreamExt;

fn b(value: &str) -> Bytes {
    Bytes::copy_from_slice(value.as_bytes())
}

fn at(revision: Revision) -> ListOptions {
    ListOptions {
        revision,
        ..Default::default()
    }
}

/// The next event that is not a progress notification (backends may send those at any
/// time), failing the test if none comes within a few seconds.
async fn next_event(watch: &mut WatchStream) -> WatchEvent {
    loop {
        let item = tokio::time::timeout(Duration::from_secs(10), watch.next())
            .await
            .expect("no watch event within 10s")
            .expect("watch ended");
        match item.expect("watch failed") {
            WatchEvent::Progress { .. } => continue,
            event => return event,
        }
    }
}

/// Asserts the watch delivers nothing but progress notifications for a short while.
async fn assert_quiet(watch: &mut WatchStream) {
    let quiet = async {
        loop {
            match watch.next().await {
                Some(Ok(WatchEvent::Progress { .. })) => continue,
                other => return other,
            }
        }
    };
    if let Ok(other) = tokio::time::timeout(Duration::from_millis(300), quiet).await {
        panic!("unexpected watch item {other:?}");
    }
}

fn put_of(event: &WatchEvent) -> (&str, &[u8], Option<&[u8]>) {
    match event {
        WatchEvent::Put { kv, prev } => (
            kv.key.as_str(),
            &kv.value[..],
            prev.as_ref().map(|prev| &prev.value[..]),
        ),
        other => panic!("expected a put, got {other:?}"),
    }
}

async fn create_only_if_absent(store: Arc<dyn Storage>) {
    let key = "/registry/configmaps/default/one";
    assert_eq!(store.get(key).await.unwrap(), None);
    let before = store.current_revision().await.unwrap();
    let created = store.create(key, b("first")).await.unwrap();
    assert_eq!(created.key, key);
    assert_eq!(created.create_revision, created.mod_revision);
    assert!(created.mod_revision > before);
    assert_eq!(
        store.current_revision().await.unwrap(),
        created.mod_revision
    );
    match store.create(key, b("second")).await {
        Err(StorageError::KeyExists { key: found }) => assert_eq!(found, key),
        other => panic!("{other:?}"),
    }
    // The failed create changed nothing.
    assert_eq!(store.get(key).await.unwrap(), Some(created.clone()));
    assert_eq!(
        store.current_revision().await.unwrap(),
        created.mod_revision
    );
}

async fn update_is_compare_and_swap(store: Arc<dyn Storage>) {
    let key = "/registry/configmaps/default/cas";
    let v1 = store.create(key, b("1")).await.unwrap();
    let v2 = store.update(key, b("2"), v1.mod_revision).await.unwrap();
    assert_eq!(v2.create_revision, v1.create_revision);
    assert!(v2.mod_revision > v1.mod_revision);
    assert_eq!(&v2.value[..], b"2");
    // A write based on the old revision conflicts and reports the key as it is now.
    match store.update(key, b("stale"), v1.mod_revision).await {
        Err(StorageError::Conflict {
            key: found,
            expected,
            current,
        }) => {
            assert_eq!(found, key);
            assert_eq!(expected, v1.mod_revision);
            assert_eq!(*current, v2);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(store.get(key).await.unwrap(), Some(v2.clone()));
    match store
        .update("/registry/configmaps/default/absent", b("x"), 1)
        .await
    {
        Err(StorageError::KeyNotFound { key }) => {
            assert_eq!(key, "/registry/configmaps/default/absent")
        }
        other => panic!("{other:?}"),
    }
}

async fn update_at_a_revision_returns_the_writes_revision(store: Arc<dyn Storage>) {
    let a = "/registry/secrets/default/ua";
    let va = store.create(a, b("a")).await.unwrap();
    let revision = store.update_at(a, b("a2"), va.mod_revision).await.unwrap();
    assert!(revision > va.mod_revision);
    assert_eq!(store.current_revision().await.unwrap(), revision);
    let now = store.get(a).await.unwrap().unwrap();
    assert_eq!(
        (now.value, now.create_revision, now.mod_revision),
        (b("a2"), va.create_revision, revision)
    );
    match store.update_at(a, b("a3"), va.mod_revision).await {
        Err(StorageError::Conflict { current, .. }) => assert_eq!(current.mod_revision, revision),
        other => panic!("{other:?}"),
    }
    // Never creates: a missing key is not found, even at revision 0.
    for expected in [revision, 0] {
        assert!(matches!(
            store
                .update_at("/registry/secrets/default/never", b("x"), expected)
                .await,
            Err(StorageError::KeyNotFound { .. })
        ));
    }
    assert_eq!(
        store.get("/registry/secrets/default/never").await.unwrap(),
        None
    );
    assert_eq!(store.current_revision().await.unwrap(), revision);
}

async fn delete_at_a_revision_returns_the_deletions_revision(store: Arc<dyn Storage>) {
    let a = "/registry/secrets/default/da";
    let va = store.create(a, b("a")).await.unwrap();
    let moved = store.update(a, b("a2"), va.mod_revision).await.unwrap();
    match store.delete_at(a, va.mod_revision).await {
        Err(StorageError::Conflict { current, .. }) => assert_eq!(*current, moved),
        other => panic!("{other:?}"),
    }
    assert_eq!(store.get(a).await.unwrap(), Some(moved.clone()));
    let revision = store.delete_at(a, moved.mod_revision).await.unwrap();
    assert!(revision > moved.mod_revision);
    assert_eq!(store.current_revision().await.unwrap(), revision);
    assert_eq!(store.get(a).await.unwrap(), None);
    // Gone, and a key that never was: not found, whatever revision is named (0 is what
    // etcd reports as a missing key's mod_revision).
    for expected in [moved.mod_revision, 0] {
        for key in [a, "/registry/secrets/default/never"] {
            assert!(
                matches!(
                    store.delete_at(key, expected).await,
                    Err(StorageError::KeyNotFound { .. })
                ),
                "{key} at {expected}"
            );
        }
    }
    assert_eq!(store.current_revision().await.unwrap(), revision);
}

async fn delete_with_and_without_precondition(store: Arc<dyn Storage>) {
    let a = "/registry/secrets/default/a";
    let c = "/registry/secrets/default/c";
    let va = store.create(a, b("a")).await.unwrap();
    let vc = store.create(c, b("c")).await.unwrap();
    match store.delete(a, Some(va.mod_revision - 1)).await {
        Err(StorageError::Conflict { current, .. }) => assert_eq!(*current, va),
        other => panic!("{other:?}"),
    }
    assert_eq!(store.get(a).await.unwrap(), Some(va.clone()));
    let deleted = store.delete(a, Some(va.mod_revision)).await.unwrap();
    assert_eq!(deleted.prev, va);
    assert!(deleted.revision > vc.mod_revision);
    assert_eq!(store.current_revision().await.unwrap(), deleted.revision);
    assert_eq!(store.get(a).await.unwrap(), None);
    let deleted_c = store.delete(c, None).await.unwrap();
    assert_eq!(deleted_c.prev, vc);
    assert!(matches!(
        store.delete(c, None).await,
        Err(StorageError::KeyNotFound { .. })
    ));
    assert!(matches!(
        store.delete(c, Some(vc.mod_revision)).await,
        Err(StorageError::KeyNotFound { .. })
    ));
    // A deleted key can be created again, with a new create revision.
    let again = store.create(a, b("a2")).await.unwrap();
    assert!(again.create_revision > deleted_c.revision);
}

async fn list_pages_at_one_revision_while_writes_happen(store: Arc<dyn Storage>) {
    let prefix = "/registry/pods/default/";
    for i in 0..10 {
        store
            .create(&format!("{prefix}p{i:02}"), b(&format!("v{i}")))
            .await
            .unwrap();
    }
    // A key of a sibling prefix sorts between the pods and must not be listed.
    store
        .create("/registry/pods/defaultx/p", b("other"))
        .await
        .unwrap();
    let page_size = 3;
    let first = store
        .list(
            prefix,
            &ListOptions {
                limit: page_size,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let revision = first.revision;
    assert_eq!(revision, store.current_revision().await.unwrap());
    assert_eq!(first.kvs.len(), 3);
    assert_eq!(first.remaining, 7);
    let mut seen: Vec<(String, Bytes)> = first
        .kvs
        .iter()
        .map(|kv| (kv.key.clone(), kv.value.clone()))
        .collect();
    let mut last_key = first.kvs.last().unwrap().key.clone();
    let mut remaining = first.remaining;
    let mut writes = 0;
    while remaining > 0 {
        // Writes between pages: change, delete and add keys in the range.
        let victim = format!("{prefix}p{:02}", 9 - writes);
        let current = store.get(&victim).await.unwrap().unwrap();
        store
            .update(&victim, b("changed"), current.mod_revision)
            .await
            .unwrap();
        store
            .delete(&format!("{prefix}p{:02}", 8 - writes), None)
            .await
            .unwrap();
        store
            .create(&format!("{prefix}p{:02}x", writes), b("new"))
            .await
            .unwrap();
        writes += 2;
        let page = store
            .list(
                prefix,
                &ListOptions {
                    revision,
                    start_key: Some(format!("{last_key}\0")),
                    limit: page_size,
                },
            )
            .await
            .unwrap();
        assert_eq!(page.revision, revision);
        assert_eq!(page.remaining, remaining - page.kvs.len() as i64);
        assert!(!page.kvs.is_empty());
        for kv in &page.kvs {
            assert!(kv.mod_revision <= revision);
            seen.push((kv.key.clone(), kv.value.clone()));
        }
        last_key = page.kvs.last().unwrap().key.clone();
        remaining = page.remaining;
    }
    let expected: Vec<(String, Bytes)> = (0..10)
        .map(|i| (format!("{prefix}p{i:02}"), b(&format!("v{i}"))))
        .collect();
    assert_eq!(seen, expected);
    // The current state shows the writes.
    let now = store.list(prefix, &ListOptions::default()).await.unwrap();
    assert!(now.revision > revision);
    assert!(now.kvs.iter().any(|kv| &kv.value[..] == b"changed"));
    assert_eq!(now.remaining, 0);
}

async fn list_at_compacted_or_future_revision_fails(store: Arc<dyn Storage>) {
    let prefix = "/registry/services/specs/default/";
    let first = store.create(&format!("{prefix}a"), b("1")).await.unwrap();
    let second = store
        .update(&format!("{prefix}a"), b("2"), first.mod_revision)
        .await
        .unwrap();
    let third = store.create(&format!("{prefix}b"), b("3")).await.unwrap();
    let current = third.mod_revision;
    match store.list(prefix, &at(current + 10)).await {
        Err(StorageError::FutureRevision { requested, .. }) => {
            assert_eq!(requested, current + 10)
        }
        other => panic!("{other:?}"),
    }
    let old = store.list(prefix, &at(first.mod_revision)).await.unwrap();
    assert_eq!(old.kvs, std::slice::from_ref(&first));
    store.compact(second.mod_revision).await.unwrap();
    match store.list(prefix, &at(first.mod_revision)).await {
        Err(StorageError::Compacted { requested, .. }) => {
            assert_eq!(requested, first.mod_revision)
        }
        other => panic!("{other:?}"),
    }
    let at_compaction = store.list(prefix, &at(second.mod_revision)).await.unwrap();
    assert_eq!(at_compaction.kvs, std::slice::from_ref(&second));
    let now = store.list(prefix, &ListOptions::default()).await.unwrap();
    assert_eq!(now.kvs, [second, third]);
}

async fn list_rejects_start_key_outside_prefix(store: Arc<dyn Storage>) {
    let options = ListOptions {
        start_key: Some("/registry/pods/other".to_owned()),
        ..Default::default()
    };
    assert!(matches!(
        store.list("/registry/secrets/", &options).await,
        Err(StorageError::InvalidRequest { .. })
    ));
}

async fn watch_from_a_past_revision_then_live(store: Arc<dyn Storage>) {
    let prefix = "/registry/deployments/default/";
    let a = format!("{prefix}a");
    let v1 = store.create(&a, b("1")).await.unwrap();
    let v2 = store.update(&a, b("2"), v1.mod_revision).await.unwrap();
    let bkey = format!("{prefix}b");
    store.create(&bkey, b("b")).await.unwrap();
    let mut watch = store.watch(prefix, v1.mod_revision).await.unwrap();
    // Replay: everything after v1.
    let event = next_event(&mut watch).await;
    assert_eq!(event.revision(), v2.mod_revision);
    assert_eq!(put_of(&event), (a.as_str(), &b"2"[..], Some(&b"1"[..])));
    let event = next_event(&mut watch).await;
    assert_eq!(put_of(&event), (bkey.as_str(), &b"b"[..], None));
    // Live: a writer running concurrently, every event once and in order.
    let writer = {
        let store = store.clone();
        let a = a.clone();
        tokio::spawn(async move {
            let mut revision = v2.mod_revision;
            for i in 0..20 {
                revision = store
                    .update(&a, b(&format!("live{i}")), revision)
                    .await
                    .unwrap()
                    .mod_revision;
            }
            store.delete(&a, Some(revision)).await.unwrap()
        })
    };
    let mut last = event.revision();
    for i in 0..20 {
        let event = next_event(&mut watch).await;
        assert!(event.revision() > last, "out of order: {event:?}");
        last = event.revision();
        let value = format!("live{i}");
        assert_eq!(put_of(&event).1, value.as_bytes());
    }
    let deleted = writer.await.unwrap();
    match next_event(&mut watch).await {
        WatchEvent::Delete {
            key,
            prev,
            revision,
        } => {
            assert_eq!(key, a);
            assert_eq!(revision, deleted.revision);
            assert_eq!(prev, Some(deleted.prev));
        }
        other => panic!("{other:?}"),
    }
    assert_quiet(&mut watch).await;
}

async fn watch_from_now_sees_only_new_writes(store: Arc<dyn Storage>) {
    let prefix = "/registry/configmaps/";
    store
        .create("/registry/configmaps/ns/old", b("old"))
        .await
        .unwrap();
    let mut watch = store.watch(prefix, 0).await.unwrap();
    assert_quiet(&mut watch).await;
    let created = store
        .create("/registry/configmaps/ns/new", b("new"))
        .await
        .unwrap();
    let event = next_event(&mut watch).await;
    assert_eq!(event.revision(), created.mod_revision);
}

/// A watch without previous values reports the same writes in the same order, with
/// every key and new value; a previous value it does send is the right one.
async fn watch_without_prev_reports_keys_and_new_values(store: Arc<dyn Storage>) {
    let key = "/registry/secrets/ns/s";
    let start = store.current_revision().await.unwrap();
    let mut watch = store
        .watch_without_prev("/registry/secrets/", start)
        .await
        .unwrap();
    let created = store.create(key, b("one")).await.unwrap();
    let updated = store
        .update(key, b("two"), created.mod_revision)
        .await
        .unwrap();
    let deleted = store.delete(key, None).await.unwrap();
    match next_event(&mut watch).await {
        WatchEvent::Put { kv, prev } => {
            assert_eq!(kv, created);
            assert_eq!(kv.create_revision, kv.mod_revision, "a creation");
            assert_eq!(prev, None);
        }
        other => panic!("{other:?}"),
    }
    match next_event(&mut watch).await {
        WatchEvent::Put { kv, prev } => {
            assert_eq!(kv, updated);
            assert!(kv.create_revision < kv.mod_revision, "a replacement");
            assert!(prev.is_none() || prev == Some(created.clone()), "{prev:?}");
        }
        other => panic!("{other:?}"),
    }
    match next_event(&mut watch).await {
        WatchEvent::Delete {
            key: deleted_key,
            prev,
            revision,
        } => {
            assert_eq!(deleted_key, key);
            assert_eq!(revision, deleted.revision);
            assert!(prev.is_none() || prev == Some(updated), "{prev:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_quiet(&mut watch).await;
}

async fn watch_of_a_prefix_ignores_sibling_prefixes(store: Arc<dyn Storage>) {
    let start = store.current_revision().await.unwrap();
    let mut pods = store.watch("/registry/pods/", start).await.unwrap();
    let mut templates = store.watch("/registry/podtemplates/", start).await.unwrap();
    store
        .create("/registry/podtemplates/default/t", b("t"))
        .await
        .unwrap();
    store
        .create("/registry/pods/default/p", b("p"))
        .await
        .unwrap();
    store.create("/registry/pods", b("no slash")).await.unwrap();
    let event = next_event(&mut pods).await;
    assert_eq!(put_of(&event).0, "/registry/pods/default/p");
    let event = next_event(&mut templates).await;
    assert_eq!(put_of(&event).0, "/registry/podtemplates/default/t");
    assert_quiet(&mut pods).await;
    assert_quiet(&mut templates).await;
    let listed = store
        .list("/registry/pods/", &ListOptions::default())
        .await
        .unwrap();
    assert_eq!(listed.kvs.len(), 1);
}

async fn compaction_forgets_history_but_not_keys(store: Arc<dyn Storage>) {
    let prefix = "/registry/leases/kube-system/";
    let key = format!("{prefix}l");
    let mut revision = store.create(&key, b("0")).await.unwrap().mod_revision;
    let first = revision;
    for i in 1..6 {
        revision = store
            .update(&key, b(&i.to_string()), revision)
            .await
            .unwrap()
            .mod_revision;
    }
    let gone = store
        .create(&format!("{prefix}gone"), b("g"))
        .await
        .unwrap();
    store.delete(&gone.key, None).await.unwrap();
    let compact_at = revision - 2;
    store.compact(compact_at).await.unwrap();
    // Compacting again at or below the compacted revision fails as etcd's does.
    assert!(matches!(
        store.compact(first).await,
        Err(StorageError::Compacted { .. })
    ));
    assert!(matches!(
        store
            .compact(store.current_revision().await.unwrap() + 5)
            .await,
        Err(StorageError::FutureRevision { .. })
    ));
    assert!(matches!(
        store.list(prefix, &at(first)).await,
        Err(StorageError::Compacted { .. })
    ));
    // A watch from before the compaction fails, here or as the stream's first item.
    match store.watch(prefix, first).await {
        Err(StorageError::Compacted { .. }) => {}
        Err(other) => panic!("{other:?}"),
        Ok(mut watch) => match tokio::time::timeout(Duration::from_secs(10), watch.next()).await {
            Ok(Some(Err(StorageError::Compacted { .. }))) => {}
            other => panic!("{other:?}"),
        },
    }
    // From the compaction on, the history is intact.
    let mut watch = store.watch(prefix, compact_at).await.unwrap();
    let event = next_event(&mut watch).await;
    assert_eq!(event.revision(), compact_at + 1);
    let listed = store.list(prefix, &at(compact_at)).await.unwrap();
    assert_eq!(listed.kvs.len(), 1);
    assert_eq!(&listed.kvs[0].value[..], b"3");
    let current = store.get(&key).await.unwrap().unwrap();
    assert_eq!(&current.value[..], b"5");
    assert_eq!(current.create_revision, first);
}

async fn concurrent_writers_lose_no_update(store: Arc<dyn Storage>) {
    const WRITERS: usize = 8;
    const INCREMENTS: usize = 5;
    let key = "/registry/configmaps/default/counter";
    store.create(key, b("0")).await.unwrap();
    let mut tasks = Vec::new();
    for _ in 0..WRITERS {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut conflicts = 0;
            for _ in 0..INCREMENTS {
                let mut current = store.get(key).await.unwrap().unwrap();
                loop {
                    let count: usize = std::str::from_utf8(&current.value)
                        .unwrap()
                        .parse()
                        .unwrap();
                    match store
                        .update(key, b(&(count + 1).to_string()), current.mod_revision)
                        .await
                    {
                        Ok(_) => break,
                        Err(StorageError::Conflict { current: now, .. }) => {
                            conflicts += 1;
                            current = *now;
                        }
                        Err(other) => panic!("{other}"),
                    }
                }
            }
            conflicts
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let last = store.get(key).await.unwrap().unwrap();
    assert_eq!(
        &last.value[..],
        (WRITERS * INCREMENTS).to_string().as_bytes()
    );
    // Exactly one revision per successful write: none lost, none doubled.
    assert_eq!(
        last.mod_revision - last.create_revision,
        (WRITERS * INCREMENTS) as Revision
    );
}

async fn watches_started_during_writes_see_every_later_event_once(store: Arc<dyn Storage>) {
    const WRITES: usize = 120;
    let prefix = "/registry/events/default/";
    // A first write, so that no watcher below starts from 0 ("whenever the watch
    // starts"): each names the revision it starts after.
    let first = store
        .create(&format!("{prefix}seed"), b("seed"))
        .await
        .unwrap()
        .mod_revision;
    let writer = {
        let store = store.clone();
        tokio::spawn(async move {
            let mut last = 0;
            for i in 0..WRITES {
                last = store
                    .create(&format!("{prefix}e{i:04}"), b("e"))
                    .await
                    .unwrap()
                    .mod_revision;
                if i % 10 == 0 {
                    tokio::task::yield_now().await;
                }
            }
            last
        })
    };
    // Watchers from "now" and from a revision already in the past, started while the
    // writer runs: each must see exactly the revisions after its start, in order.
    let mut watchers = Vec::new();
    for n in 0..8 {
        let now = store.current_revision().await.unwrap();
        let from = if n % 2 == 0 {
            now
        } else {
            (now - 7).max(first)
        };
        watchers.push((from, store.watch(prefix, from).await.unwrap()));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let last = writer.await.unwrap();
    assert_eq!(last - first, WRITES as Revision);
    for (from, mut watch) in watchers {
        let mut seen = Vec::new();
        while seen.last().copied().unwrap_or(from) < last {
            seen.push(next_event(&mut watch).await.revision());
        }
        let expected: Vec<Revision> = (from + 1..=last).collect();
        assert_eq!(seen, expected, "watch from {from}");
    }
}

async fn the_largest_revision_is_in_the_future_not_a_crash(store: Arc<dyn Storage>) {
    store.create("/registry/pods/a/b", b("x")).await.unwrap();
    assert!(matches!(
        store.list("/registry/pods/", &at(Revision::MAX)).await,
        Err(StorageError::FutureRevision { .. })
    ));
    assert!(matches!(
        store.compact(Revision::MAX).await,
        Err(StorageError::FutureRevision { .. })
    ));
    // A watch from there has nothing to deliver (or refuses to start): never a panic.
    if let Ok(mut watch) = store.watch("/registry/pods/", Revision::MAX).await {
        store.create("/registry/pods/a/c", b("y")).await.unwrap();
        let quiet = async {
            loop {
                match watch.next().await {
                    Some(Ok(WatchEvent::Progress { .. })) => continue,
                    other => return other,
                }
            }
        };
        match tokio::time::timeout(Duration::from_millis(300), quiet).await {
            Err(_) | Ok(None) | Ok(Some(Err(_))) => {}
            Ok(Some(Ok(event))) => panic!("an event from the future: {event:?}"),
        }
    }
}

async fn bad_requests_are_invalid_and_change_nothing(store: Arc<dyn Storage>) {
    let invalid = |result: Result<(), StorageError>, what: &str| match result {
        Err(StorageError::InvalidRequest { .. }) => {}
        other => panic!("{what}: expected InvalidRequest, got {other:?}"),
    };
    let before = store.current_revision().await.unwrap();
    invalid(store.create("", b("x")).await.map(drop), "empty key create");
    invalid(store.get("").await.map(drop), "empty key get");
    invalid(
        store.update("", b("x"), 1).await.map(drop),
        "empty key update",
    );
    invalid(store.delete("", None).await.map(drop), "empty key delete");
    invalid(
        store.list("/registry/pods/", &at(-3)).await.map(drop),
        "negative list revision",
    );
    invalid(
        store.watch("/registry/pods/", -1).await.map(drop),
        "negative watch revision",
    );
    invalid(store.compact(0).await, "compaction at 0");
    invalid(store.compact(-7).await, "negative compaction");
    assert_eq!(store.current_revision().await.unwrap(), before);
}

/// What RBAC's index waits for: the revision of this storage's newest write under a
/// prefix, known without asking the store.
async fn own_writes_are_followed_by_prefix(store: Arc<dyn Storage>) {
    use std::sync::atomic::Ordering::Acquire;
    let early = "/registry/limitranges/own/early";
    store.create(early, b("0")).await.unwrap();
    let followed = store.follow_own_writes("/registry/limitranges/own/");
    let sibling = store.follow_own_writes("/registry/limitranges/other/");
    assert_eq!(
        followed.load(Acquire),
        0,
        "writes before following count nothing"
    );
    let a = "/registry/limitranges/own/a";
    let created = store.create(a, b("1")).await.unwrap();
    assert_eq!(followed.load(Acquire), created.mod_revision);
    let updated = store.update(a, b("2"), created.mod_revision).await.unwrap();
    assert_eq!(followed.load(Acquire), updated.mod_revision);
    let at = store
        .update_at(a, b("3"), updated.mod_revision)
        .await
        .unwrap();
    assert_eq!(followed.load(Acquire), at);
    // Writes that did not happen count nothing.
    assert!(
        store
            .update_at(a, b("4"), created.mod_revision)
            .await
            .is_err()
    );
    assert!(store.create(a, b("5")).await.is_err());
    assert_eq!(followed.load(Acquire), at);
    let other = store
        .create("/registry/limitranges/other/s", b("s"))
        .await
        .unwrap();
    assert_eq!(followed.load(Acquire), at, "a sibling prefix's write");
    assert_eq!(sibling.load(Acquire), other.mod_revision);
    let deleted = store.delete_at(a, at).await.unwrap();
    assert_eq!(followed.load(Acquire), deleted);
    let gone = store.delete(early, None).await.unwrap();
    assert_eq!(followed.load(Acquire), gone.revision);
    assert_eq!(
        store
            .follow_own_writes("/registry/limitranges/own/")
            .load(Acquire),
        gone.revision,
        "following again shares the counter"
    );
}

/// One `#[tokio::test]` per behaviour for a backend: `$open` is an async expression
/// giving `Option<(Arc<dyn Storage>, guard)>` (`None` skips the test: the backend's
/// server is not installed here), the guard living until the test ends.
macro_rules! backend_suite {
    ($backend:ident, $open:expr) => {
        mod $backend {
            #[allow(unused_imports)]
            use super::*;
            backend_suite!(@tests $open;
                create_only_if_absent,
                update_is_compare_and_swap,
                delete_with_and_without_precondition,
                delete_at_a_revision_returns_the_deletions_revision,
                update_at_a_revision_returns_the_writes_revision,
                list_pages_at_one_revision_while_writes_happen,
                list_at_compacted_or_future_revision_fails,
                list_rejects_start_key_outside_prefix,
                watch_from_a_past_revision_then_live,
                watch_from_now_sees_only_new_writes,
                watch_without_prev_reports_keys_and_new_values,
                watch_of_a_prefix_ignores_sibling_prefixes,
                compaction_forgets_history_but_not_keys,
                concurrent_writers_lose_no_update,
                bad_requests_are_invalid_and_change_nothing,
                watches_started_during_writes_see_every_later_event_once,
                the_largest_revision_is_in_the_future_not_a_crash,
                own_writes_are_followed_by_prefix,
            );
        }
    };
    (@tests $open:expr; $($behaviour:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $behaviour() {
                let Some((store, _guard)) = $open else {
                    return;
                };
                super::$behaviour(store).await;
            }
        )*
    };
}

backend_suite!(memory, support::memory().await);
backend_suite!(redb, support::redb().await);
backend_suite!(etcd, support::etcd().await);
