"""Times vdirsyncer against contacts-ledger serve and against Radicale, with the same cards.

Usage: /usr/bin/python3 compare.py CONTACTS_LEDGER_BINARY [--cards 1000,10000] [--changes 10]
                                   [--workdir DIR] [--servers ledger,radicale]

For each size and each server, the server is given the N cards directly (the ledger by
`contacts-ledger import`, Radicale as files in its collection), then timed with vdirsyncer: a
full sync of the N cards down into an empty vdir (listing and multiget), a sync with nothing to
do, and an incremental sync of CHANGES cards edited in the vdir (each a PUT). With --upload the
full sync goes up instead, every card a PUT from the vdir, which is slower for both servers. The cards are the fixture corpus's 3.0 and 4.0 cards that
the ledger accepts, repeated with fresh, deterministic UIDs (UUIDs derived from the index), so
every run syncs the same bytes. Prints a table and, last, one JSON line with every timing.
Debian's vdirsyncer and python3-radicale must be installed (.ci/run installs them).
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402

NAMESPACE = uuid.UUID("2f6c1b7e-3c1d-4f7a-9b1e-5d2a7c9e0f11")


def generated_cards(binary, workdir, count):
    """`count` cards: the corpus's accepted cards in turn, each with a UID of its own."""
    corpus = peers.accepted_by_ledger(binary, workdir, peers.corpus_cards())
    if not corpus:
        peers.fail("the corpus gave no card the ledger accepts")
    return [peers.with_uid(corpus[index % len(corpus)], str(uuid.uuid5(NAMESPACE, f"card-{index}")))
            for index in range(count)]


def timed(action):
    start = time.perf_counter()
    action()
    return round(time.perf_counter() - start, 3)


def edit(pair, changes):
    """Adds a note line to the first `changes` cards of the vdir, in name order."""
    names = sorted(os.listdir(pair.vdir))[:changes]
    for index, name in enumerate(names):
        path = os.path.join(pair.vdir, name)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        text = text.replace("END:VCARD", f"X-COMPARE-EDIT:change {index}\r\nEND:VCARD")
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)


def start(server_name, binary, workdir, seed):
    if server_name == "ledger":
        return peers.LedgerServer(binary, workdir, seed=seed)
    if server_name == "radicale":
        return peers.RadicaleServer(workdir, seed=seed)
    peers.fail(f"unknown server {server_name}: ledger or radicale")


def measure(server_name, binary, cards, changes, workdir, upload):
    os.makedirs(workdir, exist_ok=True)
    server = start(server_name, binary, workdir, None if upload else cards)
    try:
        pair = peers.Vdirsyncer(workdir, server.url(), name="client")
        if upload:
            for index, card in enumerate(cards):
                with open(os.path.join(pair.vdir, f"{index:06}.vcf"), "w", encoding="utf-8", newline="") as handle:
                    handle.write(card)
        pair.discover()
        result = {("fullSyncUp" if upload else "fullSyncDown"): timed(pair.sync)}
        got = len(os.listdir(pair.vdir))
        if got != len(cards):
            peers.fail(f"{server_name}: after the full sync the vdir holds {got} cards, not {len(cards)}")
        result["syncNothingToDo"] = timed(pair.sync)
        edit(pair, changes)
        result["incrementalSync"] = timed(pair.sync)
        return result
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--cards", default="1000,10000")
    parser.add_argument("--changes", type=int, default=10)
    parser.add_argument("--workdir")
    parser.add_argument("--servers", default="ledger,radicale")
    parser.add_argument("--upload", action="store_true", help="time the full sync up, every card a PUT")
    arguments = parser.parse_args()
    peers.require_program("vdirsyncer", "vdirsyncer")
    try:
        import radicale  # noqa: F401
    except ImportError:
        peers.fail(f"{sys.executable} cannot import radicale: install Debian's python3-radicale and run "
                   "this script with /usr/bin/python3")
    root = arguments.workdir or tempfile.mkdtemp(prefix="carddav-compare-")
    results = []
    for count in [int(text) for text in arguments.cards.split(",")]:
        cards = generated_cards(arguments.binary, root, count)
        for server_name in arguments.servers.split(","):
            timings = measure(server_name, arguments.binary, cards, arguments.changes,
                              os.path.join(root, f"{server_name}-{count}"), arguments.upload)
            results.append({"server": server_name, "cards": count, "changes": arguments.changes, **timings})
            direction = "up" if arguments.upload else "down"
            full = timings["fullSyncUp" if arguments.upload else "fullSyncDown"]
            print(f"{server_name:9} {count:6} cards: full sync {direction} {full:8.2f} s, nothing to do "
                  f"{timings['syncNothingToDo']:6.2f} s, {arguments.changes} changes "
                  f"{timings['incrementalSync']:6.2f} s", flush=True)
    if not arguments.workdir:
        shutil.rmtree(root, ignore_errors=True)
    print(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
