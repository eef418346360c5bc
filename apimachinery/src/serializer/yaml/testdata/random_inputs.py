#!/usr/bin/env python3
"""Writes random ConfigMap-shaped JSON objects to input/random-NNN.json for capture.sh:
strings that hit go-yaml's style rules (indicators, quotes, escapes, YAML 1.1 words,
long text that folds), numbers of every JSON kind, nested lists and maps.

usage: random_inputs.py SEED COUNT [OUTDIR]   (OUTDIR defaults to input/)
Keys carry no U+0085: Go cannot read its own JSON back when a key holds one.
"""
import json, os, random, sys

seed, count = int(sys.argv[1]), int(sys.argv[2])
out = sys.argv[3] if len(sys.argv) > 3 else "input"
random.seed(seed)
alpha = list("abcxyzAZ09 :#?'\"\\\t\n\r{}[],&*!|>%@`.~-_<=") + [
    "\u00e9", "\u00a0", "\ufeff", "\U0001F600", "\u2028", "\u0001", "\u001b", "\u00fc", "\u4e2d"]
words = ["y", "n", "yes", "No", "on", "OFF", "true", "null", "~", "1", "-1", "0x1F", "0o17",
         "017", "08", "1_000", "1e3", "1.5", ".5", "1.", ".inf", "-.Inf", ".nan", "1e400", "1:20",
         "2008-01-01", "2008-1-1T1:2:3Z", "---", "...", "- a", "a: b", "a #b", " ", "\n", "\n\n",
         "a\n", "a\n\n", " a\nb", "a \nb", "\t\n", "", "0b101", "+1", "1e-3",
         "2001-12-14 21:59:43.10", "=", "?x", ":x", "-x", "@", "%x", "a\u0085b", "\u0085 x"]


def rstr(key=False):
    r = random.random()
    if r < 0.3:
        s = random.choice(words)
    elif r < 0.6:
        s = "".join(random.choice(alpha) for _ in range(random.randint(0, 30)))
    else:
        sep = random.choice([" ", " ", "  ", "\n", " \t"])
        s = sep.join("".join(random.choice("abcdefghij:#'-") for _ in range(random.randint(1, 12)))
                     for _ in range(random.randint(5, 40))) + random.choice(["", "\n", " ", "\n\n"])
    return s.replace("\u0085", "") if key else s


def rnum():
    r = random.random()
    if r < 0.3:
        return random.randint(-2**63, 2**63 - 1)
    if r < 0.4:
        return random.randint(0, 2**64 - 1)
    if r < 0.7:
        return random.uniform(-1e6, 1e6)
    if r < 0.85:
        return random.choice([1e21, 1e20, 1e-7, 0.0001, 1e300, -0.0, 0.0, 1.0, 2.5, 123456789.0,
                              1e15, 5e-324])
    return float(random.randint(-10**6, 10**6))


def rval(depth):
    r = random.random()
    if depth > 4 or r < 0.45:
        r2 = random.random()
        if r2 < 0.6:
            return rstr()
        if r2 < 0.85:
            return rnum()
        return random.choice([None, True, False])
    if r < 0.7:
        return [rval(depth + 1) for _ in range(random.randint(0, 4))]
    return {rstr(True): rval(depth + 1) for _ in range(random.randint(0, 5))}


os.makedirs(out, exist_ok=True)
for i in range(count):
    doc = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "random-%d" % i},
           "data": rval(0), "more": {rstr(True): rval(1) for _ in range(4)}}
    with open(os.path.join(out, "random-%03d.json" % i), "w") as f:
        json.dump(doc, f)
