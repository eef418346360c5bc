//! The order of a merged list: patch items in the patch's (or `$setElementOrder`'s)
//! order, items only on the server in the live object's order, the two interleaved as
//! Go's `normalizeElementOrder` and `mergeSortedSlice` do.
//!
//! Go sorts with `sort.SliceStable` and a comparison that answers "less" whenever either
//! item is missing from the order list, which is not a consistent order; with such a
//! comparison the result depends on the sorting algorithm, so [`go_stable_sort`] makes
//! the same comparisons Go's insertion sort and SymMerge make.

use serde_json::Value;

use super::error::StrategicMergePatchError;

/// How list items are compared: whole values (primitives) or their merge key's value
/// (objects; Go's `reflect.Map` kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ItemKind<'k> {
    /// Items are scalars, compared whole.
    Primitive,
    /// Items are objects, compared by this merge key.
    Map(&'k str),
}

impl ItemKind<'_> {
    /// What identifies `item` (Go's `index` helper's `getValFn`): a missing key or a
    /// non-object is `None`, which, as Go's `nil`, equals another `None`.
    fn identity<'v>(&self, item: &'v Value) -> Option<&'v Value> {
        match self {
            ItemKind::Primitive => Some(item),
            ItemKind::Map(key) => item.as_object().and_then(|m| m.get(*key)),
        }
    }

    /// The position of `item` in `list` (Go's `index`).
    pub(crate) fn index(&self, list: &[Value], item: &Value) -> Option<usize> {
        let wanted = self.identity(item);
        list.iter().position(|v| self.identity(v) == wanted)
    }
}

/// Sorts `to_sort` by position in `order` (Go's `normalizeSliceOrder`): objects must all
/// carry the merge key, and items marked `$patch: delete` go last.
pub(crate) fn normalize_slice_order(
    to_sort: Vec<Value>,
    order: &[Value],
    kind: ItemKind<'_>,
    path: &str,
) -> Result<Vec<Value>, StrategicMergePatchError> {
    let mut to_delete = Vec::new();
    let mut keep = to_sort;
    if let ItemKind::Map(merge_key) = kind {
        validate_merge_key_in_lists(merge_key, &[&keep, order], path)?;
        let (rest, deleted): (Vec<Value>, Vec<Value>) =
            keep.into_iter().partition(|v| !is_delete_item(v));
        keep = rest;
        to_delete = deleted;
    }
    let mut keyed: Vec<(Option<usize>, Value)> = keep
        .into_iter()
        .map(|v| (kind.index(order, &v), v))
        .collect();
    go_stable_sort(&mut keyed, |a, b| match (a.0, b.0) {
        (Some(a), Some(b)) => a < b,
        _ => true,
    });
    let mut sorted: Vec<Value> = keyed.into_iter().map(|(_, v)| v).collect();
    sorted.extend(to_delete);
    Ok(sorted)
}

/// Whether `item` is an object with `$patch: delete`.
pub(crate) fn is_delete_item(item: &Value) -> bool {
    item.get(super::patch::DIRECTIVE_MARKER)
        .is_some_and(|d| d == super::patch::DELETE_DIRECTIVE)
}

/// Every item of every list is an object holding `merge_key` (Go's
/// `validateMergeKeyInLists`).
pub(crate) fn validate_merge_key_in_lists(
    merge_key: &str,
    lists: &[&[Value]],
    path: &str,
) -> Result<(), StrategicMergePatchError> {
    for item in lists.iter().flat_map(|l| l.iter()) {
        let map = item
            .as_object()
            .ok_or_else(|| StrategicMergePatchError::InvalidType {
                path: path.to_owned(),
                expected: "object",
                actual: super::error::json_type(item),
            })?;
        if !map.contains_key(merge_key) {
            return Err(StrategicMergePatchError::NoMergeKey {
                path: path.to_owned(),
                merge_key: merge_key.to_owned(),
                item: item.clone(),
            });
        }
    }
    Ok(())
}

/// Sorts the patch's items by `patch_order` and the server-only items by `server_order`,
/// then interleaves them (Go's `normalizeElementOrder`).
pub(crate) fn normalize_element_order(
    patch: Vec<Value>,
    server_only: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    kind: ItemKind<'_>,
    path: &str,
) -> Result<Vec<Value>, StrategicMergePatchError> {
    let patch = normalize_slice_order(patch, patch_order, kind, path)?;
    let server_only = normalize_slice_order(server_only, server_order, kind, path)?;
    Ok(merge_sorted_slice(server_only, patch, server_order, kind))
}

