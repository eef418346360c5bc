//! kube-apiserver's versioned REST handling as a library, with the package map of Go's
//! `k8s.io/apiserver`.
//!
//! | module | Go package | what it holds |
//! | --- | --- | --- |
//! | [`storage`] | `storage`, `storage/etcd3` | the revisioned key-value [`Storage`](storage::Storage) every resource is kept in, and its backends: [`MemoryStorage`](storage::MemoryStorage), [`RedbStorage`](storage::RedbStorage) (a file), [`EtcdStorage`](storage::EtcdStorage) |
#![forbid(unsafe_code)]

pub mod storage;
