// Command go-printable writes the Rust table of the runes Go's strconv.IsPrint accepts
// (apimachinery/src/util/validation/field/go_printable.rs): the runes strconv.Quote, and so a
// field error's quoted bad value, writes as they are rather than escaped.
//
//	go run ./cmd/go-printable > ../apimachinery/src/util/validation/field/go_printable.rs
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"unicode"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "//! The runes Go's `strconv.IsPrint` accepts (Unicode %s, as Go 1.26 has it),\n", unicode.Version)
	fmt.Fprintln(w, "//! as inclusive ranges in ascending order. Written by `go run ./cmd/go-printable` in")
	fmt.Fprintln(w, "//! `oracle/`; not edited by hand.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "/// Inclusive ranges of printable runes, ascending and disjoint.")
	fmt.Fprintln(w, "pub(crate) const PRINTABLE: &[(u32, u32)] = &[")
	start := rune(-1)
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		printable := r <= unicode.MaxRune && strconv.IsPrint(r)
		switch {
		case printable && start < 0:
			start = r
		case !printable && start >= 0:
			fmt.Fprintf(w, "    (0x%04X, 0x%04X),\n", start, r-1)
			start = -1
		}
	}
	fmt.Fprintln(w, "];")
}
