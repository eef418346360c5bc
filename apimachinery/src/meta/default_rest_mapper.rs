//! [`DefaultRESTMapper`]: the mapper built from a list of kinds and their resources.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::error::{single_kind, single_resource};
use super::kind_to_resource::{go_to_lower, unsafe_guess_kind_to_resource};
use super::{
    NoKindMatchError, NoResourceMatchError, RESTMapper, RESTMapperError, RESTMapping, RESTScope,
};
use crate::schema::{
    API_VERSION_INTERNAL, GroupKind, GroupVersion, GroupVersionKind, GroupVersionResource, Name,
};

/// A mapper over kinds registered one by one, with Go's `meta.DefaultRESTMapper`
/// semantics and indexes so that no lookup scans every resource.
///
/// # Matching
///
/// A lookup needs a resource name; it is lower-cased, and the internal version
/// (`__internal`) counts as no version. Both the plural and the singular name match, and
/// the answer is always the plural resource.
///
/// | given | matches |
/// | --- | --- |
/// | resource | that name in any group and version |
/// | version + resource | that name in any group at that version |
/// | group + resource | that name in exactly that group; if there is none, in every group the given group is a prefix of (`storageclasses.storage` finds `storage.k8s.io`) |
/// | group + version + resource | that exact resource |
///
/// # Order
///
/// Answers are sorted by the `default_group_versions` given to [`new`](Self::new): a group
/// version listed earlier comes first, and within one group version names sort
/// alphabetically. Go leaves two cases to its map iteration order; here they are fixed:
///
/// * group versions not in `default_group_versions` come after all listed ones, sorted by
///   group then version (a group version listed twice ranks at its last place, as in Go);
/// * a fully qualified lookup that matches the singular name of several resources
///   answers with the one registered first.
///
/// Go also lists a resource twice when its singular and plural names are the same and both
/// match (`endpoints`), so [`resource_for`](RESTMapper::resource_for) reports it as
/// ambiguous; that is kept, for identical answers.
///
/// # Cost
///
/// Registrations are indexed by resource name and by kind, so a lookup costs a hash
/// lookup plus the few registrations that share its resource name, whatever the number of
/// resources registered (Go's mapper walks all of them).
///
/// ```
/// use apimachinery::meta::{DefaultRESTMapper, RESTMapper, RESTScope};
/// use apimachinery::schema::{GroupVersion, GroupVersionResource};
///
/// let storage = GroupVersion::new("storage.k8s.io", "v1");
/// let mut mapper = DefaultRESTMapper::new(vec![storage.clone()]);
/// mapper.add(storage.with_kind("StorageClass"), RESTScope::ROOT);
///
/// // Singular name and group prefix, as `kubectl get storageclass.storage` would ask.
/// let found = mapper.resource_for(&GroupVersionResource::new("storage", "", "StorageClass"))?;
/// assert_eq!(found, storage.with_resource("storageclasses"));
///
/// let err = mapper.kind_for(&GroupVersionResource::new("", "", "nothing")).unwrap_err();
/// assert_eq!(err.to_string(), "no matches for /, Resource=nothing");
/// # Ok::<(), apimachinery::meta::RESTMapperError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct DefaultRESTMapper {
    default_group_versions: Vec<GroupVersion>,
    /// group → version → last position in `default_group_versions`.
    rank: HashMap<Name, HashMap<Name, usize>>,
    /// group → its versions in `default_group_versions`, in order, repeats kept.
    default_versions_by_group: HashMap<Name, Vec<Name>>,

    /// Go's `pluralToSingular`, in registration order of the plural.
    plurals: Vec<PluralSlot>,
    plural_index: HashMap<GroupVersionResource, usize>,
    /// Resource name → slots whose plural or singular has that name, ascending.
    plurals_by_name: HashMap<Name, Slots>,

    /// Go's `resourceToKind`, singular and plural resources alike.
    resource_kinds: Vec<(GroupVersionResource, GroupVersionKind)>,
    resource_index: HashMap<GroupVersionResource, usize>,
    /// Resource name → slots of `resource_kinds` with that name, ascending.
    resources_by_name: HashMap<Name, Slots>,

    /// Go's `kindToPluralResource` and `kindToScope`, which are always set together.
    kind_to_plural: HashMap<GroupVersionKind, (GroupVersionResource, RESTScope)>,
}

