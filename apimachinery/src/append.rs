//! Short byte strings appended to a `Vec<u8>` without a call to `memcpy`, for the JSON
//! writer and the protobuf encoder.
//!
//! Most of what a typed object's JSON encode writes is keys and string values of a few
//! to a few dozen bytes (Go's Deployment fixture: 1,892 of them, 10.5 bytes on average),
//! each appended with `extend_from_slice`, which for a length not known at compile time
//! is a capacity check, a call to glibc's `memcpy` through the PLT (its size dispatch
//! included, about 25 instructions for such a string) and a second capacity check for
//! the quote after it. Here a text of 2 to 32 bytes is stored as two writes of a
//! power-of-two width, the second overlapping the first, into room reserved once, as
//! [`text`](crate::text)'s decoder side copies a short string into its allocation.

/// Appends `bytes` to `out`.
#[inline]
pub(crate) fn extend_short(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    out.reserve(n);
    let len = out.len();
    // SAFETY: `reserve` left room for `n` bytes after `len`; `copy_to` writes exactly
    // `bytes` at `len..len + n` (its contract), so the new length covers written bytes
    // only.
    unsafe {
        copy_to(out.as_mut_ptr().add(len), bytes);
        out.set_len(len + n);
    }
}

/// Appends `head`, then `bytes`: a protobuf field's key and length, then its value.
#[inline]
pub(crate) fn extend_after<const N: usize>(out: &mut Vec<u8>, head: [u8; N], bytes: &[u8]) {
    let n = bytes.len();
    out.reserve(N + n);
    let len = out.len();
    // SAFETY: `reserve` left room for `N + n` bytes after `len`: `head` at
    // `len..len + N`, then `bytes` (`copy_to`'s contract), so the new length covers
    // written bytes only.
    unsafe {
        let p = out.as_mut_ptr().add(len);
        p.cast::<[u8; N]>().write_unaligned(head);
        copy_to(p.add(N), bytes);
        out.set_len(len + N + n);
    }
}

/// Appends `bytes` between double quotes: a JSON string with nothing to escape.
#[inline]
pub(crate) fn push_quoted(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    out.reserve(n + 2);
    let len = out.len();
    // SAFETY: `reserve` left room for `n + 2` bytes after `len`: the quotes at `len` and
    // `len + 1 + n`, and `bytes` between them (`copy_to`'s contract), so the new length
    // covers written bytes only.
    unsafe {
        let p = out.as_mut_ptr().add(len);
        p.write(b'"');
        copy_to(p.add(1), bytes);
        p.add(1 + n).write(b'"');
        out.set_len(len + n + 2);
    }
}

/// Writes `bytes` to `dst..dst + bytes.len()`, and nothing else.
///
/// # Safety
///
/// `dst` must be valid for writes of `bytes.len()` bytes and not overlap `bytes`.
#[inline(always)]
unsafe fn copy_to(dst: *mut u8, bytes: &[u8]) {
    let n = bytes.len();
    // SAFETY, each branch: `first` goes to `dst..dst + W` and `last` to
    // `dst + n - W..dst + n`, both within `dst..dst + n` since the slice has both chunks
    // (W <= n); with n <= 2W they cover it, each byte the one of `bytes` at its place.
    // Other lengths go through `copy_nonoverlapping`, within the same bounds.
    unsafe {
        if n > 32 {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, n);
        } else if let (Some(first), Some(last)) =
            (bytes.first_chunk::<16>(), bytes.last_chunk::<16>())
        {
            dst.cast::<[u8; 16]>().write_unaligned(*first);
            dst.add(n - 16).cast::<[u8; 16]>().write_unaligned(*last);
        } else if let (Some(first), Some(last)) =
            (bytes.first_chunk::<8>(), bytes.last_chunk::<8>())
        {
            dst.cast::<[u8; 8]>().write_unaligned(*first);
            dst.add(n - 8).cast::<[u8; 8]>().write_unaligned(*last);
        } else if let (Some(first), Some(last)) =
            (bytes.first_chunk::<4>(), bytes.last_chunk::<4>())
        {
            dst.cast::<[u8; 4]>().write_unaligned(*first);
            dst.add(n - 4).cast::<[u8; 4]>().write_unaligned(*last);
        } else if let (Some(first), Some(last)) =
            (bytes.first_chunk::<2>(), bytes.last_chunk::<2>())
        {
            dst.cast::<[u8; 2]>().write_unaligned(*first);
            dst.add(n - 2).cast::<[u8; 2]>().write_unaligned(*last);
        } else if let Some(&only) = bytes.first() {
            dst.write(only);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{extend_after, extend_short, push_quoted};

    #[test]
    fn every_length_is_appended_whole_after_what_is_there() {
        let source: Vec<u8> = (0..80u8).map(|i| b'a' + i % 26).collect();
        for n in 0..=source.len() {
            let bytes = &source[..n];
            for before in [&b""[..], b"{", b"0123456789abcdef0"] {
                let mut out = before.to_vec();
                extend_short(&mut out, bytes);
                assert_eq!(out, [before, bytes].concat(), "{n} after {before:?}");

                let mut out = before.to_vec();
                extend_after(&mut out, [8, 9], bytes);
                assert_eq!(out, [before, &[8, 9], bytes].concat(), "{n}");

                let mut out = before.to_vec();
                push_quoted(&mut out, bytes);
                assert_eq!(out, [before, b"\"", bytes, b"\""].concat(), "{n}");
            }
            // Into a vector exactly full, so that `reserve` must grow it.
            let mut out = Vec::with_capacity(3);
            out.extend_from_slice(b"abc");
            push_quoted(&mut out, bytes);
            assert_eq!(out, [&b"abc\""[..], bytes, b"\""].concat());
        }
    }
}
