//! parse(display(x)) == x for every schema type.

use super::*;
use proptest::prelude::*;

/// A DNS-ish group name: lower-case labels joined by dots, or empty (core group).
fn group() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-z][a-z0-9-]{0,10}(\\.[a-z][a-z0-9-]{0,10}){0,3}"
    ]
}

fn version() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(API_VERSION_INTERNAL.to_owned()),
        "v[0-9]{1,2}((alpha|beta)[0-9]{1,2})?"
    ]
}

fn kind() -> impl Strategy<Value = String> {
    "[A-Z][A-Za-z0-9]{0,20}"
}

fn resource() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9]{0,20}"
}

proptest! {
    #[test]
    fn group_version(g in group(), v in version()) {
        let gv = GroupVersion::new(g, v);
        prop_assert_eq!(gv.to_string().parse::<GroupVersion>().unwrap(), gv);
    }

    #[test]
    fn group_version_kind(g in group(), v in version(), k in kind()) {
        let gvk = GroupVersionKind::new(g, v, k);
        prop_assert_eq!(gvk.to_string().parse::<GroupVersionKind>().unwrap(), gvk.clone());
        let (api_version, kind) = gvk.to_api_version_and_kind();
        prop_assert_eq!(GroupVersionKind::from_api_version_and_kind(&api_version, kind), gvk);
    }

    #[test]
    fn group_version_resource(g in group(), v in version(), r in resource()) {
        let gvr = GroupVersionResource::new(g, v, r);
        prop_assert_eq!(gvr.to_string().parse::<GroupVersionResource>().unwrap(), gvr);
    }

    #[test]
    fn group_kind(g in group(), k in kind()) {
        let gk = GroupKind::new(g, k);
        prop_assert_eq!(parse_group_kind(&gk.to_string()), gk);
    }

    #[test]
    fn group_resource(g in group(), r in resource()) {
        let gr = GroupResource::new(g, r);
        prop_assert_eq!(parse_group_resource(&gr.to_string()), gr);
    }

    #[test]
    fn resource_arg_of_a_fully_qualified_resource(g in "[a-z]{1,8}(\\.[a-z]{1,8}){0,2}", v in "v[0-9]", r in resource()) {
        let arg = format!("{r}.{v}.{g}");
        let (gvr, gr) = parse_resource_arg(&arg);
        prop_assert_eq!(gvr, Some(GroupVersionResource::new(g.clone(), v.clone(), r.clone())));
        prop_assert_eq!(gr, GroupResource::new(format!("{v}.{g}"), r));
    }

    #[test]
    fn parsing_never_panics(s in "\\PC{0,40}") {
        let _ = s.parse::<GroupVersion>();
        let _ = s.parse::<GroupVersionKind>();
        let _ = s.parse::<GroupVersionResource>();
        let _ = parse_kind_arg(&s);
        let _ = parse_resource_arg(&s);
    }
}
