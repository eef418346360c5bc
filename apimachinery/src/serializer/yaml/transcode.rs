//! The fast path of YAML reading: one pass over the block YAML that Go, `kubectl` and
//! people write, straight to the compact JSON bytes `sigs.k8s.io/yaml.YAMLToJSON` makes
//! of it (keys sorted by bytes, Go's escaping and number formatting), with no parser
//! events and no `serde_json::Value` in between.
//!
//! The subset: block mappings and sequences (also `- key: v` items and sequences not
//! indented under their key), plain scalars (also folded over several lines, as Go
//! writes long strings), single- and double-quoted scalars on one line, literal block
//! scalars (`|`, `|-`, `|+`, with an indentation indicator), comments,
//! flow sequences of scalars on one line (`[a, "b"]`), empty flow mappings (`{}`) and a
//! leading `---`. Plain scalars are typed by go-yaml v2's rules, as the loader types
//! them. Whatever lies outside the subset, or could be read two ways, is declined with
//! the reason ([`Declined`]), and the caller reads the text with the full loader: the
//! bytes written here are always what the loader's value writes as compact Go JSON.
//!
//! Nesting is tracked with an explicit stack, limited to [`MAX_DEPTH`] levels.

use std::borrow::Cow;
use std::io::Write;

use super::MAX_DEPTH;
use super::loader::Scalar;
use super::number::integral_float;
use super::resolve::{Resolved, resolve_plain};
use crate::util::json::format_go_float64;

/// Why [`transcode`] left a document to the full loader: a construct outside the fast
/// subset, or text the loader reads another way or rejects (its error is then the one
/// to report). `line` is 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct Declined {
    /// The line where the fast path stopped.
    pub line: usize,
    /// What it met there.
    pub reason: DeclineReason,
}

/// What the fast path does not read; see [`Declined`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeclineReason {
    /// A control character, a carriage return not before a line feed, a byte order mark,
    /// or a character YAML does not allow unescaped (C1 controls, U+2028, U+2029, ...).
    #[error("a character outside the fast subset")]
    Character,
    /// A tab where indentation or a separator is expected, or in a plain scalar.
    #[error("a tab outside a quoted or block scalar")]
    Tab,
    /// An anchor (`&a`), an alias (`*a`) or a tag (`!x`).
    #[error("an anchor, alias or tag")]
    AnchorAliasOrTag,
    /// A merge key (`<<`).
    #[error("a merge key")]
    MergeKey,
    /// A key set twice in one mapping.
    #[error("a key given twice")]
    DuplicateKey,
    /// A key that is not a string for JSON (`~`, an unsigned integer beyond `i64`), or a
    /// complex key (`? `).
    #[error("a key JSON cannot hold as it is")]
    Key,
    /// A quoted scalar continued on another line, a plain one continued after a comment,
    /// or a scalar alone on its line where a mapping or sequence was expected.
    #[error("a multi-line scalar")]
    MultiLineScalar,
    /// A folded block scalar (`>`), an empty block scalar, or one at the end of input
    /// without a final line break.
    #[error("a block scalar outside the fast subset")]
    BlockScalar,
    /// A flow collection other than a one-line sequence of scalars or `{}`.
    #[error("a flow collection outside the fast subset")]
    FlowCollection,
    /// `.inf` or `.nan`, which JSON cannot hold.
    #[error("a non-finite number")]
    NonFinite,
    /// A directive, a second document, `...`, or a document that is not a block mapping
    /// or sequence (a scalar, or nothing).
    #[error("a document outside the fast subset")]
    Document,
    /// More than [`MAX_DEPTH`] levels of nesting.
    #[error("nesting deeper than the limit")]
    TooDeep,
    /// Text that is not well-formed in the subset: indentation that matches no open
    /// block, a reserved or unexpected indicator, trailing text after a quoted scalar.
    #[error("text the fast path does not read")]
    Syntax,
}

/// Converts one YAML document to the compact JSON bytes Go's `sigs.k8s.io/yaml.YAMLToJSON`
/// writes for it — the same bytes as the loader's value (see [`yaml_to_json`]) written
/// as compact Go JSON — when the document is within the fast subset (see the module
/// docs); otherwise says why not, and the text is for the full loader.
///
/// ```
/// use apimachinery::serializer::yaml::transcode;
///
/// let yaml = "kind: Pod\napiVersion: v1\nspec:\n  ports:\n  - tls: yes\n    port: 0x50\n";
/// assert_eq!(
///     transcode(yaml)?,
///     br#"{"apiVersion":"v1","kind":"Pod","spec":{"ports":[{"port":80,"tls":true}]}}"#
/// );
/// assert!(transcode("a: &x 1\nb: *x\n").is_err());
/// # Ok::<(), apimachinery::serializer::yaml::Declined>(())
/// ```
///
/// [`yaml_to_json`]: super::yaml_to_json
pub fn transcode(input: &str) -> Result<Vec<u8>, Declined> {
    check_characters(input.as_bytes())?;
    Transcoder::new(input).run()
}

