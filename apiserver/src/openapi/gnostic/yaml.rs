//! The YAML text gnostic keeps in an `Any` (`compiler.Marshal`: the node's styles cleared,
//! then `yaml.Marshal` of go.yaml.in/yaml/v3): block style, four-space indentation, no
//! line folding, and each scalar in the plainest style that reads back as the same value.
//! The emitter's decisions (libyaml's, as yaml.v3 ports them: `emitterc.go`) are carried
//! over for the trees a JSON document holds: mappings, sequences and untagged scalars.

use super::node::{Kind, Node};
use super::resolve::{Tag, resolve};

/// yaml.v3's indentation (`encoder.init`: 4 unless set).
const INDENT: i64 = 4;
/// Longest key written as a simple key (`yaml_emitter_check_simple_key`).
const SIMPLE_KEY_MAX: usize = 128;

/// The YAML text of `node`, as `compiler.Marshal` writes it.
pub(super) fn marshal(node: &Node) -> String {
    let mut e = Emitter {
        out: String::new(),
        column: 0,
        indent: -1,
        indents: Vec::new(),
        whitespace: true,
        indention: true,
    };
    e.node(node, Parent::Root, false);
    // The document's end: a line break unless the last one ended the text.
    e.write_indent();
    e.out
}

/// Where a node is written, which sets its indentation (`increase_indent` looks at
/// the state the parent pushed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parent {
    Root,
    SequenceItem,
    Mapping,
}

/// A scalar's writing style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

/// What `yaml_emitter_analyze_scalar` finds in a scalar.
struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

struct Emitter {
    out: String,
    column: i64,
    indent: i64,
    indents: Vec<i64>,
    whitespace: bool,
    indention: bool,
}

impl Emitter {
    fn node(&mut self, node: &Node, parent: Parent, simple_key: bool) {
        match node.kind {
            Kind::Scalar => self.scalar(node, parent, simple_key),
            Kind::Sequence | Kind::Mapping if node.content.is_empty() => {
                // An empty collection is written in flow style: `[]`, `{}`.
                let (open, close) = if node.kind == Kind::Sequence {
                    ("[", "]")
                } else {
                    ("{", "}")
                };
                self.indicator(open, true, true, false);
                self.increase_indent(true, parent);
                self.pop_indent();
                self.indicator(close, false, false, false);
            }
            Kind::Sequence => {
                self.increase_indent(false, parent);
                for item in &node.content {
                    self.write_indent();
                    self.indicator("-", true, false, true);
                    self.node(item, Parent::SequenceItem, false);
                }
                self.pop_indent();
            }
            Kind::Mapping => {
                self.increase_indent(false, parent);
                for pair in node.content.chunks(2) {
                    let key = &pair[0];
                    self.write_indent();
                    let simple = key.kind != Kind::Scalar
                        || (!analyze(&key.value).multiline && key.value.len() <= SIMPLE_KEY_MAX);
                    if simple {
                        self.node(key, Parent::Mapping, true);
                        self.indicator(":", false, false, false);
                    } else {
                        self.indicator("?", true, false, true);
                        self.node(key, Parent::Mapping, false);
                        self.write_indent();
                        self.indicator(":", true, false, true);
                    }
                    if let Some(value) = pair.get(1) {
                        self.node(value, Parent::Mapping, false);
                    }
                }
                self.pop_indent();
            }
        }
    }

