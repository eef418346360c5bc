//! A decoded string's bytes as text, for both decoders.
//!
//! Every string of every decoded object passes through here (766 string fields in Go's
//! Pod fixture, most a few ASCII bytes long), and `std::str::from_utf8` walks a short
//! string a byte at a time through its general decoder: 13% of a Pod's protobuf decode,
//! and 13.6% of its JSON decode. ASCII, checked a word at a time by `is_ascii`, is what
//! Kubernetes strings almost always are.
//!
//! A text of 4 to 32 bytes is covered by two loads of a power-of-two width, the second
//! overlapping the first: one test of both says whether it is ASCII, where `is_ascii`
//! walks its last bytes one at a time (about 20 instructions for Go's Pod fixture's
//! strings, 8 to 15 bytes), and [`owned_text`] stores the same two words to copy it,
//! where `to_owned` calls `memcpy`.

use std::alloc::{Layout, alloc, handle_alloc_error};

/// The high bit of every byte of a word: a word is ASCII when none is set.
const HIGH: u128 = u128::from_ne_bytes([0x80; 16]);

/// Whether `bytes` are ASCII, for a text of 4 to 32 bytes; `None` for other lengths.
#[inline(always)]
fn short_is_ascii(bytes: &[u8]) -> Option<bool> {
    let n = bytes.len();
    if n > 32 {
        return None;
    }
    if let (Some(first), Some(last)) = (bytes.first_chunk::<16>(), bytes.last_chunk::<16>()) {
        return Some((u128::from_ne_bytes(*first) | u128::from_ne_bytes(*last)) & HIGH == 0);
    }
    if let (Some(first), Some(last)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        return Some((u64::from_ne_bytes(*first) | u64::from_ne_bytes(*last)) & HIGH as u64 == 0);
    }
    if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        return Some((u32::from_ne_bytes(*first) | u32::from_ne_bytes(*last)) & HIGH as u32 == 0);
    }
    None
}

/// `bytes` as text; `None` when they are not UTF-8.
#[inline]
pub(crate) fn text(bytes: &[u8]) -> Option<&str> {
    let ascii = match short_is_ascii(bytes) {
        Some(ascii) => ascii,
        None => bytes.is_ascii(),
    };
    if ascii {
        // SAFETY: every ASCII byte sequence is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes).ok()
    }
}

/// `bytes` as a `String` of exactly their length; `None` when they are not UTF-8. What a
/// protobuf string field's value becomes.
#[inline]
pub(crate) fn owned_text(bytes: &[u8]) -> Option<String> {
    // The ASCII texts of 4 to 32 bytes: tested through two words, then copied through the
    // same two (the loads are the caller's, once inlined).
    if bytes.len() <= 32 {
        if let (Some(first), Some(last)) = (bytes.first_chunk::<16>(), bytes.last_chunk::<16>()) {
            if (u128::from_ne_bytes(*first) | u128::from_ne_bytes(*last)) & HIGH == 0 {
                // SAFETY: every byte was tested ASCII through the two words.
                return Some(unsafe { ascii_to_owned::<16>(bytes) });
            }
        } else if let (Some(first), Some(last)) =
            (bytes.first_chunk::<8>(), bytes.last_chunk::<8>())
        {
            if (u64::from_ne_bytes(*first) | u64::from_ne_bytes(*last)) & HIGH as u64 == 0 {
                // SAFETY: as above.
                return Some(unsafe { ascii_to_owned::<8>(bytes) });
            }
        } else if let (Some(first), Some(last)) =
            (bytes.first_chunk::<4>(), bytes.last_chunk::<4>())
        {
            if (u32::from_ne_bytes(*first) | u32::from_ne_bytes(*last)) & HIGH as u32 == 0 {
                // SAFETY: as above.
                return Some(unsafe { ascii_to_owned::<4>(bytes) });
            }
        }
    }
    text(bytes).map(str::to_owned)
}