/// The block collections open at a point of the document.
enum Frame {
    Map {
        /// The column of the keys.
        indent: usize,
        /// Where the mapping's entries start in `Transcoder::entries`.
        base: usize,
        /// Where its first entry starts in the output.
        start: usize,
        /// The keys came in strictly increasing order so far.
        sorted: bool,
        /// The last key awaits a value on the following lines.
        pending: bool,
    },
    Seq {
        /// The column of the dashes.
        indent: usize,
        first: bool,
        /// The last `-` awaits a value on the following lines.
        pending: bool,
        /// The sequence is a mapping value at the mapping's own column (`key:\n- a`).
        under_key: bool,
    },
}

impl Frame {
    fn indent(&self) -> usize {
        match self {
            Frame::Map { indent, .. } | Frame::Seq { indent, .. } => *indent,
        }
    }
}

/// A mapping entry written to the output: its key and its bytes (`"key":value`).
struct Entry<'a> {
    key: Cow<'a, str>,
    start: usize,
    end: usize,
}

/// Where a node starts: right after `- ` (where a scalar may follow), or on a line of
/// its own (where only a mapping or sequence may).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    AfterDash,
    OwnLine,
}

struct Transcoder<'a> {
    src: &'a str,
    /// Byte offset of the next line.
    pos: usize,
    /// 1-based number of the line last read.
    line: usize,
    out: Vec<u8>,
    stack: Vec<Frame>,
    entries: Vec<Entry<'a>>,
    /// Block scalar and quoted scalar text, reused.
    scratch: String,
}

type Step<T = ()> = Result<T, DeclineReason>;

/// Rejects, in one cheap pass, the bytes whose meaning depends on context the fast path
/// does not track: control characters but tab and line feed, DEL, and carriage returns
/// not before a line feed (YAML reads those as line breaks).
fn check_characters(bytes: &[u8]) -> Result<(), Declined> {
    let suspicious = |b: u8| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7F;
    // Folded without early exit so that the loop vectorizes; the careful loop only runs
    // for the rare input that has one (CRLF files).
    let any = bytes
        .chunks(64)
        .any(|chunk| chunk.iter().fold(false, |acc, &b| acc | suspicious(b)));
    if bytes.starts_with("\u{feff}".as_bytes()) {
        return Err(Declined {
            line: 1,
            reason: DeclineReason::Character,
        });
    }
    if !any {
        return Ok(());
    }
    let mut line = 1;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            line += 1;
        } else if suspicious(b) && !(b == b'\r' && bytes.get(i + 1) == Some(&b'\n')) {
            return Err(Declined {
                line,
                reason: DeclineReason::Character,
            });
        }
    }
    Ok(())
}

/// Non-ASCII characters the loader's parser reads differently from plain text, or that
/// YAML does not allow unescaped: C1 controls (NEL included), U+2028, U+2029, U+FEFF,
/// U+FFFE and U+FFFF.
fn has_special_unicode(text: &[u8]) -> bool {
    if text.is_ascii() {
        return false;
    }
    text.windows(3).any(|w| match *w {
        [0xC2, b, _] => (0x80..=0x9F).contains(&b),
        [0xE2, 0x80, 0xA8 | 0xA9] | [0xEF, 0xBB, 0xBF] | [0xEF, 0xBF, 0xBE | 0xBF] => true,
        _ => false,
    }) || matches!(text, [.., 0xC2, 0x80..=0x9F])
}

/// A table of the bytes in `set`, for scanning loops without a chain of comparisons.
const fn byte_table(set: &[u8], controls: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < set.len() {
        table[set[i] as usize] = true;
        i += 1;
    }
    if controls {
        let mut c = 0;
        while c < 0x20 {
            table[c] = true;
            c += 1;
        }
    }
    table
}

/// Where plain scalar and key scanning must look closer: the end of a key or a comment,
/// a tab, and what keeps a plain key out of the subset.
static PLAIN_STOP: [bool; 256] = byte_table(b":#\t[]{},\"'", false);

/// What a JSON string escapes (Go's formatter adds `<`, `>`, `&` and, behind 0xE2,
/// U+2028 and U+2029).
static JSON_ESCAPE: [bool; 256] = byte_table(b"\"\\<>&\xE2", true);

