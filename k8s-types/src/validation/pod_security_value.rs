//! A container's security context as Go prints it when it is the bad value: Go's
//! internal `core.SecurityContext` through `json.Marshal`, so Go's field names, every
//! field, `null` for what is unset (see `go_value`).

use apimachinery::util::validation::field::BadValue;
use serde::Serialize;

use crate::core::v1::{SeccompProfile, SecurityContext};
use crate::validation::go_value::go_json;

/// `sc` as Go writes its internal form.
pub(crate) fn go_security_context(sc: &SecurityContext) -> BadValue {
    go_json(&GoSecurityContext::from(sc))
}

/// A list as Go's nil slice when empty (the types here cannot tell an explicit `[]`).
fn list(l: &[String]) -> Option<&[String]> {
    (!l.is_empty()).then_some(l)
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct GoSecurityContext<'a> {
    capabilities: Option<GoCapabilities<'a>>,
    privileged: Option<bool>,
    #[serde(rename = "SELinuxOptions")]
    se_linux_options: Option<GoSeLinuxOptions<'a>>,
    windows_options: Option<GoWindowsOptions<'a>>,
    run_as_user: Option<i64>,
    run_as_group: Option<i64>,
    run_as_non_root: Option<bool>,
    read_only_root_filesystem: Option<bool>,
    allow_privilege_escalation: Option<bool>,
    proc_mount: Option<&'a str>,
    seccomp_profile: Option<GoProfile<'a>>,
    app_armor_profile: Option<GoProfile<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct GoCapabilities<'a> {
    add: Option<&'a [String]>,
    drop: Option<&'a [String]>,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct GoSeLinuxOptions<'a> {
    user: &'a str,
    role: &'a str,
    r#type: &'a str,
    level: &'a str,
}

#[derive(Serialize)]
struct GoWindowsOptions<'a> {
    #[serde(rename = "GMSACredentialSpecName")]
    gmsa_credential_spec_name: Option<&'a str>,
    #[serde(rename = "GMSACredentialSpec")]
    gmsa_credential_spec: Option<&'a str>,
    #[serde(rename = "RunAsUserName")]
    run_as_user_name: Option<&'a str>,
    #[serde(rename = "HostProcess")]
    host_process: Option<bool>,
}

/// Go's `SeccompProfile` and `AppArmorProfile` have the same two fields.
#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct GoProfile<'a> {
    r#type: &'a str,
    localhost_profile: Option<&'a str>,
}

impl<'a> From<&'a SeccompProfile> for GoProfile<'a> {
    fn from(p: &'a SeccompProfile) -> Self {
        GoProfile {
            r#type: &p.r#type,
            localhost_profile: p.localhost_profile.as_deref(),
        }
    }
}

impl<'a> From<&'a SecurityContext> for GoSecurityContext<'a> {
    fn from(sc: &'a SecurityContext) -> Self {
        GoSecurityContext {
            capabilities: sc.capabilities.as_ref().map(|c| GoCapabilities {
                add: list(&c.add),
                drop: list(&c.drop),
            }),
            privileged: sc.privileged,
            se_linux_options: sc.se_linux_options.as_ref().map(|o| GoSeLinuxOptions {
                user: &o.user,
                role: &o.role,
                r#type: &o.r#type,
                level: &o.level,
            }),
            windows_options: sc.windows_options.as_ref().map(|w| GoWindowsOptions {
                gmsa_credential_spec_name: w.gmsa_credential_spec_name.as_deref(),
                gmsa_credential_spec: w.gmsa_credential_spec.as_deref(),
                run_as_user_name: w.run_as_user_name.as_deref(),
                host_process: w.host_process,
            }),
            run_as_user: sc.run_as_user,
            run_as_group: sc.run_as_group,
            run_as_non_root: sc.run_as_non_root,
            read_only_root_filesystem: sc.read_only_root_filesystem,
            allow_privilege_escalation: sc.allow_privilege_escalation,
            proc_mount: sc.proc_mount.as_deref(),
            seccomp_profile: sc.seccomp_profile.as_ref().map(GoProfile::from),
            app_armor_profile: sc.app_armor_profile.as_ref().map(|p| GoProfile {
                r#type: &p.r#type,
                localhost_profile: p.localhost_profile.as_deref(),
            }),
        }
    }
}