    fn increase_indent(&mut self, flow: bool, parent: Parent) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { INDENT } else { 0 };
        } else if parent == Parent::SequenceItem {
            // The first indentation inside a sequence item skips the "- ".
            self.indent += 2;
        } else {
            self.indent = INDENT * ((self.indent + INDENT) / INDENT);
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
        self.indention = true;
    }

    /// Writes a line break character of the value (`write_break`).
    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
            self.indention = true;
        }
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
    }

    fn indicator(
        &mut self,
        text: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for c in text.chars() {
            self.put(c);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    fn scalar(&mut self, node: &Node, parent: Parent, simple_key: bool) {
        let value = node.value.as_str();
        // `encoder.node`: a string that would read back as another type is quoted; text
        // with a line break asks for the literal style.
        let force_quoting = node.tag == Tag::Str && resolve(value) != Tag::Str;
        let mut style = if value.contains('\n') {
            Style::Literal
        } else if force_quoting {
            Style::Double
        } else {
            Style::Plain
        };
        // `yaml_emitter_select_scalar_style`.
        let analysis = analyze(value);
        if simple_key && analysis.multiline {
            style = Style::Double;
        }
        if style == Style::Plain
            && (!analysis.block_plain_allowed || (value.is_empty() && simple_key))
        {
            style = Style::Single;
        }
        if style == Style::Single && !analysis.single_quoted_allowed {
            style = Style::Double;
        }
        if style == Style::Literal && (!analysis.block_allowed || simple_key) {
            style = Style::Double;
        }
        self.increase_indent(true, parent);
        match style {
            Style::Plain => self.plain(value),
            Style::Single => self.single_quoted(value),
            Style::Double => self.double_quoted(value),
            Style::Literal => self.literal(value),
        }
        self.pop_indent();
    }

    fn plain(&mut self, value: &str) {
        if !value.is_empty() && !self.whitespace {
            self.put(' ');
        }
        for c in value.chars() {
            self.put(c);
        }
        if !value.is_empty() {
            self.whitespace = false;
        }
        self.indention = false;
    }

    fn single_quoted(&mut self, value: &str) {
        self.indicator("'", true, false, false);
        let mut breaks = false;
        for c in value.chars() {
            if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
        self.indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn double_quoted(&mut self, value: &str) {
        self.indicator("\"", true, false, false);
        // yaml.v3 tests for a byte order mark at the start of the value for every
        // character (`is_bom(value, i)` reads value[0..3]).
        let bom = value.starts_with('\u{FEFF}');
        for c in value.chars() {
            if !is_printable(c) || bom || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let escape = match c {
                    '\0' => Some('0'),
                    '\u{7}' => Some('a'),
                    '\u{8}' => Some('b'),
                    '\t' => Some('t'),
                    '\n' => Some('n'),
                    '\u{b}' => Some('v'),
                    '\u{c}' => Some('f'),
                    '\r' => Some('r'),
                    '\u{1b}' => Some('e'),
                    '"' => Some('"'),
                    '\\' => Some('\\'),
                    '\u{85}' => Some('N'),
                    '\u{a0}' => Some('_'),
                    '\u{2028}' => Some('L'),
                    '\u{2029}' => Some('P'),
                    _ => None,
                };
                match escape {
                    Some(e) => self.put(e),
                    None => {
                        let code = u32::from(c);
                        let (mark, width) = match code {
                            0..=0xFF => ('x', 2),
                            0x100..=0xFFFF => ('u', 4),
                            _ => ('U', 8),
                        };
                        self.put(mark);
                        for k in (0..width).rev() {
                            let digit = (code >> (k * 4)) & 0xF;
                            self.put(
                                char::from_digit(digit, 16).map_or('0', |d| d.to_ascii_uppercase()),
                            );
                        }
                    }
                }
            } else {
                self.put(c);
            }
        }
        self.indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn literal(&mut self, value: &str) {
        self.indicator("|", true, false, false);
        // The block scalar hints: an indentation digit when the text starts with a
        // space or a break, `-` (strip) or `+` (keep) for how it ends.
        if value.starts_with(' ') || value.chars().next().is_some_and(is_break) {
            self.indicator(&INDENT.to_string(), false, false, false);
        }
        let mut chars = value.chars().rev();
        let chomp = match (chars.next(), chars.next()) {
            (None, _) => Some("-"),
            (Some(last), _) if !is_break(last) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(before)) if is_break(before) => Some("+"),
            _ => None,
        };
        if let Some(chomp) = chomp {
            self.indicator(chomp, false, false, false);
        }
        self.put_break();
        self.whitespace = true;
        let mut breaks = true;
        for c in value.chars() {
            if is_break(c) {
                self.write_break(c);
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// yaml.v3's `is_blankz`: a space, a tab, a line break or NUL.
fn is_blankz(c: char) -> bool {
    c == ' ' || c == '\t' || is_break(c) || c == '\0'
}

/// yaml.v3's `is_printable`: LF, printable ASCII, U+00A0 to U+D7FF, U+E000 to U+FFFD
/// but U+FEFF; nothing beyond the Basic Multilingual Plane.
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
        && c != '\u{FEFF}'
}

/// `yaml_emitter_analyze_scalar`, for the styles a scalar may take (unicode output on,
/// as yaml.v3 sets it).
fn analyze(value: &str) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = value.starts_with("---") || value.starts_with("...");
    let (mut line_breaks, mut special, mut tabs) = (false, false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
        (false, false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut preceded_by_whitespace = true;
    let chars: Vec<char> = value.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        // `is_blank` (a space or a tab) or the end.
        let followed_by_whitespace = chars.get(i + 1).is_none_or(|&n| n == ' ' || n == '\t');
        let last = i + 1 == chars.len();
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => block_indicators = true,
                '#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }
        if c == '\t' {
            tabs = true;
        } else if !is_printable(c) {
            special = true;
        }
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            leading_break |= i == 0;
            trailing_break |= last;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_blankz(c);
    }
    let mut analysis = Analysis {
        multiline: line_breaks,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        analysis.block_plain_allowed = false;
    }
    if trailing_space {
        analysis.block_allowed = false;
    }
    if break_space || space_break || tabs || special {
        analysis.block_plain_allowed = false;
        analysis.single_quoted_allowed = false;
    }
    if space_break || special {
        analysis.block_allowed = false;
    }
    if line_breaks || block_indicators {
        analysis.block_plain_allowed = false;
    }
    analysis
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
