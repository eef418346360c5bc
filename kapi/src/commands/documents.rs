//! Splitting one input into the documents `convert` and `deprecations` read: JSON values one after
//! another, YAML documents between `---` lines, or one Kubernetes protobuf object (the
//! `k8s\0` envelope, as Go writes a `.pb` file or a protobuf response body).

use apimachinery::proto::MAGIC;
use apimachinery::serializer::yaml::YamlDocuments;
use apimachinery::serializer::{Format, recognize, split_json_stream};

/// One document of an input, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Document<'a> {
    /// JSON or YAML text.
    Text(&'a str),
    /// An enveloped protobuf object.
    Protobuf(&'a [u8]),
}

/// The documents of `data` with their 0-based indexes; documents with nothing but
/// comments are skipped, as kubectl skips them. A document that cannot be split off is an
/// error at its index; the others are still returned.
pub fn documents(data: &[u8]) -> Vec<(usize, Result<Document<'_>, String>)> {
    if data.starts_with(MAGIC) {
        return vec![(0, Ok(Document::Protobuf(data)))];
    }
    if recognize(data) == Format::Json {
        return split_json_stream(data)
            .enumerate()
            .map(|(i, doc)| match doc {
                Ok((index, bytes)) => (
                    index,
                    std::str::from_utf8(bytes)
                        .map(Document::Text)
                        .map_err(|e| format!("invalid UTF-8: {e}")),
                ),
                // The caller names the document; the error's own prefix would repeat it.
                Err(e) => {
                    let message = e.to_string();
                    let prefix = format!("document {i}: ");
                    let message = message.strip_prefix(&prefix).unwrap_or(&message);
                    (i, Err(with_template_hint(data, message)))
                }
            })
            .collect();
    }
    let text = match std::str::from_utf8(data) {
        Ok(text) => text,
        Err(e) => {
            return vec![(
                0,
                Err(format!("invalid UTF-8 after byte {}", e.valid_up_to())),
            )];
        }
    };
    let mut out = Vec::new();
    for (i, doc) in YamlDocuments::new(text).enumerate() {
        match doc {
            Ok(d) if is_blank(d.text) => {}
            Ok(d) => out.push((d.index, Ok(Document::Text(d.text)))),
            Err(e) => out.push((i, Err(with_template_hint(data, &e.to_string())))),
        }
    }
    out
}

/// `message`, with a hint when the input looks like a template (Helm's `{{ ... }}`),
/// which is not YAML until rendered.
pub fn with_template_hint(data: &[u8], message: &str) -> String {
    if data.windows(2).any(|w| w == b"{{") {
        format!(
            "{message} (a template? render it first, e.g. `helm template CHART | kapi deprecations -f -`)"
        )
    } else {
        message.to_owned()
    }
}

fn is_blank(text: &str) -> bool {
    text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#') || l == "---" || l == "..."
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_streams_skip_comment_only_documents_and_keep_indexes() {
        let docs = documents(b"# header\n---\na: 1\n---\nb: 2\n");
        let texts: Vec<(usize, Document<'_>)> = docs
            .into_iter()
            .map(|(i, d)| (i, d.unwrap_or(Document::Text("error"))))
            .collect();
        assert_eq!(
            texts,
            [(1, Document::Text("a: 1\n")), (2, Document::Text("b: 2\n"))]
        );
    }

    #[test]
    fn protobuf_is_one_document_and_json_streams_split() {
        let pb = b"k8s\0\x0a\x00";
        assert_eq!(documents(pb), [(0, Ok(Document::Protobuf(pb)))]);
        let docs = documents(b"{\"a\":1}\n{\"b\":2}");
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1], (1, Ok(Document::Text("{\"b\":2}"))));
    }

    #[test]
    fn invalid_utf8_is_an_error_at_document_zero() {
        let docs = documents(b"a: \xff\n");
        assert!(matches!(&docs[..], [(0, Err(e))] if e.contains("UTF-8")));
    }
}