#[derive(Clone, Debug)]
struct PluralSlot {
    plural: GroupVersionResource,
    singular: GroupVersionResource,
}

impl DefaultRESTMapper {
    /// A mapper that prefers `default_group_versions` in order: they sort answers, and they
    /// are the versions [`rest_mappings`](RESTMapper::rest_mappings) tries when the caller
    /// names none.
    pub fn new(default_group_versions: Vec<GroupVersion>) -> Self {
        let mut rank: HashMap<Name, HashMap<Name, usize>> = HashMap::new();
        let mut default_versions_by_group: HashMap<Name, Vec<Name>> = HashMap::new();
        for (i, gv) in default_group_versions.iter().enumerate() {
            rank.entry(gv.group.clone())
                .or_default()
                .insert(gv.version.clone(), i);
            default_versions_by_group
                .entry(gv.group.clone())
                .or_default()
                .push(gv.version.clone());
        }
        DefaultRESTMapper {
            default_group_versions,
            rank,
            default_versions_by_group,
            ..Default::default()
        }
    }

    /// The group versions given to [`new`](Self::new), most preferred first.
    pub fn default_group_versions(&self) -> &[GroupVersion] {
        &self.default_group_versions
    }

    /// The number of plural resources registered.
    pub fn len(&self) -> usize {
        self.plurals.len()
    }

    /// True when nothing has been registered.
    pub fn is_empty(&self) -> bool {
        self.plurals.is_empty()
    }

    /// Registers a kind under the resource names [`unsafe_guess_kind_to_resource`] guesses
    /// for it (Go's `Add`). Use [`add_specific`](Self::add_specific) when the real names
    /// are known.
    pub fn add(&mut self, kind: GroupVersionKind, scope: RESTScope) {
        let (plural, singular) = unsafe_guess_kind_to_resource(&kind);
        self.add_specific(kind, plural, singular, scope);
    }

    /// Registers a kind under the given plural and singular resources (Go's
    /// `AddSpecific`).
    ///
    /// A later registration of the same plural, singular or kind replaces what the earlier
    /// one said about it, exactly as Go's map assignments do. Names are stored as given;
    /// lookups lower-case what they are asked, so register lower-case names.
    pub fn add_specific(
        &mut self,
        kind: GroupVersionKind,
        plural: GroupVersionResource,
        singular: GroupVersionResource,
        scope: RESTScope,
    ) {
        self.set_plural_singular(&plural, &singular);
        self.set_resource_kind(singular, kind.clone());
        self.set_resource_kind(plural.clone(), kind.clone());
        self.kind_to_plural.insert(kind, (plural, scope));
    }

    fn set_plural_singular(
        &mut self,
        plural: &GroupVersionResource,
        singular: &GroupVersionResource,
    ) {
        match self.plural_index.entry(plural.clone()) {
            Entry::Occupied(known) => {
                let slot = *known.get();
                let old = std::mem::replace(&mut self.plurals[slot].singular, singular.clone());
                if old.resource != singular.resource {
                    if old.resource != plural.resource {
                        remove_from_index(&mut self.plurals_by_name, &old.resource, slot);
                    }
                    insert_into_index(&mut self.plurals_by_name, &singular.resource, slot);
                }
            }
            Entry::Vacant(new) => {
                let slot = self.plurals.len();
                new.insert(slot);
                self.plurals.push(PluralSlot {
                    plural: plural.clone(),
                    singular: singular.clone(),
                });
                insert_into_index(&mut self.plurals_by_name, &plural.resource, slot);
                if singular.resource != plural.resource {
                    insert_into_index(&mut self.plurals_by_name, &singular.resource, slot);
                }
            }
        }
    }

