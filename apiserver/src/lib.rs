//! kube-apiserver's versioned REST handling as a library, with the package map of Go's
//! `k8s.io/apiserver`.
//!
//! | module | Go package | what it holds |
//! | --- | --- | --- |
//! | [`openapi`] | `k8s.io/kube-openapi` `handler3`, `handler` | the OpenAPI v3 documents (index and one per web service) and the v2 document, as served |
//! | [`storage`] | `storage`, `storage/etcd3` | the revisioned key-value [`Storage`](storage::Storage) every resource is kept in, and its backends: [`MemoryStorage`](storage::MemoryStorage), [`RedbStorage`](storage::RedbStorage) (a file), [`EtcdStorage`](storage::EtcdStorage) |
#![forbid(unsafe_code)]

pub mod openapi;
pub mod storage;
