//! [`PriorityRESTMapper`]: one answer out of several, by preference patterns.

use super::{AmbiguousKindError, AmbiguousResourceError, RESTMapper, RESTMapperError, RESTMapping};
use crate::schema::{GroupKind, GroupVersion, GroupVersionKind, GroupVersionResource, Name};

/// In a priority pattern, any group (Go's `meta.AnyGroup`).
pub const ANY_GROUP: &str = "*";
/// In a priority pattern, any version (Go's `meta.AnyVersion`).
pub const ANY_VERSION: &str = "*";
/// In a resource priority pattern, any resource (Go's `meta.AnyResource`).
pub const ANY_RESOURCE: &str = "*";
/// In a kind priority pattern, any kind (Go's `meta.AnyKind`).
pub const ANY_KIND: &str = "*";

/// Resolves ambiguity by preference (Go's `meta.PriorityRESTMapper`): when the delegate
/// finds several resources, kinds or mappings, the patterns narrow them down one after the
/// other until one is left.
///
/// Each pattern is a group version resource (or kind) whose parts may be `*`
/// ([`ANY_GROUP`], [`ANY_VERSION`], [`ANY_RESOURCE`], [`ANY_KIND`]). A pattern that matches
/// none of the remaining candidates is skipped; one that matches several keeps those and
/// the next pattern continues from them; one that matches exactly one decides. When the
/// patterns run out first, the lookup is ambiguous and the error lists every candidate.
///
/// For `rest_mapping`, the versions the caller asks for come first, as patterns of the
/// asked group in those versions, before `kind_priority`. The list lookups
/// (`kinds_for`, `resources_for`, `rest_mappings`) and `resource_singularizer` are the
/// delegate's.
///
/// ```
/// use apimachinery::meta::{DefaultRESTMapper, PriorityRESTMapper, RESTMapper, RESTScope, ANY_VERSION, ANY_RESOURCE, ANY_KIND};
/// use apimachinery::schema::{GroupVersion, GroupVersionKind, GroupVersionResource};
///
/// let (apps, ext) = (GroupVersion::new("apps", "v1"), GroupVersion::new("extensions", "v1beta1"));
/// let mut both = DefaultRESTMapper::new(vec![]);
/// both.add(apps.with_kind("Deployment"), RESTScope::NAMESPACE);
/// both.add(ext.with_kind("Deployment"), RESTScope::NAMESPACE);
///
/// let mapper = PriorityRESTMapper::new(
///     both,
///     vec![GroupVersionResource::new("apps", ANY_VERSION, ANY_RESOURCE)],
///     vec![GroupVersionKind::new("apps", ANY_VERSION, ANY_KIND)],
/// );
/// let deployments = GroupVersionResource::new("", "", "deployments");
/// assert_eq!(mapper.resource_for(&deployments)?, apps.with_resource("deployments"));
/// assert_eq!(mapper.kind_for(&deployments)?, apps.with_kind("Deployment"));
/// # Ok::<(), apimachinery::meta::RESTMapperError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct PriorityRESTMapper<M = Box<dyn RESTMapper>> {
    /// The mapper that finds every candidate.
    pub delegate: M,
    /// Patterns that narrow the candidate resources, in order.
    pub resource_priority: Vec<GroupVersionResource>,
    /// Patterns that narrow the candidate kinds and mappings, in order.
    pub kind_priority: Vec<GroupVersionKind>,
}

impl<M: RESTMapper> PriorityRESTMapper<M> {
    /// A mapper that narrows `delegate`'s answers with the given patterns.
    pub fn new(
        delegate: M,
        resource_priority: Vec<GroupVersionResource>,
        kind_priority: Vec<GroupVersionKind>,
    ) -> Self {
        PriorityRESTMapper {
            delegate,
            resource_priority,
            kind_priority,
        }
    }
}

fn part_matches(pattern: &Name, any: &str, value: &Name) -> bool {
    pattern == any || pattern == value
}

fn resource_matches(pattern: &GroupVersionResource, resource: &GroupVersionResource) -> bool {
    part_matches(&pattern.group, ANY_GROUP, &resource.group)
        && part_matches(&pattern.version, ANY_VERSION, &resource.version)
        && part_matches(&pattern.resource, ANY_RESOURCE, &resource.resource)
}

fn kind_matches(pattern: &GroupVersionKind, kind: &GroupVersionKind) -> bool {
    part_matches(&pattern.group, ANY_GROUP, &kind.group)
        && part_matches(&pattern.version, ANY_VERSION, &kind.version)
        && part_matches(&pattern.kind, ANY_KIND, &kind.kind)
}

