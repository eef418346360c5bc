//! kubectl's printers for a stream of encoded objects: YAML documents separated by
//! `---` lines (kubectl's `YAMLPrinter`), JSON indented by four spaces (its
//! `JSONPrinter`, Go's `json.MarshalIndent(obj, "", "    ")`), one object after another.

use apimachinery::util::json::indent_into as indent_json;

use crate::cli::ConvertOutput;

/// The documents (each as its encoder wrote it: Go's YAML, or compact JSON) as kubectl
/// prints them; other formats are concatenated.
pub fn join(docs: &[Vec<u8>], format: ConvertOutput) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, doc) in docs.iter().enumerate() {
        match format {
            ConvertOutput::Yaml => {
                if i > 0 {
                    out.extend_from_slice(b"---\n");
                }
                out.extend_from_slice(doc);
            }
            ConvertOutput::Json => {
                indent_json(doc, b"    ", &mut out);
                out.push(b'\n');
            }
            ConvertOutput::Protobuf | ConvertOutput::Name => out.extend_from_slice(doc),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_documents_are_separated_by_dashes() {
        let docs = vec![b"a: 1\n".to_vec(), b"b: 2\n".to_vec()];
        assert_eq!(join(&docs, ConvertOutput::Yaml), b"a: 1\n---\nb: 2\n");
        let docs = vec![b"{\"a\":1}\n".to_vec()];
        assert_eq!(join(&docs, ConvertOutput::Json), b"{\n    \"a\": 1\n}\n");
    }
}
