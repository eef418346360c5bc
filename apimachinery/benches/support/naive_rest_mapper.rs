//! Go's `DefaultRESTMapper` algorithm run the way Go runs it: registrations are stored
//! once, and every lookup walks all of them. It is the baseline of the `rest_mapper`
//! benchmark and the oracle of the indexed mapper's differential tests, so it is written
//! for obviousness, not speed.
//!
//! Where Go iterates a map, this walks registrations in the order they were first made,
//! and it sorts with the total order `DefaultRESTMapper` documents; otherwise each lookup
//! is a transcription of the step-by-step description of Go's mapper.
//!
//! The file is shared: the library's tests include it with `#[path]`, and so does the
//! benchmark, which provides `crate::meta` and `crate::schema` as re-exports.
#![allow(dead_code)]

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::meta::{
    AmbiguousResourceError, NoKindMatchError, NoResourceMatchError, RESTMapper, RESTMapperError,
    RESTMapping, RESTScope, unsafe_guess_kind_to_resource,
};
use crate::schema::{
    API_VERSION_INTERNAL, GroupKind, GroupVersion, GroupVersionKind, GroupVersionResource, Name,
};

/// Go's mapper: four maps, each a vector in registration order plus a position index so
/// that registering stays as cheap as Go's map assignment.
#[derive(Debug, Default)]
pub struct NaiveRESTMapper {
    default_group_versions: Vec<GroupVersion>,
    plural_to_singular: Vec<(GroupVersionResource, GroupVersionResource)>,
    plural_pos: HashMap<GroupVersionResource, usize>,
    resource_to_kind: Vec<(GroupVersionResource, GroupVersionKind)>,
    resource_pos: HashMap<GroupVersionResource, usize>,
    kind_to_plural: HashMap<GroupVersionKind, (GroupVersionResource, RESTScope)>,
}

fn upsert<K: Clone + Eq + std::hash::Hash, V>(
    list: &mut Vec<(K, V)>,
    pos: &mut HashMap<K, usize>,
    key: K,
    value: V,
) {
    match pos.get(&key) {
        Some(&i) => list[i].1 = value,
        None => {
            pos.insert(key.clone(), list.len());
            list.push((key, value));
        }
    }
}

impl NaiveRESTMapper {
    pub fn new(default_group_versions: Vec<GroupVersion>) -> Self {
        NaiveRESTMapper {
            default_group_versions,
            ..Default::default()
        }
    }

    /// The number of plural resources registered.
    pub fn len(&self) -> usize {
        self.plural_to_singular.len()
    }

    pub fn add(&mut self, kind: GroupVersionKind, scope: RESTScope) {
        let (plural, singular) = unsafe_guess_kind_to_resource(&kind);
        self.add_specific(kind, plural, singular, scope);
    }

    pub fn add_specific(
        &mut self,
        kind: GroupVersionKind,
        plural: GroupVersionResource,
        singular: GroupVersionResource,
        scope: RESTScope,
    ) {
        upsert(
            &mut self.plural_to_singular,
            &mut self.plural_pos,
            plural.clone(),
            singular.clone(),
        );
        upsert(
            &mut self.resource_to_kind,
            &mut self.resource_pos,
            singular,
            kind.clone(),
        );
        upsert(
            &mut self.resource_to_kind,
            &mut self.resource_pos,
            plural.clone(),
            kind.clone(),
        );
        self.kind_to_plural.insert(kind, (plural, scope));
    }

    /// Go's `Less`: a linear search of the preferences for each side, made total.
    fn less(&self, a: (&Name, &Name, &Name), b: (&Name, &Name, &Name)) -> Ordering {
        if a.0 == b.0 && a.1 == b.1 {
            return a.2.cmp(b.2);
        }
        let mut a_index = None;
        let mut b_index = None;
        for (i, gv) in self.default_group_versions.iter().enumerate() {
            if gv.group == *a.0 && gv.version == *a.1 {
                a_index = Some(i);
            }
            if gv.group == *b.0 && gv.version == *b.1 {
                b_index = Some(i);
            }
        }
        let by_gv = match (a_index, b_index) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => (a.0, a.1).cmp(&(b.0, b.1)),
        };
        by_gv.then_with(|| a.2.cmp(b.2))
    }
}

