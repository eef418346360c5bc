//! Where each node of a YAML document is in its text: the tree of mappings, sequences
//! and scalars with their byte ranges, read from the parser's events, so that minimal
//! conversion can change a document by editing only the bytes that change.
//!
//! The values themselves are read by `apimachinery`'s YAML reader (Go's typing); this
//! tree only locates them, matched by key and index.

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

/// A node of the document, with its byte range in the document's text.
#[derive(Debug, Clone)]
pub struct Node {
    /// First byte (of the anchor or tag when there is one).
    pub start: usize,
    /// Byte after the node's last content (trailing blank lines and comments excluded).
    pub end: usize,
    /// Its 0-based column (in characters).
    pub column: usize,
    /// Whether it or a node inside it carries an anchor (`&name`), which an alias
    /// elsewhere may use: such a node is never rewritten.
    pub anchored: bool,
    /// What it is.
    pub kind: NodeKind,
}

/// The kinds of nodes.
#[derive(Debug, Clone)]
pub enum NodeKind {
    /// A scalar in its style; `multiline` when its text spans lines.
    Scalar {
        /// Plain, quoted, literal or folded.
        style: ScalarStyle,
        /// Whether its text spans more than one line.
        multiline: bool,
    },
    /// A mapping.
    Map {
        /// `{...}` rather than a block.
        flow: bool,
        /// Its entries in order.
        entries: Vec<Entry>,
        /// Whether a key is not a plain string key (a merge key `<<`, a complex key):
        /// its entries then do not map one to one to the value's keys.
        irregular: bool,
    },
    /// A sequence.
    Seq {
        /// `[...]` rather than a block.
        flow: bool,
        /// Its items in order.
        items: Vec<Node>,
    },
    /// An alias (`*name`).
    Alias,
}

/// A mapping's entry.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The key as text.
    pub key: String,
    /// The key's first byte.
    pub key_start: usize,
    /// The byte after the key.
    pub key_end: usize,
    /// The key's 0-based column.
    pub key_column: usize,
    /// The value.
    pub value: Node,
}

/// Reads the first document of `text`; `None` if it does not parse (the caller reports
/// the parse error from the YAML reader).
pub fn read(text: &str) -> Option<Node> {
    let offsets = CharOffsets::new(text);
    let mut events = Vec::new();
    for next in Parser::new_from_str(text) {
        let (event, span) = next.ok()?;
        match event {
            Event::StreamStart | Event::DocumentStart(_) | Event::Nothing => {}
            Event::DocumentEnd | Event::StreamEnd => break,
            other => events.push((other, span)),
        }
    }
    let mut reader = Reader {
        text,
        offsets: &offsets,
        events,
        next: 0,
    };
    let root = reader.node(0)?;
    Some(root)
}

/// Byte offsets of character indexes (the parser counts characters).
struct CharOffsets {
    /// `None` for ASCII text, where they are the same.
    bytes: Option<Vec<usize>>,
}

impl CharOffsets {
    fn new(text: &str) -> Self {
        if text.is_ascii() {
            return CharOffsets { bytes: None };
        }
        let mut bytes: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
        bytes.push(text.len());
        CharOffsets { bytes: Some(bytes) }
    }

    fn byte(&self, char_index: usize) -> usize {
        match &self.bytes {
            None => char_index,
            Some(b) => b
                .get(char_index)
                .copied()
                .unwrap_or_else(|| b.last().copied().unwrap_or(0)),
        }
    }
}

