/// Why a checkpoint or a proof was refused, or signing failed, in one sentence a user can act on.
public struct ProofError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
