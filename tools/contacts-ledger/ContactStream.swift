import ContactsInterchange
import ContactsLedger
import ContactsModel
import Foundation

/// Writes many contacts as one JSON array or one vCard file while they are read from the store,
/// a megabyte at a time, never holding them all or all their text: a large address book is a
/// hundred megabytes of JSON.
struct ContactStream {
    /// The form of the output.
    enum Format {
        case json
        case vCard(VCardVersion)
    }

    private var bytes: [UInt8] = []
    private var text: ParallelText<Contact>
    private let isJSON: Bool
    private let flush: ([UInt8]) throws -> Void

    /// How many bytes are gathered before they go to `flush`.
    private static let flushSize = 1 << 20

    /// Thrown when the output cannot be written (the reader, `head` or a pager, is gone), so
    /// that reading stops; the command then ends quietly.
    struct Closed: Error {}

    /// A stream that hands its bytes to `flush` in order; a `flush` that throws closes it.
    init(_ format: Format, flush: @escaping ([UInt8]) throws -> Void) {
        self.flush = flush
        bytes.reserveCapacity(Self.flushSize * 2)
        switch format {
        case .json:
            isJSON = true
            bytes.append(UInt8(ascii: "["))
            text = ParallelText { contact, index, output in
                if index > 0 { output.append(UInt8(ascii: ",")) }
                ContactJSON.write(contact, to: &output)
            }
        case .vCard(let version):
            isJSON = false
            text = ParallelText { contact, _, output in
                var writer = VCardWriter(version: version)
                writer.write(contact)
                output += writer.bytes
            }
        }
    }

    /// A stream to standard output.
    static func standardOutput(_ format: Format) -> ContactStream {
        ContactStream(format) { try StreamOutput.writeAll($0, to: STDOUT_FILENO) }
    }

    /// Writes one contact.
    mutating func write(_ contact: Contact) throws {
        text.add(contact, to: &bytes)
        if bytes.count >= Self.flushSize { try flushBytes() }
    }

    /// Writes the end of the output and what is left of it.
    mutating func finish() throws {
        text.drain(to: &bytes)
        if isJSON { bytes += "]\n".utf8 }
        try flushBytes()
    }

    private mutating func flushBytes() throws {
        do { try flush(bytes) } catch { throw Closed() }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Runs `body`, which writes contacts to the stream, then ends the stream. A reader that went
    /// away ends the writing quietly; any other error is thrown.
    mutating func writing(_ body: (inout ContactStream) throws -> Void) throws {
        do {
            try body(&self)
            try finish()
        } catch is Closed {
            return
        }
    }
}

extension ContactStore {
    /// Writes every contact a request selects to a stream, as the store decodes them, and ends it.
    func write(_ request: ContactFetchRequest, to stream: inout ContactStream) throws {
        try stream.writing { stream in
            try forEachContactHoldingReadLocks(with: request) { try stream.write($0) }
        }
    }
}
