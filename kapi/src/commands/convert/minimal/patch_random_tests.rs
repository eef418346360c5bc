//! The text patcher against random documents and random changes: whatever the change,
//! the edited text must read back as exactly the new value (the guarantee `--in-place`
//! relies on), and a document without anchors must never be refused.

use apimachinery::serializer::yaml::{json_to_yaml, yaml_to_json};

use super::emit::{self, YamlLayout};
use super::tree::Tree;
use super::{ordered, patch, yaml_source};

/// xorshift64*: deterministic, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const KEYS: &[&str] = &[
    "a",
    "b",
    "name",
    "spec",
    "x-1",
    "on",
    "80",
    "app.kubernetes.io/name",
];
const STRINGS: &[&str] = &[
    "web",
    "yes",
    "80",
    "a b",
    "",
    "it's",
    "x: y",
    "#c",
    "two\nlines",
    "-1",
    "é",
    "[x]",
];

fn scalar(rng: &mut Rng) -> Tree {
    match rng.below(5) {
        0 => Tree::Null,
        1 => Tree::Bool(rng.below(2) == 0),
        2 => Tree::Number((rng.below(1000) as u64).into()),
        _ => Tree::String((*rng.pick(STRINGS)).to_owned()),
    }
}

fn value(rng: &mut Rng, depth: usize) -> Tree {
    if depth == 0 {
        return scalar(rng);
    }
    match rng.below(4) {
        0 => scalar(rng),
        1 => Tree::Array((0..rng.below(4)).map(|_| value(rng, depth - 1)).collect()),
        _ => object(rng, depth - 1),
    }
}

fn object(rng: &mut Rng, depth: usize) -> Tree {
    let mut entries: Vec<(String, Tree)> = Vec::new();
    for _ in 0..rng.below(5) {
        let key = (*rng.pick(KEYS)).to_owned();
        if !entries.iter().any(|(k, _)| *k == key) {
            entries.push((key, value(rng, depth)));
        }
    }
    Tree::Object(entries)
}

/// `tree` with a few random changes.
fn mutate(tree: &Tree, rng: &mut Rng, depth: usize) -> Tree {
    match tree {
        Tree::Object(entries) => {
            let mut out = Vec::new();
            for (k, v) in entries {
                match rng.below(8) {
                    0 => {}                                               // removed
                    1 => out.push((k.clone(), value(rng, depth.min(2)))), // replaced
                    _ => out.push((k.clone(), mutate(v, rng, depth + 1))),
                }
            }
            if rng.below(4) == 0 {
                let key = (*rng.pick(KEYS)).to_owned();
                if !out.iter().any(|(k, _)| *k == key) {
                    let at = rng.below(out.len() + 1);
                    out.insert(at, (key, value(rng, 2)));
                }
            }
            Tree::Object(out)
        }
        Tree::Array(items) => {
            let mut out: Vec<Tree> = items.iter().map(|i| mutate(i, rng, depth + 1)).collect();
            if rng.below(6) == 0 {
                out.push(value(rng, 1));
            }
            Tree::Array(out)
        }
        _ if rng.below(5) == 0 => scalar(rng),
        other => other.clone(),
    }
}

#[test]
fn random_changes_read_back_exactly() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let layouts = [
        YamlLayout::default(),
        YamlLayout {
            indent: 4,
            indent_sequences: true,
        },
    ];
    let mut checked = 0;
    for case in 0..1500 {
        let doc = object(&mut rng, 3);
        if matches!(&doc, Tree::Object(o) if o.is_empty()) {
            continue;
        }
        // Go's layout, or another indentation with indented sequences.
        let text = if case % 2 == 0 {
            json_to_yaml(&doc.to_value())
        } else {
            format!("{}\n", emit::block(&doc, 0, layouts[1]))
        };
        let value = match yaml_to_json(&text) {
            Ok(d) => d.value,
            Err(e) => panic!("case {case}: the generated text does not read: {e}\n{text}"),
        };
        let root =
            yaml_source::read(&text).unwrap_or_else(|| panic!("case {case}: no nodes\n{text}"));
        let old = ordered(&root, &value);
        let new = mutate(&old, &mut rng, 0);
        let patched = patch::patch(&text, &root, &old, &new)
            .unwrap_or_else(|e| panic!("case {case}: refused: {e}\n{text}\nnew: {new}"));
        let back = yaml_to_json(&patched.text).unwrap_or_else(|e| {
            panic!(
                "case {case}: {e}\n--- before\n{text}--- after\n{}",
                patched.text
            )
        });
        assert_eq!(
            back.value,
            new.to_value(),
            "case {case}\n--- before\n{text}--- after\n{}",
            patched.text
        );
        checked += 1;
    }
    assert!(checked > 1000, "{checked}");
}
