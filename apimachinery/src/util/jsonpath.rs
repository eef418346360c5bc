//! client-go's JSONPath template parser (`k8s.io/client-go/util/jsonpath`, `parser.go`):
//! whether Go parses a template, and if not, Go's error text to the byte. Nothing is
//! evaluated; kube-apiserver only parses such paths where it validates them (a
//! ValidatingAdmissionPolicy's `status.typeChecking.expressionWarnings[*].fieldRef`), so
//! the words of the refusal are what must agree with Go.
//!
//! Go's parser is a set of mutually recursive functions, one call a token: a long
//! template is a deep Go stack, which Go grows as it needs. Ours walks the tokens in a
//! loop and recurses only where Go parses a piece of the template as a template of its
//! own (a union's members, a quoted dictionary key, a filter's operands), a nesting
//! bounded by [`MAX_NESTING`].

use std::fmt;

use super::validation::field::{go_unicode_verb, in_rune_ranges};

mod go_letters;
#[cfg(test)]
mod tests;

/// How deep ours nests templates parsed within templates (a filter's operands, a
/// union's members) before it gives up with an error of its own, where Go has no limit.
/// A filter nests in another only hidden in the quotes of the one around it; the deepest
/// found, with both quote characters, is three levels, far from this.
pub const MAX_NESTING: usize = 100;

/// Why a template does not parse: Go's error text (`unclosed action`, `unrecognized
/// character in action: U+0021 '!'`, `invalid array index 1:2:3:4`, ...), which
/// `Display` writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    message: String,
}

impl ParseError {
    fn new(message: impl Into<String>) -> Self {
        ParseError {
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a JSONPath template as client-go's `jsonpath.Parse` (and `JSONPath.Parse`)
/// does: plain text with actions in braces (`{.metadata.name}`, `{range .items[*]}`):
/// `Ok` where Go returns no error, else Go's error.
///
/// ```
/// use apimachinery::util::jsonpath::parse;
///
/// assert!(parse("{.spec.containers[0].image}").is_ok());
/// assert!(parse("{.items[?(@.status.phase=='Running')].metadata.name}").is_ok());
/// assert_eq!(parse("{.a").unwrap_err().to_string(), "unclosed action");
/// assert_eq!(
///     parse("{!}").unwrap_err().to_string(),
///     "unrecognized character in action: U+0021 '!'"
/// );
/// assert_eq!(parse("{[1:2:3:4]}").unwrap_err().to_string(), "invalid array index 1:2:3:4");
/// ```
pub fn parse(text: &str) -> Result<(), ParseError> {
    Parser::new(text, 0).run().map(|_| ())
}

/// What an action list's last node is, as far as the parser looks back at it: a second
/// recursive descent right after one is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    Empty,
    Recursive,
    Other,
}

/// Go's `Parser`: the input, the position of the next rune, the start of the text not
/// yet consumed and the width of the last rune read (for one step back).
struct Parser<'a> {
    input: &'a str,
    pos: usize,
    start: usize,
    width: usize,
    /// How many templates this one is nested in.
    nesting: usize,
    /// The last node of the action being parsed (Go's `cur`).
    last: Last,
    /// The last node of the first action, once it is closed: a nested parse hands its
    /// caller that action alone (Go's `parseAction` keeps `Root.Nodes[0]`).
    first: Option<Last>,
}

impl<'a> Parser<'a> {
    fn new(input: &'a str, nesting: usize) -> Self {
        Parser {
            input,
            pos: 0,
            start: 0,
            width: 0,
            nesting,
            last: Last::Empty,
            first: None,
        }
    }

    /// The whole template: plain text up to each `{`, then the action to its `}`
    /// (Go's `parseText`, `parseLeftDelim` and the chain of `parseInsideAction`).
    fn run(&mut self) -> Result<Last, ParseError> {
        loop {
            // A `{` is one byte and never inside a multi-byte rune: finding it is what
            // Go's rune-by-rune scan for the delimiter comes to.
            let Some(at) = self.rest().find('{') else {
                self.pos = self.input.len();
                return Ok(self.first.unwrap_or(Last::Empty));
            };
            self.pos += at + 1;
            self.consume();
            self.last = Last::Empty;
            while self.inside_action()? {}
        }
    }

