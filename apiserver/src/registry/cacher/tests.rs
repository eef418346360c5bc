//! The watch cache's tests: lists and resumes served from it, previous objects it fills in.

use super::*;
use crate::storage::{ListOptions, MemoryStorage, WatchEvent};
use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersionKind;
use bytes::Bytes;

#[derive(apimachinery::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(group = "example.com", version = "v1", kind = "Widget")]
pub struct Widget {
    pub metadata: ObjectMeta,
}

fn info() -> ResourceInfo {
    ResourceInfo {
        group: "example.com".into(),
        resource: "widgets".into(),
        singular: "widget".into(),
        kind: "Widget".into(),
        list_kind: "WidgetList".into(),
        namespaced: false,
        short_names: Vec::new(),
        categories: Vec::new(),
        verbs: Vec::new(),
        versions: vec!["v1".into()],
        storage_gvk: GroupVersionKind::new("example.com", "v1", "Widget"),
        key_prefix: "/registry/example.com/widgets".into(),
        has_spec: false,
        has_status: false,
        has_scale: false,
        subresources: Vec::new(),
        subresources_not_served: Vec::new(),
    }
}

fn widget(name: &str) -> Bytes {
    Bytes::from(format!(
        r#"{{"apiVersion":"example.com/v1","kind":"Widget","metadata":{{"name":"{name}"}}}}"#
    ))
}

/// A write noted by the server is in the next `list_current` (its reader waits for
/// the cache's watch to deliver it), in key order, deletions included.
#[tokio::test]
async fn list_current_shows_the_servers_own_writes_in_key_order() {
    let mut scheme = Scheme::new();
    scheme.add_known_type::<Widget>().unwrap();
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    let cacher = Arc::new(Cacher::new(Arc::new(scheme), storage.clone(), info()));
    let keys = || async {
        let kvs = cacher.list_current().await.unwrap();
        kvs.into_iter().map(|kv| kv.key).collect::<Vec<String>>()
    };
    assert!(keys().await.is_empty());
    for name in ["b", "c", "a"] {
        let kv = storage
            .create(
                &format!("/registry/example.com/widgets/{name}"),
                widget(name),
            )
            .await
            .unwrap();
        cacher.note_write(kv.mod_revision);
        let keys = keys().await;
        assert!(keys.contains(&format!("/registry/example.com/widgets/{name}")));
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
    }
    let deleted = storage
        .delete("/registry/example.com/widgets/c", None)
        .await
        .unwrap();
    cacher.note_write(deleted.revision);
    assert_eq!(
        keys().await,
        [
            "/registry/example.com/widgets/a",
            "/registry/example.com/widgets/b"
        ]
    );
}

/// A consistent list from the cache: the objects under the prefix in key order, at
/// a revision no older than the storage's; refused (the caller reads the storage)
/// when the storage has moved past what the cache has seen; and the objects are
/// those the watch events carry, decoded once for both.
#[tokio::test]
async fn lists_from_the_cache_only_when_it_has_seen_the_current_revision() {
    let mut scheme = Scheme::new();
    scheme.add_known_type::<Widget>().unwrap();
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    let prefix = "/registry/example.com/widgets/";
    for name in ["b", "a"] {
        storage
            .create(&format!("{prefix}{name}"), widget(name))
            .await
            .unwrap();
    }
    let cacher = Arc::new(Cacher::new(Arc::new(scheme), storage.clone(), info()));
    let names = |items: &[CachedObject]| {
        items
            .iter()
            .map(|o| o.object().unwrap().meta().unwrap().name().to_owned())
            .collect::<Vec<_>>()
    };
    let current = storage.current_revision().await.unwrap();
    let (revision, items) = cacher.list_at_least(prefix, current).await.unwrap();
    assert!(revision >= current);
    assert_eq!(names(&items), ["a", "b"]);
    assert_eq!(items[0].key(), format!("{prefix}a"));

    // A write the cache's watch never sees (another resource's): not known fresh.
    storage
        .create("/registry/example.com/gadgets/g", widget("g"))
        .await
        .unwrap();
    let current = storage.current_revision().await.unwrap();
    assert!(cacher.list_at_least(prefix, current).await.is_none());

    // This server's own write to the resource: the list waits for it.
    let (_, mut events) = cacher.watch(0).await.unwrap();
    let kv = storage
        .create(&format!("{prefix}c"), widget("c"))
        .await
        .unwrap();
    cacher.note_write(kv.mod_revision);
    let (revision, items) = cacher.list_at_least(prefix, kv.mod_revision).await.unwrap();
    assert_eq!(revision, kv.mod_revision);
    assert_eq!(names(&items), ["a", "b", "c"]);
    assert_eq!(
        items[2]
            .object()
            .unwrap()
            .meta()
            .unwrap()
            .resource_version(),
        kv.mod_revision.to_string()
    );
    let added = events.next().await.unwrap().unwrap();
    assert!(Arc::ptr_eq(
        added.object().unwrap(),
        items[2].object().unwrap()
    ));
}

