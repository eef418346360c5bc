//! Go's `encoding/json` verdict on a document, in Go's words: [`check_valid`] reports
//! the first syntax error as Go's scanner does (`invalid character 'x' looking for
//! beginning of value`, `unexpected end of JSON input`), and
//! [`unmarshal_into_map_error`] what `json.Unmarshal(data, &map[string]interface{}{})`
//! returns, which kube-apiserver quotes when a `.dockercfg` or `.dockerconfigjson`
//! Secret does not hold a JSON object.
//!
//! ```
//! use apimachinery::util::json::{check_valid, unmarshal_into_map_error};
//!
//! assert_eq!(
//!     check_valid(b"{\"a\":1,}").unwrap_err().to_string(),
//!     "invalid character '}' looking for beginning of object key string"
//! );
//! assert_eq!(
//!     unmarshal_into_map_error(b"[1]").as_deref(),
//!     Some("json: cannot unmarshal array into Go value of type map[string]interface {}")
//! );
//! assert_eq!(unmarshal_into_map_error(b"{\"auths\":{}}"), None);
//! ```

use std::fmt;

use crate::util::validation::field::go_quote;

/// Go's `maxNestingDepth`: the deepest nesting of arrays and objects the scanner takes.
const MAX_NESTING_DEPTH: usize = 10_000;

/// A syntax error as Go's `*json.SyntaxError` words it; `offset` is the number of
/// bytes read when it was found (Go's `Offset`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Go's message.
    pub msg: String,
    /// Bytes read before the error was found.
    pub offset: usize,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for SyntaxError {}

/// Where the scanner is inside a value; each state names what the next byte may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    BeginValue,
    BeginValueOrEmpty,
    BeginString,
    BeginStringOrEmpty,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    /// Inside `\u`, with this many hex digits still to come.
    InStringEscU(u8),
    Neg,
    Zero,
    Digits,
    Dot,
    DotDigits,
    Exp,
    ExpSign,
    ExpDigits,
    /// Inside `true`, `false` or `null`: the rest still expected.
    Literal(&'static [u8], &'static str),
}

/// What an open array or object expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Open {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// A byte as Go's `quoteChar` writes it in a message: `'x'`, `'\''`, `'"'`, and
/// otherwise as `strconv.Quote` writes the rune of that number (`'\x01'`, `'Ã'` for
/// the byte 0xC3).
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        c => {
            let q = go_quote(char::from(c).encode_utf8(&mut [0; 4]));
            format!("'{}'", &q[1..q.len() - 1])
        }
    }
}

/// The scanner: the state, the open containers, and whether a whole top-level value
/// has been read.
struct Scanner {
    state: State,
    open: Vec<Open>,
    end_top: bool,
}

impl Scanner {
    fn error(c: u8, context: &str) -> String {
        format!("invalid character {} {context}", quote_char(c))
    }

