//! [`FirstHitRESTMapper`]: several mappers, the first success wins.

use super::default_rest_mapper::no_kind_match;
use super::{MultiRESTMapper, NoResourceMatchError, RESTMapper, RESTMapperError, RESTMapping};
use crate::schema::{GroupKind, GroupVersionKind, GroupVersionResource};

/// Asks its mappers in order and takes the first success for the single-answer lookups
/// (`kind_for`, `resource_for`, `rest_mapping`), so an earlier mapper overrides later ones
/// instead of making the answer ambiguous (Go's `meta.FirstHitRESTMapper`). The list
/// lookups are those of [`MultiRESTMapper`].
///
/// When every mapper fails, one failure is reported as itself, several "no match" failures
/// as the first of them, and a mix as an aggregate. With no mapper at all the answer is a
/// "no match" (Go answers an empty value without error).
///
/// ```
/// use apimachinery::meta::{DefaultRESTMapper, FirstHitRESTMapper, MultiRESTMapper, RESTMapper, RESTScope};
/// use apimachinery::schema::{GroupVersion, GroupVersionResource};
///
/// let (a, b) = (GroupVersion::new("a.io", "v1"), GroupVersion::new("b.io", "v1"));
/// let mut first = DefaultRESTMapper::new(vec![a.clone()]);
/// first.add(a.with_kind("Widget"), RESTScope::NAMESPACE);
/// let mut second = DefaultRESTMapper::new(vec![b.clone()]);
/// second.add(b.with_kind("Widget"), RESTScope::NAMESPACE);
///
/// let mapper = FirstHitRESTMapper::new(MultiRESTMapper::new(vec![Box::new(first), Box::new(second)]));
/// let widgets = GroupVersionResource::new("", "", "widgets");
/// assert_eq!(mapper.kind_for(&widgets)?, a.with_kind("Widget"));
/// # Ok::<(), apimachinery::meta::RESTMapperError>(())
/// ```
#[derive(Debug, Default)]
pub struct FirstHitRESTMapper {
    /// The mappers, asked in order.
    pub mappers: MultiRESTMapper,
}

impl FirstHitRESTMapper {
    /// Wraps the union of mappers.
    pub fn new(mappers: MultiRESTMapper) -> Self {
        FirstHitRESTMapper { mappers }
    }

    fn first_hit<T>(
        &self,
        ask: impl Fn(&dyn RESTMapper) -> Result<T, RESTMapperError>,
        none: impl FnOnce() -> RESTMapperError,
    ) -> Result<T, RESTMapperError> {
        let mut errors = Vec::new();
        for mapper in self.mappers.mappers() {
            match ask(&**mapper) {
                Ok(found) => return Ok(found),
                Err(err) => errors.push(err),
            }
        }
        Err(collapse(errors).unwrap_or_else(none))
    }
}

/// Go's `collapseAggregateErrors`: one error as itself, only "no match" errors as the
/// first, anything else as an aggregate.
fn collapse(mut errors: Vec<RESTMapperError>) -> Option<RESTMapperError> {
    if errors.len() <= 1 || errors.iter().all(RESTMapperError::is_no_match) {
        return (!errors.is_empty()).then(|| errors.swap_remove(0));
    }
    Some(RESTMapperError::Aggregate(errors))
}

impl RESTMapper for FirstHitRESTMapper {
    fn kind_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<GroupVersionKind, RESTMapperError> {
        self.first_hit(
            |m| m.kind_for(resource),
            || {
                NoResourceMatchError {
                    partial_resource: resource.clone(),
                }
                .into()
            },
        )
    }

    fn kinds_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
        self.mappers.kinds_for(resource)
    }

    fn resource_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionResource, RESTMapperError> {
        self.first_hit(
            |m| m.resource_for(input),
            || {
                NoResourceMatchError {
                    partial_resource: input.clone(),
                }
                .into()
            },
        )
    }

    fn resources_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
        self.mappers.resources_for(input)
    }

    fn rest_mapping(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<RESTMapping, RESTMapperError> {
        self.first_hit(
            |m| m.rest_mapping(gk, versions),
            || no_kind_match(gk, versions),
        )
    }

    fn rest_mappings(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<Vec<RESTMapping>, RESTMapperError> {
        self.mappers.rest_mappings(gk, versions)
    }

    fn resource_singularizer(&self, resource: &str) -> Result<String, RESTMapperError> {
        self.mappers.resource_singularizer(resource)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::multi_rest_mapper::tests::{FixedRESTMapper, fail, no_match_ignored};

    fn first_hit(mappers: Vec<FixedRESTMapper>) -> FirstHitRESTMapper {
        FirstHitRESTMapper::new(
            mappers
                .into_iter()
                .map(|m| Box::new(m) as Box<dyn RESTMapper>)
                .collect(),
        )
    }

    #[test]
    fn the_first_success_wins() {
        let a = GroupVersionKind::new("a", "v1", "Foo");
        let b = GroupVersionKind::new("b", "v1", "Foo");
        let m = first_hit(vec![
            FixedRESTMapper::failing(fail("broken")),
            FixedRESTMapper {
                kinds_for: vec![a.clone()],
                ..Default::default()
            },
            FixedRESTMapper {
                kinds_for: vec![b.clone()],
                ..Default::default()
            },
        ]);
        let foo = GroupVersionResource::new("", "", "foos");
        assert_eq!(m.kind_for(&foo).unwrap(), a);
        // The list lookups are the union's, where any real failure wins.
        assert_eq!(m.kinds_for(&foo).unwrap_err().to_string(), "broken");
    }

    #[test]
    fn failures_collapse_as_go_does() {
        let foo = GroupVersionResource::new("", "", "foos");
        let only = first_hit(vec![FixedRESTMapper::failing(fail("only"))]);
        assert_eq!(only.resource_for(&foo).unwrap_err().to_string(), "only");

        let no_matches = first_hit(vec![
            FixedRESTMapper::failing(no_match_ignored()),
            FixedRESTMapper::failing(fail("x")).clone(),
        ]);
        assert_eq!(
            no_matches.resource_for(&foo).unwrap_err().to_string(),
            "[no matches for /, Resource=IGNORE_THIS, x]"
        );

        let all_no_match = first_hit(vec![
            FixedRESTMapper::failing(no_match_ignored()),
            FixedRESTMapper::failing(
                NoResourceMatchError {
                    partial_resource: GroupVersionResource::new("", "", "second"),
                }
                .into(),
            ),
        ]);
        let err = all_no_match.resource_for(&foo).unwrap_err();
        assert_eq!(err.to_string(), "no matches for /, Resource=IGNORE_THIS");

        let empty = first_hit(vec![]);
        assert!(empty.kind_for(&foo).unwrap_err().is_no_match());
        assert!(
            empty
                .rest_mapping(&GroupKind::new("", "Foo"), &[])
                .unwrap_err()
                .is_no_match()
        );
    }
}
