//! The protobuf wire format: varints, keys, length-delimited fields, skipping unknown
//! fields. [`WireDecoder`] reads a borrowed slice and knows each byte's offset in the
//! whole input, for errors; [`WireEncoder`](super::WireEncoder) (in `encoder`) writes.

use super::error::{ProtobufError, ProtobufErrorKind};

/// How a field's value is laid out (the low three bits of a key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireType {
    /// A varint: `int32`, `int64`, `bool`, enums.
    Varint,
    /// Eight little-endian bytes: `double`, `fixed64`.
    Fixed64,
    /// A length, then that many bytes: strings, bytes, messages, packed repeated scalars.
    LengthDelimited,
    /// Start of a group (proto2, obsolete; skipped when read).
    StartGroup,
    /// End of a group.
    EndGroup,
    /// Four little-endian bytes: `float`, `fixed32`.
    Fixed32,
}

impl WireType {
    fn from_bits(bits: u64) -> Option<WireType> {
        Some(match bits {
            0 => WireType::Varint,
            1 => WireType::Fixed64,
            2 => WireType::LengthDelimited,
            3 => WireType::StartGroup,
            4 => WireType::EndGroup,
            5 => WireType::Fixed32,
            _ => return None,
        })
    }

    /// The low three bits of a key.
    pub(crate) const fn bits(self) -> u64 {
        match self {
            WireType::Varint => 0,
            WireType::Fixed64 => 1,
            WireType::LengthDelimited => 2,
            WireType::StartGroup => 3,
            WireType::EndGroup => 4,
            WireType::Fixed32 => 5,
        }
    }
}

/// Nesting beyond this many messages is refused, so hostile input cannot exhaust the
/// stack (Go's limit for unknown groups is similar; Kubernetes objects nest far less,
/// except recursive schemas, which stay well below).
pub const MAX_DEPTH: usize = 100;

/// The largest field number a key can carry (2^29 - 1).
const MAX_FIELD: u64 = (u32::MAX >> 3) as u64;

/// Reads protobuf bytes from a slice.
#[derive(Clone, Debug)]
pub struct WireDecoder<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Offset of `buf[0]` in the whole input.
    base: usize,
    depth: usize,
    /// The key [`WireDecoder::key`] read last, for [`WireDecoder::run_length`].
    last_key: Option<(u32, WireType)>,
}

impl<'a> WireDecoder<'a> {
    /// A decoder over `buf`, which starts at offset 0 of the input.
    pub fn new(buf: &'a [u8]) -> Self {
        WireDecoder::at_offset(buf, 0)
    }

    /// A decoder over `buf`, which starts at `offset` in a larger input (for errors).
    pub fn at_offset(buf: &'a [u8], offset: usize) -> Self {
        WireDecoder {
            buf,
            pos: 0,
            base: offset,
            depth: 0,
            last_key: None,
        }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.buf.len()
    }

    /// The offset of the next byte in the whole input.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// An error of `kind` at the current offset.
    pub fn error(&self, kind: ProtobufErrorKind) -> ProtobufError {
        ProtobufError::new(self.offset(), kind)
    }

    /// Reads a varint of at most ten bytes.
    #[inline]
    pub fn varint(&mut self) -> Result<u64, ProtobufError> {
        // Keys, lengths and most values fit one byte: read it here, inline, and leave
        // the loop to the longer ones.
        if let Some(&byte) = self.buf.get(self.pos) {
            if byte < 0x80 {
                self.pos += 1;
                return Ok(u64::from(byte));
            }
        }
        self.long_varint()
    }

    /// [`varint`](Self::varint) of two bytes or more, or at the end of the input: two
    /// bytes (the length of a message of 128 bytes to 16 KiB, a Pod's containers and
    /// volumes) read here, the rest in the loop. Out of line, so that the inlined one-byte
    /// case stays small.
    fn long_varint(&mut self) -> Result<u64, ProtobufError> {
        if let Some(&[low, high]) = self.buf.get(self.pos..).and_then(|rest| rest.first_chunk()) {
            if high < 0x80 {
                self.pos += 2;
                return Ok(u64::from(low & 0x7f) | (u64::from(high) << 7));
            }
        }
        self.varint_loop()
    }