    /// Reads one byte; an error message when the byte cannot come here.
    fn step(&mut self, c: u8) -> Result<(), String> {
        match self.state {
            State::BeginValueOrEmpty if is_space(c) => Ok(()),
            State::BeginValueOrEmpty if c == b']' => self.end_value(c),
            State::BeginValueOrEmpty | State::BeginValue => self.begin_value(c),
            State::BeginStringOrEmpty if is_space(c) => Ok(()),
            State::BeginStringOrEmpty if c == b'}' => {
                if let Some(top) = self.open.last_mut() {
                    *top = Open::ObjectValue;
                }
                self.end_value(c)
            }
            State::BeginStringOrEmpty | State::BeginString => {
                if is_space(c) {
                    Ok(())
                } else if c == b'"' {
                    self.state = State::InString;
                    Ok(())
                } else {
                    Err(Self::error(c, "looking for beginning of object key string"))
                }
            }
            State::EndValue => self.end_value(c),
            State::EndTop => {
                if is_space(c) {
                    Ok(())
                } else {
                    Err(Self::error(c, "after top-level value"))
                }
            }
            State::InString => {
                match c {
                    b'"' => self.state = State::EndValue,
                    b'\\' => self.state = State::InStringEsc,
                    c if c < 0x20 => return Err(Self::error(c, "in string literal")),
                    _ => {}
                }
                Ok(())
            }
            State::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => {
                    self.state = State::InString;
                    Ok(())
                }
                b'u' => {
                    self.state = State::InStringEscU(4);
                    Ok(())
                }
                c => Err(Self::error(c, "in string escape code")),
            },
            State::InStringEscU(left) => {
                if c.is_ascii_hexdigit() {
                    self.state = if left == 1 {
                        State::InString
                    } else {
                        State::InStringEscU(left - 1)
                    };
                    Ok(())
                } else {
                    Err(Self::error(c, "in \\u hexadecimal character escape"))
                }
            }
            State::Neg => match c {
                b'0' => {
                    self.state = State::Zero;
                    Ok(())
                }
                b'1'..=b'9' => {
                    self.state = State::Digits;
                    Ok(())
                }
                c => Err(Self::error(c, "in numeric literal")),
            },
            State::Digits if c.is_ascii_digit() => Ok(()),
            State::Digits | State::Zero => match c {
                b'.' => {
                    self.state = State::Dot;
                    Ok(())
                }
                b'e' | b'E' => {
                    self.state = State::Exp;
                    Ok(())
                }
                c => self.end_value(c),
            },
            State::Dot => {
                if c.is_ascii_digit() {
                    self.state = State::DotDigits;
                    Ok(())
                } else {
                    Err(Self::error(c, "after decimal point in numeric literal"))
                }
            }
            State::DotDigits => match c {
                c if c.is_ascii_digit() => Ok(()),
                b'e' | b'E' => {
                    self.state = State::Exp;
                    Ok(())
                }
                c => self.end_value(c),
            },
            State::Exp if matches!(c, b'+' | b'-') => {
                self.state = State::ExpSign;
                Ok(())
            }
            State::Exp | State::ExpSign => {
                if c.is_ascii_digit() {
                    self.state = State::ExpDigits;
                    Ok(())
                } else {
                    Err(Self::error(c, "in exponent of numeric literal"))
                }
            }
            State::ExpDigits if c.is_ascii_digit() => Ok(()),
            State::ExpDigits => self.end_value(c),
            State::Literal(rest, name) => match rest.split_first() {
                Some((&want, rest)) if want == c => {
                    self.state = if rest.is_empty() {
                        State::EndValue
                    } else {
                        State::Literal(rest, name)
                    };
                    Ok(())
                }
                Some((&want, _)) => Err(Self::error(
                    c,
                    &format!("in literal {name} (expecting '{}')", char::from(want)),
                )),
                None => self.end_value(c),
            },
        }
    }

    fn push(&mut self, c: u8, open: Open) -> Result<(), String> {
        self.open.push(open);
        if self.open.len() <= MAX_NESTING_DEPTH {
            Ok(())
        } else {
            Err(Self::error(c, "exceeded max depth"))
        }
    }

    fn begin_value(&mut self, c: u8) -> Result<(), String> {
        self.state = match c {
            c if is_space(c) => return Ok(()),
            b'{' => {
                self.state = State::BeginStringOrEmpty;
                return self.push(c, Open::ObjectKey);
            }
            b'[' => {
                self.state = State::BeginValueOrEmpty;
                return self.push(c, Open::ArrayValue);
            }
            b'"' => State::InString,
            b'-' => State::Neg,
            b'0' => State::Zero,
            b'1'..=b'9' => State::Digits,
            b't' => State::Literal(b"rue", "true"),
            b'f' => State::Literal(b"alse", "false"),
            b'n' => State::Literal(b"ull", "null"),
            c => return Err(Self::error(c, "looking for beginning of value")),
        };
        Ok(())
    }

    fn end_value(&mut self, c: u8) -> Result<(), String> {
        let Some(top) = self.open.last_mut() else {
            self.state = State::EndTop;
            self.end_top = true;
            return self.step(c);
        };
        if is_space(c) {
            self.state = State::EndValue;
            return Ok(());
        }
        match (*top, c) {
            (Open::ObjectKey, b':') => {
                *top = Open::ObjectValue;
                self.state = State::BeginValue;
            }
            (Open::ObjectKey, c) => return Err(Self::error(c, "after object key")),
            (Open::ObjectValue, b',') => {
                *top = Open::ObjectKey;
                self.state = State::BeginString;
            }
            (Open::ObjectValue | Open::ArrayValue, b'}' | b']')
                if (c == b'}') == (*top == Open::ObjectValue) =>
            {
                self.open.pop();
                self.state = State::EndValue;
            }
            (Open::ObjectValue, c) => {
                return Err(Self::error(c, "after object key:value pair"));
            }
            (Open::ArrayValue, b',') => self.state = State::BeginValue,
            (Open::ArrayValue, c) => return Err(Self::error(c, "after array element")),
        }
        Ok(())
    }
}

