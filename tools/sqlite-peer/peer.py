#!/usr/bin/env python3
"""The SQLite peer of ledger-bench's search through the public API.

Loads the contacts ledger-bench wrote out (one per line, tab-separated: identifier, given name,
family name, the searched name words already folded and joined by spaces, the email addresses in
lower case joined by spaces, the phone numbers as normalized digits joined by spaces) into an
in-memory SQLite database with an FTS5 table over the name words (with prefix indexes), and
indexed tables of email addresses and phone numbers. Then it runs the queries ledger-bench ran
(one per line: kind, query, the number of contacts the ledger returned), each returning the same
rows as the ledger (identifier, given name, family name), and prints one JSON object: per kind,
the p50 and p99 in microseconds and the mean number of rows.

A query whose row count differs from the ledger's is a failure of the bench, not a figure: the
script names it on standard error and exits with status 1.

With --serve, it prints one JSON line once the contacts are loaded (the SQLite version, the
contacts, the load time) and then runs the queries a few at a time as standard input asks
(see serve()), so that ledger-bench can alternate its own queries with SQLite's and a change of the
machine's speed during the run lands on both; the row counts then come with the requests, and the
queries file's fourth field is "-".

usage: peer.py [--serve] CONTACTS QUERIES
"""

import json
import sqlite3
import sys
import time

SCHEMA = """
CREATE TABLE contacts(id INTEGER PRIMARY KEY, identifier TEXT NOT NULL, given TEXT, family TEXT);
CREATE VIRTUAL TABLE names USING fts5(words, content='', detail=none, prefix='2 3 4 5');
CREATE TABLE emails(address TEXT NOT NULL, contact INTEGER NOT NULL);
CREATE TABLE phones(digits TEXT NOT NULL, contact INTEGER NOT NULL);
"""

INDEXES = """
CREATE INDEX emails_address ON emails(address, contact);
CREATE INDEX phones_digits ON phones(digits, contact);
"""

QUERIES = {
    "name": "SELECT c.identifier, c.given, c.family FROM names JOIN contacts c ON c.id = names.rowid "
    "WHERE names MATCH ?",
    "email": "SELECT identifier, given, family FROM contacts WHERE id IN "
    "(SELECT contact FROM emails WHERE address = ?)",
    "phone": "SELECT identifier, given, family FROM contacts WHERE id IN "
    "(SELECT contact FROM phones WHERE digits = ?)",
}


def load(db, path):
    """Loads the contacts file; returns how many contacts it held."""
    count = 0
    contacts, names, emails, phones = [], [], [], []

    def flush():
        db.executemany("INSERT INTO contacts VALUES (?, ?, ?, ?)", contacts)
        db.executemany("INSERT INTO names(rowid, words) VALUES (?, ?)", names)
        db.executemany("INSERT INTO emails VALUES (?, ?)", emails)
        db.executemany("INSERT INTO phones VALUES (?, ?)", phones)
        for rows in (contacts, names, emails, phones):
            rows.clear()

    with open(path, encoding="utf-8") as lines:
        for line in lines:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 6:
                raise ValueError(f"{path}: line {count + 1} has {len(fields)} fields, not 6")
            count += 1
            identifier, given, family, words, addresses, numbers = fields
            contacts.append((count, identifier, given, family))
            if words:
                names.append((count, words))
            emails.extend((address, count) for address in addresses.split())
            phones.extend((digits, count) for digits in numbers.split())
            if len(contacts) >= 50_000:
                flush()
    flush()
    db.executescript(INDEXES)
    return count


def match_expression(words):
    """Every word as a prefix, all of them required: what the ledger's name search means."""
    return " AND ".join('"' + word.replace('"', '""') + '"*' for word in words.split())


