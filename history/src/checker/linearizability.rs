//! Linearizability of one object's history (Wing & Gong's search with Lowe's memo, as
//! Knossos and Porcupine do it): is there one order of the operations, each placed
//! between its invocation and its answer, in which every answer is what a single
//! copy of the object would have given? Objects are independent, so each is searched
//! alone.
//!
//! An operation whose outcome is unknown has no answer: it may take effect at any point
//! after it was sent, or never, which is the same as taking effect after everything
//! else. One whose value was seen (in a watch event, say) certainly happened, before it
//! was first seen. Operations are tried in an order that leaves the unknown ones for
//! last, so that a history with many of them is still searched quickly when it is
//! linearizable.

use std::collections::{HashMap, HashSet};

use crate::record::Nanos;

/// What an operation needs the object to be when it takes effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Require {
    /// Absent.
    Absent,
    /// Present.
    Present,
    /// Present with this value.
    Is(u32),
    /// Present with any other value than this.
    PresentNot(u32),
    /// Nothing can satisfy it (a precondition on a version nobody saw).
    Never,
}

/// What an operation does to the object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Nothing (a read, or an answer that says the write was refused).
    None,
    /// The object now holds the value, at the resourceVersion when known.
    Put(u32, Option<u64>),
    /// The object is deleted; the deletion's resourceVersion is looked up by the value
    /// deleted.
    Delete,
}

/// One operation of the search.
#[derive(Clone, Debug)]
pub(crate) struct Op {
    /// When it was sent.
    pub invoked: Nanos,
    /// When its answer was read; `None` when it may take effect at any time after.
    pub completed: Option<Nanos>,
    /// What it needs.
    pub require: Require,
    /// What it does.
    pub effect: Effect,
    /// How the reports name it.
    pub label: String,
}

/// The object in the search: its value (interned) and the resourceVersion of its last
/// known change (resourceVersions only grow).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct State {
    /// The value held, if present.
    pub value: Option<u32>,
    /// The last known resourceVersion.
    pub rv: u64,
}

/// The search's answer.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// An order was found.
    Linearizable,
    /// No order exists; why the longest attempt stopped.
    Violation(String),
    /// The search gave up after its budget of steps.
    Undecided,
}

/// How the search names values and knows deletion revisions.
pub(crate) trait Names {
    /// The value's name in reports.
    fn name(&self, value: u32) -> String;
    /// The resourceVersion at which the object holding `value` was deleted, if seen.
    fn deletion_rv(&self, value: u32) -> Option<u64>;
}

/// Applies `op` to `state`, if the state allows it.
fn step(op: &Op, state: State, names: &dyn Names) -> Option<State> {
    let ok = match op.require {
        Require::Absent => state.value.is_none(),
        Require::Present => state.value.is_some(),
        Require::Is(v) => state.value == Some(v),
        Require::PresentNot(v) => state.value.is_some_and(|x| x != v),
        Require::Never => false,
    };
    if !ok {
        return None;
    }
    let advance = |rv: Option<u64>| match rv {
        Some(rv) if rv <= state.rv => None,
        Some(rv) => Some(rv),
        None => Some(state.rv),
    };
    match op.effect {
        Effect::None => Some(state),
        Effect::Put(value, rv) => Some(State {
            value: Some(value),
            rv: advance(rv)?,
        }),
        Effect::Delete => {
            let rv = state.value.and_then(|v| names.deletion_rv(v));
            Some(State {
                value: None,
                rv: advance(rv)?,
            })
        }
    }
}

const NONE: usize = usize::MAX;

/// A call or return entry of the time-ordered list the search walks.
#[derive(Clone, Copy)]
struct Entry {
    op: usize,
    is_return: bool,
}

struct List {
    entries: Vec<Entry>,
    next: Vec<usize>,
    prev: Vec<usize>,
    /// The index past the entries: the list's head.
    head: usize,
    call: Vec<usize>,
    ret: Vec<usize>,
}