/// The first line feed in `bytes`, eight bytes at a time (a word holds `\n` exactly
/// when `word ^ 0x0A..0A` has a zero byte; the lowest such byte is found exactly).
fn find_newline(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ (ONES * u64::from(b'\n'));
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        if found != 0 {
            return Some(offset + (found.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == b'\n')
        .map(|p| offset + p)
}

/// `-` followed by a space or the end of the line: a sequence entry.
fn is_dash(rest: &str) -> bool {
    let b = rest.as_bytes();
    b.first() == Some(&b'-') && matches!(b.get(1), None | Some(b' '))
}

/// Number of leading spaces.
fn spaces(text: &str) -> usize {
    text.bytes().take_while(|&b| b == b' ').count()
}

/// What may end a line after a value: spaces, then nothing or a comment.
fn only_comment_left(rest: &str) -> bool {
    let trimmed = rest.trim_start_matches(' ');
    trimmed.is_empty() || (trimmed.len() < rest.len() && trimmed.starts_with('#'))
}

/// Writes `s` as a JSON string, escaped as `serde_json` with Go's formatter escapes it.
fn write_json_string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    if !bytes.iter().any(|&b| JSON_ESCAPE[usize::from(b)]) {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut start = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let mut len = 1;
        let escape: Option<Cow<'static, [u8]>> = match b {
            b'"' => Some(Cow::Borrowed(b"\\\"")),
            b'\\' => Some(Cow::Borrowed(b"\\\\")),
            b'\n' => Some(Cow::Borrowed(b"\\n")),
            b'\r' => Some(Cow::Borrowed(b"\\r")),
            b'\t' => Some(Cow::Borrowed(b"\\t")),
            0x08 => Some(Cow::Borrowed(b"\\b")),
            0x0C => Some(Cow::Borrowed(b"\\f")),
            b'<' => Some(Cow::Borrowed(b"\\u003c")),
            b'>' => Some(Cow::Borrowed(b"\\u003e")),
            b'&' => Some(Cow::Borrowed(b"\\u0026")),
            0xE2 if bytes.get(i + 1) == Some(&0x80) && bytes.get(i + 2) == Some(&0xA8) => {
                len = 3;
                Some(Cow::Borrowed(b"\\u2028"))
            }
            0xE2 if bytes.get(i + 1) == Some(&0x80) && bytes.get(i + 2) == Some(&0xA9) => {
                len = 3;
                Some(Cow::Borrowed(b"\\u2029"))
            }
            _ if b < 0x20 => Some(Cow::Owned(vec![
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xF)],
            ])),
            _ => None,
        };
        if let Some(escape) = escape {
            out.extend_from_slice(bytes.get(start..i).unwrap_or_default());
            out.extend_from_slice(&escape);
            start = i + len;
        }
        i += len;
    }
    out.extend_from_slice(bytes.get(start..).unwrap_or_default());
    out.push(b'"');
}

/// Writes a plain scalar as the JSON value go-yaml v2's typing makes of it.
fn write_plain_value(out: &mut Vec<u8>, text: &str) -> Step {
    match resolve_plain(text) {
        Resolved::Null => out.extend_from_slice(b"null"),
        Resolved::Bool(true) => out.extend_from_slice(b"true"),
        Resolved::Bool(false) => out.extend_from_slice(b"false"),
        Resolved::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Resolved::Uint(u) => {
            let _ = write!(out, "{u}");
        }
        Resolved::Float(f) => {
            if let Some(n) = integral_float(f) {
                let _ = write!(out, "{n}");
            } else {
                let text = format_go_float64(f).map_err(|_| DeclineReason::NonFinite)?;
                out.extend_from_slice(text.as_bytes());
            }
        }
        Resolved::Timestamp | Resolved::Str => write_json_string(out, text),
    }
    Ok(())
}

/// The JSON key a plain scalar key makes (`sigs.k8s.io/yaml` converts keys to strings).
fn plain_key(text: &str) -> Step<Cow<'_, str>> {
    if text == "<<" {
        return Err(DeclineReason::MergeKey);
    }
    match resolve_plain(text) {
        Resolved::Str | Resolved::Timestamp => Ok(Cow::Borrowed(text)),
        Resolved::Float(f) if !f.is_finite() => Err(DeclineReason::NonFinite),
        _ => {
            let scalar = Scalar {
                text,
                plain: true,
                tag: None,
            };
            match scalar.to_key() {
                Ok(Some(key)) => Ok(Cow::Owned(key)),
                _ => Err(DeclineReason::Key),
            }
        }
    }
}

/// The line of a plain scalar in block context starting at `rest`: its text (trailing
/// spaces trimmed), checked to be text the loader reads as such, and whether a comment
/// ends it (so that no line can continue it).
fn plain_text(rest: &str) -> Step<(&str, bool)> {
    let b = rest.as_bytes();
    match b.first() {
        None => return Err(DeclineReason::Syntax),
        Some(b'&' | b'*' | b'!') => return Err(DeclineReason::AnchorAliasOrTag),
        Some(b'[' | b'{') => return Err(DeclineReason::FlowCollection),
        Some(b'|' | b'>') => return Err(DeclineReason::BlockScalar),
        Some(b'?' | b':') => return Err(DeclineReason::Key),
        Some(b'-') if matches!(b.get(1), None | Some(b' ')) => {
            return Err(DeclineReason::Syntax);
        }
        Some(b'#' | b',' | b']' | b'}' | b'%' | b'@' | b'`' | b'\t' | b'"' | b'\'') => {
            return Err(DeclineReason::Syntax);
        }
        _ => {}
    }
    if b.starts_with(b"---") || b.starts_with(b"...") {
        return Err(DeclineReason::Syntax);
    }
    let mut end = b.len();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if !PLAIN_STOP[usize::from(c)] {
            i += 1;
            continue;
        }
        match c {
            b'#' if i > 0 && b.get(i - 1) == Some(&b' ') => {
                end = i;
                break;
            }
            b':' if matches!(b.get(i + 1), None | Some(b' ' | b'\t')) => {
                return Err(DeclineReason::Syntax);
            }
            b'\t' => return Err(DeclineReason::Tab),
            _ => {}
        }
        i += 1;
    }
    let text = rest.get(..end).unwrap_or_default().trim_end_matches(' ');
    if has_special_unicode(text.as_bytes()) {
        return Err(DeclineReason::Character);
    }
    Ok((text, end < b.len()))
}