    /// [`varint`](Self::varint) of three bytes or more, or cut short.
    #[inline(never)]
    fn varint_loop(&mut self) -> Result<u64, ProtobufError> {
        let start = self.offset();
        let mut value: u64 = 0;
        for i in 0..10 {
            let Some(&byte) = self.buf.get(self.pos) else {
                return Err(ProtobufError::new(start, ProtobufErrorKind::Truncated));
            };
            self.pos += 1;
            if i == 9 && byte > 1 {
                return Err(ProtobufError::new(start, ProtobufErrorKind::VarintOverflow));
            }
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                return Ok(value);
            }
        }
        Err(ProtobufError::new(start, ProtobufErrorKind::VarintOverflow))
    }

    /// Reads a field key: field number and wire type.
    #[inline]
    pub fn key(&mut self) -> Result<(u32, WireType), ProtobufError> {
        let start = self.pos;
        let key = self.varint()?;
        let (Some(wire), 1..=MAX_FIELD) = (WireType::from_bits(key & 7), key >> 3) else {
            return Err(self.bad_key(start, key));
        };
        let key = ((key >> 3) as u32, wire);
        self.last_key = Some(key);
        Ok(key)
    }

    /// The error for a key read at `start` with a bad wire type or field number (out of
    /// line: every field of every message passes through [`key`](Self::key)).
    #[cold]
    fn bad_key(&self, start: usize, key: u64) -> ProtobufError {
        let kind = match WireType::from_bits(key & 7) {
            None => ProtobufErrorKind::WireType(key & 7),
            Some(_) => ProtobufErrorKind::FieldNumber(key >> 3),
        };
        ProtobufError::new(self.base + start, kind)
    }

    /// How many values of the field whose key was read last follow one another from
    /// here, this one included; 1 when no key was read or the bytes ahead are bad.
    ///
    /// Go writes a repeated field's values one after another, so a list can reserve its
    /// exact length before reading the first value, and neither grow nor shrink. Only
    /// keys and lengths are read (a few instructions per value); the count never exceeds
    /// the values actually present, so it is no larger than what reading them allocates.
    pub(crate) fn run_length(&self) -> usize {
        let Some((field, wire)) = self.last_key else {
            return 1;
        };
        // The next key is compared as the number it is written as: the same number is the
        // same field and wire type, which is all `key` would tell.
        let key = (u64::from(field) << 3) | wire.bits();
        let mut ahead = self.clone();
        let mut n = 0;
        loop {
            // Strings and messages (nearly every list) skipped inline, not through `skip`.
            let skipped = if wire == WireType::LengthDelimited {
                ahead.length_delimited().is_ok()
            } else {
                ahead.skip(field, wire).is_ok()
            };
            if !skipped {
                break;
            }
            n += 1;
            if ahead.is_empty() || ahead.varint().ok() != Some(key) {
                break;
            }
        }
        n.max(1)
    }

    /// Reads `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], ProtobufError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|end| *end <= self.buf.len())
            .ok_or_else(|| self.error(ProtobufErrorKind::LengthPastEnd(n as u64)))?;
        let bytes = &self.buf[self.pos..end];
        self.pos = end;
        Ok(bytes)
    }

    /// Reads a length prefix and the bytes it announces.
    #[inline]
    pub fn length_delimited(&mut self) -> Result<&'a [u8], ProtobufError> {
        let start = self.pos;
        let len = self.varint()?;
        let rest = &self.buf[self.pos..];
        match usize::try_from(len) {
            Ok(n) if n <= rest.len() => {
                self.pos += n;
                Ok(&rest[..n])
            }
            _ => Err(self.past_end(start, len)),
        }
    }

    /// The error of a length read at `start` that runs past the end (out of line: this
    /// method is inlined into every string's and message's reader).
    #[cold]
    fn past_end(&self, start: usize, len: u64) -> ProtobufError {
        ProtobufError::new(self.base + start, ProtobufErrorKind::LengthPastEnd(len))
    }

    /// A decoder over the next length-delimited value, one nesting level deeper.
    pub fn nested(&mut self) -> Result<WireDecoder<'a>, ProtobufError> {
        self.nested_inline()
    }

    /// [`nested`](Self::nested), inlined into the reader of every nested message
    /// (`merge_nested`, not generic: compiled once, in this crate). Out of line, the call
    /// and its result, returned through memory, cost about 20 instructions per message.
    #[inline(always)]
    pub(crate) fn nested_inline(&mut self) -> Result<WireDecoder<'a>, ProtobufError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep());
        }
        let bytes = self.length_delimited()?;
        Ok(WireDecoder {
            buf: bytes,
            pos: 0,
            base: self.offset() - bytes.len(),
            depth: self.depth + 1,
            last_key: None,
        })
    }

    /// The error of nesting past [`MAX_DEPTH`] (out of line: never met by real objects).
    #[cold]
    fn too_deep(&self) -> ProtobufError {
        self.error(ProtobufErrorKind::TooDeep)
    }

    /// Reads eight little-endian bytes.
    pub fn fixed64(&mut self) -> Result<u64, ProtobufError> {
        let bytes = self.take(8)?;
        let mut array = [0u8; 8];
        array.copy_from_slice(bytes);
        Ok(u64::from_le_bytes(array))
    }

    /// Reads four little-endian bytes.
    pub fn fixed32(&mut self) -> Result<u32, ProtobufError> {
        let bytes = self.take(4)?;
        let mut array = [0u8; 4];
        array.copy_from_slice(bytes);
        Ok(u32::from_le_bytes(array))
    }

    /// Skips the value of a field of wire type `wire` whose key was just read: how
    /// unknown fields are ignored.
    pub fn skip(&mut self, field: u32, wire: WireType) -> Result<(), ProtobufError> {
        match wire {
            WireType::Varint => self.varint().map(drop),
            WireType::Fixed64 => self.take(8).map(drop),
            WireType::Fixed32 => self.take(4).map(drop),
            WireType::LengthDelimited => self.length_delimited().map(drop),
            WireType::StartGroup => self.skip_group(field),
            WireType::EndGroup => Err(self.error(ProtobufErrorKind::UnexpectedEndGroup(field))),
        }
    }

    fn skip_group(&mut self, field: u32) -> Result<(), ProtobufError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(ProtobufErrorKind::TooDeep));
        }
        self.depth += 1;
        loop {
            if self.is_empty() {
                return Err(self.error(ProtobufErrorKind::Truncated));
            }
            let (inner, wire) = self.key()?;
            if wire == WireType::EndGroup {
                if inner != field {
                    return Err(self.error(ProtobufErrorKind::UnexpectedEndGroup(inner)));
                }
                self.depth -= 1;
                return Ok(());
            }
            self.skip(inner, wire)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::WireEncoder;
    use proptest::prelude::*;

    #[test]
    fn short_and_long_message_lengths() {
        for len in [0usize, 1, 127, 128, 300, 16_384, 70_000] {
            let mut e = WireEncoder::new();
            e.message(3, |e| e.raw(&vec![7u8; len]));
            let bytes = e.into_bytes();
            let mut d = WireDecoder::new(&bytes);
            assert_eq!(d.key().unwrap(), (3, WireType::LengthDelimited));
            assert_eq!(d.length_delimited().unwrap().len(), len);
            assert!(d.is_empty());
        }
    }

    #[test]
    fn run_length_counts_the_values_of_the_last_key_that_follow() {
        // field 2 "a", field 2 "bc", field 2 "", field 3 varint 1, field 2 "d".
        let bytes = [
            0x12, 1, b'a', 0x12, 2, b'b', b'c', 0x12, 0, 0x18, 1, 0x12, 1, b'd',
        ];
        let mut d = WireDecoder::new(&bytes);
        assert_eq!(d.run_length(), 1, "no key read yet");
        d.key().unwrap();
        assert_eq!(d.run_length(), 3, "stops at another field");
        // Counting reads nothing: the values are still there to read.
        assert_eq!(d.length_delimited().unwrap(), b"a");
        d.key().unwrap();
        assert_eq!(d.run_length(), 2);
        d.length_delimited().unwrap();
        d.key().unwrap();
        d.length_delimited().unwrap();
        assert_eq!(d.key().unwrap(), (3, WireType::Varint));
        assert_eq!(d.run_length(), 1);
        d.varint().unwrap();
        d.key().unwrap();
        assert_eq!(d.run_length(), 1, "the run ends with the input");

        // Varint values, and a value cut short: counted up to the last whole one.
        let mut d = WireDecoder::new(&[0x08, 0x96, 0x01, 0x08, 0x05, 0x08, 0x80]);
        d.key().unwrap();
        assert_eq!(d.run_length(), 2);
        let mut d = WireDecoder::new(&[0x0a, 0x09, 1]);
        d.key().unwrap();
        assert_eq!(
            d.run_length(),
            1,
            "never 0, even when the value is cut short"
        );
        // A nested decoder starts with no key of its own.
        let mut d = WireDecoder::new(&[0x0a, 0x02, 0x08, 0x01]);
        d.key().unwrap();
        assert_eq!(d.nested().unwrap().run_length(), 1);
    }

    #[test]
    fn errors_name_the_offset() {
        let mut d = WireDecoder::new(&[0x0a, 0x05, 1, 2]);
        d.key().unwrap();
        let e = d.length_delimited().unwrap_err();
        assert_eq!(e.offset(), 1);
        assert!(matches!(e.kind(), ProtobufErrorKind::LengthPastEnd(5)));

        let e = WireDecoder::new(&[0xff; 11]).varint().unwrap_err();
        assert!(matches!(e.kind(), ProtobufErrorKind::VarintOverflow));
        let e = WireDecoder::new(&[0x80]).varint().unwrap_err();
        assert!(matches!(e.kind(), ProtobufErrorKind::Truncated));
        let e = WireDecoder::new(&[0x0f]).key().unwrap_err();
        assert!(matches!(e.kind(), ProtobufErrorKind::WireType(7)));
        let e = WireDecoder::new(&[0x00]).key().unwrap_err();
        assert!(matches!(e.kind(), ProtobufErrorKind::FieldNumber(0)));
    }

    #[test]
    fn two_byte_varints_and_the_edges_of_their_fast_path() {
        for (bytes, value, used) in [
            (&[0xac, 0x02][..], 300, 2),
            (&[0x80, 0x01], 128, 2),
            (&[0xff, 0x7f], 16_383, 2),
            (&[0x80, 0x80, 0x01], 16_384, 3),
            (&[0xac, 0x02, 0x05], 300, 2),
        ] {
            let mut d = WireDecoder::new(bytes);
            assert_eq!(d.varint().unwrap(), value, "{bytes:?}");
            assert_eq!(d.offset(), used, "{bytes:?}");
        }
        for bytes in [&[0x80][..], &[0x80, 0x80], &[0xff, 0xff, 0xff]] {
            let e = WireDecoder::new(bytes).varint().unwrap_err();
            assert!(
                matches!(e.kind(), ProtobufErrorKind::Truncated),
                "{bytes:?}"
            );
            assert_eq!(e.offset(), 0);
        }
    }

    #[test]
    fn groups_are_skipped() {
        // field 1 group { field 2 varint 5 } end group 1, then field 3 varint 1.
        let bytes = [0x0b, 0x10, 0x05, 0x0c, 0x18, 0x01];
        let mut d = WireDecoder::new(&bytes);
        let (f, w) = d.key().unwrap();
        d.skip(f, w).unwrap();
        assert_eq!(d.key().unwrap(), (3, WireType::Varint));
        assert_eq!(d.varint().unwrap(), 1);
        // Unterminated group.
        let mut d = WireDecoder::new(&bytes[..3]);
        let (f, w) = d.key().unwrap();
        assert!(d.skip(f, w).is_err());
    }

    proptest! {
        #[test]
        fn varints_round_trip(v in any::<u64>()) {
            let mut e = WireEncoder::new();
            e.varint(v);
            let bytes = e.into_bytes();
            let mut d = WireDecoder::new(&bytes);
            prop_assert_eq!(d.varint().unwrap(), v);
            prop_assert!(d.is_empty());
        }

        #[test]
        fn skipping_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut d = WireDecoder::new(&bytes);
            while !d.is_empty() {
                let Ok((f, w)) = d.key() else { break };
                if d.skip(f, w).is_err() { break; }
            }
        }

        #[test]
        fn run_length_is_at_least_one_and_at_most_one_value_per_byte_left(
            bytes in proptest::collection::vec(any::<u8>(), 0..64),
        ) {
            // What a list reserves from it stays within what the input can hold.
            let mut d = WireDecoder::new(&bytes);
            while !d.is_empty() {
                let Ok(_) = d.key() else { break };
                let left = bytes.len() - d.offset();
                let n = d.run_length();
                prop_assert!(n >= 1 && n <= left.max(1), "{n} values in {left} bytes");
                let Some((f, w)) = d.last_key else { break };
                if d.skip(f, w).is_err() { break; }
            }
        }
    }
}
