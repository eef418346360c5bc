//! The thread-safe store and indexer of an informer (client-go's `cache.Store`,
//! `cache.Indexer` and `threadSafeMap`).
//!
//! Without a codec ([`Indexer::new`]), objects are held as `Arc<T>` and handed out as
//! clones of the `Arc`: a read never copies an object. With a [`StoreCodec`]
//! ([`Indexer::with_codec`], what the [`Cache`](super::Cache) uses by default), each
//! object is held encoded and decoded on every read into a fresh `Arc<T>`: a fraction of
//! the memory, for a read cost of the order of the deep copy Go's cache makes on every
//! read (see [`stored`](super::stored)). Either way, callers who want to change an object
//! clone it.
//!
//! Every index is kept up to date on each write, and [`Indexer::replace`] swaps the whole
//! content under one write lock, so a reader sees either the old list or the new one,
//! never a half-applied one.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use apimachinery::runtime::Object;

use super::stored::{StoreCodec, Stored};

/// The name of the index every indexer has: objects by namespace (client-go's
/// `cache.NamespaceIndex`).
pub const NAMESPACE_INDEX: &str = "namespace";

/// An index function: the values under which an object is found in one index
/// (client-go's `IndexFunc`). An object may be under several values or none.
pub type IndexFunc<T> = Arc<dyn Fn(&T) -> Vec<String> + Send + Sync>;

/// Errors of store lookups.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The index asked for was never added.
    #[error("index {name:?} does not exist")]
    IndexNotFound {
        /// The index name.
        name: String,
    },
    /// An index was added twice.
    #[error("index {name:?} already exists")]
    IndexExists {
        /// The index name.
        name: String,
    },
    /// A stored entry did not decode (the codec's encoder and decoder disagree: a bug,
    /// reported rather than hidden).
    #[error("the stored object {key:?} does not decode: {message}")]
    Undecodable {
        /// The object's key.
        key: String,
        /// Why.
        message: String,
    },
}

/// The key of an object in a store: `namespace/name`, or `name` for cluster-scoped
/// objects (client-go's `MetaNamespaceKeyFunc`).
pub fn object_key<T: Object + ?Sized>(obj: &T) -> String {
    match obj.meta() {
        Some(meta) => namespaced_key(meta.namespace(), meta.name()),
        None => String::new(),
    }
}

/// The store key of `name` in `namespace` (empty for cluster-scoped objects).
pub fn namespaced_key(namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_owned()
    } else {
        format!("{namespace}/{name}")
    }
}

/// The namespace part of a store key: what the namespace index holds the key under.
fn key_namespace(key: &str) -> &str {
    key.split_once('/').map_or("", |(namespace, _)| namespace)
}

/// An object's key, shared by the item map and every index entry of the object: one
/// allocation per object instead of one per place the key is kept.
type Key = Arc<str>;

struct Index<T> {
    func: IndexFunc<T>,
    /// index value -> keys of the objects under it.
    values: HashMap<String, BTreeSet<Key>>,
}

impl<T> Index<T> {
    fn remove_value(&mut self, value: &str, key: &str) {
        if let Some(keys) = self.values.get_mut(value) {
            keys.remove(key);
            if keys.is_empty() {
                self.values.remove(value);
            }
        }
    }
}

struct State<T> {
    items: HashMap<Key, Stored<T>>,
    indexes: BTreeMap<String, Index<T>>,
}

impl<T> State<T> {
    fn index_add(&mut self, key: &Key, obj: &T) {
        for index in self.indexes.values_mut() {
            for value in (index.func)(obj) {
                index
                    .values
                    .entry(value)
                    .or_default()
                    .insert(Arc::clone(key));
            }
        }
    }