/// A double- or single-quoted scalar at the start of `rest`, unescaped into `scratch`,
/// and what follows its closing quote; `None` when `rest` starts with neither quote.
fn quoted<'r>(rest: &'r str, scratch: &mut String) -> Option<Step<&'r str>> {
    match rest.as_bytes().first() {
        Some(b'"') => Some(double_quoted(rest, scratch)),
        Some(b'\'') => Some(single_quoted(rest, scratch)),
        _ => None,
    }
}

/// A double-quoted scalar at the start of `rest` (on one line), unescaped into
/// `scratch`; returns what follows the closing quote.
fn double_quoted<'r>(rest: &'r str, scratch: &mut String) -> Step<&'r str> {
    scratch.clear();
    let b = rest.as_bytes();
    let mut i = 1;
    let mut start = 1;
    loop {
        match b.get(i) {
            None => return Err(DeclineReason::MultiLineScalar),
            Some(b'"') => {
                scratch.push_str(rest.get(start..i).unwrap_or_default());
                break;
            }
            Some(b'\\') => {
                scratch.push_str(rest.get(start..i).unwrap_or_default());
                let (ch, len) = match b.get(i + 1) {
                    Some(b'0') => ('\0', 2),
                    Some(b'a') => ('\x07', 2),
                    Some(b'b') => ('\x08', 2),
                    Some(b't' | b'\t') => ('\t', 2),
                    Some(b'n') => ('\n', 2),
                    Some(b'v') => ('\x0b', 2),
                    Some(b'f') => ('\x0c', 2),
                    Some(b'r') => ('\r', 2),
                    Some(b'e') => ('\x1b', 2),
                    Some(b' ') => (' ', 2),
                    Some(b'"') => ('"', 2),
                    Some(b'/') => ('/', 2),
                    Some(b'\\') => ('\\', 2),
                    Some(b'N') => ('\u{85}', 2),
                    Some(b'_') => ('\u{a0}', 2),
                    Some(b'L') => ('\u{2028}', 2),
                    Some(b'P') => ('\u{2029}', 2),
                    Some(&c @ (b'x' | b'u' | b'U')) => {
                        let digits = match c {
                            b'x' => 2,
                            b'u' => 4,
                            _ => 8,
                        };
                        let hex = rest
                            .get(i + 2..i + 2 + digits)
                            .ok_or(DeclineReason::Syntax)?;
                        if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                            return Err(DeclineReason::Syntax);
                        }
                        let code =
                            u32::from_str_radix(hex, 16).map_err(|_| DeclineReason::Syntax)?;
                        let ch = char::from_u32(code).ok_or(DeclineReason::Syntax)?;
                        (ch, 2 + digits)
                    }
                    // An escaped line break continues the scalar on the next line.
                    None => return Err(DeclineReason::MultiLineScalar),
                    Some(_) => return Err(DeclineReason::Syntax),
                };
                scratch.push(ch);
                i += len;
                start = i;
            }
            Some(b'\t') => i += 1,
            Some(_) => i += 1,
        }
    }
    let raw = rest.get(1..i).unwrap_or_default();
    if has_special_unicode(raw.as_bytes()) {
        return Err(DeclineReason::Character);
    }
    Ok(rest.get(i + 1..).unwrap_or_default())
}

/// A single-quoted scalar at the start of `rest` (on one line) into `scratch`; returns
/// what follows the closing quote.
fn single_quoted<'r>(rest: &'r str, scratch: &mut String) -> Step<&'r str> {
    scratch.clear();
    let b = rest.as_bytes();
    let mut i = 1;
    let mut start = 1;
    loop {
        match b.get(i) {
            None => return Err(DeclineReason::MultiLineScalar),
            Some(b'\'') if b.get(i + 1) == Some(&b'\'') => {
                scratch.push_str(rest.get(start..=i).unwrap_or_default());
                i += 2;
                start = i;
            }
            Some(b'\'') => {
                scratch.push_str(rest.get(start..i).unwrap_or_default());
                break;
            }
            Some(_) => i += 1,
        }
    }
    if has_special_unicode(rest.get(1..i).unwrap_or_default().as_bytes()) {
        return Err(DeclineReason::Character);
    }
    Ok(rest.get(i + 1..).unwrap_or_default())
}

/// A plain scalar inside a flow sequence: ends at `,` or `]`; anything that could make it
/// a mapping, a comment or a nested collection is declined.
fn flow_plain(rest: &str) -> Step<(&str, &str)> {
    let b = rest.as_bytes();
    match b.first() {
        Some(b'-') if matches!(b.get(1), None | Some(b' ' | b',' | b']')) => {
            return Err(DeclineReason::FlowCollection);
        }
        Some(b'&' | b'*' | b'!') => return Err(DeclineReason::AnchorAliasOrTag),
        Some(
            b'[' | b'{' | b'}' | b']' | b',' | b'?' | b':' | b'#' | b'|' | b'>' | b'%' | b'@'
            | b'`',
        )
        | None => return Err(DeclineReason::FlowCollection),
        _ => {}
    }
    if b.starts_with(b"---") || b.starts_with(b"...") {
        return Err(DeclineReason::FlowCollection);
    }
    let end = b
        .iter()
        .position(|&c| matches!(c, b',' | b']'))
        .ok_or(DeclineReason::FlowCollection)?;
    let text = rest.get(..end).unwrap_or_default();
    // A `-` or `?` standing alone inside a flow sequence is an indicator to the
    // loader's parser (`[a -]` fails there).
    let lone_indicator = text
        .as_bytes()
        .windows(2)
        .any(|w| matches!(w, [b'-' | b'?', b' '] | [b' ', b'-' | b'?']))
        || text.trim_end_matches(' ').ends_with(['-', '?']);
    if lone_indicator
        || text
            .bytes()
            .any(|c| matches!(c, b'[' | b'{' | b'}' | b':' | b'#' | b'\t' | b'"' | b'\''))
    {
        return Err(DeclineReason::FlowCollection);
    }
    if has_special_unicode(text.as_bytes()) {
        return Err(DeclineReason::Character);
    }
    Ok((
        text.trim_end_matches(' '),
        rest.get(end..).unwrap_or_default(),
    ))
}

