//! The buffer whole documents are encoded into.
//!
//! A document's size is only known once it is written (Go sizes it first, in a pass
//! over the object that we do not generate). Writing into a fresh vector grows it a
//! dozen times for a Pod, each growth a reallocation and often a copy: 15% of a
//! ConfigMap's encode. Each thread instead keeps one encoder whose buffer stays grown; a
//! small document is copied out of it into a vector of exactly its length, one
//! allocation that also keeps what callers store (the server's watch cache, our cache)
//! at its size, and the copy that puts the long lengths of nested messages in their
//! places (see [`WireEncoder`]).

use std::cell::Cell;

use super::encoder::WireEncoder;

/// Documents longer than this are handed over in the buffer they were written in
/// (copying them would cost more than the slack their vector carries), and the thread
/// starts a new buffer. So no thread keeps more than about twice this.
const HAND_OVER: usize = 64 * 1024;

thread_local! {
    static SCRATCH: Cell<WireEncoder> = const { Cell::new(WireEncoder::new()) };
}

/// What `write` writes into an encoder, as a vector.
///
/// Re-entrant: an encode inside `write` (an object encoded into another's field) finds
/// the encoder taken and writes into a fresh one.
pub(crate) fn encode_exact(write: impl FnOnce(&mut WireEncoder)) -> Vec<u8> {
    let mut e = SCRATCH.with(Cell::take);
    e.clear();
    write(&mut e);
    if e.len() > HAND_OVER {
        return e.into_bytes();
    }
    // The long lengths are put in their places by this copy, which is needed anyway.
    let out = e.to_exact_vec();
    SCRATCH.with(|scratch| scratch.set(e));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_documents_come_out_exact_and_nested_encodes_work() {
        let outer = encode_exact(|e| {
            let inner = encode_exact(|e| e.bytes_field(1, b"inner"));
            e.bytes_field(2, &inner);
        });
        assert_eq!(outer, b"\x12\x07\x0a\x05inner");
        assert_eq!(outer.capacity(), outer.len());
        // The buffer is reused, and what it held before is not seen.
        assert_eq!(encode_exact(|e| e.raw(b"ab")), b"ab");
    }

    #[test]
    fn large_documents_are_handed_over() {
        let big = vec![7u8; HAND_OVER + 1];
        let out = encode_exact(|e| e.raw(&big));
        assert_eq!(out, big);
        assert_eq!(encode_exact(|e| e.raw(b"x")), b"x");
    }
}
