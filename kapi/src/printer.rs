//! kubectl's printers for a stream of encoded objects: YAML documents separated by
//! `---` lines (kubectl's `YAMLPrinter`), JSON indented by four spaces (its
//! `JSONPrinter`, Go's `json.MarshalIndent(obj, "", "    ")`), one object after another.

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

/// Re-indents compact JSON as Go's `json.Indent` does: one member or element per line,
/// `": "` after keys, empty objects and arrays kept as `{}` and `[]`. Strings are copied
/// byte for byte, escapes included, so Go's escaping survives. Trailing whitespace of the
/// input is dropped.
pub fn indent_json(compact: &[u8], indent: &[u8], out: &mut Vec<u8>) {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    // An opening bracket waits for its first content to know whether it is empty.
    let mut pending_open = false;
    let newline = |out: &mut Vec<u8>, depth: usize| {
        out.push(b'\n');
        for _ in 0..depth {
            out.extend_from_slice(indent);
        }
    };
    for &b in compact {
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        if b.is_ascii_whitespace() {
            continue;
        }
        if pending_open {
            pending_open = false;
            if b == b'}' || b == b']' {
                depth = depth.saturating_sub(1);
                out.push(b);
                continue;
            }
            newline(out, depth);
        }
        match b {
            b'{' | b'[' => {
                out.push(b);
                depth += 1;
                pending_open = true;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline(out, depth);
                out.push(b);
            }
            b',' => {
                out.push(b);
                newline(out, depth);
            }
            b':' => out.extend_from_slice(b": "),
            b'"' => {
                in_string = true;
                out.push(b);
            }
            _ => out.push(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn indent(s: &str) -> String {
        let mut out = Vec::new();
        indent_json(s.as_bytes(), b"    ", &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn indents_as_go_marshal_indent() {
        assert_eq!(
            indent(r#"{"a":{},"b":[],"c":[1,{"d":"x,:{}\"]"}],"e":null}"#),
            "{\n    \"a\": {},\n    \"b\": [],\n    \"c\": [\n        1,\n        {\n            \"d\": \"x,:{}\\\"]\"\n        }\n    ],\n    \"e\": null\n}"
        );
        assert_eq!(indent("{}\n"), "{}");
    }

    #[test]
    fn yaml_documents_are_separated_by_dashes() {
        let docs = vec![b"a: 1\n".to_vec(), b"b: 2\n".to_vec()];
        assert_eq!(join(&docs, ConvertOutput::Yaml), b"a: 1\n---\nb: 2\n");
        let docs = vec![b"{\"a\":1}\n".to_vec()];
        assert_eq!(join(&docs, ConvertOutput::Json), b"{\n    \"a\": 1\n}\n");
    }
}