impl<'a> Transcoder<'a> {
    fn new(src: &'a str) -> Self {
        Transcoder {
            src,
            pos: 0,
            line: 0,
            out: Vec::with_capacity(src.len()),
            stack: Vec::new(),
            entries: Vec::new(),
            scratch: String::new(),
        }
    }

    /// The next line without its line break, and whether it had one.
    fn next_line(&mut self) -> Option<(&'a str, bool)> {
        let rest = self.src.get(self.pos..).filter(|r| !r.is_empty())?;
        self.line += 1;
        let (line, terminated) = match find_newline(rest.as_bytes()) {
            Some(n) => {
                self.pos += n + 1;
                (rest.get(..n).unwrap_or_default(), true)
            }
            None => {
                self.pos = self.src.len();
                (rest, false)
            }
        };
        Some((line.strip_suffix('\r').unwrap_or(line), terminated))
    }

    fn run(mut self) -> Result<Vec<u8>, Declined> {
        match self.lines() {
            Ok(()) => Ok(self.out),
            Err(reason) => Err(Declined {
                line: self.line.max(1),
                reason,
            }),
        }
    }

    fn lines(&mut self) -> Step {
        let mut started = false;
        let mut marker_seen = false;
        while let Some((line, _)) = self.next_line() {
            let indent = spaces(line);
            let rest = line.get(indent..).unwrap_or_default();
            if rest.starts_with('\t') {
                return Err(DeclineReason::Tab);
            }
            if rest.is_empty() || rest.starts_with('#') {
                continue;
            }
            if indent == 0 && (rest.starts_with("---") || rest.starts_with("...")) {
                let after = rest.get(3..).unwrap_or_default();
                let marker = after.is_empty() || after.starts_with([' ', '\t']);
                if marker {
                    if rest.starts_with("---")
                        && !started
                        && !marker_seen
                        && only_comment_left(after)
                    {
                        marker_seen = true;
                        continue;
                    }
                    return Err(DeclineReason::Document);
                }
            }
            if indent == 0 && rest.starts_with('%') {
                return Err(DeclineReason::Document);
            }
            if !started {
                started = true;
                self.start_node(rest, indent, Place::OwnLine)?;
                continue;
            }
            if self.resolve_pending(rest, indent)? {
                continue;
            }
            self.place(rest, indent)?;
        }
        if !started {
            return Err(DeclineReason::Document);
        }
        while !self.stack.is_empty() {
            self.resolve_pending_null();
            self.close()?;
        }
        Ok(())
    }

    /// A line after a key or dash that awaits its value: the line starts the value when
    /// it is more indented (or, after a key, is a `-` at the key's column); otherwise the
    /// value is null. True when the line was taken.
    fn resolve_pending(&mut self, rest: &'a str, col: usize) -> Step<bool> {
        let (indent, is_map) = match self.stack.last() {
            Some(Frame::Map {
                indent,
                pending: true,
                ..
            }) => (*indent, true),
            Some(Frame::Seq {
                indent,
                pending: true,
                ..
            }) => (*indent, false),
            _ => return Ok(false),
        };
        self.clear_pending();
        if col > indent {
            self.start_node(rest, col, Place::OwnLine)?;
            return Ok(true);
        }
        if is_map && col == indent && is_dash(rest) {
            self.push(Frame::Seq {
                indent,
                first: true,
                pending: false,
                under_key: true,
            })?;
            self.out.push(b'[');
            return Ok(false);
        }
        self.out.extend_from_slice(b"null");
        Ok(false)
    }

    fn resolve_pending_null(&mut self) {
        if let Some(Frame::Map { pending, .. } | Frame::Seq { pending, .. }) = self.stack.last() {
            if *pending {
                self.clear_pending();
                self.out.extend_from_slice(b"null");
            }
        }
    }

    fn clear_pending(&mut self) {
        if let Some(Frame::Map { pending, .. } | Frame::Seq { pending, .. }) = self.stack.last_mut()
        {
            *pending = false;
        }
    }

    fn set_pending(&mut self) {
        if let Some(Frame::Map { pending, .. } | Frame::Seq { pending, .. }) = self.stack.last_mut()
        {
            *pending = true;
        }
    }