/// `bytes` as a `String`, written as the `W` bytes they start with and the `W` they end
/// with, which overlap or meet when `bytes` are `W` to `2 * W` long (other lengths are
/// copied the common way: not reached from [`owned_text`], and the compiler sees so).
///
/// # Safety
///
/// `bytes` must be ASCII (or else UTF-8): they are not validated again.
#[inline(always)]
unsafe fn ascii_to_owned<const W: usize>(bytes: &[u8]) -> String {
    let n = bytes.len();
    let (Some(first), Some(last)) = (bytes.first_chunk::<W>(), bytes.last_chunk::<W>()) else {
        // SAFETY: `bytes` are UTF-8 (this function's contract).
        return unsafe { std::str::from_utf8_unchecked(bytes) }.to_owned();
    };
    // The allocation made here rather than by `Vec::with_capacity`, which for bytes was
    // left out of line (`RawVecInner::try_allocate_in`, about 40 instructions a string).
    let layout = match Layout::array::<u8>(n) {
        Ok(layout) if n <= 2 * W && n > 0 => layout,
        // SAFETY: as above.
        _ => return unsafe { std::str::from_utf8_unchecked(bytes) }.to_owned(),
    };
    // SAFETY: `layout` is `n` bytes, and `n` is not zero. The bytes are written
    // below before they are read: `first` at 0..W and `last` at n-W..n, both within 0..n
    // (W <= n, since `bytes` have both chunks); since n <= 2W they leave no byte of 0..n
    // unwritten, and they are the bytes of `bytes` at those places, so the string holds
    // `bytes`: UTF-8 by this function's contract. The allocation is the global
    // allocator's with the layout of a `Vec<u8>` of capacity `n`, which is what
    // `String::from_raw_parts` takes over.
    unsafe {
        let p = alloc(layout);
        if p.is_null() {
            handle_alloc_error(layout);
        }
        p.cast::<[u8; W]>().write_unaligned(*first);
        p.add(n - W).cast::<[u8; W]>().write_unaligned(*last);
        String::from_raw_parts(p, n, n)
    }
}

#[cfg(test)]
mod tests {
    use super::{owned_text, text};

    #[test]
    fn ascii_other_utf8_and_invalid_bytes() {
        assert_eq!(text(b""), Some(""));
        assert_eq!(text(b"kube-system"), Some("kube-system"));
        assert_eq!(
            text("naïve ☃ long enough to take the word loop".as_bytes()),
            Some("naïve ☃ long enough to take the word loop")
        );
        assert_eq!(text(b"\xff"), None);
        assert_eq!(text(b"0123456789abcdef\xc3"), None);
        assert_eq!(text(b"\xed\xa0\x80"), None, "a surrogate is not UTF-8");
    }

    #[test]
    fn every_length_and_every_position_of_a_non_ascii_byte() {
        // Each length from 0 to 40 (the short paths' edges: 4, 8, 16, 32), ASCII, then with
        // one two-byte character at each place, then with one invalid byte at each place.
        for n in 0..=40usize {
            let ascii: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            assert_eq!(text(ascii.as_bytes()), Some(ascii.as_str()), "{n}");
            let owned = owned_text(ascii.as_bytes());
            assert_eq!(owned.as_deref(), Some(ascii.as_str()), "{n}");
            assert_eq!(owned.map(|s| s.capacity()), Some(n), "exact length, {n}");
            for at in 0..n.saturating_sub(1) {
                let mut utf8 = ascii.clone();
                utf8.replace_range(at..at + 2, "é");
                assert_eq!(text(utf8.as_bytes()), Some(utf8.as_str()), "{n} {at}");
                assert_eq!(owned_text(utf8.as_bytes()).as_deref(), Some(utf8.as_str()));
            }
            for at in 0..n {
                let mut bad = ascii.clone().into_bytes();
                bad[at] = 0xff;
                assert_eq!(text(&bad), None, "{n} {at}");
                assert_eq!(owned_text(&bad), None, "{n} {at}");
                // A lone continuation byte, valid as a high bit set but not as UTF-8.
                bad[at] = 0x80;
                assert_eq!(owned_text(&bad), None, "{n} {at}");
            }
        }
    }
}
