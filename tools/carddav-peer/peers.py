"""Start CardDAV servers on loopback and sync vdirs with them through vdirsyncer.

Shared by vdirsyncer_roundtrip.py (the real-client test) and compare.py (the timing beside
Radicale). Every server and every vdirsyncer run lives in a working directory the caller gives.
"""

import base64
import glob
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "Tests", "Fixtures", "vcards")
PASSWORD = "correct horse battery staple"


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def require_program(name, package):
    path = shutil.which(name)
    if path is None:
        fail(f"{name} is missing: install Debian's {package} (.ci/run does)")
    return path


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, process, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            fail(f"the server exited early with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    fail(f"nothing listened on port {port} within {seconds} s")


def stop_server(process, log):
    """Ends a server started by this module: terminated, killed if it lingers, its log closed."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


class LedgerServer:
    """contacts-ledger serve on a fresh ledger, with one account acting as a fully authorized client."""

    def __init__(self, binary, workdir, account="alice", client="vdirsyncer-client", seed=None):
        self.binary = binary
        self.ledger = os.path.join(workdir, "contacts.ledger")
        self.account = account
        self.run("init")
        self.run("authorize", client, "authorized", "--notes")
        if seed:
            # The cards' UIDs are UUIDs, which an import takes as the contacts' identifiers, so
            # each card is served as UID.vcf, the name vdirsyncer would have given it.
            path = os.path.join(workdir, "seed.vcf")
            with open(path, "w", encoding="utf-8", newline="") as handle:
                handle.write("".join(seed))
            self.run("import", path, "--quiet")
        line = self.run("carddav-account", account, "--client", client, input=PASSWORD + "\n").strip()
        self.accounts = os.path.join(workdir, "carddav-accounts")
        with open(self.accounts, "w") as handle:
            handle.write(line + "\n")
        self.token = "carddav-test-token-" + uuid.uuid4().hex
        token_file = os.path.join(workdir, "token")
        with open(token_file, "w") as handle:
            handle.write(self.token + "\n")
        self.port = free_port()
        self.log = open(os.path.join(workdir, "serve.log"), "w")
        self.process = subprocess.Popen(
            [binary, "--ledger", self.ledger, "serve", "--port", str(self.port), "--token-file", token_file,
             "--carddav-accounts", self.accounts],
            stdout=self.log, stderr=subprocess.STDOUT)
        wait_for_port(self.port, self.process)
        self.base = f"http://127.0.0.1:{self.port}"
        self.book = self.discover_book()

    def run(self, *arguments, input=None):
        done = subprocess.run([self.binary, "--ledger", self.ledger, *arguments], input=input,
                              capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"contacts-ledger {' '.join(arguments)} failed: {done.stderr}")
        return done.stdout

    def request(self, method, path, body=None, headers=None, basic=True):
        request = urllib.request.Request(self.base + path, data=body, method=method)
        if basic:
            credential = base64.b64encode(f"{self.account}:{PASSWORD}".encode()).decode()
            request.add_header("Authorization", "Basic " + credential)
        else:
            request.add_header("Authorization", "Bearer " + self.token)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def discover_book(self):
        status, _, body = self.request("PROPFIND", f"/carddav/addressbooks/{self.account}/", headers={"Depth": "1"})
        if status != 207:
            fail(f"PROPFIND of the address book home answered {status}: {body[:300]!r}")
        books = re.findall(r"<d:href>([^<]*/)</d:href><d:propstat><d:prop>(?:(?!</d:prop>).)*card:addressbook",
                           body.decode())
        if not books:
            fail(f"the home lists no address book: {body[:500]!r}")
        return books[0]

    def url(self):
        return self.base + self.book

    def stop(self):
        stop_server(self.process, self.log)


class RadicaleServer:
    """Radicale with one user, storing in the working directory."""

    def __init__(self, workdir, account="alice", seed=None):
        self.account = account
        storage = os.path.join(workdir, "radicale-collections")
        users = os.path.join(workdir, "radicale-users")
        with open(users, "w") as handle:
            handle.write(f"{account}:{PASSWORD}\n")
        self.port = free_port()
        config = os.path.join(workdir, "radicale.conf")
        with open(config, "w") as handle:
            handle.write(f"[server]\nhosts = 127.0.0.1:{self.port}\n"
                         f"[auth]\ntype = htpasswd\nhtpasswd_filename = {users}\nhtpasswd_encryption = plain\n"
                         f"[storage]\nfilesystem_folder = {storage}\n[logging]\nlevel = warning\n")
        self.log = open(os.path.join(workdir, "radicale.log"), "w")
        self.process = subprocess.Popen([sys.executable, "-m", "radicale", "--config", config],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        wait_for_port(self.port, self.process)
        self.book = f"/{account}/contacts/"
        body = (b'<?xml version="1.0"?><mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">'
                b"<set><prop><resourcetype><collection/><C:addressbook/></resourcetype></prop></set></mkcol>")
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{self.book}", data=body, method="MKCOL")
        credential = base64.b64encode(f"{account}:{PASSWORD}".encode()).decode()
        request.add_header("Authorization", "Basic " + credential)
        with urllib.request.urlopen(request, timeout=60) as response:
            if response.status not in (200, 201):
                fail(f"Radicale did not make the address book: {response.status}")
        # Radicale keeps each card as a file of its collection's folder, named as its client named it.
        folder = os.path.join(storage, "collection-root", account, "contacts")
        for card in seed or []:
            uid = re.search(r"^UID:(.*)$", card, flags=re.M).group(1).strip()
            with open(os.path.join(folder, uid + ".vcf"), "w", encoding="utf-8", newline="") as handle:
                handle.write(card)

    def url(self):
        return f"http://127.0.0.1:{self.port}{self.book}"

    def stop(self):
        stop_server(self.process, self.log)


class Vdirsyncer:
    """One vdirsyncer pair: a local vdir (a) and a CardDAV address book (b)."""

    def __init__(self, workdir, url, account="alice", name="pair"):
        self.vdir = os.path.join(workdir, f"{name}-vdir")
        os.makedirs(self.vdir, exist_ok=True)
        status = os.path.join(workdir, f"{name}-status")
        self.status = status
        self.config = os.path.join(workdir, f"{name}.conf")
        with open(self.config, "w") as handle:
            handle.write(f'[general]\nstatus_path = "{status}"\n\n'
                         f'[pair book]\na = "local"\nb = "remote"\ncollections = null\n'
                         f'conflict_resolution = "b wins"\n\n'
                         f'[storage local]\ntype = "filesystem"\npath = "{self.vdir}"\nfileext = ".vcf"\n\n'
                         f'[storage remote]\ntype = "carddav"\nurl = "{url}"\nusername = "{account}"\n'
                         f'password = "{PASSWORD}"\n')
        self.program = require_program("vdirsyncer", "vdirsyncer")

    def run(self, *arguments):
        done = subprocess.run([self.program, "-c", self.config, *arguments], capture_output=True, text=True,
                              input="y\n" * 4)
        if done.returncode != 0:
            fail(f"vdirsyncer {' '.join(arguments)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return done.stdout + done.stderr

    def sync(self):
        return self.run("sync")

    def discover(self):
        return self.run("discover")


def accepted_by_ledger(binary, workdir, cards):
    """The cards the ledger's own vCard reader accepts (a card it rejects, such as one with the
    birthday 1972-31-01, is refused by the server as by `import`), found by importing each into
    a scratch ledger."""
    scratch = os.path.join(workdir, "scratch")
    os.makedirs(scratch, exist_ok=True)
    ledger = os.path.join(scratch, "scratch.ledger")
    subprocess.run([binary, "--ledger", ledger, "init"], capture_output=True, check=True)
    kept = []
    for index, card in enumerate(cards):
        path = os.path.join(scratch, f"{index}.vcf")
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(card)
        done = subprocess.run([binary, "--ledger", ledger, "import", path], capture_output=True, text=True)
        if done.returncode == 0:
            kept.append(card)
    shutil.rmtree(scratch)
    return kept


def corpus_cards(limit=None):
    """Single vCard 3.0 and 4.0 cards from the fixture corpus that vobject reads, in a stable order."""
    import vobject
    cards = []
    for path in sorted(glob.glob(os.path.join(CORPUS, "**", "*.vcf"), recursive=True)):
        with open(path, "rb") as handle:
            raw = handle.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        for card in re.findall(r"BEGIN:VCARD.*?END:VCARD", text, flags=re.S | re.I):
            if not re.search(r"^VERSION:(3\.0|4\.0)\s*$", card, flags=re.M):
                continue
            try:
                parsed = vobject.readOne(card)
            except Exception:
                continue
            if not hasattr(parsed, "fn") or not parsed.fn.value.strip():
                continue
            cards.append(card.replace("\r\n", "\n").replace("\n", "\r\n") + "\r\n")
    return cards[:limit] if limit else cards


def with_uid(card, uid):
    """The card with its UID replaced by (or given) `uid`."""
    lines = [line for line in card.split("\r\n") if not re.match(r"^UID[;:]", line, flags=re.I)]
    end = max(index for index, line in enumerate(lines) if line.upper().startswith("END:VCARD"))
    lines.insert(end, "UID:" + uid)
    return "\r\n".join(lines)