/// Writes past the ring's capacity once its events are stale, in a window that begins
/// where the server opened the storage (as Go's): a resume the ring still covers is
/// replayed from it, in order; an older one is Go's 410 "too old resource version",
/// quoting the revision before the ring's oldest event; and an exact list before the
/// ring's oldest event is left to the storage.
#[tokio::test]
async fn resumes_from_the_ring_and_expires_what_it_has_dropped() {
    let mut scheme = Scheme::new();
    scheme.add_known_type::<Widget>().unwrap();
    let scheme = Arc::new(scheme);
    let mut reshaped = crate::storage::testing::ReshapedWatches::new(same);
    // (Revision 0 means "now" to a storage watch: start after a first write.)
    reshaped
        .create("/registry/example.com/widgets/first", widget("first"))
        .await
        .unwrap();
    reshaped.opened_at = Some(1);
    let storage: Arc<dyn Storage> = Arc::new(reshaped);
    let cacher = Arc::new(Cacher::new(scheme, storage.clone(), info()));
    let (start, _live) = cacher.watch(0).await.unwrap();
    assert_eq!(start, 1);
    // A first window's worth, then as many again once those are stale: the ring does
    // not grow (Go grows it only while its oldest event is fresh) and drops them.
    write_widgets(&storage, &cacher, 0..history::LOWER_BOUND).await;
    cacher
        .window()
        .ring
        .age_by(history::EVENT_FRESH + std::time::Duration::from_secs(1));
    let last = write_widgets(
        &storage,
        &cacher,
        history::LOWER_BOUND..2 * history::LOWER_BOUND,
    )
    .await;
    // Recent: from the ring.
    let (_, mut recent) = cacher.watch(last - 3).await.unwrap();
    for want in last - 2..=last {
        let e = recent.next().await.unwrap().unwrap();
        assert_eq!((e.revision, e.event_type), (want, EventType::Added));
    }
    // Older than the ring: expired.
    let oldest = last - i64::try_from(history::LOWER_BOUND).unwrap() + 1;
    let (_, mut old) = cacher.watch(start).await.unwrap();
    let err = old.next().await.unwrap().unwrap_err();
    assert_eq!(err.code(), 410);
    assert_eq!(
        err.status.message,
        format!("too old resource version: {start} ({})", oldest - 1)
    );
    assert!(old.next().await.is_none());
    // The oldest revision still covered: its events.
    let (_, mut edge) = cacher.watch(oldest - 1).await.unwrap();
    assert_eq!(edge.next().await.unwrap().unwrap().revision, oldest);
    // Exact lists: from the oldest event on, not before.
    let prefix = "/registry/example.com/widgets/";
    assert!(
        cacher
            .list_exact(prefix, prefix, oldest - 1)
            .await
            .is_none()
    );
    let items = cacher.list_exact(prefix, prefix, oldest).await.unwrap();
    assert_eq!(items.len(), usize::try_from(oldest).unwrap());
}

