//! CEL expressions in API objects (DRA device selectors, admission policies'
//! validations and match conditions, CRD validation rules), which Go compiles with
//! cel-go in Kubernetes' CEL environment and rejects with cel-go's error text.
//!
//! Ours does not compile CEL. The one Rust CEL crate that is kept up (`cel`, from
//! cel-rust) parses with the same ANTLR grammar but was measured against Go on the
//! fuzzer's selector expressions: 37 of 58 compile errors had Go's exact text (ANTLR's
//! expected-token sets differ: Go says `expecting <EOF>` where it lists every
//! operator), and it has no type checker, so Go's `undeclared reference`, `undefined
//! field` and `no matching overload` errors cannot be had from it at all. Matching Go
//! would mean porting cel-go's parser and checker with Kubernetes' libraries; until
//! then an expression is accepted unless it is empty, whose error text is fixed.
//! The oracle's known differences list the compile errors ours does not report.

/// cel-go's error for an expression, when ours knows it without compiling: only the
/// empty expression, whose parse fails at its end.
pub(crate) fn compile_error(expression: &str) -> Option<String> {
    expression.is_empty().then(|| {
        "compilation failed: ERROR: <input>:1:0: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}".to_owned()
    })
}