    /// A line at column `col` continuing the open collections: closes the ones it is
    /// less indented than, then reads an entry or an item of the one it belongs to.
    fn place(&mut self, rest: &'a str, col: usize) -> Step {
        loop {
            let Some(top) = self.stack.last() else {
                // Text after the root node ended.
                return Err(DeclineReason::Syntax);
            };
            let indent = top.indent();
            if col < indent {
                self.close()?;
                continue;
            }
            if col > indent {
                return Err(DeclineReason::MultiLineScalar);
            }
            match top {
                Frame::Map { .. } => {
                    let (key, after) = self.key_at(rest)?.ok_or(DeclineReason::Syntax)?;
                    return self.entry(key, after);
                }
                Frame::Seq { under_key, .. } => {
                    if is_dash(rest) {
                        return self.item(rest, col);
                    }
                    if !*under_key {
                        return Err(DeclineReason::Syntax);
                    }
                    self.close()?;
                }
            }
        }
    }

    fn push(&mut self, frame: Frame) -> Step {
        if self.stack.len() >= MAX_DEPTH {
            return Err(DeclineReason::TooDeep);
        }
        self.stack.push(frame);
        Ok(())
    }

    /// A node whose first token is `rest`, at column `col`.
    fn start_node(&mut self, rest: &'a str, col: usize, place: Place) -> Step {
        if is_dash(rest) {
            self.push(Frame::Seq {
                indent: col,
                first: true,
                pending: false,
                under_key: false,
            })?;
            self.out.push(b'[');
            return self.item(rest, col);
        }
        if let Some((key, after)) = self.key_at(rest)? {
            self.push(Frame::Map {
                indent: col,
                base: self.entries.len(),
                start: self.out.len() + 1,
                sorted: true,
                pending: false,
            })?;
            self.out.push(b'{');
            return self.entry(key, after);
        }
        match place {
            Place::AfterDash => self.inline_value(rest),
            Place::OwnLine => Err(if self.stack.is_empty() {
                DeclineReason::Document
            } else {
                DeclineReason::MultiLineScalar
            }),
        }
    }

    /// A sequence item: `rest` starts with the dash. Items that are sequences themselves
    /// (`- - a`) nest without recursion.
    fn item(&mut self, mut rest: &'a str, mut col: usize) -> Step {
        loop {
            if let Some(Frame::Seq { first, .. }) = self.stack.last_mut() {
                if !*first {
                    self.out.push(b',');
                }
                *first = false;
            }
            let after = rest.get(1..).unwrap_or_default();
            let gap = spaces(after);
            let content = after.get(gap..).unwrap_or_default();
            if content.is_empty() || (gap > 0 && content.starts_with('#')) {
                self.set_pending();
                return Ok(());
            }
            if content.starts_with('\t') {
                return Err(DeclineReason::Tab);
            }
            col += 1 + gap;
            rest = content;
            if is_dash(rest) {
                self.push(Frame::Seq {
                    indent: col,
                    first: true,
                    pending: false,
                    under_key: false,
                })?;
                self.out.push(b'[');
                continue;
            }
            return self.start_node(rest, col, Place::AfterDash);
        }
    }

    /// The key at the start of `rest` as JSON has it, and what follows its `:`; `None`
    /// when `rest` does not start with a key.
    #[inline(always)]
    fn key_at(&mut self, rest: &'a str) -> Step<Option<(Cow<'a, str>, &'a str)>> {
        if let Some(read) = quoted(rest, &mut self.scratch) {
            let after = read?;
            return Ok(key_colon(after).map(|after| (Cow::Owned(self.scratch.clone()), after)));
        }
        let b = rest.as_bytes();
        match b.first() {
            Some(b'?') if matches!(b.get(1), None | Some(b' ')) => Err(DeclineReason::Key),
            _ => {
                // One pass: the `: ` that ends the key, and whether anything before it
                // keeps the key out of the subset.
                let mut odd = false;
                let mut prev = 0u8;
                for (i, &c) in b.iter().enumerate() {
                    if !PLAIN_STOP[usize::from(c)] {
                        prev = c;
                        continue;
                    }
                    match c {
                        b':' if matches!(b.get(i + 1), None | Some(b' ')) => {
                            if odd {
                                return Err(DeclineReason::Key);
                            }
                            let text = rest.get(..i).unwrap_or_default();
                            let key = plain_key(plain_key_text(text)?)?;
                            return Ok(Some((key, rest.get(i + 1..).unwrap_or_default())));
                        }
                        b'#' if prev == b' ' => return Ok(None),
                        b'[' | b']' | b'{' | b'}' | b',' | b'\t' | b'#' | b'"' | b'\'' => {
                            odd = true;
                        }
                        _ => {}
                    }
                    prev = c;
                }
                Ok(None)
            }
        }
    }

    /// A mapping entry: `key` and the text after its `:` (a value, or nothing when the
    /// value is on the lines below), in the mapping on top of the stack.
    fn entry(&mut self, key: Cow<'a, str>, after: &'a str) -> Step {
        if key.len() > 1024 {
            return Err(DeclineReason::Key);
        }
        let out_len = self.out.len();
        let Some(Frame::Map {
            base,
            sorted,
            pending,
            ..
        }) = self.stack.last_mut()
        else {
            return Err(DeclineReason::Syntax);
        };
        *pending = false;
        let base = *base;
        let in_map = self.entries.len() > base;
        if let Some(last) = self.entries.last_mut().filter(|_| in_map) {
            last.end = out_len;
            if *sorted && last.key.as_ref() >= key.as_ref() {
                *sorted = false;
            }
            self.out.push(b',');
        }
        let start = self.out.len();
        write_json_string(&mut self.out, &key);
        self.out.push(b':');
        self.entries.push(Entry { key, start, end: 0 });
        let gap = spaces(after);
        let value = after.get(gap..).unwrap_or_default();
        if value.is_empty() || (gap > 0 && value.starts_with('#')) {
            self.set_pending();
            return Ok(());
        }
        if value.starts_with('\t') {
            return Err(DeclineReason::Tab);
        }
        if is_dash(value) {
            return Err(DeclineReason::Syntax);
        }
        // `a: b: c`, which YAML does not allow, is declined by the scalar readers.
        self.inline_value(value)
    }

