//! Changing a YAML document's text from its old value to its new one by editing only
//! what differs: a scalar is replaced in place (in its quoting style), an entry removed
//! is removed with its lines, an entry added is written on lines of its own beside its
//! neighbours, at their indentation. Comments, blank lines, quoting, flow collections and
//! key order outside those places stay as they were.
//!
//! What cannot be edited in place is rewritten whole at the nearest level that can: an
//! entry (`key: value`), a sequence item, a flow collection, the document. Comments
//! inside a rewritten part are lost ([`Patched::dropped_comments`] says so). Cases:
//! entries of a mapping with merge keys (`<<`) or complex keys, sequences whose length
//! changes, scalars becoming collections, block scalars (`|`, `>`) that change, an entry
//! to remove that shares its line with a sequence dash. A part holding an anchor
//! (`&name`) is never rewritten, as an alias elsewhere may use it: that is an error.

use super::emit::{self, YamlLayout};
use super::tree::Tree;
use super::yaml_source::{Entry, Node, NodeKind};
use saphyr_parser::ScalarStyle;

/// A document's new text.
#[derive(Debug)]
pub struct Patched {
    /// The text.
    pub text: String,
    /// Whether a rewritten part held comments, which are gone.
    pub dropped_comments: bool,
}

/// `text` (whose nodes are `root`, whose value is `old`) changed to read as `new`.
pub fn patch(text: &str, root: &Node, old: &Tree, new: &Tree) -> Result<Patched, String> {
    let mut p = Patcher {
        text,
        crlf: text.contains("\r\n"),
        layout: super::yaml_source::layout(root),
        edits: Vec::new(),
        dropped_comments: false,
    };
    match p.node(root, old, new) {
        Ok(()) => {}
        Err(Fail::Fatal(e)) => return Err(e),
        Err(Fail::Rewrite) => p.rewrite(root.start, root.end, root, new, root.column)?,
    }
    let text = p.apply()?;
    Ok(Patched {
        text,
        dropped_comments: p.dropped_comments,
    })
}

/// A replacement of `text[start..end]`.
#[derive(Debug)]
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

/// Why a node was not changed in place.
enum Fail {
    /// The caller rewrites it whole.
    Rewrite,
    /// It cannot be changed at all.
    Fatal(String),
}

impl From<String> for Fail {
    fn from(e: String) -> Self {
        Fail::Fatal(e)
    }
}

struct Patcher<'t> {
    text: &'t str,
    /// Lines end with `\r\n`: what is written does too.
    crlf: bool,
    layout: YamlLayout,
    edits: Vec<Edit>,
    dropped_comments: bool,
}

