//! Bad input never crashes validation: arbitrary strings, numbers and metadata give
//! error lists (each naming a field), never a panic.

use std::collections::BTreeMap;

use apimachinery::apis::meta::v1::validation::{
    name_is_dns_label, name_is_dns_subdomain, name_is_dns1035_label, validate_object_meta,
    validate_path_segment_name,
};
use apimachinery::apis::meta::v1::{ObjectMeta, OwnerReference};
use apimachinery::util::validation::field::Path;
use apimachinery::util::validation::{
    is_c_identifier, is_config_map_key, is_dns1035_label, is_dns1123_label, is_dns1123_subdomain,
    is_env_var_name, is_qualified_name, is_relaxed_env_var_name, is_valid_cidr, is_valid_ip,
    is_valid_label_value, is_valid_percent, is_valid_port_name, is_valid_port_num,
};
use proptest::prelude::*;

proptest! {
    #[test]
    fn string_checks_never_panic(s in ".{0,300}", n in any::<i64>()) {
        let p = Path::new("f");
        let _ = is_qualified_name(&s);
        let _ = is_valid_label_value(&s);
        let _ = is_dns1123_label(&s);
        let _ = is_dns1123_subdomain(&s);
        let _ = is_dns1035_label(&s);
        let _ = is_valid_port_name(&s);
        let _ = is_c_identifier(&s);
        let _ = is_env_var_name(&s);
        let _ = is_relaxed_env_var_name(&s);
        let _ = is_config_map_key(&s);
        let _ = is_valid_percent(&s);
        let _ = is_valid_ip(&p, &s);
        let _ = is_valid_cidr(&p, &s);
        let _ = validate_path_segment_name(&s, true);
        prop_assert_eq!(is_valid_port_num(n).is_empty(), (1..=65535).contains(&n));
    }

    #[test]
    fn object_meta_never_panics(
        name in ".{0,80}",
        ns in "[a-z.-]{0,70}",
        labels in proptest::collection::btree_map(".{0,70}", ".{0,70}", 0..20),
        finalizers in proptest::collection::vec("[a-z/.]{0,20}", 0..5),
        api_version in "[a-z/0-9]{0,10}",
        generation in any::<i64>(),
    ) {
        let meta = ObjectMeta {
            name: name.clone(),
            namespace: ns,
            labels: labels.clone(),
            annotations: labels,
            finalizers,
            generation,
            owner_references: vec![OwnerReference { api_version, ..Default::default() }],
            ..Default::default()
        };
        for rule in [name_is_dns_subdomain, name_is_dns_label, name_is_dns1035_label] {
            let errs = validate_object_meta(&meta, true, rule, &Path::new("metadata"));
            // Every error names a field under metadata.
            for e in errs.iter() {
                prop_assert!(e.field.starts_with("metadata."), "{}", e);
            }
            if generation < 0 {
                prop_assert!(!errs.is_empty());
            }
        }
    }

    #[test]
    fn huge_label_sets_are_errors(n in 1usize..2000) {
        let labels: BTreeMap<String, String> =
            (0..n).map(|i| (format!("k{i}"), "v".repeat(64))).collect();
        let meta = ObjectMeta { name: "a".into(), labels, ..Default::default() };
        let errs = validate_object_meta(&meta, false, name_is_dns_subdomain, &Path::new("metadata"));
        prop_assert_eq!(errs.len(), n);
    }
}