    fn set_resource_kind(&mut self, resource: GroupVersionResource, kind: GroupVersionKind) {
        match self.resource_index.entry(resource) {
            Entry::Occupied(known) => self.resource_kinds[*known.get()].1 = kind,
            Entry::Vacant(new) => {
                let slot = self.resource_kinds.len();
                insert_into_index(&mut self.resources_by_name, &new.key().resource, slot);
                self.resource_kinds.push((new.key().clone(), kind));
                new.insert(slot);
            }
        }
    }

    /// Every resource name a lookup can match (plural, singular, guessed list names).
    pub(crate) fn resource_names(&self) -> impl Iterator<Item = &Name> {
        self.resources_by_name.keys()
    }

    /// Every kind name registered.
    pub(crate) fn kind_names(&self) -> impl Iterator<Item = &Name> {
        self.kind_to_plural.keys().map(|gvk| &gvk.kind)
    }

    fn slots_named<'a>(index: &'a HashMap<Name, Slots>, name: &str) -> &'a [usize] {
        index.get(name).map(Slots::as_slice).unwrap_or(&[])
    }

    /// Position of a group version in the preferences; `None` when not listed.
    fn rank_of(&self, group: &Name, version: &Name) -> Option<usize> {
        self.rank
            .get(group.as_str())
            .and_then(|versions| versions.get(version.as_str()))
            .copied()
    }

    /// The order of Go's `resourceByPreferredGroupVersion`, made total (see the type docs).
    fn preferred_order(
        &self,
        (a_group, a_version, a_name): (&Name, &Name, &Name),
        (b_group, b_version, b_name): (&Name, &Name, &Name),
    ) -> Ordering {
        let same_gv = a_group == b_group && a_version == b_version;
        let by_gv = if same_gv {
            Ordering::Equal
        } else {
            match (
                self.rank_of(a_group, a_version),
                self.rank_of(b_group, b_version),
            ) {
                (Some(a), Some(b)) => a.cmp(&b),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => (a_group, a_version).cmp(&(b_group, b_version)),
            }
        };
        by_gv.then_with(|| a_name.cmp(b_name))
    }

    fn sort_resources(&self, list: &mut [GroupVersionResource]) {
        if list.len() > 1 {
            list.sort_by(|a, b| {
                self.preferred_order(
                    (&a.group, &a.version, &a.resource),
                    (&b.group, &b.version, &b.resource),
                )
            });
        }
    }

    fn sort_kinds(&self, list: &mut [GroupVersionKind]) {
        if list.len() > 1 {
            list.sort_by(|a, b| {
                self.preferred_order(
                    (&a.group, &a.version, &a.kind),
                    (&b.group, &b.version, &b.kind),
                )
            });
        }
    }
}

/// Go's `coerceResourceForMatching`: lower-case resource, internal version as none.
fn coerce_resource_for_matching(resource: &GroupVersionResource) -> GroupVersionResource {
    let version = if resource.version == API_VERSION_INTERNAL {
        Name::EMPTY
    } else {
        resource.version.clone()
    };
    GroupVersionResource {
        group: resource.group.clone(),
        version,
        resource: go_to_lower(&resource.resource),
    }
}

/// The ascending slots an index keeps for one name; most names have exactly one, which
/// is stored without an allocation.
#[derive(Clone, Debug)]
enum Slots {
    One(usize),
    Many(Vec<usize>),
}

impl Slots {
    fn as_slice(&self) -> &[usize] {
        match self {
            Slots::One(slot) => std::slice::from_ref(slot),
            Slots::Many(slots) => slots,
        }
    }

