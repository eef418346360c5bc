//! Categories (`all`): [`CategoryExpander`].

use std::collections::HashMap;

use crate::schema::{GroupResource, Name};

/// Which resources each category names (client-go's `CategoryExpander`), so that
/// `kubectl get all` lists pods, services, deployments and the rest.
///
/// Resources are added in discovery order; a resource served in several versions is
/// listed once (Go's discovery expander lists it once per version).
///
/// ```
/// use apimachinery::meta::CategoryExpander;
/// use apimachinery::schema::{GroupResource, Name};
///
/// let mut categories = CategoryExpander::default();
/// categories.add(&Name::new("all"), GroupResource::new("", "pods"));
/// categories.add(&Name::new("all"), GroupResource::new("apps", "deployments"));
/// categories.add(&Name::new("all"), GroupResource::new("", "pods"));
/// assert_eq!(categories.expand("all").map(<[_]>::len), Some(2));
/// assert_eq!(categories.expand("none"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CategoryExpander {
    expansions: HashMap<Name, Vec<GroupResource>>,
}

impl CategoryExpander {
    /// Puts `resource` in `category`, after the resources already there.
    pub fn add(&mut self, category: &Name, resource: GroupResource) {
        let resources = self.expansions.entry(category.clone()).or_default();
        if !resources.contains(&resource) {
            resources.push(resource);
        }
    }

    /// The resources of `category`, in the order added; `None` when no resource declares
    /// it (Go's `Expand` answering `false`).
    pub fn expand(&self, category: &str) -> Option<&[GroupResource]> {
        self.expansions.get(category).map(Vec::as_slice)
    }

    /// Every category known, in no particular order.
    pub fn categories(&self) -> impl Iterator<Item = &Name> {
        self.expansions.keys()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_keep_order_and_drop_repeats() {
        let mut c = CategoryExpander::default();
        let all = Name::new("all");
        c.add(&all, GroupResource::new("", "pods"));
        c.add(
            &Name::new("api-extensions"),
            GroupResource::new("apiextensions.k8s.io", "customresourcedefinitions"),
        );
        c.add(&all, GroupResource::new("apps", "deployments"));
        c.add(&all, GroupResource::new("", "pods"));
        assert_eq!(
            c.expand("all"),
            Some(
                &[
                    GroupResource::new("", "pods"),
                    GroupResource::new("apps", "deployments")
                ][..]
            )
        );
        assert_eq!(c.expand("All"), None);
        assert_eq!(c.categories().count(), 2);
    }
}