/// Narrows `candidates` pattern by pattern: `Ok` with the one a pattern singled out, or
/// `Err` with what was left when the patterns ran out.
fn narrow<T, P>(
    candidates: &[T],
    patterns: impl IntoIterator<Item = P>,
    matches: impl Fn(&P, &T) -> bool,
) -> Result<&T, Vec<&T>> {
    let mut remaining: Vec<&T> = candidates.iter().collect();
    for pattern in patterns {
        let matched: Vec<&T> = remaining
            .iter()
            .copied()
            .filter(|c| matches(&pattern, c))
            .collect();
        match matched.as_slice() {
            [] => {}
            [one] => return Ok(one),
            _ => remaining = matched,
        }
    }
    Err(remaining)
}

impl<M: RESTMapper> RESTMapper for PriorityRESTMapper<M> {
    fn kind_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<GroupVersionKind, RESTMapperError> {
        let kinds = self.delegate.kinds_for(resource)?;
        if let [only] = kinds.as_slice() {
            return Ok(only.clone());
        }
        match narrow(&kinds, &self.kind_priority, |p, k| kind_matches(p, k)) {
            Ok(kind) => Ok(kind.clone()),
            Err(_) => Err(AmbiguousResourceError {
                partial_resource: resource.clone(),
                matching_resources: Vec::new(),
                matching_kinds: kinds,
            }
            .into()),
        }
    }

