//! [`MultiRESTMapper`]: the union of several mappers.

use std::collections::HashSet;
use std::hash::Hash;

use super::default_rest_mapper::no_kind_match;
use super::error::{aggregate, single_kind, single_resource};
use super::{AmbiguousKindError, NoResourceMatchError, RESTMapper, RESTMapperError, RESTMapping};
use crate::schema::{GroupKind, GroupVersionKind, GroupVersionResource, Name};

/// Answers with what all its mappers answer (Go's `meta.MultiRESTMapper`), for APIs that
/// come from several sources: built-in types, custom resources, aggregated servers.
///
/// * `kinds_for` / `resources_for` concatenate the mappers' answers in mapper order,
///   each value once; "no match" from a mapper is skipped, any other error is returned at
///   once; no answer at all is a "no match" for the input.
/// * `kind_for` / `resource_for` fail as ambiguous when the union has more than one value.
/// * `rest_mapping` asks every mapper: one mapping wins even if other mappers failed; more
///   than one is ambiguous; none reports the failures together, or "no match".
/// * `rest_mappings` concatenates; any failure other than "no match" fails the call.
/// * `resource_singularizer` returns the first mapper's success, else the last error.
///
/// With no mapper at all, `resource_singularizer` reports "no match" (Go answers an empty
/// name without error).
///
/// ```
/// use apimachinery::meta::{DefaultRESTMapper, MultiRESTMapper, RESTMapper, RESTScope};
/// use apimachinery::schema::{GroupVersion, GroupVersionResource};
///
/// let (a, b) = (GroupVersion::new("a.io", "v1"), GroupVersion::new("b.io", "v1"));
/// let mut first = DefaultRESTMapper::new(vec![a.clone()]);
/// first.add(a.with_kind("Widget"), RESTScope::NAMESPACE);
/// let mut second = DefaultRESTMapper::new(vec![b.clone()]);
/// second.add(b.with_kind("Widget"), RESTScope::NAMESPACE);
///
/// let multi = MultiRESTMapper::new(vec![Box::new(first), Box::new(second)]);
/// let widgets = GroupVersionResource::new("", "", "widgets");
/// assert_eq!(multi.resources_for(&widgets)?.len(), 2);
/// assert!(multi.resource_for(&widgets).unwrap_err().is_ambiguous());
/// # Ok::<(), apimachinery::meta::RESTMapperError>(())
/// ```
#[derive(Debug, Default)]
pub struct MultiRESTMapper {
    mappers: Vec<Box<dyn RESTMapper>>,
}

impl MultiRESTMapper {
    /// The union of `mappers`, asked in this order.
    pub fn new(mappers: Vec<Box<dyn RESTMapper>>) -> Self {
        MultiRESTMapper { mappers }
    }

    /// Adds a mapper, asked after the ones already there.
    pub fn push(&mut self, mapper: impl RESTMapper + 'static) {
        self.mappers.push(Box::new(mapper));
    }

    /// The mappers, in the order they are asked.
    pub fn mappers(&self) -> &[Box<dyn RESTMapper>] {
        &self.mappers
    }

    /// The number of mappers.
    pub fn len(&self) -> usize {
        self.mappers.len()
    }

    /// True when there is no mapper, so every lookup is a "no match".
    pub fn is_empty(&self) -> bool {
        self.mappers.is_empty()
    }

    fn iter(&self) -> impl Iterator<Item = &dyn RESTMapper> {
        self.mappers.iter().map(|m| &**m as &dyn RESTMapper)
    }
}

impl FromIterator<Box<dyn RESTMapper>> for MultiRESTMapper {
    fn from_iter<I: IntoIterator<Item = Box<dyn RESTMapper>>>(iter: I) -> Self {
        MultiRESTMapper::new(iter.into_iter().collect())
    }
}

impl RESTMapper for MultiRESTMapper {
    fn kind_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<GroupVersionKind, RESTMapperError> {
        union::kind_for(self.iter(), resource)
    }