    /// One token of an action (Go's `parseInsideAction` and the function it hands the
    /// token to): `Ok(false)` once the action's `}` is read.
    fn inside_action(&mut self) -> Result<bool, ParseError> {
        // Go tries these prefixes in its map's random order; no two can both match.
        let rest = self.rest();
        if rest.starts_with('}') {
            self.pos += 1;
            self.consume();
            self.first.get_or_insert(self.last);
            return Ok(false);
        }
        if rest.starts_with("[?(") {
            self.filter()?;
            return Ok(true);
        }
        if rest.starts_with("..") {
            self.recursive()?;
            return Ok(true);
        }
        match self.next() {
            None | Some('\r' | '\n') => return Err(ParseError::new("unclosed action")),
            Some(' ' | '@' | '$') => {
                self.consume();
            }
            Some('[') => self.array()?,
            Some(quote @ ('"' | '\'')) => self.quote(quote)?,
            Some('.') => self.field(),
            Some(c) if c == '+' || c == '-' || is_digit(c) => {
                self.backup();
                self.number()?;
            }
            Some(c) if is_alphanumeric(c) => {
                self.backup();
                self.identifier();
            }
            Some(c) => {
                return Err(ParseError::new(format!(
                    "unrecognized character in action: {}",
                    go_unicode_verb(c)
                )));
            }
        }
        Ok(true)
    }

    /// The input from the next rune on.
    fn rest(&self) -> &'a str {
        self.input.get(self.pos..).unwrap_or("")
    }

