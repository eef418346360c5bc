//! [`ResourceEntry`]: everything known about one served kind, and building a mapper from
//! a list of them.

use super::{
    CategoryExpander, DefaultRESTMapper, RESTScope, ShortcutExpander, ShortcutRESTMapper,
    unsafe_guess_kind_to_resource,
};
use crate::schema::{GroupVersion, GroupVersionKind, Name};

/// One kind with all the names a user may call its resource by, as discovery reports
/// them or a scheme declares them.
///
/// It is the unit a mapper is built from when the resources are known up front (the
/// types compiled into a program): [`ShortcutRESTMapper::from_entries`] turns a list of
/// them into a [`DefaultRESTMapper`] with short names and categories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceEntry {
    /// The kind, with the group and version it is served in.
    pub kind: GroupVersionKind,
    /// The plural resource name, such as `deployments`.
    pub plural: Name,
    /// The singular resource name, such as `deployment`; empty to guess it from the kind.
    pub singular: Name,
    /// Short names, such as `deploy`.
    pub short_names: Vec<Name>,
    /// Categories, such as `all`.
    pub categories: Vec<Name>,
    /// Whether objects live in namespaces.
    pub scope: RESTScope,
}

impl ResourceEntry {
    /// An entry without short names or categories.
    pub fn new(
        kind: GroupVersionKind,
        plural: impl Into<Name>,
        singular: impl Into<Name>,
        scope: RESTScope,
    ) -> Self {
        ResourceEntry {
            kind,
            plural: plural.into(),
            singular: singular.into(),
            short_names: Vec::new(),
            categories: Vec::new(),
            scope,
        }
    }

    /// This entry with short names.
    pub fn with_short_names<N: Into<Name>>(mut self, names: impl IntoIterator<Item = N>) -> Self {
        self.short_names = names.into_iter().map(Into::into).collect();
        self
    }

    /// This entry in categories.
    pub fn with_categories<N: Into<Name>>(mut self, names: impl IntoIterator<Item = N>) -> Self {
        self.categories = names.into_iter().map(Into::into).collect();
        self
    }

    /// The singular name, guessed from the kind when none was given (as client-go does
    /// for servers that do not report one).
    pub fn singular_or_guess(&self) -> Name {
        if self.singular.is_empty() {
            unsafe_guess_kind_to_resource(&self.kind).1.resource
        } else {
            self.singular.clone()
        }
    }
}

impl ShortcutRESTMapper<DefaultRESTMapper> {
    /// A mapper over `entries`, given most preferred first, with their short names and
    /// categories.
    ///
    /// Each kind is registered under its own plural and singular resource; an earlier
    /// entry's short name wins over a later one's. `default_group_versions` orders answers
    /// and picks versions for `rest_mapping`, as for [`DefaultRESTMapper::new`].
    pub fn from_entries(
        default_group_versions: Vec<GroupVersion>,
        entries: impl IntoIterator<Item = ResourceEntry>,
    ) -> Self {
        let mut mapper = DefaultRESTMapper::new(default_group_versions);
        let mut shortcuts = ShortcutExpander::default();
        let mut categories = CategoryExpander::default();
        for entry in entries {
            let gv = entry.kind.group_version();
            let singular = entry.singular_or_guess();
            shortcuts.add_resource(&gv.group, &entry.plural, &singular, &entry.short_names);
            for category in &entry.categories {
                categories.add(
                    category,
                    gv.with_resource(entry.plural.clone()).group_resource(),
                );
            }
            mapper.add_specific(
                entry.kind,
                gv.with_resource(entry.plural),
                gv.with_resource(singular),
                entry.scope,
            );
        }
        ShortcutRESTMapper::new(mapper, shortcuts, categories)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::RESTMapper;
    use crate::schema::{GroupKind, GroupResource, GroupVersionResource};

    #[test]
    fn a_mapper_from_entries_knows_every_name() {
        let v1 = GroupVersion::new("", "v1");
        let apps = GroupVersion::new("apps", "v1");
        let mapper = ShortcutRESTMapper::from_entries(
            vec![v1.clone(), apps.clone()],
            [
                ResourceEntry::new(v1.with_kind("Pod"), "pods", "pod", RESTScope::NAMESPACE)
                    .with_short_names(["po"])
                    .with_categories(["all"]),
                ResourceEntry::new(
                    v1.with_kind("Endpoints"),
                    "endpoints",
                    "",
                    RESTScope::NAMESPACE,
                )
                .with_short_names(["ep"]),
                ResourceEntry::new(
                    apps.with_kind("Deployment"),
                    "deployments",
                    "deployment",
                    RESTScope::NAMESPACE,
                )
                .with_short_names(["deploy"])
                .with_categories(["all"]),
                ResourceEntry::new(v1.with_kind("Node"), "nodes", "node", RESTScope::ROOT),
            ],
        );
        let q = |r: &str| GroupVersionResource::new("", "", r);
        assert_eq!(mapper.kind_for(&q("po")).unwrap(), v1.with_kind("Pod"));
        assert_eq!(mapper.kind_for(&q("pod")).unwrap(), v1.with_kind("Pod"));
        assert_eq!(
            mapper.kind_for(&q("ep")).unwrap(),
            v1.with_kind("Endpoints")
        );
        assert_eq!(
            mapper.resource_for(&q("deploy")).unwrap(),
            apps.with_resource("deployments")
        );
        assert_eq!(
            mapper
                .rest_mapping(&GroupKind::new("", "Node"), &[])
                .unwrap()
                .scope,
            RESTScope::ROOT
        );
        assert_eq!(
            mapper.resources_for_category("all"),
            Some(
                &[
                    GroupResource::new("", "pods"),
                    GroupResource::new("apps", "deployments")
                ][..]
            )
        );
        // The guessed singular of Endpoints is itself.
        assert_eq!(mapper.resource_singularizer("ep").unwrap(), "endpoints");
    }
}