impl Patcher<'_> {
    /// Changes `node` from `old` to `new` in place, or fails with `Rewrite` having
    /// recorded nothing.
    fn node(&mut self, node: &Node, old: &Tree, new: &Tree) -> Result<(), Fail> {
        if old == new {
            return Ok(());
        }
        let mark = self.edits.len();
        let result = self.node_inner(node, old, new);
        if matches!(result, Err(Fail::Rewrite)) {
            self.edits.truncate(mark);
        }
        result
    }

    fn node_inner(&mut self, node: &Node, old: &Tree, new: &Tree) -> Result<(), Fail> {
        match (&node.kind, old, new) {
            (
                NodeKind::Scalar {
                    style,
                    multiline: false,
                },
                _,
                _,
            ) if !new.is_collection()
                && node.start < node.end
                && matches!(
                    style,
                    ScalarStyle::Plain | ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted
                ) =>
            {
                let text = match new {
                    Tree::String(s) => emit::string_in_style(s, *style),
                    other => emit::scalar(other),
                };
                self.edit(node.start, node.end, text);
                Ok(())
            }
            (NodeKind::Map { flow: true, .. } | NodeKind::Seq { flow: true, .. }, _, _)
                if new.is_collection() && !node.anchored =>
            {
                self.edit(node.start, node.end, emit::flow(new));
                Ok(())
            }
            (
                NodeKind::Map {
                    flow: false,
                    entries,
                    irregular: false,
                },
                Tree::Object(old_entries),
                Tree::Object(new_entries),
            ) if !new_entries.is_empty()
                && entries.len() == old_entries.len()
                && entries.iter().all(|e| old.get(&e.key).is_some()) =>
            {
                self.map(entries, old, new)
            }
            (NodeKind::Seq { flow: false, items }, Tree::Array(a), Tree::Array(b))
                if items.len() == a.len() && a.len() == b.len() =>
            {
                for ((item, old_item), new_item) in items.iter().zip(a).zip(b) {
                    if let Err(Fail::Rewrite) = self.node(item, old_item, new_item) {
                        self.rewrite(item.start, item.end, item, new_item, item.column)?;
                    }
                }
                Ok(())
            }
            _ => Err(Fail::Rewrite),
        }
    }

    /// A block mapping's entries changed, removed and added.
    fn map(&mut self, entries: &[Entry], old: &Tree, new: &Tree) -> Result<(), Fail> {
        let Tree::Object(new_entries) = new else {
            return Err(Fail::Rewrite);
        };
        for e in entries {
            let (Some(old_value), Some(new_value)) = (old.get(&e.key), new.get(&e.key)) else {
                continue;
            };
            if let Err(Fail::Rewrite) = self.node(&e.value, old_value, new_value) {
                self.rewrite(e.key_start, e.value.end, &e.value, new_value, e.key_column)?;
                // The rewrite wrote the value only; put the key back in front.
                self.prefix_key(e);
            }
        }
        for e in entries.iter().filter(|e| new.get(&e.key).is_none()) {
            if !self.line_is_clean(e.key_start) {
                return Err(Fail::Rewrite);
            }
            let start = self.line_start(e.key_start);
            let end = self.after_line_end(e.value.end);
            self.note_comments(start, end, e.key_start);
            self.edit(start, end, String::new());
        }
        let column = entries.first().map_or(0, |e| e.key_column);
        for (i, (key, value)) in new_entries.iter().enumerate() {
            if old.get(key).is_some() {
                continue;
            }
            // After the nearest key before it that stays, else before the first one.
            let before = new_entries[..i]
                .iter()
                .rev()
                .find_map(|(k, _)| entries.iter().find(|e| &e.key == k && new.get(k).is_some()));
            let at = match before {
                Some(e) => self.after_line_end(e.value.end),
                None => match entries.first() {
                    Some(first) if self.line_is_clean(first.key_start) => {
                        self.line_start(first.key_start)
                    }
                    Some(first) => self.after_line_end(first.value.end),
                    None => return Err(Fail::Rewrite),
                },
            };
            let mut line = String::new();
            if at == self.text.len() && !self.text.is_empty() && !self.text.ends_with('\n') {
                line.push('\n');
            }
            line.push_str(&" ".repeat(column));
            line.push_str(&emit::key(key));
            line.push(':');
            line.push_str(&emit::after_key(value, column, self.layout));
            line.push('\n');
            self.edit(at, at, line);
        }
        Ok(())
    }

    /// Rewrites `text[start..end]` (whose node is `node`) as `new`, the node's column
    /// being `column`. For an entry, `start` is its key's and the key is written back by
    /// [`Patcher::prefix_key`].
    fn rewrite(
        &mut self,
        start: usize,
        end: usize,
        node: &Node,
        new: &Tree,
        column: usize,
    ) -> Result<(), String> {
        if node.anchored {
            return Err(
                "the change falls in a part of the YAML that carries an anchor (&name), which kapi does not rewrite"
                    .to_owned(),
            );
        }
        self.note_comments(start, end, start);
        let is_entry = start != node.start;
        let text = if is_entry {
            emit::after_key(new, column, self.layout)
        } else if new.is_block_collection() {
            emit::block(new, column, self.layout)
        } else {
            emit::scalar(new)
        };
        self.edit(start, end, text);
        Ok(())
    }

    /// Puts the key (as written) and `:` in front of the rewrite of its entry just
    /// recorded.
    fn prefix_key(&mut self, e: &Entry) {
        if let Some(last) = self.edits.last_mut() {
            let key = &self.text[e.key_start..e.key_end];
            last.text = format!("{key}:{}", last.text);
        }
    }

    fn edit(&mut self, start: usize, end: usize, text: String) {
        let text = if self.crlf {
            text.replace('\n', "\r\n")
        } else {
            text
        };
        self.edits.push(Edit { start, end, text });
    }

    /// Whether only spaces precede `pos` on its line.
    fn line_is_clean(&self, pos: usize) -> bool {
        self.text[self.line_start(pos)..pos]
            .bytes()
            .all(|b| b == b' ')
    }

    fn line_start(&self, pos: usize) -> usize {
        self.text[..pos].rfind('\n').map_or(0, |i| i + 1)
    }

    /// The byte after the newline ending `pos`'s line (the text's end if none).
    fn after_line_end(&self, pos: usize) -> usize {
        self.text[pos..]
            .find('\n')
            .map_or(self.text.len(), |i| pos + i + 1)
    }

    /// Records whether `text[start..end]` holds a comment line (or one after `from`).
    fn note_comments(&mut self, start: usize, end: usize, from: usize) {
        let part = &self.text[start.min(from)..end];
        if part
            .lines()
            .any(|l| l.trim_start().starts_with('#') || l.contains(" #"))
        {
            self.dropped_comments = true;
        }
    }

    /// The text with every edit made; overlapping edits are an error of this module.
    fn apply(&mut self) -> Result<String, String> {
        // Insertions (empty ranges) before a removal that starts at the same place.
        self.edits.sort_by_key(|e| (e.start, e.end));
        let mut out = String::with_capacity(self.text.len());
        let mut at = 0;
        for e in &self.edits {
            if e.start < at {
                return Err(format!(
                    "internal error: overlapping edits at byte {} of the document",
                    e.start
                ));
            }
            out.push_str(&self.text[at..e.start]);
            out.push_str(&e.text);
            at = e.end;
        }
        out.push_str(&self.text[at..]);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::yaml_source;
    use super::*;
    use apimachinery::serializer::yaml::yaml_to_json;

    /// `text` patched to `new` (JSON).
    fn patched(text: &str, new: &str) -> Patched {
        let root = yaml_source::read(text).unwrap();
        let old = Tree::from_value(&yaml_to_json(text).unwrap().value);
        let new = Tree::parse_json(new.as_bytes()).unwrap();
        patch(text, &root, &old, &new).unwrap()
    }

    #[test]
    fn scalars_change_in_place_comments_and_quotes_kept() {
        let text = "# head\napiVersion: \"extensions/v1beta1\"  # old\nkind: Deployment\nspec:\n  replicas: 3 # three\n";
        let p = patched(
            text,
            r#"{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":3}}"#,
        );
        assert_eq!(
            p.text,
            "# head\napiVersion: \"apps/v1\"  # old\nkind: Deployment\nspec:\n  replicas: 3 # three\n"
        );
        assert!(!p.dropped_comments);
    }

    #[test]
    fn entries_move_as_go_moves_them() {
        let text = "paths:\n- path: /api\n  # the API\n  backend:\n    serviceName: api   # svc\n    servicePort: 8080\n- path: /\n  backend: {serviceName: web, servicePort: http}\n";
        let p = patched(
            text,
            r#"{"paths":[{"path":"/api","pathType":"ImplementationSpecific","backend":{"service":{"name":"api","port":{"number":8080}}}},{"path":"/","backend":{"service":{"name":"web","port":{"name":"http"}}}}]}"#,
        );
        assert_eq!(
            p.text,
            "paths:\n- path: /api\n  pathType: ImplementationSpecific\n  # the API\n  backend:\n    service:\n      name: api\n      port:\n        number: 8080\n- path: /\n  backend: {service: {name: web, port: {name: http}}}\n"
        );
        assert!(p.dropped_comments);
    }

    #[test]
    fn keys_are_added_beside_their_neighbours() {
        let text = "spec:\n    replicas: 2\n    template:\n        metadata:\n            labels: {app: a}\n";
        let p = patched(
            text,
            r#"{"spec":{"replicas":2,"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}}}}}"#,
        );
        assert_eq!(
            p.text,
            "spec:\n    replicas: 2\n    selector:\n        matchLabels:\n            app: a\n    template:\n        metadata:\n            labels: {app: a}\n"
        );
    }

    #[test]
    fn windows_line_ends_stay_windows_line_ends() {
        let text = "spec:\r\n  replicas: 2\r\n  template: {}\r\n";
        let p = patched(
            text,
            r#"{"spec":{"replicas":2,"selector":{"matchLabels":{"a":"b"}},"template":{}}}"#,
        );
        assert_eq!(
            p.text,
            "spec:\r\n  replicas: 2\r\n  selector:\r\n    matchLabels:\r\n      a: b\r\n  template: {}\r\n"
        );
    }

    #[test]
    fn anchored_parts_are_not_rewritten() {
        let text = "a: &x\n  b: 1\nc: *x\n";
        let root = yaml_source::read(text).unwrap();
        let old = Tree::from_value(&yaml_to_json(text).unwrap().value);
        let new = Tree::parse_json(br#"{"a":[1],"c":{"b":1}}"#).unwrap();
        assert!(patch(text, &root, &old, &new).is_err());
    }
}
