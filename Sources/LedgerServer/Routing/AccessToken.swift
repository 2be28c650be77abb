import Foundation

/// The secret every request must carry: in the `ledger_token` cookie the first visit sets, in
/// `Authorization: Bearer`, or as `?token=` on the first visit's address.
public struct AccessToken: Sendable, Hashable {
    /// The token's text: 64 hexadecimal digits for a fresh one.
    public let value: String

    /// The cookie's name.
    static let cookieName = "ledger_token"

    /// A token with this text, which must be at least 16 printable ASCII characters without
    /// spaces or `;`.
    public init(_ value: String) throws {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count >= 16, trimmed.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x3B && $0 != 0x2C })
        else {
            throw ServerError("an access token must be at least 16 printable ASCII characters without spaces, ; or ,")
        }
        self.value = trimmed
    }

    private init(checked value: String) { self.value = value }

    /// A fresh token from the system's random source.
    public static func fresh() -> AccessToken {
        // The system generator reads the kernel's random source (getrandom on Linux).
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return AccessToken(checked: bytes.map { String(format: "%02x", $0) }.joined())
    }

    /// The token in `path`, or a fresh one written there (mode 0600) when the file is missing
    /// or empty, so that a server bound beyond loopback keeps one token across restarts.
    public static func stored(at path: String) throws -> AccessToken {
        if let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8),
            !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            return try AccessToken(text)
        }
        let token = fresh()
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data((token.value + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw ServerError("cannot write the token file \(path)")
        }
        return token
    }

    /// Whether a request carries the token, compared in time that does not depend on where
    /// the texts differ.
    func admits(_ request: HTTPRequest) -> Bool {
        candidates(in: request).contains { matches($0) }
    }

    /// Whether the request carries the token in its query (the first visit's address).
    func isInQuery(_ request: HTTPRequest) -> Bool {
        request.query["token"].map(matches) ?? false
    }

    private func candidates(in request: HTTPRequest) -> [String] {
        var found: [String] = []
        if let authorization = request.header("authorization"), authorization.lowercased().hasPrefix("bearer ") {
            found.append(String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        }
        for field in request.headers where field.name == "cookie" {
            for pair in field.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == Self.cookieName {
                    found.append(String(parts[1]).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        if let query = request.query["token"] { found.append(query) }
        return found
    }

    /// Whether a presented text is the token, compared in time that does not depend on where
    /// the texts differ.
    func matches(_ candidate: String) -> Bool {
        let left = Array(value.utf8)
        let right = Array(candidate.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<left.count { difference |= left[index] ^ (index < right.count ? right[index] : 0) }
        return difference == 0
    }

    /// The `Set-Cookie` value that carries the token from then on: for this site only, out of
    /// the pages' scripts' reach.
    var cookie: String {
        "\(Self.cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict"
    }
}
