//! [`EtcdStorage`]: the store in an etcd v3 cluster, through its gRPC API
//! (`kapi serve --etcd-servers`).
//!
//! Every operation is the request kube-apiserver's `storage/etcd3` store sends, on the
//! keys exactly as given, so what one of them writes the other reads:
//!
//! | operation | etcd request |
//! | --- | --- |
//! | `get` | range on the key |
//! | `list` | range `[start_key or prefix, prefix end)` at the revision, with the limit; `remaining` is the range's count minus the keys returned |
//! | `create` | txn: if `create_revision(key) == 0` then put |
//! | `update` | txn: if `mod_revision(key) == expected` then put (with the previous key) else get |
//! | `update_at` | the same without the previous key (kube-apiserver's update) |
//! | `delete` | txn: if `mod_revision(key) == expected` (when given) then delete with the previous key else get |
//! | `delete_at` | txn: if `mod_revision(key) == expected` then delete else get (kube-apiserver's delete) |
//! | `watch` | one watch on the prefix with `prev_kv` and progress notifications, from `from + 1` |
//! | `watch_without_prev` | the same watch without `prev_kv` |
//! | `compact` | compaction at the revision |
//!
//! etcd's "required revision has been compacted" and "is a future revision" become
//! [`StorageError::Compacted`] and [`StorageError::FutureRevision`]; a refused or lost
//! connection, or no answer within the request timeout, is [`StorageError::Unavailable`]
//! naming the endpoints. The client's channel reconnects by itself, so operations work
//! again once etcd is back; a watch whose connection was lost ends with `Unavailable`
//! and the caller watches again from the last revision it saw.

use std::sync::Arc;
use std::sync::atomic::AtomicI64;
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::oneshot;
use tonic::codec::Streaming;

mod channel;
// `cargo xtask etcd-proto`'s output: etcd's messages and the clients of its KV and
// Watch services, as tonic-prost-build writes them.
#[allow(missing_docs, clippy::all, clippy::pedantic, unreachable_pub)]
mod generated;
mod requests;
mod watch;
use channel::DirectChannel;
use generated::compare::CompareResult;
use generated::kv_client::KvClient;
use generated::response_op::Response as OpResponse;
use generated::watch_client::WatchClient;
use generated::watch_request::RequestUnion;
use generated::{
    CompactionRequest, RangeRequest, TxnRequest, TxnResponse, WatchCreateRequest, WatchRequest,
    WatchResponse,
};
use requests::{create_revision, delete_op, get_op, key_bytes, mod_revision_is, put_op};
use watch::EtcdWatch;

use super::validation::{check_compaction, check_key, check_list, check_revision};

use super::{
    Deleted, KeyValue, ListOptions, ListResult, OwnWrites, Revision, Storage, StorageError,
    WatchEvent, WatchStream,
};

/// How long [`EtcdStorage::connect`] lets one request take before it is `Unavailable`.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest answer accepted from etcd: as kube-apiserver's client, no limit short of
/// gRPC's own (a list of a whole resource easily exceeds the 4 MiB default).
const MAX_RECEIVE_BYTES: usize = i32::MAX as usize;

/// How long establishing a connection to an endpoint may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// Pings find a dead connection (and end its watches) even when no request is in
/// flight: one after this long without traffic...
const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// ...answered within this long, or the connection is closed.
const KEEP_ALIVE_TIMEOUT: Duration = Duration::from_secs(5);

/// A [`Storage`] in etcd v3. Cheap to clone (clones share the connection).
///
/// A new etcd cluster is at revision 1 before any write (etcd counts its creation), so
/// the first write there gets revision 2.
///
/// ```no_run
/// use apiserver::storage::{EtcdStorage, ListOptions, Storage};
///
/// # async fn run() -> Result<(), apiserver::storage::StorageError> {
/// let store = EtcdStorage::connect(&["http://127.0.0.1:2379"]).await?;
/// // What kube-apiserver stored, read as it lays it out.
/// let deployments = store
///     .list("/registry/deployments/default/", &ListOptions::default())
///     .await?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct EtcdStorage {
    channel: DirectChannel,
    /// `etcd http://127.0.0.1:2379,...`, for errors.
    backend: String,
    request_timeout: Duration,
    own_writes: Arc<OwnWrites>,
    /// The revision when it connected (`opened_at`), when etcd answered then.
    opened_at: Option<Revision>,
}