    fn insert(&mut self, slot: usize) {
        match self {
            Slots::One(one) if *one == slot => {}
            Slots::One(one) => {
                let (a, b) = if *one < slot {
                    (*one, slot)
                } else {
                    (slot, *one)
                };
                *self = Slots::Many(vec![a, b]);
            }
            Slots::Many(slots) => {
                if let Err(at) = slots.binary_search(&slot) {
                    slots.insert(at, slot);
                }
            }
        }
    }

    /// Removes `slot`; true when none is left.
    fn remove(&mut self, slot: usize) -> bool {
        match self {
            Slots::One(one) => *one == slot,
            Slots::Many(slots) => {
                if let Ok(at) = slots.binary_search(&slot) {
                    slots.remove(at);
                }
                slots.is_empty()
            }
        }
    }
}

fn insert_into_index(index: &mut HashMap<Name, Slots>, name: &Name, slot: usize) {
    match index.get_mut(name.as_str()) {
        Some(slots) => slots.insert(slot),
        None => {
            index.insert(name.clone(), Slots::One(slot));
        }
    }
}

fn remove_from_index(index: &mut HashMap<Name, Slots>, name: &Name, slot: usize) {
    if let Some(slots) = index.get_mut(name.as_str()) {
        if slots.remove(slot) {
            index.remove(name.as_str());
        }
    }
}

impl RESTMapper for DefaultRESTMapper {
    fn kind_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<GroupVersionKind, RESTMapperError> {
        single_kind(resource, self.kinds_for(resource)?)
    }

