//! Compile-fail tests of `#[derive(ApiObject)]` diagnostics.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
