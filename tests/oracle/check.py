"""Cross-check midpoint's replacement policies against libCacheSim's (PyPI `libcachesim`).

Generates traces in libCacheSim's oracleGeneral format, replays each through every policy both
tools have, here (`midpoint replay --format oracle-general`) and in libCacheSim, and fails
unless the miss counts are equal. Usage: check.py MIDPOINT_BINARY WORK_DIR [SEED000_TRACE]
"""

import json
import os
import random
import struct
import subprocess
import sys

import libcachesim as lcs

# midpoint name -> libCacheSim constructor, with libCacheSim's defaults spelled out.
POLICIES = {
    "lru": lambda n: lcs.LRU(n),
    "fifo": lambda n: lcs.FIFO(n),
    "clock": lambda n: lcs.Clock(n, init_freq=0, n_bit_counter=1),
    "2q": lambda n: lcs.TwoQ(n, a_in_size_ratio=0.25, a_out_size_ratio=0.5),
    "arc": lambda n: lcs.ARC(n),
    "sieve": lambda n: lcs.Sieve(n),
    "s3fifo": lambda n: lcs.S3FIFO(
        n, small_size_ratio=0.1, ghost_size_ratio=0.9, move_to_main_threshold=2
    ),
    "lirs": lambda n: lcs.LIRS(n),
    "belady": lambda n: lcs.Belady(n),
}


def write_oracle(path, ids, times=None):
    """Writes ids as oracleGeneral records of size 1 with next-access positions filled."""
    nxt = [-1] * len(ids)
    last = {}
    for i in range(len(ids) - 1, -1, -1):
        nxt[i] = last.get(ids[i], -1)
        last[ids[i]] = i
    with open(path, "wb") as f:
        for i, x in enumerate(ids):
            t = times[i] if times else i // 1000
            f.write(struct.pack("<IQIq", t, x, 1, nxt[i]))


def zipf_trace(n_req, n_obj, alpha, rng):
    weights = [1.0 / (k + 1) ** alpha for k in range(n_obj)]
    ids = rng.choices(range(n_obj), weights=weights, k=n_req)
    # Scatter the popular ids over a sparse 64-bit space (exercises the remapping).
    return [(x * 0x9E3779B97F4A7C15 + 12345) % (1 << 64) for x in ids]


def reuse_trace(n_req, n_obj, rng):
    """Random ids with reuse: half re-request one of the last 5,000 requests, half uniform."""
    ids = []
    for _ in range(n_req):
        if ids and rng.random() < 0.5:
            ids.append(ids[-1 - rng.randrange(min(5000, len(ids)))])
        else:
            ids.append(rng.randrange(n_obj))
    return ids


def n_records(path):
    return os.path.getsize(path) // 24


def ours(binary, path, policy, size):
    out = subprocess.run(
        [binary, "replay", "--format", "oracle-general", path,
         "--policy", policy, "--cache-pages", str(size), "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)["misses"]


def theirs(path, policy, size):
    reader = lcs.TraceReader(path, lcs.TraceType.ORACLE_GENERAL_TRACE)
    ratio, _ = POLICIES[policy](size).process_trace(reader)
    return round(ratio * n_records(path))


def main():
    binary, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    rng = random.Random(14)
    traces = []
    z = os.path.join(work, "zipf.oracleGeneral")
    write_oracle(z, zipf_trace(200_000, 20_000, 0.9, rng))
    traces.append(("zipf a=0.9, 200k requests, 20k objects", z, [100, 1000, 5000]))
    r = os.path.join(work, "reuse.oracleGeneral")
    write_oracle(r, reuse_trace(200_000, 50_000, rng))
    traces.append(("random with reuse, 200k requests", r, [200, 2000, 10000]))
    if len(sys.argv) > 3:
        traces.append(("seed-000 export", sys.argv[3], [16382]))
    failed = 0
    for label, path, sizes in traces:
        for size in sizes:
            for policy in POLICIES:
                a = ours(binary, path, policy, size)
                b = theirs(path, policy, size)
                ok = a == b
                failed += not ok
                print(f"{'ok  ' if ok else 'FAIL'} {label:42} cache {size:6} {policy:7} "
                      f"midpoint {a:9} libCacheSim {b:9}")
    if failed:
        print(f"{failed} comparisons differ")
        sys.exit(1)
    print("all miss counts equal")


if __name__ == "__main__":
    main()
