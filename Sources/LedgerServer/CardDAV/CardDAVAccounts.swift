import ContactsLedger
import Foundation
import Synchronization

/// The accounts that may sign in to the CardDAV address books with HTTP Basic authentication,
/// read from a file `serve --carddav-accounts FILE` names.
///
/// Each line is `ACCOUNT CLIENT HASH`: the name a client signs in with, the store client it acts
/// as (whose access the owner sets with `contacts-ledger authorize` and `grant`), and the
/// password's salted hash from ``CardDAVPassword/hash(_:)``. Blank lines and lines starting
/// with `#` are skipped. No password is kept in the ledger or in the file.
public struct CardDAVAccounts: Sendable {
    /// One account.
    public struct Account: Sendable, Hashable {
        /// The name the client signs in with, which is also its path segment.
        public var name: String
        /// The store client the account acts as.
        public var client: String
        /// The password's hash, as ``CardDAVPassword/hash(_:)`` writes it.
        public var passwordHash: String
    }

    /// The accounts by name.
    public let accounts: [String: Account]
    /// Credentials already verified, so that a client's every request does not cost the
    /// hash's iterations again.
    private let verified = VerifiedCredentials()

    /// No accounts: only the server's token signs in.
    public init() { accounts = [:] }

    /// The accounts in a file's text; a malformed line is refused, naming its number.
    public init(text: String) throws {
        var found: [String: Account] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard fields.count == 3, Self.isName(fields[0]), !fields[1].isEmpty, CardDAVPassword.isHash(fields[2])
            else {
                throw ServerError(
                    "line \(index + 1) of the accounts file must be ACCOUNT CLIENT HASH (ACCOUNT of letters, digits, "
                        + "- _ . @; HASH from contacts-ledger carddav-account)")
            }
            guard !Self.reservedNames.contains(fields[0]) else {
                throw ServerError(
                    "line \(index + 1) of the accounts file names the account \(fields[0]), "
                        + "which is reserved for the token's holder; choose another name")
            }
            guard found[fields[0]] == nil else {
                throw ServerError("line \(index + 1) of the accounts file names the account \(fields[0]) again")
            }
            found[fields[0]] = Account(name: fields[0], client: fields[1], passwordHash: fields[2])
        }
        accounts = found
    }

    /// The accounts in the file at `path`.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerError("cannot read the accounts file \(path)")
        }
        try self.init(text: String(decoding: data, as: UTF8.self))
    }

    /// The names no account may take: `owner` is the path segment of the token's holder.
    public static let reservedNames: Set<String> = ["owner"]

    /// A hash no password is known for, checked for a name that is no account, so that a
    /// sign-in with an unknown name costs what one with a wrong password costs and its timing
    /// does not tell which names are accounts.
    private static let unknownAccountHash = CardDAVPassword.hash(UUID().uuidString)

    /// Whether a text can be an account name: a path segment that needs no escaping.
    public static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.@".unicodeScalars.contains($0))
            }
            && text != "." && text != ".."
    }

    /// The account a `Basic` credential names, when its password matches.
    func account(user: String, password: String) -> Account? {
        guard let account = accounts[user] else {
            _ = CardDAVPassword.verify(password, against: Self.unknownAccountHash)
            return nil
        }
        let key = VerifiedCredentials.key(user: user, password: password, hash: account.passwordHash)
        if verified.contains(key) { return account }
        guard CardDAVPassword.verify(password, against: account.passwordHash) else { return nil }
        verified.insert(key)
        return account
    }
}

/// The credentials a server has verified since it started, each as one SHA-256 of the account,
/// the password and its stored hash (never the password itself), at most 256 of them.
final class VerifiedCredentials: Sendable {
    private let keys = Mutex<Set<String>>([])

    /// The key of a credential.
    static func key(user: String, password: String, hash: String) -> String {
        var hasher = SHA256()
        hasher.update(Array("\(user)\u{0}\(password)\u{0}\(hash)".utf8))
        return hasher.finalize().hex
    }

    func contains(_ key: String) -> Bool { keys.withLock { $0.contains(key) } }

    func insert(_ key: String) {
        keys.withLock { keys in
            if keys.count >= 256 { keys.removeAll() }
            keys.insert(key)
        }
    }
}

/// Salted, iterated SHA-256 password hashes: `sha256i$ITERATIONS$SALT$DIGEST`, the salt 16
/// random bytes and the digest 32, both in hexadecimal.
public enum CardDAVPassword {
    /// The iterations a new hash uses: enough to make guessing slow, few enough that a sign-in
    /// costs milliseconds.
    public static let iterations = 20_000

    /// A new hash of `password` with a fresh salt.
    public static func hash(_ password: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return format(salt: salt, iterations: iterations, digest: digest(password, salt: salt, iterations: iterations))
    }

    /// Whether `password` is the one `hash` was made from; compared in time that does not
    /// depend on where the digests differ.
    public static func verify(_ password: String, against hash: String) -> Bool {
        guard let (iterations, salt, expected) = parse(hash) else { return false }
        let actual = digest(password, salt: salt, iterations: iterations)
        var difference: UInt8 = 0
        for (left, right) in zip(actual, expected) { difference |= left ^ right }
        return difference == 0 && actual.count == expected.count
    }

    /// Whether a text has the form of a hash.
    static func isHash(_ text: String) -> Bool { parse(text) != nil }

    private static func digest(_ password: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(salt)
        hasher.update(Array(password.utf8))
        var state = hasher.finalize().bytes
        for _ in 1..<max(iterations, 1) {
            var round = SHA256()
            round.update(salt)
            round.update(state)
            state = round.finalize().bytes
        }
        return state
    }

    private static func format(salt: [UInt8], iterations: Int, digest: [UInt8]) -> String {
        "sha256i$\(iterations)$\(hex(salt))$\(hex(digest))"
    }

    private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    private static func parse(_ text: String) -> (Int, [UInt8], [UInt8])? {
        let parts = text.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "sha256i", let iterations = Int(parts[1]),
            (1...10_000_000).contains(iterations),
            let salt = bytes(parts[2]), salt.count >= 8, let digest = bytes(parts[3]), digest.count == 32
        else { return nil }
        return (iterations, salt, digest)
    }

    private static func bytes(_ hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            out.append(byte)
        }
        return out
    }
}