impl std::fmt::Debug for EtcdStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EtcdStorage")
            .field("backend", &self.backend)
            .field("request_timeout", &self.request_timeout)
            .finish()
    }
}

impl EtcdStorage {
    /// A store on the etcd cluster at `endpoints` (`http://host:port` URLs, as
    /// kube-apiserver's `--etcd-servers`). Connections are made on demand: an unreachable
    /// cluster is not an error here but makes operations fail with
    /// [`StorageError::Unavailable`] until it is reachable.
    pub async fn connect<E: AsRef<str>>(endpoints: &[E]) -> Result<Self, StorageError> {
        EtcdStorage::connect_with_timeout(endpoints, DEFAULT_REQUEST_TIMEOUT).await
    }

    /// As [`EtcdStorage::connect`], with each request given `request_timeout` to answer.
    pub async fn connect_with_timeout<E: AsRef<str>>(
        endpoints: &[E],
        request_timeout: Duration,
    ) -> Result<Self, StorageError> {
        let names: Vec<&str> = endpoints.iter().map(AsRef::as_ref).collect();
        let backend = format!("etcd {}", names.join(","));
        if names.is_empty() {
            return Err(StorageError::InvalidRequest {
                message: "no etcd endpoints given".to_owned(),
            });
        }
        let channel = DirectChannel::new(&names, CONNECT_TIMEOUT, KEEP_ALIVE, KEEP_ALIVE_TIMEOUT)
            .map_err(|error| StorageError::InvalidRequest {
            message: format!("cannot use etcd endpoints {}: {error}", names.join(",")),
        })?;
        let mut storage = EtcdStorage {
            channel,
            backend,
            request_timeout,
            own_writes: Arc::default(),
            opened_at: None,
        };
        // Where the watch caches' windows begin (`opened_at`). An etcd that does not
        // answer yet leaves it unknown: the server still starts, and its caches begin
        // where they start.
        storage.opened_at = tokio::time::timeout(CONNECT_TIMEOUT, storage.current_revision())
            .await
            .ok()
            .and_then(Result::ok);
        Ok(storage)
    }

    fn kv(&self) -> KvClient<DirectChannel> {
        KvClient::new(self.channel.clone()).max_decoding_message_size(MAX_RECEIVE_BYTES)
    }

    /// Opens a watch stream with one watch, `create`. The stream's requests stay open
    /// until the returned sender is dropped (etcd ends the watch then).
    async fn open_watch(
        &self,
        create: WatchCreateRequest,
    ) -> Result<(Streaming<WatchResponse>, oneshot::Sender<()>), StorageError> {
        let (close, closed) = oneshot::channel::<()>();
        let create = WatchRequest {
            request_union: Some(RequestUnion::CreateRequest(create)),
        };
        let requests = futures_util::stream::once(std::future::ready(create))
            .chain(futures_util::stream::once(closed).filter_map(|_| std::future::ready(None)));
        let mut client =
            WatchClient::new(self.channel.clone()).max_decoding_message_size(MAX_RECEIVE_BYTES);
        let stream = self.call(client.watch(requests)).await?;
        Ok((stream, close))
    }

    /// Runs one request with the request timeout.
    async fn call<T>(
        &self,
        request: impl Future<Output = Result<tonic::Response<T>, tonic::Status>>,
    ) -> Result<T, StorageError> {
        match tokio::time::timeout(self.request_timeout, request).await {
            Ok(result) => result
                .map(tonic::Response::into_inner)
                .map_err(|status| classify(&self.backend, &status)),
            Err(_) => Err(StorageError::Unavailable {
                backend: self.backend.clone(),
                message: format!("no answer within {:?}", self.request_timeout),
            }),
        }
    }

    /// The revision etcd's history starts at, learnt the only way etcd tells it: a
    /// watch from revision 1 is refused with the compaction revision.
    async fn compacted_revision(&self) -> Option<Revision> {
        let (mut stream, _close) = self
            .open_watch(WatchCreateRequest {
                key: Bytes::from_static(b"\0"),
                start_revision: 1,
                ..Default::default()
            })
            .await
            .ok()?;
        for _ in 0..2 {
            let response = tokio::time::timeout(self.request_timeout, stream.message())
                .await
                .ok()?
                .ok()??;
            if response.compact_revision != 0 {
                return Some(response.compact_revision);
            }
            if !response.created {
                break;
            }
        }
        // Never compacted: the history starts at the first revision.
        None
    }

