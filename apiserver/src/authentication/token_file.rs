//! Static bearer tokens from a CSV file (Go's `authentication/token/tokenfile`,
//! kube-apiserver's `--token-auth-file`): one `token,user,uid[,"group1,group2"]` record
//! a line.
//!
//! ```
//! use apiserver::authentication::token_file::TokenFile;
//!
//! let file = TokenFile::parse("tokens.csv", "s3cret,alice,1001,\"dev,ops\"\n")?;
//! assert_eq!(file.len(), 1);
//! # Ok::<(), apiserver::authentication::token_file::TokenFileError>(())
//! ```

use std::collections::HashMap;
use std::path::Path;

use super::AuthenticationError;
use super::bearer_token::TokenAuthenticator;
use super::user::Info;

/// Why a token file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TokenFileError {
    /// The file could not be read.
    #[error("token file '{path}': {source}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A line is not CSV (an unterminated quote, say).
    #[error("token file '{path}', line {line}: {message}")]
    Csv {
        /// The file.
        path: String,
        /// The line, from 1.
        line: u64,
        /// What the CSV reader said.
        message: String,
    },
    /// A record has fewer than three fields.
    #[error(
        "token file '{path}', line {line}: must have at least 3 columns (token, user name, user uid), found {found}"
    )]
    Columns {
        /// The file.
        path: String,
        /// The line, from 1.
        line: u64,
        /// How many fields it has.
        found: usize,
    },
}

/// The tokens of a token file, each with its user.
#[derive(Clone, Default)]
pub struct TokenFile {
    tokens: HashMap<String, Info>,
    warnings: Vec<String>,
}

/// Never prints the tokens themselves.
impl std::fmt::Debug for TokenFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenFile")
            .field("tokens", &self.tokens.len())
            .finish()
    }
}

impl TokenFile {
    /// Reads the token file at `path`.
    pub fn load(path: &Path) -> Result<TokenFile, TokenFileError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| TokenFileError::Read {
            path: name.clone(),
            source,
        })?;
        TokenFile::parse(&name, &text)
    }

    /// Reads a token file's `text`; `path` names it in errors and warnings. As Go: a
    /// record with an empty token is skipped with a warning, a repeated token is a
    /// warning and the later record wins, groups are split at commas.
    pub fn parse(path: &str, text: &str) -> Result<TokenFile, TokenFileError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut file = TokenFile::default();
        for record in reader.records() {
            let record = record.map_err(|e| TokenFileError::Csv {
                path: path.to_owned(),
                line: e.position().map_or(0, |p| p.line()),
                message: match e.kind() {
                    csv::ErrorKind::Utf8 { err, .. } => err.to_string(),
                    _ => e.to_string(),
                },
            })?;
            let line = record.position().map_or(0, |p| p.line());
            if record.len() < 3 {
                return Err(TokenFileError::Columns {
                    path: path.to_owned(),
                    line,
                    found: record.len(),
                });
            }
            let token = &record[0];
            if token.is_empty() {
                file.warnings.push(format!(
                    "empty token has been found in token file '{path}', line {line}"
                ));
                continue;
            }
            let groups = match record.get(3) {
                Some(g) => g.split(',').map(|g| g.trim().to_owned()).collect(),
                None => Vec::new(),
            };
            let user = Info {
                name: record[1].to_owned(),
                uid: record[2].to_owned(),
                groups,
                ..Info::default()
            };
            if file.tokens.insert(token.to_owned(), user).is_some() {
                file.warnings.push(format!(
                    "duplicate token has been found in token file '{path}', line {line}"
                ));
            }
        }
        Ok(file)
    }

    /// How many tokens it holds.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether it holds no token.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// What reading it warned about (empty and repeated tokens), to be logged.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Adds one token (a program's own, such as an admin token it hands out).
    pub fn insert(&mut self, token: impl Into<String>, user: Info) {
        self.tokens.insert(token.into(), user);
    }
}

#[async_trait::async_trait]
impl TokenAuthenticator for TokenFile {
    async fn authenticate_token(&self, token: &str) -> Result<Option<Info>, AuthenticationError> {
        Ok(self.tokens.get(token).cloned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn records_give_users_with_uid_and_quoted_groups() {
        let file = TokenFile::parse("t.csv", "abc,alice,1001,\"dev,ops\"\nxyz,bob,1002\n").unwrap();
        let alice = file.authenticate_token("abc").await.unwrap().unwrap();
        assert_eq!(alice.name, "alice");
        assert_eq!(alice.uid, "1001");
        assert_eq!(alice.groups, ["dev", "ops"]);
        let bob = file.authenticate_token("xyz").await.unwrap().unwrap();
        assert!(bob.groups.is_empty());
        assert!(file.authenticate_token("nope").await.unwrap().is_none());
        assert!(format!("{file:?}").contains("tokens: 2") && !format!("{file:?}").contains("abc"));
    }

    #[test]
    fn a_short_record_names_file_and_line() {
        let err = TokenFile::parse("/etc/tokens.csv", "abc,alice,1\nxyz,bob\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "token file '/etc/tokens.csv', line 2: must have at least 3 columns (token, user name, user uid), found 2"
        );
    }

    #[tokio::test]
    async fn empty_and_repeated_tokens_are_warned_about_and_the_later_wins() {
        let file = TokenFile::parse("t.csv", ",nobody,0\nabc,alice,1\nabc,carol,3\n").unwrap();
        assert_eq!(file.len(), 1);
        assert_eq!(
            file.warnings(),
            [
                "empty token has been found in token file 't.csv', line 1",
                "duplicate token has been found in token file 't.csv', line 3"
            ]
        );
        let user = file.authenticate_token("abc").await.unwrap().unwrap();
        assert_eq!(user.name, "carol");
    }
}
