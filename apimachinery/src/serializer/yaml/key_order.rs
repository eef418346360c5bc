//! The order go-yaml v2 writes mapping keys in (`sorter.go`, `keyList.Less`), which is
//! not byte order: at the first differing character, letters sort after non-letters,
//! two letters compare by code point, and runs of digits compare as numbers (`a2` before
//! `a10`, `1` before `9` before `10`), a shorter run of equal value first (`a1` before
//! `a01`).
//!
//! The comparison is not transitive for some keys (`017` < `0x1F` < `1e-3` < `017`:
//! letters after digits, but digit runs by value); Go then writes whatever order its
//! random map iteration hands the sort, and kubectl's output varies between runs. Ours
//! is one of those orders, always the same.
//!
//! Letter and digit classes are Go's `unicode.IsLetter`/`IsDigit` for ASCII; beyond
//! ASCII Rust's `char::is_alphabetic`/`is_numeric` stand in for them and differ on a
//! few code points (combining marks, letter-like numerals).

fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        c.is_alphabetic()
    }
}

fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        c.is_numeric()
    }
}

/// go-yaml's digit-run value: wraps like Go's `int64` arithmetic on overflow.
fn digit_value(c: char) -> i64 {
    i64::from(u32::from(c)) - i64::from(u32::from('0'))
}

/// A digit run's value and length in characters, from the start of `s`.
fn digit_run(s: &str, mut value: i64) -> (i64, usize) {
    let mut len = 0;
    for c in s.chars().take_while(|c| is_digit(*c)) {
        value = value.wrapping_mul(10).wrapping_add(digit_value(c));
        len += 1;
    }
    (value, len)
}

/// `keyList.Less` for two string keys.
pub(crate) fn key_less(a: &str, b: &str) -> bool {
    // The common prefix is the same text in both; the comparison starts at the
    // character holding the first byte that differs.
    let Some(mut i) = a.bytes().zip(b.bytes()).position(|(x, y)| x != y) else {
        return a.len() < b.len();
    };
    while i > 0 && !a.is_char_boundary(i) {
        i -= 1;
    }
    let (Some(ac), Some(bc)) = (
        a.get(i..).and_then(|r| r.chars().next()),
        b.get(i..).and_then(|r| r.chars().next()),
    ) else {
        return a.len() < b.len();
    };
    differing_less(a, b, i, ac, bc)
}

/// go-yaml's order of `a` and `b` whose first difference is at byte `i`, where `a` has
/// `ac` and `b` has `bc`.
fn differing_less(a: &str, b: &str, i: usize, ac: char, bc: char) -> bool {
    let (al, bl) = (is_letter(ac), is_letter(bc));
    if al && bl {
        return ac < bc;
    }
    if al || bl {
        return bl;
    }
    let mut start = 0;
    if ac == '0' || bc == '0' {
        // A zero inside a longer number (`10` vs `1a`) is not a leading zero.
        for c in a.get(..i).unwrap_or_default().chars().rev() {
            if !is_digit(c) {
                break;
            }
            if c != '0' {
                start = 1;
                break;
            }
        }
    }
    let (an, alen) = digit_run(a.get(i..).unwrap_or_default(), start);
    let (bn, blen) = digit_run(b.get(i..).unwrap_or_default(), start);
    if an != bn {
        return an < bn;
    }
    if alen != blen {
        return alen < blen;
    }
    ac < bc
}

/// The character-by-character search for the first difference, which [`key_less`]'s
/// byte search must agree with.
#[cfg(test)]
fn key_less_by_chars(a: &str, b: &str) -> bool {
    let mut bs = b.char_indices();
    for (i, ac) in a.char_indices() {
        let Some((_, bc)) = bs.next() else {
            return false;
        };
        if ac == bc {
            continue;
        }
        return differing_less(a, b, i, ac, bc);
    }
    bs.next().is_some()
}