def percentile(values, fraction):
    """The nearest-rank percentile, as ledger-bench computes it."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, int(fraction * (len(ordered) - 1) + 0.5))
    return ordered[index]


def read_queries(path):
    """The queries file's lines: kind, query shape, query, and the ledger's row count or "-"."""
    queries = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4:
                raise ValueError(f"{path}: line {number} has {len(fields)} fields, not 4")
            if fields[1] not in QUERIES:
                raise ValueError(f"{path}: line {number} has the unknown query shape {fields[1]!r}")
            queries.append(fields)
    return queries


def run_one(db, shape, query):
    """Runs one query; returns its time in microseconds and its rows."""
    argument = match_expression(query) if shape == "name" else query
    start = time.perf_counter_ns()
    found = db.execute(QUERIES[shape], (argument,)).fetchall()
    return (time.perf_counter_ns() - start) / 1000, found


def mismatch(kind, query, found, expected):
    """The message for a query whose row count is not the ledger's, or None."""
    if found == expected:
        return None
    return f"{kind} query {query!r}: SQLite returned {found} rows, the ledger {expected}"


def run(db, queries):
    """Runs every query, each with the ledger's row count; returns the figures per kind."""
    times, rows, mismatches = {}, {}, []
    for kind, shape, query, expected in queries:
        microseconds, found = run_one(db, shape, query)
        times.setdefault(kind, []).append(microseconds)
        rows.setdefault(kind, []).append(len(found))
        message = mismatch(kind, query, len(found), int(expected))
        if message:
            mismatches.append(message)
    figures = {}
    for kind, measured in times.items():
        counts = rows[kind]
        figures[kind] = {
            "p50_us": percentile(measured, 0.5),
            "p99_us": percentile(measured, 0.99),
            "mean_rows": sum(counts) / len(counts),
            "queries": len(measured),
        }
    return figures, mismatches


def serve(db, queries, requests, answers):
    """Answers requests, one a line: "RUN FIRST COUNT..." runs the queries from FIRST on, one for
    each of the ledger's row counts given, and answers a JSON line of their times in microseconds;
    "END" ends. A count that differs is named on standard error and ends the script with status 1.
    """
    for line in requests:
        words = line.split()
        if words == ["END"]:
            return 0
        if len(words) < 2 or words[0] != "RUN":
            raise ValueError(f"unknown request {line.strip()!r}")
        first, counts = int(words[1]), [int(word) for word in words[2:]]
        if first < 0 or first + len(counts) > len(queries):
            raise ValueError(f"request {line.strip()!r} names queries the file does not have")
        times = []
        for index, expected in enumerate(counts, first):
            kind, shape, query, _ = queries[index]
            microseconds, found = run_one(db, shape, query)
            times.append(microseconds)
            message = mismatch(kind, query, len(found), expected)
            if message:
                print(f"peer.py: {message}", file=sys.stderr)
                return 1
        print(json.dumps({"us": times}), file=answers, flush=True)
    raise ValueError("the requests ended without END")


def main(arguments):
    serving = arguments[:1] == ["--serve"]
    if serving:
        arguments = arguments[1:]
    if len(arguments) != 2:
        print(USAGE, file=sys.stderr)
        return 64
    contacts_path, queries_path = arguments
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    start = time.perf_counter()
    try:
        with db:
            contacts = load(db, contacts_path)
        load_seconds = time.perf_counter() - start
        queries = read_queries(queries_path)
        loaded = {"sqlite_version": sqlite3.sqlite_version, "contacts": contacts, "load_seconds": load_seconds}
        if serving:
            print(json.dumps(loaded, sort_keys=True), flush=True)
            return serve(db, queries, sys.stdin, sys.stdout)
        figures, mismatches = run(db, queries)
    except (OSError, ValueError, sqlite3.Error) as error:
        print(f"peer.py: {error}", file=sys.stderr)
        return 1
    for message in mismatches:
        print(f"peer.py: {message}", file=sys.stderr)
    if mismatches:
        print(f"peer.py: {len(mismatches)} queries returned a different number of rows", file=sys.stderr)
        return 1
    print(json.dumps(dict(loaded, kinds=figures), sort_keys=True))
    return 0


USAGE = "usage: peer.py [--serve] CONTACTS QUERIES"

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