/// A burst of writes past the ring's first capacity (and past the fixed 1024 events it
/// once held), all fresh: the ring grows to keep them, as Go's does, and a watch from
/// before the burst is replayed from it, not answered 410.
#[tokio::test]
async fn a_fresh_burst_is_kept_whole() {
    let mut scheme = Scheme::new();
    scheme.add_known_type::<Widget>().unwrap();
    let scheme = Arc::new(scheme);
    let mut reshaped = crate::storage::testing::ReshapedWatches::new(same);
    reshaped
        .create("/registry/example.com/widgets/first", widget("first"))
        .await
        .unwrap();
    reshaped.opened_at = Some(1);
    let storage: Arc<dyn Storage> = Arc::new(reshaped);
    let cacher = Arc::new(Cacher::new(scheme, storage.clone(), info()));
    let (start, _live) = cacher.watch(0).await.unwrap();
    let burst = 1100;
    let last = write_widgets(&storage, &cacher, 0..burst).await;
    let (_, mut replay) = cacher.watch(start).await.unwrap();
    for want in start + 1..=last {
        let e = replay.next().await.unwrap().unwrap();
        assert_eq!((e.revision, e.event_type), (want, EventType::Added));
    }
    assert_eq!(cacher.window().ring.events().len(), burst);
}