    /// The text since the last call (Go's `consumeText`).
    fn consume(&mut self) -> &'a str {
        let text = self.input.get(self.start..self.pos).unwrap_or("");
        self.start = self.pos;
        text
    }

    /// The next rune, `None` at the end (Go's `eof`).
    fn next(&mut self) -> Option<char> {
        let Some(c) = self.rest().chars().next() else {
            self.width = 0;
            return None;
        };
        self.width = c.len_utf8();
        self.pos += self.width;
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        let c = self.next();
        self.backup();
        c
    }

    fn backup(&mut self) {
        self.pos = self.pos.saturating_sub(self.width);
    }

    /// Whether the byte before the rune just read is a backslash: Go's test for an
    /// escaped quote, which looks at one byte only (`"\\"` does not end there).
    fn escaped(&self) -> bool {
        self.pos
            .checked_sub(2)
            .and_then(|i| self.input.as_bytes().get(i))
            == Some(&b'\\')
    }

    /// A piece of the template parsed as a template of its own, in braces (Go's
    /// `parseAction`): the last node of its first action.
    fn nested(&self, text: &str) -> Result<Last, ParseError> {
        if self.nesting >= MAX_NESTING {
            return Err(ParseError::new(format!(
                "templates nested deeper than {MAX_NESTING}"
            )));
        }
        Parser::new(&format!("{{{text}}}"), self.nesting + 1).run()
    }

    /// A built-in word (`range`, `end`, `true`, ...) up to a terminator (Go's
    /// `parseIdentifier`; `strconv.ParseBool` of `true` or `false` cannot fail).
    fn identifier(&mut self) {
        while !is_terminator(self.next()) {}
        self.backup();
        self.consume();
        self.last = Last::Other;
    }

    /// `..` (Go's `parseRecursive`), and the field that follows it directly.
    fn recursive(&mut self) -> Result<(), ParseError> {
        if self.last == Last::Recursive {
            return Err(ParseError::new("invalid multiple recursive descent"));
        }
        self.pos += 2;
        self.consume();
        self.last = Last::Recursive;
        if self.peek().is_some_and(is_alphanumeric) {
            self.field();
        }
        Ok(())
    }

    /// A number (Go's `parseNumber`): a sign, then digits and dots, which must be what
    /// `strconv.Atoi` or `strconv.ParseFloat` reads.
    fn number(&mut self) -> Result<(), ParseError> {
        if let Some('+' | '-') = self.peek() {
            self.next();
        }
        while self.next().is_some_and(|c| c == '.' || is_digit(c)) {}
        self.backup();
        let value = self.consume();
        if !go_parses_number(value) {
            return Err(ParseError::new(format!("cannot parse number {value}")));
        }
        self.last = Last::Other;
        Ok(())
    }

    /// `[...]` (Go's `parseArray`): a union of comma-separated members, a quoted
    /// dictionary key, or an index or slice.
    fn array(&mut self) -> Result<(), ParseError> {
        loop {
            match self.next() {
                None | Some('\n') => return Err(ParseError::new("unterminated array")),
                Some(']') => break,
                Some(_) => {}
            }
        }
        let text = self.consume();
        let mut inner = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
        if inner == "*" {
            inner = ":";
        }
        if inner.contains(',') {
            for member in inner.split(',') {
                self.nested(&format!("[{}]", member.trim_matches(' ')))?;
            }
            self.last = Last::Other;
            return Ok(());
        }
        if let Some(key) = dictionary_key(inner) {
            // The key's nodes join this action: its last one is this action's last.
            let last = self.nested(&format!(".{key}"))?;
            if last != Last::Empty {
                self.last = last;
            }
            return Ok(());
        }
        slice(inner)?;
        self.last = Last::Other;
        Ok(())
    }

    /// `[?(...)]` (Go's `parseFilter`): up to the first `)` outside a quoted string,
    /// then `]`; its operands (or, without a comparison, the path that must exist) each
    /// parsed as a template.
    fn filter(&mut self) -> Result<(), ParseError> {
        self.pos += 3;
        self.consume();
        // Go pairs the first quote with the next unescaped one of its kind; later
        // quotes open nothing, so a `)` after them ends the filter.
        let mut pair = None;
        let mut closed = false;
        loop {
            match self.next() {
                None | Some('\n') => return Err(ParseError::new("unterminated filter")),
                Some(quote @ ('"' | '\'')) => match pair {
                    None => pair = Some(quote),
                    Some(open) => {
                        if !self.escaped() && quote == open {
                            closed = true;
                        }
                    }
                },
                Some(')') if pair.is_some() == closed => break,
                Some(_) => {}
            }
        }
        if self.next() != Some(']') {
            return Err(ParseError::new("unclosed array expect ]"));
        }
        let text = self.consume();
        let text = text.get(..text.len().saturating_sub(2)).unwrap_or("");
        match comparison(text) {
            None => {
                self.nested(text)?;
            }
            Some((left, right)) => {
                self.nested(left)?;
                self.nested(right)?;
            }
        }
        self.last = Last::Other;
        Ok(())
    }

    /// A quoted string (Go's `parseQuote`), up to the closing quote no backslash byte
    /// precedes, unquoted as Go's `UnquoteExtend` does.
    fn quote(&mut self, end: char) -> Result<(), ParseError> {
        loop {
            match self.next() {
                None | Some('\n') => return Err(ParseError::new("unterminated quoted string")),
                Some(c) if c == end && !self.escaped() => break,
                Some(_) => {}
            }
        }
        let value = self.consume();
        if !unquotes(value) {
            return Err(ParseError::new(format!(
                "unquote string {value} error invalid syntax"
            )));
        }
        self.last = Last::Other;
        Ok(())
    }

    /// `.name` (Go's `parseField`): up to a terminator a backslash does not escape; `*`
    /// is the wildcard.
    fn field(&mut self) {
        self.consume();
        while self.advance() {}
        self.consume();
        self.last = Last::Other;
    }

    /// One rune of a field name (Go's `advance`): `false` at a terminator.
    fn advance(&mut self) -> bool {
        let c = self.next();
        if c == Some('\\') {
            self.next();
        } else if is_terminator(c) {
            self.backup();
            return false;
        }
        true
    }
}

/// What may follow a name (Go's `isTerminator`; `None` is the end).
fn is_terminator(c: Option<char>) -> bool {
    matches!(
        c,
        None | Some(' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}')
    )
}

/// Go's `isAlphaNumeric`: `_`, a letter or a decimal digit, by Go's Unicode classes.
fn is_alphanumeric(c: char) -> bool {
    c == '_' || is_letter(c) || is_digit(c)
}

/// Go's `unicode.IsLetter`.
fn is_letter(c: char) -> bool {
    c.is_ascii_alphabetic() || (!c.is_ascii() && in_ranges(go_letters::LETTERS, c))
}

/// Go's `unicode.IsDigit`: any decimal digit (Nd), not ASCII's alone.
fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || (!c.is_ascii() && in_ranges(go_letters::DIGITS, c))
}

fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    in_rune_ranges(ranges, u32::from(c))
}

/// Whether `strconv.Atoi` or `strconv.ParseFloat` reads a sign, digits and dots (the
/// parser's number): ASCII digits, at most one dot, at least one digit, and (an integer
/// beyond `int64` being read as a float) a finite float: Go's `ParseFloat` refuses a
/// value that rounds to infinity.
fn go_parses_number(value: &str) -> bool {
    let unsigned = value.strip_prefix(['+', '-']).unwrap_or(value);
    let bytes = unsigned.as_bytes();
    bytes.iter().all(|&b| b == b'.' || b.is_ascii_digit())
        && bytes.iter().filter(|&&b| b == b'.').count() <= 1
        && bytes.iter().any(u8::is_ascii_digit)
        && value.parse::<f64>().is_ok_and(f64::is_finite)
}