/// Whether `data` is one JSON value (with surrounding white space), as Go's
/// `checkValid` judges it: the first error in Go's words.
pub fn check_valid(data: &[u8]) -> Result<(), SyntaxError> {
    let mut s = Scanner {
        state: State::BeginValue,
        open: Vec::new(),
        end_top: false,
    };
    for (i, &c) in data.iter().enumerate() {
        s.step(c)
            .map_err(|msg| SyntaxError { msg, offset: i + 1 })?;
    }
    // Go's `eof`: a space ends a number or a literal that may be complete.
    let end = |msg| SyntaxError {
        msg,
        offset: data.len(),
    };
    if !s.end_top {
        s.step(b' ').map_err(end)?;
    }
    if s.end_top {
        Ok(())
    } else {
        Err(end("unexpected end of JSON input".to_owned()))
    }
}

/// What Go's `json.Unmarshal(data, &map[string]interface{}{})` returns, as its message:
/// a syntax error, a top-level value that is not an object (`null` is accepted), or a
/// number no `float64` holds; `None` when Go accepts the document.
pub fn unmarshal_into_map_error(data: &[u8]) -> Option<String> {
    if let Err(e) = check_valid(data) {
        return Some(e.msg);
    }
    let start = data.iter().position(|c| !is_space(*c))?;
    let kind = match data[start] {
        b'{' => return overflowing_number(&data[start..]),
        b'n' => return None,
        b'[' => "array",
        b'"' => "string",
        b't' | b'f' => "bool",
        _ => "number",
    };
    Some(format!(
        "json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
    ))
}

