//! Go's `json.Indent` with no prefix (what `json.MarshalIndent` adds to `json.Marshal`):
//! a JSON document's tokens kept byte for byte, each member and element on its own line,
//! `": "` after keys, `{}` and `[]` when empty, no final newline. For re-indenting a
//! compact answer as Go's pretty serializer writes it (two spaces), or as kubectl prints
//! JSON (four).

/// `document` indented by two spaces, as Go's pretty serializer
/// (`json.MarshalIndent(obj, "", "  ")`) writes it.
pub fn indent(document: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(document.len() + document.len() / 2);
    indent_into(document, b"  ", &mut out);
    out
}

/// `document` indented by `unit` per level, appended to `out`. The whitespace between
/// tokens is replaced (trailing whitespace dropped), the tokens (strings with their
/// escapes, numbers) are kept as they are; the input is assumed to be JSON (an invalid
/// document comes out re-spaced, not checked).
pub fn indent_into(document: &[u8], unit: &[u8], out: &mut Vec<u8>) {
    let mut depth = 0usize;
    // An opening bracket waits for its first member before breaking the line, so that
    // an empty object or list stays `{}` or `[]`.
    let mut opened = false;
    let mut in_string = false;
    let mut escaped = false;
    let newline = |out: &mut Vec<u8>, depth: usize| {
        out.push(b'\n');
        for _ in 0..depth {
            out.extend_from_slice(unit);
        }
    };
    for &c in document {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
            continue;
        }
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            continue;
        }
        if opened && c != b'}' && c != b']' {
            opened = false;
            depth += 1;
            newline(out, depth);
        }
        match c {
            b'{' | b'[' => {
                opened = true;
                out.push(c);
            }
            b',' => {
                out.push(c);
                newline(out, depth);
            }
            b':' => out.extend_from_slice(b": "),
            b'}' | b']' => {
                if opened {
                    opened = false;
                } else {
                    depth = depth.saturating_sub(1);
                    newline(out, depth);
                }
                out.push(c);
            }
            b'"' => {
                in_string = true;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::indent;

    fn text(document: &str) -> String {
        String::from_utf8(indent(document.as_bytes())).unwrap_or_default()
    }

    #[test]
    fn members_and_elements_go_on_their_own_lines() {
        assert_eq!(
            text("{\"kind\":\"Status\",\"metadata\":{},\"items\":[1,{\"a\":[]}]}\n"),
            "{\n  \"kind\": \"Status\",\n  \"metadata\": {},\n  \"items\": [\n    1,\n    {\n      \"a\": []\n    }\n  ]\n}"
        );
    }

    #[test]
    fn strings_keep_their_bytes_and_an_indented_document_stays_as_it_is() {
        let compact = "{\"a\":\"x, {y}: \\\"z\\\\\",\"b\":\"\\u003c\"}";
        let pretty = text(compact);
        assert_eq!(
            pretty,
            "{\n  \"a\": \"x, {y}: \\\"z\\\\\",\n  \"b\": \"\\u003c\"\n}"
        );
        assert_eq!(text(&pretty), pretty);
        assert_eq!(text("[]"), "[]");
        assert_eq!(text("\"top\""), "\"top\"");
    }

    #[test]
    fn kubectl_s_four_spaces() {
        let mut out = Vec::new();
        super::indent_into(
            br#"{"a":{},"b":[],"c":[1,{"d":"x,:{}\"]"}],"e":null}"#,
            b"    ",
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap_or_default(),
            "{\n    \"a\": {},\n    \"b\": [],\n    \"c\": [\n        1,\n        {\n            \"d\": \"x,:{}\\\"]\"\n        }\n    ],\n    \"e\": null\n}"
        );
    }
}