struct Reader<'t, 'e> {
    text: &'t str,
    offsets: &'t CharOffsets,
    events: Vec<(Event<'e>, Span)>,
    next: usize,
}

/// Nesting deeper than this is left to the YAML reader's own limit and error.
const MAX_DEPTH: usize = 1000;

impl Reader<'_, '_> {
    fn node(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (event, span) = self.events.get(self.next)?.clone();
        self.next += 1;
        let start = self.offsets.byte(span.start.index());
        let column = span.start.col();
        match event {
            Event::Scalar(_, style, anchor, _) => {
                // A block scalar's span starts at its content, after the `|` line.
                let start = match style {
                    ScalarStyle::Literal | ScalarStyle::Folded => {
                        block_indicator(self.text, start).unwrap_or(start)
                    }
                    _ => start,
                };
                let end = self.offsets.byte(span.end.index());
                let end = match style {
                    // The span of a block scalar ends where the next token starts.
                    ScalarStyle::Literal | ScalarStyle::Folded => self.trim_back(end),
                    // That of a quoted one may run on over spaces and a comment.
                    ScalarStyle::DoubleQuoted | ScalarStyle::SingleQuoted => {
                        quoted_end(self.text, start, style).unwrap_or(end)
                    }
                    _ => end,
                };
                Some(Node {
                    start,
                    end,
                    column,
                    anchored: anchor != 0,
                    kind: NodeKind::Scalar {
                        style,
                        multiline: span.start.line() != span.end.line(),
                    },
                })
            }
            Event::Alias(_) => Some(Node {
                start,
                end: self.offsets.byte(span.end.index()),
                column,
                anchored: false,
                kind: NodeKind::Alias,
            }),
            Event::MappingStart(anchor, _) => {
                let flow = self
                    .text
                    .as_bytes()
                    .get(start..self.offsets.byte(span.end.index()))
                    .is_some_and(|s| s.contains(&b'{'));
                let mut entries = Vec::new();
                let mut irregular = false;
                let mut anchored = anchor != 0;
                loop {
                    let (event, end_span) = self.events.get(self.next)?.clone();
                    if matches!(event, Event::MappingEnd) {
                        self.next += 1;
                        let end = self.collection_end(
                            flow,
                            &end_span,
                            &entries.last().map(|e: &Entry| e.value.end),
                        );
                        return Some(Node {
                            start: if flow {
                                start
                            } else {
                                entries.first().map_or(start, |e| e.key_start)
                            },
                            end,
                            column,
                            anchored,
                            kind: NodeKind::Map {
                                flow,
                                entries,
                                irregular,
                            },
                        });
                    }
                    let key = match event {
                        Event::Scalar(ref k, _, key_anchor, _) => {
                            if k == "<<" {
                                irregular = true;
                            }
                            anchored |= key_anchor != 0;
                            Some(k.to_string())
                        }
                        _ => None,
                    };
                    let key_node = self.node(depth + 1)?;
                    let value = self.node(depth + 1)?;
                    anchored |= value.anchored;
                    match key {
                        Some(key) => entries.push(Entry {
                            key,
                            key_start: key_node.start,
                            key_end: key_node.end,
                            key_column: key_node.column,
                            value,
                        }),
                        None => irregular = true,
                    }
                }
            }
            Event::SequenceStart(anchor, _) => {
                let flow = self
                    .text
                    .as_bytes()
                    .get(start..self.offsets.byte(span.end.index()))
                    .is_some_and(|s| s.contains(&b'['));
                let mut items = Vec::new();
                let mut anchored = anchor != 0;
                loop {
                    let (event, end_span) = self.events.get(self.next)?.clone();
                    if matches!(event, Event::SequenceEnd) {
                        self.next += 1;
                        let end = self.collection_end(
                            flow,
                            &end_span,
                            &items.last().map(|n: &Node| n.end),
                        );
                        return Some(Node {
                            start,
                            end,
                            column,
                            anchored,
                            kind: NodeKind::Seq { flow, items },
                        });
                    }
                    let item = self.node(depth + 1)?;
                    anchored |= item.anchored;
                    items.push(item);
                }
            }
            _ => None,
        }
    }

    /// The end of a collection: after its closing bracket for a flow one, after its
    /// last content for a block one.
    fn collection_end(&self, flow: bool, end_span: &Span, last: &Option<usize>) -> usize {
        if flow {
            self.offsets.byte(end_span.end.index())
        } else {
            match last {
                Some(end) => *end,
                None => self.offsets.byte(end_span.start.index()),
            }
        }
    }

