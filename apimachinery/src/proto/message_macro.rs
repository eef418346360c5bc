//! [`proto_message!`](crate::proto_message): a [`Message`](super::Message)
//! implementation from a table of field numbers, the form the generator emits for
//! k8s-types' messages.
//!
//! Each field's error gets the field's name through one test per message rather than one
//! call per field: the name is found, by number, only once a value has failed. Per field,
//! a decode then costs a jump and the value's own reading (a Pod is read through about
//! 2,000 fields).

use super::error::ProtobufError;

/// `error`, found inside the field numbered `number`, named as `names` names it (the
/// error of a message from [`proto_message!`](crate::proto_message)). Out of line and
/// cold: only failing decodes come here.
#[cold]
#[inline(never)]
pub fn in_numbered_field(
    error: ProtobufError,
    number: u32,
    names: &[(u32, &'static str)],
) -> ProtobufError {
    match names.iter().find(|(n, _)| *n == number) {
        Some((_, name)) => error.in_field(name),
        // Not reached: `number` is one of the table's.
        None => error,
    }
}

/// Implements [`Message`](crate::proto::Message) for a struct from a table of
/// `number => field` pairs, in ascending field number: the shape of the code the
/// generator emits, usable by hand for types outside it. `number => field as "jsonName"`
/// names the field in error paths by its JSON name (the Rust name otherwise). Attributes written before the type
/// (`#[inline]`, or a `#[cfg_attr(..)]` of it) go on each of the three methods: an
/// `#[inline]` method is compiled only in the crates that call it.
///
/// ```
/// use apimachinery::proto::{decode_message, encode_message};
///
/// #[derive(Debug, Default, PartialEq)]
/// struct Port { name: String, port: i32, protocol: Option<String>, host_ip: Option<String> }
/// apimachinery::proto_message!(Port { 1 => name, 2 => port, 3 => protocol, 4 => host_ip as "hostIP" });
///
/// let port = Port { name: "http".into(), port: 80, protocol: None, host_ip: None };
/// let bytes = encode_message(&port);
/// assert_eq!(bytes, b"\x0a\x04http\x10\x50");
/// assert_eq!(decode_message::<Port>(&bytes)?, port);
/// assert_eq!(decode_message::<Port>(b"\x22\x01\xff").unwrap_err().path(), "hostIP");
/// # Ok::<(), apimachinery::proto::ProtobufError>(())
/// ```
#[macro_export]
macro_rules! proto_message {
    // A message without fields (Go's empty structs): every field is unknown and skipped.
    ($(#[$attr:meta])* $ty:ty { $(,)? }) => {
        impl $crate::proto::Message for $ty {
            $(#[$attr])*
            fn encode_fields(&self, _e: &mut $crate::proto::WireEncoder) {}

            $(#[$attr])*
            fn merge_field(
                &mut self,
                _number: u32,
                _wire: $crate::proto::WireType,
                _d: &mut $crate::proto::WireDecoder<'_>,
            ) -> ::core::result::Result<bool, $crate::proto::ProtobufError> {
                ::core::result::Result::Ok(false)
            }
        }
    };
    ($(#[$attr:meta])* $ty:ty { $($number:literal => $field:ident $(as $name:literal)?),* $(,)? }) => {
        impl $crate::proto::Message for $ty {
            $(#[$attr])*
            fn encode_fields(&self, e: &mut $crate::proto::WireEncoder) {
                $($crate::proto::Field::encode_field(&self.$field, $number, e);)*
            }

            $(#[$attr])*
            fn merge_field(
                &mut self,
                number: u32,
                wire: $crate::proto::WireType,
                d: &mut $crate::proto::WireDecoder<'_>,
            ) -> ::core::result::Result<bool, $crate::proto::ProtobufError> {
                let read = match number {
                    $($number => $crate::proto::Field::merge_from(&mut self.$field, wire, d),)*
                    _ => return ::core::result::Result::Ok(false),
                };
                // One test for every field, the field's name looked up only on error.
                match read {
                    ::core::result::Result::Ok(()) => ::core::result::Result::Ok(true),
                    ::core::result::Result::Err(e) => ::core::result::Result::Err(
                        $crate::proto::in_numbered_field(e, number, &[
                            $(($number, $crate::proto_message!(@name $field $($name)?)),)*
                        ]),
                    ),
                }
            }

            $(#[$attr])*
            fn finish_fields(&mut self) {
                $($crate::proto::Field::finish(&mut self.$field);)*
            }
        }
    };
    (@name $field:ident $name:literal) => { $name };
    (@name $field:ident) => { stringify!($field) };
}

#[cfg(test)]
mod tests {
    use crate::proto::{ProtobufErrorKind, decode_message};

    #[derive(Debug, Default, PartialEq)]
    struct Pair {
        first: String,
        second: Option<String>,
        count: i64,
    }
    crate::proto_message!(Pair { 1 => first, 3 => second as "secondName", 7 => count });

    #[derive(Debug, Default, PartialEq)]
    struct Empty {}
    crate::proto_message!(Empty {});

    #[test]
    fn a_message_without_fields_skips_every_field() {
        assert_eq!(crate::proto::encode_message(&Empty {}), b"");
        assert_eq!(
            decode_message::<Empty>(b"\x08\x01\x12\x01a").unwrap(),
            Empty {}
        );
    }

    #[test]
    fn a_failing_field_is_named_by_its_number() {
        // Each field, bad UTF-8 or the wrong wire type: named as the table names it.
        for (bytes, path) in [
            (&b"\x0a\x01\xff"[..], "first"),
            (&b"\x1a\x01\xff"[..], "secondName"),
            (&b"\x3a\x00"[..], "count"),
        ] {
            let e = decode_message::<Pair>(bytes).unwrap_err();
            assert_eq!(e.path(), path);
        }
        let e = decode_message::<Pair>(b"\x1a\x01\xff").unwrap_err();
        assert_eq!(e.kind(), &ProtobufErrorKind::InvalidUtf8);
        // Unknown fields are skipped, known ones read.
        let back = decode_message::<Pair>(b"\x10\x05\x38\x02\x0a\x01a").unwrap();
        assert_eq!((back.first.as_str(), back.count), ("a", 2));
    }
}
