//! A pod's `hostAliases` (Go's `ValidateHostAliases`).

use apimachinery::util::validation::field::{ErrorList, Path};
use k8s_types::core::v1::HostAlias;
use k8s_types::validation::validate_host_aliases;

fn alias(ip: &str) -> HostAlias {
    HostAlias {
        ip: ip.to_owned(),
        hostnames: vec!["a".to_owned()],
    }
}

/// Go's `IsValidIPForLegacyField` with `StrictIPCIDRValidation` (on since 1.36): an
/// IPv4-mapped IPv6 address or an octet with a leading zero is refused.
#[test]
fn alias_ips_are_checked_strictly() {
    let mut errs = ErrorList::default();
    let aliases = [
        alias("10.0.0.1"),
        alias("::ffff:10.0.0.1"),
        alias("010.0.0.1"),
        alias("2001:DB8::1"),
    ];
    validate_host_aliases(&aliases, &Path::new("hostAliases"), &mut errs);
    let messages: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            "hostAliases[1].ip: Invalid value: \"::ffff:10.0.0.1\": must not be an IPv4-mapped IPv6 address",
            "hostAliases[2].ip: Invalid value: \"010.0.0.1\": must not have leading 0s",
        ]
    );
}