    /// Maps etcd's out-of-range answers for a read at `revision` to our errors.
    async fn revision_error(&self, revision: Revision, error: StorageError) -> StorageError {
        let StorageError::Internal { message, .. } = &error else {
            return error;
        };
        if message.contains("required revision has been compacted") {
            // Should the probe fail, all that is known is that the compaction is past the
            // revision asked for.
            let compacted = self
                .compacted_revision()
                .await
                .unwrap_or(revision.saturating_add(1));
            StorageError::Compacted {
                requested: revision,
                compacted,
            }
        } else if message.contains("required revision is a future revision") {
            match self.current_revision().await {
                Ok(current) => StorageError::FutureRevision {
                    requested: revision,
                    current,
                },
                Err(error) => error,
            }
        } else {
            error
        }
    }
}

/// etcd's errors as ours: connection trouble is `Unavailable`, the rest `Internal` (with
/// etcd's message, which [`EtcdStorage::revision_error`] reads).
fn classify(backend: &str, status: &tonic::Status) -> StorageError {
    let unavailable = match status.code() {
        tonic::Code::Unavailable | tonic::Code::DeadlineExceeded | tonic::Code::Cancelled => true,
        // A status etcd sent carries its own code; one tonic made up from a broken
        // connection (a reset stream, a closed socket) is `Unknown` with the transport's
        // error as its source.
        tonic::Code::Unknown => std::error::Error::source(status).is_some(),
        // etcd's own checks (a request over --max-request-bytes, too many operations)
        // and its gRPC server's message size limit.
        tonic::Code::InvalidArgument | tonic::Code::ResourceExhausted => {
            return StorageError::InvalidRequest {
                message: format!("etcd ({backend}) refused the request: {}", status.message()),
            };
        }
        _ => false,
    };
    let message = format!("grpc request error: {status}");
    if unavailable {
        StorageError::Unavailable {
            backend: backend.to_owned(),
            message,
        }
    } else {
        StorageError::Internal {
            backend: backend.to_owned(),
            message,
        }
    }
}

/// The first key after every key starting with `prefix` (etcd's `GetPrefixRangeEnd`).
fn prefix_end(prefix: &str) -> Vec<u8> {
    let mut end = prefix.as_bytes().to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    // Every byte was 0xff (or the prefix is empty): the range runs to the last key.
    vec![0]
}

fn convert(backend: &str, kv: &generated::KeyValue) -> Result<KeyValue, StorageError> {
    let key = std::str::from_utf8(&kv.key).map_err(|_| StorageError::Internal {
        backend: backend.to_owned(),
        message: format!(
            "etcd holds a key that is not UTF-8: {:?}",
            String::from_utf8_lossy(&kv.key)
        ),
    })?;
    Ok(KeyValue {
        key: key.to_owned(),
        value: kv.value.clone(),
        create_revision: kv.create_revision,
        mod_revision: kv.mod_revision,
    })
}

fn header_revision(backend: &str, response: &TxnResponse) -> Result<Revision, StorageError> {
    response
        .header
        .map(|header| header.revision)
        .ok_or_else(|| unexpected(backend, "a transaction response without a header"))
}

fn unexpected(backend: &str, what: &str) -> StorageError {
    StorageError::Internal {
        backend: backend.to_owned(),
        message: format!("unexpected answer from etcd: {what}"),
    }
}

impl EtcdStorage {
    /// The key as the failed branch of a transaction read it (its `get`), if it exists.
    fn read_back(&self, response: &TxnResponse) -> Result<Option<KeyValue>, StorageError> {
        for op in &response.responses {
            if let Some(OpResponse::ResponseRange(get)) = &op.response {
                return get
                    .kvs
                    .first()
                    .map(|kv| convert(&self.backend, kv))
                    .transpose();
            }
        }
        Err(unexpected(
            &self.backend,
            "a failed transaction without its get",
        ))
    }

    fn conflict_or_missing(
        &self,
        key: &str,
        expected: Revision,
        response: &TxnResponse,
    ) -> StorageError {
        match self.read_back(response) {
            Ok(Some(current)) => StorageError::Conflict {
                key: key.to_owned(),
                expected,
                current: Box::new(current),
            },
            Ok(None) => StorageError::KeyNotFound {
                key: key.to_owned(),
            },
            Err(error) => error,
        }
    }
}

