//! Short names (`deploy` for `deployments`): [`ShortcutExpander`] and the
//! [`ShortcutRESTMapper`] that applies it before every resource lookup.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use super::{CategoryExpander, RESTMapper, RESTMapperError, RESTMapping};
use crate::schema::{GroupKind, GroupResource, GroupVersionKind, GroupVersionResource, Name};

/// A short name and the resource it stands for, both in the group that declares them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResourceShortcut {
    /// The short name, such as `deploy` in `apps`.
    pub short_form: GroupResource,
    /// The resource, such as `deployments` in `apps`.
    pub long_form: GroupResource,
}

/// The short names a cluster declares, in priority order, and the rules kubectl uses to
/// expand them (client-go's `shortcutExpander`).
///
/// Resources are registered as discovery lists them, most preferred group first (the core
/// group, then the others in server order), each with its plural and singular names and
/// its short names. [`expand`](Self::expand) then turns what a user typed into a resource
/// a [`RESTMapper`] knows:
///
/// 1. a resource's own plural or singular name (in the given group, if one is given) is
///    left alone, even when some other resource uses it as a short name;
/// 2. else the first registered short name equal to it (in the given group, if any) is
///    replaced by its resource and group;
/// 3. else, if a group was given, the first short name whose group the given group is a
///    prefix of (`hpa.autoscal` for `autoscaling`);
/// 4. else it is left alone.
///
/// The version asked for is kept (Go drops it when a short name matches in step 2).
///
/// ```
/// use apimachinery::meta::ShortcutExpander;
/// use apimachinery::schema::{GroupVersionResource, Name};
///
/// let mut shortcuts = ShortcutExpander::default();
/// shortcuts.add_resource(&Name::new("apps"), &Name::new("deployments"), &Name::new("deployment"), &[Name::new("deploy")]);
/// let expanded = shortcuts.expand(&GroupVersionResource::new("", "", "deploy"));
/// assert_eq!(expanded, GroupVersionResource::new("apps", "", "deployments"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ShortcutExpander {
    shortcuts: Vec<ResourceShortcut>,
    /// Short name → positions in `shortcuts`, ascending.
    by_short_name: HashMap<Name, Vec<usize>>,
    /// Full names (plural and singular) by group, and in any group.
    full_names: HashSet<GroupResource>,
    full_names_any_group: HashSet<Name>,
}

impl ShortcutExpander {
    /// Registers a resource of `group` with its names; call in priority order, since an
    /// earlier short name wins over a later equal one.
    pub fn add_resource(
        &mut self,
        group: &Name,
        plural: &Name,
        singular: &Name,
        short_names: &[Name],
    ) {
        for name in [plural, singular] {
            self.full_names
                .insert(GroupResource::new(group.clone(), name.clone()));
            self.full_names_any_group.insert(name.clone());
        }
        for short in short_names {
            let at = self.shortcuts.len();
            self.shortcuts.push(ResourceShortcut {
                short_form: GroupResource::new(group.clone(), short.clone()),
                long_form: GroupResource::new(group.clone(), plural.clone()),
            });
            self.by_short_name
                .entry(short.clone())
                .or_default()
                .push(at);
        }
    }

    /// Every short name registered, in priority order.
    pub fn shortcuts(&self) -> &[ResourceShortcut] {
        &self.shortcuts
    }

    /// The resource a user most likely meant; see the type documentation for the rules.
    pub fn expand(&self, resource: &GroupVersionResource) -> GroupVersionResource {
        self.expand_reporting(resource, |_| {})
    }

