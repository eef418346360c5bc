//! Lists kept at their exact length, one out-of-line copy per element type shared by the
//! codecs.
//!
//! Decoded objects are kept (an informer cache holds thousands), so both decoders give
//! back a list's spare capacity once it is read: JSON after the array (it gives no length
//! up front), protobuf in a message's `finish` (a list read in more than one run, or
//! packed). Each wrote `shrink_to_fit` in its own generic function, which compiled the
//! standard library's checks and call once per codec and element type: ~60 IR lines per
//! copy and ~350 element types in `k8s-types`. One `#[inline(never)]` method here is
//! compiled once per element type and called by both.

/// A `Vec` whose spare capacity can be given back by one shared call.
pub(crate) trait ExactVec {
    /// Gives back the capacity beyond the length, if any.
    fn shrink_to_len(&mut self);
}

impl<T> ExactVec for Vec<T> {
    #[inline(never)]
    fn shrink_to_len(&mut self) {
        if self.capacity() > self.len() {
            self.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ExactVec;

    #[test]
    fn spare_capacity_is_given_back() {
        let mut list: Vec<u32> = Vec::with_capacity(16);
        list.extend([1, 2, 3]);
        list.shrink_to_len();
        assert_eq!(list.capacity(), 3);
        assert_eq!(list, [1, 2, 3]);

        let mut empty: Vec<String> = Vec::with_capacity(4);
        empty.shrink_to_len();
        assert_eq!(empty.capacity(), 0);
    }
}