#[async_trait::async_trait]
impl Storage for EtcdStorage {
    async fn get(&self, key: &str) -> Result<Option<KeyValue>, StorageError> {
        check_key(key)?;
        let mut kv = self.kv();
        let response = self
            .call(kv.range(RangeRequest {
                key: key_bytes(key),
                ..Default::default()
            }))
            .await?;
        response
            .kvs
            .first()
            .map(|kv| convert(&self.backend, kv))
            .transpose()
    }

    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError> {
        let start = check_list(prefix, options)?;
        let limit = i64::try_from(options.limit).map_err(|_| StorageError::InvalidRequest {
            message: format!("list limit {} is too large", options.limit),
        })?;
        let range = RangeRequest {
            key: key_bytes(start),
            range_end: prefix_end(prefix).into(),
            limit,
            revision: options.revision,
            ..Default::default()
        };
        let mut kv = self.kv();
        let response = match self.call(kv.range(range)).await {
            Ok(response) => response,
            Err(error) => return Err(self.revision_error(options.revision, error).await),
        };
        let revision = match options.revision {
            0 => response
                .header
                .map(|header| header.revision)
                .ok_or_else(|| unexpected(&self.backend, "a range response without a header"))?,
            revision => revision,
        };
        let kvs = response
            .kvs
            .iter()
            .map(|kv| convert(&self.backend, kv))
            .collect::<Result<Vec<_>, _>>()?;
        let remaining = if response.more {
            response.count - kvs.len() as i64
        } else {
            0
        };
        Ok(ListResult {
            kvs,
            revision,
            remaining,
        })
    }

    async fn create(&self, key: &str, value: Bytes) -> Result<KeyValue, StorageError> {
        check_key(key)?;
        let txn = TxnRequest {
            compare: vec![create_revision(key, CompareResult::Equal, 0)],
            success: vec![put_op(key, value.clone(), false)],
            failure: Vec::new(),
        };
        let mut kv = self.kv();
        let response = self.call(kv.txn(txn)).await?;
        if !response.succeeded {
            return Err(StorageError::KeyExists {
                key: key.to_owned(),
            });
        }
        let revision = header_revision(&self.backend, &response)?;
        self.own_writes.record(key, revision);
        Ok(KeyValue {
            key: key.to_owned(),
            value,
            create_revision: revision,
            mod_revision: revision,
        })
    }

    async fn update(
        &self,
        key: &str,
        value: Bytes,
        expected: Revision,
    ) -> Result<KeyValue, StorageError> {
        check_key(key)?;
        let txn = TxnRequest {
            compare: vec![
                mod_revision_is(key, expected),
                // A missing key has mod_revision 0: never let an update create it.
                create_revision(key, CompareResult::Greater, 0),
            ],
            success: vec![put_op(key, value.clone(), true)],
            failure: vec![get_op(key)],
        };
        let mut kv = self.kv();
        let response = self.call(kv.txn(txn)).await?;
        if !response.succeeded {
            return Err(self.conflict_or_missing(key, expected, &response));
        }
        let revision = header_revision(&self.backend, &response)?;
        let create_revision = response
            .responses
            .iter()
            .find_map(|op| match &op.response {
                Some(OpResponse::ResponsePut(put)) => {
                    put.prev_kv.as_ref().map(|prev| prev.create_revision)
                }
                _ => None,
            })
            .ok_or_else(|| unexpected(&self.backend, "an update without the previous key"))?;
        self.own_writes.record(key, revision);
        Ok(KeyValue {
            key: key.to_owned(),
            value,
            create_revision,
            mod_revision: revision,
        })
    }

    async fn delete(&self, key: &str, expected: Option<Revision>) -> Result<Deleted, StorageError> {
        check_key(key)?;
        let txn = TxnRequest {
            compare: expected
                .map(|expected| mod_revision_is(key, expected))
                .into_iter()
                .collect(),
            success: vec![delete_op(key, true)],
            failure: vec![get_op(key)],
        };
        let mut kv = self.kv();
        let response = self.call(kv.txn(txn)).await?;
        if !response.succeeded {
            return Err(self.conflict_or_missing(key, expected.unwrap_or_default(), &response));
        }
        let revision = header_revision(&self.backend, &response)?;
        let prev = response.responses.iter().find_map(|op| match &op.response {
            Some(OpResponse::ResponseDeleteRange(delete)) => delete.prev_kvs.first(),
            _ => None,
        });
        match prev {
            Some(prev) => {
                self.own_writes.record(key, revision);
                Ok(Deleted {
                    prev: convert(&self.backend, prev)?,
                    revision,
                })
            }
            None => Err(StorageError::KeyNotFound {
                key: key.to_owned(),
            }),
        }
    }

