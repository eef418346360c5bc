//! GET of one object (Go's `endpoints/handlers/get.go` `GetResource`).

use apimachinery::api::errors::StatusError;

use super::{Handler, Reply};

impl Handler<'_> {
    /// GET of one object: `resourceVersion=0` (any recent state) from the watch cache,
    /// as Go serves it; otherwise from the storage (Go's quorum read).
    pub async fn get(&self) -> Result<Reply, StatusError> {
        if let Some(reader) = self.rest.reader() {
            let obj = self.read_object(reader.get(&self.info.name).await?)?;
            return self.reply(200, &*self.to_request_version(obj)?, Vec::new());
        }
        let obj = if self.query.get("resourceVersion").map(String::as_str) == Some("0") {
            self.store
                .get_cached(self.namespace(), &self.info.name)
                .await?
        } else {
            self.store.get(self.namespace(), &self.info.name).await?
        };
        self.reply(200, &*self.to_request_version_async(obj).await?, Vec::new())
    }
}
