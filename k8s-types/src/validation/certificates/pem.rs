//! PEM blocks read as Go's `encoding/pem.Decode` reads them: the first well-formed block
//! (a `BEGIN` line, optional `Key: value` headers, base64, the matching `END` line) and
//! the rest after it. A malformed candidate is skipped and the search goes on, as Go's;
//! what Go's validators accept and refuse depends on exactly which text counts as a block.

use apimachinery::api::ByteString;

/// One decoded block (Go's `pem.Block`).
pub(crate) struct Block<'a> {
    /// The word(s) after `BEGIN`, e.g. `CERTIFICATE`.
    pub kind: &'a [u8],
    /// Whether the block had `Key: value` header lines (Go's `len(Headers) != 0`).
    pub has_headers: bool,
    /// The decoded contents.
    pub bytes: Vec<u8>,
}

const PEM_START: &[u8] = b"\n-----BEGIN ";
const PEM_END: &[u8] = b"\n-----END ";
const PEM_END_OF_LINE: &[u8] = b"-----";

/// Go's `getLine`: a line without its end (`\n` or `\r\n`) and trailing spaces and
/// tabs, the rest, and how many bytes the line took.
fn get_line(data: &[u8]) -> (&[u8], &[u8], usize) {
    let (mut i, j) = match data.iter().position(|&b| b == b'\n') {
        None => (data.len(), data.len()),
        Some(i) => (i, i + 1),
    };
    if j > i && i > 0 && data.get(i - 1) == Some(&b'\r') {
        i -= 1;
    }
    let mut line = data.get(..i).unwrap_or_default();
    while let [head @ .., b' ' | b'\t'] = line {
        line = head;
    }
    (line, data.get(j..).unwrap_or_default(), j)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

fn trim_space(b: &[u8]) -> &[u8] {
    b.trim_ascii()
}

/// Go's `pem.Decode`: the first block of `data` and what follows it, or `None` (Go's nil
/// block, the whole input as the rest) when there is none.
pub(crate) fn decode(data: &[u8]) -> Option<(Block<'_>, &[u8])> {
    let mut rest: &[u8] = data;
    let mut end_trailer_index: isize = 0;
    loop {
        let skip = usize::try_from(end_trailer_index).ok()?;
        rest = rest.get(skip..)?;
        let end_index = find(rest, PEM_END)?;
        let mut end_index = end_index as isize;
        end_trailer_index = end_index + PEM_END.len() as isize;
        let begin_marker = &PEM_START[1..];
        let Some(begin_index) = rfind(rest.get(..end_index as usize)?, begin_marker) else {
            continue;
        };
        if begin_index > 0 && rest.get(begin_index - 1) != Some(&b'\n') {
            continue;
        }
        let after_begin = begin_index + begin_marker.len();
        rest = rest.get(after_begin..)?;
        end_index -= after_begin as isize;
        end_trailer_index -= after_begin as isize;

        let (type_line, next, consumed) = get_line(rest);
        rest = next;
        end_index -= consumed as isize;
        end_trailer_index -= consumed as isize;
        let Some(kind) = type_line.strip_suffix(PEM_END_OF_LINE) else {
            continue;
        };

        let mut has_headers = false;
        loop {
            if rest.is_empty() {
                return None;
            }
            let (line, next, consumed) = get_line(rest);
            let Some(colon) = line.iter().position(|&b| b == b':') else {
                break;
            };
            // Go keeps the last value of a repeated key; only their presence matters here.
            let _ = (trim_space(&line[..colon]), trim_space(&line[colon + 1..]));
            has_headers = true;
            rest = next;
            end_index -= consumed as isize;
            end_trailer_index -= consumed as isize;
        }
        if has_headers && end_index < 0 {
            continue;
        }

        let Some(end_trailer) = usize::try_from(end_trailer_index)
            .ok()
            .and_then(|at| rest.get(at..))
        else {
            continue;
        };
        let trailer_len = kind.len() + PEM_END_OF_LINE.len();
        if end_trailer.len() < trailer_len {
            continue;
        }
        let (trailer, rest_of_end_line) = end_trailer.split_at(trailer_len);
        if !trailer.starts_with(kind) || !trailer.ends_with(PEM_END_OF_LINE) {
            continue;
        }
        if !get_line(rest_of_end_line).0.is_empty() {
            continue;
        }

        let mut bytes = Vec::new();
        if end_index > 0 {
            let body: Vec<u8> = rest
                .get(..end_index as usize)?
                .iter()
                .copied()
                .filter(|&b| b != b' ' && b != b'\t')
                .collect();
            let Ok(text) = std::str::from_utf8(&body) else {
                continue;
            };
            match ByteString::from_base64(text) {
                Ok(decoded) => bytes = decoded.into_inner(),
                Err(_) => continue,
            }
        }
        // Go's `rest[endIndex+len(pemEnd)-1:]`: with no body the END line follows the type
        // line at once, and `endIndex` is -1 (the newline it was found by is behind).
        let after = rest.get(usize::try_from(end_index + PEM_END.len() as isize - 1).ok()?..)?;
        let (_, after, _) = get_line(after);
        return Some((
            Block {
                kind,
                has_headers,
                bytes,
            },
            after,
        ));
    }
}
