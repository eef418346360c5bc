//! Label and field selector parsing (Go's `labels.Parse`, `fields.ParseSelector`).
//! Properties: no panic; a label selector's string form parses to the same selector;
//! matching never panics.
#![no_main]

use std::collections::BTreeMap;

use apimachinery::{fields, labels};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let set: BTreeMap<String, String> = [("app", "web"), ("tier", "front"), ("a.b/c", "1")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    if let Ok(selector) = labels::Selector::parse(text) {
        let written = selector.to_string();
        match labels::Selector::parse(&written) {
            Ok(back) => assert_eq!(back.to_string(), written, "{text:?}"),
            Err(e) => panic!("{text:?} → {written:?}, which does not parse: {e}"),
        }
        let _ = selector.matches(&set);
    }
    if let Ok(selector) = fields::Selector::parse(text) {
        let _ = selector.matches(&set);
        let _ = selector.requirements();
    }
});