    /// A value on the line of its key or dash: a scalar, a flow collection, or the
    /// header of a block scalar whose lines follow.
    fn inline_value(&mut self, rest: &'a str) -> Step {
        let after = match rest.as_bytes().first() {
            Some(b'"' | b'\'') => self.quoted_value(rest)?,
            Some(b'|') => return self.block_scalar(rest),
            Some(b'>') => return Err(DeclineReason::BlockScalar),
            Some(b'[') => self.flow_sequence(rest)?,
            Some(b'{') => {
                let after = rest.get(1..).unwrap_or_default().trim_start_matches(' ');
                let after = after
                    .strip_prefix('}')
                    .ok_or(DeclineReason::FlowCollection)?;
                self.out.extend_from_slice(b"{}");
                after
            }
            _ => {
                let (text, commented) = plain_text(rest)?;
                if commented {
                    return write_plain_value(&mut self.out, text);
                }
                return match self.plain_continuation(text)? {
                    Some(folded) => {
                        let result = write_plain_value(&mut self.out, &folded);
                        self.scratch = folded;
                        result
                    }
                    None => write_plain_value(&mut self.out, text),
                };
            }
        };
        if only_comment_left(after) {
            Ok(())
        } else {
            Err(DeclineReason::Syntax)
        }
    }

    /// The lines that continue a plain scalar whose first line is `first`: more indented
    /// than the collection the scalar is in, folded as YAML folds them (one line break
    /// becomes a space, each empty line between two lines a line feed). `None` when no
    /// line continues it; the lines that do not are left for the caller.
    fn plain_continuation(&mut self, first: &str) -> Step<Option<String>> {
        let parent = self.stack.last().map_or(0, Frame::indent);
        let mut folded: Option<String> = None;
        loop {
            let (save_pos, save_line) = (self.pos, self.line);
            let mut breaks = 0;
            let next = loop {
                match self.next_line() {
                    None => break None,
                    Some((line, _)) => {
                        let lead = spaces(line);
                        if lead == line.len() {
                            breaks += 1;
                            continue;
                        }
                        break Some((line, lead));
                    }
                }
            };
            let content = match next {
                Some((line, lead)) if lead > parent => line.get(lead..).unwrap_or_default(),
                _ => {
                    self.pos = save_pos;
                    self.line = save_line;
                    return Ok(folded);
                }
            };
            if content.starts_with('#') {
                // A comment ends the scalar; a line continuing it after that is the
                // caller's to decline.
                self.pos = save_pos;
                self.line = save_line;
                return Ok(folded);
            }
            let (text, commented) = plain_text(content)?;
            let out = folded.get_or_insert_with(|| {
                let mut s = std::mem::take(&mut self.scratch);
                s.clear();
                s.push_str(first);
                s
            });
            if breaks == 0 {
                out.push(' ');
            } else {
                out.extend(std::iter::repeat_n('\n', breaks));
            }
            out.push_str(text);
            if commented {
                return Ok(folded);
            }
        }
    }

