//! The parser against Go's answers: each template of the table was given to client-go's
//! `jsonpath.Parse` (v0.37.2), which returned no error (`None`) or the one written.

use super::{MAX_NESTING, Parser, parse};

/// Templates and Go's errors for them: Go's own parser tests, then every branch of the
/// parser (actions, numbers, arrays and slices, unions, dictionary keys, recursive
/// descent, filters and their operands, quoted strings and their escapes, fields) and
/// Go's `%#U` for printable and unprintable runes.
const GO_CASES: &[(&str, Option<&str>)] = &[
    ("", None),
    ("hello jsonpath", None),
    ("hello {.jsonpath}", None),
    ("hello {['jsonpath']}", None),
    ("{\"{\"}", None),
    ("{[1:3]}", None),
    ("{.book[*].author}", None),
    ("{.bicycle.*}", None),
    ("{[?(@.price<3)]}", None),
    ("{..}", None),
    ("{..price}", None),
    ("{['book.price']}", None),
    ("{['bicycle.price', 3, 'book.price']}", None),
    ("{range .items}{.name},{end}", None),
    (
        "{\\\\\\}",
        Some("unrecognized character in action: U+005C '\\'"),
    ),
    ("{[?(@.status.nodeInfo.osImage == \"()\")]}", None),
    ("{[?(@.status.nodeInfo.osImage == \"(\\\"\\\")\")]}", None),
    ("{[?(@.test == \"())(\")]}", None),
    ("{[?(@.status.nodeInfo.osImage == 'Linux')]}", None),
    ("{[?(@.status.nodeInfo.osImage == \"{[()]}\")]}", None),
    ("{[?(@.status.nodeInfo.osImage == \"''\")]}", None),
    ("{[?(@.status.nodeInfo.osImage == '\"\"')]}", None),
    ("{[?(@.status.nodeInfo.osImage == '\\\\\\'')]}", None),
    ("{[-5:]}", None),
    ("{[-1]}", None),
    ("{[1:-1]}", None),
    ("{.hello", Some("unclosed action")),
    ("{*}", Some("unrecognized character in action: U+002A '*'")),
    ("{+12.3.0}", Some("cannot parse number +12.3.0")),
    ("{[1}", Some("unterminated array")),
    ("{[?(.price]}", Some("unterminated filter")),
    ("{........}", Some("invalid multiple recursive descent")),
    ("{", Some("unclosed action")),
    ("}", None),
    ("{}", None),
    ("{{}", Some("unrecognized character in action: U+007B '{'")),
    ("{}}", None),
    ("a{.b}c{.d}e", None),
    ("{.a}{", Some("unclosed action")),
    ("{.a\n}", Some("unclosed action")),
    ("{.a\r}", Some("unclosed action")),
    ("{\n}", Some("unclosed action")),
    ("{\t}", Some("unrecognized character in action: U+0009")),
    ("{ }", None),
    ("{@}", None),
    ("{$}", None),
    ("{$.a.b}", None),
    ("{@.a}", None),
    ("{.a b c}", None),
    ("{.a\tb}", Some("unrecognized character in action: U+0009")),
    ("{!}", Some("unrecognized character in action: U+0021 '!'")),
    ("{#}", Some("unrecognized character in action: U+0023 '#'")),
    ("{%}", Some("unrecognized character in action: U+0025 '%'")),
    ("{&}", Some("unrecognized character in action: U+0026 '&'")),
    ("{(}", Some("unrecognized character in action: U+0028 '('")),
    ("{)}", Some("unrecognized character in action: U+0029 ')'")),
    ("{,}", Some("unrecognized character in action: U+002C ','")),
    ("{/}", Some("unrecognized character in action: U+002F '/'")),
    ("{:}", Some("unrecognized character in action: U+003A ':'")),
    ("{;}", Some("unrecognized character in action: U+003B ';'")),
    ("{<}", Some("unrecognized character in action: U+003C '<'")),
    ("{=}", Some("unrecognized character in action: U+003D '='")),
    ("{>}", Some("unrecognized character in action: U+003E '>'")),
    ("{?}", Some("unrecognized character in action: U+003F '?'")),
    (
        "{\\}",
        Some("unrecognized character in action: U+005C '\\'"),
    ),
    ("{]}", Some("unrecognized character in action: U+005D ']'")),
    ("{^}", Some("unrecognized character in action: U+005E '^'")),
    ("{`}", Some("unrecognized character in action: U+0060 '`'")),
    ("{|}", Some("unrecognized character in action: U+007C '|'")),
    ("{~}", Some("unrecognized character in action: U+007E '~'")),
    ("{\u{1}}", Some("unrecognized character in action: U+0001")),
    ("{\u{7f}}", Some("unrecognized character in action: U+007F")),
    ("{\u{ad}}", Some("unrecognized character in action: U+00AD")),
    ("{\u{a0}}", Some("unrecognized character in action: U+00A0")),
    ("{é}", None),
    ("{²}", Some("unrecognized character in action: U+00B2 '²'")),
    ("{Ⅷ}", Some("unrecognized character in action: U+2167 'Ⅷ'")),
    ("{٣}", Some("cannot parse number ٣")),
    (
        "{\u{301}}",
        Some("unrecognized character in action: U+0301 '\u{301}'"),
    ),
    ("{中}", None),
    (
        "{😀}",
        Some("unrecognized character in action: U+1F600 '😀'"),
    ),
    (
        "{\u{fffd}}",
        Some("unrecognized character in action: U+FFFD '\u{fffd}'"),
    ),
    (
        "{\u{2028}}",
        Some("unrecognized character in action: U+2028"),
    ),
    (
        "{\u{e000}}",
        Some("unrecognized character in action: U+E000"),
    ),
    (
        "{\u{378}}",
        Some("unrecognized character in action: U+0378"),
    ),
    ("{.\u{301}}", None),
    ("{..é}", None),
    (
        "{..\u{301}}",
        Some("unrecognized character in action: U+0301 '\u{301}'"),
    ),
    ("{a!b}", None),
    ("{_x}", None),
    ("{true}", None),
    ("{false}", None),
    ("{TRUE}", None),
    ("{range}", None),
    ("{end}", None),
    ("{1}", None),
    ("{-1}", None),
    ("{+1}", None),
    ("{1.5}", None),
    ("{1.}", None),
    ("{+.5}", None),
    ("{-.5}", None),
    ("{.5}", None),
    ("{1.2.3}", Some("cannot parse number 1.2.3")),
    ("{+}", Some("cannot parse number +")),
    ("{-}", Some("cannot parse number -")),
    ("{+-1}", Some("cannot parse number +")),
    ("{--1}", Some("cannot parse number -")),
    ("{1..2}", Some("cannot parse number 1..2")),
    ("{9223372036854775807}", None),
    ("{9223372036854775808}", None),
    ("{-9223372036854775809}", None),
    ("{٣٤}", Some("cannot parse number ٣٤")),
    ("{1٣}", Some("cannot parse number 1٣")),
    ("{1a}", None),
    ("{1 2}", None),
    ("{-a}", Some("cannot parse number -")),
    ("{+٣}", Some("cannot parse number +٣")),
    ("{[]}", None),
    ("{[*]}", None),
    ("{[:]}", None),
    ("{[::]}", None),
    ("{[:::]}", Some("invalid array index :::")),
    ("{[1:2:3]}", None),
    ("{[1:2:3:4]}", Some("invalid array index 1:2:3:4")),
    ("{[-]}", Some("array index - is not a number")),
    ("{[1:-]}", Some("array index - is not a number")),
    ("{[::-]}", Some("array index - is not a number")),
    ("{[--1]}", Some("invalid array index --1")),
    ("{[+1]}", Some("invalid array index +1")),
    ("{[ 1 ]}", Some("invalid array index  1 ")),
    ("{[1 ]}", Some("invalid array index 1 ")),
    ("{[a]}", Some("invalid array index a")),
    ("{[1.5]}", Some("invalid array index 1.5")),
    (
        "{[99999999999999999999]}",
        Some("array index 99999999999999999999 is not a number"),
    ),
    (
        "{[1:99999999999999999999]}",
        Some("array index 99999999999999999999 is not a number"),
    ),
    ("{[-9223372036854775808]}", None),
    ("{[٣]}", Some("invalid array index ٣")),
    ("{[1,2]}", None),
    ("{[1, 2 ,3]}", None),
    ("{[1,]}", None),
    ("{[,]}", None),
    ("{[,1]}", None),
    ("{[a,b]}", Some("invalid array index a")),
    ("{[1,a]}", Some("invalid array index a")),
    ("{['a',b]}", Some("invalid array index b")),
    ("{['a,b']}", Some("invalid array index 'a")),
    ("{[*,1]}", None),
    ("{[?(@.a),1]}", Some("unclosed array expect ]")),
    ("{[1,?(@.a)]}", None),
    ("{[1,?(@.a]}", Some("unterminated filter")),
    ("{[1\n]}", Some("unterminated array")),
    ("{[1\r]}", Some("invalid array index 1\r")),
    ("{['a']}", None),
    ("{['a b']}", None),
    ("{['a!b']}", None),
    ("{['a}b']}", None),
    (
        "{['a{']}",
        Some("unrecognized character in action: U+007B '{'"),
    ),
    ("{['']}", None),
    ("{[']}", Some("invalid array index '")),
    ("{[''']}", Some("invalid array index '''")),
    ("{['a'b']}", Some("invalid array index 'a'b'")),
    ("{['..']}", None),
    ("{['a..']..b}", Some("invalid multiple recursive descent")),
    ("{['a..']}", None),
    ("{[\"a\"]}", Some("invalid array index \"a\"")),
    ("{['a'][0]}", None),
    ("{[0][1]}", None),
    ("{.a[0].b}", None),
    ("{.a[}", Some("unterminated array")),
    ("{[[1]]}", Some("invalid array index [1")),
    ("{[[?(x)]]}", Some("invalid array index [?(x)")),
    ("{[[?(x),y]}", Some("invalid array index [?(x)")),
    ("{['\\'']}", Some("invalid array index '\\''")),
    ("{['a\\b']}", None),
    ("{['a[1']}", Some("unterminated array")),
    ("{['a[1]']}", Some("invalid array index 'a[1")),
    ("{['a[?(@.b)']}", Some("unclosed array expect ]")),
    ("{....}", Some("invalid multiple recursive descent")),
    ("{..a..b}", None),
    ("{..a....}", Some("invalid multiple recursive descent")),
    ("{.. ..}", Some("invalid multiple recursive descent")),
    ("{..[0]..}", None),
    (
        "{..*}",
        Some("unrecognized character in action: U+002A '*'"),
    ),
    ("{..@}", None),
    ("{['x..']..y}", Some("invalid multiple recursive descent")),
    ("{..['a']..}", None),
    ("{..'a'..}", None),
    ("{[?(@.a)]}", None),
    ("{[?(@.a==1)]}", None),
    ("{[?(@.a!=1)]}", None),
    ("{[?(@.a<=1)]}", None),
    ("{[?(@.a=)]}", None),
    (
        "{[?(@.a==)]}",
        Some("unrecognized character in action: U+003D '='"),
    ),
    (
        "{[?(@.a===)]}",
        Some("unrecognized character in action: U+003D '='"),
    ),
    (
        "{[?(=1)]}",
        Some("unrecognized character in action: U+003D '='"),
    ),
    ("{[?(@.a!!!1)]}", None),
    ("{[?(@.a==1.2.3)]}", Some("cannot parse number 1.2.3")),
    (
        "{[?(@.a==!)]}",
        Some("unrecognized character in action: U+0021 '!'"),
    ),
    (
        "{[?(@.a==#)]}",
        Some("unrecognized character in action: U+0023 '#'"),
    ),
    (
        "{[?(#==1)]}",
        Some("unrecognized character in action: U+0023 '#'"),
    ),
    ("{[?()]}", None),
    ("{[?( )]}", None),
    ("{[?(@.a)}", Some("unclosed array expect ]")),
    ("{[?(@.a)x]}", Some("unclosed array expect ]")),
    ("{[?(@.a", Some("unterminated filter")),
    ("{[?(@.a\n)]}", Some("unterminated filter")),
    ("{[?(@.a\r)]}", Some("unclosed action")),
    ("{[?(@.a=='x)')]}", None),
    ("{[?(@.a=='x\\')')]}", None),
    ("{[?(@.a==\"x')\")]}", None),
    ("{[?(@.a=='x'')]}", Some("unterminated quoted string")),
    ("{[?(@.a=='x' )]}", None),
    (
        "{[?(@.a=='x'=='y')]}",
        Some("unrecognized character in action: U+003D '='"),
    ),
    ("{[?(@.a}b)]}", None),
    ("{[?(@.a[?(@.b)])]}", Some("unterminated filter")),
    ("{[?(@.a'[?(@.b)].c')]}", None),
    ("{[?(@.a'[?(@.b\"[?(@.e)].d\")].c')]}", None),
    (
        "{[?(@.a=='\\q')]}",
        Some("unquote string '\\q' error invalid syntax"),
    ),
    (
        "{[?(@.a==\"\\q\")]}",
        Some("unquote string \"\\q\" error invalid syntax"),
    ),
    (
        "{[?(@.a==\"\\u12\")]}",
        Some("unquote string \"\\u12\" error invalid syntax"),
    ),
    ("{[?(@.a[1,2])]}", None),
    ("{[?(@.a[1,?(@.b)])]}", Some("unterminated array")),
    ("{[?(@.a)]}{[?(@.b)]}", None),
    (
        "{[?(@.a==\"x\" || @.b)]}",
        Some("unrecognized character in action: U+007C '|'"),
    ),
    ("{\"\"}", None),
    ("{''}", None),
    ("{\"a\"}", None),
    ("{'a'}", None),
    ("{\"a}", Some("unterminated quoted string")),
    ("{'a}", Some("unterminated quoted string")),
    ("{\"a\n\"}", Some("unterminated quoted string")),
    ("{\"\\\"}", Some("unterminated quoted string")),
    ("{\"\\\\\"}", Some("unterminated quoted string")),
    (
        "{\"a\\\\\"b\"}",
        Some("unquote string \"a\\\\\"b\" error invalid syntax"),
    ),
    ("{'a\\'b'}", None),
    (
        "{\"a\\'b\"}",
        Some("unquote string \"a\\'b\" error invalid syntax"),
    ),
    (
        "{'a\\\"b'}",
        Some("unquote string 'a\\\"b' error invalid syntax"),
    ),
    ("{\"\\a\\b\\f\\n\\r\\t\\v\"}", None),
    ("{\"\\x41\"}", None),
    (
        "{\"\\x4\"}",
        Some("unquote string \"\\x4\" error invalid syntax"),
    ),
    (
        "{\"\\xg1\"}",
        Some("unquote string \"\\xg1\" error invalid syntax"),
    ),
    ("{\"\\u0041\"}", None),
    (
        "{\"\\u004\"}",
        Some("unquote string \"\\u004\" error invalid syntax"),
    ),
    (
        "{\"\\ud800\"}",
        Some("unquote string \"\\ud800\" error invalid syntax"),
    ),
    ("{\"\\U0010FFFF\"}", None),
    (
        "{\"\\U00110000\"}",
        Some("unquote string \"\\U00110000\" error invalid syntax"),
    ),
    (
        "{\"\\UFFFFFFFF\"}",
        Some("unquote string \"\\UFFFFFFFF\" error invalid syntax"),
    ),
    ("{\"\\101\"}", None),
    (
        "{\"\\400\"}",
        Some("unquote string \"\\400\" error invalid syntax"),
    ),
    ("{\"\\377\"}", None),
    (
        "{\"\\18\"}",
        Some("unquote string \"\\18\" error invalid syntax"),
    ),
    (
        "{\"\\1\"}",
        Some("unquote string \"\\1\" error invalid syntax"),
    ),
    (
        "{\"\\8\"}",
        Some("unquote string \"\\8\" error invalid syntax"),
    ),
    (
        "{\"\\q\"}",
        Some("unquote string \"\\q\" error invalid syntax"),
    ),
    (
        "{\"\\é\"}",
        Some("unquote string \"\\é\" error invalid syntax"),
    ),
    ("{\"é\\n\"}", None),
    ("{\"a\"\"b\"}", None),
    ("{'a''b'}", None),
    ("{\"a\"b}", None),
    ("{'\"'}", None),
    ("{\"'\"}", None),
    ("{'\\''}", None),
    ("{\"\\\"\"}", None),
    ("{.}", None),
    ("{.a.}", None),
    ("{.a\\.b}", None),
    ("{.a\\}", Some("unclosed action")),
    ("{.a\\", Some("unclosed action")),
    ("{.*}", None),
    ("{.a*}", None),
    ("{.a'b}", None),
    ("{.a\"b}", None),
    ("{.a!b}", None),
    ("{.a(b)}", None),
    ("{.a:b}", None),
    (
        "{.a,b}",
        Some("unrecognized character in action: U+002C ','"),
    ),
    ("{.a@b}", None),
    ("{.a$b}", None),
    (
        "{.a{b}",
        Some("unrecognized character in action: U+007B '{'"),
    ),
    ("{.a}b}", None),
];