/// Creates widgets `w{i}` for each `i` of `range` and waits until the cache has seen
/// them: the last revision.
async fn write_widgets(
    storage: &Arc<dyn Storage>,
    cacher: &Arc<Cacher>,
    range: std::ops::Range<usize>,
) -> Revision {
    for i in range {
        storage
            .create(
                &format!("/registry/example.com/widgets/w{i}"),
                widget(&format!("w{i}")),
            )
            .await
            .unwrap();
    }
    let last = storage.current_revision().await.unwrap();
    for _ in 0..500 {
        if cacher.last_revision().await == last {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(cacher.last_revision().await, last);
    last
}

/// An identity reshape: the memory storage's own watches.
fn same(events: crate::storage::WatchStream, _: bool) -> crate::storage::WatchStream {
    events
}

/// The key and resourceVersion of each listed object.
fn listed(items: &[CachedObject]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|o| {
            let rv = o.object().unwrap().meta().unwrap().resource_version();
            (o.key().to_owned(), rv.to_owned())
        })
        .collect()
}

/// A storage that cannot tell where the server opened it: the window begins where the
/// cache started, and a watch from before it is served by a storage watch of its own,
/// every event after its revision, in order.
#[tokio::test]
async fn before_a_window_of_its_own_the_storage_answers() {
    let mut scheme = Scheme::new();
    scheme.add_known_type::<Widget>().unwrap();
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    for i in 0..5 {
        storage
            .create(
                &format!("/registry/example.com/widgets/w{i}"),
                widget(&format!("w{i}")),
            )
            .await
            .unwrap();
    }
    let cacher = Arc::new(Cacher::new(Arc::new(scheme), storage, info()));
    let (start, _live) = cacher.watch(0).await.unwrap();
    assert_eq!(start, 5);
    let (_, mut old) = cacher.watch(1).await.unwrap();
    for want in 2..=5 {
        let e = old.next().await.unwrap().unwrap();
        assert_eq!(e.revision, want);
        let name = e
            .object()
            .and_then(|o| o.meta().map(|m| m.name().to_owned()));
        assert_eq!(name.as_deref(), Some(format!("w{}", want - 1).as_str()));
    }
}

/// The window of a cache started after the writes begins at the revision the storage
/// was opened at (Go's caches list as the server starts): a watch from there replays
/// every event since, an exact list at any revision since (or a page of one, from a
/// key) answers what the storage answered then, before and after the storage compacts
/// it, and a revision before the window is Go's 410.
#[tokio::test]
async fn the_window_begins_where_the_storage_was_opened() {
    let mut scheme = Scheme::new();
    scheme.add_known_type::<Widget>().unwrap();
    let mut reshaped = crate::storage::testing::ReshapedWatches::new(same);
    let prefix = "/registry/example.com/widgets/";
    // (Two writes first: a watch from revision 0 means "from now on".)
    for name in ["before", "early"] {
        reshaped
            .create(&format!("{prefix}{name}"), widget(name))
            .await
            .unwrap();
    }
    let opened = reshaped.current_revision().await.unwrap();
    assert!(opened > 1);
    reshaped.opened_at = Some(opened);
    let storage: Arc<dyn Storage> = Arc::new(reshaped);
    // Creations, replacements and deletions, some of keys deleted and created again.
    let mut revisions = vec![opened];
    for round in 0..4 {
        for name in ["c", "a", "b"] {
            let key = format!("{prefix}{name}");
            let kv = match storage.get(&key).await.unwrap() {
                None => storage.create(&key, widget(name)).await.unwrap(),
                Some(_) if round % 2 == 1 && name != "a" => {
                    revisions.push(storage.delete(&key, None).await.unwrap().revision);
                    continue;
                }
                Some(kv) => storage
                    .update(&key, widget(name), kv.mod_revision)
                    .await
                    .unwrap(),
            };
            revisions.push(kv.mod_revision);
        }
    }
    let last = storage.current_revision().await.unwrap();
    let cacher = Arc::new(Cacher::new(Arc::new(scheme), storage.clone(), info()));
    // A watch from where the storage was opened: every event since.
    let (from, mut events) = cacher.watch(opened).await.unwrap();
    assert_eq!(from, opened);
    for want in &revisions[1..] {
        assert_eq!(events.next().await.unwrap().unwrap().revision, *want);
    }
    let truth = |revision: Revision, start: Option<String>| {
        let storage = storage.clone();
        async move {
            let options = ListOptions {
                revision,
                start_key: start,
                limit: 0,
            };
            storage
                .list(prefix, &options)
                .await
                .unwrap()
                .kvs
                .into_iter()
                .map(|kv| (kv.key, kv.mod_revision.to_string()))
                .collect::<Vec<_>>()
        }
    };
    let mut answers = Vec::new();
    for revision in opened..=last {
        let cached = cacher.list_exact(prefix, prefix, revision).await.unwrap();
        assert_eq!(
            listed(&cached),
            truth(revision, None).await,
            "at {revision}"
        );
        let from_b = format!("{prefix}b");
        let page = cacher.list_exact(prefix, &from_b, revision).await.unwrap();
        assert_eq!(listed(&page), truth(revision, Some(from_b)).await);
        answers.push(listed(&cached));
    }
    // Compacted away in the storage: the cache still answers, the same.
    storage.compact(last).await.unwrap();
    for (revision, answer) in (opened..=last).zip(answers) {
        let cached = cacher.list_exact(prefix, prefix, revision).await.unwrap();
        assert_eq!(listed(&cached), answer);
    }
    // Not yet seen, and before the window: the storage's to answer.
    assert!(cacher.list_exact(prefix, prefix, last + 1).await.is_none());
    assert!(
        cacher
            .list_exact(prefix, prefix, opened - 1)
            .await
            .is_none()
    );
    let (_, mut old) = cacher.watch(opened - 1).await.unwrap();
    let err = old.next().await.unwrap().unwrap_err();
    assert_eq!(
        err.status.message,
        format!("too old resource version: {} ({opened})", opened - 1)
    );
}

/// Opened at a revision the storage has compacted since: the window begins where the
/// cache started.
#[tokio::test]
async fn a_compacted_opening_revision_starts_the_window_at_the_cache() {
    let mut scheme = Scheme::new();
    scheme.add_known_type::<Widget>().unwrap();
    let mut reshaped = crate::storage::testing::ReshapedWatches::new(same);
    let prefix = "/registry/example.com/widgets/";
    for name in ["a", "b", "c"] {
        reshaped
            .create(&format!("{prefix}{name}"), widget(name))
            .await
            .unwrap();
    }
    reshaped.opened_at = Some(1);
    let now = reshaped.current_revision().await.unwrap();
    reshaped.compact(now).await.unwrap();
    let storage: Arc<dyn Storage> = Arc::new(reshaped);
    let cacher = Arc::new(Cacher::new(Arc::new(scheme), storage, info()));
    let (from, _) = cacher.watch(0).await.unwrap();
    assert_eq!(from, now);
    assert_eq!(
        cacher.list_exact(prefix, prefix, now).await.unwrap().len(),
        3
    );
    assert!(cacher.list_exact(prefix, prefix, 1).await.is_none());
}

/// Watches without previous values leave them all out, as etcd's do.
fn without_prev(events: crate::storage::WatchStream, lean: bool) -> crate::storage::WatchStream {
    if !lean {
        return events;
    }
    Box::pin(events.map(|item| {
        item.map(|event| match event {
            WatchEvent::Put { kv, .. } => WatchEvent::Put { kv, prev: None },
            WatchEvent::Delete { key, revision, .. } => WatchEvent::Delete {
                key,
                prev: None,
                revision,
            },
            progress => progress,
        })
    }))
}

/// Over a storage that sends no previous values, the cache's events still carry
/// them (from its own objects): a modification has the object before it, a deletion
/// the deleted object, and the objects the cache keeps follow every write.
#[tokio::test]
async fn events_carry_previous_objects_the_storage_left_out() {
    let mut scheme = Scheme::new();
    scheme.add_known_type::<Widget>().unwrap();
    let storage: Arc<dyn Storage> =
        Arc::new(crate::storage::testing::ReshapedWatches::new(without_prev));
    storage
        .create("/registry/example.com/widgets/before", widget("before"))
        .await
        .unwrap();
    let cacher = Arc::new(Cacher::new(Arc::new(scheme), storage.clone(), info()));
    let (_, mut events) = cacher.watch(0).await.unwrap();
    let key = "/registry/example.com/widgets/w";
    let created = storage.create(key, widget("w")).await.unwrap();
    let updated = storage
        .update(key, widget("w"), created.mod_revision)
        .await
        .unwrap();
    storage
        .update("/registry/example.com/widgets/before", widget("before"), 1)
        .await
        .unwrap();
    let deleted = storage.delete(key, None).await.unwrap();
    let rv = |o: Option<&Arc<dyn Object>>| {
        o.and_then(|o| o.meta().map(|m| m.resource_version().to_owned()))
    };
    let added = events.next().await.unwrap().unwrap();
    assert_eq!(added.event_type, EventType::Added);
    assert!(added.prev().is_none());
    let modified = events.next().await.unwrap().unwrap();
    assert_eq!(modified.event_type, EventType::Modified);
    assert_eq!(rv(modified.prev()), Some(created.mod_revision.to_string()));
    assert_eq!(
        rv(modified.object()),
        Some(updated.mod_revision.to_string())
    );
    // An object listed before the watch started: its previous value is the listed one.
    let listed = events.next().await.unwrap().unwrap();
    assert_eq!(listed.event_type, EventType::Modified);
    assert_eq!(rv(listed.prev()), Some("1".to_owned()));
    let gone = events.next().await.unwrap().unwrap();
    assert_eq!(gone.event_type, EventType::Deleted);
    assert_eq!(gone.revision, deleted.revision);
    let name = gone
        .object()
        .and_then(|o| o.meta().map(|m| m.name().to_owned()));
    assert_eq!(name.as_deref(), Some("w"));
    assert!(cacher.current(key).await.is_none());
}

#[tokio::test]
async fn undecodable_values_are_skipped() {
    let scheme = Arc::new(Scheme::new());
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    let cacher = Arc::new(Cacher::new(scheme, storage.clone(), info()));
    let (_, mut events) = cacher.watch(0).await.unwrap();
    storage
        .create(
            "/registry/example.com/widgets/a",
            Bytes::from_static(b"not an object"),
        )
        .await
        .unwrap();
    let next = tokio::time::timeout(std::time::Duration::from_millis(200), events.next()).await;
    assert!(next.is_err(), "an undecodable value was delivered");
}