    /// A quoted scalar at the start of `rest`, written as a JSON string; returns what
    /// follows its closing quote.
    fn quoted_value(&mut self, rest: &'a str) -> Step<&'a str> {
        let after = quoted(rest, &mut self.scratch).unwrap_or(Err(DeclineReason::Syntax))?;
        write_json_string(&mut self.out, &self.scratch);
        Ok(after)
    }

    /// `[a, "b", 'c']` on one line; returns what follows the `]`.
    fn flow_sequence(&mut self, rest: &'a str) -> Step<&'a str> {
        let mut rest = rest.get(1..).unwrap_or_default().trim_start_matches(' ');
        self.out.push(b'[');
        if let Some(after) = rest.strip_prefix(']') {
            self.out.push(b']');
            return Ok(after);
        }
        loop {
            rest = match rest.as_bytes().first() {
                Some(b'"' | b'\'') => self.quoted_value(rest)?,
                _ => {
                    let (text, after) = flow_plain(rest)?;
                    write_plain_value(&mut self.out, text)?;
                    after
                }
            }
            .trim_start_matches(' ');
            if let Some(after) = rest.strip_prefix(']') {
                self.out.push(b']');
                return Ok(after);
            }
            rest = rest
                .strip_prefix(',')
                .ok_or(DeclineReason::FlowCollection)?
                .trim_start_matches(' ');
            if rest.starts_with([']', ',']) || rest.is_empty() {
                return Err(DeclineReason::FlowCollection);
            }
            self.out.push(b',');
        }
    }

    /// A literal block scalar: `header` is `|` with its chomping and indentation
    /// indicators; the content lines follow.
    fn block_scalar(&mut self, header: &'a str) -> Step {
        let parent = self.stack.last().map_or(0, Frame::indent);
        let mut chomp = None;
        let mut explicit = None;
        let mut i = 1;
        let hb = header.as_bytes();
        while let Some(&c) = hb.get(i) {
            match c {
                b'-' | b'+' if chomp.is_none() => chomp = Some(c),
                b'1'..=b'9' if explicit.is_none() => explicit = Some(usize::from(c - b'0')),
                _ => break,
            }
            i += 1;
        }
        if !only_comment_left(header.get(i..).unwrap_or_default()) {
            return Err(DeclineReason::BlockScalar);
        }
        let mut indent = explicit.map(|d| parent + d);
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        let mut leading_max = 0;
        let mut has_content = false;
        loop {
            let (save_pos, save_line) = (self.pos, self.line);
            let Some((line, terminated)) = self.next_line() else {
                break;
            };
            let lead = spaces(line);
            let blank = lead == line.len();
            let ind = match indent {
                Some(ind) => ind,
                None if blank => {
                    leading_max = leading_max.max(lead);
                    if !terminated {
                        return Err(DeclineReason::BlockScalar);
                    }
                    text.push('\n');
                    continue;
                }
                None => {
                    if lead <= parent {
                        self.pos = save_pos;
                        self.line = save_line;
                        break;
                    }
                    if leading_max > lead {
                        return Err(DeclineReason::BlockScalar);
                    }
                    indent = Some(lead);
                    lead
                }
            };
            if blank {
                if lead > ind || !terminated {
                    return Err(DeclineReason::BlockScalar);
                }
                text.push('\n');
                continue;
            }
            if lead < ind {
                self.pos = save_pos;
                self.line = save_line;
                break;
            }
            if !terminated {
                return Err(DeclineReason::BlockScalar);
            }
            let content = line.get(ind..).unwrap_or_default();
            if has_special_unicode(content.as_bytes()) {
                return Err(DeclineReason::Character);
            }
            text.push_str(content);
            text.push('\n');
            has_content = true;
        }
        if !has_content {
            return Err(DeclineReason::BlockScalar);
        }
        match chomp {
            Some(b'+') => {}
            Some(_) => text.truncate(text.trim_end_matches('\n').len()),
            None => {
                text.truncate(text.trim_end_matches('\n').len());
                text.push('\n');
            }
        }
        write_json_string(&mut self.out, &text);
        self.scratch = text;
        Ok(())
    }

    /// Closes the collection on top of the stack: the mapping's entries are put in key
    /// order (Go sorts map keys) unless they came that way.
    fn close(&mut self) -> Step {
        let out_len = self.out.len();
        match self.stack.pop() {
            Some(Frame::Seq { .. }) => self.out.push(b']'),
            Some(Frame::Map {
                base,
                start,
                sorted,
                ..
            }) => {
                let in_map = self.entries.len() > base;
                if let Some(last) = self.entries.last_mut().filter(|_| in_map) {
                    last.end = out_len;
                }
                if !sorted {
                    self.sort_entries(base, start)?;
                }
                self.entries.truncate(base);
                self.out.push(b'}');
            }
            None => {}
        }
        Ok(())
    }

    fn sort_entries(&mut self, base: usize, start: usize) -> Step {
        let entries = self.entries.get_mut(base..).unwrap_or_default();
        entries.sort_by(|a, b| a.key.cmp(&b.key));
        if entries.windows(2).any(|w| match w {
            [a, b] => a.key == b.key,
            _ => false,
        }) {
            return Err(DeclineReason::DuplicateKey);
        }
        let region = self.out.get(start..).unwrap_or_default().to_vec();
        self.out.truncate(start);
        for (n, e) in entries.iter().enumerate() {
            if n > 0 {
                self.out.push(b',');
            }
            let bytes = e
                .start
                .checked_sub(start)
                .zip(e.end.checked_sub(start))
                .and_then(|(from, to)| region.get(from..to))
                .ok_or(DeclineReason::Syntax)?;
            self.out.extend_from_slice(bytes);
        }
        Ok(())
    }
}

/// After a quoted key: `:` then a space or the end of the line; returns what follows.
fn key_colon(after: &str) -> Option<&str> {
    let rest = after.strip_prefix(':')?;
    (rest.is_empty() || rest.starts_with(' ')).then_some(rest)
}

/// A plain key's text, checked to be one the loader reads as this text (the caller has
/// checked it for flow indicators, quotes, tabs and `#`).
fn plain_key_text(text: &str) -> Step<&str> {
    let b = text.as_bytes();
    match b.first() {
        None => return Err(DeclineReason::Key),
        Some(b'&' | b'*' | b'!') => return Err(DeclineReason::AnchorAliasOrTag),
        Some(b'-' | b'?' | b':' | b'#' | b'|' | b'>' | b'%' | b'@' | b'`' | b'"' | b'\'') => {
            return Err(DeclineReason::Key);
        }
        _ => {}
    }
    let trimmed = text.trim_end_matches(' ');
    if trimmed.len() != text.len() || has_special_unicode(b) {
        return Err(DeclineReason::Key);
    }
    Ok(trimmed)
}