    /// Removes `key` from every index, `old` being what was stored under it. The
    /// namespace index's value comes from the key itself, so that an encoded object is
    /// decoded only when other indexes need it; one that does not decode is removed
    /// from every value of those indexes (slower, never stale).
    fn index_remove(&mut self, key: &str, old: &Stored<T>, codec: Option<&StoreCodec<T>>) {
        let custom = self.indexes.len() > 1;
        let decoded = if custom { old.load(codec).ok() } else { None };
        for (name, index) in self.indexes.iter_mut() {
            if name == NAMESPACE_INDEX {
                index.remove_value(key_namespace(key), key);
                continue;
            }
            match &decoded {
                Some(obj) => {
                    for value in (index.func)(obj) {
                        index.remove_value(&value, key);
                    }
                }
                None => index.values.retain(|_, keys| {
                    keys.remove(key);
                    !keys.is_empty()
                }),
            }
        }
    }
}

/// A thread-safe, indexed store of `T` keyed by `namespace/name` (client-go's
/// `cache.Indexer`; a [`Store`] is the same thing).
///
/// ```
/// use std::sync::Arc;
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};
/// use controller_runtime::cache::Indexer;
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Widget", namespaced)]
/// pub struct Widget { pub metadata: ObjectMeta }
///
/// let store = Indexer::<Widget>::new();
/// let mut w = Widget::default();
/// w.metadata.namespace = "default".into();
/// w.metadata.name = "a".into();
/// store.add(Arc::new(w));
/// let got = store.get_by_key("default/a").unwrap();
/// assert_eq!(got.metadata.name, "a");
/// assert_eq!(store.by_index("namespace", "default")?.len(), 1);
/// # Ok::<(), controller_runtime::cache::StoreError>(())
/// ```
pub struct Indexer<T> {
    state: RwLock<State<T>>,
    codec: Option<StoreCodec<T>>,
}

/// client-go's `cache.Store`: an [`Indexer`] used without custom indexes.
pub type Store<T> = Indexer<T>;

impl<T: Object> Default for Indexer<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Object> std::fmt::Debug for Indexer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.read();
        f.debug_struct("Indexer")
            .field("len", &state.items.len())
            .field("indexes", &state.indexes.keys().collect::<Vec<_>>())
            .field("codec", &self.codec)
            .finish()
    }
}

/// Logs an entry that did not decode, for the reads whose signature has no error (the
/// `try_` reads return it).
fn report(error: &StoreError) {
    tracing::error!(%error, "cache: a stored object was skipped");
}

impl<T: Object> Indexer<T> {
    /// An empty indexer with the namespace index, holding objects shared as decoded.
    pub fn new() -> Self {
        Self::with_codec(None)
    }

    /// An empty indexer with the namespace index, holding objects encoded with `codec`
    /// (shared as decoded when `None`).
    pub fn with_codec(codec: Option<StoreCodec<T>>) -> Self {
        let mut indexes = BTreeMap::new();
        let namespace: IndexFunc<T> = Arc::new(|obj: &T| {
            obj.meta()
                .map(|m| vec![m.namespace().to_owned()])
                .unwrap_or_default()
        });
        indexes.insert(
            NAMESPACE_INDEX.to_owned(),
            Index {
                func: namespace,
                values: HashMap::new(),
            },
        );
        Indexer {
            state: RwLock::new(State {
                items: HashMap::new(),
                indexes,
            }),
            codec,
        }
    }

    /// The codec objects are held with; `None` when they are shared as decoded.
    pub fn codec(&self) -> Option<&StoreCodec<T>> {
        self.codec.as_ref()
    }

