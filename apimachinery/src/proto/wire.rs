//! The protobuf wire format: varints, keys, length-delimited fields, skipping unknown
//! fields. [`WireEncoder`] writes forwards into one buffer; [`WireDecoder`] reads a borrowed
//! slice and knows each byte's offset in the whole input, for errors.

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

    const fn bits(self) -> u64 {
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

/// Writes protobuf bytes into a growing buffer.
///
/// A nested message's length is only known once the message is written, and Go writes it
/// in the fewest bytes; [`message`](Self::message) reserves one byte, writes the message,
/// and widens the length in place when it needs more (lengths of 128 bytes and more),
/// which moves the message bytes once per nesting level instead of sizing every message
/// twice.
#[derive(Debug, Default)]
pub struct WireEncoder {
    buf: Vec<u8>,
    /// Whether a value was written that a reader will not see (see
    /// [`wrote_unseen`](Self::wrote_unseen)).
    unseen: bool,
}

impl WireEncoder {
    /// An empty encoder.
    pub fn new() -> Self {
        WireEncoder::default()
    }

    /// An encoder appending to `buf`.
    pub fn with_buffer(buf: Vec<u8>) -> Self {
        WireEncoder { buf, unseen: false }
    }

    /// Notes that a set value was written as nothing (a `Some` of an empty list or map).
    #[inline]
    pub(crate) fn note_unseen(&mut self) {
        self.unseen = true;
    }

    /// Whether a set value was written that a reader will find unset: protobuf has no
    /// empty list or map (Go writes a nil and an empty slice alike, as nothing), so a
    /// `Some` of one reads back as `None`, and the object read back is not the one
    /// written.
    pub fn wrote_unseen(&self) -> bool {
        self.unseen
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// The bytes written so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Appends raw bytes.
    pub fn raw(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Appends a varint.
    #[inline]
    pub fn varint(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.buf.push((value as u8) | 0x80);
            value >>= 7;
        }
        self.buf.push(value as u8);
    }

    /// Appends a field key.
    #[inline]
    pub fn key(&mut self, field: u32, wire: WireType) {
        self.varint((u64::from(field) << 3) | wire.bits());
    }

    /// Appends a length-delimited field holding `bytes`.
    pub fn bytes_field(&mut self, field: u32, bytes: &[u8]) {
        let key = (u64::from(field) << 3) | WireType::LengthDelimited.bits();
        // One reservation for key, length and bytes; the common case (a field below 16,
        // fewer than 128 bytes) writes key and length as one two-byte append.
        self.buf.reserve(bytes.len() + 2 * 10);
        if key < 0x80 && bytes.len() < 0x80 {
            self.buf.extend_from_slice(&[key as u8, bytes.len() as u8]);
        } else {
            self.varint(key);
            self.varint(bytes.len() as u64);
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Appends a length-delimited field holding the concatenation of `parts`.
    pub(crate) fn bytes_field_of(&mut self, field: u32, parts: &[&[u8]]) {
        let len: usize = parts.iter().map(|part| part.len()).sum();
        self.buf.reserve(len + 2 * 10);
        self.key(field, WireType::LengthDelimited);
        self.varint(len as u64);
        for part in parts {
            self.buf.extend_from_slice(part);
        }
    }

    /// Appends a varint field.
    #[inline]
    pub fn varint_field(&mut self, field: u32, value: u64) {
        self.key(field, WireType::Varint);
        self.varint(value);
    }

    /// Appends a `double` field.
    pub fn fixed64_field(&mut self, field: u32, value: u64) {
        self.key(field, WireType::Fixed64);
        self.raw(&value.to_le_bytes());
    }

    /// Appends a length-delimited field whose content `write` produces.
    pub fn message(&mut self, field: u32, write: impl FnOnce(&mut WireEncoder)) {
        // The generic part stays this small: it is instantiated once per message type.
        let at = self.begin_message(field);
        write(self);
        self.end_message(at);
    }

    /// Writes the key and reserves one byte for the length; returns where it is.
    pub(crate) fn begin_message(&mut self, field: u32) -> usize {
        self.key(field, WireType::LengthDelimited);
        let at = self.buf.len();
        self.buf.push(0);
        at
    }

    /// Writes the length of what follows the byte reserved at `at`, moving the content
    /// when the length needs more than that byte.
    pub(crate) fn end_message(&mut self, at: usize) {
        let len = self.buf.len() - at - 1;
        if len < 0x80 {
            // Fits the reserved byte.
            self.buf[at] = len as u8;
            return;
        }
        // The length's varint, built on the stack (a length fits ten bytes).
        let mut prefix = [0u8; 10];
        let mut n = 0;
        let mut rest = len as u64;
        while rest >= 0x80 {
            prefix[n] = (rest as u8) | 0x80;
            rest >>= 7;
            n += 1;
        }
        prefix[n] = rest as u8;
        let extra = n;
        let end = self.buf.len();
        self.buf.resize(end + extra, 0);
        self.buf.copy_within(at + 1..end, at + 1 + extra);
        self.buf[at..=at + n].copy_from_slice(&prefix[..=n]);
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