    fn kinds_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
        let resource = coerce_resource_for_matching(input);
        if resource.resource.is_empty() {
            return Err(RESTMapperError::MissingResource { resource });
        }
        let has_group = !resource.group.is_empty();
        let has_version = !resource.version.is_empty();
        let mut ret = Vec::new();
        if has_group && has_version {
            if let Some(&slot) = self.resource_index.get(&resource) {
                ret.push(self.resource_kinds[slot].1.clone());
            }
        } else {
            let slots = Self::slots_named(&self.resources_by_name, &resource.resource);
            let entries = slots.iter().map(|&slot| &self.resource_kinds[slot]);
            if has_group {
                ret.extend(
                    entries
                        .clone()
                        .filter(|(r, _)| r.group == resource.group)
                        .map(|(_, k)| k.clone()),
                );
                // No exact group: every group the given one is a prefix of.
                if ret.is_empty() {
                    ret.extend(
                        entries
                            .filter(|(r, _)| r.group.starts_with(resource.group.as_str()))
                            .map(|(_, k)| k.clone()),
                    );
                }
            } else if has_version {
                ret.extend(
                    entries
                        .filter(|(r, _)| r.version == resource.version)
                        .map(|(_, k)| k.clone()),
                );
            } else {
                ret.extend(entries.map(|(_, k)| k.clone()));
            }
        }
        if ret.is_empty() {
            // Go reports the resource as given here, unlike resources_for.
            return Err(NoResourceMatchError {
                partial_resource: input.clone(),
            }
            .into());
        }
        self.sort_kinds(&mut ret);
        Ok(ret)
    }

    fn resource_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionResource, RESTMapperError> {
        single_resource(input, self.resources_for(input)?)
    }

    fn resources_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
        let resource = coerce_resource_for_matching(input);
        if resource.resource.is_empty() {
            return Err(RESTMapperError::MissingResource { resource });
        }
        let has_group = !resource.group.is_empty();
        let has_version = !resource.version.is_empty();
        let name = &resource.resource;
        let slots = Self::slots_named(&self.plurals_by_name, name);
        let entries = slots.iter().map(|&slot| &self.plurals[slot]);
        let mut ret = Vec::new();
        if has_group && has_version {
            // The first registration that matches exactly.
            if let Some(slot) = entries
                .into_iter()
                .find(|s| s.singular == resource || s.plural == resource)
            {
                ret.push(slot.plural.clone());
            }
        } else if has_group {
            for slot in entries.clone() {
                push_plural(
                    &mut ret,
                    slot,
                    slot.singular.group == resource.group && slot.singular.resource == *name,
                    slot.plural.group == resource.group && slot.plural.resource == *name,
                );
            }
            // No exact group: every group the given one is a prefix of.
            if ret.is_empty() {
                for slot in entries {
                    if slot.plural.group.starts_with(resource.group.as_str()) {
                        push_plural(
                            &mut ret,
                            slot,
                            slot.singular.resource == *name,
                            slot.plural.resource == *name,
                        );
                    }
                }
            }
        } else if has_version {
            for slot in entries {
                push_plural(
                    &mut ret,
                    slot,
                    slot.singular.version == resource.version && slot.singular.resource == *name,
                    slot.plural.version == resource.version && slot.plural.resource == *name,
                );
            }
        } else {
            for slot in entries {
                push_plural(
                    &mut ret,
                    slot,
                    slot.singular.resource == *name,
                    slot.plural.resource == *name,
                );
            }
        }
        if ret.is_empty() {
            return Err(NoResourceMatchError {
                partial_resource: resource,
            }
            .into());
        }
        self.sort_resources(&mut ret);
        Ok(ret)
    }

    fn rest_mapping(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<RESTMapping, RESTMapperError> {
        let mut mappings = self.rest_mappings(gk, versions)?;
        if mappings.is_empty() {
            return Err(no_kind_match(gk, versions));
        }
        Ok(mappings.swap_remove(0))
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
            had_version = true;
            let gvk = gk.with_version(*version);
            if self.kind_to_plural.contains_key(&gvk) {
                potential.push(gvk);
                break;
            }
        }
        if !had_version && potential.is_empty() {
            if let Some(versions) = self.default_versions_by_group.get(gk.group.as_str()) {
                potential.extend(versions.iter().map(|v| gk.with_version(v.clone())));
            }
        }
        if potential.is_empty() {
            return Err(no_kind_match(gk, versions));
        }
        let mappings: Vec<RESTMapping> = potential
            .into_iter()
            .filter_map(|gvk| {
                let (resource, scope) = self.kind_to_plural.get(&gvk)?;
                Some(RESTMapping {
                    resource: resource.clone(),
                    group_version_kind: gvk,
                    scope: *scope,
                })
            })
            .collect();
        if mappings.is_empty() {
            return Err(NoResourceMatchError {
                partial_resource: GroupVersionResource {
                    group: gk.group.clone(),
                    version: Name::EMPTY,
                    resource: gk.kind.clone(),
                },
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
            let Some(&slot) = self.plural_index.get(curr) else {
                continue;
            };
            let curr_singular = &self.plurals[slot].singular;
            if singular.is_empty() {
                singular = curr_singular.clone();
                continue;
            }
            if curr_singular.resource != singular.resource {
                return Err(RESTMapperError::MultipleSingulars {
                    resource: resource_type.to_owned(),
                    matches: resources,
                });
            }
        }
        if singular.is_empty() {
            return Err(RESTMapperError::NoSingular {
                resource: resource_type.to_owned(),
            });
        }
        Ok(singular.resource.to_string())
    }
}

/// Adds a registration's plural once for a matching singular and once more for a matching
/// plural, as Go does (so `endpoints`, both singular and plural, is listed twice).
fn push_plural(
    ret: &mut Vec<GroupVersionResource>,
    slot: &PluralSlot,
    singular_matches: bool,
    plural_matches: bool,
) {
    if singular_matches {
        ret.push(slot.plural.clone());
    }
    if plural_matches {
        ret.push(slot.plural.clone());
    }
}

pub(crate) fn no_kind_match(gk: &GroupKind, versions: &[&str]) -> RESTMapperError {
    NoKindMatchError {
        group_kind: gk.clone(),
        searched_versions: versions.iter().map(|v| (*v).to_owned()).collect(),
    }
    .into()
}

#[cfg(test)]
#[path = "default_rest_mapper_tests.rs"]
mod tests;