    fn kinds_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
        union::kinds_for(self.iter(), resource)
    }

    fn resource_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionResource, RESTMapperError> {
        union::resource_for(self.iter(), input)
    }

    fn resources_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
        union::resources_for(self.iter(), input)
    }

    fn rest_mapping(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<RESTMapping, RESTMapperError> {
        union::rest_mapping(self.iter(), gk, versions)
    }

    fn rest_mappings(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<Vec<RESTMapping>, RESTMapperError> {
        union::rest_mappings(self.iter(), gk, versions)
    }

    fn resource_singularizer(&self, resource: &str) -> Result<String, RESTMapperError> {
        union::resource_singularizer(self.iter(), resource)
    }
}

/// The union semantics over any sequence of mappers, shared with the discovery mapper,
/// which asks only the mappers its index says can match.
pub(crate) mod union {
    use super::*;

    /// Appends the values not seen yet, keeping first-seen order.
    fn merge<T: Clone + Eq + Hash>(all: &mut Vec<T>, seen: &mut HashSet<T>, new: Vec<T>) {
        for value in new {
            if seen.insert(value.clone()) {
                all.push(value);
            }
        }
    }

    fn no_resource_match(input: &GroupVersionResource) -> RESTMapperError {
        NoResourceMatchError {
            partial_resource: input.clone(),
        }
        .into()
    }

    pub(crate) fn resources_for<'a>(
        mappers: impl Iterator<Item = &'a dyn RESTMapper>,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
        let mut all = Vec::new();
        let mut seen = HashSet::new();
        for mapper in mappers {
            match mapper.resources_for(input) {
                Ok(found) => merge(&mut all, &mut seen, found),
                Err(err) if err.is_no_match() => {}
                Err(err) => return Err(err),
            }
        }
        if all.is_empty() {
            return Err(no_resource_match(input));
        }
        Ok(all)
    }

    pub(crate) fn kinds_for<'a>(
        mappers: impl Iterator<Item = &'a dyn RESTMapper>,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
        let mut all = Vec::new();
        let mut seen = HashSet::new();
        for mapper in mappers {
            match mapper.kinds_for(input) {
                Ok(found) => merge(&mut all, &mut seen, found),
                Err(err) if err.is_no_match() => {}
                Err(err) => return Err(err),
            }
        }
        if all.is_empty() {
            return Err(no_resource_match(input));
        }
        Ok(all)
    }

    pub(crate) fn resource_for<'a>(
        mappers: impl Iterator<Item = &'a dyn RESTMapper>,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionResource, RESTMapperError> {
        single_resource(input, resources_for(mappers, input)?)
    }

    pub(crate) fn kind_for<'a>(
        mappers: impl Iterator<Item = &'a dyn RESTMapper>,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionKind, RESTMapperError> {
        single_kind(input, kinds_for(mappers, input)?)
    }

    pub(crate) fn rest_mapping<'a>(
        mappers: impl Iterator<Item = &'a dyn RESTMapper>,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<RESTMapping, RESTMapperError> {
        let mut all = Vec::new();
        let mut errors = Vec::new();
        for mapper in mappers {
            match mapper.rest_mapping(gk, versions) {
                Ok(mapping) => all.push(mapping),
                Err(err) if err.is_no_match() => {}
                Err(err) => errors.push(err),
            }
        }
        // One mapping wins even when other mappers failed.
        if all.len() == 1 {
            return Ok(all.swap_remove(0));
        }
        if all.len() > 1 {
            return Err(AmbiguousKindError {
                partial_kind: gk.with_version(Name::EMPTY),
                matching_resources: Vec::new(),
                matching_kinds: all.into_iter().map(|m| m.group_version_kind).collect(),
            }
            .into());
        }
        Err(aggregate(errors).unwrap_or_else(|| no_kind_match(gk, versions)))
    }

    pub(crate) fn rest_mappings<'a>(
        mappers: impl Iterator<Item = &'a dyn RESTMapper>,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<Vec<RESTMapping>, RESTMapperError> {
        let mut all = Vec::new();
        let mut errors = Vec::new();
        for mapper in mappers {
            match mapper.rest_mappings(gk, versions) {
                Ok(mappings) => all.extend(mappings),
                Err(err) if err.is_no_match() => {}
                Err(err) => errors.push(err),
            }
        }
        if let Some(err) = aggregate(errors) {
            return Err(err);
        }
        if all.is_empty() {
            return Err(no_kind_match(gk, versions));
        }
        Ok(all)
    }

    pub(crate) fn resource_singularizer<'a>(
        mappers: impl Iterator<Item = &'a dyn RESTMapper>,
        resource: &str,
    ) -> Result<String, RESTMapperError> {
        let mut last_err = None;
        for mapper in mappers {
            match mapper.resource_singularizer(resource) {
                Ok(singular) => return Ok(singular),
                Err(err) => last_err = Some(err),
            }
        }
        Err(last_err.unwrap_or_else(|| {
            no_resource_match(&GroupVersionResource::new(
                Name::EMPTY,
                Name::EMPTY,
                resource,
            ))
        }))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::meta::NoKindMatchError;

    /// A mapper with canned answers, like Go's `fixedRESTMapper`: its lists when `err` is
    /// `None`, else the error from every method.
    #[derive(Debug, Default, Clone)]
    pub(crate) struct FixedRESTMapper {
        pub resources_for: Vec<GroupVersionResource>,
        pub kinds_for: Vec<GroupVersionKind>,
        pub mappings: Vec<RESTMapping>,
        pub err: Option<RESTMapperError>,
    }

    impl FixedRESTMapper {
        pub(crate) fn failing(err: RESTMapperError) -> Self {
            FixedRESTMapper {
                err: Some(err),
                ..Default::default()
            }
        }

        fn answer<T>(&self, value: T) -> Result<T, RESTMapperError> {
            match &self.err {
                Some(err) => Err(err.clone()),
                None => Ok(value),
            }
        }
    }

    impl RESTMapper for FixedRESTMapper {
        fn kind_for(&self, _: &GroupVersionResource) -> Result<GroupVersionKind, RESTMapperError> {
            self.answer(self.kinds_for.first().cloned().unwrap_or_default())
        }
        fn kinds_for(
            &self,
            _: &GroupVersionResource,
        ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
            self.answer(self.kinds_for.clone())
        }
        fn resource_for(
            &self,
            _: &GroupVersionResource,
        ) -> Result<GroupVersionResource, RESTMapperError> {
            self.answer(self.resources_for.first().cloned().unwrap_or_default())
        }
        fn resources_for(
            &self,
            _: &GroupVersionResource,
        ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
            self.answer(self.resources_for.clone())
        }
        fn rest_mapping(&self, gk: &GroupKind, v: &[&str]) -> Result<RESTMapping, RESTMapperError> {
            self.answer(())?;
            self.mappings
                .first()
                .cloned()
                .ok_or_else(|| no_kind_match(gk, v))
        }
        fn rest_mappings(
            &self,
            _: &GroupKind,
            _: &[&str],
        ) -> Result<Vec<RESTMapping>, RESTMapperError> {
            self.answer(self.mappings.clone())
        }
        fn resource_singularizer(&self, _: &str) -> Result<String, RESTMapperError> {
            self.answer(String::new())
        }
    }

    pub(crate) fn fail(msg: &str) -> RESTMapperError {
        RESTMapperError::other(std::io::Error::other(msg.to_owned()))
    }

    pub(crate) fn no_match_ignored() -> RESTMapperError {
        NoResourceMatchError {
            partial_resource: GroupVersionResource::new("", "", "IGNORE_THIS"),
        }
        .into()
    }

    fn gvr(resource: &str) -> GroupVersionResource {
        GroupVersionResource::new("", "", resource)
    }

    fn gvk(kind: &str) -> GroupVersionKind {
        GroupVersionKind::new("", "", kind)
    }

    fn multi(mappers: Vec<FixedRESTMapper>) -> MultiRESTMapper {
        mappers
            .into_iter()
            .map(|m| Box::new(m) as Box<dyn RESTMapper>)
            .collect()
    }

    fn mapping(group: &str, version: &str, kind: &str) -> RESTMapping {
        RESTMapping {
            resource: GroupVersionResource::default(),
            group_version_kind: GroupVersionKind::new(group, version, kind),
            scope: crate::meta::RESTScope::NAMESPACE,
        }
    }

    #[test]
    fn resources_for_cases_of_go() {
        let foo = gvr("foo");
        // empty
        let err = multi(vec![]).resources_for(&foo).unwrap_err();
        assert_eq!(err.to_string(), "no matches for /, Resource=foo");
        // ignore not found
        let err = multi(vec![FixedRESTMapper::failing(no_match_ignored())])
            .resources_for(&foo)
            .unwrap_err();
        assert_eq!(err.to_string(), "no matches for /, Resource=foo");
        // accept first failure
        let failing_then_ok = multi(vec![
            FixedRESTMapper::failing(fail("fail on this")),
            FixedRESTMapper {
                resources_for: vec![gvr("unused")],
                ..Default::default()
            },
        ]);
        assert_eq!(
            failing_then_ok.resources_for(&foo).unwrap_err().to_string(),
            "fail on this"
        );
        assert_eq!(
            failing_then_ok.resource_for(&foo).unwrap_err().to_string(),
            "fail on this"
        );
        // union and dedup
        let union = multi(vec![
            FixedRESTMapper {
                resources_for: vec![gvr("dupe"), gvr("first")],
                ..Default::default()
            },
            FixedRESTMapper {
                resources_for: vec![gvr("dupe"), gvr("second")],
                ..Default::default()
            },
        ]);
        assert_eq!(
            union.resources_for(&foo).unwrap(),
            vec![gvr("dupe"), gvr("first"), gvr("second")]
        );
        // skip not found and continue
        let skip = multi(vec![
            FixedRESTMapper::failing(no_match_ignored()),
            FixedRESTMapper {
                resources_for: vec![gvr("first"), gvr("second")],
                ..Default::default()
            },
        ]);
        assert_eq!(
            skip.resources_for(&foo).unwrap(),
            vec![gvr("first"), gvr("second")]
        );
        let err = skip.resource_for(&foo).unwrap_err();
        assert!(err.is_ambiguous());
        assert_eq!(
            err.to_string(),
            "/, Resource=foo matches multiple resources [/, Resource=first /, Resource=second]"
        );
    }

    #[test]
    fn kinds_for_cases_of_go() {
        let foo = gvr("foo");
        assert_eq!(
            multi(vec![]).kinds_for(&foo).unwrap_err().to_string(),
            "no matches for /, Resource=foo"
        );
        assert_eq!(
            multi(vec![]).kind_for(&foo).unwrap_err().to_string(),
            "no matches for /, Resource=foo"
        );
        assert_eq!(
            multi(vec![FixedRESTMapper::failing(no_match_ignored())])
                .kind_for(&foo)
                .unwrap_err()
                .to_string(),
            "no matches for /, Resource=foo"
        );
        let failing_then_ok = multi(vec![
            FixedRESTMapper::failing(fail("fail on this")),
            FixedRESTMapper {
                kinds_for: vec![gvk("unused")],
                ..Default::default()
            },
        ]);
        assert_eq!(
            failing_then_ok.kinds_for(&foo).unwrap_err().to_string(),
            "fail on this"
        );
        assert_eq!(
            failing_then_ok.kind_for(&foo).unwrap_err().to_string(),
            "fail on this"
        );
        let union = multi(vec![
            FixedRESTMapper {
                kinds_for: vec![gvk("dupe"), gvk("first")],
                ..Default::default()
            },
            FixedRESTMapper {
                kinds_for: vec![gvk("dupe"), gvk("second")],
                ..Default::default()
            },
        ]);
        assert_eq!(
            union.kinds_for(&foo).unwrap(),
            vec![gvk("dupe"), gvk("first"), gvk("second")]
        );
        let skip = multi(vec![
            FixedRESTMapper::failing(no_match_ignored()),
            FixedRESTMapper {
                kinds_for: vec![gvk("first")],
                ..Default::default()
            },
        ]);
        assert_eq!(skip.kind_for(&foo).unwrap(), gvk("first"));
    }

    #[test]
    fn rest_mappings_cases_of_go() {
        let foo = GroupKind::new("", "Foo");
        let no_kind = |versions: &[&str]| {
            NoKindMatchError {
                group_kind: foo.clone(),
                searched_versions: versions.iter().map(|v| v.to_string()).collect(),
            }
            .to_string()
        };
        // empty, with zero, one and two versions
        for versions in [&[][..], &["v1beta"], &["v1beta", "v2"]] {
            let err = multi(vec![]).rest_mappings(&foo, versions).unwrap_err();
            assert_eq!(err.to_string(), no_kind(versions));
        }
        // a mapper's own "no match" is replaced by one for the question asked
        let ignored = RESTMapperError::from(NoKindMatchError {
            group_kind: GroupKind::new("", "IGNORE_THIS"),
            searched_versions: vec!["v1".into()],
        });
        for versions in [&[][..], &["v1beta"], &["v1beta", "v2"]] {
            let err = multi(vec![FixedRESTMapper::failing(ignored.clone())])
                .rest_mappings(&foo, versions)
                .unwrap_err();
            assert_eq!(err.to_string(), no_kind(versions));
        }
        // accept first failure
        let m1 = mapping("", "v1", "Foo");
        let err = multi(vec![
            FixedRESTMapper::failing(fail("fail on this")),
            FixedRESTMapper {
                mappings: vec![m1.clone()],
                ..Default::default()
            },
        ])
        .rest_mappings(&foo, &["v1beta"])
        .unwrap_err();
        assert_eq!(err.to_string(), "fail on this");
        // return both
        let m2 = mapping("", "v2", "Foo");
        let both = multi(vec![
            FixedRESTMapper {
                mappings: vec![m1.clone()],
                ..Default::default()
            },
            FixedRESTMapper {
                mappings: vec![m2.clone()],
                ..Default::default()
            },
        ]);
        assert_eq!(both.rest_mappings(&foo, &["v1beta"]).unwrap(), vec![m1, m2]);
    }

    #[test]
    fn rest_mapping_picks_the_only_answer_or_reports() {
        let foo = GroupKind::new("", "Foo");
        let m1 = mapping("", "v1", "Foo");
        let with = |m: &RESTMapping| FixedRESTMapper {
            mappings: vec![m.clone()],
            ..Default::default()
        };
        // One mapping wins although another mapper failed.
        let one = multi(vec![FixedRESTMapper::failing(fail("boom")), with(&m1)]);
        assert_eq!(one.rest_mapping(&foo, &[]).unwrap(), m1);
        // Two are ambiguous.
        let m2 = mapping("other", "v1", "Foo");
        let err = multi(vec![with(&m1), with(&m2)])
            .rest_mapping(&foo, &[])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "/, Kind=Foo matches multiple kinds [/v1, Kind=Foo other/v1, Kind=Foo]"
        );
        // Failures are reported together.
        let err = multi(vec![
            FixedRESTMapper::failing(fail("one")),
            FixedRESTMapper::failing(fail("two")),
            FixedRESTMapper::failing(no_match_ignored()),
        ])
        .rest_mapping(&foo, &[])
        .unwrap_err();
        assert_eq!(err.to_string(), "[one, two]");
        assert!(!err.is_no_match());
        let err = multi(vec![]).rest_mapping(&foo, &["v1"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"no matches for kind "Foo" in version "v1""#
        );
    }

    #[test]
    fn singularizer_takes_the_first_success() {
        let ok = FixedRESTMapper::default();
        let m = multi(vec![FixedRESTMapper::failing(fail("first")), ok]);
        assert_eq!(m.resource_singularizer("pods").unwrap(), "");
        let m = multi(vec![
            FixedRESTMapper::failing(fail("first")),
            FixedRESTMapper::failing(fail("last")),
        ]);
        assert_eq!(
            m.resource_singularizer("pods").unwrap_err().to_string(),
            "last"
        );
        assert!(
            multi(vec![])
                .resource_singularizer("pods")
                .unwrap_err()
                .is_no_match()
        );
    }
}
