//! Group/version/kind/resource parsing (Go's `schema.ParseGroupVersion`,
//! `ParseKindArg`, `ParseResourceArg`, `ParseGroupKind`, `ParseGroupResource`).
//! Properties: no panic; a
//! group version's string form parses to the same group version.
#![no_main]

use apimachinery::schema::{
    GroupVersion, GroupVersionKind, GroupVersionResource, parse_group_kind, parse_group_resource,
    parse_group_version, parse_kind_arg, parse_resource_arg,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(gv) = parse_group_version(text) {
        let written = gv.to_string();
        match written.parse::<GroupVersion>() {
            Ok(back) => assert!(back == gv, "{text:?} → {written:?} → {back:?}"),
            Err(e) => panic!("{text:?} → {written:?}, which does not parse: {e}"),
        }
    }
    let _ = text.parse::<GroupVersionKind>().map(|gvk| gvk.to_string());
    let _ = text
        .parse::<GroupVersionResource>()
        .map(|gvr| gvr.to_string());
    let _ = parse_kind_arg(text);
    let _ = parse_resource_arg(text);
    let _ = parse_group_kind(text).to_string();
    let _ = parse_group_resource(text).to_string();
});