#[test]
fn agrees_with_go() {
    for (template, go) in GO_CASES {
        let ours = parse(template).err().map(|e| e.to_string());
        assert_eq!(ours.as_deref(), *go, "{template:?}");
    }
}

/// Numbers go through `strconv.Atoi`, then `strconv.ParseFloat`, which refuses what
/// rounds to infinity: the largest float has 309 digits.
#[test]
fn numbers_beyond_a_float_are_refused() {
    assert!(parse(&format!("{{{}}}", "9".repeat(308))).is_ok());
    let too_big = "9".repeat(309);
    assert_eq!(
        parse(&format!("{{{too_big}}}")).unwrap_err().to_string(),
        format!("cannot parse number {too_big}")
    );
    assert!(parse(&format!("{{1{}}}", "0".repeat(308))).is_ok());
    assert!(parse(&format!("{{0.{}1}}", "0".repeat(400))).is_ok());
    // Go's answer for the float just below the cut, and the one at it (2^1024 - 2^970,
    // which rounds to even: infinity).
    assert!(parse("{179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9}").is_ok());
    assert!(parse("{179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792}").is_err());
}

/// Go recurses once a token; ours loops: a long template is no deep stack.
#[test]
fn long_templates_do_not_recurse() {
    let fields = format!("{{{}}}", ".a".repeat(200_000));
    assert!(parse(&fields).is_ok());
    let spaces = format!("{{{}", " ".repeat(200_000));
    assert_eq!(parse(&spaces).unwrap_err().to_string(), "unclosed action");
    let actions = "{.a}x".repeat(100_000);
    assert!(parse(&actions).is_ok());
}

/// Filters within filters, each hidden in the quotes of the one around it: Go's parser
/// takes three levels; ours stops at [`MAX_NESTING`] whatever the input.
#[test]
fn nesting_is_bounded() {
    assert!(parse(r#"{[?(@.a'[?(@.b"[?(@.e)].d")].c')]}"#).is_ok());
    let deepest = Parser::new("", MAX_NESTING);
    assert_eq!(
        deepest.nested(".a").unwrap_err().to_string(),
        format!("templates nested deeper than {MAX_NESTING}")
    );
    assert!(Parser::new("", MAX_NESTING - 1).nested(".a").is_ok());
}
