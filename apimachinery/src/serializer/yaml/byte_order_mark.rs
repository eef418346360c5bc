//! U+FEFF after the start of a stream. go-yaml reads it as an ordinary printable
//! character (in a comment, a scalar, a key: `k: x\u{FEFF}y` is the string
//! `"x\u{FEFF}y"`), and skips it only as the stream's first character. The parser under
//! the loader refuses it anywhere but there. The loader therefore hands the parser the
//! text with every later U+FEFF replaced by a private-use character the text does not
//! contain, and puts U+FEFF back into the scalars it reads.

use std::borrow::Cow;

const BOM: char = '\u{FEFF}';

/// The text the parser reads, and the character standing for U+FEFF in it (`None`: the
/// text is unchanged).
pub(crate) fn mask(input: &str) -> (Cow<'_, str>, Option<char>) {
    let start = input.strip_prefix(BOM).map_or(0, |_| BOM.len_utf8());
    if !input[start..].contains(BOM) {
        return (Cow::Borrowed(input), None);
    }
    // A character of the same UTF-8 length, so that lines and columns stay where they
    // are. Every one of the 6,400 taken means a crafted text: leave it to the parser.
    let Some(stand_in) = ('\u{E000}'..='\u{F8FF}').find(|c| !input.contains(*c)) else {
        return (Cow::Borrowed(input), None);
    };
    let mut masked = String::with_capacity(input.len());
    masked.push_str(&input[..start]);
    for c in input[start..].chars() {
        masked.push(if c == BOM { stand_in } else { c });
    }
    (Cow::Owned(masked), Some(stand_in))
}

/// `text` as the input had it: the stand-in back to U+FEFF.
pub(crate) fn unmask(text: &str, stand_in: Option<char>) -> Cow<'_, str> {
    match stand_in {
        Some(c) if text.contains(c) => Cow::Owned(text.replace(c, "\u{FEFF}")),
        _ => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_marks_after_the_start_are_replaced_by_an_unused_character_of_the_same_length() {
        let (text, stand_in) = mask("\u{FEFF}a: 1\n");
        assert_eq!((text.as_ref(), stand_in), ("\u{FEFF}a: 1\n", None));

        let input = "\u{FEFF}a: x\u{FEFF}y # \u{FEFF}\u{E000}\n";
        let (text, stand_in) = mask(input);
        assert_eq!(stand_in, Some('\u{E001}'));
        assert_eq!(text, "\u{FEFF}a: x\u{E001}y # \u{E001}\u{E000}\n");
        assert_eq!(text.len(), input.len());
        assert_eq!(unmask(&text, stand_in), input);
        assert_eq!(unmask("plain", stand_in), "plain");
    }
}
