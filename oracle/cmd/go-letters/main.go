// Command go-letters writes the Rust table of the runes Go's unicode.IsLetter and
// unicode.IsDigit accept (apimachinery/src/util/jsonpath/go_letters.rs): client-go's
// JSONPath parser tells an identifier, a number and a stray character apart by them,
// and Rust's char classes (Alphabetic, Numeric) are other sets.
//
//	go run ./cmd/go-letters > ../apimachinery/src/util/jsonpath/go_letters.rs
package main

import (
	"bufio"
	"fmt"
	"os"
	"unicode"
)

// ranges writes the inclusive ranges of the runes in accepts as a Rust constant,
// four ranges a line.
func ranges(w *bufio.Writer, name, doc string, accepts func(rune) bool) {
	fmt.Fprintf(w, "/// %s\n", doc)
	// Four a line, which rustfmt would undo: one a line is twice the file's length.
	fmt.Fprintln(w, "#[rustfmt::skip]")
	fmt.Fprintf(w, "pub(super) const %s: &[(u32, u32)] = &[\n", name)
	start := rune(-1)
	n := 0
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		in := r <= unicode.MaxRune && accepts(r)
		switch {
		case in && start < 0:
			start = r
		case !in && start >= 0:
			if n%4 == 0 {
				fmt.Fprint(w, "   ")
			}
			fmt.Fprintf(w, " (0x%04X, 0x%04X),", start, r-1)
			n++
			if n%4 == 0 {
				fmt.Fprintln(w)
			}
			start = -1
		}
	}
	if n%4 != 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "];")
}

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "//! The runes Go's `unicode.IsLetter` and `unicode.IsDigit` accept (Unicode %s, as\n", unicode.Version)
	fmt.Fprintln(w, "//! Go 1.26 has it), as inclusive ranges in ascending order. Written by")
	fmt.Fprintln(w, "//! `go run ./cmd/go-letters` in `oracle/`; not edited by hand.")
	fmt.Fprintln(w)
	ranges(w, "LETTERS", "Inclusive ranges of letters (category L), ascending and disjoint.", unicode.IsLetter)
	fmt.Fprintln(w)
	ranges(w, "DIGITS", "Inclusive ranges of decimal digits (category Nd), ascending and disjoint.", unicode.IsDigit)
}