    // A panicking index function poisons the lock; the state it left is still
    // consistent per key (each write finishes its index updates before returning), so
    // reads and writes go on rather than propagate the panic to every later reader.
    fn read(&self) -> RwLockReadGuard<'_, State<T>> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, State<T>> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    fn load(&self, key: &str, stored: &Stored<T>) -> Result<Arc<T>, StoreError> {
        stored
            .load(self.codec.as_ref())
            .map_err(|message| StoreError::Undecodable {
                key: key.to_owned(),
                message,
            })
    }

    /// Decodes entries, logging and skipping those that do not decode.
    fn load_or_skip<'a>(
        &self,
        entries: impl Iterator<Item = (&'a Key, &'a Stored<T>)>,
    ) -> Vec<Arc<T>>
    where
        T: 'a,
    {
        entries
            .filter_map(|(key, stored)| self.load(key, stored).inspect_err(report).ok())
            .collect()
    }

    /// Adds indexes (client-go's `AddIndexers`); objects already stored are indexed at
    /// once.
    pub fn add_indexers(
        &self,
        indexers: impl IntoIterator<Item = (String, IndexFunc<T>)>,
    ) -> Result<(), StoreError> {
        let mut state = self.write();
        let new: Vec<(String, IndexFunc<T>)> = indexers.into_iter().collect();
        for (name, _) in &new {
            if state.indexes.contains_key(name) {
                return Err(StoreError::IndexExists { name: name.clone() });
            }
        }
        let objects = self.load_all(&state.items)?;
        for (name, func) in new {
            state.indexes.insert(
                name,
                Index {
                    values: index_values(&func, &objects),
                    func,
                },
            );
        }
        Ok(())
    }

    /// Every stored object decoded, for building an index: an entry that does not
    /// decode fails the whole, as an index missing it would be wrong.
    fn load_all(&self, items: &HashMap<Key, Stored<T>>) -> Result<Vec<(Key, Arc<T>)>, StoreError> {
        items
            .iter()
            .map(|(key, stored)| Ok((Arc::clone(key), self.load(key, stored)?)))
            .collect()
    }

    /// Stores `obj` under its key; returns the entry it replaced, still encoded (the
    /// informer decodes it only when a handler is told about the update).
    pub(crate) fn add_entry(&self, obj: &Arc<T>) -> (Key, Option<Stored<T>>) {
        let key: Key = object_key(obj.as_ref()).into();
        let stored = Stored::new(obj, self.codec.as_ref());
        let mut state = self.write();
        let old = state.items.insert(Arc::clone(&key), stored);
        if let Some(old) = &old {
            state.index_remove(&key, old, self.codec.as_ref());
        }
        state.index_add(&key, obj);
        (key, old)
    }

    /// Decodes an entry [`add_entry`](Self::add_entry) or
    /// [`replace_entries`](Self::replace_entries) gave back.
    pub(crate) fn load_entry(&self, key: &str, stored: &Stored<T>) -> Result<Arc<T>, StoreError> {
        self.load(key, stored)
    }

    /// Adds or replaces an object under its key; returns the object it replaced (an old
    /// entry that does not decode is logged and not returned).
    pub fn add(&self, obj: Arc<T>) -> Option<Arc<T>> {
        let (key, old) = self.add_entry(&obj);
        old.and_then(|old| self.load(&key, &old).inspect_err(report).ok())
    }

    /// Same as [`add`](Self::add) (client-go keeps both names).
    pub fn update(&self, obj: Arc<T>) -> Option<Arc<T>> {
        self.add(obj)
    }

    /// Removes the object under `key`; returns it, decoded (an entry that does not
    /// decode is removed, logged and not returned).
    pub fn delete_by_key(&self, key: &str) -> Option<Arc<T>> {
        let old = self.delete_entry(key)?;
        self.load(key, &old).inspect_err(report).ok()
    }

    /// Removes the entry under `key`; returns it, still encoded.
    pub(crate) fn delete_entry(&self, key: &str) -> Option<Stored<T>> {
        let mut state = self.write();
        let old = state.items.remove(key)?;
        state.index_remove(key, &old, self.codec.as_ref());
        Some(old)
    }

    /// Removes the object stored under `obj`'s key; returns what was stored.
    pub fn delete(&self, obj: &T) -> Option<Arc<T>> {
        self.delete_by_key(&object_key(obj))
    }

    /// Replaces the whole content at once (client-go's `Replace`): readers see the old
    /// content or the new one, never a mix. Returns the previous content by key (entries
    /// that do not decode are logged and left out).
    pub fn replace(&self, objects: Vec<Arc<T>>) -> HashMap<Arc<str>, Arc<T>> {
        self.replace_entries(&objects)
            .into_iter()
            .filter_map(|(key, stored)| {
                let obj = self.load(&key, &stored).inspect_err(report).ok()?;
                Some((key, obj))
            })
            .collect()
    }

    /// [`replace`](Self::replace), returning the previous entries still encoded.
    pub(crate) fn replace_entries(&self, objects: &[Arc<T>]) -> HashMap<Key, Stored<T>> {
        // Build the new items and indexes outside the lock: readers keep reading the old
        // content meanwhile, and the swap itself is a few pointer moves.
        let funcs: Vec<(String, IndexFunc<T>)> = self
            .read()
            .indexes
            .iter()
            .map(|(name, index)| (name.clone(), Arc::clone(&index.func)))
            .collect();
        let mut new_state = State {
            items: HashMap::with_capacity(objects.len()),
            indexes: funcs
                .into_iter()
                .map(|(name, func)| {
                    (
                        name,
                        Index {
                            func,
                            values: HashMap::new(),
                        },
                    )
                })
                .collect(),
        };
        let mut keyed = Vec::with_capacity(objects.len());
        for obj in objects {
            let key = Key::from(object_key(obj.as_ref()));
            new_state
                .items
                .insert(Arc::clone(&key), Stored::new(obj, self.codec.as_ref()));
            keyed.push((key, Arc::clone(obj)));
        }
        // A list naming a key twice keeps the last object, as the items map does.
        let mut seen = std::collections::HashSet::with_capacity(keyed.len());
        for (key, obj) in keyed.iter().rev() {
            if seen.insert(Arc::clone(key)) {
                new_state.index_add(key, obj);
            }
        }
        let mut state = self.write();
        // An index added while this one was built (possible only before an informer
        // starts, and then the store is empty) would be lost: rebuild it on the new items.
        let missing: Vec<(String, IndexFunc<T>)> = state
            .indexes
            .iter()
            .filter(|(name, _)| !new_state.indexes.contains_key(*name))
            .map(|(name, index)| (name.clone(), Arc::clone(&index.func)))
            .collect();
        for (name, func) in missing {
            let values = index_values(&func, &keyed);
            new_state.indexes.insert(name, Index { func, values });
        }
        let old = std::mem::replace(&mut *state, new_state);
        old.items
    }

    /// The object under `key` (`namespace/name`, or `name` when cluster-scoped); an
    /// entry that does not decode is logged and reads as absent
    /// ([`try_get_by_key`](Self::try_get_by_key) returns the error).
    pub fn get_by_key(&self, key: &str) -> Option<Arc<T>> {
        self.try_get_by_key(key).inspect_err(report).ok().flatten()
    }

    /// The object under `key`, or why it does not decode.
    pub fn try_get_by_key(&self, key: &str) -> Result<Option<Arc<T>>, StoreError> {
        let state = self.read();
        state
            .items
            .get(key)
            .map(|stored| self.load(key, stored))
            .transpose()
    }

    /// The stored object with `obj`'s key.
    pub fn get(&self, obj: &T) -> Option<Arc<T>> {
        self.get_by_key(&object_key(obj))
    }

    /// Every object, in no particular order (entries that do not decode are logged and
    /// left out; [`try_list`](Self::try_list) fails on them).
    pub fn list(&self) -> Vec<Arc<T>> {
        let state = self.read();
        self.load_or_skip(state.items.iter())
    }

    /// Every object, or the first entry that does not decode.
    pub fn try_list(&self) -> Result<Vec<Arc<T>>, StoreError> {
        let state = self.read();
        state
            .items
            .iter()
            .map(|(key, stored)| self.load(key, stored))
            .collect()
    }

    /// Every key, in no particular order.
    pub fn list_keys(&self) -> Vec<String> {
        self.read().items.keys().map(|k| k.to_string()).collect()
    }

    /// The number of objects.
    pub fn len(&self) -> usize {
        self.read().items.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.read().items.is_empty()
    }

    /// The objects under `value` in index `index_name` (client-go's `ByIndex`); entries
    /// that do not decode are logged and left out ([`try_by_index`](Self::try_by_index)
    /// fails on them).
    pub fn by_index(&self, index_name: &str, value: &str) -> Result<Vec<Arc<T>>, StoreError> {
        let state = self.read();
        let keys = Self::index_entry(&state, index_name, value)?;
        Ok(self.load_or_skip(
            keys.into_iter()
                .flatten()
                .filter_map(|k| state.items.get_key_value(k)),
        ))
    }

    /// [`by_index`](Self::by_index), failing on an entry that does not decode.
    pub fn try_by_index(&self, index_name: &str, value: &str) -> Result<Vec<Arc<T>>, StoreError> {
        let state = self.read();
        let keys = Self::index_entry(&state, index_name, value)?;
        keys.into_iter()
            .flatten()
            .filter_map(|k| state.items.get_key_value(k))
            .map(|(key, stored)| self.load(key, stored))
            .collect()
    }

    fn index_entry<'a>(
        state: &'a State<T>,
        index_name: &str,
        value: &str,
    ) -> Result<Option<&'a BTreeSet<Key>>, StoreError> {
        let index = state
            .indexes
            .get(index_name)
            .ok_or_else(|| StoreError::IndexNotFound {
                name: index_name.to_owned(),
            })?;
        Ok(index.values.get(value))
    }

    /// The keys under `value` in index `index_name` (client-go's `IndexKeys`).
    pub fn index_keys(&self, index_name: &str, value: &str) -> Result<Vec<String>, StoreError> {
        let state = self.read();
        let keys = Self::index_entry(&state, index_name, value)?;
        Ok(keys.into_iter().flatten().map(|k| k.to_string()).collect())
    }

    /// Every value of index `index_name` with at least one object (client-go's
    /// `ListIndexFuncValues`).
    pub fn list_index_func_values(&self, index_name: &str) -> Result<Vec<String>, StoreError> {
        let state = self.read();
        let index = state
            .indexes
            .get(index_name)
            .ok_or_else(|| StoreError::IndexNotFound {
                name: index_name.to_owned(),
            })?;
        Ok(index.values.keys().cloned().collect())
    }

    /// Whether an index of that name exists.
    pub fn has_index(&self, index_name: &str) -> bool {
        self.read().indexes.contains_key(index_name)
    }
}

