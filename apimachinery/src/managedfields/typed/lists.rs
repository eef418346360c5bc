//! The items of keyed and set lists in a merge or a comparison (Go's `visitListItems` of
//! structured-merge-diff's merging and comparing walkers), duplicated items included: the
//! field manager reads stored objects and non-apply writes allowing an item to be named
//! twice (`typed.AllowDuplicates`), as the kinds' validation may allow it (a Pod's env).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::Value;

use super::{Mode, Walker, item_element};
use crate::managedfields::fieldpath::PathElement;
use crate::managedfields::schema::ListType;

/// A list's items by path element, in order, each with its item (`None` for an item the
/// list names more than once, which Go merges as if absent).
struct Indexed<'v> {
    /// Every item's path element and item, duplicates included, in the list's order.
    order: Vec<(PathElement, &'v Value)>,
    /// The item of each path element; `None` when it is duplicated.
    by_element: BTreeMap<PathElement, Option<&'v Value>>,
}

impl Indexed<'_> {
    fn has(&self, pe: &PathElement) -> bool {
        self.by_element.contains_key(pe)
    }

    fn get(&self, pe: &PathElement) -> Option<&Value> {
        self.by_element.get(pe).copied().flatten()
    }
}

impl Walker<'_> {
    /// Indexes `items`; with `keep_duplicates` unset, an item named again is skipped (the
    /// applied configuration, whose duplicates validation refused already).
    fn index<'v>(
        &mut self,
        l: &ListType,
        items: Option<&'v Vec<Value>>,
        keep_duplicates: bool,
        path: &[PathElement],
    ) -> Indexed<'v> {
        let mut out = Indexed {
            order: Vec::new(),
            by_element: BTreeMap::new(),
        };
        for (i, item) in items.into_iter().flatten().enumerate() {
            match item_element(self.t, l, i, item, path) {
                Ok(pe) => {
                    if let Some(seen) = out.by_element.get_mut(&pe) {
                        if !keep_duplicates {
                            continue;
                        }
                        *seen = None;
                    } else {
                        out.by_element.insert(pe.clone(), Some(item));
                    }
                    out.order.push((pe, item));
                }
                Err(e) => self.errors.push(e),
            }
        }
        out
    }

    /// The items of a keyed or set list: merged (in Go's order) or compared.
    pub(super) fn list_items(
        &mut self,
        l: &ListType,
        lhs: Option<&Vec<Value>>,
        rhs: Option<&Vec<Value>>,
        path: &mut Vec<PathElement>,
    ) -> Option<Value> {
        match self.mode {
            Mode::Merge => self.merge_items(l, lhs, rhs, path),
            Mode::Compare => {
                self.compare_items(l, lhs, rhs, path);
                None
            }
        }
    }

    /// Go's merge order: shared items in `rhs`'s order, `lhs`'s own items kept where
    /// they were relative to the shared ones, `rhs`'s new items where `rhs` has them.
    /// Every item `lhs` names twice is kept as it is unless `rhs` names it, which then
    /// replaces them all with its own.
    fn merge_items(
        &mut self,
        l: &ListType,
        lhs: Option<&Vec<Value>>,
        rhs: Option<&Vec<Value>>,
        path: &mut Vec<PathElement>,
    ) -> Option<Value> {
        let r = self.index(l, rhs, false, path);
        let left = self.index(l, lhs, true, path);
        let mut shared: VecDeque<&PathElement> = r
            .order
            .iter()
            .map(|(pe, _)| pe)
            .filter(|pe| left.has(pe))
            .collect();
        let mut next_shared = shared.pop_front();
        let mut merged_rhs: BTreeSet<&PathElement> = BTreeSet::new();
        let mut out = Vec::new();
        let (l_len, r_len) = (left.order.len(), r.order.len());
        let (mut li, mut ri) = (0, 0);
        while li < l_len || ri < r_len {
            if li < l_len && ri < r_len {
                let pe = &left.order[li].0;
                if *pe == r.order[ri].0 {
                    merged_rhs.insert(pe);
                    out.extend(self.list_item(l, pe, left.get(pe), r.get(pe), path));
                    li += 1;
                    ri += 1;
                    next_shared = shared.pop_front();
                    continue;
                }
                if r.has(pe) && next_shared.is_some_and(|n| n != pe) {
                    li += 1;
                    continue;
                }
            }
            if li < l_len {
                let (pe, item) = &left.order[li];
                if !r.has(pe) {
                    out.extend(self.list_item(l, pe, Some(item), None, path));
                    li += 1;
                    continue;
                }
                if merged_rhs.contains(pe) {
                    li += 1;
                }
            }
            if ri < r_len {
                let pe = &r.order[ri].0;
                merged_rhs.insert(pe);
                out.extend(self.list_item(l, pe, left.get(pe), r.get(pe), path));
                ri += 1;
                if next_shared.is_some_and(|n| n == pe) {
                    next_shared = shared.pop_front();
                }
            }
        }
        (!out.is_empty()).then_some(Value::Array(out))
    }

    /// Go's `compareWalker.visitListItems`: items named once on each side are compared
    /// field by field; an item named more than once is compared as a whole: modified when
    /// both sides name it more than once and differently, added (its single old self
    /// removed field by field) when it became duplicated, removed (its single new self
    /// added) when it no longer is.
    fn compare_items(
        &mut self,
        l: &ListType,
        lhs: Option<&Vec<Value>>,
        rhs: Option<&Vec<Value>>,
        path: &mut Vec<PathElement>,
    ) {
        let mut all: Vec<PathElement> = Vec::new();
        let mut groups: BTreeMap<PathElement, (Vec<&Value>, Vec<&Value>)> = BTreeMap::new();
        for (side, items) in [(0, lhs), (1, rhs)] {
            for (i, item) in items.into_iter().flatten().enumerate() {
                let pe = match item_element(self.t, l, i, item, path) {
                    Ok(pe) => pe,
                    Err(e) => {
                        self.errors.push(e);
                        continue;
                    }
                };
                let group = groups.entry(pe.clone()).or_insert_with(|| {
                    all.push(pe);
                    (Vec::new(), Vec::new())
                });
                if side == 0 {
                    group.0.push(item);
                } else {
                    group.1.push(item);
                }
            }
        }
        for pe in all {
            let Some((old, new)) = groups.get(&pe) else {
                continue;
            };
            match (old.len(), new.len()) {
                (0..=1, 0..=1) => {
                    self.list_item(l, &pe, old.first().copied(), new.first().copied(), path);
                }
                (2.., 2..) => {
                    if old != new {
                        path.push(pe);
                        self.cmp.modified.insert(path);
                        path.pop();
                    }
                }
                (2.., _) => {
                    if let Some(item) = new.first() {
                        self.list_item(l, &pe, None, Some(item), path);
                    }
                    path.push(pe);
                    self.cmp.removed.insert(path);
                    path.pop();
                }
                (_, _) => {
                    if let Some(item) = old.first() {
                        self.list_item(l, &pe, Some(item), None, path);
                    }
                    path.push(pe);
                    self.cmp.added.insert(path);
                    path.pop();
                }
            }
        }
    }

    fn list_item(
        &mut self,
        l: &ListType,
        pe: &PathElement,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        path: &mut Vec<PathElement>,
    ) -> Option<Value> {
        path.push(pe.clone());
        let out = self.walk(&l.element, lhs, rhs, path);
        path.pop();
        out
    }
}
