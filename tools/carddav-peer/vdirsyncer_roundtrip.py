"""A real CardDAV client against contacts-ledger serve: vdirsyncer syncs a vdir of real vCards up,
edits on both sides, syncs, deletes on both sides, syncs, and checks that both sides hold the same
cards, property by property, and that the ledger's log names vdirsyncer's requests.

Usage: vdirsyncer_roundtrip.py CONTACTS_LEDGER_BINARY WORKDIR
Exit status 0 when every check holds; otherwise 1 with the first failed check on standard error.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402


def normalized(card_text):
    """What must agree between the two sides: the names, the organization, email and phone sets."""
    import vobject
    card = vobject.readOne(card_text)

    def values(name):
        return sorted(str(item.value).strip() for item in card.contents.get(name, []) if str(item.value).strip())

    n = card.contents.get("n", [None])[0]
    return {
        "uid": values("uid"),
        # The server writes FN from the names (VCard.md): compare its words.
        "fn": sorted(re.findall(r"\w+", " ".join(values("fn")))),
        "fnText": values("fn"),
        "n": [n.value.family.strip(), n.value.given.strip()] if n is not None else None,
        "email": values("email"),
        "tel": sorted(re.sub(r"^tel:", "", value) for value in values("tel")),
        # vobject splits some notes at a comma: compare their words.
        "note": sorted(set(re.findall(r"\w+", " ".join(values("note"))))),
    }


def server_hrefs(server):
    status, _, body = server.request("PROPFIND", server.book, headers={"Depth": "1"})
    if status != 207:
        peers.fail(f"PROPFIND answered {status}")
    return re.findall(r"<d:href>([^<]*\.vcf)</d:href>", body.decode())


def check_agree(server, pair, expected_count, step):
    """Both sides hold the same cards: each pair of names vdirsyncer's status records holds the
    same names, organization, email addresses, phone numbers and note on both sides."""
    import sqlite3
    import urllib.parse
    rows = sqlite3.connect(os.path.join(pair.status, "book.items")).execute(
        "select ident, href_a, href_b from status").fetchall()
    local_names = sorted(os.listdir(pair.vdir))
    hrefs = server_hrefs(server)
    if not (len(local_names) == len(hrefs) == len(rows) == expected_count):
        peers.fail(f"{step}: {len(local_names)} local cards, {len(hrefs)} on the server, {len(rows)} in the status; "
                   f"expected {expected_count}")
    if sorted(urllib.parse.unquote(href) for href in hrefs) != sorted(urllib.parse.unquote(row[2]) for row in rows):
        peers.fail(f"{step}: the server lists other names than vdirsyncer gave its cards")
    cards = {}
    for ident, href_a, href_b in rows:
        with open(os.path.join(pair.vdir, href_a), encoding="utf-8") as handle:
            local = normalized(handle.read())
        status, _, body = server.request("GET", href_b)
        if status != 200:
            peers.fail(f"{step}: GET {href_b} answered {status}")
        remote = normalized(body.decode())
        # FN is written from the names, which may hold a prefix or suffix the client's FN left out.
        if not all(word in "".join(remote["fnText"]) for word in local["fn"]):
            peers.fail(f"{step}: card {ident} lost words of its name: local {local['fn']}, server {remote['fn']}")
        if not set(local["note"]) <= set(remote["note"]):
            peers.fail(f"{step}: card {ident} lost words of its note: local {local['note']}, server {remote['note']}")
        for key in ("uid", "n", "email", "tel"):
            if local[key] != remote[key] and not (key in ("uid", "n") and not local[key]):
                peers.fail(f"{step}: card {ident} differs in {key}: local {local[key]}, server {remote[key]}")
        cards[ident] = local
    return cards


def edit_local(pair, names):
    """Adds an email address to the first local card that has a UID (vdirsyncer knows a card
    without one by its content's hash, so an edit of such a card is a new card to it)."""
    for name in names:
        path = os.path.join(pair.vdir, name)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        if re.search(r"^UID:", text, flags=re.M):
            break
    text = text.replace("END:VCARD", "EMAIL;TYPE=INTERNET:edited-locally@example.org\r\nEND:VCARD")
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    return name


def main():
    binary, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    cards = peers.accepted_by_ledger(binary, workdir, peers.corpus_cards())
    if len(cards) < 10:
        peers.fail(f"the corpus gave only {len(cards)} usable cards")
    server = peers.LedgerServer(binary, workdir)
    try:
        pair = peers.Vdirsyncer(workdir, server.url())
        for index, card in enumerate(cards):
            with open(os.path.join(pair.vdir, f"card-{index:03}.vcf"), "w", encoding="utf-8", newline="") as handle:
                handle.write(card)
        pair.discover()
        pair.sync()
        # The server lists each card under the name vdirsyncer gave it and with its ETag
        # unchanged, so a second sync has nothing to do.
        settled = pair.sync()
        if "Copying" in settled or "Deleting" in settled:
            peers.fail(f"a second sync with no change did something:\n{settled}")
        count = len(cards)
        check_agree(server, pair, count, "after the first sync")

        # Edit on both sides: a local card gains an email address; a server card changes its name.
        names = sorted(os.listdir(pair.vdir))
        edit_local(pair, names)
        status, _, body = server.request("PROPFIND", server.book, headers={"Depth": "1"})
        hrefs = re.findall(r"<d:href>([^<]*\.vcf)</d:href>", body.decode())
        target = hrefs[-1]
        status, headers, body = server.request("GET", target, basic=False)
        etag = headers.get("ETag")
        edited = body.decode().replace("END:VCARD", "NICKNAME:Edited on the server\r\nEND:VCARD")
        edited = re.sub(r"^FN:.*$", "FN:Server Edit", edited, count=1, flags=re.M)
        edited = re.sub(r"^N:[^\r\n]*", "N:Edit;Server;;;", edited, count=1, flags=re.M)
        status, _, _ = server.request("PUT", target, body=edited.encode(), basic=False,
                                      headers={"Content-Type": "text/vcard", "If-Match": etag})
        if status not in (200, 201, 204):
            peers.fail(f"the server-side edit answered {status}")
        stale, _, _ = server.request("PUT", target, body=edited.encode(), basic=False,
                                     headers={"Content-Type": "text/vcard", "If-Match": etag})
        if stale != 412:
            peers.fail(f"a PUT with a stale ETag answered {stale}, not 412")
        pair.sync()
        local = check_agree(server, pair, count, "after editing both sides")
        if not any("edited-locally@example.org" in card["email"] for card in local.values()):
            peers.fail("the local edit did not reach the server")
        if not any(card["n"] == ["Edit", "Server"] for card in local.values()):
            peers.fail("the server's edit did not reach the vdir")

        # Delete on both sides.
        names = sorted(os.listdir(pair.vdir))
        os.remove(os.path.join(pair.vdir, names[0]))
        status, _, body = server.request("PROPFIND", server.book, headers={"Depth": "1"})
        hrefs = re.findall(r"<d:href>([^<]*\.vcf)</d:href>", body.decode())
        status, _, _ = server.request("DELETE", hrefs[len(hrefs) // 2], basic=False)
        if status != 204:
            peers.fail(f"the server-side delete answered {status}")
        pair.sync()
        check_agree(server, pair, count - 2, "after deleting on both sides")
        pair.sync()
        check_agree(server, pair, count - 2, "after a sync with nothing to do")

        log = [json.loads(line) for line in server.run("log", "--json").splitlines() if line.strip()]
        authors = {entry["author"] for entry in log}
        by_client = [entry for entry in log if entry["author"].startswith("carddav:alice (vdirsyncer/")]
        kinds = {operation["type"] for entry in by_client for operation in entry["operations"]}
        if not {"addContact", "updateContact", "deleteContact"} <= kinds:
            peers.fail(f"the log does not name vdirsyncer's adds, updates and deletes: authors {sorted(authors)}, "
                       f"kinds {sorted(kinds)}")
        print(json.dumps({"cards": count, "records": len(log), "vdirsyncerRecords": len(by_client),
                          "authors": sorted(authors)}))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