    /// [`expand`](Self::expand), telling `warn` about each other resource a matched short
    /// name could also have meant (once per resource), as kubectl warns.
    pub fn expand_reporting(
        &self,
        resource: &GroupVersionResource,
        mut warn: impl FnMut(String),
    ) -> GroupVersionResource {
        let has_group = !resource.group.is_empty();
        let is_full_name = if has_group {
            self.full_names.contains(&resource.group_resource())
        } else {
            self.full_names_any_group
                .contains(resource.resource.as_str())
        };
        if is_full_name {
            return resource.clone();
        }
        let candidates = self
            .by_short_name
            .get(resource.resource.as_str())
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .map(|&at| &self.shortcuts[at]);

        let mut exact = candidates
            .clone()
            .filter(|s| !has_group || s.short_form.group == resource.group);
        if let Some(first) = exact.next() {
            let mut warned: HashSet<&GroupResource> = HashSet::new();
            for other in exact {
                if other.long_form != first.long_form && warned.insert(&other.long_form) {
                    warn(format!(
                        "short name {:?} could also match lower priority resource {}",
                        resource.resource.as_str(),
                        other.long_form
                    ));
                }
            }
            return first.long_form.with_version(resource.version.clone());
        }
        if has_group {
            if let Some(prefixed) = candidates
                .into_iter()
                .find(|s| s.short_form.group.starts_with(resource.group.as_str()))
            {
                return prefixed.long_form.with_version(resource.version.clone());
            }
        }
        resource.clone()
    }
}

/// A hook that receives kubectl's warnings about ambiguous short names.
pub type WarningHandler = Arc<dyn Fn(&str) + Send + Sync>;

/// Expands short names before asking its delegate, and knows the categories of the
/// resources (kubectl's `shortcutExpander` around a discovery mapper, with a category
/// expander beside it).
///
/// `kind_for`, `kinds_for`, `resource_for`, `resources_for` and `resource_singularizer`
/// see the expanded resource; the kind lookups (`rest_mapping`, `rest_mappings`) go to the
/// delegate unchanged.
///
/// ```
/// use apimachinery::meta::{ResourceEntry, RESTMapper, RESTScope, ShortcutRESTMapper};
/// use apimachinery::schema::{GroupResource, GroupVersion, GroupVersionResource, Name};
///
/// let apps = GroupVersion::new("apps", "v1");
/// let mapper = ShortcutRESTMapper::from_entries(
///     vec![apps.clone()],
///     [ResourceEntry::new(apps.with_kind("Deployment"), "deployments", "deployment", RESTScope::NAMESPACE)
///         .with_short_names(["deploy"])
///         .with_categories(["all"])],
/// );
/// assert_eq!(mapper.kind_for(&GroupVersionResource::new("", "", "deploy"))?, apps.with_kind("Deployment"));
/// assert_eq!(mapper.resources_for_category("all"), Some(&[GroupResource::new("apps", "deployments")][..]));
/// # Ok::<(), apimachinery::meta::RESTMapperError>(())
/// ```
#[derive(Clone)]
pub struct ShortcutRESTMapper<M = Box<dyn RESTMapper>> {
    /// The mapper asked with expanded names.
    pub delegate: M,
    /// The short names.
    pub shortcuts: ShortcutExpander,
    /// The categories.
    pub categories: CategoryExpander,
    warning_handler: Option<WarningHandler>,
}

impl<M: fmt::Debug> fmt::Debug for ShortcutRESTMapper<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ShortcutRESTMapper")
            .field("delegate", &self.delegate)
            .field("shortcuts", &self.shortcuts)
            .field("categories", &self.categories)
            .field("warning_handler", &self.warning_handler.is_some())
            .finish()
    }
}

impl<M: RESTMapper> ShortcutRESTMapper<M> {
    /// Wraps `delegate` with the given short names and categories.
    pub fn new(delegate: M, shortcuts: ShortcutExpander, categories: CategoryExpander) -> Self {
        ShortcutRESTMapper {
            delegate,
            shortcuts,
            categories,
            warning_handler: None,
        }
    }

    /// Sends warnings about ambiguous short names to `handler` (kubectl prints them).
    pub fn with_warning_handler(mut self, handler: WarningHandler) -> Self {
        self.warning_handler = Some(handler);
        self
    }

