//! [`WireEncoder`]: protobuf bytes written forwards into one buffer, the lengths of
//! nested messages put in their places once, when the bytes are taken out.

use super::wire::WireType;

/// Writes protobuf bytes into a growing buffer.
///
/// A nested message's length is only known once the message is written, and Go writes it
/// in the fewest bytes. [`message`](Self::message) reserves one byte for it; a length
/// that needs more (128 bytes and more) is set aside, with where it goes, instead of
/// moving the message's bytes to make room at once: widening in place moved every byte
/// once per nesting level of long messages (a Pod's containers five times, a list's items
/// once more, a list once more still, 13 MB for a list of 1,000 Pods). The bytes take
/// their final places once, when they are taken out ([`into_bytes`](Self::into_bytes),
/// or a copy of exactly their length for a whole document).
#[derive(Debug, Default)]
pub struct WireEncoder {
    buf: Vec<u8>,
    /// The lengths that need more than their reserved byte, by position: each message
    /// that ends puts its own before those of the messages nested in it.
    long: Vec<LongLength>,
    /// The bytes those lengths take beyond their reserved bytes: what the buffer's
    /// content lacks of its final length.
    extra: usize,
    /// Whether a value was written that a reader will not see (see
    /// [`wrote_unseen`](Self::wrote_unseen)).
    unseen: bool,
}

/// A message's length of two bytes or more, waiting for room in the buffer.
#[derive(Clone, Copy, Debug)]
struct LongLength {
    /// The byte reserved for it.
    at: usize,
    /// The message's final length.
    len: usize,
}

/// A nested message being written: what [`WireEncoder::end_message`] needs of the encoder
/// as it was when the message began.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenMessage {
    /// The byte reserved for the length.
    at: usize,
    /// [`WireEncoder::extra`] then: the bytes the message's own long lengths add are what
    /// it has grown since.
    extra: usize,
    /// The number of long lengths then: the message's own come after it.
    long: usize,
}

/// `value` as a varint: its bytes and how many there are.
#[inline]
fn varint_bytes(mut value: u64) -> ([u8; 10], usize) {
    let mut bytes = [0u8; 10];
    let mut n = 0;
    while value >= 0x80 {
        bytes[n] = (value as u8) | 0x80;
        value >>= 7;
        n += 1;
    }
    bytes[n] = value as u8;
    (bytes, n + 1)
}

impl WireEncoder {
    /// An empty encoder.
    pub const fn new() -> Self {
        WireEncoder {
            buf: Vec::new(),
            long: Vec::new(),
            extra: 0,
            unseen: false,
        }
    }

    /// An encoder appending to `buf`.
    pub fn with_buffer(buf: Vec<u8>) -> Self {
        WireEncoder {
            buf,
            ..WireEncoder::new()
        }
    }