/// Interleaves two sorted lists (Go's `mergeSortedSlice`): an item of `left` goes before
/// the next item of `right` only when both are in `server_order` and it comes first
/// there; otherwise the `right` item goes first.
fn merge_sorted_slice(
    left: Vec<Value>,
    right: Vec<Value>,
    server_order: &[Value],
    kind: ItemKind<'_>,
) -> Vec<Value> {
    let mut merged = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(l), Some(r)) => {
                match (kind.index(server_order, l), kind.index(server_order, r)) {
                    (Some(li), Some(ri)) => li < ri,
                    _ => false,
                }
            }
        };
        let next = if take_left { left.next() } else { right.next() };
        merged.extend(next);
    }
    merged
}

/// Go's `sort.SliceStable`: insertion sort of blocks of 20, then SymMerge of ever larger
/// blocks, making the very comparisons Go makes so that an inconsistent `less` orders as
/// in Go.
pub(crate) fn go_stable_sort<T>(data: &mut [T], less: impl Fn(&T, &T) -> bool) {
    const BLOCK: usize = 20;
    let n = data.len();
    let mut block = BLOCK;
    let mut a = 0;
    while a + block <= n {
        insertion_sort(data, a, a + block, &less);
        a += block;
    }
    insertion_sort(data, a, n, &less);
    while block < n {
        let mut a = 0;
        while a + 2 * block <= n {
            sym_merge(data, a, a + block, a + 2 * block, &less);
            a += 2 * block;
        }
        if a + block < n {
            sym_merge(data, a, a + block, n, &less);
        }
        block *= 2;
    }
}

fn insertion_sort<T>(data: &mut [T], a: usize, b: usize, less: &impl Fn(&T, &T) -> bool) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&data[j], &data[j - 1]) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Merges the sorted runs `data[a..m]` and `data[m..b]` (Kim and Kutzner's SymMerge, as
/// Go's `symMerge`).
fn sym_merge<T>(data: &mut [T], a: usize, m: usize, b: usize, less: &impl Fn(&T, &T) -> bool) {
    if m - a == 1 {
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(&data[h], &data[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        data[a..i].rotate_left(1);
        return;
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(&data[m], &data[h]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        data[i..=m].rotate_right(1);
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(&data[p - c], &data[c]) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        data[start..end].rotate_left(m - start);
    }
    if a < start && start < mid {
        sym_merge(data, a, start, mid, less);
    }
    if mid < end && end < b {
        sym_merge(data, mid, end, b, less);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    proptest! {
        #[test]
        fn go_stable_sort_is_a_stable_sort_for_consistent_orders(
            mut v in proptest::collection::vec((0u8..8, any::<u16>()), 0..200)
        ) {
            let mut expected = v.clone();
            expected.sort_by_key(|x| x.0);
            go_stable_sort(&mut v, |a, b| a.0 < b.0);
            prop_assert_eq!(v, expected);
        }
    }

    #[test]
    fn inconsistent_less_orders_as_gos_insertion_sort() {
        // Go: sort.SliceStable([a(0) b(-) c(1)], less) where "-" is not in the order list;
        // insertion sort swaps b before a (less(b, a) is true), then c before... checks
        // less(c, a) = 1 < 0 false: [b a c].
        let mut v = vec![(Some(0), 'a'), (None, 'b'), (Some(1), 'c')];
        go_stable_sort(&mut v, |a, b| match (a.0, b.0) {
            (Some(a), Some(b)) => a < b,
            _ => true,
        });
        assert_eq!(v.iter().map(|x| x.1).collect::<String>(), "bac");
    }

    #[test]
    fn server_only_items_keep_their_place_around_patch_items() {
        // Live [a b c d], patch brings [d b]: patch items keep the patch's order, and a
        // server-only item goes before a patch item that comes after it in the live list.
        let server_order = [json!("a"), json!("b"), json!("c"), json!("d")];
        let merged = normalize_element_order(
            vec![json!("b"), json!("d")],
            vec![json!("a"), json!("c")],
            &[json!("d"), json!("b")],
            &server_order,
            ItemKind::Primitive,
            "x",
        )
        .unwrap();
        assert_eq!(merged, [json!("a"), json!("c"), json!("d"), json!("b")]);
    }

    #[test]
    fn delete_items_sort_last_and_objects_need_the_merge_key() {
        let sorted = normalize_slice_order(
            vec![
                json!({"name": "x", "$patch": "delete"}),
                json!({"name": "b"}),
                json!({"name": "a"}),
            ],
            &[json!({"name": "a"}), json!({"name": "b"})],
            ItemKind::Map("name"),
            "x",
        )
        .unwrap();
        assert_eq!(sorted[0], json!({"name": "a"}));
        assert_eq!(sorted[2], json!({"name": "x", "$patch": "delete"}));
        let err =
            normalize_slice_order(vec![json!({"image": "i"})], &[], ItemKind::Map("name"), "l")
                .unwrap_err();
        assert!(matches!(err, StrategicMergePatchError::NoMergeKey { .. }));
        let err =
            normalize_slice_order(vec![json!(1)], &[], ItemKind::Map("name"), "l").unwrap_err();
        assert!(matches!(err, StrategicMergePatchError::InvalidType { .. }));
    }
}