fn coerce(resource: &GroupVersionResource) -> GroupVersionResource {
    let mut out = resource.clone();
    out.resource = Name::from(resource.resource.to_lowercase());
    if out.version == API_VERSION_INTERNAL {
        out.version = Name::EMPTY;
    }
    out
}

impl RESTMapper for NaiveRESTMapper {
    fn kind_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<GroupVersionKind, RESTMapperError> {
        let kinds = self.kinds_for(resource)?;
        if let [only] = kinds.as_slice() {
            return Ok(only.clone());
        }
        Err(AmbiguousResourceError {
            partial_resource: resource.clone(),
            matching_resources: vec![],
            matching_kinds: kinds,
        }
        .into())
    }

    fn kinds_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
        let resource = coerce(input);
        if resource.resource.is_empty() {
            return Err(RESTMapperError::MissingResource { resource });
        }
        let has_group = !resource.group.is_empty();
        let has_version = !resource.version.is_empty();
        let mut ret = Vec::new();
        if has_group && has_version {
            if let Some(&i) = self.resource_pos.get(&resource) {
                ret.push(self.resource_to_kind[i].1.clone());
            }
        } else if has_group {
            let mut found_exact = false;
            for (r, k) in &self.resource_to_kind {
                if r.group == resource.group && r.resource == resource.resource {
                    found_exact = true;
                    ret.push(k.clone());
                }
            }
            if !found_exact {
                for (r, k) in &self.resource_to_kind {
                    if r.group.starts_with(resource.group.as_str())
                        && r.resource == resource.resource
                    {
                        ret.push(k.clone());
                    }
                }
            }
        } else if has_version {
            for (r, k) in &self.resource_to_kind {
                if r.version == resource.version && r.resource == resource.resource {
                    ret.push(k.clone());
                }
            }
        } else {
            for (r, k) in &self.resource_to_kind {
                if r.resource == resource.resource {
                    ret.push(k.clone());
                }
            }
        }
        if ret.is_empty() {
            return Err(NoResourceMatchError {
                partial_resource: input.clone(),
            }
            .into());
        }
        ret.sort_by(|a, b| {
            self.less(
                (&a.group, &a.version, &a.kind),
                (&b.group, &b.version, &b.kind),
            )
        });
        Ok(ret)
    }

    fn resource_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionResource, RESTMapperError> {
        let resources = self.resources_for(input)?;
        if let [only] = resources.as_slice() {
            return Ok(only.clone());
        }
        Err(AmbiguousResourceError {
            partial_resource: input.clone(),
            matching_resources: resources,
            matching_kinds: vec![],
        }
        .into())
    }

    fn resources_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
        let resource = coerce(input);
        if resource.resource.is_empty() {
            return Err(RESTMapperError::MissingResource { resource });
        }
        let has_group = !resource.group.is_empty();
        let has_version = !resource.version.is_empty();
        let r = &resource.resource;
        let mut ret = Vec::new();
        if has_group && has_version {
            for (plural, singular) in &self.plural_to_singular {
                if *singular == resource || *plural == resource {
                    ret.push(plural.clone());
                    break;
                }
            }
        } else if has_group {
            let mut found_exact = false;
            for (plural, singular) in &self.plural_to_singular {
                if singular.group == resource.group && singular.resource == *r {
                    found_exact = true;
                    ret.push(plural.clone());
                }
                if plural.group == resource.group && plural.resource == *r {
                    found_exact = true;
                    ret.push(plural.clone());
                }
            }
            if !found_exact {
                for (plural, singular) in &self.plural_to_singular {
                    if !plural.group.starts_with(resource.group.as_str()) {
                        continue;
                    }
                    if singular.resource == *r {
                        ret.push(plural.clone());
                    }
                    if plural.resource == *r {
                        ret.push(plural.clone());
                    }
                }
            }
        } else if has_version {
            for (plural, singular) in &self.plural_to_singular {
                if singular.version == resource.version && singular.resource == *r {
                    ret.push(plural.clone());
                }
                if plural.version == resource.version && plural.resource == *r {
                    ret.push(plural.clone());
                }
            }
        } else {
            for (plural, singular) in &self.plural_to_singular {
                if singular.resource == *r {
                    ret.push(plural.clone());
                }
                if plural.resource == *r {
                    ret.push(plural.clone());
                }
            }
        }
        if ret.is_empty() {
            return Err(NoResourceMatchError {
                partial_resource: resource,
            }
            .into());
        }
        ret.sort_by(|a, b| {
            self.less(
                (&a.group, &a.version, &a.resource),
                (&b.group, &b.version, &b.resource),
            )
        });
        Ok(ret)
    }

    fn rest_mapping(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<RESTMapping, RESTMapperError> {
        let mappings = self.rest_mappings(gk, versions)?;
        mappings.into_iter().next().ok_or_else(|| {
            NoKindMatchError {
                group_kind: gk.clone(),
                searched_versions: versions.iter().map(|v| v.to_string()).collect(),
            }
            .into()
        })
    }

    fn rest_mappings(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<Vec<RESTMapping>, RESTMapperError> {
        let mut potential = Vec::new();
        let mut had_version = false;
        for version in versions {
            if version.is_empty() || *version == API_VERSION_INTERNAL {
                continue;
            }
            let gvk = gk.with_version(*version);
            had_version = true;
            if self.kind_to_plural.contains_key(&gvk) {
                potential.push(gvk);
                break;
            }
        }
        if !had_version && potential.is_empty() {
            for gv in &self.default_group_versions {
                if gv.group != gk.group {
                    continue;
                }
                potential.push(gk.with_version(gv.version.clone()));
            }
        }
        if potential.is_empty() {
            return Err(NoKindMatchError {
                group_kind: gk.clone(),
                searched_versions: versions.iter().map(|v| v.to_string()).collect(),
            }
            .into());
        }
        let mut mappings = Vec::new();
        for gvk in potential {
            let Some((resource, scope)) = self.kind_to_plural.get(&gvk) else {
                continue;
            };
            mappings.push(RESTMapping {
                resource: resource.clone(),
                group_version_kind: gvk,
                scope: *scope,
            });
        }
        if mappings.is_empty() {
            return Err(NoResourceMatchError {
                partial_resource: GroupVersionResource::new(
                    gk.group.clone(),
                    Name::EMPTY,
                    gk.kind.clone(),
                ),
            }
            .into());
        }
        Ok(mappings)
    }

    fn resource_singularizer(&self, resource_type: &str) -> Result<String, RESTMapperError> {
        let resources = self.resources_for(&GroupVersionResource::new(
            Name::EMPTY,
            Name::EMPTY,
            resource_type,
        ))?;
        let mut singular = GroupVersionResource::default();
        for curr in &resources {
            let Some(&i) = self.plural_pos.get(curr) else {
                continue;
            };
            let curr_singular = &self.plural_to_singular[i].1;
            if singular.is_empty() {
                singular = curr_singular.clone();
                continue;
            }
            if curr_singular.resource != singular.resource {
                return Err(RESTMapperError::MultipleSingulars {
                    resource: resource_type.to_string(),
                    matches: resources,
                });
            }
        }
        if singular.is_empty() {
            return Err(RESTMapperError::NoSingular {
                resource: resource_type.to_string(),
            });
        }
        Ok(singular.resource.to_string())
    }
}
