//! Go's `strings` case mappings, where Rust's differ: validation lower-cases user input
//! before checking it and shows the lower-cased value in its errors, so the mapping must
//! be Go's to the character.
//!
//! Go maps each character on its own with Unicode's simple case mapping. Rust's
//! `str::to_lowercase` uses the full mapping and context: `İ` (U+0130) becomes `i`
//! followed by a combining dot above (Go: `i`), and a capital sigma ending a word becomes
//! `ς` (Go: `σ`). Found by the oracle's random objects (a StorageClass provisioner
//! holding `İ`).

/// Go's `strings.ToLower`.
///
/// ```
/// use apimachinery::util::go_strings::to_lower;
///
/// assert_eq!(to_lower("Example.COM"), "example.com");
/// // One character for one, as Go maps them.
/// assert_eq!(to_lower("\u{130}X"), "ix");
/// assert_eq!(to_lower("ΟΔΟΣ"), "οδοσ");
/// ```
pub fn to_lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    s.chars().map(to_lower_char).collect()
}

/// Go's `unicode.ToLower`: the simple lower-case mapping of one character.
pub fn to_lower_char(c: char) -> char {
    // The only character whose full lower-case mapping is longer than one character
    // (SpecialCasing.txt, unconditionally): its simple mapping is plain `i`.
    if c == '\u{130}' {
        return 'i';
    }
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_one_character_to_one_as_go() {
        // Go: strings.ToLower of each input.
        let cases = [
            ("", ""),
            ("abc", "abc"),
            ("AbC-1.X", "abc-1.x"),
            ("t串4ʢ\u{130}濟", "t串4ʢi濟"),
            ("ΣΑΣ", "σασ"),
            ("ÀÉÎ", "àéî"),
            // No simple lower-case mapping: unchanged.
            ("ß串", "ß串"),
            // Title case letters have one.
            ("ǅ", "ǆ"),
        ];
        for (input, want) in cases {
            assert_eq!(to_lower(input), want, "{input:?}");
        }
        for c in ['\u{130}', 'Σ', 'A', 'a', '串'] {
            assert_eq!(to_lower_char(c).len_utf8(), to_lower(&c.to_string()).len());
        }
    }
}
