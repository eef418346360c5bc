//! A JSON document read as `go.yaml.in/yaml/v3` reads it into a `yaml.Node` tree, which
//! is what gnostic walks: mappings keep their keys in document order (duplicates too),
//! and every scalar carries the tag YAML resolves for it: a JSON string is a quoted
//! scalar, so `!!str`; a number, `true`, `false` or `null` is a plain one, tagged by
//! [`resolve`](super::resolve::resolve) from its text, which is kept as written (`1.50`
//! stays `1.50`, as gnostic's YAML text of it does).

use super::Error;
use super::resolve::{Tag, resolve};

/// Deepest nesting read. yaml.v3 allows 10000; a walk that deep would not fit the
/// stack of a server thread, and OpenAPI documents (custom resources' schemas too)
/// nest a few dozen levels.
const MAX_DEPTH: usize = 256;

/// What a node is, as `yaml.Kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// A mapping: `content` holds key, value, key, value, ...
    Mapping,
    /// A sequence: `content` holds the items.
    Sequence,
    /// A scalar: `value` and `tag`.
    Scalar,
}

/// One node: yaml.v3's `Node` with the fields gnostic reads.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Node {
    /// Mapping, sequence or scalar.
    pub kind: Kind,
    /// A scalar's resolved tag (`Tag::Map` and `Tag::Seq` for the others).
    pub tag: Tag,
    /// A scalar's text: a string's unescaped value, a number's JSON text.
    pub value: String,
    /// A mapping's keys and values, alternating, or a sequence's items.
    pub content: Vec<Node>,
}

impl Node {
    /// A scalar of `value` tagged `tag`.
    pub fn scalar(value: impl Into<String>, tag: Tag) -> Node {
        Node {
            kind: Kind::Scalar,
            tag,
            value: value.into(),
            content: Vec::new(),
        }
    }

    /// The value of the first `key` of a mapping (`compiler.MapValueForKey`): `None`
    /// for a missing key and for any node that is not a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        if self.kind != Kind::Mapping {
            return None;
        }
        self.content
            .chunks(2)
            .find(|pair| pair[0].value == key)
            .and_then(|pair| pair.get(1))
    }

    /// The key, value pairs of the content, as gnostic's generated loops step over it
    /// (`for i := 0; i < len(m.Content); i += 2`), whatever the node's kind.
    pub fn pairs(&self) -> impl Iterator<Item = (&Node, Option<&Node>)> {
        self.content.chunks(2).map(|pair| (&pair[0], pair.get(1)))
    }
}

/// Reads a JSON document into nodes, refusing what yaml.v3 refuses of JSON text too:
/// bytes that are not UTF-8, characters YAML does not allow in a stream (C0 and C1
/// controls but tab, line feed, carriage return and NEL; U+FFFE, U+FFFF), the escape
/// `\/` and escaped surrogates (Go's `json.Marshal` writes neither).
pub(super) fn parse(json: &[u8]) -> Result<Node, Error> {
    let text = std::str::from_utf8(json).map_err(|e| Error(format!("not UTF-8: {e}")))?;
    if let Some(c) = text.chars().find(|&c| !allowed_in_yaml(c)) {
        return Err(Error(format!("control character {c:?}")));
    }
    let json = text.strip_prefix('\u{FEFF}').unwrap_or(text).as_bytes();
    let mut reader = Reader { json, at: 0 };
    reader.skip_space();
    let node = reader.value(0)?;
    reader.skip_space();
    if reader.at != json.len() {
        return Err(reader.error("text after the document"));
    }
    Ok(node)
}