/// The key of `'key'` (Go's `^'([^']*)'$`).
fn dictionary_key(text: &str) -> Option<&str> {
    let key = text.strip_prefix('\'')?.strip_suffix('\'')?;
    (!key.contains('\'')).then_some(key)
}

/// An index or slice, `start:end:step` each part optional (Go's
/// `^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$`, `\d` being ASCII), each number an `int`.
fn slice(text: &str) -> Result<(), ParseError> {
    let parts: Vec<&str> = text.split(':').collect();
    let well_formed = parts.len() <= 3
        && parts.iter().all(|p| {
            p.strip_prefix('-')
                .unwrap_or(p)
                .bytes()
                .all(|b| b.is_ascii_digit())
        });
    if !well_formed {
        return Err(ParseError::new(format!("invalid array index {text}")));
    }
    // Only `-` alone or a number beyond `int64` fails `strconv.Atoi` here.
    match parts
        .iter()
        .find(|p| !p.is_empty() && p.parse::<i64>().is_err())
    {
        Some(p) => Err(ParseError::new(format!("array index {p} is not a number"))),
        None => Ok(()),
    }
}

/// A filter's comparison, split as Go's `^([^!<>=]+)([!<>=]+)(.+?)$` splits it: the
/// left operand up to the first operator character (not empty), the operator (the
/// longest run of them that leaves one character to the right), the right operand.
/// `None` when there is no comparison.
fn comparison(text: &str) -> Option<(&str, &str)> {
    let is_operator = |b: &u8| matches!(b, b'!' | b'<' | b'>' | b'=');
    let bytes = text.as_bytes();
    let op = bytes.iter().position(is_operator).filter(|&i| i > 0)?;
    let mut right = op
        + bytes
            .get(op..)?
            .iter()
            .take_while(|b| is_operator(b))
            .count();
    if right == bytes.len() {
        // `.+?` needs a character: the run gives up its last one, if it can.
        if right - op < 2 {
            return None;
        }
        right -= 1;
    }
    Some((text.get(..op)?, text.get(right..)?))
}

/// Whether Go's `UnquoteExtend` (`strconv.Unquote`'s rules, either quote) reads a
/// quoted string (its quotes included; both are there): `strconv.UnquoteChar` rune by
/// rune, whose one error is `invalid syntax`.
fn unquotes(quoted: &str) -> bool {
    let bytes = quoted.as_bytes();
    let (Some(&quote), Some(mut s)) = (bytes.first(), bytes.get(1..bytes.len().saturating_sub(1)))
    else {
        return false;
    };
    while let Some((&c, rest)) = s.split_first() {
        if c == quote {
            return false;
        }
        if c != b'\\' {
            // A byte of a multi-byte rune is never a quote or a backslash.
            s = rest;
            continue;
        }
        let Some((&c, rest)) = rest.split_first() else {
            return false;
        };
        s = rest;
        match c {
            b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'\\' => {}
            b'x' | b'u' | b'U' => {
                let n = match c {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                let Some(digits) = s.get(..n) else {
                    return false;
                };
                let mut v: u32 = 0;
                for &d in digits {
                    let Some(x) = char::from(d).to_digit(16) else {
                        return false;
                    };
                    v = v << 4 | x;
                }
                // `\x` is a byte; `\u` and `\U` must be a rune (`utf8.ValidRune`).
                if c != b'x' && char::from_u32(v).is_none() {
                    return false;
                }
                s = s.get(n..).unwrap_or_default();
            }
            b'0'..=b'7' => {
                let Some(digits) = s.get(..2) else {
                    return false;
                };
                let mut v = u32::from(c - b'0');
                for &d in digits {
                    if !(b'0'..=b'7').contains(&d) {
                        return false;
                    }
                    v = v << 3 | u32::from(d - b'0');
                }
                if v > 255 {
                    return false;
                }
                s = s.get(2..).unwrap_or_default();
            }
            // Only the string's own quote may be escaped.
            b'\'' | b'"' if c == quote => {}
            _ => return false,
        }
    }
    true
}
