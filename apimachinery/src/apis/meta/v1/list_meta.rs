//! [`ListMeta`]: the metadata of list responses.

use super::ListMetaAccessor;

/// The metadata of a list (Go's `metav1.ListMeta`): where the list was read and how to
/// continue it.
#[derive(crate::ApiType, Default, PartialEq, Eq)]
pub struct ListMeta {
    /// Deprecated and no longer set by servers.
    #[api(skip_serializing_if = "String::is_empty")]
    pub self_link: String,
    /// The version of the collection the list was read at.
    #[api(skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    /// The token to request the next page, when the list was limited.
    #[api(rename = "continue", skip_serializing_if = "String::is_empty")]
    pub continue_: String,
    /// An estimate of the items left after this page.
    pub remaining_item_count: Option<i64>,
    /// The shard selector the list was filtered by, if it was.
    pub shard_info: Option<ShardInfo>,
}

// `Clone` and `Debug` as the derives write them but not `#[inline]`: every list kind's
// own clone and `Debug` call these, and an inline one was compiled into each of them.
impl Clone for ListMeta {
    fn clone(&self) -> Self {
        ListMeta {
            self_link: self.self_link.clone(),
            resource_version: self.resource_version.clone(),
            continue_: self.continue_.clone(),
            remaining_item_count: self.remaining_item_count,
            shard_info: self.shard_info.clone(),
        }
    }
}

impl std::fmt::Debug for ListMeta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListMeta")
            .field("self_link", &self.self_link)
            .field("resource_version", &self.resource_version)
            .field("continue_", &self.continue_)
            .field("remaining_item_count", &self.remaining_item_count)
            .field("shard_info", &self.shard_info)
            .finish()
    }
}

/// The shard selector applied to produce a list response.
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq, Eq)]
pub struct ShardInfo {
    /// The shard selector of the request, echoed back.
    pub selector: String,
}

impl ListMetaAccessor for ListMeta {
    fn resource_version(&self) -> &str {
        &self.resource_version
    }
    fn set_resource_version(&mut self, version: &str) {
        version.clone_into(&mut self.resource_version);
    }
    fn self_link(&self) -> &str {
        &self.self_link
    }
    fn set_self_link(&mut self, link: &str) {
        link.clone_into(&mut self.self_link);
    }
    fn continue_token(&self) -> &str {
        &self.continue_
    }
    fn set_continue_token(&mut self, token: &str) {
        token.clone_into(&mut self.continue_);
    }
    fn remaining_item_count(&self) -> Option<i64> {
        self.remaining_item_count
    }
    fn set_remaining_item_count(&mut self, count: Option<i64>) {
        self.remaining_item_count = count;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continue_is_spelled_as_in_go() {
        let m = ListMeta {
            resource_version: "5".into(),
            continue_: "tok".into(),
            remaining_item_count: Some(2),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"resourceVersion":"5","continue":"tok","remainingItemCount":2}"#
        );
    }
}