/// The first number of a valid document that Go's `strconv.ParseFloat` refuses (out of
/// `float64`'s range), as Go's decoder reports it into an `interface{}`.
fn overflowing_number(data: &[u8]) -> Option<String> {
    let mut i = 0;
    while i < data.len() {
        match data[i] {
            b'"' => {
                // Skip the string, escapes included (the document is valid).
                i += 1;
                while i < data.len() && data[i] != b'"' {
                    i += if data[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < data.len()
                    && matches!(data[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let literal = std::str::from_utf8(&data[start..i]).unwrap_or_default();
                if literal.parse::<f64>().is_ok_and(f64::is_infinite) {
                    return Some(format!(
                        "json: cannot unmarshal number {literal} into Go value of type float64"
                    ));
                }
            }
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(s: &[u8]) -> Option<String> {
        unmarshal_into_map_error(s)
    }

    /// Go 1.26's answers, from `json.Unmarshal(data, &map[string]interface{}{})`.
    #[test]
    fn messages_are_gos() {
        let cases: &[(&[u8], Option<&str>)] = &[
            (
                b"not json",
                Some("invalid character 'o' in literal null (expecting 'u')"),
            ),
            (b"", Some("unexpected end of JSON input")),
            (b" ", Some("unexpected end of JSON input")),
            (
                b"[1]",
                Some("json: cannot unmarshal array into Go value of type map[string]interface {}"),
            ),
            (
                b"\"s\"",
                Some("json: cannot unmarshal string into Go value of type map[string]interface {}"),
            ),
            (
                b"5",
                Some("json: cannot unmarshal number into Go value of type map[string]interface {}"),
            ),
            (
                b"true",
                Some("json: cannot unmarshal bool into Go value of type map[string]interface {}"),
            ),
            (b"null", None),
            (
                b"{\"a\":1e400}",
                Some("json: cannot unmarshal number 1e400 into Go value of type float64"),
            ),
            (
                b"{\"a\":[1e400]}",
                Some("json: cannot unmarshal number 1e400 into Go value of type float64"),
            ),
            (b"{\"a\"}", Some("invalid character '}' after object key")),
            (
                b"{\"a\":1,}",
                Some("invalid character '}' looking for beginning of object key string"),
            ),
            (
                b"{'a':1}",
                Some("invalid character '\\'' looking for beginning of object key string"),
            ),
            (
                b"{\"a\":1} x",
                Some("invalid character 'x' after top-level value"),
            ),
            (
                b"\xc3",
                Some("invalid character '\u{c3}' looking for beginning of value"),
            ),
            (
                b"{\"a\":\"\\x\"}",
                Some("invalid character 'x' in string escape code"),
            ),
            (
                b"{\"a\":\"\\u12g4\"}",
                Some("invalid character 'g' in \\u hexadecimal character escape"),
            ),
            (
                b"{\"a\":01}",
                Some("invalid character '1' after object key:value pair"),
            ),
            (
                b"{\"a\":1.}",
                Some("invalid character '}' after decimal point in numeric literal"),
            ),
            (
                b"{\"a\":1e}",
                Some("invalid character '}' in exponent of numeric literal"),
            ),
            (
                b"{\"a\":tru}",
                Some("invalid character '}' in literal true (expecting 'e')"),
            ),
            (
                b"{\"a\":nul",
                Some("invalid character ' ' in literal null (expecting 'l')"),
            ),
            (
                b"{\"a\":\"\x01\"}",
                Some("invalid character '\\x01' in string literal"),
            ),
            (
                b"{\"a\":-}",
                Some("invalid character '}' in numeric literal"),
            ),
            (
                b"{\"a\":[1 2]}",
                Some("invalid character '2' after array element"),
            ),
            (
                "\u{feff}{}".as_bytes(),
                Some("invalid character '\u{ef}' looking for beginning of value"),
            ),
            (b"{\"a\":1}\n", None),
            (
                b"{\"a\":{\"b\":1e999}}",
                Some("json: cannot unmarshal number 1e999 into Go value of type float64"),
            ),
            (
                b"[1e400]",
                Some("json: cannot unmarshal array into Go value of type map[string]interface {}"),
            ),
            (b"{\"\xff\":1}", None),
            (b"{\"a\":[]", Some("unexpected end of JSON input")),
            (
                b"{\"a\":[}",
                Some("invalid character '}' looking for beginning of value"),
            ),
            (
                b"{\"a\":{]",
                Some("invalid character ']' looking for beginning of object key string"),
            ),
            (
                b"{\"a\":[1}",
                Some("invalid character '}' after array element"),
            ),
            (
                b"{\"a\":1]",
                Some("invalid character ']' after object key:value pair"),
            ),
            (b"{\"a\":\"x\\\"1e999\"}", None),
        ];
        for (input, want) in cases {
            assert_eq!(
                msg(input).as_deref(),
                *want,
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn nesting_is_bounded_as_in_go() {
        let deep = "[".repeat(MAX_NESTING_DEPTH + 1);
        assert_eq!(
            check_valid(deep.as_bytes()).unwrap_err().msg,
            "invalid character '[' exceeded max depth"
        );
        let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(check_valid(ok.as_bytes()).is_ok());
    }
}
