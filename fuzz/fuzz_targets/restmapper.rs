//! What a name typed on kubectl's command line resolves to (`kubectl get deploy`,
//! `deployments.v1.apps`, `Deployment.apps`): Go's `ParseResourceArg`/`ParseKindArg`
//! followed by the RESTMapper kubectl builds from discovery, here the one built from the
//! Scheme's resources, with its short names, categories and singular forms; and the
//! aggregated-discovery reader that builds such a mapper from a server's answer.
//! Properties: no panic; a kind a resource resolves to has a REST mapping back to a
//! resource of the same group.
#![no_main]

use std::sync::OnceLock;

use apimachinery::meta::{DiscoveryRESTMapper, RESTMapper};
use apimachinery::runtime::Scheme;
use apimachinery::schema::{parse_kind_arg, parse_resource_arg};
use libfuzzer_sys::fuzz_target;

fn mapper() -> &'static DiscoveryRESTMapper {
    static MAPPER: OnceLock<DiscoveryRESTMapper> = OnceLock::new();
    MAPPER.get_or_init(|| {
        let mut scheme = Scheme::new();
        if let Err(e) = k8s_types::register(&mut scheme) {
            panic!("k8s_types::register failed: {e}");
        }
        DiscoveryRESTMapper::from_scheme(&scheme)
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Inputs that look like JSON are also read as an aggregated discovery document.
    if text.starts_with('{') {
        if let Ok(m) = DiscoveryRESTMapper::from_aggregated_discovery(&[text]) {
            let _ = m.kinds_for(&parse_resource_arg("x").1.with_version(""));
        }
        return;
    }
    let mapper = mapper();
    let (full, partial) = parse_resource_arg(text);
    let mut resources = vec![partial.with_version("")];
    resources.extend(full);
    for gvr in &resources {
        let expanded = mapper.expand_short_name(gvr);
        let _ = mapper.resources_for(&expanded);
        let _ = mapper.kinds_for(&expanded);
        let _ = mapper.resource_for(&expanded);
        if let Ok(gvk) = mapper.kind_for(&expanded) {
            let mapping = mapper.rest_mapping(&gvk.group_kind(), &[gvk.version.as_str()]);
            match mapping {
                Ok(m) => assert!(
                    m.resource.group == gvk.group,
                    "{text:?}: {gvk} maps to {}",
                    m.resource
                ),
                Err(e) => panic!("{text:?} resolved to {gvk}, which has no REST mapping: {e}"),
            }
        }
    }
    let _ = mapper.resources_for_category(text);
    let _ = mapper.resource_singularizer(text);
    let (full_kind, group_kind) = parse_kind_arg(text);
    let _ = mapper.rest_mappings(&group_kind, &[]);
    if let Some(gvk) = full_kind {
        let _ = mapper.rest_mapping(&gvk.group_kind(), &[gvk.version.as_str()]);
    }
});