    fn kinds_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
        self.delegate.kinds_for(resource)
    }

    fn resource_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionResource, RESTMapperError> {
        let resources = self.delegate.resources_for(input)?;
        if let [only] = resources.as_slice() {
            return Ok(only.clone());
        }
        match narrow(&resources, &self.resource_priority, |p, r| {
            resource_matches(p, r)
        }) {
            Ok(resource) => Ok(resource.clone()),
            Err(_) => Err(AmbiguousResourceError {
                partial_resource: input.clone(),
                matching_resources: resources,
                matching_kinds: Vec::new(),
            }
            .into()),
        }
    }

    fn resources_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
        self.delegate.resources_for(input)
    }

    fn rest_mapping(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<RESTMapping, RESTMapperError> {
        let mappings = self.delegate.rest_mappings(gk, versions)?;
        // The versions asked for come before the configured preferences.
        let asked = versions
            .iter()
            .map(|version| GroupVersion::new(gk.group.clone(), *version).with_kind(ANY_KIND));
        let patterns = asked.chain(self.kind_priority.iter().cloned());
        match narrow(&mappings, patterns, |p, m| {
            kind_matches(p, &m.group_version_kind)
        }) {
            Ok(mapping) => Ok(mapping.clone()),
            Err(remaining) => match remaining.as_slice() {
                [only] => Ok((*only).clone()),
                _ => Err(AmbiguousKindError {
                    partial_kind: gk.with_version(Name::EMPTY),
                    matching_resources: Vec::new(),
                    matching_kinds: mappings.into_iter().map(|m| m.group_version_kind).collect(),
                }
                .into()),
            },
        }
    }

    fn rest_mappings(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<Vec<RESTMapping>, RESTMapperError> {
        self.delegate.rest_mappings(gk, versions)
    }

    fn resource_singularizer(&self, resource: &str) -> Result<String, RESTMapperError> {
        self.delegate.resource_singularizer(resource)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::multi_rest_mapper::tests::{FixedRESTMapper, fail};
    use crate::meta::{MultiRESTMapper, NoKindMatchError, RESTScope};

    fn gvr(group: &str, version: &str, resource: &str) -> GroupVersionResource {
        GroupVersionResource::new(group, version, resource)
    }

    fn gvk(group: &str, version: &str, kind: &str) -> GroupVersionKind {
        GroupVersionKind::new(group, version, kind)
    }

    fn with_resources(resources: Vec<GroupVersionResource>) -> FixedRESTMapper {
        FixedRESTMapper {
            resources_for: resources,
            ..Default::default()
        }
    }

    fn with_kinds(kinds: Vec<GroupVersionKind>) -> FixedRESTMapper {
        FixedRESTMapper {
            kinds_for: kinds,
            ..Default::default()
        }
    }

    #[test]
    fn resource_for_cases_of_go() {
        let two = vec![gvr("one", "a", "first"), gvr("two", "b", "second")];
        let three = vec![
            gvr("one", "a", "first"),
            gvr("two", "b", "second"),
            gvr("one", "c", "third"),
        ];
        let same_gv = vec![gvr("one", "a", "first"), gvr("one", "a", "second")];
        type Case = (
            &'static str,
            FixedRESTMapper,
            Vec<GroupVersionResource>,
            Result<GroupVersionResource, &'static str>,
        );
        let cases: Vec<Case> = vec![
            (
                "error",
                FixedRESTMapper::failing(fail("delegateError")),
                vec![],
                Err("delegateError"),
            ),
            (
                "single hit",
                with_resources(vec![gvr("", "", "single-hit")]),
                vec![],
                Ok(gvr("", "", "single-hit")),
            ),
            (
                "ambiguous match",
                with_resources(two.clone()),
                vec![],
                Err("matches multiple resources"),
            ),
            (
                "group selection",
                with_resources(two.clone()),
                vec![gvr("one", ANY_VERSION, ANY_RESOURCE)],
                Ok(gvr("one", "a", "first")),
            ),
            (
                "empty match continues",
                with_resources(two.clone()),
                vec![
                    gvr("fail", ANY_VERSION, ANY_RESOURCE),
                    gvr("one", ANY_VERSION, ANY_RESOURCE),
                ],
                Ok(gvr("one", "a", "first")),
            ),
            (
                "group followed by version selection",
                with_resources(three),
                vec![
                    gvr("one", ANY_VERSION, ANY_RESOURCE),
                    gvr(ANY_GROUP, "a", ANY_RESOURCE),
                ],
                Ok(gvr("one", "a", "first")),
            ),
            (
                "resource selection",
                with_resources(same_gv),
                vec![gvr(ANY_GROUP, ANY_VERSION, "second")],
                Ok(gvr("one", "a", "second")),
            ),
        ];
        for (name, delegate, patterns, want) in cases {
            let mapper = PriorityRESTMapper::new(delegate, patterns, vec![]);
            let got = mapper.resource_for(&GroupVersionResource::default());
            match (want, got) {
                (Ok(want), Ok(got)) => assert_eq!(got, want, "{name}"),
                (Err(want), Err(got)) => {
                    assert!(got.to_string().contains(want), "{name}: {got}")
                }
                (want, got) => panic!("{name}: want {want:?}, got {got:?}"),
            }
        }
    }

    #[test]
    fn kind_for_cases_of_go() {
        let two = vec![gvk("one", "a", "first"), gvk("two", "b", "second")];
        let three = vec![
            gvk("one", "a", "first"),
            gvk("two", "b", "second"),
            gvk("one", "c", "third"),
        ];
        let same_gv = vec![gvk("one", "a", "first"), gvk("one", "a", "second")];
        type Case = (
            &'static str,
            FixedRESTMapper,
            Vec<GroupVersionKind>,
            Result<GroupVersionKind, &'static str>,
        );
        let cases: Vec<Case> = vec![
            (
                "error",
                FixedRESTMapper::failing(fail("delegateErr")),
                vec![],
                Err("delegateErr"),
            ),
            (
                "single hit",
                with_kinds(vec![gvk("", "", "single-hit")]),
                vec![],
                Ok(gvk("", "", "single-hit")),
            ),
            (
                "ambiguous match",
                with_kinds(two.clone()),
                vec![],
                Err("matches multiple kinds"),
            ),
            (
                "group selection",
                with_kinds(two.clone()),
                vec![gvk("one", ANY_VERSION, ANY_KIND)],
                Ok(gvk("one", "a", "first")),
            ),
            (
                "empty match continues",
                with_kinds(two.clone()),
                vec![
                    gvk("fail", ANY_VERSION, ANY_KIND),
                    gvk("one", ANY_VERSION, ANY_KIND),
                ],
                Ok(gvk("one", "a", "first")),
            ),
            (
                "group followed by version selection",
                with_kinds(three),
                vec![
                    gvk("one", ANY_VERSION, ANY_KIND),
                    gvk(ANY_GROUP, "a", ANY_KIND),
                ],
                Ok(gvk("one", "a", "first")),
            ),
            (
                "kind selection",
                with_kinds(same_gv),
                vec![gvk(ANY_GROUP, ANY_VERSION, "second")],
                Ok(gvk("one", "a", "second")),
            ),
        ];
        for (name, delegate, patterns, want) in cases {
            let mapper = PriorityRESTMapper::new(delegate, vec![], patterns);
            let got = mapper.kind_for(&GroupVersionResource::default());
            match (want, got) {
                (Ok(want), Ok(got)) => assert_eq!(got, want, "{name}"),
                (Err(want), Err(got)) => {
                    assert!(got.to_string().contains(want), "{name}: {got}")
                }
                (want, got) => panic!("{name}: want {want:?}, got {got:?}"),
            }
        }
    }

    fn mapping(group: &str, version: &str) -> RESTMapping {
        RESTMapping {
            resource: GroupVersionResource::default(),
            group_version_kind: gvk(group, version, "Foo"),
            scope: RESTScope::NAMESPACE,
        }
    }

    fn union_of(mappings: &[RESTMapping]) -> MultiRESTMapper {
        mappings
            .iter()
            .map(|m| {
                Box::new(FixedRESTMapper {
                    mappings: vec![m.clone()],
                    ..Default::default()
                }) as Box<dyn RESTMapper>
            })
            .collect()
    }

    #[test]
    fn rest_mapping_cases_of_go() {
        let foo = GroupKind::new("", "Foo");
        let (m1, m2, m3) = (
            mapping("", "v1alpha1"),
            mapping("", "v1"),
            mapping("other", "v1"),
        );
        let all = || union_of(&[m1.clone(), m2.clone(), m3.clone()]);

        let empty = PriorityRESTMapper::new(MultiRESTMapper::default(), vec![], vec![]);
        let want_no_kind = NoKindMatchError {
            group_kind: foo.clone(),
            searched_versions: vec![],
        }
        .to_string();
        assert_eq!(
            empty.rest_mapping(&foo, &[]).unwrap_err().to_string(),
            want_no_kind
        );

        let ignore = PriorityRESTMapper::new(
            MultiRESTMapper::new(vec![Box::new(FixedRESTMapper::failing(
                NoKindMatchError {
                    group_kind: GroupKind::new("", "IGNORE_THIS"),
                    searched_versions: vec![],
                }
                .into(),
            ))]),
            vec![],
            vec![],
        );
        assert_eq!(
            ignore.rest_mapping(&foo, &[]).unwrap_err().to_string(),
            want_no_kind
        );

        let first_failure = PriorityRESTMapper::new(
            MultiRESTMapper::new(vec![
                Box::new(FixedRESTMapper::failing(fail("fail on this"))),
                Box::new(FixedRESTMapper {
                    mappings: vec![m1.clone()],
                    ..Default::default()
                }),
            ]),
            vec![],
            vec![],
        );
        assert_eq!(
            first_failure
                .rest_mapping(&foo, &[])
                .unwrap_err()
                .to_string(),
            "fail on this"
        );

        let ambiguous = PriorityRESTMapper::new(all(), vec![], vec![]);
        assert_eq!(
            ambiguous.rest_mapping(&foo, &[]).unwrap_err().to_string(),
            "/, Kind=Foo matches multiple kinds [/v1alpha1, Kind=Foo /v1, Kind=Foo other/v1, Kind=Foo]"
        );

        let only = PriorityRESTMapper::new(union_of(std::slice::from_ref(&m1)), vec![], vec![]);
        assert_eq!(only.rest_mapping(&foo, &[]).unwrap(), m1);

        let single_priority = PriorityRESTMapper::new(
            all(),
            vec![],
            vec![gvk("", "v1", ANY_KIND), gvk("", "v1alpha1", ANY_KIND)],
        );
        assert_eq!(single_priority.rest_mapping(&foo, &[]).unwrap(), m2);

        let out_of_group = PriorityRESTMapper::new(
            all(),
            vec![],
            vec![
                gvk(ANY_GROUP, "v1", ANY_KIND),
                gvk("other", ANY_VERSION, ANY_KIND),
            ],
        );
        assert_eq!(out_of_group.rest_mapping(&foo, &[]).unwrap(), m3);
    }

    #[test]
    fn rest_mapping_honors_the_asked_version() {
        let bar_foo = GroupKind::new("Bar", "Foo");
        let v2alpha1 = mapping("Bar", "v2alpha1");
        let v1 = mapping("Bar", "v1");
        let mapper = PriorityRESTMapper::new(
            union_of(&[v2alpha1.clone(), v1.clone()]),
            vec![],
            vec![
                gvk("Bar", "v2alpha1", ANY_KIND),
                gvk("Bar", ANY_VERSION, ANY_KIND),
            ],
        );
        assert_eq!(mapper.rest_mapping(&bar_foo, &["v1"]).unwrap(), v1);
        assert_eq!(
            mapper.rest_mapping(&bar_foo, &["v2alpha1"]).unwrap(),
            v2alpha1
        );
        assert_eq!(mapper.rest_mapping(&bar_foo, &[]).unwrap(), v2alpha1);
    }

    #[test]
    fn list_lookups_are_the_delegates() {
        let kinds = vec![gvk("one", "a", "first"), gvk("two", "b", "second")];
        let mapper = PriorityRESTMapper::new(
            with_kinds(kinds.clone()),
            vec![],
            vec![gvk("one", ANY_VERSION, ANY_KIND)],
        );
        assert_eq!(
            mapper.kinds_for(&GroupVersionResource::default()).unwrap(),
            kinds
        );
    }
}
