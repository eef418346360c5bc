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

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicI64;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use etcd_client::{
    Channel, Client, CompactionOptions, Compare, CompareOp, ConnectOptions, DeleteOptions,
    EventType, GetOptions, PutOptions, Txn, TxnOp, TxnOpResponse, TxnResponse, WatchOptions,
    WatchResponse,
};
use futures_core::Stream;
use tower::util::BoxCloneSyncService;

mod channel;
use channel::DirectChannel;

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
    client: Client,
    /// `etcd http://127.0.0.1:2379,...`, for errors.
    backend: String,
    request_timeout: Duration,
    own_writes: Arc<OwnWrites>,
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
        let client = Client::from_channel(
            Channel::Custom(BoxCloneSyncService::new(channel)),
            Some(ConnectOptions::new()),
        )
        .await
        .map_err(|error| StorageError::InvalidRequest {
            message: format!("cannot use etcd endpoints {}: {error}", names.join(",")),
        })?;
        Ok(EtcdStorage {
            client,
            backend,
            request_timeout,
            own_writes: Arc::default(),
        })
    }

    fn kv(&self) -> etcd_client::KvClient {
        self.client
            .kv_client()
            .max_decoding_message_size(MAX_RECEIVE_BYTES)
    }

    fn watcher(&self) -> etcd_client::WatchClient {
        self.client
            .watch_client()
            .max_decoding_message_size(MAX_RECEIVE_BYTES)
    }

    fn error(&self, error: etcd_client::Error) -> StorageError {
        classify(&self.backend, error)
    }

    /// Runs one request with the request timeout.
    async fn call<T>(
        &self,
        request: impl Future<Output = Result<T, etcd_client::Error>>,
    ) -> Result<T, StorageError> {
        match tokio::time::timeout(self.request_timeout, request).await {
            Ok(result) => result.map_err(|error| self.error(error)),
            Err(_) => Err(StorageError::Unavailable {
                backend: self.backend.clone(),
                message: format!("no answer within {:?}", self.request_timeout),
            }),
        }
    }

    /// The revision etcd's history starts at, learnt the only way etcd tells it: a
    /// watch from revision 1 is refused with the compaction revision.
    async fn compacted_revision(&self) -> Option<Revision> {
        let mut watch_client = self.watcher();
        let options = WatchOptions::new().with_start_revision(1);
        let mut stream = self
            .call(watch_client.watch("\0", Some(options)))
            .await
            .ok()?;
        for _ in 0..2 {
            let response = self.call(stream.message()).await.ok()??;
            if response.compact_revision() != 0 {
                return Some(response.compact_revision());
            }
            if !response.created() {
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
fn classify(backend: &str, error: etcd_client::Error) -> StorageError {
    use etcd_client::Error;
    let unavailable = match &error {
        Error::TransportError(_) | Error::IoError(_) => true,
        Error::GRpcStatus(status) => match status.code() {
            tonic::Code::Unavailable | tonic::Code::DeadlineExceeded | tonic::Code::Cancelled => {
                true
            }
            // A status etcd sent carries its own code; one tonic made up from a broken
            // connection (a reset stream, a closed socket) is `Unknown` with the
            // transport's error as its source.
            tonic::Code::Unknown => std::error::Error::source(status).is_some(),
            _ => false,
        },
        _ => false,
    };
    if let Error::GRpcStatus(status) = &error
        && matches!(
            status.code(),
            tonic::Code::InvalidArgument | tonic::Code::ResourceExhausted
        )
    {
        // etcd's own checks (a request over --max-request-bytes, too many operations)
        // and its gRPC server's message size limit.
        return StorageError::InvalidRequest {
            message: format!("etcd ({backend}) refused the request: {}", status.message()),
        };
    }
    if unavailable {
        StorageError::Unavailable {
            backend: backend.to_owned(),
            message: error.to_string(),
        }
    } else {
        StorageError::Internal {
            backend: backend.to_owned(),
            message: error.to_string(),
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

fn convert(backend: &str, kv: &etcd_client::KeyValue) -> Result<KeyValue, StorageError> {
    let key = std::str::from_utf8(kv.key()).map_err(|_| StorageError::Internal {
        backend: backend.to_owned(),
        message: format!(
            "etcd holds a key that is not UTF-8: {:?}",
            String::from_utf8_lossy(kv.key())
        ),
    })?;
    Ok(KeyValue {
        key: key.to_owned(),
        value: Bytes::copy_from_slice(kv.value()),
        create_revision: kv.create_revision(),
        mod_revision: kv.mod_revision(),
    })
}

fn header_revision(backend: &str, response: &TxnResponse) -> Result<Revision, StorageError> {
    response
        .header()
        .map(|header| header.revision())
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
        for op in response.op_responses() {
            if let TxnOpResponse::Get(get) = op {
                return get
                    .kvs()
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
        let response = self.call(kv.get(key, None)).await?;
        response
            .kvs()
            .first()
            .map(|kv| convert(&self.backend, kv))
            .transpose()
    }

    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError> {
        let start = check_list(prefix, options)?;
        let limit = i64::try_from(options.limit).map_err(|_| StorageError::InvalidRequest {
            message: format!("list limit {} is too large", options.limit),
        })?;
        let mut get = GetOptions::new()
            .with_range(prefix_end(prefix))
            .with_limit(limit);
        if options.revision != 0 {
            get = get.with_revision(options.revision);
        }
        let mut kv = self.kv();
        let response = match self.call(kv.get(start, Some(get))).await {
            Ok(response) => response,
            Err(error) => return Err(self.revision_error(options.revision, error).await),
        };
        let revision = match options.revision {
            0 => response
                .header()
                .map(|header| header.revision())
                .ok_or_else(|| unexpected(&self.backend, "a range response without a header"))?,
            revision => revision,
        };
        let kvs = response
            .kvs()
            .iter()
            .map(|kv| convert(&self.backend, kv))
            .collect::<Result<Vec<_>, _>>()?;
        let remaining = if response.more() {
            response.count() - kvs.len() as i64
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
        let txn = Txn::new()
            .when([Compare::create_revision(key, CompareOp::Equal, 0)])
            .and_then([TxnOp::put(key, value.to_vec(), None)]);
        let mut kv = self.kv();
        let response = self.call(kv.txn(txn)).await?;
        if !response.succeeded() {
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
        let txn = Txn::new()
            .when([
                Compare::mod_revision(key, CompareOp::Equal, expected),
                // A missing key has mod_revision 0: never let an update create it.
                Compare::create_revision(key, CompareOp::Greater, 0),
            ])
            .and_then([TxnOp::put(
                key,
                value.to_vec(),
                Some(PutOptions::new().with_prev_key()),
            )])
            .or_else([TxnOp::get(key, None)]);
        let mut kv = self.kv();
        let response = self.call(kv.txn(txn)).await?;
        if !response.succeeded() {
            return Err(self.conflict_or_missing(key, expected, &response));
        }
        let revision = header_revision(&self.backend, &response)?;
        let create_revision = response
            .op_responses()
            .iter()
            .find_map(|op| match op {
                TxnOpResponse::Put(put) => put.prev_key().map(|prev| prev.create_revision()),
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
        let compares: Vec<Compare> = expected
            .map(|expected| Compare::mod_revision(key, CompareOp::Equal, expected))
            .into_iter()
            .collect();
        let txn = Txn::new()
            .when(compares)
            .and_then([TxnOp::delete(
                key,
                Some(DeleteOptions::new().with_prev_key()),
            )])
            .or_else([TxnOp::get(key, None)]);
        let mut kv = self.kv();
        let response = self.call(kv.txn(txn)).await?;
        if !response.succeeded() {
            return Err(self.conflict_or_missing(key, expected.unwrap_or_default(), &response));
        }
        let revision = header_revision(&self.backend, &response)?;
        let prev = response.op_responses().iter().find_map(|op| match op {
            TxnOpResponse::Delete(delete) => delete.prev_kvs().first().cloned(),
            _ => None,
        });
        match prev {
            Some(prev) => {
                self.own_writes.record(key, revision);
                Ok(Deleted {
                    prev: convert(&self.backend, &prev)?,
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
        let txn = Txn::new()
            .when([
                Compare::mod_revision(key, CompareOp::Equal, expected),
                Compare::create_revision(key, CompareOp::Greater, 0),
            ])
            .and_then([TxnOp::put(key, value.to_vec(), None)])
            .or_else([TxnOp::get(key, None)]);
        let mut kv = self.kv();
        let response = self.call(kv.txn(txn)).await?;
        if !response.succeeded() {
            return Err(self.conflict_or_missing(key, expected, &response));
        }
        let revision = header_revision(&self.backend, &response)?;
        self.own_writes.record(key, revision);
        Ok(revision)
    }

    async fn delete_at(&self, key: &str, expected: Revision) -> Result<Revision, StorageError> {
        check_key(key)?;
        let txn = Txn::new()
            .when([Compare::mod_revision(key, CompareOp::Equal, expected)])
            .and_then([TxnOp::delete(key, None)])
            .or_else([TxnOp::get(key, None)]);
        let mut kv = self.kv();
        let response = self.call(kv.txn(txn)).await?;
        if !response.succeeded() {
            return Err(self.conflict_or_missing(key, expected, &response));
        }
        let deleted = response.op_responses().iter().any(|op| match op {
            TxnOpResponse::Delete(delete) => delete.deleted() > 0,
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
            .call(kv.get("\0", Some(GetOptions::new().with_count_only())))
            .await?;
        response
            .header()
            .map(|header| header.revision())
            .ok_or_else(|| unexpected(&self.backend, "a range response without a header"))
    }

    fn follow_own_writes(&self, prefix: &str) -> Arc<AtomicI64> {
        self.own_writes.follow(prefix)
    }

    async fn compact(&self, revision: Revision) -> Result<(), StorageError> {
        check_compaction(revision)?;
        let mut kv = self.kv();
        match self
            .call(kv.compact(revision, Some(CompactionOptions::new())))
            .await
        {
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
        let mut options = WatchOptions::new().with_prefix().with_progress_notify();
        if with_prev {
            options = options.with_prev_key();
        }
        if from > 0 {
            options = options.with_start_revision(from.saturating_add(1));
        }
        let mut watch_client = self.watcher();
        let stream = self.call(watch_client.watch(prefix, Some(options))).await?;
        Ok(Box::pin(EtcdWatch {
            stream,
            pending: VecDeque::new(),
            backend: self.backend.clone(),
            from,
            with_prev,
            finished: false,
        }))
    }
}

/// One etcd watch as a stream of our events.
struct EtcdWatch {
    stream: etcd_client::WatchStream,
    /// Events of the last response not yet handed out.
    pending: VecDeque<Result<WatchEvent, StorageError>>,
    backend: String,
    from: Revision,
    /// Whether etcd was asked for the previous values.
    with_prev: bool,
    finished: bool,
}

impl EtcdWatch {
    /// The events of one response; an error item ends the stream.
    fn events_of(&mut self, response: &WatchResponse) {
        if response.compact_revision() != 0 {
            self.pending.push_back(Err(StorageError::Compacted {
                requested: self.from,
                compacted: response.compact_revision(),
            }));
            return;
        }
        if response.canceled() {
            self.pending.push_back(Err(StorageError::Internal {
                backend: self.backend.clone(),
                message: format!("etcd cancelled the watch: {}", response.cancel_reason()),
            }));
            return;
        }
        if response.events().is_empty() {
            // The creation answer says nothing about what is delivered (the history
            // replay follows it); an empty answer after it is a progress notification.
            if !response.created()
                && let Some(header) = response.header()
            {
                self.pending.push_back(Ok(WatchEvent::Progress {
                    revision: header.revision(),
                }));
            }
            return;
        }
        for event in response.events() {
            let item = self.event(event);
            let failed = item.is_err();
            self.pending.push_back(item);
            if failed {
                return;
            }
        }
    }

    fn event(&self, event: &etcd_client::Event) -> Result<WatchEvent, StorageError> {
        let kv = event
            .kv()
            .ok_or_else(|| unexpected(&self.backend, "a watch event without its key"))?;
        let prev = event
            .prev_kv()
            .map(|prev| convert(&self.backend, prev))
            .transpose()?;
        match event.event_type() {
            EventType::Put => Ok(WatchEvent::Put {
                kv: convert(&self.backend, kv)?,
                prev,
            }),
            EventType::Delete if prev.is_none() && self.with_prev => Err(unexpected(
                &self.backend,
                "a deletion event without the previous key (compacted away)",
            )),
            EventType::Delete => Ok(WatchEvent::Delete {
                // etcd's deletion event holds the key alone (no value).
                key: convert(&self.backend, kv)?.key,
                prev,
                revision: kv.mod_revision(),
            }),
        }
    }
}

impl Stream for EtcdWatch {
    type Item = Result<WatchEvent, StorageError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(item) = this.pending.pop_front() {
                if item.is_err() {
                    this.finished = true;
                    this.pending.clear();
                }
                return Poll::Ready(Some(item));
            }
            if this.finished {
                return Poll::Ready(None);
            }
            match Pin::new(&mut this.stream).poll_next(cx) {
                Poll::Ready(Some(Ok(response))) => this.events_of(&response),
                Poll::Ready(Some(Err(error))) => {
                    this.pending.push_back(Err(classify(&this.backend, error)));
                }
                Poll::Ready(None) => {
                    // etcd closed the stream: the caller must know its watch is over.
                    this.pending.push_back(Err(StorageError::Unavailable {
                        backend: this.backend.clone(),
                        message: "etcd closed the watch stream".to_owned(),
                    }));
                }
                Poll::Pending => return Poll::Pending,
            }
        }
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
