//! The YAML writer: the part of libyaml's emitter (as go-yaml v2 carries it) that a
//! JSON value exercises — block mappings and sequences, `{}`/`[]` for empty ones, and the
//! plain, single-quoted, double-quoted and literal scalar writers with go-yaml's style
//! choice, line folding at 80 columns and escapes. See the [module docs](super) for the
//! rules.

use serde_json::Value;

use super::key_order::sorted_keys;
use super::number::{format_float_g, integral_float};
use super::resolve::{Resolved, is_base60_float, resolve_plain};

const BEST_INDENT: i64 = 2;
const BEST_WIDTH: usize = 80;
/// Indentation, written a slice at a time.
const SPACES: &str = "                                                                ";
/// Longest key (in bytes) written as `key: value`; longer keys use `? key\n: value`.
const MAX_SIMPLE_KEY_LEN: usize = 128;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// What libyaml's `yaml_emitter_analyze_scalar` finds out about a scalar.
#[allow(clippy::struct_excessive_bools)]
struct Analysis {
    multiline: bool,
    /// Whether a `\n` is among the line breaks.
    newline: bool,
    /// Whether the scalar is all ASCII (characters are bytes).
    ascii: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// libyaml's `is_printable`: what may appear unescaped in a scalar. Tabs, other C0
/// controls, DEL, C1 controls (including NEL), surrogates, U+FEFF, U+FFFE/F and
/// everything above U+FFFF (emoji!) are not.
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | '\u{20}'..='\u{7E}' | '\u{A0}'..='\u{D7FF}')
        || (('\u{E000}'..='\u{FFFD}').contains(&c) && c != '\u{FEFF}')
}

/// What [`analyze`] tracks while it walks a scalar.
#[derive(Default)]
#[allow(clippy::struct_excessive_bools)]
struct Scan {
    block_indicators: bool,
    line_breaks: bool,
    newline: bool,
    special: bool,
    leading_space: bool,
    leading_break: bool,
    trailing_space: bool,
    trailing_break: bool,
    break_space: bool,
    space_break: bool,
    previous_space: bool,
    previous_break: bool,
    preceded_by_whitespace: bool,
}

impl Scan {
    /// One character `c`, the first when `first`, followed by `next`.
    #[inline(always)]
    fn step(&mut self, first: bool, c: char, next: Option<char>) {
        let followed_by_whitespace = next.is_none_or(is_blank);
        let last = next.is_none();
        if first {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => self.block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => self.block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => self.block_indicators = true,
                '#' if self.preceded_by_whitespace => self.block_indicators = true,
                _ => {}
            }
        }
        if !is_printable(c) {
            self.special = true;
        }
        if c == ' ' {
            self.leading_space |= first;
            self.trailing_space |= last;
            self.break_space |= self.previous_break;
            self.previous_space = true;
            self.previous_break = false;
        } else if is_break(c) {
            self.line_breaks = true;
            self.newline |= c == '\n';
            self.leading_break |= first;
            self.trailing_break |= last;
            self.space_break |= self.previous_space;
            self.previous_space = false;
            self.previous_break = true;
        } else {
            self.previous_space = false;
            self.previous_break = false;
        }
        self.preceded_by_whitespace = is_blank(c) || is_break(c) || c == '\0';
    }
}

/// A scalar ready to write: NEL folded as Go's reading of the JSON text does, and
/// analysed.
fn prepare(s: &str) -> (std::borrow::Cow<'_, str>, Analysis) {
    if let Some(analysis) = analyze_word(s) {
        return (s.into(), analysis);
    }
    let s = fold_nel(s);
    let analysis = analyze(&s);
    (s, analysis)
}

/// [`analyze`] for the common scalar, one printable ASCII word (no space, no control
/// character), decided without the character walk; `None` for anything else. Such a
/// word holds no break or space, so only the indicators can rule plain style out: one
/// at the start, `---`/`...`, a lone `-`/`?`/`:`, or a final `:` (followed by the end,
/// which counts as whitespace). A `#` after the start needs whitespace before it.
fn analyze_word(value: &str) -> Option<Analysis> {
    let bytes = value.as_bytes();
    let (&first, &last) = (bytes.first()?, bytes.last()?);
    if !bytes.iter().all(|&b| b.wrapping_sub(0x21) < 0x5E) {
        return None;
    }
    let block_indicators = matches!(
        first,
        b'#' | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    ) || matches!(bytes, [b'-' | b'?' | b':'])
        || (bytes.len() > 1 && last == b':')
        || matches!(bytes, [b'-', b'-', b'-', ..] | [b'.', b'.', b'.', ..]);
    Some(Analysis {
        multiline: false,
        newline: false,
        ascii: true,
        block_plain_allowed: !block_indicators,
        single_quoted_allowed: true,
        block_allowed: true,
    })
}

