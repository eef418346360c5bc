//! What a strategic merge patch needs to know of a schema: per field, its patch
//! strategies and merge key, and the schema of its value (Go's `LookupPatchMeta`).

use super::error::LookupPatchMetaError;

/// The patch metadata of one field: its `x-kubernetes-patch-strategy` (Go's
/// `patchStrategy` struct tag), split at commas, and its `x-kubernetes-patch-merge-key`
/// (`patchMergeKey`). Empty when the field declares none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatchMeta {
    patch_strategies: Vec<String>,
    patch_merge_key: String,
}

impl PatchMeta {
    /// Metadata with these strategies (e.g. `["merge", "retainKeys"]`) and merge key (`""`
    /// for none).
    pub fn new(patch_strategies: Vec<String>, patch_merge_key: impl Into<String>) -> PatchMeta {
        PatchMeta {
            patch_strategies,
            patch_merge_key: patch_merge_key.into(),
        }
    }

    /// The field's patch strategies, in declaration order.
    pub fn patch_strategies(&self) -> &[String] {
        &self.patch_strategies
    }

    /// The key that identifies items of a merged list of objects, `""` if none.
    pub fn patch_merge_key(&self) -> &str {
        &self.patch_merge_key
    }
}

/// The schema node of one field's value (a struct lookup) or of one list item (a slice
/// lookup), and the field's patch metadata.
pub type PatchMetaLookup<'s> = (Box<dyn LookupPatchMeta + 's>, PatchMeta);

/// A position in a schema that can describe its fields for a strategic merge patch (Go's
/// `strategicpatch.LookupPatchMeta`).
///
/// The patch asks only about fields present in both the original and the patch with
/// object or list values, so an implementation may be lazy about the rest.
pub trait LookupPatchMeta {
    /// The patch metadata of field `key` of this object, and the schema of its value (Go's
    /// `LookupPatchMetadataForStruct`).
    fn lookup_patch_metadata_for_struct(
        &self,
        key: &str,
    ) -> Result<PatchMetaLookup<'_>, LookupPatchMetaError>;

    /// The patch metadata of list field `key` of this object, and the schema of the list's
    /// items (Go's `LookupPatchMetadataForSlice`).
    fn lookup_patch_metadata_for_slice(
        &self,
        key: &str,
    ) -> Result<PatchMetaLookup<'_>, LookupPatchMetaError>;

    /// The type's name, for messages.
    fn name(&self) -> String;
}

/// A schema that knows nothing: every field has no patch metadata, so lists are replaced
/// and objects merged, which is what a JSON merge patch (RFC 7386) does and what Go does
/// below a field whose type it does not know.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemalessPatchMeta;

impl LookupPatchMeta for SchemalessPatchMeta {
    fn lookup_patch_metadata_for_struct(
        &self,
        _key: &str,
    ) -> Result<PatchMetaLookup<'_>, LookupPatchMetaError> {
        Ok((Box::new(SchemalessPatchMeta), PatchMeta::default()))
    }

    fn lookup_patch_metadata_for_slice(
        &self,
        _key: &str,
    ) -> Result<PatchMetaLookup<'_>, LookupPatchMetaError> {
        Ok((Box::new(SchemalessPatchMeta), PatchMeta::default()))
    }

    fn name(&self) -> String {
        "unknown type".to_owned()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn schemaless_lookups_declare_nothing_at_any_depth() {
        let (child, meta) = SchemalessPatchMeta
            .lookup_patch_metadata_for_struct("spec")
            .unwrap();
        assert_eq!(meta, PatchMeta::default());
        let (_, meta) = child.lookup_patch_metadata_for_slice("containers").unwrap();
        assert!(meta.patch_strategies().is_empty());
        assert_eq!(meta.patch_merge_key(), "");
    }

    #[test]
    fn patch_meta_keeps_what_it_was_given() {
        let meta = PatchMeta::new(vec!["merge".into(), "retainKeys".into()], "name");
        assert_eq!(meta.patch_strategies(), ["merge", "retainKeys"]);
        assert_eq!(meta.patch_merge_key(), "name");
    }
}
