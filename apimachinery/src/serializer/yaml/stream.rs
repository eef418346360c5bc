//! [`YamlDocuments`]: a multi-document YAML stream split as Go's `YAMLReader`
//! (`k8s.io/apimachinery/pkg/util/yaml`) splits it.

use super::document::YamlDocument;
use super::error::{YamlError, YamlErrorKind};
use super::loader::load;

/// One document of a stream, still text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawDocument<'a> {
    /// 0-based index of the document in the stream.
    pub index: usize,
    /// 1-based line of the stream the document's text starts on.
    pub line: usize,
    /// The document's text, separator lines excluded.
    pub text: &'a str,
}

impl RawDocument<'_> {
    /// Reads the document as [`yaml_to_json`](super::yaml_to_json) does; errors and
    /// [`YamlDocument::position`] carry the document index and lines of the stream.
    pub fn parse(&self) -> Result<YamlDocument, YamlError> {
        let (value, duplicates) =
            load(self.text).map_err(|e| e.in_document(self.index, self.line))?;
        let duplicates = duplicates
            .into_iter()
            .map(|mut d| {
                d.line += self.line.saturating_sub(1);
                d
            })
            .collect();
        Ok(YamlDocument::new(value, duplicates, self.text, self.line))
    }
}

/// The documents of a YAML stream, split where Go's `YAMLReader` splits them: at lines
/// that start with `---`, which may be followed only by spaces or a `# comment` (any
/// other text after `---` is an [`InvalidDocumentSeparator`] error, as in Go). A
/// leading `---` starts no empty document, and neither do two separators in a row;
/// documents holding only comments or blank lines are yielded (they read as `null`,
/// which `kubectl` skips). `...` lines are left to the YAML parser.
///
/// [`InvalidDocumentSeparator`]: YamlErrorKind::InvalidDocumentSeparator
///
/// ```
/// use apimachinery::serializer::yaml::YamlDocuments;
///
/// let stream = "---\nkind: A\n---  # next\nkind: B\n";
/// let docs: Vec<_> = YamlDocuments::new(stream).collect::<Result<_, _>>()?;
/// assert_eq!(docs.len(), 2);
/// assert_eq!((docs[1].index, docs[1].line, docs[1].text), (1, 4, "kind: B\n"));
/// assert_eq!(docs[1].parse()?.value["kind"], "B");
/// # Ok::<(), apimachinery::serializer::yaml::YamlError>(())
/// ```
#[derive(Debug, Clone)]
pub struct YamlDocuments<'a> {
    rest: &'a str,
    line: usize,
    index: usize,
    failed: bool,
}

impl<'a> YamlDocuments<'a> {
    /// Splits `input`.
    pub fn new(input: &'a str) -> Self {
        YamlDocuments {
            rest: input,
            line: 1,
            index: 0,
            failed: false,
        }
    }

    /// Reads every document, stopping at the first error.
    pub fn parse_all(self) -> Result<Vec<YamlDocument>, YamlError> {
        self.map(|raw| raw.and_then(|raw| raw.parse())).collect()
    }
}

impl<'a> Iterator for YamlDocuments<'a> {
    type Item = Result<RawDocument<'a>, YamlError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let input = self.rest;
        let mut start = 0;
        let mut start_line = self.line;
        let mut pos = 0;
        while pos < input.len() {
            let end = input[pos..].find('\n').map_or(input.len(), |i| pos + i + 1);
            let line = &input[pos..end];
            if let Some(after) = line.strip_prefix("---") {
                let rest = after.trim();
                if !rest.is_empty() && !rest.starts_with('#') {
                    self.failed = true;
                    let column = 4 + after.len() - after.trim_start().len();
                    return Some(Err(YamlError::new(
                        YamlErrorKind::InvalidDocumentSeparator {
                            rest: rest.to_owned(),
                        },
                    )
                    .at(self.line, column)
                    .in_document(self.index, 1)));
                }
                self.line += 1;
                if pos > start {
                    self.rest = &input[end..];
                    return Some(Ok(self.emit(&input[start..pos], start_line)));
                }
                start = end;
                start_line = self.line;
            } else {
                self.line += 1;
            }
            pos = end;
        }
        self.rest = "";
        if start < input.len() {
            return Some(Ok(self.emit(&input[start..], start_line)));
        }
        None
    }
}

impl<'a> YamlDocuments<'a> {
    fn emit(&mut self, text: &'a str, line: usize) -> RawDocument<'a> {
        let doc = RawDocument {
            index: self.index,
            line,
            text,
        };
        self.index += 1;
        doc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(input: &str) -> Vec<(usize, usize, &str)> {
        YamlDocuments::new(input)
            .map(|d| d.map(|d| (d.index, d.line, d.text)))
            .collect::<Result<_, _>>()
            .unwrap_or_default()
    }

    #[test]
    fn splits_as_go_yaml_reader() {
        assert_eq!(split(""), vec![]);
        assert_eq!(split("a: 1"), vec![(0, 1, "a: 1")]);
        assert_eq!(split("---\na: 1\n"), vec![(0, 2, "a: 1\n")]);
        assert_eq!(
            split("a: 1\n---\n---\nb: 2\n--- # c\n\n"),
            vec![(0, 1, "a: 1\n"), (1, 4, "b: 2\n"), (2, 6, "\n")]
        );
        assert_eq!(split("a: |\n  ---x\n"), vec![(0, 1, "a: |\n  ---x\n")]);
        assert_eq!(
            split("a: 1\r\n---\r\nb: 2"),
            vec![(0, 1, "a: 1\r\n"), (1, 3, "b: 2")]
        );
        assert_eq!(
            split("a: 1\n...\n---\nb: 2"),
            vec![(0, 1, "a: 1\n...\n"), (1, 4, "b: 2")]
        );
    }

    #[test]
    fn rejects_text_after_a_separator_with_its_position() {
        // Go's reader fails on the separator line, dropping the document before it.
        let mut docs = YamlDocuments::new("a: 1\n--- b: 2\n");
        let err = match docs.next() {
            Some(Err(e)) => e,
            other => panic!("want an error, got {other:?}"),
        };
        assert_eq!(
            err.kind(),
            &YamlErrorKind::InvalidDocumentSeparator {
                rest: "b: 2".into()
            }
        );
        assert_eq!(
            (err.line(), err.column(), err.document_index()),
            (Some(2), Some(5), Some(0))
        );
        assert!(docs.next().is_none());
        assert!(
            YamlDocuments::new("----\n")
                .next()
                .is_some_and(|r| r.is_err())
        );
    }

    #[test]
    fn parse_errors_carry_stream_lines_and_index() {
        let docs = YamlDocuments::new("a: 1\n---\nb: 2\nc: [\n").parse_all();
        let err = docs.err().unwrap_or_else(|| panic!("want an error"));
        assert_eq!(err.document_index(), Some(1));
        assert!(err.line().is_some_and(|l| l >= 4), "{err}");
    }
}