/// libyaml's `yaml_emitter_analyze_scalar`.
fn analyze(value: &str) -> Analysis {
    let ascii = value.is_ascii();
    if value.is_empty() {
        return Analysis {
            multiline: false,
            newline: false,
            ascii,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut scan = Scan {
        block_indicators: matches!(
            value.as_bytes(),
            [b'-', b'-', b'-', ..] | [b'.', b'.', b'.', ..]
        ),
        preceded_by_whitespace: true,
        ..Scan::default()
    };
    if ascii {
        // Bytes are characters: the same walk without decoding.
        let bytes = value.as_bytes();
        let mut iter = bytes.iter().peekable();
        let mut first = true;
        while let Some(&b) = iter.next() {
            let next = iter.peek().map(|&&n| char::from(n));
            scan.step(first, char::from(b), next);
            first = false;
        }
    } else {
        let mut chars = value.chars().peekable();
        let mut first = true;
        while let Some(c) = chars.next() {
            scan.step(first, c, chars.peek().copied());
            first = false;
        }
    }
    let mut a = Analysis {
        multiline: scan.line_breaks,
        newline: scan.newline,
        ascii,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if scan.leading_space || scan.leading_break || scan.trailing_space || scan.trailing_break {
        a.block_plain_allowed = false;
    }
    if scan.trailing_space {
        a.block_allowed = false;
    }
    if scan.break_space {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if scan.space_break || scan.special {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if scan.line_breaks || scan.block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// go-yaml's `stringv`: literal for text with a newline, plain when the text reads
/// back as a string, double-quoted otherwise.
fn requested_string_style(s: &str, analysis: &Analysis) -> Style {
    if analysis.newline {
        Style::Literal
    } else if resolve_plain(s) == Resolved::Str && !is_base60_float(s) {
        Style::Plain
    } else {
        Style::DoubleQuoted
    }
}

/// Go's JSON→YAML path parses the JSON text with go-yaml, whose double-quoted scalars
/// fold raw line breaks: `encoding/json` leaves U+0085 (NEL) unescaped, so a NEL and the
/// spaces around it become one space (several NELs: one newline fewer than their count).
fn fold_nel(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() || !s.contains('\u{85}') {
        return s.into();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' || c == '\u{85}' {
            // A run of spaces: kept unless a NEL follows.
            let mut spaces = String::new();
            let mut c = c;
            while c == ' ' {
                spaces.push(c);
                match chars.next() {
                    Some(n) => c = n,
                    None => {
                        out.push_str(&spaces);
                        return out.into();
                    }
                }
            }
            if c != '\u{85}' {
                out.push_str(&spaces);
                out.push(c);
                continue;
            }
            let mut breaks = 1usize;
            while let Some(&n) = chars.peek() {
                match n {
                    ' ' => {}
                    '\u{85}' => breaks += 1,
                    _ => break,
                }
                chars.next();
            }
            if breaks == 1 {
                out.push(' ');
            } else {
                out.extend(std::iter::repeat_n('\n', breaks - 1));
            }
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// Where the writer stands on its line after some output: what libyaml's
/// `write_indent` looks at to decide whether the next line needs a break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LineState {
    column: usize,
    whitespace: bool,
    indention: bool,
}

/// The emitter state that libyaml keeps between writes.
pub(super) struct Emitter {
    out: String,
    indent: i64,
    indents: Vec<i64>,
    column: usize,
    whitespace: bool,
    indention: bool,
    mapping_context: bool,
    simple_key_context: bool,
}

impl Emitter {
    /// A writer at the start of a document, appending to `out`.
    pub(super) fn new(out: String) -> Self {
        Emitter {
            out,
            indent: -1,
            indents: Vec::new(),
            column: 0,
            whitespace: true,
            indention: true,
            mapping_context: false,
            simple_key_context: false,
        }
    }

    /// Ends the document (finishing its last line) and hands back the text.
    pub(super) fn finish(mut self) -> String {
        self.write_indent();
        self.out
    }

    /// How many bytes have been written.
    pub(super) fn len(&self) -> usize {
        self.out.len()
    }

    /// The line state now.
    pub(super) fn line_state(&self) -> LineState {
        LineState {
            column: self.column,
            whitespace: self.whitespace,
            indention: self.indention,
        }
    }

    /// Forgets what was written after byte `len`, back to the line state of then.
    pub(super) fn rewind(&mut self, len: usize, state: LineState) {
        self.out.truncate(len);
        self.set_line_state(state);
    }

    fn set_line_state(&mut self, state: LineState) {
        self.column = state.column;
        self.whitespace = state.whitespace;
        self.indention = state.indention;
    }

    /// Rewrites the entries of the open mapping in another order. `entries` are the
    /// byte ranges of each entry's text after its [`begin_entry`](Self::begin_entry),
    /// with the line state at its end, in writing order; they are contiguous but for
    /// the line breaks and indents between them, and the last one ends the output.
    /// `order` lists the entries to keep, by index, in their new order.
    ///
    /// An entry's text does not depend on where it stands: each starts at the mapping's
    /// indent with the same line state. Only the breaks between entries do (after a
    /// literal block ending in a newline, the next entry needs no break), so they are
    /// written again from each new predecessor's end state. `scratch` is a buffer to
    /// reuse.
    pub(super) fn reorder_entries(
        &mut self,
        entries: &[(std::ops::Range<usize>, LineState)],
        order: &[usize],
        scratch: &mut String,
    ) {
        let Some((first, _)) = entries.first() else {
            return;
        };
        let base = first.start;
        scratch.clear();
        scratch.push_str(self.out.get(base..).unwrap_or_default());
        self.out.truncate(base);
        let mut previous: Option<LineState> = None;
        for &index in order {
            let Some((range, end_state)) = entries.get(index) else {
                continue;
            };
            if let Some(state) = previous {
                self.set_line_state(state);
                self.write_indent();
            }
            let text = scratch
                .get(range.start.saturating_sub(base)..range.end.saturating_sub(base))
                .unwrap_or_default();
            self.out.push_str(text);
            previous = Some(*end_state);
        }
        if let Some(state) = previous {
            self.set_line_state(state);
        }
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn write(&mut self, c: char) {
        self.put(c);
    }

    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    fn write_indent(&mut self) {
        let indent = usize::try_from(self.indent.max(0)).unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            let n = (indent - self.column).min(SPACES.len());
            self.out.push_str(SPACES.get(..n).unwrap_or_default());
            self.column += n;
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        // Indicators are ASCII: bytes are columns.
        self.out.push_str(indicator);
        self.column += indicator.len();
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    /// The start of a node: libyaml's context flags for what follows.
    pub(super) fn begin_node(&mut self, mapping: bool) {
        self.mapping_context = mapping;
        self.simple_key_context = false;
    }

    /// Opens a non-empty block mapping.
    pub(super) fn begin_mapping(&mut self) {
        self.increase_indent(false, false);
    }

    /// Closes a block mapping.
    pub(super) fn end_mapping(&mut self) {
        self.pop_indent();
    }

    /// Moves to where a mapping entry starts: a new line at the mapping's indent, or
    /// the rest of a sequence item's line.
    pub(super) fn begin_entry(&mut self) {
        self.write_indent();
    }

    /// Writes a mapping key and its `:`; the value follows with
    /// [`begin_node`](Self::begin_node)`(true)`.
    pub(super) fn emit_key(&mut self, key: &str) {
        let (key, analysis) = prepare(key);
        if !analysis.multiline && key.len() <= MAX_SIMPLE_KEY_LEN {
            self.mapping_context = true;
            self.simple_key_context = true;
            self.emit_scalar(&key, requested_string_style(&key, &analysis), &analysis);
            self.write_indicator(":", false, false, false);
        } else {
            self.write_indicator("?", true, false, true);
            self.mapping_context = true;
            self.simple_key_context = false;
            self.emit_scalar(&key, requested_string_style(&key, &analysis), &analysis);
            self.write_indent();
            self.write_indicator(":", true, false, true);
        }
    }

    /// Opens a non-empty block sequence; one under a mapping key is not indented
    /// ("indentless").
    pub(super) fn begin_sequence(&mut self) {
        let indentless = self.mapping_context && !self.indention;
        self.increase_indent(false, indentless);
    }

    /// Writes a sequence item's `-`; the item follows with
    /// [`begin_node`](Self::begin_node)`(false)`.
    pub(super) fn begin_item(&mut self) {
        self.write_indent();
        self.write_indicator("-", true, false, true);
    }

    /// Closes a block sequence.
    pub(super) fn end_sequence(&mut self) {
        self.pop_indent();
    }

    /// Writes `{}`.
    pub(super) fn emit_empty_mapping(&mut self) {
        self.emit_empty("{", "}");
    }

    /// Writes `[]`.
    pub(super) fn emit_empty_sequence(&mut self) {
        self.emit_empty("[", "]");
    }

    /// Writes a string value with go-yaml's style choice.
    pub(super) fn emit_string(&mut self, s: &str) {
        let (s, analysis) = prepare(s);
        self.emit_scalar(&s, requested_string_style(&s, &analysis), &analysis);
    }

    /// Writes `null`.
    pub(super) fn emit_null(&mut self) {
        self.emit_number_text("null");
    }

    /// Writes `true` or `false`.
    pub(super) fn emit_bool(&mut self, b: bool) {
        self.emit_number_text(if b { "true" } else { "false" });
    }

    /// Writes an integer.
    pub(super) fn emit_i64(&mut self, i: i64) {
        let mut buf = [0u8; 21];
        let text = integer_text(i.unsigned_abs(), i < 0, &mut buf);
        self.emit_number_text(text);
    }

    /// Writes an unsigned integer.
    pub(super) fn emit_u64(&mut self, u: u64) {
        let mut buf = [0u8; 21];
        let text = integer_text(u, false, &mut buf);
        self.emit_number_text(text);
    }

    /// Writes a float as go-yaml writes the number `encoding/json` made of it.
    pub(super) fn emit_f64(&mut self, f: f64) {
        let integral = integral_float(f);
        match integral.as_ref().map(|n| (n.as_i64(), n.as_u64())) {
            Some((Some(i), _)) => self.emit_i64(i),
            Some((None, Some(u))) => self.emit_u64(u),
            _ => {
                let text = float_text(f);
                self.emit_number_text(&text);
            }
        }
    }

    /// A plain scalar made of ASCII letters, digits and `-+.`: never quoted (it starts
    /// with no indicator and holds no space or break), never folded (no space).
    fn emit_number_text(&mut self, text: &str) {
        if !self.whitespace {
            self.put(' ');
        }
        self.out.push_str(text);
        self.column += text.len();
        self.whitespace = false;
        self.indention = false;
    }

    fn emit_node(&mut self, value: &Value, mapping: bool) {
        self.begin_node(mapping);
        match value {
            Value::Object(map) if map.is_empty() => self.emit_empty_mapping(),
            Value::Array(items) if items.is_empty() => self.emit_empty_sequence(),
            Value::Object(map) => {
                self.begin_mapping();
                for key in sorted_keys(map) {
                    let Some(child) = map.get(key) else { continue };
                    self.begin_entry();
                    self.emit_key(key);
                    self.emit_node(child, true);
                }
                self.end_mapping();
            }
            Value::Array(items) => {
                self.begin_sequence();
                for item in items {
                    self.begin_item();
                    self.emit_node(item, false);
                }
                self.end_sequence();
            }
            Value::String(s) => self.emit_string(s),
            Value::Null => self.emit_null(),
            Value::Bool(b) => self.emit_bool(*b),
            Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => self.emit_i64(i),
                (None, Some(u), _) => self.emit_u64(u),
                (None, None, f) => self.emit_f64(f.unwrap_or(f64::NAN)),
            },
        }
    }

    fn emit_empty(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.increase_indent(true, false);
        self.pop_indent();
        self.write_indicator(close, false, false, false);
    }

    /// libyaml's `yaml_emitter_select_scalar_style` followed by the writer.
    fn emit_scalar(&mut self, value: &str, requested: Style, analysis: &Analysis) {
        let mut style = requested;
        if self.simple_key_context && analysis.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Plain
            && (!analysis.block_plain_allowed || (value.is_empty() && self.simple_key_context))
        {
            style = Style::SingleQuoted;
        }
        if style == Style::SingleQuoted && !analysis.single_quoted_allowed {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!analysis.block_allowed || self.simple_key_context) {
            style = Style::DoubleQuoted;
        }
        // libyaml's increase_indent(flow) for the scalar; nothing inside looks at the
        // stack of indents, so the one saved here stands in for a push and a pop.
        let saved = self.indent;
        self.indent = if saved < 0 {
            BEST_INDENT
        } else {
            saved + BEST_INDENT
        };
        let allow_breaks = !self.simple_key_context;
        match style {
            Style::Plain => self.write_plain(value, allow_breaks, analysis.ascii),
            Style::SingleQuoted => self.write_single_quoted(value, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(value, allow_breaks),
            Style::Literal => self.write_literal(value),
        }
        self.indent = saved;
    }

    fn write_plain(&mut self, value: &str, allow_breaks: bool, ascii: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        // The common case: a short value, where no fold can happen (folding needs the
        // column past the width at a space); a plain value holds no breaks (the
        // analysis rules plain out for those).
        if self.column + value.len() <= BEST_WIDTH {
            self.out.push_str(value);
            self.column += if ascii {
                value.len()
            } else {
                value.chars().count()
            };
            self.whitespace = false;
            self.indention = false;
            return;
        }
        let (mut spaces, mut breaks) = (false, false);
        let mut chars = value.chars().peekable();
        while let Some(c) = chars.next() {
            let next = chars.peek().copied();
            if c == ' ' {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && next != Some(' ') {
                    self.write_indent();
                } else {
                    self.write(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let (mut spaces, mut breaks) = (false, false);
        let mut chars = value.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let next = chars.peek().map(|&(_, n)| n);
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && next.is_some()
                    && next != Some(' ')
                {
                    self.write_indent();
                } else {
                    self.write(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.write(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        // libyaml's `is_bom` looks at the start of the value whatever the position, so a
        // value that starts with U+FEFF has every character escaped.
        let starts_with_bom = value.starts_with('\u{FEFF}');
        let mut spaces = false;
        let mut chars = value.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let next = chars.peek().map(|&(_, n)| n);
            if !is_printable(c) || starts_with_bom || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                match c {
                    '\0' => self.put('0'),
                    '\u{7}' => self.put('a'),
                    '\u{8}' => self.put('b'),
                    '\t' => self.put('t'),
                    '\n' => self.put('n'),
                    '\u{b}' => self.put('v'),
                    '\u{c}' => self.put('f'),
                    '\r' => self.put('r'),
                    '\u{1b}' => self.put('e'),
                    '"' => self.put('"'),
                    '\\' => self.put('\\'),
                    '\u{85}' => self.put('N'),
                    '\u{A0}' => self.put('_'),
                    '\u{2028}' => self.put('L'),
                    '\u{2029}' => self.put('P'),
                    _ => {
                        let v = u32::from(c);
                        let (marker, width) = if v <= 0xFF {
                            ('x', 2)
                        } else if v <= 0xFFFF {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(marker);
                        for k in (0..width).rev() {
                            let digit = (v >> (k * 4)) & 0xF;
                            self.put(
                                char::from_digit(digit, 16).map_or('0', |d| d.to_ascii_uppercase()),
                            );
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i > 0 && next.is_some() {
                    self.write_indent();
                    if next == Some(' ') {
                        self.put('\\');
                    }
                } else {
                    self.write(c);
                }
                spaces = true;
            } else {
                self.write(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        if value.starts_with(|c: char| c == ' ' || is_break(c)) {
            self.write_indicator("2", false, false, false);
        }
        let mut tail = value.chars().rev();
        let chomp = match (tail.next(), tail.next()) {
            (None, _) => Some("-"),
            (Some(last), _) if !is_break(last) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(before)) if is_break(before) => Some("+"),
            _ => None,
        };
        if let Some(chomp) = chomp {
            self.write_indicator(chomp, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for c in value.chars() {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

/// `magnitude` in decimal, with a `-` when `negative`, at the end of `buf`.
fn integer_text(mut magnitude: u64, negative: bool, buf: &mut [u8; 21]) -> &str {
    let mut i = buf.len();
    loop {
        // `magnitude % 10` is one digit: the cast cannot truncate.
        #[allow(clippy::cast_possible_truncation)]
        let digit = (magnitude % 10) as u8;
        magnitude /= 10;
        let Some(slot) = i.checked_sub(1) else { break };
        i = slot;
        if let Some(b) = buf.get_mut(i) {
            *b = b'0' + digit;
        }
        if magnitude == 0 {
            break;
        }
    }
    if negative {
        if let Some(slot) = i.checked_sub(1) {
            i = slot;
            if let Some(b) = buf.get_mut(i) {
                *b = b'-';
            }
        }
    }
    std::str::from_utf8(buf.get(i..).unwrap_or_default()).unwrap_or_default()
}

/// A float that stays a float through `encoding/json`, as go-yaml writes it.
fn float_text(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_owned();
    }
    format_float_g(f, false)
}

/// Writes `value` as one YAML document, exactly as Go's `sigs.k8s.io/yaml.JSONToYAML`
/// writes the JSON text `encoding/json` makes of it.
pub(crate) fn emit_document(value: &Value) -> String {
    let mut emitter = Emitter::new(String::new());
    emitter.emit_node(value, false);
    emitter.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_nel_as_go_yaml_reads_json() {
        assert_eq!(fold_nel("a\u{85}b"), "a b");
        assert_eq!(fold_nel("\u{85}abc"), " abc");
        assert_eq!(fold_nel("a \u{85}  b"), "a b");
        assert_eq!(fold_nel("a\u{85}\u{85}b"), "a\nb");
        assert_eq!(fold_nel("a  b "), "a  b ");
    }

    #[test]
    fn writes_documents_of_every_shape() {
        use serde_json::json;
        let cases = [
            (json!(null), "null\n"),
            (json!("abc"), "abc\n"),
            (json!("a\nb"), "|-\n  a\n  b\n"),
            (json!(""), "\"\"\n"),
            (json!({}), "{}\n"),
            (json!([]), "[]\n"),
            (
                json!([1, [2, {"a": []}], {"b": {}}]),
                "- 1\n- - 2\n  - a: []\n- b: {}\n",
            ),
            (json!({"k": "a\n\n"}), "k: |+\n  a\n\nz\n"),
            (json!({"k": " x\n"}), "k: |2\n   x\nz\n"),
            (json!({"k": "x\ty"}), "k: \"x\\ty\"\nz\n"),
            (json!({"k": "it's: here"}), "k: 'it''s: here'\nz\n"),
        ];
        for (value, want) in cases {
            let mut value = value;
            // A key after the scalar checks where the writer leaves the line.
            if let Some(map) = value.as_object_mut() {
                if map.contains_key("k") {
                    map.insert("z".into(), serde_json::Value::Null);
                }
            }
            let want = want.replace("\nz\n", "\nz: null\n");
            assert_eq!(emit_document(&value), want, "{value}");
        }
    }

    #[test]
    fn analyses_words_as_the_character_walk() {
        let words = [
            "a", "abc", "-", "?", ":", "-a", "?a", ":a", "a:", "a:b", "::", "---", "---a", "...",
            "..", "#a", "a#b", ",a", "[a", "]", "{", "}", "&a", "*a", "!a", "|a", ">a", "'a",
            "\"a", "%a", "@a", "`a", "~", "a-b", "0x1F", "1.5", "a~", "<a>", "a\\b",
        ];
        for word in words {
            let fast = analyze_word(word).unwrap();
            let slow = analyze(word);
            let fields = |a: &Analysis| {
                (
                    a.multiline,
                    a.newline,
                    a.ascii,
                    a.block_plain_allowed,
                    a.single_quoted_allowed,
                    a.block_allowed,
                )
            };
            assert_eq!(fields(&fast), fields(&slow), "{word:?}");
        }
        for not_a_word in ["", "a b", " a", "a\n", "a\t", "é", "a\u{7f}"] {
            assert!(analyze_word(not_a_word).is_none(), "{not_a_word:?}");
        }
    }

    #[test]
    fn analyses_printability_as_libyaml() {
        assert!(is_printable('é'));
        assert!(!is_printable('\t'));
        assert!(!is_printable('\u{85}'));
        assert!(!is_printable('\u{FEFF}'));
        assert!(!is_printable('😀'));
        assert!(is_printable('\u{E000}'));
    }
}