#[cfg(test)]
impl<T: Object> Indexer<T> {
    /// Replaces the entry under `key` with bytes no codec decodes.
    pub(crate) fn corrupt_for_test(&self, key: &str) {
        if let Some(stored) = self.write().items.get_mut(key) {
            *stored = Stored::Encoded(Box::new([0xff]));
        }
    }
}

/// The values of one index over `objects`.
fn index_values<T>(
    func: &IndexFunc<T>,
    objects: &[(Key, Arc<T>)],
) -> HashMap<String, BTreeSet<Key>> {
    let mut values: HashMap<String, BTreeSet<Key>> = HashMap::new();
    for (key, obj) in objects {
        for value in func(obj) {
            values.entry(value).or_default().insert(Arc::clone(key));
        }
    }
    values
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use apimachinery::runtime::Unstructured;
    use serde_json::json;
    use std::collections::BTreeSet;

    fn cm(ns: &str, name: &str, app: &str) -> Arc<Unstructured> {
        let mut obj = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name, "labels": {"app": app}}});
        if !ns.is_empty() {
            obj["metadata"]["namespace"] = json!(ns);
        }
        Arc::new(Unstructured::from_value(obj).unwrap())
    }

    fn app_index() -> IndexFunc<Unstructured> {
        Arc::new(|o: &Unstructured| {
            o.nested_string(&["metadata", "labels", "app"])
                .ok()
                .flatten()
                .map(|s| vec![s.to_owned()])
                .unwrap_or_default()
        })
    }

    fn names(v: Vec<Arc<Unstructured>>) -> BTreeSet<String> {
        v.iter().map(|o| object_key(o.as_ref())).collect()
    }

    #[test]
    fn keys_are_namespace_slash_name() {
        assert_eq!(object_key(cm("ns", "a", "x").as_ref()), "ns/a");
        assert_eq!(object_key(cm("", "node1", "x").as_ref()), "node1");
    }

    #[test]
    fn get_hands_out_the_same_allocation() {
        let store = Indexer::new();
        let obj = cm("ns", "a", "x");
        store.add(Arc::clone(&obj));
        let got = store.get_by_key("ns/a").unwrap();
        assert!(Arc::ptr_eq(&obj, &got));
        assert!(Arc::ptr_eq(&obj, &store.list()[0]));
    }

    #[test]
    fn indexes_follow_updates_and_deletes() {
        let store = Indexer::new();
        store
            .add_indexers([("app".to_owned(), app_index())])
            .unwrap();
        store.add(cm("ns", "a", "web"));
        store.add(cm("ns", "b", "web"));
        store.add(cm("other", "c", "db"));
        assert_eq!(
            names(store.by_index("app", "web").unwrap()),
            BTreeSet::from(["ns/a".to_owned(), "ns/b".to_owned()])
        );
        assert_eq!(
            names(store.by_index(NAMESPACE_INDEX, "other").unwrap()).len(),
            1
        );
        // Moving an object to another index value removes it from the old one.
        let old = store.update(cm("ns", "a", "db")).unwrap();
        assert_eq!(
            old.nested_string(&["metadata", "labels", "app"]).unwrap(),
            Some("web")
        );
        assert_eq!(names(store.by_index("app", "web").unwrap()).len(), 1);
        assert_eq!(names(store.by_index("app", "db").unwrap()).len(), 2);
        store.delete_by_key("other/c");
        assert_eq!(
            store
                .list_index_func_values("app")
                .unwrap()
                .into_iter()
                .collect::<BTreeSet<_>>(),
            BTreeSet::from(["web".to_owned(), "db".to_owned()])
        );
        store.delete_by_key("ns/a");
        assert_eq!(
            store.list_index_func_values("app").unwrap(),
            vec!["web".to_owned()]
        );
        assert!(store.by_index("app", "db").unwrap().is_empty());
    }

    #[test]
    fn unknown_and_duplicate_indexes_are_errors() {
        let store = Indexer::<Unstructured>::new();
        assert_eq!(
            store.by_index("nope", "x").unwrap_err(),
            StoreError::IndexNotFound {
                name: "nope".into()
            }
        );
        assert!(matches!(
            store.add_indexers([(NAMESPACE_INDEX.to_owned(), app_index())]),
            Err(StoreError::IndexExists { .. })
        ));
    }

    #[test]
    fn indexes_added_later_cover_stored_objects() {
        let store = Indexer::new();
        store.add(cm("ns", "a", "web"));
        store
            .add_indexers([("app".to_owned(), app_index())])
            .unwrap();
        assert_eq!(
            store.index_keys("app", "web").unwrap(),
            vec!["ns/a".to_owned()]
        );
    }

    #[test]
    fn replace_swaps_items_and_indexes() {
        let store = Indexer::new();
        store
            .add_indexers([("app".to_owned(), app_index())])
            .unwrap();
        store.add(cm("ns", "a", "web"));
        store.add(cm("ns", "b", "web"));
        let old = store.replace(vec![cm("ns", "b", "db"), cm("ns", "c", "db")]);
        assert_eq!(old.len(), 2);
        assert_eq!(
            names(store.list()),
            BTreeSet::from(["ns/b".to_owned(), "ns/c".to_owned()])
        );
        assert!(store.by_index("app", "web").unwrap().is_empty());
        assert_eq!(store.by_index("app", "db").unwrap().len(), 2);
    }

    #[test]
    fn readers_never_see_a_half_applied_replace() {
        // Two lists of 2,000 objects with disjoint names, swapped back and forth while
        // readers check that every list they see is wholly one or the other.
        let store = Arc::new(Indexer::new());
        let first: Vec<_> = (0..2000).map(|i| cm("ns", &format!("a{i}"), "x")).collect();
        let second: Vec<_> = (0..2000).map(|i| cm("ns", &format!("b{i}"), "x")).collect();
        store.replace(first.clone());
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let reader = {
            let store = Arc::clone(&store);
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut seen = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let list = store.list();
                    assert_eq!(list.len(), 2000);
                    let prefix = object_key(list[0].as_ref())[3..4].to_owned();
                    assert!(list.iter().all(|o| object_key(o.as_ref())[3..4] == prefix));
                    let by_ns = store.by_index(NAMESPACE_INDEX, "ns").unwrap();
                    assert_eq!(by_ns.len(), 2000);
                    seen += 1;
                }
                seen
            })
        };
        for i in 0..20 {
            store.replace(if i % 2 == 0 {
                second.clone()
            } else {
                first.clone()
            });
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(reader.join().unwrap() > 0);
    }
}
