#!/usr/bin/env python3
"""Writes random YAML documents to read/random-NNN.yaml for capture.sh: plain scalars in
every YAML 1.1 spelling go-yaml v2 types (bools, nulls, base-prefixed and underscored
ints, floats, timestamps, base-60), quoted and tagged scalars, scalar keys of every type,
in block and flow collections.

usage: random_yaml.py SEED COUNT [OUTDIR]   (OUTDIR defaults to read/)
Left out: a lone `-` as a flow item (go-yaml reads it as a string, our YAML 1.2 parser
rejects it), `.inf`/`.nan` (Go fails: JSON cannot hold them), and keys that collide once
made strings (`0.0` and `00` both become "0"; Go keeps one at random).
"""
import os, random, sys

seed, count = int(sys.argv[1]), int(sys.argv[2])
out = sys.argv[3] if len(sys.argv) > 3 else "read"
random.seed(seed)
plain = ["y", "n", "yes", "No", "on", "OFF", "true", "False", "null", "~", "Null", "1", "-1",
         "+1", "0x1F", "-0x1f", "0o17", "017", "08", "09.5", "1_000", "1__0", "_1", "0b101",
         "-0b11", "0b", "1e3", "1E-3", "1.5", ".5", "-.5", "1.", "+.5", "1e400", "1:20",
         "2008-01-01", "2008-1-1", "2008-02-29", "2009-02-29", "2008-01-01T01:02:03Z",
         "2008-1-1t1:2:3.5+05:30", "2008-01-01 01:02:03", "2008-01-01 01:02:03 +5",
         "2008-13-01", "abc", "a b", "a:b", "a-b", "-a", "=", "0", "-0", "-0.0",
         "123456789012", "9223372036854775807", "-9223372036854775808", "1.0e+10", "6.02e23",
         "0x_1F", "1,000", "3.14.15", "nan", "inf", "Yes", "TRUE", "oN", "0xFFFFFFFF", "0.1",
         "1e-7", "12e", "1_0.5", "+", "123abc", "1:2:3", "190:20:30.15"]
quoted = ['"1"', "'yes'", '"a\\tb"', '"\\u00e9\\x41\\U0001F600"', "'it''s'", '"\\N\\_\\L"',
          '!!str 12', '!!int "7"', '!!float 3', '!!bool "no"', '!!null ""', '!!binary aGk=']
keys = [k for k in plain if k not in ("~", "null", "Null", "-0", "-0.0", "0")] + ['"q"', "'s'"]


def scalar():
    return random.choice(plain) if random.random() < 0.8 else random.choice(quoted)


def key_string(k):
    """A rough stand-in for the JSON key, to keep keys of one mapping distinct."""
    try:
        return str(float(k.replace("_", "")))
    except ValueError:
        return k.lower()


os.makedirs(out, exist_ok=True)
for i in range(count):
    lines = ["apiVersion: v1", "kind: ConfigMap", "metadata:", "  name: random-%d" % i,
             "  labels: {a: b}"]
    used = {"apiVersion", "kind", "metadata"}
    for j in range(random.randint(3, 12)):
        k = random.choice(keys)
        k = "k%d_%s" % (j, k) if random.random() < 0.3 else k
        if key_string(k) in used:
            continue
        used.add(key_string(k))
        r = random.random()
        if r < 0.4:
            lines.append("%s: %s" % (k, scalar()))
        elif r < 0.6:
            lines.append("%s: [%s]" % (k, ", ".join(scalar() for _ in range(random.randint(0, 4)))))
        elif r < 0.8:
            lines.append("%s:" % k)
            lines.extend("- %s" % scalar() for _ in range(random.randint(1, 4)))
        else:
            lines.append("%s:" % k)
            sub = set()
            for _ in range(random.randint(1, 4)):
                kk = random.choice(keys)
                if key_string(kk) in sub:
                    continue
                sub.add(key_string(kk))
                lines.append("  %s: %s" % (kk, scalar()))
    with open(os.path.join(out, "random-%03d.yaml" % i), "w") as f:
        f.write("\n".join(lines) + "\n")