/// The keys of a JSON object in go-yaml's order.
///
/// A merge sort of our own: `slice::sort_by` may panic when a comparator is not a total
/// order, and go-yaml's is not one for every Unicode input.
pub(crate) fn sorted_keys(map: &serde_json::Map<String, serde_json::Value>) -> Vec<&String> {
    let mut keys: Vec<&String> = map.keys().collect();
    merge_sort(&mut keys, &|a: &&String, b: &&String| key_less(a, b));
    keys
}

/// A stable merge sort by `less`, which need not be a total order.
pub(super) fn merge_sort<T: Copy>(items: &mut Vec<T>, less: &impl Fn(&T, &T) -> bool) {
    if items.len() <= 1 {
        return;
    }
    // Keys already in order (serde_json's BTreeMap is byte-sorted, which usually agrees)
    // cost one pass.
    if items.windows(2).all(|w| !less(&w[1], &w[0])) {
        return;
    }
    let mut right = items.split_off(items.len() / 2);
    merge_sort(items, less);
    merge_sort(&mut right, less);
    let left = std::mem::take(items);
    let mut merged = Vec::with_capacity(left.len() + right.len());
    let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
    loop {
        let take_right = match (l.peek(), r.peek()) {
            (Some(x), Some(y)) => less(y, x),
            (Some(_), None) => false,
            (None, Some(_)) => true,
            (None, None) => break,
        };
        let next = if take_right { r.next() } else { l.next() };
        merged.extend(next);
    }
    *items = merged;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    /// [`key_less`] as an [`std::cmp::Ordering`], for tests and callers that want one.
    fn key_cmp(a: &str, b: &str) -> std::cmp::Ordering {
        if key_less(a, b) {
            std::cmp::Ordering::Less
        } else if key_less(b, a) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    }

    #[test]
    fn orders_keys_as_go_yaml_v2() {
        // The order kubectl wrote these keys in (testdata/configmap-keys.yaml).
        let want = [
            "_z", "1", "9", "10", "B", "a1", "a01", "a2", "a10", "b60", "bom",
        ];
        let map: serde_json::Map<String, serde_json::Value> = want
            .iter()
            .map(|k| ((*k).to_owned(), serde_json::Value::Null))
            .collect();
        let got: Vec<&str> = sorted_keys(&map).into_iter().map(String::as_str).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn writes_a_cycle_in_one_of_gos_orders() {
        let map: serde_json::Map<String, serde_json::Value> = ["017", "0x1F", "1e-3"]
            .iter()
            .map(|k| ((*k).to_owned(), serde_json::Value::Null))
            .collect();
        let got: Vec<&str> = sorted_keys(&map).into_iter().map(String::as_str).collect();
        // The orders Go can write: each rotation of the cycle (kubectl wrote the first two
        // in eight runs).
        let go_orders = [
            ["017", "0x1F", "1e-3"],
            ["1e-3", "017", "0x1F"],
            ["0x1F", "1e-3", "017"],
        ];
        assert!(go_orders.iter().any(|o| o[..] == got[..]), "{got:?}");
    }

    proptest::proptest! {
        #[test]
        fn finds_the_difference_by_bytes_as_by_characters(
            a in "[a0-9é😀_B]{0,6}",
            b in "[a0-9é😀_B]{0,6}",
            prefix in "[a1é]{0,3}",
        ) {
            let (a, b) = (format!("{prefix}{a}"), format!("{prefix}{b}"));
            proptest::prop_assert_eq!(key_less(&a, &b), key_less_by_chars(&a, &b), "{} {}", a, b);
        }
    }

    #[test]
    fn compares_digit_runs_numerically() {
        assert_eq!(key_cmp("a2", "a10"), Ordering::Less);
        assert_eq!(key_cmp("a1", "a01"), Ordering::Less);
        // At the first difference a digit meets a letter: the letter sorts last.
        assert_eq!(key_cmp("x10y", "x1z"), Ordering::Less);
        assert_eq!(key_cmp("ab", "abc"), Ordering::Less);
        assert_eq!(key_cmp("a", "a"), Ordering::Equal);
        assert_eq!(key_cmp("-", "a"), Ordering::Less);
    }
}