struct Reader<'a> {
    json: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> Error {
        Error(format!("JSON at byte {}: {what}", self.at))
    }

    fn peek(&self) -> Option<u8> {
        self.json.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), Error> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected {:?}", char::from(byte))))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, Error> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deep"));
        }
        self.skip_space();
        match self.peek() {
            Some(b'{') => self.collection(b'}', Kind::Mapping, depth),
            Some(b'[') => self.collection(b']', Kind::Sequence, depth),
            Some(b'"') => Ok(Node::scalar(self.string()?, Tag::Str)),
            Some(_) => {
                let start = self.at;
                while matches!(
                    self.peek(),
                    Some(b'-' | b'+' | b'.' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z')
                ) {
                    self.at += 1;
                }
                let text = std::str::from_utf8(&self.json[start..self.at])
                    .map_err(|_| self.error("not UTF-8"))?;
                if !is_literal(text) {
                    return Err(self.error("not a JSON value"));
                }
                Ok(Node::scalar(text, resolve(text)))
            }
            None => Err(self.error("unexpected end")),
        }
    }

    fn collection(&mut self, close: u8, kind: Kind, depth: usize) -> Result<Node, Error> {
        self.at += 1;
        let mut content = Vec::new();
        self.skip_space();
        if self.peek() == Some(close) {
            self.at += 1;
        } else {
            loop {
                if kind == Kind::Mapping {
                    self.skip_space();
                    if self.peek() != Some(b'"') {
                        return Err(self.error("expected a key"));
                    }
                    content.push(Node::scalar(self.string()?, Tag::Str));
                    self.expect(b':')?;
                }
                content.push(self.value(depth + 1)?);
                self.skip_space();
                match self.peek() {
                    Some(b',') => self.at += 1,
                    Some(b) if b == close => {
                        self.at += 1;
                        break;
                    }
                    _ => return Err(self.error("expected ',' or the end")),
                }
            }
        }
        let tag = if kind == Kind::Mapping {
            Tag::Map
        } else {
            Tag::Seq
        };
        Ok(Node {
            kind,
            tag,
            value: String::new(),
            content,
        })
    }

    /// A string at the opening quote, unescaped.
    fn string(&mut self) -> Result<String, Error> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let Some(byte) = self.peek() else {
                return Err(self.error("unterminated string"));
            };
            self.at += 1;
            match byte {
                b'"' => break,
                b'\\' => {
                    let Some(escape) = self.peek() else {
                        return Err(self.error("unterminated escape"));
                    };
                    self.at += 1;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return Err(self.error("bad escape")),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                b if b < 0x20 => return Err(self.error("control character in a string")),
                b => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.error("not UTF-8"))
    }

    /// The character of a `\uXXXX` escape (after the `u`): YAML reads one escape as
    /// one code point, so a surrogate is an error.
    fn unicode_escape(&mut self) -> Result<char, Error> {
        let code = self.hex4()?;
        char::from_u32(code).ok_or_else(|| self.error("an escaped surrogate"))
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let digits = self
            .json
            .get(self.at..self.at + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| self.error("bad \\u escape"))?;
        self.at += 4;
        Ok(digits)
    }
}

/// Whether yaml.v3's reader accepts `c` in its input (`yaml_parser_update_buffer`).
fn allowed_in_yaml(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
        || u32::from(c) >= 0x10000
}

/// Whether `text` is `true`, `false`, `null` or a JSON number.
fn is_literal(text: &str) -> bool {
    if matches!(text, "true" | "false" | "null") {
        return true;
    }
    let bytes = text.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if bytes.get(i) == Some(&b'0') {
        i += 1;
    } else if !digits(&mut i) {
        return false;
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == bytes.len()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_order_and_scalars_their_text() {
        let node = parse(
            "{\"b\":1,\"a\":[1.50,\"x\\u00e9\u{1F600}\",true,null,-2e3],\"b\":{}}".as_bytes(),
        )
        .unwrap();
        let keys: Vec<&str> = node.pairs().map(|(k, _)| k.value.as_str()).collect();
        assert_eq!(keys, ["b", "a", "b"]);
        assert_eq!(node.get("b").unwrap(), &Node::scalar("1", Tag::Int));
        let items = &node.get("a").unwrap().content;
        assert_eq!(items[0], Node::scalar("1.50", Tag::Float));
        assert_eq!(items[1], Node::scalar("xé😀", Tag::Str));
        assert_eq!(items[2], Node::scalar("true", Tag::Bool));
        assert_eq!(items[3], Node::scalar("null", Tag::Null));
        assert_eq!(items[4], Node::scalar("-2e3", Tag::Float));
    }

    #[test]
    fn bad_json_is_an_error() {
        for bad in [
            &b"{"[..],
            b"{\"a\" 1}",
            b"[1,]",
            b"01",
            b"\"\\x\"",
            b"tru",
            b"{} x",
            b"\"\\/\"",
            b"\"\\ud83d\\ude00\"",
            b"\"\x7f\"",
            b"\"\xc2\x80\"",
            b"\"\xff\"",
        ] {
            assert!(parse(bad).is_err(), "{:?}", String::from_utf8_lossy(bad));
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 2), "]".repeat(MAX_DEPTH + 2));
        assert!(parse(deep.as_bytes()).is_err());
    }
}
