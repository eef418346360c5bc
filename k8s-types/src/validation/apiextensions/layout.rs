//! A v1 CustomResourceDefinition's spec as Go's validation sees it. Go validates the
//! internal version, and the conversion from v1 to it moves a per-version schema,
//! subresources, printer columns or selectable fields that every version has alike
//! to the spec's top level (`spec.validation`, `spec.subresources`, ...), clearing them
//! in each version, and copies the first version's name to `spec.version`. Where an
//! error lands (`spec.validation.openAPIV3Schema` or `spec.versions[1].schema...`) and
//! which checks run depend on that layout, so it is rebuilt here (borrowing, not
//! converting).

use crate::apiextensions::v1::{
    CustomResourceColumnDefinition, CustomResourceDefinitionSpec, CustomResourceDefinitionVersion,
    CustomResourceSubresources, CustomResourceValidation, SelectableField,
};

/// One version in Go's internal layout: the fields moved to the top level are `None`
/// (or empty) here.
pub(super) struct Version<'a> {
    pub(super) v: &'a CustomResourceDefinitionVersion,
    pub(super) schema: Option<&'a CustomResourceValidation>,
    pub(super) subresources: Option<&'a CustomResourceSubresources>,
    pub(super) columns: &'a [CustomResourceColumnDefinition],
    pub(super) selectable_fields: &'a [SelectableField],
}

/// The spec in Go's internal layout.
pub(super) struct Layout<'a> {
    /// `spec.version`: the first version's name (empty without versions).
    pub(super) version: &'a str,
    pub(super) validation: Option<&'a CustomResourceValidation>,
    pub(super) subresources: Option<&'a CustomResourceSubresources>,
    pub(super) columns: &'a [CustomResourceColumnDefinition],
    pub(super) selectable_fields: &'a [SelectableField],
    pub(super) versions: Vec<Version<'a>>,
}

/// Whether every version's field is equal to the first's (Go's `Semantic.DeepEqual`,
/// for which a nil list equals an empty one: ours are both empty).
fn all_alike<T: PartialEq + ?Sized>(
    versions: &[CustomResourceDefinitionVersion],
    f: impl Fn(&CustomResourceDefinitionVersion) -> &T,
) -> bool {
    versions
        .first()
        .is_none_or(|first| versions.iter().all(|v| f(v) == f(first)))
}

impl<'a> Layout<'a> {
    /// What Go's `Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_...` makes of
    /// `spec`'s versions.
    pub(super) fn of(spec: &'a CustomResourceDefinitionSpec) -> Self {
        let versions = spec.versions.as_deref().unwrap_or_default();
        let Some(first) = versions.first() else {
            return Layout {
                version: "",
                validation: None,
                subresources: None,
                columns: &[],
                selectable_fields: &[],
                versions: Vec::new(),
            };
        };
        let schema_alike = all_alike(versions, |v| &v.schema);
        let sub_alike = all_alike(versions, |v| &v.subresources);
        let col_alike = all_alike(versions, |v| v.additional_printer_columns.as_slice());
        let sel_alike = all_alike(versions, |v| v.selectable_fields.as_slice());
        Layout {
            version: &first.name,
            validation: first.schema.as_ref().filter(|_| schema_alike),
            subresources: first.subresources.as_ref().filter(|_| sub_alike),
            columns: if col_alike {
                &first.additional_printer_columns
            } else {
                &[]
            },
            selectable_fields: if sel_alike {
                &first.selectable_fields
            } else {
                &[]
            },
            versions: versions
                .iter()
                .map(|v| Version {
                    v,
                    schema: v.schema.as_ref().filter(|_| !schema_alike),
                    subresources: v.subresources.as_ref().filter(|_| !sub_alike),
                    columns: if col_alike {
                        &[]
                    } else {
                        &v.additional_printer_columns
                    },
                    selectable_fields: if sel_alike { &[] } else { &v.selectable_fields },
                })
                .collect(),
        }
    }

    /// Go's `getSubresourcesForVersion`: the version's own subresources when any
    /// version has its own, else the top level's.
    pub(super) fn subresources_for(&self, i: usize) -> Option<&'a CustomResourceSubresources> {
        if self.versions.iter().any(|v| v.subresources.is_some()) {
            self.versions.get(i).and_then(|v| v.subresources)
        } else {
            self.subresources
        }
    }

    /// Go's `hasAnyStatusEnabled`.
    pub(super) fn any_status_enabled(&self) -> bool {
        self.subresources.is_some_and(|s| s.status.is_some())
            || self
                .versions
                .iter()
                .any(|v| v.subresources.is_some_and(|s| s.status.is_some()))
    }
}