    /// `pos` moved back over whitespace: the byte after the last content before it.
    fn trim_back(&self, pos: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut p = pos.min(bytes.len());
        while p > 0 && matches!(bytes[p - 1], b' ' | b'\n' | b'\r' | b'\t') {
            p -= 1;
        }
        p
    }
}

/// The byte of the `|` or `>` that introduces the block scalar whose content starts at
/// `content`: the last such character of the line before, after which only chomping
/// and indentation indicators and a comment may come.
fn block_indicator(text: &str, content: usize) -> Option<usize> {
    let before = text.get(..content)?.trim_end();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[line_start..];
    let line = match line.find(" #") {
        Some(comment) => &line[..comment],
        None => line,
    }
    .trim_end();
    let header = line.trim_end_matches(|c: char| c == '-' || c == '+' || c.is_ascii_digit());
    header
        .ends_with(['|', '>'])
        .then(|| line_start + header.len() - 1)
}

/// The byte after the closing quote of the quoted scalar starting at `start` (at its
/// opening quote, or at an anchor or tag before it).
fn quoted_end(text: &str, start: usize, style: ScalarStyle) -> Option<usize> {
    let quote = if style == ScalarStyle::DoubleQuoted {
        b'"'
    } else {
        b'\''
    };
    let bytes = text.as_bytes();
    let open = start + bytes.get(start..)?.iter().position(|b| *b == quote)?;
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            // Two single quotes are one inside single quotes.
            b'\'' if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
            b if b == quote => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The block layout a document uses: its first nested mapping's indentation step, and
/// whether its sequences are indented under their keys (the first such sequence says).
pub fn layout(root: &Node) -> super::emit::YamlLayout {
    let mut layout = super::emit::YamlLayout::default();
    let (mut indent, mut sequences) = (None, None);
    find_layout(root, &mut indent, &mut sequences);
    if let Some(i) = indent {
        layout.indent = i;
    }
    if let Some(s) = sequences {
        layout.indent_sequences = s;
    }
    layout
}

fn find_layout(node: &Node, indent: &mut Option<usize>, sequences: &mut Option<bool>) {
    match &node.kind {
        NodeKind::Map {
            flow: false,
            entries,
            ..
        } => {
            for e in entries {
                match &e.value.kind {
                    NodeKind::Map {
                        flow: false,
                        entries: inner,
                        ..
                    } if indent.is_none() => {
                        if let Some(first) = inner.first() {
                            if first.key_column > e.key_column {
                                *indent = Some(first.key_column - e.key_column);
                            }
                        }
                    }
                    // A block sequence's node starts at its first item, after `- `.
                    NodeKind::Seq { flow: false, .. } if sequences.is_none() => {
                        *sequences = Some(e.value.column.saturating_sub(2) > e.key_column);
                    }
                    _ => {}
                }
                find_layout(&e.value, indent, sequences);
            }
        }
        NodeKind::Seq { items, .. } => items.iter().for_each(|i| find_layout(i, indent, sequences)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(text: &str) -> Node {
        read(text).unwrap()
    }

    fn entries(node: &Node) -> &[Entry] {
        match &node.kind {
            NodeKind::Map { entries, .. } => entries,
            _ => panic!("not a map: {node:?}"),
        }
    }

    #[test]
    fn nodes_know_their_bytes() {
        let text = "# c\napiVersion: extensions/v1beta1 # old\nq: 'it''s' # c\nspec:\n  labels: {app: web}\n  run: |\n    echo hi\n  # after\n  ports:\n  - 80\n";
        let r = root(text);
        let e = entries(&r);
        assert_eq!(e[0].key, "apiVersion");
        assert_eq!(
            &text[e[0].value.start..e[0].value.end],
            "extensions/v1beta1"
        );
        assert_eq!(&text[e[1].value.start..e[1].value.end], "'it''s'");
        let spec = &e[2].value;
        assert_eq!(
            &text[spec.start..spec.end],
            &text[text.find("labels").unwrap()..text.find("- 80").unwrap() + 4]
        );
        let inner = entries(spec);
        assert_eq!(
            &text[inner[0].value.start..inner[0].value.end],
            "{app: web}"
        );
        assert!(matches!(
            inner[0].value.kind,
            NodeKind::Map { flow: true, .. }
        ));
        assert_eq!(
            &text[inner[1].value.start..inner[1].value.end],
            "|\n    echo hi"
        );
        assert_eq!(inner[2].key_column, 2);
        assert_eq!(
            layout(&r),
            crate::commands::convert::minimal::emit::YamlLayout::default()
        );
    }

    #[test]
    fn layouts_are_read_from_the_document() {
        let r = root("a:\n    b:\n        - 1\n");
        let l = layout(&r);
        assert_eq!((l.indent, l.indent_sequences), (4, true));
    }

    #[test]
    fn anchors_and_merges_are_marked() {
        let r = root("a: &x {b: 1}\nc:\n  <<: *x\n  d: é\n");
        let e = entries(&r);
        assert!(r.anchored && e[0].value.anchored);
        assert!(matches!(
            e[1].value.kind,
            NodeKind::Map {
                irregular: true,
                ..
            }
        ));
        let d = &entries(&e[1].value)[1].value;
        assert_eq!(d.end - d.start, "é".len());
    }
}
