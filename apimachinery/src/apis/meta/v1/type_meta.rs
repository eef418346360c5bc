//! [`TypeMeta`]: the `kind` and `apiVersion` every serialized object starts with.

use crate::schema::GroupVersionKind;

/// The `kind` and `apiVersion` of a serialized object (Go's `metav1.TypeMeta`).
///
/// Typed objects may carry one (a field of this type is picked up by
/// `#[derive(ApiObject)]`): with `omit_empty_type_meta` the object writes each string
/// only when set, as Go does (the encoders set them on the object they write), otherwise
/// an empty one is written as the object's own kind. JSON field order is Go's: `kind`,
/// then `apiVersion`; both are omitted when empty.
#[derive(crate::ApiType, Debug, Default, PartialEq, Eq, Hash)]
pub struct TypeMeta {
    /// The kind, such as `Deployment`.
    #[api(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The group version, such as `apps/v1` or `v1`.
    #[api(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
}

// Empty in every item of a list (Go writes items without them): through `string_field`.
impl Clone for TypeMeta {
    #[inline]
    fn clone(&self) -> Self {
        TypeMeta {
            kind: crate::string_field::clone(&self.kind),
            api_version: crate::string_field::clone(&self.api_version),
        }
    }
}

impl TypeMeta {
    /// Type metadata naming `gvk`.
    pub fn new(gvk: &GroupVersionKind) -> Self {
        let (api_version, kind) = gvk.to_api_version_and_kind();
        TypeMeta {
            kind: kind.to_owned(),
            api_version,
        }
    }

    /// True when neither kind nor apiVersion is set.
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty() && self.api_version.is_empty()
    }

    /// The group version kind these strings name (an unparsable apiVersion leaves group
    /// and version empty, as in Go).
    pub fn group_version_kind(&self) -> GroupVersionKind {
        GroupVersionKind::from_api_version_and_kind(&self.api_version, self.kind.as_str())
    }

    /// The group version kind these strings name, or when neither is set, the one given
    /// (a typed object's own: what its `Object::group_version_kind` returns). Out of line
    /// and not generic, so that `#[derive(ApiObject)]` compiles one call per type
    /// rather than both branches.
    ///
    /// Strings that name the one given (what a decoded object carries) give it too, as
    /// parsing them would, without parsing them or allocating the names: every protobuf
    /// encode asks for its object's kind, and that was an eighth of a ConfigMap's.
    #[inline(never)]
    pub fn group_version_kind_or(
        &self,
        group: &'static str,
        version: &'static str,
        kind: &'static str,
    ) -> GroupVersionKind {
        if self.is_empty() || (self.kind == kind && self.names_group_version(group, version)) {
            GroupVersionKind::from_static(group, version, kind)
        } else {
            self.group_version_kind()
        }
    }

    /// Whether `api_version` is `group/version`, or `version` alone for the core group
    /// (the empty `group`): what Go's `GroupVersion.String` writes for them.
    fn names_group_version(&self, group: &str, version: &str) -> bool {
        if group.is_empty() {
            return self.api_version == version;
        }
        self.api_version
            .strip_prefix(group)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| rest == version)
    }

    /// Sets kind and apiVersion from `gvk`.
    ///
    /// Strings that already say the same are left as they are, and changed ones reuse
    /// their buffers: a decoder sets the kind it just read, a conversion one of the same
    /// length, and neither should allocate for it.
    pub fn set_group_version_kind(&mut self, gvk: &GroupVersionKind) {
        if self.kind != gvk.kind.as_str() {
            self.kind.clear();
            self.kind.push_str(&gvk.kind);
        }
        let (group, version) = (gvk.group.as_str(), gvk.version.as_str());
        let same_api_version = if group.is_empty() {
            self.api_version == version
        } else {
            self.api_version
                .strip_prefix(group)
                .and_then(|rest| rest.strip_prefix('/'))
                == Some(version)
        };
        if !same_api_version {
            self.api_version.clear();
            if !group.is_empty() {
                self.api_version.push_str(group);
                self.api_version.push('/');
            }
            self.api_version.push_str(version);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setting_the_kind_writes_what_new_writes() {
        let gvks = [
            GroupVersionKind::new("apps", "v1", "Deployment"),
            GroupVersionKind::new("apps", "v1beta2", "Deployment"),
            GroupVersionKind::new("", "v1", "Pod"),
            GroupVersionKind::new("", "", ""),
            GroupVersionKind::new("v1", "", "Pod"),
            GroupVersionKind::new("apps", "", "Deployment"),
        ];
        for from in &gvks {
            for to in &gvks {
                let mut tm = TypeMeta::new(from);
                tm.set_group_version_kind(to);
                assert_eq!(tm, TypeMeta::new(to), "{from} -> {to}");
            }
            let mut tm = TypeMeta {
                kind: "Other".into(),
                api_version: "apps/v1/x".into(),
            };
            tm.set_group_version_kind(from);
            assert_eq!(tm, TypeMeta::new(from));
        }
    }

    #[test]
    fn the_given_kind_is_what_parsing_gives() {
        // Strings naming the given kind, other kinds, versions and groups, and ones that
        // only begin or end like it: each gives what parsing its strings gives.
        let given = [("apps", "v1", "Deployment"), ("", "v1", "Pod")];
        let api_versions = [
            "",
            "v1",
            "apps/v1",
            "apps/v1beta2",
            "/v1",
            "apps/",
            "apps/v1/x",
            "appsv1",
            "apps",
            "x/v1",
            "v1/",
            "v12",
        ];
        for (group, version, kind) in given {
            for api_version in api_versions {
                for tm_kind in ["", "Deployment", "Pod", "Deploymentx"] {
                    let tm = TypeMeta {
                        kind: tm_kind.into(),
                        api_version: api_version.into(),
                    };
                    let want = if tm.is_empty() {
                        GroupVersionKind::new(group, version, kind)
                    } else {
                        tm.group_version_kind()
                    };
                    assert_eq!(
                        tm.group_version_kind_or(group, version, kind),
                        want,
                        "{tm:?} given {group}/{version} {kind}"
                    );
                }
            }
        }
    }

    #[test]
    fn json_order_is_kind_then_api_version() {
        let tm = TypeMeta::new(&GroupVersionKind::new("apps", "v1", "Deployment"));
        assert_eq!(
            serde_json::to_string(&tm).unwrap(),
            r#"{"kind":"Deployment","apiVersion":"apps/v1"}"#
        );
        assert_eq!(serde_json::to_string(&TypeMeta::default()).unwrap(), "{}");
        assert_eq!(
            tm.group_version_kind().to_string(),
            "apps/v1, Kind=Deployment"
        );
    }
}
