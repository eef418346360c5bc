//! The `Warning` headers of an answer (Go's `endpoints/filters.WithWarningRecorder` and
//! `warning.AddWarning`): every warning of a request (its kind's deprecation, then those
//! of decoding, the strategy and admission, in the order they arise) is recorded once,
//! written as `299 - "text"`, and when together they pass 4,096 characters each is cut
//! to 256 characters and those beyond the 4,096 dropped, as Go's recorder does.

use axum::http::{HeaderMap, HeaderValue, header};

/// Go's `truncateAtTotalRunes`: how many characters of warning text an answer carries.
const TOTAL_CHARS: usize = 4 * 1024;
/// Go's `truncateItemRunes`: the characters kept of each warning once truncating.
const ITEM_CHARS: usize = 256;

/// The warnings of one request, in the order they were added (Go's `recorder`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct WarningRecorder {
    /// Every distinct text recorded, in order (what truncation rewrites from).
    recorded: Vec<String>,
    /// The header values written, as Go's recorder has written them so far.
    headers: Vec<HeaderValue>,
    /// Characters of text written.
    written: usize,
    /// Whether the texts are being cut to [`ITEM_CHARS`].
    truncating: bool,
}

impl WarningRecorder {
    /// No warnings.
    pub fn new() -> Self {
        WarningRecorder::default()
    }

    /// Records `text` (Go's `AddWarning` with no agent): an empty text or one recorded
    /// before adds nothing.
    pub fn add(&mut self, text: &str) {
        if text.is_empty() || (self.truncating && self.written >= TOTAL_CHARS) {
            return;
        }
        if self.recorded.iter().any(|t| t == text) {
            return;
        }
        self.recorded.push(text.to_owned());
        let chars = text.chars().count();
        if self.truncating || self.written + chars <= TOTAL_CHARS {
            let (text, chars) = if self.truncating {
                cut(text, chars)
            } else {
                (text, chars)
            };
            if let Some(value) = header_value(text) {
                self.written += chars;
                self.headers.push(value);
            }
            return;
        }
        // Over the limit: from now on every text is cut, those written before too.
        self.truncating = true;
        self.written = 0;
        self.headers.clear();
        for text in &self.recorded {
            let (text, chars) = cut(text, text.chars().count());
            if let Some(value) = header_value(text) {
                self.written += chars;
                self.headers.push(value);
            }
        }
    }

    /// Records each of `texts`, in order.
    pub fn extend<'a>(&mut self, texts: impl IntoIterator<Item = &'a str>) {
        for text in texts {
            self.add(text);
        }
    }

    /// Appends the recorded warnings to `headers` as `Warning` headers.
    pub fn write_to(&self, headers: &mut HeaderMap) {
        for value in &self.headers {
            headers.append(header::WARNING, value.clone());
        }
    }
}

/// The warnings a handler records as they arise (Go's `warning.AddWarning` into the
/// request's recorder), so that an error answer carries those recorded before the
/// error: a write's decoding warnings when validation then refuses it, say. A
/// successful answer carries its reply's warnings, which include these.
#[derive(Debug, Default)]
pub struct PendingWarnings(std::sync::Mutex<Vec<String>>);

impl PendingWarnings {
    /// Records `texts`.
    pub fn add(&self, texts: &[String]) {
        if texts.is_empty() {
            return;
        }
        // A poisoned lock (a panic elsewhere) still holds the texts recorded.
        let mut pending = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        pending.extend(texts.iter().cloned());
    }

    /// The texts recorded, in order (repeats are the recorder's to drop).
    pub fn take(&self) -> Vec<String> {
        let mut pending = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        std::mem::take(&mut *pending)
    }
}

/// The first [`ITEM_CHARS`] characters of `text` (of `chars` characters), and how many.
fn cut(text: &str, chars: usize) -> (&str, usize) {
    if chars <= ITEM_CHARS {
        return (text, chars);
    }
    let end = text
        .char_indices()
        .nth(ITEM_CHARS)
        .map_or(text.len(), |(i, _)| i);
    (&text[..end], ITEM_CHARS)
}

/// `299 - "text"` with `"` and `\` escaped (Go's `net.NewWarningHeader`); `None` for a
/// text with control characters, which Go does not write.
fn header_value(text: &str) -> Option<HeaderValue> {
    if text.chars().any(char::is_control) {
        return None;
    }
    let mut value = String::with_capacity(text.len() + 8);
    value.push_str("299 - \"");
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            value.push('\\');
        }
        value.push(c);
    }
    value.push('"');
    // UTF-8 beyond ASCII is written as it is, as Go's header writer does.
    HeaderValue::from_bytes(value.as_bytes()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(recorder: &WarningRecorder) -> Vec<String> {
        let mut headers = HeaderMap::new();
        recorder.write_to(&mut headers);
        headers
            .get_all(header::WARNING)
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect()
    }

    #[test]
    fn warnings_are_written_once_in_order() {
        let mut r = WarningRecorder::new();
        r.add("v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice");
        r.extend(["unknown field \"spec.x\"", "", "unknown field \"spec.x\""]);
        r.add("v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice");
        assert_eq!(
            written(&r),
            [
                r#"299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice""#,
                r#"299 - "unknown field \"spec.x\"""#,
            ]
        );
    }

    #[test]
    fn quotes_and_backslashes_are_escaped_and_utf8_kept() {
        let mut r = WarningRecorder::new();
        r.add(r#"a "b" \c é"#);
        r.add("line\nbreak");
        assert_eq!(written(&r), [r#"299 - "a \"b\" \\c é""#]);
    }

    #[test]
    fn past_the_limit_every_warning_is_cut() {
        let mut r = WarningRecorder::new();
        let long = |c: char| c.to_string().repeat(1000);
        for c in ['a', 'b', 'c', 'd'] {
            r.add(&long(c));
        }
        // 4,000 characters: under the limit, written whole.
        assert_eq!(written(&r).len(), 4);
        assert!(written(&r)[0].len() > 1000);
        r.add(&long('e'));
        let all = written(&r);
        assert_eq!(all.len(), 5);
        assert!(
            all.iter()
                .all(|h| h.len() == "299 - \"\"".len() + ITEM_CHARS)
        );
        // Once truncating, texts go on being cut until 4,096 characters are written.
        for c in 'f'..='z' {
            r.add(&long(c));
        }
        assert_eq!(written(&r).len(), TOTAL_CHARS / ITEM_CHARS);
    }
}