    async fn update_at(
        &self,
        key: &str,
        value: Bytes,
        expected: Revision,
    ) -> Result<Revision, StorageError> {
        check_key(key)?;
        let txn = TxnRequest {
            compare: vec![
                mod_revision_is(key, expected),
                create_revision(key, CompareResult::Greater, 0),
            ],
            success: vec![put_op(key, value, false)],
            failure: vec![get_op(key)],
        };
        let mut kv = self.kv();
        let response = self.call(kv.txn(txn)).await?;
        if !response.succeeded {
            return Err(self.conflict_or_missing(key, expected, &response));
        }
        let revision = header_revision(&self.backend, &response)?;
        self.own_writes.record(key, revision);
        Ok(revision)
    }

    async fn delete_at(&self, key: &str, expected: Revision) -> Result<Revision, StorageError> {
        check_key(key)?;
        let txn = TxnRequest {
            compare: vec![mod_revision_is(key, expected)],
            success: vec![delete_op(key, false)],
            failure: vec![get_op(key)],
        };
        let mut kv = self.kv();
        let response = self.call(kv.txn(txn)).await?;
        if !response.succeeded {
            return Err(self.conflict_or_missing(key, expected, &response));
        }
        let deleted = response.responses.iter().any(|op| match &op.response {
            Some(OpResponse::ResponseDeleteRange(delete)) => delete.deleted > 0,
            _ => false,
        });
        // `mod_revision == 0` holds for a missing key: the compare passed, nothing went.
        if !deleted {
            return Err(StorageError::KeyNotFound {
                key: key.to_owned(),
            });
        }
        let revision = header_revision(&self.backend, &response)?;
        self.own_writes.record(key, revision);
        Ok(revision)
    }

    async fn watch(&self, prefix: &str, from: Revision) -> Result<WatchStream, StorageError> {
        self.watch_prefix(prefix, from, true).await
    }

    async fn watch_without_prev(
        &self,
        prefix: &str,
        from: Revision,
    ) -> Result<WatchStream, StorageError> {
        self.watch_prefix(prefix, from, false).await
    }

    async fn current_revision(&self) -> Result<Revision, StorageError> {
        let mut kv = self.kv();
        let response = self
            .call(kv.range(RangeRequest {
                key: Bytes::from_static(b"\0"),
                count_only: true,
                ..Default::default()
            }))
            .await?;
        response
            .header
            .map(|header| header.revision)
            .ok_or_else(|| unexpected(&self.backend, "a range response without a header"))
    }

    fn opened_at(&self) -> Option<Revision> {
        self.opened_at
    }

    fn follow_own_writes(&self, prefix: &str) -> Arc<AtomicI64> {
        self.own_writes.follow(prefix)
    }

    async fn compact(&self, revision: Revision) -> Result<(), StorageError> {
        check_compaction(revision)?;
        let mut kv = self.kv();
        let compaction = CompactionRequest {
            revision,
            physical: false,
        };
        match self.call(kv.compact(compaction)).await {
            Ok(_) => Ok(()),
            Err(error) => Err(self.revision_error(revision, error).await),
        }
    }
}

impl EtcdStorage {
    /// One watch of `prefix` after `from`, with the previous values when `with_prev`.
    async fn watch_prefix(
        &self,
        prefix: &str,
        from: Revision,
        with_prev: bool,
    ) -> Result<WatchStream, StorageError> {
        check_revision("watch", from)?;
        // The whole key space for an empty prefix, as etcd's `WithPrefix`.
        let key = match prefix {
            "" => Bytes::from_static(b"\0"),
            prefix => key_bytes(prefix),
        };
        let create = WatchCreateRequest {
            key,
            range_end: prefix_end(prefix).into(),
            start_revision: if from > 0 { from.saturating_add(1) } else { 0 },
            progress_notify: true,
            prev_kv: with_prev,
            ..Default::default()
        };
        let (stream, close) = self.open_watch(create).await?;
        Ok(Box::pin(EtcdWatch::new(
            stream,
            close,
            self.backend.clone(),
            from,
            with_prev,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_end_is_the_first_key_after_the_prefix() {
        assert_eq!(prefix_end("/registry/pods/"), b"/registry/pods0");
        assert_eq!(prefix_end("a\u{7f}"), b"a\x80");
        assert_eq!(prefix_end(""), b"\0");
    }
}
