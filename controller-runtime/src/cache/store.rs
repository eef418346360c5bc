//! The thread-safe store and indexer of an informer (client-go's `cache.Store`,
//! `cache.Indexer` and `threadSafeMap`).
//!
//! Objects are held as `Arc<T>` and handed out as clones of the `Arc`: a read never deep
//! copies an object (seed 004 names controller-runtime's deep copy on every read as its
//! cost). Callers who want to change an object clone it explicitly.
//!
//! Every index is kept up to date on each write, and [`Indexer::replace`] swaps the whole
//! content under one write lock, so a reader sees either the old list or the new one,
//! never a half-applied one.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use apimachinery::runtime::Object;

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

/// An object's key, shared by the item map and every index entry of the object: one
/// allocation per object instead of one per place the key is kept.
type Key = Arc<str>;

struct Index<T> {
    func: IndexFunc<T>,
    /// index value -> keys of the objects under it.
    values: HashMap<String, BTreeSet<Key>>,
}

struct State<T> {
    items: HashMap<Key, Arc<T>>,
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

    fn index_remove(&mut self, key: &str, obj: &T) {
        for index in self.indexes.values_mut() {
            for value in (index.func)(obj) {
                if let Some(keys) = index.values.get_mut(&value) {
                    keys.remove(key);
                    if keys.is_empty() {
                        index.values.remove(&value);
                    }
                }
            }
        }
    }
}

/// A thread-safe, indexed store of `Arc<T>` keyed by `namespace/name` (client-go's
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
            .finish()
    }
}

impl<T: Object> Indexer<T> {
    /// An empty indexer with the namespace index.
    pub fn new() -> Self {
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
        }
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
        for (name, func) in new {
            let mut values: HashMap<String, BTreeSet<Key>> = HashMap::new();
            for (key, obj) in &state.items {
                for value in func(obj) {
                    values.entry(value).or_default().insert(Arc::clone(key));
                }
            }
            state.indexes.insert(name, Index { func, values });
        }
        Ok(())
    }

    /// Adds or replaces an object under its key; returns the object it replaced.
    pub fn add(&self, obj: Arc<T>) -> Option<Arc<T>> {
        let key: Key = object_key(obj.as_ref()).into();
        let mut state = self.write();
        let old = state.items.insert(Arc::clone(&key), Arc::clone(&obj));
        if let Some(old) = &old {
            state.index_remove(&key, old);
        }
        state.index_add(&key, &obj);
        old
    }

    /// Same as [`add`](Self::add) (client-go keeps both names).
    pub fn update(&self, obj: Arc<T>) -> Option<Arc<T>> {
        self.add(obj)
    }

    /// Removes the object under `key`; returns it.
    pub fn delete_by_key(&self, key: &str) -> Option<Arc<T>> {
        let mut state = self.write();
        let old = state.items.remove(key)?;
        state.index_remove(key, &old);
        Some(old)
    }

    /// Removes the object stored under `obj`'s key; returns what was stored.
    pub fn delete(&self, obj: &T) -> Option<Arc<T>> {
        self.delete_by_key(&object_key(obj))
    }

    /// Replaces the whole content at once (client-go's `Replace`): readers see the old
    /// content or the new one, never a mix. Returns the previous content by key.
    pub fn replace(&self, objects: Vec<Arc<T>>) -> HashMap<Arc<str>, Arc<T>> {
        // Build the new items and indexes outside the lock: readers keep reading the old
        // content meanwhile, and the swap itself is a few pointer moves.
        let funcs: Vec<(String, IndexFunc<T>)> = self
            .read()
            .indexes
            .iter()
            .map(|(name, index)| (name.clone(), Arc::clone(&index.func)))
            .collect();
        let mut items = HashMap::with_capacity(objects.len());
        for obj in objects {
            items.insert(Key::from(object_key(obj.as_ref())), obj);
        }
        let mut new_state = State {
            items: HashMap::new(),
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
        for (key, obj) in &items {
            new_state.index_add(key, obj);
        }
        new_state.items = items;
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
            let mut values: HashMap<String, BTreeSet<Key>> = HashMap::new();
            for (key, obj) in &new_state.items {
                for value in func(obj) {
                    values.entry(value).or_default().insert(Arc::clone(key));
                }
            }
            new_state.indexes.insert(name, Index { func, values });
        }
        let old = std::mem::replace(&mut *state, new_state);
        old.items
    }

    /// The object under `key` (`namespace/name`, or `name` when cluster-scoped).
    pub fn get_by_key(&self, key: &str) -> Option<Arc<T>> {
        self.read().items.get(key).cloned()
    }

    /// The stored object with `obj`'s key.
    pub fn get(&self, obj: &T) -> Option<Arc<T>> {
        self.get_by_key(&object_key(obj))
    }

    /// Every object, in no particular order.
    pub fn list(&self) -> Vec<Arc<T>> {
        self.read().items.values().cloned().collect()
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

    /// The objects under `value` in index `index_name` (client-go's `ByIndex`).
    pub fn by_index(&self, index_name: &str, value: &str) -> Result<Vec<Arc<T>>, StoreError> {
        let state = self.read();
        let index = state
            .indexes
            .get(index_name)
            .ok_or_else(|| StoreError::IndexNotFound {
                name: index_name.to_owned(),
            })?;
        Ok(index
            .values
            .get(value)
            .map(|keys| {
                keys.iter()
                    .filter_map(|k| state.items.get(k).cloned())
                    .collect()
            })
            .unwrap_or_default())
    }

    /// The keys under `value` in index `index_name` (client-go's `IndexKeys`).
    pub fn index_keys(&self, index_name: &str, value: &str) -> Result<Vec<String>, StoreError> {
        let state = self.read();
        let index = state
            .indexes
            .get(index_name)
            .ok_or_else(|| StoreError::IndexNotFound {
                name: index_name.to_owned(),
            })?;
        Ok(index
            .values
            .get(value)
            .map(|keys| keys.iter().map(|k| k.to_string()).collect())
            .unwrap_or_default())
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
