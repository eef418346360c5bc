//! Go's `IgnoreManagedFieldsTimestampsTransformer` (`endpoints/handlers/fieldmanager`,
//! called by the generic store's `Update` after the strategy): an update whose only
//! change is the time of a managedFields entry keeps the stored times, so it writes
//! nothing and moves no resourceVersion.
//!
//! The field manager records a time whenever a request sets a field, but it cannot know
//! what the strategy does after it: a field the strategy drops (a disabled feature's), a
//! value it normalizes or defaults back. Without this, such a no-op update would write
//! the object again whenever it came in another second than the last write.

use apimachinery::api::errors::StatusError;
use apimachinery::apis::meta::v1::ManagedFieldsEntry;
use apimachinery::runtime::Object;

use super::Store;

impl Store {
    /// Gives `new` the managedFields times of `current` when its entries differ from
    /// `current`'s only in their times and the object is otherwise the one `stored`
    /// (compared on the stored encoding, as Go compares the objects); leaves `new` as
    /// it was otherwise.
    pub(super) fn keep_times_of_a_no_op(
        &self,
        new: &mut dyn Object,
        current: &dyn Object,
        stored: &[u8],
    ) -> Result<(), StatusError> {
        let Some(new_entries) = times_only_changed(new, current) else {
            return Ok(());
        };
        let Some(meta) = new.meta() else {
            return Ok(());
        };
        let resource_version = meta.resource_version().to_owned();
        let (value, _) = self.encode(new)?;
        if let Some(meta) = new.meta_mut() {
            meta.set_resource_version(&resource_version);
            if value.as_ref() != stored {
                meta.set_managed_fields(new_entries);
            }
        }
        Ok(())
    }
}

/// When the managedFields of `new` are `current`'s but for some time, sets `current`'s
/// times on `new` and returns `new`'s entries as they were.
fn times_only_changed(
    new: &mut dyn Object,
    current: &dyn Object,
) -> Option<Vec<ManagedFieldsEntry>> {
    let old = current.meta()?.managed_fields();
    let meta = new.meta_mut()?;
    let entries = meta.managed_fields();
    if entries.is_empty()
        || entries.len() != old.len()
        || entries.iter().zip(&old).all(|(n, o)| n.time == o.time)
        || !entries.iter().zip(&old).all(|(n, o)| equal_but_time(n, o))
    {
        return None;
    }
    let reverted = entries
        .iter()
        .zip(&old)
        .map(|(n, o)| ManagedFieldsEntry {
            time: o.time,
            ..n.clone()
        })
        .collect();
    meta.set_managed_fields(reverted);
    Some(entries)
}

fn equal_but_time(a: &ManagedFieldsEntry, b: &ManagedFieldsEntry) -> bool {
    a.manager == b.manager
        && a.operation == b.operation
        && a.api_version == b.api_version
        && a.fields_type == b.fields_type
        && a.fields_v1 == b.fields_v1
        && a.subresource == b.subresource
}

#[cfg(test)]
mod tests {
    use apimachinery::apis::meta::v1::Time;
    use apimachinery::runtime::Unstructured;

    use super::*;

    fn entry(manager: &str, time: &str) -> ManagedFieldsEntry {
        ManagedFieldsEntry {
            manager: manager.into(),
            operation: "Update".into(),
            api_version: "v1".into(),
            time: Time::parse_rfc3339(time).ok(),
            fields_type: "FieldsV1".into(),
            ..ManagedFieldsEntry::default()
        }
    }

    fn object(entries: Vec<ManagedFieldsEntry>) -> Unstructured {
        let mut obj = Unstructured::new(serde_json::Map::from_iter([(
            "metadata".to_owned(),
            serde_json::json!({"name": "a"}),
        )]));
        if let Some(meta) = obj.meta_mut() {
            meta.set_managed_fields(entries);
        }
        obj
    }

    #[test]
    fn only_a_changed_time_is_reverted() {
        let current = object(vec![entry("a", "2026-11-30T10:00:00Z")]);
        let mut new = object(vec![entry("a", "2026-11-30T10:00:01Z")]);
        let was = times_only_changed(&mut new, &current).expect("times differ only");
        assert_eq!(was, vec![entry("a", "2026-11-30T10:00:01Z")]);
        assert_eq!(
            new.meta().map(|m| m.managed_fields()),
            Some(vec![entry("a", "2026-11-30T10:00:00Z")])
        );
    }

    #[test]
    fn another_change_or_no_change_leaves_the_entries() {
        let current = object(vec![entry("a", "2026-11-30T10:00:00Z")]);
        for entries in [
            vec![entry("a", "2026-11-30T10:00:00Z")],
            vec![entry("b", "2026-11-30T10:00:01Z")],
            vec![
                entry("a", "2026-11-30T10:00:01Z"),
                entry("b", "2026-11-30T10:00:01Z"),
            ],
            vec![],
        ] {
            let mut new = object(entries.clone());
            assert_eq!(times_only_changed(&mut new, &current), None);
            assert_eq!(new.meta().map(|m| m.managed_fields()), Some(entries));
        }
    }
}