    /// Empties the encoder, keeping its allocations (a thread's scratch encoder).
    pub(crate) fn clear(&mut self) {
        self.buf.clear();
        self.long.clear();
        self.extra = 0;
        self.unseen = false;
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

    /// The number of bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len() + self.extra
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes written, each long length put in its place: the bytes after it move
    /// once, in the buffer.
    pub fn into_bytes(mut self) -> Vec<u8> {
        if self.long.is_empty() {
            return self.buf;
        }
        let mut end = self.buf.len();
        self.buf.resize(end + self.extra, 0);
        // From the last length to the first, so that each byte moves once, to its place.
        let mut shift = self.extra;
        for long in self.long.iter().rev() {
            self.buf.copy_within(long.at + 1..end, long.at + 1 + shift);
            let (bytes, n) = varint_bytes(long.len as u64);
            shift -= n - 1;
            self.buf[long.at + shift..long.at + shift + n].copy_from_slice(&bytes[..n]);
            end = long.at;
        }
        self.buf
    }

    /// A copy of the bytes written, in a vector of exactly their length, each long length
    /// put in its place on the way; the encoder keeps its buffer.
    pub(crate) fn to_exact_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        let mut from = 0;
        for long in &self.long {
            out.extend_from_slice(&self.buf[from..long.at]);
            let (bytes, n) = varint_bytes(long.len as u64);
            out.extend_from_slice(&bytes[..n]);
            from = long.at + 1;
        }
        out.extend_from_slice(&self.buf[from..]);
        out
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
    #[inline]
    pub fn bytes_field(&mut self, field: u32, bytes: &[u8]) {
        let key = (u64::from(field) << 3) | WireType::LengthDelimited.bits();
        if key < 0x80 && bytes.len() < 0x80 {
            self.short_bytes_field(key as u8, bytes);
        } else {
            self.long_bytes_field(key, bytes);
        }
    }

    /// [`bytes_field`](Self::bytes_field) of a key and a length of one byte each, the
    /// common case (a field below 16, fewer than 128 bytes): one reservation, then key
    /// and length as one two-byte write and the bytes by word (`append`). Apart from the
    /// longer case, whose varint loops made every call save and restore six registers (a
    /// Pod writes 780 such fields).
    fn short_bytes_field(&mut self, key: u8, bytes: &[u8]) {
        crate::append::extend_after(&mut self.buf, [key, bytes.len() as u8], bytes);
    }

    /// [`bytes_field`](Self::bytes_field) of a key or a length of two bytes or more.
    #[inline(never)]
    fn long_bytes_field(&mut self, key: u64, bytes: &[u8]) {
        self.buf.reserve(bytes.len() + 2 * 10);
        self.varint(key);
        self.varint(bytes.len() as u64);
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
        let key = (u64::from(field) << 3) | WireType::Varint.bits();
        if key < 0x80 && value < 0x80 {
            // The common case (a field below 16, a small value or a bool): one append.
            self.buf.extend_from_slice(&[key as u8, value as u8]);
        } else {
            self.long_varint_field(key, value);
        }
    }

    /// [`varint_field`](Self::varint_field) of a key or a value of two bytes or more,
    /// out of line as [`long_bytes_field`](Self::long_bytes_field) is.
    #[inline(never)]
    fn long_varint_field(&mut self, key: u64, value: u64) {
        self.varint(key);
        self.varint(value);
    }

    /// Appends a `double` field.
    pub fn fixed64_field(&mut self, field: u32, value: u64) {
        self.key(field, WireType::Fixed64);
        self.raw(&value.to_le_bytes());
    }

    /// Appends a length-delimited field whose content `write` produces.
    pub fn message(&mut self, field: u32, write: impl FnOnce(&mut WireEncoder)) {
        // The generic part stays this small: it is instantiated once per message type,
        // and calls the two halves out of line.
        let open = self.begin_message(field);
        write(self);
        self.end_message(open);
    }

    /// Writes the key and reserves one byte for the length.
    #[inline(never)]
    pub(crate) fn begin_message(&mut self, field: u32) -> OpenMessage {
        self.open_message(field)
    }

    /// [`begin_message`](Self::begin_message), inlined into `encode_nested`, which writes
    /// every nested message of the generated types.
    #[inline(always)]
    pub(crate) fn open_message(&mut self, field: u32) -> OpenMessage {
        let key = (u64::from(field) << 3) | WireType::LengthDelimited.bits();
        if key < 0x80 {
            // Key and reserved byte as one append (a field below 16).
            self.buf.extend_from_slice(&[key as u8, 0]);
        } else {
            self.varint(key);
            self.buf.push(0);
        }
        let at = self.buf.len() - 1;
        OpenMessage {
            at,
            extra: self.extra,
            long: self.long.len(),
        }
    }

    /// Writes the length of what was written since `open` began, into its reserved byte
    /// when it fits, else sets it aside for when the bytes are taken out.
    #[inline(never)]
    pub(crate) fn end_message(&mut self, open: OpenMessage) {
        self.close_message(open);
    }

    /// [`end_message`](Self::end_message), inlined into `encode_nested`; the long case
    /// stays out of line.
    #[inline(always)]
    pub(crate) fn close_message(&mut self, open: OpenMessage) {
        let len = self.buf.len() - open.at - 1 + (self.extra - open.extra);
        match self.buf.get_mut(open.at) {
            Some(byte) if len < 0x80 => *byte = len as u8,
            _ => self.set_aside(open, len),
        }
    }

    /// Sets aside the length `len` of the message `open`, of two bytes or more, before
    /// the lengths of the messages nested in it, which follow it.
    #[inline(never)]
    fn set_aside(&mut self, open: OpenMessage, len: usize) {
        self.long.insert(open.long, LongLength { at: open.at, len });
        self.extra += varint_bytes(len as u64).1 - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Part of a message: raw bytes, or a nested message of its own parts.
    #[derive(Clone, Debug)]
    enum Part {
        Raw(usize),
        Message(u32, Vec<Part>),
    }

    /// What Go writes for `parts`: every length computed before its message.
    fn sized(parts: &[Part]) -> Vec<u8> {
        let mut out = Vec::new();
        for part in parts {
            match part {
                Part::Raw(n) => out.extend((0..*n).map(|i| i as u8)),
                Part::Message(field, inner) => {
                    let inner = sized(inner);
                    let (key, n) = varint_bytes(u64::from(*field) << 3 | 2);
                    out.extend_from_slice(&key[..n]);
                    let (len, n) = varint_bytes(inner.len() as u64);
                    out.extend_from_slice(&len[..n]);
                    out.extend_from_slice(&inner);
                }
            }
        }
        out
    }

    fn write(parts: &[Part], e: &mut WireEncoder) {
        for part in parts {
            match part {
                Part::Raw(n) => e.raw(&(0..*n).map(|i| i as u8).collect::<Vec<_>>()),
                Part::Message(field, inner) => e.message(*field, |e| write(inner, e)),
            }
        }
    }

    /// Both ways out of the encoder, after `prefix`.
    fn encoded(prefix: &[u8], parts: &[Part]) -> (Vec<u8>, Vec<u8>) {
        let mut e = WireEncoder::with_buffer(prefix.to_vec());
        write(parts, &mut e);
        let exact = e.to_exact_vec();
        assert_eq!(exact.len(), e.len());
        assert_eq!(exact.capacity(), exact.len());
        (exact, e.into_bytes())
    }

    #[test]
    fn long_lengths_nested_in_long_messages() {
        use Part::{Message, Raw};
        // Long inside long inside long, short ones between them, siblings of both kinds,
        // and a length of three bytes: each in its place, whichever way taken out.
        let parts = vec![
            Raw(3),
            Message(
                1,
                vec![
                    Message(2, vec![Raw(200), Message(3, vec![Raw(5)])]),
                    Message(4, vec![Raw(1)]),
                    Message(5, vec![Message(6, vec![Raw(130)]), Raw(17_000)]),
                ],
            ),
            Message(7, vec![Raw(127)]),
            Message(8, vec![Raw(128)]),
        ];
        let want = sized(&parts);
        let (exact, in_place) = encoded(b"k8s", &parts);
        assert_eq!(&exact[3..], want);
        assert_eq!(&in_place[3..], want);
        assert_eq!(&exact[..3], b"k8s");
        assert_eq!(exact, in_place);
        // An encoder reused after `clear` starts afresh.
        let mut e = WireEncoder::new();
        write(&parts, &mut e);
        e.clear();
        write(&parts[3..], &mut e);
        assert_eq!(e.to_exact_vec(), sized(&parts[3..]));
    }

    fn parts() -> impl Strategy<Value = Vec<Part>> {
        let leaf = prop_oneof![
            (0usize..40).prop_map(Part::Raw),
            (100usize..300).prop_map(Part::Raw),
        ];
        let part = leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                (0usize..200).prop_map(Part::Raw),
                (1u32..20, proptest::collection::vec(inner, 0..6))
                    .prop_map(|(field, parts)| Part::Message(field, parts)),
            ]
        });
        proptest::collection::vec(part, 0..5)
    }

    proptest! {
        #[test]
        fn nested_lengths_are_what_sizing_first_gives(parts in parts()) {
            let want = sized(&parts);
            let (exact, in_place) = encoded(b"", &parts);
            prop_assert_eq!(&exact, &want);
            prop_assert_eq!(&in_place, &want);
        }
    }
}
