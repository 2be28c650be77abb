#!/usr/bin/env python3
"""An independent check of the ledger's Merkle tree heads and proofs.

Reads JSON on standard input: {"leaves": [hex, ...], "checkpoints": [{"size", "root"}],
"proofs": [proof JSON as `contacts-ledger prove` prints it]}. The tree heads come from Python's
pymerkle (RFC 9162 hashing: SHA-256, leaves after 0x00, nodes after 0x01); the proofs are
checked with RFC 9162's verification algorithms (sections 2.1.3.2 and 2.1.4.2) written out
below, and inclusion paths are compared with pymerkle's own. Prints "ok N" or exits 1 naming
the first disagreement.
"""
import hashlib
import json
import sys

from pymerkle import InmemoryTree


def node(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def shift_to_odd_or_zero(fn, sn):
    while not fn & 1 and fn != 0:
        fn >>= 1
        sn >>= 1
    return fn, sn


def verify_inclusion(leaf_hash, index, size, path, root):
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf_hash
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node(p, r)
            fn, sn = shift_to_odd_or_zero(fn, sn)
        else:
            r = node(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(first, second, first_root, second_root, path):
    if first == second:
        return not path and first_root == second_root
    if first == 0 or not path:
        return first == 0 and not path
    if first & (first - 1) == 0:
        path = [first_root] + path
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node(c, fr)
            sr = node(c, sr)
            fn, sn = shift_to_odd_or_zero(fn, sn)
        else:
            sr = node(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == first_root and sr == second_root and sn == 0


def fail(message):
    print(message)
    sys.exit(1)


def check_proof(tree, leaves, proof):
    path = [bytes.fromhex(h) for h in proof["path"]]
    if proof["proof"] == "inclusion":
        seq, size = proof["sequence"], proof["treeSize"]
        if bytes.fromhex(proof["leaf"]) != leaves[seq - 1]:
            fail(f"inclusion {seq}/{size}: the leaf is not the record's")
        leaf_hash = hashlib.sha256(b"\x00" + leaves[seq - 1]).digest()
        peer = tree.prove_inclusion(seq, size).serialize()["path"]
        if [leaf_hash.hex()] + proof["path"] != peer:
            fail(f"inclusion {seq}/{size}: the path is not pymerkle's {peer}")
        if not verify_inclusion(leaf_hash, seq - 1, size, path, tree.get_root(size)):
            fail(f"inclusion {seq}/{size}: RFC 9162 verification failed")
    else:
        m, n = proof["firstSize"], proof["secondSize"]
        first_root, second_root = tree.get_root(m), tree.get_root(n)
        if proof["firstRootHash"] != first_root.hex() or proof["secondRootHash"] != second_root.hex():
            fail(f"consistency {m}/{n}: the roots are not pymerkle's")
        if not verify_consistency(m, n, first_root, second_root, path):
            fail(f"consistency {m}/{n}: RFC 9162 verification failed")


def main():
    data = json.load(sys.stdin)
    tree = InmemoryTree(algorithm="sha256")
    hasher = tree.hasher if hasattr(tree, "hasher") else tree
    if not (hasher.security and hasher.leaf_prefix == b"\x00" and hasher.node_prefix == b"\x01"):
        fail("pymerkle is not hashing as RFC 9162 does (security mode off)")
    leaves = [bytes.fromhex(h) for h in data["leaves"]]
    for leaf in leaves:
        tree.append_entry(leaf)
    checks = 0
    for checkpoint in data["checkpoints"]:
        if tree.get_root(checkpoint["size"]).hex() != checkpoint["root"]:
            fail(f"the root for {checkpoint['size']} records is not pymerkle's")
        checks += 1
    for proof in data["proofs"]:
        check_proof(tree, leaves, proof)
        checks += 1
    print(f"ok {checks}")


main()
