//! Why a run could not be carried out (as opposed to what it found: a run that finds a
//! violation has succeeded).

/// A run's setup, a fault or a teardown step failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or process operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A command ran and failed.
    #[error("`{command}` failed: {output}")]
    Command {
        /// The command line.
        command: String,
        /// Its standard error, or its exit status.
        output: String,
    },
    /// Something the run needs did not happen in time, or is missing.
    #[error("{0}")]
    Setup(String),
    /// Certificates could not be made.
    #[error("certificates: {0}")]
    Certificates(#[from] rcgen::Error),
    /// A client could not be built.
    #[error(transparent)]
    Client(#[from] crate::client::ClientError),
}

impl Error {
    /// An [`Error::Io`] saying what was being done.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let what = what.into();
        move |source| Error::Io { what, source }
    }
}
