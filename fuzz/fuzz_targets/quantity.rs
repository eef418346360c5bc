//! `Quantity` parsing (Go's `resource.ParseQuantity`) and its canonical form. Properties:
//! no panic; the canonical text of a parsed quantity parses, to an equal quantity when it
//! is below 10¹⁸ in magnitude; the canonical text of that is a fixed point.
//!
//! Why not more: Go writes no suffix for decimal amounts of 10²¹ or more (`6000E` is
//! written `6`), and a binary-SI amount that is not a whole power of 1024 is written as
//! a plain number, which reads back as decimal SI (`62.5Ki` → `64000` → `64k`); the port
//! keeps Go's bytes.
#![no_main]

use std::cmp::Ordering;

use apimachinery::api::resource::Quantity;
use libfuzzer_sys::fuzz_target;

fn reparse(text: &str, from: &str) -> Quantity {
    match text.parse::<Quantity>() {
        Ok(q) => q,
        Err(e) => panic!("{from:?}: its canonical form {text:?} does not parse: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(quantity) = text.parse::<Quantity>() else {
        return;
    };
    let _ = quantity.to_string();
    let _ = serde_json::to_string(&quantity);
    let first = quantity.canonical_string();
    let again = reparse(&first, text);
    const BOUND: i64 = 1_000_000_000_000_000_000;
    if quantity.cmp_int64(BOUND) == Ordering::Less
        && quantity.cmp_int64(-BOUND) == Ordering::Greater
    {
        assert!(
            again == quantity,
            "{text:?}: canonical {first:?} parses to another value"
        );
    }
    let second = again.canonical_string();
    let third = reparse(&second, text).canonical_string();
    assert_eq!(
        second, third,
        "{text:?}: canonical form is not a fixed point"
    );
});
