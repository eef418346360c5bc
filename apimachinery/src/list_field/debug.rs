//! `Debug` of a list field through one non-generic loop.

use std::fmt;

/// A list field shown by one shared loop: what its own `Debug` prints, `[..]` for a
/// vector, `Some([..])` or `None` for an optional one, pretty-printed alike under `{:#?}`.
pub trait DebugList {
    /// The field as a value of one type for all element types, to be shown.
    fn debug_list(&self) -> ListDebug<'_>;
}

impl<T: fmt::Debug> DebugList for Vec<T> {
    fn debug_list(&self) -> ListDebug<'_> {
        ListDebug::List(self)
    }
}

impl<T: fmt::Debug> DebugList for Option<Vec<T>> {
    fn debug_list(&self) -> ListDebug<'_> {
        match self {
            Some(list) => ListDebug::Some(list),
            None => ListDebug::None,
        }
    }
}

/// The elements of a list, one at a time, for the shared loop.
pub trait Elements {
    /// How many there are.
    fn count(&self) -> usize;
    /// Element `index`, none past the end.
    fn at(&self, index: usize) -> Option<&dyn fmt::Debug>;
}

impl<T: fmt::Debug> Elements for Vec<T> {
    fn count(&self) -> usize {
        self.len()
    }

    fn at(&self, index: usize) -> Option<&dyn fmt::Debug> {
        self.get(index).map(|element| element as &dyn fmt::Debug)
    }
}

/// A list field as [`DebugList`] gives it.
pub enum ListDebug<'a> {
    /// A vector: `[..]`.
    List(&'a dyn Elements),
    /// An optional vector that is there: `Some([..])`.
    Some(&'a dyn Elements),
    /// An optional vector that is not: `None`.
    None,
}

/// The elements as a list: `[a, b]`, or one per line under `{:#?}`.
struct Shown<'a>(&'a dyn Elements);

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for index in 0..self.0.count() {
            if let Some(element) = self.0.at(index) {
                list.entry(element);
            }
        }
        list.finish()
    }
}

impl fmt::Debug for ListDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListDebug::List(elements) => Shown(*elements).fmt(f),
            ListDebug::Some(elements) => f.debug_tuple("Some").field(&Shown(*elements)).finish(),
            ListDebug::None => f.write_str("None"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DebugList;

    /// Elements printed over several lines under `{:#?}`.
    fn ports() -> Vec<(String, Option<i32>)> {
        vec![("http".to_owned(), Some(80)), ("https".to_owned(), None)]
    }

    #[test]
    fn prints_what_the_std_impls_print() {
        let list = ports();
        assert_eq!(format!("{:?}", list.debug_list()), format!("{list:?}"));
        assert_eq!(format!("{:#?}", list.debug_list()), format!("{list:#?}"));

        let some = Some(ports());
        assert_eq!(format!("{:?}", some.debug_list()), format!("{some:?}"));
        assert_eq!(format!("{:#?}", some.debug_list()), format!("{some:#?}"));

        let none: Option<Vec<(String, Option<i32>)>> = None;
        assert_eq!(format!("{:?}", none.debug_list()), "None");
        assert_eq!(format!("{:#?}", none.debug_list()), "None");

        let empty: Vec<u8> = Vec::new();
        assert_eq!(format!("{:?}", empty.debug_list()), "[]");
        assert_eq!(
            format!("{:#?}", Some(empty).debug_list()),
            "Some(\n    [],\n)"
        );
    }
}
