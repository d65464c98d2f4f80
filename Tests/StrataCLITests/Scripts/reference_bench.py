#!/usr/bin/env python3
"""A stand-in for realm_core_bench.cpp in tests: reads the inputs file the same way, computes
every answer in memory (the workloads' semantics, not realm-core's speed) and prints the same
JSON lines. With STRATA_TEST_WRONG_COUNT=1 it miscounts, to prove wrong answers are refused."""
import json, os, struct, sys

def double(bits):
    return struct.unpack('<d', struct.pack('<Q', int(bits, 16)))[0]

def row(fields):
    id_, age, score, active, name = fields.split('\t', 4)
    return dict(id=int(id_), age=int(age), score=double(score), active=active == '1', name=name)

inputs, directory, repetitions = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(inputs, encoding='utf-8').read().split('\n')
assert lines[0] == 'strata-bench-inputs 1', lines[0]
i = 1
def section(name):
    global i
    word, count = lines[i].split(' ')
    assert word == name, (word, name)
    i += 1
    out = lines[i:i + int(count)]
    i += int(count)
    return out
rows = [row(l) for l in section('rows')]
_, low, high, prefix = lines[i].split('\t', 3); i += 1
lookups = [int(l) for l in section('lookups')]
commits = section('commits')
updates = section('updates')
deletes = [int(l) for l in section('deletes')]

table = {r['id']: r for r in rows}
count = sum(1 for r in rows if int(low) <= r['age'] <= int(high) and r['name'].encode().startswith(prefix.encode()))
if os.environ.get('STRATA_TEST_WRONG_COUNT') == '1':
    count += 1
h, n = 0xCBF29CE484222325, 0
def mix(b):
    global h
    h = ((h ^ b) * 0x00000100000001B3) & 0xFFFFFFFFFFFFFFFF
def mix64(v):
    for _ in range(8):
        mix(v & 0xFF); v >>= 8
for k in lookups:
    r = table.get(k)
    if r:
        for b in r['name'].encode(): mix(b)
        mix(0xFF); mix64(struct.unpack('<Q', struct.pack('<d', r['score']))[0])
    else:
        mix64(0xDEADBEEFDEADBEEF)
    n += 1
changed = 0
for c in commits:
    kind, rest = c.split('\t', 1)
    if kind == 'I':
        r = row(rest); table[r['id']] = r; changed += 1
    else:
        k, bits = rest.split('\t')
        if int(k) in table: table[int(k)]['score'] = double(bits); changed += 1
updated = sum(1 for u in updates if int(u.split('\t')[0]) in table)
deleted = 0
for k in deletes:
    if table.pop(k, None) is not None: deleted += 1
values = dict(insert=len(rows), count=count, sum=sum(r['age'] for r in rows),
              lookup='count=%d hash=0x%x' % (n, h), commit=changed, update=updated, delete=deleted, compact=4096)
for w in ['insert', 'count', 'sum', 'lookup', 'commit', 'update', 'delete', 'compact']:
    print(json.dumps(dict(workload=w, seconds=[0.001 * (j + 1) for j in range(repetitions)], value=str(values[w]))))
print(json.dumps(dict(fileBytes=[8192] * repetitions)))
print(json.dumps(dict(compactedBytes=[4096] * repetitions)))