impl List {
    fn new(ops: &[Op]) -> List {
        let mut order: Vec<(Nanos, bool, usize)> = Vec::with_capacity(ops.len() * 2);
        for (i, op) in ops.iter().enumerate() {
            order.push((op.invoked, false, i));
            if let Some(done) = op.completed {
                order.push((done.max(op.invoked), true, i));
            }
        }
        // Calls before returns at the same instant: touching operations are concurrent.
        order.sort_unstable();
        let n = order.len();
        let mut list = List {
            entries: Vec::with_capacity(n),
            next: vec![NONE; n + 1],
            prev: vec![NONE; n + 1],
            head: n,
            call: vec![NONE; ops.len()],
            ret: vec![NONE; ops.len()],
        };
        let mut last = n;
        for (index, (_, is_return, op)) in order.into_iter().enumerate() {
            list.entries.push(Entry { op, is_return });
            if is_return {
                list.ret[op] = index;
            } else {
                list.call[op] = index;
            }
            list.next[last] = index;
            list.prev[index] = last;
            last = index;
        }
        list
    }

    fn unlink(&mut self, e: usize) {
        let (p, n) = (self.prev[e], self.next[e]);
        self.next[p] = n;
        if n != NONE {
            self.prev[n] = p;
        }
    }

    fn relink(&mut self, e: usize) {
        let (p, n) = (self.prev[e], self.next[e]);
        self.next[p] = e;
        if n != NONE {
            self.prev[n] = e;
        }
    }

    fn lift(&mut self, op: usize) {
        self.unlink(self.call[op]);
        if self.ret[op] != NONE {
            self.unlink(self.ret[op]);
        }
    }

    /// Undoes `lift`; lifts are undone in the reverse order, so the neighbours kept
    /// in each entry are current.
    fn unlift(&mut self, op: usize) {
        if self.ret[op] != NONE {
            self.relink(self.ret[op]);
        }
        self.relink(self.call[op]);
    }

    /// The operations that may take effect next (called before the first pending
    /// answer), those with answers first; and that first pending answer's operation.
    fn candidates(&self, ops: &[Op], out: &mut Vec<usize>) -> Option<usize> {
        out.clear();
        let mut unknown = Vec::new();
        let mut e = self.next[self.head];
        while e != NONE {
            let entry = self.entries[e];
            if entry.is_return {
                out.extend(unknown);
                return Some(entry.op);
            }
            if ops[entry.op].completed.is_some() {
                out.push(entry.op);
            } else {
                unknown.push(entry.op);
            }
            e = self.next[e];
        }
        out.extend(unknown);
        None
    }
}

/// A bit set of the operations taken effect so far.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Bits(Vec<u64>);

impl Bits {
    fn set(&mut self, i: usize, on: bool) {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if on {
            self.0[word] |= bit;
        } else {
            self.0[word] &= !bit;
        }
    }
}

struct Frame {
    op: usize,
    before: State,
    tried: usize,
}

/// Searches for an order of `ops`, trying at most `budget` steps.
pub(crate) fn search(ops: &[Op], names: &dyn Names, budget: u64) -> Verdict {
    let mut list = List::new(ops);
    let mut bits = Bits(vec![0; ops.len().div_ceil(64)]);
    let mut memo: HashSet<(Bits, State)> = HashSet::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut state = State::default();
    let mut candidates = Vec::new();
    let mut start = 0;
    let mut steps = 0u64;
    // The deepest point reached, for the report: the order so far and what blocked it.
    let mut deepest: (usize, Vec<usize>, State, Option<usize>) = (0, Vec::new(), state, None);
    loop {
        let blocking = list.candidates(ops, &mut candidates);
        if blocking.is_none() {
            // Every answer is explained; what is left may take effect after all of it.
            return Verdict::Linearizable;
        }
        let mut advanced = false;
        for (tried, &op) in candidates.iter().enumerate().skip(start) {
            if interchangeable_with_earlier(ops, &candidates[..tried], op) {
                continue;
            }
            steps += 1;
            if steps > budget {
                return Verdict::Undecided;
            }
            let Some(after) = step(&ops[op], state, names) else {
                continue;
            };
            bits.set(op, true);
            if memo.insert((bits.clone(), after)) {
                stack.push(Frame {
                    op,
                    before: state,
                    tried,
                });
                state = after;
                list.lift(op);
                advanced = true;
                break;
            }
            bits.set(op, false);
        }
        if advanced {
            start = 0;
            continue;
        }
        if stack.len() >= deepest.0 {
            deepest = (
                stack.len(),
                stack.iter().map(|f| f.op).collect(),
                state,
                blocking,
            );
        }
        let Some(frame) = stack.pop() else {
            return Verdict::Violation(explain(ops, names, &deepest));
        };
        list.unlift(frame.op);
        bits.set(frame.op, false);
        state = frame.before;
        start = frame.tried + 1;
    }
}

