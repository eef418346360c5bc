//! The checks every backend makes on a request before it reaches its store, so that bad
//! input (from a client's `resourceVersion` or `continue` token, through the server) gets
//! the same [`StorageError::InvalidRequest`] from each of them.

use super::{ListOptions, Revision, StorageError};

/// A key must not be empty (etcd refuses empty keys).
pub(crate) fn check_key(key: &str) -> Result<(), StorageError> {
    if key.is_empty() {
        return Err(StorageError::InvalidRequest {
            message: "the key is empty".to_owned(),
        });
    }
    Ok(())
}

/// A revision to read or watch at: 0 (the current one) or a positive revision.
pub(crate) fn check_revision(what: &str, revision: Revision) -> Result<(), StorageError> {
    if revision < 0 {
        return Err(StorageError::InvalidRequest {
            message: format!("{what} at revision {revision}: revisions are not negative"),
        });
    }
    Ok(())
}

/// A compaction names a positive revision.
pub(crate) fn check_compaction(revision: Revision) -> Result<(), StorageError> {
    if revision <= 0 {
        return Err(StorageError::InvalidRequest {
            message: format!("compaction at revision {revision}: revisions start at 1"),
        });
    }
    Ok(())
}

/// A list's revision and start key; the key the range starts at.
pub(crate) fn check_list<'a>(
    prefix: &'a str,
    options: &'a ListOptions,
) -> Result<&'a str, StorageError> {
    check_revision("list", options.revision)?;
    match &options.start_key {
        Some(start) if !start.starts_with(prefix) => Err(StorageError::InvalidRequest {
            message: format!("start key {start:?} is outside the prefix {prefix:?}"),
        }),
        Some(start) => Ok(start),
        None => Ok(prefix),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_requests_are_named() {
        assert!(check_key("").is_err());
        assert!(check_key("/a").is_ok());
        assert!(check_revision("watch", -1).is_err());
        assert!(check_revision("watch", 0).is_ok());
        assert!(check_compaction(0).is_err());
        let options = ListOptions {
            start_key: Some("/b/x".to_owned()),
            ..Default::default()
        };
        match check_list("/a/", &options) {
            Err(StorageError::InvalidRequest { message }) => {
                assert!(
                    message.contains("/b/x") && message.contains("/a/"),
                    "{message}"
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(check_list("/a/", &ListOptions::default()).ok(), Some("/a/"));
    }
}
