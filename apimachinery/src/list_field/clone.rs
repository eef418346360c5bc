//! `Clone` of a list field through one non-generic loop.

/// A list field cloned by one shared loop: the same value as `Clone::clone`, a vector of
/// exactly its source's length.
pub trait CloneList: Sized {
    /// The clone, element by element, in order.
    fn clone_list(&self) -> Self;
}

impl<T: Clone> CloneList for Vec<T> {
    fn clone_list(&self) -> Self {
        clone_vec(self)
    }
}

impl<T: Clone> CloneList for Option<Vec<T>> {
    fn clone_list(&self) -> Self {
        match self {
            Some(list) => Some(clone_vec(list)),
            None => None,
        }
    }
}

/// The per-type part: the source, and the vector its clones are pushed to.
struct Cloning<'a, T> {
    source: &'a [T],
    target: &'a mut Vec<T>,
}

/// What the shared loop calls of a [`Cloning`].
trait CloneAt {
    /// Makes room for exactly `len` elements.
    fn reserve(&mut self, len: usize);
    /// Pushes a clone of the source's element `index` (none past the end).
    fn clone_at(&mut self, index: usize);
}

impl<T: Clone> CloneAt for Cloning<'_, T> {
    // Here rather than `Vec::with_capacity` in `clone_vec`: the allocation inlined there
    // was ~45 of its ~80 IR lines per type, `reserve_exact` is a call.
    fn reserve(&mut self, len: usize) {
        self.target.reserve_exact(len);
    }

    fn clone_at(&mut self, index: usize) {
        if let Some(element) = self.source.get(index) {
            self.target.push(element.clone());
        }
    }
}

fn clone_vec<T: Clone>(source: &[T]) -> Vec<T> {
    // Most lists of an object are empty: no allocation, no call.
    if source.is_empty() {
        return Vec::new();
    }
    let mut target = Vec::new();
    clone_all(
        &mut Cloning {
            source,
            target: &mut target,
        },
        source.len(),
    );
    target
}

/// The loop, compiled once. Should a clone panic, the clones made so far are dropped with
/// the target vector, as `to_vec` drops them.
#[inline(never)]
fn clone_all(cloning: &mut dyn CloneAt, len: usize) {
    cloning.reserve(len);
    for index in 0..len {
        cloning.clone_at(index);
    }
}

#[cfg(test)]
mod tests {
    use super::CloneList;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn clones_every_element_in_order() {
        let list = vec!["a".to_owned(), "b".to_owned(), "c".to_owned()];
        let copy = list.clone_list();
        assert_eq!(copy, list);
        assert_eq!(copy.capacity(), 3);

        let nested = vec![vec![1u8, 2], vec![], vec![3]];
        assert_eq!(nested.clone_list(), nested);

        let empty: Vec<String> = Vec::new();
        assert!(empty.clone_list().is_empty());
    }

    #[test]
    fn optional_lists_keep_none_and_empty_apart() {
        let none: Option<Vec<i32>> = None;
        assert_eq!(none.clone_list(), None);
        assert_eq!(Some(Vec::<i32>::new()).clone_list(), Some(vec![]));
        assert_eq!(Some(vec![7, 8]).clone_list(), Some(vec![7, 8]));
    }

    static LIVE: AtomicUsize = AtomicUsize::new(0);

    /// Counts its live values; its third clone panics.
    struct Counted(usize);

    impl Counted {
        fn new(n: usize) -> Self {
            LIVE.fetch_add(1, Ordering::SeqCst);
            Counted(n)
        }
    }

    impl Clone for Counted {
        fn clone(&self) -> Self {
            assert!(self.0 != 2, "third clone");
            Counted::new(self.0)
        }
    }

    impl Drop for Counted {
        fn drop(&mut self) {
            LIVE.fetch_sub(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_panicking_clone_drops_the_clones_made() {
        let list: Vec<Counted> = (0..4).map(Counted::new).collect();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| list.clone_list()));
        assert!(result.is_err());
        assert_eq!(LIVE.load(Ordering::SeqCst), 4);
        drop(list);
        assert_eq!(LIVE.load(Ordering::SeqCst), 0);
    }
}