/// Whether an earlier candidate of unknown outcome does exactly what `op` does. Both
/// were sent already and neither has an answer to come, so whatever order works with
/// one works with the other in its place: only the first is tried. With the values
/// nobody saw made one (see [`Interner::unseen`]), a run's hundreds of failed writes
/// fall into a few such classes, and the search stays polynomial in them.
fn interchangeable_with_earlier(ops: &[Op], earlier: &[usize], op: usize) -> bool {
    let this = &ops[op];
    this.completed.is_none()
        && earlier.iter().any(|&e| {
            let other = &ops[e];
            other.completed.is_none()
                && other.require == this.require
                && other.effect == this.effect
        })
}

fn describe(state: State, names: &dyn Names) -> String {
    match state.value {
        Some(v) => format!("{} (last rv {})", names.name(v), state.rv),
        None => format!("absent (last rv {})", state.rv),
    }
}

fn explain(
    ops: &[Op],
    names: &dyn Names,
    (depth, order, state, blocking): &(usize, Vec<usize>, State, Option<usize>),
) -> String {
    let recent: Vec<&str> = order
        .iter()
        .rev()
        .take(4)
        .rev()
        .map(|&i| ops[i].label.as_str())
        .collect();
    let blocked = blocking.map_or_else(|| "?".to_owned(), |i| ops[i].label.clone());
    format!(
        "no order of the {} operations fits real time: the longest places {depth}, ending \
         [{}], with the object {}; then `{blocked}` cannot take effect",
        ops.len(),
        recent.join("; "),
        describe(*state, names)
    )
}

/// Interned values of one object, with their deletion revisions.
#[derive(Default)]
pub(crate) struct Interner {
    ids: HashMap<String, u32>,
    names: Vec<String>,
    deletions: HashMap<u32, u64>,
}

impl Interner {
    /// The id of `value`, new or known.
    pub fn id(&mut self, value: &str) -> u32 {
        if let Some(&id) = self.ids.get(value) {
            return id;
        }
        let id = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.ids.insert(value.to_owned(), id);
        self.names.push(value.to_owned());
        id
    }

    /// The one id of every value nobody saw (written by requests whose answers were
    /// lost or carried no object, and never read, listed or watched). No operation can
    /// require such a value — preconditions and answers name values someone saw — so
    /// telling them apart would change no step, and would only multiply the search's
    /// states.
    pub fn unseen(&mut self) -> u32 {
        self.id("(a value nobody saw)")
    }

    /// Records that the object holding `value` was deleted at `rv`.
    pub fn deleted(&mut self, value: &str, rv: u64) {
        let id = self.id(value);
        self.deletions.insert(id, rv);
    }
}

impl Names for Interner {
    fn name(&self, value: u32) -> String {
        self.names
            .get(value as usize)
            .cloned()
            .unwrap_or_else(|| format!("#{value}"))
    }

    fn deletion_rv(&self, value: u32) -> Option<u64> {
        self.deletions.get(&value).copied()
    }
}
