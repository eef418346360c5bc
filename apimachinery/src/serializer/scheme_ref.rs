//! [`SchemeRef`]: how a codec holds its [`Scheme`], borrowed or shared.
//!
//! One non-generic type serves both uses, rather than codecs generic over
//! `S: Borrow<Scheme>`: every codec would otherwise be compiled once per way of holding
//! the scheme in every crate that uses it, and the codec traits' objects
//! (`Arc<dyn Decoder + 's>`) would need the parameter too. The one branch a read costs
//! is not measurable next to a decode.

use std::ops::Deref;
use std::sync::Arc;

use crate::runtime::Scheme;

/// The scheme a codec creates and converts objects through: borrowed, for codecs used
/// where the scheme lives (a function, a test, a command), or shared, for codecs that
/// are stored in a struct, cloned, and moved to other threads or tokio tasks (a
/// `SchemeRef<'static>` is `Send + Sync + 'static`).
///
/// Codec constructors take `impl Into<SchemeRef<'s>>`: pass `&scheme` to borrow, or an
/// `Arc<Scheme>` to share (`&Arc<Scheme>` borrows).
///
/// ```
/// use std::sync::Arc;
/// use apimachinery::runtime::Scheme;
/// use apimachinery::serializer::SchemeRef;
///
/// let scheme = Arc::new(Scheme::new());
/// let shared: SchemeRef<'static> = scheme.clone().into();
/// let borrowed = SchemeRef::from(&*scheme);
/// assert!(shared.is_shared() && !borrowed.is_shared());
/// assert!(std::ptr::eq(&*shared, &*borrowed));
/// ```
#[derive(Clone, Debug)]
pub enum SchemeRef<'s> {
    /// A scheme that outlives the codec.
    Borrowed(&'s Scheme),
    /// A scheme the codec keeps alive.
    Shared(Arc<Scheme>),
}

impl SchemeRef<'_> {
    /// True when the codec keeps the scheme alive (an `Arc`).
    pub fn is_shared(&self) -> bool {
        matches!(self, SchemeRef::Shared(_))
    }
}

impl Deref for SchemeRef<'_> {
    type Target = Scheme;

    fn deref(&self) -> &Scheme {
        match self {
            SchemeRef::Borrowed(scheme) => scheme,
            SchemeRef::Shared(scheme) => scheme,
        }
    }
}

impl<'s> From<&'s Scheme> for SchemeRef<'s> {
    fn from(scheme: &'s Scheme) -> Self {
        SchemeRef::Borrowed(scheme)
    }
}

/// Borrows: what passing `&arc` to a function taking `&Scheme` did.
impl<'s> From<&'s Arc<Scheme>> for SchemeRef<'s> {
    fn from(scheme: &'s Arc<Scheme>) -> Self {
        SchemeRef::Borrowed(scheme)
    }
}

impl<'s> From<Arc<Scheme>> for SchemeRef<'s> {
    fn from(scheme: Arc<Scheme>) -> Self {
        SchemeRef::Shared(scheme)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync_static<T: Send + Sync + 'static>(_: &T) {}

    #[test]
    fn a_shared_scheme_ref_can_leave_its_scope() {
        let scheme = Arc::new(Scheme::new());
        let shared: SchemeRef<'static> = SchemeRef::from(scheme.clone());
        assert_send_sync_static(&shared);
        assert_eq!(Arc::strong_count(&scheme), 2);
        drop(shared);
        assert_eq!(Arc::strong_count(&scheme), 1);
    }

    #[test]
    fn a_borrowed_arc_is_not_kept_alive() {
        let scheme = Arc::new(Scheme::new());
        let borrowed = SchemeRef::from(&scheme);
        assert!(!borrowed.is_shared());
        assert_eq!(Arc::strong_count(&scheme), 1);
    }
}