    /// The resource a user most likely meant by a name that may be a short name.
    pub fn expand_short_name(&self, resource: &GroupVersionResource) -> GroupVersionResource {
        match &self.warning_handler {
            Some(handler) => self.shortcuts.expand_reporting(resource, |w| handler(&w)),
            None => self.shortcuts.expand(resource),
        }
    }

    /// The resources of a category such as `all`; `None` for an unknown category.
    pub fn resources_for_category(&self, category: &str) -> Option<&[GroupResource]> {
        self.categories.expand(category)
    }
}

impl<M: RESTMapper> RESTMapper for ShortcutRESTMapper<M> {
    fn kind_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<GroupVersionKind, RESTMapperError> {
        self.delegate.kind_for(&self.expand_short_name(resource))
    }

    fn kinds_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
        self.delegate.kinds_for(&self.expand_short_name(resource))
    }

    fn resource_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionResource, RESTMapperError> {
        self.delegate.resource_for(&self.expand_short_name(input))
    }

    fn resources_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
        self.delegate.resources_for(&self.expand_short_name(input))
    }

    fn rest_mapping(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<RESTMapping, RESTMapperError> {
        self.delegate.rest_mapping(gk, versions)
    }

    fn rest_mappings(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<Vec<RESTMapping>, RESTMapperError> {
        self.delegate.rest_mappings(gk, versions)
    }

    fn resource_singularizer(&self, resource: &str) -> Result<String, RESTMapperError> {
        let expanded = self.expand_short_name(&GroupVersionResource::new(
            Name::EMPTY,
            Name::EMPTY,
            resource,
        ));
        self.delegate.resource_singularizer(&expanded.resource)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn n(s: &str) -> Name {
        Name::new(s)
    }

    fn gvr(group: &str, version: &str, resource: &str) -> GroupVersionResource {
        GroupVersionResource::new(group, version, resource)
    }

    fn expander(resources: &[(&str, &str, &str, &[&str])]) -> ShortcutExpander {
        let mut e = ShortcutExpander::default();
        for (group, plural, singular, shorts) in resources {
            let shorts: Vec<Name> = shorts.iter().map(|s| n(s)).collect();
            e.add_resource(&n(group), &n(plural), &n(singular), &shorts);
        }
        e
    }

    #[test]
    fn cases_of_kubectl() {
        // Go's TestReplaceAliases.
        assert_eq!(
            expander(&[]).expand(&gvr("", "", "storageclasses")),
            gvr("", "", "storageclasses")
        );
        let hpa = expander(&[
            ("autoscaling", "superhorizontalpodautoscalers", "", &["hpa"]),
            ("autoscaling", "horizontalpodautoscalers", "", &["hpa"]),
        ]);
        assert_eq!(
            hpa.expand(&gvr("", "", "hpa")),
            gvr("autoscaling", "", "superhorizontalpodautoscalers")
        );
        let dpl = expander(&[
            ("foo", "deployments", "", &["dpl"]),
            ("extension", "deployments", "", &["deploy"]),
        ]);
        assert_eq!(
            dpl.expand(&gvr("", "", "dpl")),
            gvr("foo", "", "deployments")
        );
        let pods = expander(&[
            ("", "pods", "pod", &[]),
            ("acme.com", "poddlers", "", &["pods", "pod"]),
        ]);
        assert_eq!(pods.expand(&gvr("", "", "pods")), gvr("", "", "pods"));
        assert_eq!(pods.expand(&gvr("", "", "pod")), gvr("", "", "pod"));
        // Go's TestKindFor: with the short name's group, and without any group.
        let sc = expander(&[("storage.k8s.io", "storageclasses", "", &["sc"])]);
        assert_eq!(
            sc.expand(&gvr("storage.k8s.io", "", "sc")),
            gvr("storage.k8s.io", "", "storageclasses")
        );
        assert_eq!(
            sc.expand(&gvr("", "", "sc")),
            gvr("storage.k8s.io", "", "storageclasses")
        );
    }

    #[test]
    fn groups_filter_and_prefix() {
        let e = expander(&[
            ("", "pods", "pod", &["po"]),
            (
                "autoscaling",
                "horizontalpodautoscalers",
                "horizontalpodautoscaler",
                &["hpa"],
            ),
            ("acme.com", "poddlers", "poddler", &["po"]),
        ]);
        // A given group narrows the short names.
        assert_eq!(
            e.expand(&gvr("acme.com", "", "po")),
            gvr("acme.com", "", "poddlers")
        );
        // A prefix of the group works when nothing matches exactly; the version is kept.
        assert_eq!(
            e.expand(&gvr("autoscal", "v2", "hpa")),
            gvr("autoscaling", "v2", "horizontalpodautoscalers")
        );
        // A full name in the given group is left alone, in another group it is not one.
        assert_eq!(
            e.expand(&gvr("acme.com", "", "poddler")),
            gvr("acme.com", "", "poddler")
        );
        assert_eq!(e.expand(&gvr("nope", "", "po")), gvr("nope", "", "po"));
        assert_eq!(e.expand(&gvr("", "", "nothing")), gvr("", "", "nothing"));
    }

    #[test]
    fn ambiguous_short_names_warn_once_per_resource() {
        let e = expander(&[
            ("", "pods", "pod", &["po"]),
            ("acme.com", "poddlers", "poddler", &["po"]),
            ("acme.com", "poddlers", "poddler", &["po"]),
            ("", "pods", "pod", &["po"]),
        ]);
        let mut warnings = Vec::new();
        assert_eq!(
            e.expand_reporting(&gvr("", "", "po"), |w| warnings.push(w)),
            gvr("", "", "pods")
        );
        assert_eq!(
            warnings,
            vec![r#"short name "po" could also match lower priority resource poddlers.acme.com"#]
        );
    }

    #[test]
    fn the_mapper_expands_before_asking() {
        use crate::meta::{DefaultRESTMapper, RESTScope};
        let apps = crate::schema::GroupVersion::new("apps", "v1");
        let mut delegate = DefaultRESTMapper::new(vec![apps.clone()]);
        delegate.add(apps.with_kind("Deployment"), RESTScope::NAMESPACE);
        let shortcuts = expander(&[("apps", "deployments", "deployment", &["deploy"])]);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        let mapper = ShortcutRESTMapper::new(delegate, shortcuts, CategoryExpander::default())
            .with_warning_handler(Arc::new(move |w: &str| {
                if let Ok(mut s) = sink.lock() {
                    s.push(w.to_owned())
                }
            }));
        let deploy = gvr("", "", "deploy");
        assert_eq!(
            mapper.kind_for(&deploy).unwrap(),
            apps.with_kind("Deployment")
        );
        assert_eq!(
            mapper.kinds_for(&deploy).unwrap(),
            vec![apps.with_kind("Deployment")]
        );
        assert_eq!(
            mapper.resource_for(&deploy).unwrap(),
            apps.with_resource("deployments")
        );
        assert_eq!(
            mapper.resources_for(&deploy).unwrap(),
            vec![apps.with_resource("deployments")]
        );
        assert_eq!(
            mapper.resource_singularizer("deploy").unwrap(),
            "deployment"
        );
        let gk = GroupKind::new("apps", "Deployment");
        assert_eq!(
            mapper.rest_mapping(&gk, &[]).unwrap().resource,
            apps.with_resource("deployments")
        );
        assert_eq!(mapper.rest_mappings(&gk, &[]).unwrap().len(), 1);
        assert!(
            mapper
                .kind_for(&gvr("", "", "dep"))
                .unwrap_err()
                .is_no_match()
        );
        assert!(seen.lock().map(|s| s.is_empty()).unwrap_or(false));
        assert!(format!("{mapper:?}").contains("warning_handler: true"));
    }
}
