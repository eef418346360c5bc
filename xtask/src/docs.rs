//! Doc comments from the reference data, made safe for rustdoc: the text is prose, so
//! nothing in it may become a code block (rustdoc would compile it as a doctest), an
//! intra-doc link, an HTML tag or a bare URL warning.

/// The lines of a `///` comment for `text`; empty text gives `fallback`.
pub fn doc_lines(text: &str, fallback: &str) -> Vec<String> {
    let text = text.trim();
    let text = if text.is_empty() { fallback } else { text };
    let mut lines: Vec<String> = Vec::new();
    for raw in text.lines() {
        // Indentation would make a Markdown code block, which rustdoc runs as a doctest.
        let line = raw.trim();
        lines.push(escape_line(line));
    }
    // No blank lines at the ends, no runs of blank lines.
    lines.dedup_by(|a, b| a.is_empty() && b.is_empty());
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

fn escape_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    while !rest.is_empty() {
        let url_at = ["https://", "http://"]
            .iter()
            .filter_map(|p| rest.find(p))
            .min();
        match url_at {
            Some(0) => {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                let (mut url, mut tail) = rest.split_at(end);
                // Sentence punctuation after a URL is not part of it.
                while let Some(last) = url.chars().last() {
                    if ".,;:)'\"`>]".contains(last) {
                        let cut = url.len() - last.len_utf8();
                        tail = &rest[cut..];
                        url = &url[..cut];
                    } else {
                        break;
                    }
                }
                if url.contains(['<', '>', '[', ']', '`']) || url.len() <= "https://".len() {
                    escape_text(url, &mut out);
                } else {
                    out.push('<');
                    out.push_str(url);
                    out.push('>');
                }
                rest = tail;
            }
            Some(at) => {
                let (text, tail) = rest.split_at(at);
                escape_text(text, &mut out);
                rest = tail;
            }
            None => {
                escape_text(rest, &mut out);
                rest = "";
            }
        }
    }
    out
}

fn escape_text(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '[' | ']' | '<' | '>' | '`' | '\\' | '*' | '_' | '#' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\t' => out.push(' '),
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_links_and_html_are_neutralised() {
        let lines = doc_lines(
            "Example:\n    kind: Pod\n[foo] <b>\nMore info: https://k8s.io/docs.\n\n\n```yaml```",
            "none",
        );
        assert_eq!(
            lines,
            [
                "Example:",
                "kind: Pod",
                "\\[foo\\] \\<b\\>",
                "More info: <https://k8s.io/docs>.",
                "",
                "\\`\\`\\`yaml\\`\\`\\`",
            ]
        );
    }

    #[test]
    fn empty_text_takes_the_fallback() {
        assert_eq!(doc_lines("  ", "The field."), ["The field."]);
    }
}
